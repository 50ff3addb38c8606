"""Portability: what differs between compilers and platforms behaves the same.

* ``wts_bits.h`` picks compiler builtins where it can and portable C elsewhere
  (MSVC intrinsics, SWAR popcount, a De Bruijn bit scan). Here the header is
  compiled three ways, the portable fallbacks forced by hiding the compiler's
  identity, and each way is checked against plain loops; where a cross
  compiler and QEMU are installed, also for 64-bit ARM.
* A C ``long`` is 32 bits on Windows: a move too wide for it must still be an
  IllegalMoveError, as everywhere else.
"""

from __future__ import annotations

import pathlib
import subprocess

import pytest

import wts
import wts.engine.reference
from tests.support.compilers import aarch64_tools, unix_c_compiler

CHECK_C = r"""
#include <stdio.h>
#include <stdint.h>
#ifdef HIDE_COMPILER
/* After the system headers, which may need them: the header sees no GCC, no
 * Clang, no MSVC and no POPCNT, and compiles its portable C. */
#undef __GNUC__
#undef __clang__
#undef __POPCNT__
#undef __BMI2__
#undef _MSC_VER
#endif
#include "wts_bits.h"

static uint64_t state = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) {  /* xorshift64*, with sparse and dense words mixed in */
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return state * 2685821657736338717ULL;
}
static int naive_popcount(uint64_t x) {
    int n = 0;
    while (x) { n += (int)(x & 1); x >>= 1; }
    return n;
}
static int naive_ctz(uint64_t x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
static int naive_select(uint64_t x, int k) {
    int bit;
    for (bit = 0; bit < 64; bit++) if ((x >> bit) & 1) { if (k == 0) return bit; k--; }
    return -1;
}

int main(void) {
    int i, k, bit, errors = 0;
    wts_rng rng;
    for (bit = 0; bit < 64; bit++) {
        uint64_t one = 1ULL << bit;
        if (wts_ctz64(one) != bit || wts_popcount64(one) != 1) errors++;
        if (wts_select64(one, 0) != bit) errors++;
    }
    for (i = 0; i < 200000; i++) {
        uint64_t x = next();
        if (i % 3 == 1) x &= next();
        if (i % 3 == 2) x &= next() & next();
        if (i % 7 == 0) x |= 1ULL << 63;
        if (wts_popcount64(x) != naive_popcount(x)) errors++;
        if (wts_popcount64_swar(x) != naive_popcount(x)) errors++;
        if (x && wts_ctz64(x) != naive_ctz(x)) errors++;
        k = x ? (int)(next() % (uint64_t)naive_popcount(x)) : 0;
        if (x && wts_select64(x, k) != naive_select(x, k)) errors++;
    }
    for (bit = 0; bit < 128; bit++) {  /* the word is picked without a branch */
        wts_board one = wts_bit_board(bit), x = wts_board_make(next(), next());
        uint64_t word = bit < 64 ? x.lo : x.hi;
        if ((bit < 64 ? one.lo : one.hi) != 1ULL << (bit % 64)) errors++;
        if ((bit < 64 ? one.hi : one.lo) != 0) errors++;
        if (wts_test_bit(x, bit) != (int)((word >> (bit % 64)) & 1)) errors++;
    }
    for (i = 0; i < 20000; i++) {  /* the k-th bit of a board, either word */
        wts_board x = wts_board_make(next(), next() & 0x3FFFFFFu);
        int low = naive_popcount(x.lo), n = low + naive_popcount(x.hi);
        k = n ? (int)(next() % (uint64_t)n) : 0;
        if (n && wts_select(x, k) != (k < low ? naive_select(x.lo, k)
                                             : 64 + naive_select(x.hi, k - low))) errors++;
    }
    wts_rng_seed(&rng, 42);
    for (i = 0; i < 200000; i++) {  /* Lemire: (r * n) >> 32 unless the low word < 2^32 mod n */
        uint32_t r = (uint32_t)next(), n = 1 + (uint32_t)(next() % 100);
        uint64_t m = (uint64_t)r * n;
        if ((uint32_t)m >= (0u - n) % n && wts_rng_below_from(&rng, n, r) != (uint32_t)(m >> 32))
            errors++;
    }
    if (wts_rng_below_from(&rng, 90, 0) >= 90) errors++;  /* rejected: drawn again */
    for (i = 0; i < 100000; i++) {
        uint32_t n = 1 + (uint32_t)(next() % 100);
        if (wts_rng_below(&rng, n) >= n) errors++;
    }
    /* xoshiro256** seeded by splitmix64: the same stream on every platform. */
    wts_rng_seed(&rng, 1);
    printf("%d %llu\n", errors, (unsigned long long)wts_rng_next(&rng));
    return errors != 0;
}
"""

