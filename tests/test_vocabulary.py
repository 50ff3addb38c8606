"""The game's vocabulary is defined once (wts.engine.pieces, wts.limits) and the
C side, the web app's script and every reader of a status agree with it.

The C constants are read from the sources' text (the .pxd, .pyx and .h files),
so a change there that leaves Python behind fails here, before any game is
played on the mismatch.
"""

from __future__ import annotations

import re

import pytest

import wts
from tests.support.processes import ROOT
from wts import Color, Piece, Status, limits
from wts.engine import pieces

SRC = ROOT / "src" / "wts"
CORE_PXD = SRC / "engine" / "_core.pxd"
# The C side's status codes and last turn number.
STATUS_H = SRC / "engine" / "wts_status.h"


def c_enum(text: str, names: list[str]) -> dict[str, int]:
    """The values ``NAME = 123`` of ``names`` in C or Cython source text."""
    found = {}
    for name in names:
        match = re.search(rf"\b{name}\s*=\s*(\d+)\b", text)
        assert match is not None, f"{name} is not defined in the source"
        found[name] = int(match.group(1))
    return found


def cython_array(text: str, name: str) -> list[int]:
    """The values of ``NAME[:] = [...]`` in Cython source text."""
    match = re.search(rf"\b{name}\[:\]\s*=\s*\[([^\]]*)\]", text)
    assert match is not None, f"{name} is not filled in the source"
    return [int(value) for value in match.group(1).replace("\n", " ").split(",")]


def engine_sources() -> str:
    """Every Cython and C source of the engine: an array may move between them."""
    paths = [path for pattern in ("*.pyx", "*.pxi", "*.pxd", "*.h")
             for path in sorted((SRC / "engine").glob(pattern))]
    return "\n".join(path.read_text(encoding="utf-8") for path in paths)


# --- Statuses ----------------------------------------------------------------------------


def test_status_codes_of_the_c_core_are_the_order_of_status() -> None:
    """wts_status.h's WTS_ONGOING..WTS_DRAW number the statuses in the order of
    wts.Status, _core.pxd takes them from there, and the compiled core's table
    reads them so."""
    codes = c_enum(STATUS_H.read_text(encoding="utf-8"),
                   [f"WTS_{status.name}" for status in Status])
    pxd = CORE_PXD.read_text(encoding="utf-8")
    assert re.search(r'cdef extern from "wts_status.h":\s*\n\s*enum:', pxd)
    assert not re.search(r"\bWTS_ONGOING\s*=", pxd)  # no numbering of its own
    assert {Status[name[4:]]: code for name, code in codes.items()} == {
        status: code for code, status in enumerate(Status)}
    assert wts.STATUSES == tuple(Status)


def test_c_is_over_test_agrees_with_status_is_over() -> None:
    """The core reads a game as over when its code is WTS_BLACK_WINS or more."""
    first_over = c_enum(STATUS_H.read_text(encoding="utf-8"),
                        ["WTS_BLACK_WINS"])["WTS_BLACK_WINS"]
    assert re.search(r"status\s*>=\s*WTS_BLACK_WINS", engine_sources())
    assert [status.is_over for status in Status] == [
        code >= first_over for code in range(len(Status))]


def test_the_scalar_loop_of_the_benchmarks_has_no_numbering_of_its_own() -> None:
    """The yardstick bench/scalar_loop.c includes wts_status.h and numbers no
    status itself; its Python side reads its codes through wts.STATUSES."""
    text = (ROOT / "bench" / "scalar_loop.c").read_text(encoding="utf-8")
    assert '#include "wts_status.h"' in text
    assert not re.search(r"\b(WTS_)?(ONGOING|SUDDEN_DEATH|BLACK_WINS|WHITE_WINS|DRAW)\s*=",
                         text)
    loader = (ROOT / "bench" / "scalar_loop.py").read_text(encoding="utf-8")
    assert "wts.STATUSES[status.value]" in loader
    assert not re.search(r"\"(ongoing|black_wins|white_wins|draw|sudden_death)\"", loader)


