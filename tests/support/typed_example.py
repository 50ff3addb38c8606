"""A small, fully typed program using wts's public API.

``tests/test_typing.py`` runs it and checks it with ``mypy --strict``, so the
package's annotations and the ``.pyi`` stubs of its compiled modules are
exercised the way a typed user sees them. Run it alone with
``python tests/support/typed_example.py``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import wts
import wts.engine.reference
from wts.engine.api import GameAPI


def play_one_game(seed: int) -> wts.Game:
    """Both players take the lowest and highest legal squares, shifted by ``seed``."""
    game = wts.Game()
    while not game.is_over():
        moves: list[wts.Square] = game.legal_moves()
        black = moves[seed % len(moves)]
        white = moves[-1 - seed % len(moves)]
        result: wts.TurnResult = game.play(black, white)
        captures: tuple[wts.Capture, ...] = result.captures
        for capture in captures:
            assert capture.color in (wts.Color.BLACK, wts.Color.WHITE)
        hatched: tuple[wts.Hatch, ...] = result.hatched
        assert all(h.wave >= 1 for h in hatched)
        if game.turn > 200:
            raise AssertionError("a game of 81 squares cannot last this long")
    return game


def same_game_on_the_reference_engine(game: wts.Game) -> wts.reference.Game:
    """The fast engine's position, set up on the reference engine."""
    return wts.reference.Game.from_setup(
        black=sorted(game.black), white=sorted(game.white), eggs=game.eggs, turn=game.turn
    )


def step_a_batch(n: int, seed: int) -> wts.StepResult:
    """Step ``n`` games together, each player taking a random legal square."""
    batch = wts.BatchGame(n)
    rng = np.random.default_rng(seed)
    result = wts.StepResult(
        np.zeros(n, dtype=np.uint8), np.zeros((n, 2), dtype=np.int32), np.zeros(n, dtype=np.int32)
    )
    while not batch.is_over().all():
        legal: npt.NDArray[np.bool_] = batch.legal_mask()
        black: npt.NDArray[np.int64] = (rng.random(legal.shape) * legal).argmax(axis=1)
        white: npt.NDArray[np.int64] = (rng.random(legal.shape) * legal).argmax(axis=1)
        over = batch.is_over()
        black[over] = wts.NO_MOVE
        white[over] = wts.NO_MOVE
        result = batch.step(black, white)
    first: wts.Game = batch[0]
    assert first.is_over()
    observation: npt.NDArray[np.uint8] = batch.observation()
    assert observation.shape == (n, 4, 9, 9)
    return result


def text_forms(game: wts.Game) -> str:
    """The game as a position string, a record and a picture, read back."""
    fen: str = game.fen()
    again: wts.Game = wts.Game.from_fen(fen)
    history: tuple[wts.TurnResult, ...] = game.history
    root: wts.Game = game.root()
    assert again == game and len(history) == game.turn - root.turn
    saved: wts.record.GameRecord = wts.record.loads(wts.record.dumps(game))
    assert saved.turns == history and saved.game == game
    picture: str = wts.svg.board(game, turn=root.turn, size=200)
    assert picture.startswith("<svg")
    return fen


def both_engines() -> list[GameAPI]:
    """A new game on each engine: mypy holds both to the one engine API."""
    return [wts.Game(), wts.reference.Game()]


def main() -> None:
    fast_game, literal_game = both_engines()
    assert fast_game == literal_game
    game = play_one_game(seed=3)
    text_forms(game)
    status: wts.Status = game.status
    winner: wts.Color | None = game.winner
    assert status.is_over and (winner is None) == (status is wts.Status.DRAW)
    assert same_game_on_the_reference_engine(game) == game

    statuses = [wts.STATUSES[int(code)] for code in step_a_batch(8, seed=1).status]
    assert all(s.is_over for s in statuses)

    simulation: wts.SimulationResult = wts.simulate(200, seed=5, threads=2, per_game=True)
    assert simulation.black_wins + simulation.white_wins + simulation.draws == simulation.games
    counts: npt.NDArray[np.int64] = simulation.length_counts
    lengths: npt.NDArray[np.int32] | None = simulation.lengths
    assert lengths is not None and int(lengths.sum()) == simulation.turns
    assert int((counts * np.arange(len(counts))).sum()) == simulation.turns

    start = wts.Game.from_setup(black=["E5"], white=["E6"], eggs=["A1"])
    fast: wts.PerftCounts = wts.perft(start, 1)
    literal: wts.PerftCounts = wts.perft(wts.reference.Game.from_setup(
        black=["E5"], white=["E6"], eggs=["A1"]), 1)
    assert fast == literal and fast.leaves == 78 * 78
    print(f"wts {wts.__version__}: {status.value} after {game.turn} turns, perft {fast.leaves}")


if __name__ == "__main__":
    main()
