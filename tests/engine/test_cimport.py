"""The C-level API: another Cython module cimports it by its public name,
wts.engine.capi, and plays with it."""

from __future__ import annotations

import importlib
import pathlib
import sys
import textwrap

import pytest

import wts
import wts.engine.reference
from tests.support.processes import run_python

pytest.importorskip("Cython")

PLAYER_PYX_TEMPLATE = textwrap.dedent(
    """
    # cython: language_level=3
    from {module} cimport (
        wts_state, wts_rng, wts_init, wts_copy, wts_rng_seed, wts_resolve_turn,
        wts_random_legal_move, wts_is_over, wts_legal_moves, wts_popcount,
        wts_count_winning, wts_compute_key, wts_canonical_key, wts_transform,
        wts_transform_square, wts_playout, wts_tactical_playout, wts_board, wts_any,
        wts_bit_square, wts_empty_squares, wts_winning_moves, wts_capturing_moves,
        WTS_BLACK, WTS_WHITE,
    )
    from wts.engine._bits cimport wts_rng_below, wts_select

    cdef int draw(wts_board squares, wts_rng *rng):
        return wts_bit_square(wts_select(squares, <int>wts_rng_below(rng, wts_popcount(squares))))

    cdef int tactical(wts_board own_wins, wts_board foe_wins, wts_board free, wts_rng *rng):
        if wts_any(own_wins):
            return draw(own_wins, rng)
        if wts_any(foe_wins):
            return draw(foe_wins, rng)
        return draw(free, rng)

    cdef tuple ended(wts_state *s, wts_rng *r):
        return (s.black.lo, s.black.hi, s.white.lo, s.white.hi, s.eggs.lo, s.eggs.hi,
                s.turn, s.status, s.key, r.s[0], r.s[1], r.s[2], r.s[3])

    def tactical_playouts(unsigned long long seed, bint captures, int opening, int max_turns):
        # wts_tactical_playout, and its contract played turn by turn: the two
        # end states after ``opening`` random turns from the empty board.
        cdef wts_state fast, slow
        cdef wts_rng rng, fast_rng, slow_rng
        cdef wts_board empty, black_free, white_free
        cdef int black, white, i
        wts_init(&fast)
        wts_rng_seed(&rng, seed)
        for i in range(opening):
            if wts_is_over(&fast):
                break
            black = wts_random_legal_move(&fast, &rng)
            white = wts_random_legal_move(&fast, &rng)
            wts_resolve_turn(&fast, black, white, NULL)
        wts_copy(&slow, &fast)
        fast_rng = slow_rng = rng
        wts_tactical_playout(&fast, &fast_rng, captures, max_turns)
        i = 0
        while not wts_is_over(&slow) and i < max_turns:
            empty = wts_empty_squares(&slow)
            black_free = white_free = empty
            if captures:
                black_free = wts_capturing_moves(&slow, WTS_BLACK)
                white_free = wts_capturing_moves(&slow, WTS_WHITE)
                if not wts_any(black_free):
                    black_free = empty
                if not wts_any(white_free):
                    white_free = empty
            black = tactical(wts_winning_moves(slow.black, empty),
                             wts_winning_moves(slow.white, empty), black_free, &slow_rng)
            white = tactical(wts_winning_moves(slow.white, empty),
                             wts_winning_moves(slow.black, empty), white_free, &slow_rng)
            wts_resolve_turn(&slow, black, white, NULL)
            i += 1
        return [ended(&fast, &fast_rng), ended(&slow, &slow_rng)]

    def play_random_game(unsigned long long seed):
        cdef wts_state state, snapshot, image, played_out
        cdef wts_rng rng
        cdef int black, white, symmetry
        cdef list moves = []
        wts_init(&state)
        wts_rng_seed(&rng, seed)
        while not wts_is_over(&state):
            black = wts_random_legal_move(&state, &rng)
            white = wts_random_legal_move(&state, &rng)
            moves.append((black, white))
            with nogil:
                wts_copy(&snapshot, &state)
                wts_resolve_turn(&state, black, white, NULL)
        wts_transform(&image, &state, 1)
        wts_init(&played_out)
        wts_playout(&played_out, &rng)
        if played_out.key != wts_compute_key(&played_out):
            raise AssertionError("wts_playout left a stale key")
        keys = (state.key, wts_compute_key(&state), wts_canonical_key(&state, &symmetry),
                symmetry, image.key, wts_transform_square(0, 1))
        return (moves, state.turn, state.status, state.black_count, state.white_count,
                wts_popcount(wts_legal_moves(&snapshot)),
                wts_count_winning(state.black), wts_count_winning(state.white), keys)
    """
)

SETUP_PY = textwrap.dedent(
    """
    import wts
    from Cython.Build import cythonize
    from setuptools import Extension, setup

    setup(
        name="wts_player",
        ext_modules=cythonize(
            [Extension("wts_player", ["wts_player.pyx"], include_dirs=[wts.get_include()])],
            quiet=True,
        ),
        script_args=["build_ext", "--inplace"],
    )
    """
)


@pytest.fixture(scope="module")
def player_module(tmp_path_factory):
    build_dir = tmp_path_factory.mktemp("cimport")
    pyx = PLAYER_PYX_TEMPLATE.replace("{module}", "wts.engine.capi")
    (build_dir / "wts_player.pyx").write_text(pyx)
    (build_dir / "setup.py").write_text(SETUP_PY)
    # The dependent build finds wts (and its .pxd files) where this process found it.
    done = run_python("setup.py", cwd=build_dir, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(build_dir))
    try:
        yield importlib.import_module("wts_player")
    finally:
        sys.path.remove(str(build_dir))


def test_get_include_holds_the_pxd_files_and_header():
    include = pathlib.Path(wts.get_include())
    assert (include / "capi.pxd").is_file()
    assert (include / "_core.pxd").is_file()
    assert (include / "wts_bits.h").is_file()
    assert (include / "wts_status.h").is_file()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cimported_core_plays_the_same_game_as_both_engines(player_module, seed):
    (moves, turns, status, black_count, white_count, legal_before_last, black_wins, white_wins,
     keys) = player_module.play_random_game(seed)
    assert turns == len(moves) > 0
    statuses = list(wts.Status)
    for Game in (wts.Game, wts.reference.Game):
        game = Game()
        for black, white in moves:
            last_legal = len(game.legal_moves())
            game.play(black, white)
        assert game.is_over()
        assert game.status is statuses[status]
        assert game.winning_counts == (black_count, white_count) == (black_wins, white_wins)
        assert last_legal == legal_before_last
        key, symmetry = game.canonical()
        assert keys == (game.key(), game.key(), key, symmetry,
                        game.transform(wts.Symmetry.ROTATE_90).key(), wts.I1)


@pytest.mark.parametrize("captures", [False, True])
def test_tactical_playout_keeps_its_contract(player_module, captures):
    """wts_tactical_playout ends where its contract, played turn by turn with
    wts_winning_moves, wts_capturing_moves and wts_resolve_turn, ends: the
    same position, key and generator state, for playouts cut by max_turns too."""
    ended = set()
    for seed in range(300):
        fast, slow = player_module.tactical_playouts(seed, captures, seed % 40, 1000)
        assert fast == slow, seed
        ended.add(fast[7])
        fast, slow = player_module.tactical_playouts(seed, captures, 3, seed % 7)
        assert fast == slow, seed
    statuses = list(wts.Status)
    assert {statuses[code] for code in ended} >= {wts.Status.BLACK_WINS, wts.Status.WHITE_WINS}