@pytest.mark.parametrize(
    "status, winner, result, words, black_reward, white_reward, black_points",
    [
        (Status.ONGOING, None, "*", "ongoing", 0, 0, 0.5),
        (Status.SUDDEN_DEATH, None, "*", "sudden death", 0, 0, 0.5),
        (Status.BLACK_WINS, Color.BLACK, "1-0", "black wins", 1, -1, 1.0),
        (Status.WHITE_WINS, Color.WHITE, "0-1", "white wins", -1, 1, 0.0),
        (Status.DRAW, None, "1/2-1/2", "a draw", 0, 0, 0.5),
    ],
)
def test_what_each_status_means(status, winner, result, words, black_reward, white_reward,
                                black_points) -> None:
    """Each status's winner, Result tag, words, rewards and points."""
    assert status.winner is winner
    assert status.result == result
    assert status.words == words
    assert (status.reward(Color.BLACK), status.reward(Color.WHITE)) == (
        black_reward, white_reward)
    assert status.points(Color.BLACK) == black_points
    assert status.points(Color.WHITE) == 1.0 - black_points
    assert status.reward("white") == white_reward  # a colour's name is a colour


def test_for_winner_and_from_result_undo_winner_and_result() -> None:
    """for_winner(s.winner) and from_result(s.result) give back each decided status."""
    for status in (Status.BLACK_WINS, Status.WHITE_WINS, Status.DRAW):
        assert Status.for_winner(status.winner) is status
        assert Status.from_result(status.result) is status
    assert Status.from_result("*") is None
    assert Status.from_result("2-0") is None
    with pytest.raises(wts.ParameterError):
        Status.for_winner("green")  # type: ignore[arg-type]


def test_record_results_are_the_status_results() -> None:
    """The record's Result values are the statuses' tags, decided ones first."""
    assert wts.record.RESULTS == ("1-0", "0-1", "1/2-1/2", "*")
    assert set(wts.record.RESULTS) == {status.result for status in Status}


# --- Colours and pieces ------------------------------------------------------------------


def test_colour_codes_of_the_c_core_are_color_index() -> None:
    """WTS_BLACK and WTS_WHITE are Color.index, and Color lists black first."""
    codes = c_enum(CORE_PXD.read_text(encoding="utf-8"), ["WTS_BLACK", "WTS_WHITE"])
    assert codes == {f"WTS_{color.name}": color.index for color in Color}
    assert [color.index for color in Color] == [0, 1]


def test_piece_codes_of_the_c_core_are_the_order_of_piece() -> None:
    """wts_piece_at's codes number the pieces in the order of wts.Piece, and the
    compiled game's table of them is that order."""
    names = {"WTS_EMPTY": Piece.EMPTY, "WTS_BLACK_TURTLE": Piece.BLACK,
             "WTS_WHITE_TURTLE": Piece.WHITE, "WTS_EGG": Piece.EGG}
    codes = c_enum(CORE_PXD.read_text(encoding="utf-8"), list(names))
    assert {names[name]: code for name, code in codes.items()} == {
        piece: code for code, piece in enumerate(Piece)}
    table = re.search(r"\bPIECES\s*=\s*\(([^)]*)\)",
                      (SRC / "engine" / "_game.pyx").read_text(encoding="utf-8"))
    assert table is not None
    assert [name.strip() for name in table.group(1).split(",")] == [
        f"Piece.{piece.name}" for piece in Piece]


def test_web_script_speaks_of_the_pieces_and_colours_the_server_sends() -> None:
    """The board script draws the characters the server's board view sends for
    each piece, and names the colours as Color does."""
    from wts.serve.rooms import board_view

    game = wts.Game.from_setup(black=["A1"], white=["B1"], eggs=["C1"])
    sent = board_view(game)["board"]
    chars = {Piece.BLACK: sent[0], Piece.WHITE: sent[1], Piece.EGG: sent[2],
             Piece.EMPTY: sent[3]}
    script = (SRC / "serve" / "static" / "board.js").read_text(encoding="utf-8")
    for piece in (Piece.BLACK, Piece.WHITE, Piece.EGG):
        assert f'kind === "{chars[piece]}"' in script, piece
    assert f'board[index] === "{chars[Piece.EMPTY]}"' in script
    app = (SRC / "serve" / "static" / "app.js").read_text(encoding="utf-8")
    assert f'["{Color.BLACK.value}", "{Color.WHITE.value}"]' in app


# --- Directions --------------------------------------------------------------------------


