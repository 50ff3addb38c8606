"""Every build of the SIMD lanes (wts_lanes.h) does the same thing: the
AVX2 lanes this machine runs and the NEON lanes of AArch64, built with a
cross compiler and run under an emulator, drive the same random positions
through tests/native/lanes_check.c and must print the same digest of every
mask and lane they wrote. The AVX2 lanes are held to the reference engine
by the kernel tests (tests/test_kernels.py); this holds the NEON ones to
them. .ci/run installs the cross compiler and qemu and sets
WTS_REQUIRE_AARCH64=1, so there the check never skips."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import aarch64_tools

import wts
from wts.engine._cpu import cpu_level

DRIVER = Path(__file__).parent / "native" / "lanes_check.c"
ROUNDS = "6000"  # 384,000 lane-turns a run; about half a second under the emulator
SEEDS = ("1", "20261205")


def build(compiler: str, flags: list[str], output: Path) -> Path:
    done = subprocess.run([compiler, "-O3", "-std=c99", "-Wall", "-Wextra", "-Werror", *flags,
                           f"-I{wts.get_include()}", str(DRIVER), "-o", str(output)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return output


def digest(command: list[str], seed: str) -> dict[str, str]:
    done = subprocess.run([*command, seed, ROUNDS], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    return dict(zip(words[::2], words[1::2]))


@pytest.fixture(scope="module")
def avx2(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    if platform.machine().lower() not in ("x86_64", "amd64") or cpu_level() < 3:
        pytest.skip("the AVX2 lanes need an x86-64 CPU with AVX2")
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler})")
    return [str(build(compiler, ["-march=x86-64-v3"], tmp_path_factory.mktemp("avx2") / "lanes"))]


def neon_build(tmp_path: Path, flags: list[str]) -> list[str]:
    """The driver built for AArch64 (static, so the emulator needs no AArch64
    libraries), as a command that runs it."""
    compiler, emulator = aarch64_tools()
    return [emulator, str(build(compiler, ["-static", *flags], tmp_path / "lanes"))]


@pytest.fixture(scope="module")
def neon(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return neon_build(tmp_path_factory.mktemp("neon"), ["-DWTS_NEON_LANES=1"])


@pytest.mark.parametrize("seed", SEEDS)
def test_the_neon_lanes_do_what_the_avx2_lanes_do(avx2: list[str], neon: list[str],
                                                  seed: str) -> None:
    on_avx2, on_neon = digest(avx2, seed), digest(neon, seed)
    assert (on_avx2.pop("vector"), on_neon.pop("vector")) == ("4", "2")  # 256 and 128 bits
    assert on_neon == on_avx2
    # Every kind of turn was reached: played in the lanes, a collision, a
    # capture with no egg, and sent to the scalar turn.
    turns = {kind: int(on_avx2[kind]) for kind in ("simple", "laid", "captured", "scalar")}
    assert all(count > 1000 for count in turns.values()), turns


def test_without_neon_lanes_an_aarch64_build_leaves_every_lane_to_the_scalar_turn(
        tmp_path: Path) -> None:
    """The baseline AArch64 build (no WTS_NEON_LANES) has no lanes: its step
    leaves every lane as it was, for the core's scalar turn."""
    result = digest(neon_build(tmp_path, []), SEEDS[0])
    assert result["scalar"] == result["lane-turns"]
    assert result["simple"] == result["laid"] == result["captured"] == "0"
