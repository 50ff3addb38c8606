"""Run the fuzz targets under atheris, for a bounded time, from the seed corpus.

    python -m tests.fuzz fen --seconds 60        # one target (from the repository root)
    python -m tests.fuzz all --seconds 20        # every target in turn
    python -m tests.fuzz moves --replay FILE...  # run saved inputs, without atheris
    python -m tests.fuzz --write-seeds           # rewrite corpus/*/seed-* from seeds.py

Each target runs in its own process (libFuzzer exits when it stops), starting
from ``corpus/TARGET/``; the inputs it finds go to a temporary directory, never
into the repository (``--keep-corpus DIR`` keeps them). On a failure the
crashing input is saved in ``--crash-dir`` (default: a new temporary
directory), printed with the traceback, and the exit status is 1. Needs
``pip install atheris`` (or the ``fuzz`` extra).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
DICTS = HERE / "dicts"  # libFuzzer dictionaries: the tokens of each format
TARGET_NAMES = ("fen", "record", "moves", "batch")
# Records hold many lines; a position string may have a turn of 5,000 digits.
MAX_LEN = {"fen": 8192, "record": 4096, "moves": 512, "batch": 512}
ARTIFACT_PREFIXES = ("crash-", "timeout-", "oom-", "leak-", "slow-unit-")


def _child(name: str, libfuzzer_args: list[str]) -> None:
    """Fuzz one target in this process; libFuzzer exits the process when done."""
    import atheris

    # Coverage comes from instrumented bytecode: wts must be imported here first.
    # The reference engine's rules are left out: the targets are about input,
    # wts fuzz covers the rules, and instrumented they would slow every run ~5x.
    with atheris.instrument_imports(include=["wts"], exclude=["wts.reference"]):
        from .targets import TARGETS
    atheris.Setup([sys.argv[0], *libfuzzer_args], TARGETS[name])
    atheris.Fuzz()


def _run_target(name: str, args: argparse.Namespace, crash_dir: Path) -> bool:
    """Fuzz ``name`` for ``args.seconds``; True when no input failed."""
    crash_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"wts-fuzz-{name}-") as scratch:
        found = Path(args.keep_corpus) / name if args.keep_corpus else Path(scratch) / "found"
        found.mkdir(parents=True, exist_ok=True)
        libfuzzer_args = [
            f"-max_total_time={args.seconds}",
            f"-max_len={args.max_len or MAX_LEN[name]}",
            f"-timeout={args.timeout}",
            "-rss_limit_mb=2048",
            "-print_final_stats=1",
            f"-artifact_prefix={crash_dir}{os.sep}",
        ]
        if args.seed is not None:
            libfuzzer_args.append(f"-seed={args.seed}")
        if (DICTS / f"{name}.dict").is_file():
            libfuzzer_args.append(f"-dict={DICTS / f'{name}.dict'}")
        # libFuzzer writes new inputs to the first directory and only reads the others.
        libfuzzer_args += [str(found), str(CORPUS / name)]
        log_path = Path(scratch) / "log.txt"
        command = [sys.executable, "-m", __package__, "--child", name, "--", *libfuzzer_args]
        started = time.monotonic()
        with open(log_path, "w") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                       cwd=HERE.parents[1])
            # Past the budget (a hang libFuzzer cannot interrupt) the run is killed.
            try:
                code = process.wait(timeout=args.seconds + args.timeout + 120)
            except subprocess.TimeoutExpired:
                process.kill()
                code = process.wait()
                with open(log_path, "a") as tail:
                    tail.write("\nkilled: the run went far past its time budget\n")
        log_text = log_path.read_text(errors="replace")
        if args.verbose:
            sys.stdout.write(log_text)
        elapsed = time.monotonic() - started
        runs = re.search(r"stat::number_of_executed_units:\s*(\d+)", log_text)
        count = int(runs.group(1)) if runs else 0
        corpus_size = len(list(found.iterdir()))
        artifacts = sorted(p for p in crash_dir.iterdir() if p.name.startswith(ARTIFACT_PREFIXES))
        if code == 0 and not artifacts:
            print(f"{name}: {elapsed:.0f} s, {count:,} runs ({count / max(elapsed, 1e-9):,.0f}/s), "
                  f"{corpus_size} new corpus inputs, no failure")
            return True
        print(f"{name}: FAILED after {elapsed:.0f} s and {count:,} runs (exit status {code})")
        print("--- the end of the fuzzer's log ---")
        print("\n".join(log_text.splitlines()[-60:]))
        for artifact in artifacts:
            data = artifact.read_bytes()
            print(f"--- failing input saved in {artifact} ({len(data)} bytes) ---")
            print(repr(data[:2000]))
            print(f"replay: python -m tests.fuzz {name} --replay {artifact}")
        if not artifacts:
            print("(no failing input was saved)")
        return False


def _replay(name: str, paths: list[str]) -> bool:
    from .targets import TARGETS

    ok = True
    for path in paths:
        data = Path(path).read_bytes()
        try:
            TARGETS[name](data)
        except Exception:
            ok = False
            print(f"{path}: FAILED ({data[:200]!r})")
            traceback.print_exc()
        else:
            print(f"{path}: ok")
    return ok


def _write_seeds() -> None:
    from .seeds import SEEDS

    for name, seeds in SEEDS.items():
        folder = CORPUS / name
        folder.mkdir(parents=True, exist_ok=True)
        for seed_name, data in seeds.items():
            (folder / f"seed-{seed_name}").write_bytes(data)
        print(f"{name}: {len(seeds)} seeds in {folder}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        _child(argv[1], argv[3:])
        return 0
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split(
        "\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", nargs="?", choices=(*TARGET_NAMES, "all"))
    parser.add_argument("--seconds", type=int, default=60, help="time budget per target")
    parser.add_argument("--seed", type=int, help="libFuzzer's random seed")
    parser.add_argument("--max-len", type=int, help="largest input, in bytes")
    parser.add_argument("--timeout", type=int, default=10,
                        help="seconds one input may take before it counts as a hang")
    parser.add_argument("--crash-dir", help="where failing inputs are saved")
    parser.add_argument("--keep-corpus", metavar="DIR", help="keep the inputs found in DIR/TARGET")
    parser.add_argument("--verbose", action="store_true", help="print libFuzzer's whole log")
    parser.add_argument("--replay", nargs="+", metavar="FILE",
                        help="run the target on these inputs, without atheris")
    parser.add_argument("--write-seeds", action="store_true",
                        help="rewrite the seed files corpus/*/seed-* from seeds.py")
    args = parser.parse_args(argv)
    if args.write_seeds:
        _write_seeds()
        return 0
    if args.target is None:
        parser.error("name a target, or all")
    if args.replay:
        if args.target == "all":
            parser.error("--replay needs one target")
        return 0 if _replay(args.target, args.replay) else 1
    try:
        import atheris  # noqa: F401
    except ImportError:
        print("python -m tests.fuzz: atheris is not installed (pip install atheris, "
              "or the fuzz extra)", file=sys.stderr)
        return 2
    crash_root = Path(args.crash_dir) if args.crash_dir else Path(
        tempfile.mkdtemp(prefix="wts-fuzz-crashes-"))
    names = TARGET_NAMES if args.target == "all" else (args.target,)
    results = [_run_target(name, args, crash_root / name) for name in names]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
