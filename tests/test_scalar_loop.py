"""The plain scalar C loop `wts bench` times beside simulate plays the same
game: its games, replayed on the engine, end on the same turn the same way."""

from __future__ import annotations

import pytest

import wts
import wts.engine.reference
from wts.devtools.scalar_loop import ScalarLoop, ScalarLoopError, load


@pytest.fixture(scope="module")
def loop(tmp_path_factory: pytest.TempPathFactory) -> ScalarLoop:
    try:
        return load(tmp_path_factory.mktemp("scalar-loop"))
    except ScalarLoopError as error:
        pytest.skip(str(error))


def replay(engine: type, moves: list[tuple[int, int]]) -> tuple[object, list[object]]:
    game = engine()
    results = []
    for turn, (black, white) in enumerate(moves):
        assert not game.is_over(), f"the engine's game ended before turn {turn}"
        results.append(game.play(black, white))
    return game, results


def test_scalar_loop_games_replay_on_the_fast_engine(loop: ScalarLoop) -> None:
    statuses: dict[str, int] = {}
    cascades = collisions = dissolved = 0
    for index in range(3000):
        played = loop.game(seed=5, index=index)
        game, results = replay(wts.Game, played.moves)
        assert game.is_over(), f"game {index}: the loop ended it, the engine did not"
        assert game.status.name.lower() == played.status, index
        statuses[played.status] = statuses.get(played.status, 0) + 1
        for result in results:
            cascades += any(hatch.wave >= 2 for hatch in result.hatched)
            collisions += result.collision is not None
            dissolved += len(result.dissolved)
    # The games reached the rare rules: a loop that skipped one would have
    # disagreed somewhere above.
    assert set(statuses) == {"black_wins", "white_wins"}, statuses
    assert cascades and collisions and dissolved


def test_scalar_loop_draws_replay_as_draws(loop: ScalarLoop) -> None:
    # About one random game in 50,000 fills the board with nobody ahead.
    draws = [index for index in range(60_000) if loop.game(seed=5, index=index).status == "draw"]
    assert draws
    for index in draws:
        game, _ = replay(wts.Game, loop.game(seed=5, index=index).moves)
        assert game.status == wts.Status.DRAW, index


def test_scalar_loop_games_replay_on_the_reference(loop: ScalarLoop) -> None:
    for index in range(40):
        played = loop.game(seed=9, index=index)
        game, _ = replay(wts.engine.reference.Game, played.moves)
        assert game.is_over() and game.status.name.lower() == played.status, index


def test_scalar_loop_run_plays_the_games_it_returns(loop: ScalarLoop) -> None:
    lengths = [len(loop.game(seed=2, index=i).moves) for i in range(200)]
    assert loop.run(200, seed=2) == sum(lengths)
    assert loop.run(0, seed=2) == 0


def test_scalar_loop_plays_uniform_random_games_like_simulate(loop: ScalarLoop) -> None:
    # Other random streams, the same players: the mean lengths agree within
    # a few standard errors (a game's length varies by about 7.4 turns, so
    # the difference of two means over 10,000 games by about 0.1).
    games = 10_000
    ours = loop.run(games, seed=1) / games
    theirs = wts.simulate(games, seed=1).mean_length
    assert abs(ours - theirs) < 0.5, (ours, theirs)


def test_scalar_loop_refuses_a_bad_game_count(loop: ScalarLoop) -> None:
    for bad in (-1, 2**63, 1.5, True):
        with pytest.raises(ValueError, match="games"):
            loop.run(bad, seed=0)  # type: ignore[arg-type]
