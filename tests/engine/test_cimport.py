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
        wts_transform_square, wts_playout,
    )

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
