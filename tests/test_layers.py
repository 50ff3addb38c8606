"""The stack of folders (docs/development.md, "The stack") and the public paths
("Public paths"): imports go down, even those only a type checker reads, no
modules import each other in a circle, what the players make from above them
is handed down on ``import wts``, and each public thing has one path."""

from __future__ import annotations

import importlib
import os
import pathlib
import pickle
import re
import shutil
import subprocess
import sys

import pytest

import wts
from tests.support.processes import ROOT, python_env, run_python
from wts.engine.notation import Position
from wts.players import agents

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


def _cycles(graph: object) -> list[list[str]]:
    """The groups of modules that import each other in a circle (Tarjan's
    strongly connected components of more than one module)."""
    imported_by = graph.find_modules_directly_imported_by  # type: ignore[attr-defined]
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in imported_by(module):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for module in sorted(graph.modules):  # type: ignore[attr-defined]
        if module not in index:
            visit(module)
    return cycles


def test_no_modules_import_each_other_in_a_circle() -> None:
    """Imports read by a type checker alone count: a circle of them is a
    circle of knowledge all the same."""
    grimp = pytest.importorskip("grimp")  # import-linter's graph, in the test extra
    graph = grimp.build_graph("wts", exclude_type_checking_imports=False)
    assert "wts.engine.base" in graph.modules
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    class Graph:
        def __init__(self) -> None:
            self.modules = {"a", "b", "c", "d"}
            self.edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}

        def find_modules_directly_imported_by(self, module: str) -> set[str]:
            return self.edges[module]

    assert _cycles(Graph()) == [["a", "b", "c"]]


def test_import_wts_imports_no_layer_above_the_players() -> None:
    code = ("import sys, wts; print(' '.join(sorted(m for m in sys.modules if m.startswith("
            "('wts.scale', 'wts.protocol', 'wts.cli', 'wts.adapters', 'wts.runtime', "
            "'wts.serve', 'wts.devtools', 'wts.players.tournament', 'wts.players.pairs', "
            "'wts.players.ladder')))))")
    out = run_python("-c", code, check=True).stdout.split()
    assert out == []


def test_the_engine_draws_itself_with_its_own_drawings() -> None:
    from wts.engine import svg, text

    game = wts.Game.from_setup(black=["E5"], white=["A1"])
    assert str(game) == text.board(game)
    assert game._repr_svg_() == svg.board(game)
    assert wts.svg.board is svg.board


def test_import_wts_hands_the_players_their_makers() -> None:
    assert agents._makers.engine is not None and agents._makers.openspiel is not None
    with pytest.raises(wts.ParameterError, match="no program"):
        agents.make_agent("engine:./no-such-program-here")


def test_a_public_class_is_shown_and_pickled_by_its_public_path() -> None:
    """A pickle names the public class and its own rebuilder, nothing of the
    layers, so a module can move without an alias left behind."""
    game = wts.Game()
    game.play("E5", "D4")
    position = Position(black=(40,), white=(0,), eggs=(20,), turn=3)
    reference = wts.reference.Game.from_fen(game.fen())
    for value, public in [(game, b"wts"), (reference, b"wts.reference"),
                          (position, b"wts.notation"), (game.history[0], b"wts")]:
        data = pickle.dumps(value)
        named = set(re.findall(rb"wts[.\w]*", data))
        assert named == {public} or named == {b"wts", public}, named
        assert pickle.loads(data) == value
    from wts.agents import AgentSpec, RandomAgent

    for value, public in [(AgentSpec.parse("mcts:2"), b"wts.agents"),
                          (RandomAgent(seed=1), b"wts.agents")]:
        named = set(re.findall(rb"wts[.\w]*", pickle.dumps(value)))
        assert named <= {b"wts", public} and public in named, named
    assert wts.Game.__module__ == "wts" and wts.Color.__module__ == "wts"
    assert wts.reference.Game.__module__ == "wts.reference"
    assert wts.record.GameRecord.__module__ == "wts.record"


PUBLIC_MODULES = {
    "wts.reference": ["wts.engine.reference"],
    "wts.notation": ["wts.engine.notation"],
    "wts.record": ["wts.formats.record"],
    "wts.svg": ["wts.engine.svg"],
    "wts.agents": ["wts.players.agents", "wts.players.az", "wts.players.specs"],
    "wts.tournament": ["wts.players.tournament"],
    "wts.network": ["wts.players.network"],
    "wts.env": ["wts.adapters.env"],
    "wts.vector_env": ["wts.adapters.vector_env"],
    "wts.openspiel": ["wts.adapters.openspiel"],
}


@pytest.mark.parametrize(("public", "homes"), sorted(PUBLIC_MODULES.items()))
def test_a_public_short_module_holds_exactly_its_homes_names(public: str,
                                                             homes: list[str]) -> None:
    needs = {"wts.openspiel": "pyspiel", "wts.env": "pettingzoo",
             "wts.vector_env": "gymnasium"}
    if public in needs:
        pytest.importorskip(needs[public])
    short = importlib.import_module(public)
    names: list[str] = []
    for home in homes:
        code = importlib.import_module(home)
        names += code.__all__
        for name in code.__all__:
            assert getattr(short, name) is getattr(code, name)
    assert sorted(short.__all__) == sorted(names)


def test_every_short_module_is_listed() -> None:
    """The package's top-level modules are the short paths, the shared basics
    (errors, parameter checks, bounds) and the private ones."""
    shorts = {f"wts.{path.stem}" for path in pathlib.Path(wts.__file__).parent.glob("*.py")
              if not path.stem.startswith("_")}
    assert shorts == {*PUBLIC_MODULES, "wts.errors", "wts.params", "wts.limits"}
