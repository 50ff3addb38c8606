#!/usr/bin/env bash
# Build every Cython extension with AddressSanitizer and UndefinedBehaviorSanitizer
# (-fno-sanitize-recover=all) in a temporary copy of the package, once, at -O2 (the
# core in each of its CPU builds), and run against that build the rule, kernel
# (batch, simulate, perft, each CPU kernel), agent and search, and thread tests,
# in two processes side by side, a core each. Fails on any sanitizer report, from
# the test processes or from any subprocess they start.
#
#     tools/sanitize.sh                   # from the repository root (or anywhere)
#     tools/sanitize.sh -k perft          # extra arguments go to pytest
#     WTS_SANITIZE_OPT=-O0 WTS_SANITIZE_CORPUS=1 tools/sanitize.sh
#
# WTS_SANITIZE_OPT picks the optimisation level (-O2 by default; -O0 keeps every
# access the source makes). WTS_SANITIZE_CORPUS=1 then runs the differential
# tests, tests/devtools/test_fuzz.py with its slow ones (the 10,000-game corpus and the
# two-engine state machine), against the same build: the nightly workflow
# (.github/workflows/fuzz.yml) does both. .ci/run runs the default: about 5
# minutes of processor time, over 2 cores.
#
# Needs gcc (or CC=clang) with its sanitizer runtimes, and the test extra's
# packages (pytest, hypothesis, numpy) in the running python. The source tree
# is not touched: nothing is built in src/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-python3}
cc=${CC:-gcc}
level=${WTS_SANITIZE_OPT:--O2}
[[ $level =~ ^-O[0-3sg]$ ]] || { echo "sanitize.sh: WTS_SANITIZE_OPT=$level is not an -O level" >&2; exit 2; }
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
# libstdc++ right after libasan: without it ASan's __cxa_throw interceptor cannot
# find the real one, and the first C++ exception (OpenSpiel's) aborts the process.
preload="$libasan $(readlink -f "$("$cc" -print-file-name=libstdc++.so)")"

step "copying the package to $work/tree"
mkdir -p "$work/tree/src"
cp setup.py pyproject.toml "$work/tree/"
[[ -e README.md ]] && cp README.md "$work/tree/"
# The sources only: no build products of the tree's own (an in-place build).
(cd src && find wts \( -name '*.py' -o -name '*.pyx' -o -name '*.pxd' -o -name '*.pyi' \
    -o -name '*.pxi' -o -name '*.h' -o -name py.typed -o -name '*.wtsnet' -o -name '*.txt' \) \
    -exec cp --parents {} "$work/tree/src/" \;)
cp -r tests bench "$work/"
cp pyproject.toml "$work/"  # pytest's settings (markers) for the copied tests
find "$work/tests" "$work/bench" -name __pycache__ -prune -exec rm -rf {} +

# Each test's bound (pyproject.toml's timeout), ten times over: the sanitized
# build, at -O0 most of all, is that much slower.
export PYTEST_TIMEOUT=${PYTEST_TIMEOUT:-3000}
export ASAN_OPTIONS="detect_leaks=0:log_path=$work/canary/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$work/canary/ubsan"
mkdir -p "$work/canary" "$work/report"
sanitized() {  # sanitized TREE PYTHONMALLOC COMMAND...: run on TREE's build, runtimes preloaded
    local tree=$1 malloc=$2
    shift 2
    (cd "$work" && env -u PYTHONPATH LD_PRELOAD="$preload" PYTHONPATH="$tree/src" \
        PYTHONMALLOC="$malloc" "$@")
}

step "canaries: a deliberate overrun and a deliberate shift by 64 must be reported"
# Both come from a tiny library built with the same flags as the extensions.
# ASan writes its report to log_path; GCC's UBSan, linked beside ASan, writes to
# stderr whatever UBSAN_OPTIONS says, so the test runs below keep their output too.
cat >"$work/canary.c" <<'C'
#include <stdint.h>
#include <stdlib.h>
int overrun(int n) { int *a = malloc(4 * sizeof(int)); int x = a[n]; free(a); return x; }
uint64_t shift(uint64_t x, int k) { return x >> k; }
C
"$cc" -shared -fPIC -fsanitize=address,undefined -fno-sanitize-recover=all -g \
    -o "$work/canary.so" "$work/canary.c"
for call in "overrun(4)" "shift(1, 64)"; do
    sanitized "$work/tree" malloc "$python" -c "import ctypes; lib = ctypes.CDLL('$work/canary.so'); \
lib.shift.argtypes = [ctypes.c_uint64, ctypes.c_int]; lib.$call" 2>>"$work/canary/stderr" && {
        echo "sanitize.sh: the canary $call was not stopped: the harness is broken" >&2
        exit 1
    }
done
grep -q -s 'heap-buffer-overflow' "$work"/canary/asan.* || {
    echo "sanitize.sh: the overrun canary left no ASan report: the harness is broken" >&2
    exit 1
}
grep -q -s 'runtime error: shift exponent 64' "$work/canary/stderr" || {
    echo "sanitize.sh: the shift canary left no UBSan report: the harness is broken" >&2
    exit 1
}
echo "caught: $(grep -h -m1 'ERROR: AddressSanitizer' "$work"/canary/asan.*)"
echo "caught: $(grep -h -m1 'runtime error' "$work/canary/stderr")"

