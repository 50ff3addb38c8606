"""The C compilers the tests build with: this machine's, and the cross
compiler and emulator that build and run C for 64-bit ARM."""

from __future__ import annotations

import os
import shutil
import sys

import pytest


def unix_c_compiler() -> str | None:
    """The first of cc, gcc and clang on PATH; None on Windows or without one."""
    if sys.platform == "win32":
        return None
    return next((name for name in ("cc", "gcc", "clang") if shutil.which(name)), None)


def aarch64_tools() -> tuple[str, str]:
    """The AArch64 cross compiler (``$WTS_AARCH64_CC``, else Debian's
    gcc-aarch64-linux-gnu) and the emulator that runs its static programs
    (qemu-user-static or qemu-user). Without them the test skips, but fails
    where ``WTS_REQUIRE_AARCH64=1`` says it must run (.ci/run sets it)."""
    compiler = os.environ.get("WTS_AARCH64_CC", "aarch64-linux-gnu-gcc")
    emulator = shutil.which("qemu-aarch64-static") or shutil.which("qemu-aarch64")
    lacking = ([f"an AArch64 cross compiler ({compiler})"] if shutil.which(compiler) is None
               else []) + (["qemu-aarch64-static or qemu-aarch64"] if emulator is None else [])
    if lacking:
        what = f"missing on PATH: {' and '.join(lacking)}"
        if os.environ.get("WTS_REQUIRE_AARCH64") == "1":
            pytest.fail(f"{what}, and WTS_REQUIRE_AARCH64=1 says this test must run")
        pytest.skip(what)
    assert emulator is not None
    return compiler, emulator
