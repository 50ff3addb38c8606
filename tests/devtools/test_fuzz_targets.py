"""The fuzz targets' seed corpus as a regression test: every file of
``tests/fuzz/corpus/TARGET/`` through its target (``tests/fuzz/targets.py``),
and, where atheris is installed, each target fuzzed for two seconds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from fuzz.__main__ import TARGET_NAMES
from fuzz.seeds import SEEDS
from fuzz.targets import TARGETS

from tests.support.processes import ROOT, TESTS, run_python

CORPUS = TESTS / "fuzz" / "corpus"
CASES = sorted((target, path.name) for target in TARGETS
               for path in (CORPUS / target).iterdir())


def test_every_target_has_a_corpus_and_the_runner_knows_it() -> None:
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(TARGETS)
    assert TARGET_NAMES == tuple(TARGETS)
    for target in TARGETS:
        assert len(list((CORPUS / target).iterdir())) >= 20, target


@pytest.mark.parametrize("target, name", CASES, ids=[f"{t}/{n}" for t, n in CASES])
def test_corpus_input_passes_its_target(target: str, name: str) -> None:
    TARGETS[target]((CORPUS / target / name).read_bytes())


def test_seed_files_match_seeds_py() -> None:
    """The seeds are written by ``python -m tests.fuzz --write-seeds``; rerun it
    after changing seeds.py or a decoder."""
    for target, seeds in SEEDS.items():
        for name, data in seeds.items():
            path = CORPUS / target / f"seed-{name}"
            assert path.is_file() and path.read_bytes() == data, path
        written = {p.name for p in (CORPUS / target).glob("seed-*")}
        assert written == {f"seed-{name}" for name in seeds}, target


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris not installed")
def test_each_target_fuzzes_for_two_seconds_without_failing(tmp_path: Path) -> None:
    result = run_python("-m", "tests.fuzz", "all", "--seconds", "2", "--crash-dir", str(tmp_path),
                        cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("no failure") == len(TARGETS), result.stdout