# log_path: every report, from any process, lands in a file checked at the end.
export ASAN_OPTIONS="detect_leaks=0:log_path=$work/report/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$work/report/ubsan"
# The rule, kernel, agent and thread tests, with PYTHONMALLOC=malloc: every Python
# allocation goes through ASan's malloc, so an overrun of a small block is caught
# rather than hidden inside a pymalloc arena. Two groups of about equal time, one
# a core.
# The plain scalar C loop of the benchmarks (bench/test_scalar_loop.py builds
# it) is instrumented too.
groups=(
    "tests/engine/test_clarifications.py tests/engine/test_rulebook_figures.py tests/engine/test_wts_rulings.py
     tests/test_errors.py tests/engine/test_api.py tests/engine/test_squares.py tests/engine/test_history.py
     tests/engine/test_batch.py tests/engine/test_simulate.py tests/engine/test_perft.py tests/engine/test_keys.py
     tests/engine/test_symmetry.py tests/engine/test_undo.py tests/engine/test_kernels.py"
    "tests/players/test_agents.py tests/test_threads.py tests/adapters/test_openspiel.py tests/adapters/test_env.py
     tests/players/test_search_team.py tests/players/test_prior.py tests/players/test_az.py
     tests/players/test_network.py bench/test_scalar_loop.py"
)
step "building every extension with -fsanitize=address,undefined at $level ($cc)"
tree="$work/tree"
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer $level -g"
# setup.py appends WTS_EXTRA_* after its own -O3, so $level wins.
if ! (cd "$tree" && CC=$cc WTS_EXTRA_CFLAGS=$flags \
        WTS_EXTRA_LDFLAGS="-fsanitize=address,undefined" \
        "$python" setup.py build_ext --inplace --build-temp "$work/build") \
        >"$work/build.log" 2>&1; then
    cat "$work/build.log"
    echo "sanitize.sh: the sanitizer build failed" >&2
    exit 1
fi
grep -E -e ': (warning|error|runtime error):' "$work/build.log" || true
expected=$(find src/wts -name '*.pyx' | wc -l)
# On x86-64, the core again for each level the compiler can target (setup.py).
if [[ $(uname -m) == x86_64 ]]; then
    for cpu in 2 3 4; do
        "$cc" -march=x86-64-v$cpu -x c -c /dev/null -o /dev/null 2>/dev/null &&
            expected=$((expected + 1))
    done
fi
built=0
for so in $(find "$tree/src/wts" -name '_*.so'); do
    symbols=$(nm -D --undefined-only "$so")
    if [[ $symbols != *__asan_init* || $symbols != *__ubsan_handle_* ]]; then
        echo "sanitize.sh: $so is not instrumented" >&2
        exit 1
    fi
    built=$((built + 1))
done
if [[ $built -ne $expected ]]; then
    echo "sanitize.sh: expected $expected extension modules (one per .pyx and core build)," \
        "built $built" >&2
    exit 1
fi
sanitized "$tree" malloc "$python" -c '
import sys, wts, wts.engine._core, wts.engine._game, wts.players._search, wts.players._greedy
import wts.players._prior, wts.players._az
for module in (wts, wts.engine._core, wts.engine._game, wts.players._search, wts.players._greedy,
               wts.players._prior, wts.players._az):
    if not module.__file__.startswith(sys.argv[1]):
        sys.exit(f"{module.__name__} comes from {module.__file__}, not from {sys.argv[1]}")' \
    "$tree/src/" || exit 1

step "the rule, kernel, agent and thread tests at $level, in two processes"
run_group() {  # run_group N [PYTEST_ARGS...]: group N's tests; its status in a file
    local group=$1 status=0 name present=()
    shift
    for name in ${groups[$group]}; do
        [[ -e $work/$name ]] && present+=("$name")
    done
    # The million-position key test is numpy's work, not the kernels': left out.
    WTS_SCALAR_LOOP_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all $level -g" \
    WTS_SCALAR_LOOP_LDFLAGS="-fsanitize=address,undefined" \
    sanitized "$tree" malloc "$python" -m pytest -q -p no:cacheprovider -n 0 \
        --deselect tests/engine/test_keys.py::test_a_million_distinct_positions_have_distinct_keys \
        "${present[@]}" "$@" >"$work/output$group" 2>&1 || status=$?
    echo "$status" >"$work/status$group"
}
run_group 0 "$@" &
run_group 1 "$@" &
wait
status=0
for group in 0 1; do
    printf '\n-- %s\n' "$(xargs <<<"${groups[$group]}")"
    cat "$work/output$group"
    [[ $(cat "$work/status$group") -eq 0 ]] || status=$(cat "$work/status$group")
done

if [[ ${WTS_SANITIZE_CORPUS:-0} == 1 && $status -eq 0 ]]; then
    # Mostly Python (the reference engine), so it keeps pymalloc: it is there
    # for the many positions it drives through the C kernels.
    step "the differential tests and corpus (tests/devtools/test_fuzz.py, slow ones too) at $level"
    sanitized "$tree" pymalloc "$python" -m pytest -q -p no:cacheprovider -n 0 -m "" \
        tests/devtools/test_fuzz.py "$@" >"$work/output-corpus" 2>&1 || status=$?
    cat "$work/output-corpus"
fi
if grep -q 'runtime error:' "$work"/output*; then
    grep -h -B2 -A20 'runtime error:' "$work"/output* >&2
    echo "sanitize.sh: UBSan reports above" >&2
    exit 1
fi

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