# The header chooses by __GNUC__/__clang__/__POPCNT__/__BMI2__/_MSC_VER; HIDE_COMPILER
# undefines them before including it, so it compiles the portable C that any
# other compiler would get.
VARIANTS = {
    "builtins": [],
    "popcnt-instruction": ["-mpopcnt"],
    "x86-64-v3": ["-march=x86-64-v3"],  # PDEP for the select
    "portable-fallbacks": ["-DHIDE_COMPILER"],
    # Unoptimised too: GCC recognises the De Bruijn table and emits BSF at -O2.
    "portable-fallbacks-O0": ["-DHIDE_COMPILER", "-O0"],
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    cc = unix_c_compiler()
    if cc is None:
        pytest.skip("no Unix C compiler (cc, gcc, clang) on PATH")
    build = tmp_path_factory.mktemp("bits")
    source = build / "check_bits.c"
    source.write_text(CHECK_C)
    outputs = {}
    for name, flags in VARIANTS.items():
        exe = build / name
        cmd = [cc, "-std=c99", "-O2", "-Wall", "-Wextra", "-Wvla", "-Werror", *flags,
               "-I", wts.get_include(), str(source), "-o", str(exe)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0 and name in ("popcnt-instruction", "x86-64-v3"):
            continue  # not an x86 compiler (or too old for the level)
        assert done.returncode == 0, " ".join(cmd) + "\n" + done.stdout + done.stderr
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, f"{name}: {run.stdout}{run.stderr}"
        outputs[name] = run.stdout
    return outputs


def test_header_is_shipped_beside_the_pxd_files() -> None:
    include = pathlib.Path(wts.get_include())
    assert (include / "wts_bits.h").is_file()
    assert (include / "wts_status.h").is_file()  # wts_bits.h includes it


def test_bit_primitives_agree_with_plain_loops_however_compiled(compiled: dict[str, str]) -> None:
    assert "builtins" in compiled
    outputs = set(compiled.values())
    assert len(outputs) == 1, compiled  # the same errors (0) and the same random stream
    assert next(iter(outputs)).split()[0] == "0"


def test_bit_primitives_on_64_bit_arm_match_x86(compiled: dict[str, str],
                                                tmp_path: pathlib.Path) -> None:
    """The header cross-compiled for aarch64 (CNT for popcount, the portable C
    too) and run under QEMU: no errors and the same random stream. Runs where
    Debian's gcc-aarch64-linux-gnu and qemu-user(-static) are installed."""
    cc, qemu = aarch64_tools()
    source = tmp_path / "check_bits.c"
    source.write_text(CHECK_C)
    for name, flags in {"builtins": [], "portable-fallbacks": ["-DHIDE_COMPILER"]}.items():
        exe = tmp_path / f"arm64-{name}"
        cmd = [cc, "-std=c99", "-O2", "-static", "-Wall", "-Wextra", "-Wvla", "-Werror", *flags,
               "-I", wts.get_include(), str(source), "-o", str(exe)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        assert done.returncode == 0, " ".join(cmd) + "\n" + done.stdout + done.stderr
        run = subprocess.run([qemu, str(exe)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, f"{name}: {run.stdout}{run.stderr}"
        assert run.stdout == compiled["builtins"], (name, run.stdout, compiled["builtins"])


@pytest.mark.parametrize("Engine", [wts.Game, wts.reference.Game], ids=["fast", "reference"])
@pytest.mark.parametrize("move", [2**31, 2**32 + 40, 2**63, 2**70, -(2**31) - 1, -(2**70)])
def test_a_move_too_wide_for_a_c_long_is_an_illegal_move(Engine: type, move: int) -> None:
    game = Engine()
    with pytest.raises(wts.IllegalMoveError, match="is not a square"):
        game.play(move, 40)
    with pytest.raises(wts.IllegalMoveError, match="is not a square"):
        game.play(40, move)
    assert game == Engine()
