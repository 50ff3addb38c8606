"""Every build of the SIMD lanes (wts_lanes.h) does the same thing. The
driver tests/native/lanes_check.c steps the lanes over random positions and
prints a digest of every mask and lane they wrote, with counts of each kind
of turn; each build must print the digest recorded here: the AVX2 lanes on
an x86-64 CPU with AVX2, the AVX-512 ones on one with AVX-512, the NEON
lanes on an AArch64 one or, elsewhere, built with a cross compiler and run
under qemu. The AVX2 lanes are held to
the reference engine by tests/engine/test_kernels.py, so this holds the NEON ones
to it too. .ci/run installs the cross compiler and qemu and sets
WTS_REQUIRE_AARCH64=1, so there no NEON check skips."""

from __future__ import annotations

import platform
import subprocess
from pathlib import Path

import pytest

import wts
from tests.support.compilers import aarch64_tools, unix_c_compiler
from tests.support.processes import TESTS
from wts.engine._cpu import cpu_level

DRIVER = TESTS / "native" / "lanes_check.c"
ROUNDS = "6000"  # 192,000 lane-turns stepped and 96,000 placed a seed
# What every build prints for each seed with ROUNDS rounds (the vector width
# aside). Most lane-turns are played in the lanes ("simple"); the rest are
# collisions ("laid"), captures with no egg ("captured") and the turns sent
# to the scalar turn ("scalar"), each over two thousand.
RECORDED = {
    "1": "digest 7fe1038a157c660b lanes 8 lane-turns 192000 scalar 83983 simple 102834 "
         "laid 2427 captured 2756",
    "20261205": "digest ff51ce0073374458 lanes 8 lane-turns 192000 scalar 83627 simple 103321 "
                "laid 2332 captured 2720",
}
MACHINE = platform.machine().lower()
ON_AARCH64 = MACHINE in ("aarch64", "arm64")


def build(compiler: str, flags: list[str], output: Path) -> Path:
    done = subprocess.run([compiler, "-O3", "-std=c99", "-Wall", "-Wextra", "-Werror", *flags,
                           f"-I{wts.get_include()}", str(DRIVER), "-o", str(output)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return output


def printed(command: list[str], seed: str) -> dict[str, str]:
    """What the driver prints, by name, less the vector width."""
    done = subprocess.run([*command, seed, ROUNDS], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    result = dict(zip(words[::2], words[1::2]))
    del result["vector"]
    return result


def recorded(seed: str) -> dict[str, str]:
    words = RECORDED[seed].split()
    return dict(zip(words[::2], words[1::2]))


def native_compiler() -> str:
    compiler = unix_c_compiler()
    if compiler is None:
        pytest.skip("no Unix C compiler (cc, gcc, clang) on PATH")
    return compiler


def aarch64_build(directory: Path, flags: list[str]) -> list[str]:
    """The driver built for AArch64, as a command that runs it: natively on
    an AArch64 machine, elsewhere static (the emulator then needs no AArch64
    libraries) and under qemu."""
    if ON_AARCH64:
        return [str(build(native_compiler(), flags, directory / "lanes"))]
    compiler, emulator = aarch64_tools()
    return [emulator, str(build(compiler, ["-static", *flags], directory / "lanes"))]


@pytest.fixture(scope="module")
def avx2(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    if MACHINE not in ("x86_64", "amd64") or cpu_level() < 3:
        pytest.skip("the AVX2 lanes need an x86-64 CPU with AVX2")
    output = tmp_path_factory.mktemp("avx2") / "lanes"
    return [str(build(native_compiler(), ["-march=x86-64-v3"], output))]


@pytest.fixture(scope="module")
def avx512(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """512-bit vectors, held to 8 games a step (one vector) so that the digest
    is the recorded one; the wheel's build steps 16 (two vectors)."""
    if MACHINE not in ("x86_64", "amd64") or cpu_level() < 4:
        pytest.skip("the AVX-512 lanes need an x86-64 CPU with AVX-512")
    output = tmp_path_factory.mktemp("avx512") / "lanes"
    return [str(build(native_compiler(), ["-march=x86-64-v4", "-DWTS_LANES=8"], output))]


@pytest.fixture(scope="module")
def neon(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return aarch64_build(tmp_path_factory.mktemp("neon"), ["-DWTS_NEON_LANES=1"])


@pytest.mark.parametrize("seed", RECORDED)
def test_the_avx2_lanes_print_the_recorded_digest(avx2: list[str], seed: str) -> None:
    assert printed(avx2, seed) == recorded(seed)


@pytest.mark.parametrize("seed", RECORDED)
def test_the_avx512_lanes_print_the_recorded_digest(avx512: list[str], seed: str) -> None:
    assert printed(avx512, seed) == recorded(seed)


@pytest.mark.parametrize("seed", RECORDED)
def test_the_neon_lanes_print_the_recorded_digest(neon: list[str], seed: str) -> None:
    assert printed(neon, seed) == recorded(seed)


def test_without_neon_lanes_an_aarch64_build_leaves_every_lane_to_the_scalar_turn(
        tmp_path: Path) -> None:
    """The baseline AArch64 build (no WTS_NEON_LANES) has no lanes: its step
    leaves every lane as it was, for the core's scalar turn."""
    result = printed(aarch64_build(tmp_path, []), "1")
    assert result["scalar"] == result["lane-turns"]
    assert result["simple"] == result["laid"] == result["captured"] == "0"
