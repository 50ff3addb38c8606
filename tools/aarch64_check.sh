#!/usr/bin/env bash
# The package built for 64-bit ARM and tested there, from an x86-64 Debian 12
# machine:
#
#   1. Debian's arm64 CPython 3.11 (its packages unpacked, not installed) and
#      the aarch64 wheels of numpy, pytest and hypothesis from PyPI;
#   2. every module cross-compiled by setup.py for linux-aarch64 against that
#      Python's headers, so both builds of the core are made: `aarch64` and
#      `aarch64-neon` (games in NEON lanes);
#   3. the tests that hold the kernels to the reference engine, run by that
#      Python under qemu from a copy of tests/ outside the source tree:
#      tests/test_kernels.py runs each build in its own process; the others
#      run the default build, aarch64-neon.
#
#     tools/aarch64_check.sh     # as root or with sudo (it adds apt's arm64 architecture)
#
# Needs Python 3.11 with the test extra installed (Cython, setuptools),
# gcc-aarch64-linux-gnu and qemu-user-static (or qemu-user). About 3 minutes
# on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python}
compiler=${WTS_AARCH64_CC:-aarch64-linux-gnu-gcc}
step() { printf '\n== %s\n' "$*"; }
fail() { echo "aarch64_check.sh: $*" >&2; exit 1; }

version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
[[ $version == 3.11 ]] || fail "the modules are built by this Python for Debian 12's CPython 3.11; this is $version"
command -v "$compiler" >/dev/null || fail "no AArch64 cross compiler ($compiler)"
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64) || fail "no qemu-aarch64(-static)"
sudo=$([[ $(id -u) == 0 ]] || echo sudo)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root  # the arm64 Python's files, the emulator's library prefix
mkdir -p "$root" "$work/debs" "$work/site" "$work/bin" "$work/run"

step "Debian's arm64 CPython 3.11"
packages=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libpython3.11-dev
          libc6 libgcc-s1 libstdc++6 zlib1g libexpat1 libffi8 libssl3 libbz2-1.0 liblzma5
          libuuid1 libsqlite3-0 libncursesw6 libtinfo6 libreadline8 libcrypt1 libnsl2
          libtirpc3 libdb5.3)
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $sudo dpkg --add-architecture arm64
    $sudo apt-get update -q >/dev/null
fi
download() { (cd "$work/debs" && apt-get download -q "${packages[@]/%/:arm64}" >/dev/null 2>&1); }
download || { $sudo apt-get update -q >/dev/null && download; } || fail "apt-get download failed"
for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done

step "numpy, pytest and hypothesis for aarch64"
"$python" -m pip download -q --only-binary=:all: --python-version 3.11 --implementation cp \
    --abi cp311 --platform manylinux_2_28_aarch64 --platform manylinux_2_17_aarch64 \
    --platform manylinux2014_aarch64 -d "$work/wheels" "numpy>=1.24" pytest hypothesis
for wheel in "$work"/wheels/*.whl; do "$python" -m zipfile -e "$wheel" "$work/site"; done

step "every module cross-compiled for linux-aarch64"
# The arm64 headers come first; Debian's pyconfig.h includes the multiarch one.
_PYTHON_HOST_PLATFORM=linux-aarch64 CC=$compiler LDSHARED="$compiler -shared" \
    CFLAGS="-I$root/usr/include/python3.11 -I$root/usr/include" \
    "$python" setup.py -q build --build-base "$work/build" >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log"; fail "the cross build failed"; }
lib=$(echo "$work"/build/lib.*)
host_suffix=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
find "$lib" -name "*$host_suffix" | while read -r module; do  # named as the arm64 Python looks for them
    mv "$module" "${module%"$host_suffix"}.cpython-311-aarch64-linux-gnu.so"
done
ls "$lib"/wts/engine/_core_aarch64_neon.*.so >/dev/null || fail "no aarch64-neon build of the core"

step "the kernel tests under qemu"
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
"$work/bin/python3" -m pytest -p no:cacheprovider -q tests/test_kernels.py tests/test_simulate.py \
    tests/test_batch.py tests/test_clarifications.py tests/test_rulebook_figures.py tests/test_perft.py
