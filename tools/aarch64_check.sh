#!/usr/bin/env bash
# The package built for 64-bit ARM and tested there, from an x86-64 Debian 12
# (bookworm) machine:
#
#   1. Debian's arm64 CPython 3.11, its packages downloaded with a private apt
#      state and unpacked (nothing is installed, no root needed), and the
#      aarch64 wheels of numpy, pytest and hypothesis from PyPI, at the
#      versions of the Python running this;
#   2. every module cross-compiled by setup.py for linux-aarch64 against that
#      Python's headers, from a copy of the sources, so both builds of the
#      core are made: `aarch64` and `aarch64-neon` (games in NEON lanes);
#   3. run by that Python under qemu, from a copy of tests/ outside the source
#      tree: tests/engine/test_kernels.py, which runs each build in its own process
#      against the reference engine and checks that both play the same games
#      (simulate from many starts, BatchGame.step); and the rule tests
#      (rulebook figures and rulings) on the default build, aarch64-neon, on the
#      fast engine only: the reference is plain Python, the same everywhere.
#
#     tools/aarch64_check.sh
#
# Needs Debian 12 with network access to its package archive, a Python 3.11
# with the test extra installed (`pip install -e ".[test]"`: Cython, setuptools,
# numpy, pytest, hypothesis), `PYTHON` (default: python) naming it, and
# Debian's gcc-aarch64-linux-gnu and qemu-user-static (`WTS_AARCH64_CC` names
# another cross compiler). Writes only to a temporary folder, removed at the
# end. About 3 minutes of processor time, and the downloads.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python}
compiler=${WTS_AARCH64_CC:-aarch64-linux-gnu-gcc}
step() { printf '\n== %s\n' "$*"; }
fail() { echo "aarch64_check.sh: $*" >&2; exit 1; }

# shellcheck disable=SC1091
[[ -r /etc/os-release ]] && . /etc/os-release
[[ ${ID:-} == debian && ${VERSION_ID:-} == 12 ]] \
    || fail "needs Debian 12 (bookworm), whose arm64 CPython 3.11 it runs; this is ${PRETTY_NAME:-unknown}"
command -v "$python" >/dev/null || fail "no $python: set PYTHON to a Python 3.11 with the test extra"
version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
[[ $version == 3.11 ]] \
    || fail "$python is Python $version: set PYTHON to a Python 3.11 with the test extra (the modules are built for Debian 12's CPython 3.11)"
"$python" -c 'import Cython, numpy, pytest, xdist, hypothesis' 2>/dev/null \
    || fail "$python lacks Cython, numpy, pytest, pytest-xdist or hypothesis: pip install -e \".[test]\""
command -v "$compiler" >/dev/null \
    || fail "no AArch64 cross compiler ($compiler): apt-get install gcc-aarch64-linux-gnu"
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64) \
    || fail "no qemu-aarch64-static or qemu-aarch64: apt-get install qemu-user-static"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root  # the arm64 Python's files, the emulator's library prefix
mkdir -p "$root" "$work/debs" "$work/site" "$work/bin" "$work/run" "$work/tree" \
    "$work/apt/lists/partial" "$work/apt/cache/archives/partial"

step "Debian's arm64 CPython 3.11"
packages=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libpython3.11-dev
          libc6 libgcc-s1 libstdc++6 zlib1g libexpat1 libffi8 libssl3 libbz2-1.0 liblzma5
          libuuid1 libsqlite3-0 libncursesw6 libtinfo6 libreadline8 libcrypt1 libnsl2
          libtirpc3 libdb5.3)
# The system's sources, read for arm64 into a state of our own: the system's
# architectures and package lists stay as they were.
apt_arm64() {
    apt-get -q -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
        -o Dir::State::Lists="$work/apt/lists" -o Dir::Cache="$work/apt/cache" \
        -o Dir::State::status=/dev/null -o Debug::NoLocking=1 "$@"
}
{ apt_arm64 update && (cd "$work/debs" && apt_arm64 download "${packages[@]}"); } \
    >"$work/apt.log" 2>&1 || { tail -20 "$work/apt.log"; fail "apt-get could not fetch arm64 packages"; }
for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done

step "numpy, pytest, pytest-xdist and hypothesis for aarch64"
pins=$("$python" -c '
from importlib.metadata import version
print(" ".join(f"{name}=={version(name)}" for name in ("numpy", "pytest", "pytest-xdist", "execnet", "hypothesis")))')
# shellcheck disable=SC2086
"$python" -m pip download -q --only-binary=:all: --python-version 3.11 --implementation cp \
    --abi cp311 --platform manylinux_2_28_aarch64 --platform manylinux_2_17_aarch64 \
    --platform manylinux2014_aarch64 -d "$work/wheels" $pins
for wheel in "$work"/wheels/*.whl; do "$python" -m zipfile -e "$wheel" "$work/site"; done

step "every module cross-compiled for linux-aarch64"
# From a copy, so that nothing (the generated C, egg-info) is written to the
# sources. The arm64 headers come first; Debian's pyconfig.h includes the
# multiarch one.
cp -r setup.py pyproject.toml MANIFEST.in README.md LICENSE src "$work/tree/"
(cd "$work/tree" && _PYTHON_HOST_PLATFORM=linux-aarch64 CC=$compiler LDSHARED="$compiler -shared" \
    CFLAGS="-I$root/usr/include/python3.11 -I$root/usr/include" \
    "$python" setup.py -q build --build-base "$work/build" build_ext -j 2) >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log"; fail "the cross build failed"; }
lib=$(echo "$work"/build/lib.*)
host_suffix=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
find "$lib" -name "*$host_suffix" | while read -r module; do  # named as the arm64 Python looks for them
    mv "$module" "${module%"$host_suffix"}.cpython-311-aarch64-linux-gnu.so"
done
ls "$lib"/wts/engine/_core_aarch64_neon.*.so >/dev/null || fail "no aarch64-neon build of the core"

step "the kernel and rule tests under qemu"
# The tests start Python in child processes: the child is this script, which
# runs the arm64 Python under qemu (no binfmt_misc registration needed).
cat >"$work/bin/python3" <<EOF
#!/bin/sh
exec "$qemu" -L "$root" -0 "$work/bin/python3" "$root/usr/bin/python3.11" "\$@"
EOF
chmod +x "$work/bin/python3"
cp -r tests pyproject.toml "$work/run/"
cd "$work/run"
export PYTHONPATH="$lib:$work/site"
"$work/bin/python3" -c '
import platform, wts
kernels = wts.cpu_kernels()
assert platform.machine() == "aarch64", platform.machine()
assert wts.__file__.startswith("'"$lib"'"), wts.__file__
assert kernels == ("aarch64", "aarch64-neon"), kernels
print(f"wts {wts.__version__} on {platform.machine()}: kernels {kernels}, default {wts.cpu_kernel()}")'
# WTS_ENGINES=fast: the rule tests' Game fixture on the fast engine only;
# tests/engine/test_kernels.py names the reference itself. One process (-n 0): this
# runs beside the fuzzers.
WTS_ENGINES=fast "$work/bin/python3" -m pytest -p no:cacheprovider -q -n 0 tests/engine/test_kernels.py \
    tests/engine/test_clarifications.py tests/engine/test_rulebook_figures.py
