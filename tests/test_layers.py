"""The stack of folders (docs/development.md, "The stack") and the public paths
("Public paths"): imports go down, what a lower layer uses from above is handed
down on ``import wts``, and every old name answers from ``wts._compat``."""

from __future__ import annotations

import importlib
import os
import pathlib
import pickle
import shutil
import subprocess
import sys
import warnings

import pytest

import wts
from tests.support.processes import python_env, run_python
from wts import _compat
from wts.engine.notation import Position
from wts.players import registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = pathlib.Path(wts.__file__).resolve().parent.parent


def test_every_import_goes_down_the_stack() -> None:
    """The import contracts of pyproject.toml hold for the wts imported here."""
    lint_imports = shutil.which("lint-imports") or shutil.which(
        "lint-imports", path=os.path.dirname(sys.executable))
    if lint_imports is None or not (ROOT / "pyproject.toml").is_file():
        pytest.skip("import-linter (the test and lint extras) or the source tree is missing")
    if SOURCE != ROOT / "src":
        pytest.skip("the wts imported here is not this source tree's")
    proc = subprocess.run([lint_imports], cwd=ROOT, env=python_env(), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def test_import_wts_imports_no_layer_above_the_formats_but_the_registry() -> None:
    code = ("import sys, wts; print(' '.join(sorted(m for m in sys.modules if m.startswith("
            "('wts.players.', 'wts.scale', 'wts.protocol', 'wts.cli', 'wts.adapters', "
            "'wts.runtime', 'wts.serve', "
            "'wts.devtools')))))")
    out = run_python("-c", code, check=True).stdout.split()
    assert out == ["wts.players.registry"]


def test_the_engine_draws_with_the_formats_it_is_handed() -> None:
    from wts.engine.base import BOARD_DRAWINGS
    from wts.formats import svg, text

    game = wts.Game.from_setup(black=["E5"], white=["A1"])
    assert BOARD_DRAWINGS == {"svg": svg.board, "text": text.board}
    assert str(game) == text.board(game)
    assert game._repr_svg_() == svg.board(game)


def test_the_players_registry_holds_what_wts_hands_down() -> None:
    for name in ("engine", "engine_command", "openspiel-mcts", "run_chunks", "check_backend",
                 "write_atomically"):
        assert callable(registry.provider(name))
    with pytest.raises(wts.ParameterError, match="nothing provides 'nothing'"):
        registry.provider("nothing")
    from wts.protocol import EngineError

    assert registry.forfeit_error() is EngineError
    assert registry.check_backend("process", 2, None) == ("process", 2)


def test_an_engine_spec_is_checked_through_the_registry() -> None:
    from wts.players.agents import parse_agent_spec

    with pytest.raises(wts.ParameterError, match="no program"):
        parse_agent_spec("engine:./no-such-program-here")


@pytest.mark.parametrize(("old", "home"), [(old, home) for old, (home, _) in
                                           _compat.MOVED_MODULES.items()])
def test_a_moved_module_answers_at_its_old_path_with_a_warning(
        old: str, home: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if old == "wts.players.openspiel_agent":
        pytest.importorskip("pyspiel")
    module = importlib.import_module(home)
    monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match=f"{old} is now {home}; the old path goes in"):
        again = importlib.import_module(old)
    assert again is module and sys.modules[old] is module
    assert module.__name__ == home and module.__spec__ is not None
    assert module.__spec__.name == home


def test_a_position_pickled_under_the_0_2_0_module_of_position_strings_loads() -> None:
    """wts 0.2.0 kept position strings in wts.formats.notation: its pickles
    load, with no warning; new ones name the public path, wts.notation."""
    position = Position(black=(40,), white=(0,), eggs=(20,), turn=3)
    data = pickle.dumps(position, protocol=0)
    assert b"wts.notation" in data and b"wts.engine" not in data
    old = data.replace(b"wts.notation", b"wts.formats.notation")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pickle.loads(old) == position


def test_the_0_1_0_modules_answer_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for old, home in _compat.PICKLED_MODULES.items():
            assert importlib.import_module(old) is importlib.import_module(home)


@pytest.mark.parametrize(("public", "home"), sorted(_compat.PUBLIC_MODULES.items()))
def test_a_public_short_module_holds_its_home_s_names(public: str, home: str) -> None:
    if public == "wts.openspiel":
        pytest.importorskip("pyspiel")
    if public == "wts.env":
        pytest.importorskip("pettingzoo")
    if public == "wts.vector_env":
        pytest.importorskip("gymnasium")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        short, code = importlib.import_module(public), importlib.import_module(home)
    assert short is not code
    assert set(code.__all__) <= set(short.__all__)
    for name in short.__all__:
        assert getattr(short, name) is getattr(code, name, getattr(short, name))


def test_public_classes_are_pickled_by_their_public_path() -> None:
    assert wts.Game.__module__ == "wts"
    assert wts.reference.Game.__module__ == "wts.reference"
    assert b"wts.reference" in pickle.dumps(wts.reference.Game())


def test_the_tournament_command_keeps_its_public_path() -> None:
    from wts import tournament
    from wts.cli import tournament as tournament_cli

    assert tournament.add_arguments is tournament_cli.add_arguments
    assert tournament.run is tournament_cli.run
    assert {"add_arguments", "run", "play_match"} <= set(tournament.__all__)
