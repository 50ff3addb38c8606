"""OpenSpiel's generic ``MCTSBot`` as a player of this game: an independent anchor.

``OpenSpielMCTSAgent(simulations=1000, seed=None)`` searches the turn-based
form of the OpenSpiel game (:mod:`wts.adapters.openspiel`) with
``open_spiel.python.algorithms.mcts.MCTSBot``: UCT with ``uct_c=2``,
``simulations`` simulations a move, one random rollout each, the MCTS-Solver
backup (OpenSpiel's default), and a ``numpy.random.RandomState`` made from
the seed.

The seating. ``pyspiel.convert_to_turn_based`` splits each simultaneous turn
into black's move, then white's, and the second mover's search sees the
first mover's move of the turn. This agent is always the first mover: it
plays black as the position is, and white on the position with the colours
swapped (the rules treat both colours alike), so its search never knows
the other side's move of the turn, as in the real game. Its tree does let
the opponent answer its move knowing it, so it plays a cautious game.

>>> import wts
>>> from wts.adapters.openspiel_agent import OpenSpielMCTSAgent
>>> game = wts.Game()
>>> bot = OpenSpielMCTSAgent(simulations=20, seed=1)
>>> square = bot.select(game, "white")
>>> square in game.legal_moves(), bot.total_playouts
(True, 20)
>>> bot.search_state(game, "white").current_player()   # the first mover of the turn
0

OpenSpiel is an optional dependency (``pip install "wts[openspiel]"``): this
module imports it on the first agent made, never on ``import wts``.
"""

from __future__ import annotations

import threading
import time
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from wts.engine.game import Game
from wts.engine.pieces import Color
from wts.engine.squares import Square
from wts.errors import BusyError, ParameterTypeError
from wts.limits import OPENSPIEL_TURNS
from wts.params import check_float, check_int
from wts.players.agents import _check_not_over, _check_seed, _color_index, _fresh_seed
from wts.players.specs import MAX_OPENSPIEL_SIMULATIONS, OPENSPIEL_SIMULATIONS

if TYPE_CHECKING:
    from wts.engine.base import GameBase

__all__ = ["OpenSpielMCTSAgent"]

_INSTALL = "the openspiel-mcts agent needs OpenSpiel: pip install 'wts[openspiel]'"


def _openspiel() -> tuple[ModuleType, ModuleType, ModuleType]:
    """pyspiel, OpenSpiel's mcts module and the game's adapter, imported on first use."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts

        from wts.adapters import openspiel
    except ImportError as exc:
        raise ImportError(_INSTALL) from exc
    return pyspiel, mcts, openspiel


class _Stopped(Exception):
    """A search told to stop."""


class OpenSpielMCTSAgent:
    """OpenSpiel's ``MCTSBot`` seated as the first mover of every turn.

    ``simulations`` (1 to :data:`wts.agents.MAX_OPENSPIEL_SIMULATIONS`) a
    move, ``seed`` as for every agent, ``uct_c`` the UCT constant (default 2), ``stop`` a
    :class:`threading.Event`: once set, a running search stops within one
    simulation and ``select`` answers with a random legal square.
    ``total_playouts`` and ``total_seconds`` add up the simulations and the
    search time since construction or ``reset``.
    """

    def __init__(
        self,
        simulations: int = OPENSPIEL_SIMULATIONS,
        seed: int | None = None,
        *,
        uct_c: float = 2.0,
        stop: threading.Event | None = None,
    ) -> None:
        self.simulations = check_int(simulations, "simulations", 1, MAX_OPENSPIEL_SIMULATIONS)
        self.seed = _check_seed(seed)
        self.uct_c = check_float(uct_c, "uct_c", 0.0, 1e6)
        if stop is not None and not callable(getattr(stop, "is_set", None)):
            raise ParameterTypeError(f"stop must be a threading.Event, not {type(stop).__name__}")
        self.stop = stop
        self._pyspiel, self._mcts, self._adapter = _openspiel()
        self._busy = threading.Lock()
        self.reset()

    def reset(self) -> None:
        seed = self.seed if self.seed is not None else _fresh_seed()
        # RandomState takes 32-bit words; a SeedSequence spreads all 64 bits over them.
        self._rng = np.random.RandomState(np.random.SeedSequence(seed).generate_state(4))
        self.total_playouts = 0
        self.total_seconds = 0.0

    def search_state(self, game: GameBase, color: Color | str) -> Any:
        """The turn-based OpenSpiel state the search starts from: ``game``'s
        position (colours swapped when ``color`` is white), player 0 to move,
        no move of the turn played."""
        index = _color_index(color)
        _check_not_over(game)
        if index == 0:
            position = game.fen()
        else:
            position = Game.from_setup(black=game.white, white=game.black, eggs=game.eggs,
                                       turn=game.turn).fen()
        simultaneous = self._adapter.load_game(fen=position, max_turns=OPENSPIEL_TURNS)
        return self._pyspiel.convert_to_turn_based(simultaneous).new_initial_state()

    def select(self, game: GameBase, color: Color | str) -> Square:
        """The square ``color`` plays; ``game`` is left unchanged. One call at a time."""
        if not self._busy.acquire(blocking=False):
            raise BusyError("this OpenSpielMCTSAgent is selecting a move in another thread")
        try:
            return self._select(game, color)
        finally:
            self._busy.release()

    def _select(self, game: GameBase, color: Color | str) -> Square:
        state = self.search_state(game, color)
        started = time.perf_counter()
        evaluator = _rollout_evaluator(self._mcts, self._rng, self.stop)
        bot = self._mcts.MCTSBot(state.get_game(), uct_c=self.uct_c,
                                 max_simulations=self.simulations, evaluator=evaluator,
                                 random_state=self._rng)
        try:
            square = int(bot.step(state))
        except _Stopped:
            square = int(self._rng.choice(game.legal_moves()))
        else:
            self.total_playouts += self.simulations
        self.total_seconds += time.perf_counter() - started
        return square

    def __repr__(self) -> str:
        return f"OpenSpielMCTSAgent(simulations={self.simulations}, seed={self.seed!r})"


def _rollout_evaluator(mcts: ModuleType, rng: np.random.RandomState,
                       stop: threading.Event | None) -> Any:
    """OpenSpiel's ``RandomRolloutEvaluator`` (one rollout), raising
    :class:`_Stopped` before a rollout once ``stop`` is set."""

    class Evaluator(mcts.RandomRolloutEvaluator):  # type: ignore[name-defined,misc]
        def evaluate(self, state: Any) -> Any:
            if stop is not None and stop.is_set():
                raise _Stopped
            return super().evaluate(state)

    return Evaluator(n_rollouts=1, random_state=rng)
