#!/usr/bin/env bash
# Build the Cython extensions with AddressSanitizer and UndefinedBehaviorSanitizer
# in a temporary copy of the package, then run the rule tests, the kernel tests
# (batch, simulate, perft) and the differential corpus (tests/test_fuzz.py)
# against that build. Fails on any sanitizer report, from the test process or
# from any subprocess it starts.
#
#     tools/sanitize.sh              # from the repository root (or anywhere)
#     tools/sanitize.sh -k corpus    # extra arguments go to pytest
#
# Needs gcc (or CC=clang) with its sanitizer runtimes, and the test extra's
# packages (pytest, hypothesis, numpy) in the running python. The source tree
# is not touched: nothing is built in src/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-python3}
cc=${CC:-gcc}
started=$SECONDS
step() { printf '\n== %s [%ds]\n' "$*" $((SECONDS - started)); }

work=$(mktemp -d "${TMPDIR:-/tmp}/wts-sanitize.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

libasan=$("$cc" -print-file-name=libasan.so)
if [[ ! -e $libasan ]]; then
    echo "sanitize.sh: $cc has no libasan.so (Debian: apt-get install libasan8)" >&2
    exit 2
fi
libasan=$(readlink -f "$libasan")

step "copying the package to $work/tree"
mkdir -p "$work/tree/src/wts"
cp setup.py pyproject.toml "$work/tree/"
[[ -e README.md ]] && cp README.md "$work/tree/"
for pattern in '*.py' '*.pyx' '*.pxd' '*.pyi' '*.h' 'py.typed'; do
    find src/wts -maxdepth 1 -name "$pattern" -exec cp {} "$work/tree/src/wts/" \;
done
cp -r tests "$work/tests"
cp pyproject.toml "$work/"  # pytest's settings (markers) for the copied tests
find "$work/tests" -name __pycache__ -prune -exec rm -rf {} +

step "building with -fsanitize=address,undefined ($cc)"
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -O1 -g"
# setup.py appends WTS_EXTRA_* after its own -O3, so -O1 wins.
if ! (cd "$work/tree" && CC=$cc WTS_EXTRA_CFLAGS=$flags \
        WTS_EXTRA_LDFLAGS="-fsanitize=address,undefined" \
        "$python" setup.py build_ext --inplace --build-temp "$work/build") >"$work/build.log" 2>&1; then
    cat "$work/build.log"
    echo "sanitize.sh: the sanitizer build failed" >&2
    exit 1
fi
grep -E -e ': (warning|error|runtime error):' "$work/build.log" || true
expected=$(find src/wts -maxdepth 1 -name '*.pyx' | wc -l)
built=0
for so in "$work"/tree/src/wts/_*.so; do
    symbols=$(nm -D --undefined-only "$so")
    if [[ $symbols != *__asan_init* || $symbols != *__ubsan_handle_* ]]; then
        echo "sanitize.sh: $so is not instrumented" >&2
        exit 1
    fi
    built=$((built + 1))
done
if [[ $built -ne $expected ]]; then
    echo "sanitize.sh: expected $expected extension modules (one per .pyx), built $built" >&2
    exit 1
fi

export ASAN_OPTIONS="detect_leaks=0:log_path=$work/canary/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$work/canary/ubsan"
mkdir -p "$work/canary" "$work/report"

step "the tests will import the sanitized build"
# Even beside an editable install of the source tree, PYTHONPATH comes first.
(cd "$work" && env -u PYTHONPATH LD_PRELOAD="$libasan" PYTHONPATH="$work/tree/src" "$python" -c '
import sys, wts, wts._core, wts._game
for module in (wts, wts._core, wts._game):
    if not module.__file__.startswith(sys.argv[1]):
        sys.exit(f"{module.__name__} comes from {module.__file__}, not from {sys.argv[1]}")
print("wts from", wts.__file__)' "$work/tree/src/") || exit 1

step "canary: a deliberate overrun must be reported"
# BatchCore._get_state does no bounds check (BatchGame does): reading game 1 of
# a batch of 1 is a heap-buffer-overflow that this harness has to see.
if (cd "$work" && env -u PYTHONPATH LD_PRELOAD="$libasan" PYTHONPATH="$work/tree/src" \
        PYTHONMALLOC=malloc "$python" -c 'import wts; wts.BatchGame(1)._get_state(1, wts.Game())') 2>/dev/null; then
    echo "sanitize.sh: the canary overrun was not caught: the harness is broken" >&2
    exit 1
fi
if ! grep -q -s 'heap-buffer-overflow' "$work"/canary/asan.*; then
    echo "sanitize.sh: the canary overrun left no ASan report: the harness is broken" >&2
    exit 1
fi
echo "caught: $(grep -h -m1 'ERROR: AddressSanitizer' "$work"/canary/asan.*)"

step "running the tests under ASan + UBSan"
# log_path: every report, from any process, lands in a file checked below.
export ASAN_OPTIONS="detect_leaks=0:log_path=$work/report/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$work/report/ubsan"
run_tests() {  # run_tests PYTHONMALLOC TEST_FILE... [-- PYTEST_ARGS...]
    local malloc=$1
    shift
    (cd "$work" && env -u PYTHONPATH LD_PRELOAD="$libasan" PYTHONPATH="$work/tree/src" \
        PYTHONMALLOC="$malloc" "$python" -m pytest -q -p no:cacheprovider "$@")
}
# The rule and kernel tests with PYTHONMALLOC=malloc: every Python allocation
# (PyMem_Malloc too) goes through ASan's malloc, so an overrun of a small block
# is caught rather than hidden inside a pymalloc arena. The differential
# corpus is mostly Python (the reference engine), so it keeps pymalloc: it is
# there for the many positions it drives through the C kernels.
rule_tests=(
    test_clarifications.py test_rulebook_figures.py test_wts_rulings.py test_errors.py
    test_api.py test_squares.py test_batch.py test_simulate.py test_perft.py
)
present=()
for name in "${rule_tests[@]}"; do
    [[ -e $work/tests/$name ]] && present+=("tests/$name")
done
status=0
run_tests malloc "${present[@]}" "$@" || status=$?
step "the differential corpus and fuzzer tests under ASan + UBSan"
run_tests pymalloc tests/test_fuzz.py "$@" || status=$?

reports=$(find "$work/report" -type f | sort)
if [[ -n $reports ]]; then
    for report in $reports; do
        echo "---- $report"
        cat "$report"
    done
    echo "sanitize.sh: sanitizer reports above" >&2
    exit 1
fi
if [[ $status -ne 0 ]]; then
    echo "sanitize.sh: pytest failed (exit $status)" >&2
    exit "$status"
fi
step "no sanitizer reports"