def test_direction_order_of_the_c_core_is_directions() -> None:
    """The core's shift of each direction on the padded board (rows of 10
    bits), its table from a step back to a direction, the fast Game's step
    between squares, and the order named in _core.pxd are those of
    wts.engine.pieces.DIRECTIONS."""
    text = engine_sources()
    row = c_enum(text, ["WTS_PADDED_BITS"])["WTS_PADDED_BITS"] // 9
    offsets = [rank_step * row + file_step for _name, file_step, rank_step in pieces.DIRECTIONS]
    shifts = cython_array(text, "DIRECTION_SHIFT")
    # Even directions step to higher bits, odd ones to lower: the core's convention.
    assert [offset if index % 2 == 0 else -offset for index, offset in enumerate(offsets)] == \
        shifts
    # The step of each direction between squares (rank * 9 + file), which the
    # fast Game reads a capture's squares with.
    assert cython_array(text, "SQUARE_STEP") == [
        file_step + 9 * rank_step for _name, file_step, rank_step in pieces.DIRECTIONS]
    back = cython_array(text, "STEP_DIRECTION")
    assert {offset: back[offset + row + 1] for offset in offsets} == {
        offset: index for index, offset in enumerate(offsets)}
    assert sum(entry >= 0 for entry in back) == len(pieces.DIRECTIONS)
    named = re.search(r"0\.\.7:\s*([A-Z, ]+)", CORE_PXD.read_text(encoding="utf-8"))
    assert named is not None
    assert [name.strip() for name in named.group(1).split(",")] == [
        name for name, _f, _r in pieces.DIRECTIONS]


def test_reference_engine_and_symmetries_use_the_one_direction_table() -> None:
    """The reference engine's DIRECTIONS is the vocabulary's, and the
    symmetries order captures by it."""
    from wts.engine import symmetry

    assert wts.reference.DIRECTIONS is pieces.DIRECTIONS
    assert symmetry._DIRECTIONS == {
        (f, r): index for index, (_n, f, r) in enumerate(pieces.DIRECTIONS)}


# --- Bounds ------------------------------------------------------------------------------


def test_last_turn_is_one_number_in_python_and_c() -> None:
    """WTS_MAX_TURN (wts_status.h) is wts.MAX_TURN, which notation and the engines share."""
    header = STATUS_H.read_text(encoding="utf-8")
    match = re.search(r"#define\s+WTS_MAX_TURN\s+(0x[0-9A-Fa-f]+|\d+)u?\b", header)
    assert match is not None
    assert int(match.group(1), 0) == limits.MAX_TURN == wts.MAX_TURN
    assert wts.notation.MAX_TURN == limits.MAX_TURN


def test_playout_turn_cap_of_the_search_is_the_named_one() -> None:
    """The MCTS search's MAX_PLAYOUT_TURNS enum is limits.MAX_PLAYOUT_TURNS."""
    text = "\n".join(path.read_text(encoding="utf-8")
                     for path in sorted((SRC / "players").glob("_search*.p*")))
    assert c_enum(text, ["MAX_PLAYOUT_TURNS"])["MAX_PLAYOUT_TURNS"] == \
        limits.MAX_PLAYOUT_TURNS


def test_each_bound_has_one_definition() -> None:
    """No module but wts.limits assigns a number to a bound it names; the rest import it."""
    names = list(limits.__all__)
    pattern = re.compile(rf"^\s*({'|'.join(names)})\s*(?::[^=]*)?=\s*[\d(]", re.MULTILINE)
    defined = {}
    for path in sorted(SRC.rglob("*.py")):
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            defined.setdefault(match.group(1), []).append(path.relative_to(SRC).as_posix())
    assert defined == {name: ["limits.py"] for name in names}


def test_the_bounds_are_the_ones_each_caller_checks() -> None:
    """The callers' defaults and checks read the named bounds."""
    import importlib
    import inspect

    from wts.players import agents, tournament

    selfplay = importlib.import_module("wts.scale.selfplay")
    assert importlib.import_module("wts.engine.simulate").MAX_GAMES == limits.MAX_GAMES
    assert inspect.signature(selfplay.selfplay).parameters["max_turns"].default == \
        limits.MATCH_TURNS
    assert inspect.signature(tournament.play_match_game).parameters["max_turns"].default == \
        limits.MATCH_TURNS
    with pytest.raises(wts.ParameterError, match=f"from 1 to {limits.MAX_SEARCH_THREADS}"):
        agents.MCTSAgent(threads=limits.MAX_SEARCH_THREADS + 1)


def test_both_environments_default_to_the_one_max_cycles() -> None:
    """The PettingZoo and the Gymnasium environments truncate at the same default."""
    import inspect

    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from wts.adapters import env, vector_env

    for make in (env.WhatTheShellEnv, vector_env.WhatTheShellVectorEnv):
        assert inspect.signature(make).parameters["max_cycles"].default == \
            limits.DEFAULT_MAX_CYCLES
    assert vector_env.DEFAULT_MAX_CYCLES == limits.DEFAULT_MAX_CYCLES
