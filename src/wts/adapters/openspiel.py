"""What the Shell as an OpenSpiel game (``pip install "wts[openspiel]"``).

Importing this module registers the simultaneous-move game
``"python_what_the_shell"`` with ``pyspiel.register_game``:

>>> import pyspiel
>>> import wts.adapters.openspiel
>>> game = pyspiel.load_game("python_what_the_shell")
>>> state = game.new_initial_state()
>>> state.is_simultaneous_node(), len(state.legal_actions(0))
(True, 81)
>>> state.apply_actions([40, 40])          # both name E5: an egg is laid
>>> state.observation_tensor(0)[2 * 81 + 40]
1.0

- two players, 0 black and 1 white, who move at every node at once
  (``Dynamics.SIMULTANEOUS``); no chance nodes;
- 81 distinct actions: the square index ``(rank - 1) * 9 + file`` (A1 = 0,
  I9 = 80); a player's legal actions are the empty squares, ascending;
- returns +1 / -1 to the winner / loser, 0 each for a draw (zero-sum,
  terminal rewards only);
- the observation tensor (4, 9, 9) is from the player's own point of view,
  as in :mod:`wts.env`: own turtles, opponent turtles, eggs, egg age (1 the
  oldest); the observation string is the board and the status; the
  information state string (perfect recall) is the list of joint moves;
- parameter ``max_turns`` (default 200): a game still undecided after that
  many turns ends in a draw, since OpenSpiel needs a bounded game length (a
  random game lasts 29 turns on average);
- parameter ``fen`` (default ``""``, the empty board): the position the game
  starts from, as ``wts.Game.fen()`` writes it (``docs/notation.md``);
  ``max_turns`` counts the turns played from there.

OpenSpiel's sequential algorithms (MCTS, CFR, MCCFR) run on
``pyspiel.convert_to_turn_based(game)``, as for every simultaneous game.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("wts.openspiel needs OpenSpiel: pip install 'wts[openspiel]'") from exc

from wts.engine.game import Game
from wts.engine.observation import observation_planes
from wts.engine.pieces import Color
from wts.engine.squares import SQUARE_NAMES
from wts.errors import GameOverError, ParameterError, ParameterTypeError
from wts.limits import MAX_OPENSPIEL_TURNS, OPENSPIEL_TURNS
from wts.params import check_int

__all__ = ["GAME_NAME", "WhatTheShellGame", "WhatTheShellState", "load_game"]

GAME_NAME = "python_what_the_shell"
_NUM_PLAYERS = 2
_DEFAULT_PARAMS: dict[str, Any] = {"max_turns": OPENSPIEL_TURNS, "fen": ""}
_COLORS = (Color.BLACK, Color.WHITE)
_SHAPE = (4, 9, 9)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python What the Shell",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_NUM_PLAYERS,
    min_num_players=_NUM_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULT_PARAMS,
)


class WhatTheShellGame(pyspiel.Game):  # type: ignore[misc]
    """The game, from which states and observers are made."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        max_turns = check_int(params["max_turns"], "max_turns", 1, MAX_OPENSPIEL_TURNS)
        fen = params["fen"]
        if not isinstance(fen, str):
            raise ParameterTypeError(f"fen must be a position string, not {type(fen).__name__}")
        # Parsed once: every state starts from a copy.
        self.start = Game.from_fen(fen) if fen else Game()
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=81,
                max_chance_outcomes=0,
                num_players=_NUM_PLAYERS,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=max_turns,
            ),
            params,
        )
        self.max_turns = max_turns

    def new_initial_state(self) -> WhatTheShellState:
        """The empty board."""
        return WhatTheShellState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> WhatTheShellObserver:
        """An observer: the board (``perfect_recall=False``) or the move history."""
        return WhatTheShellObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _StateLock:
    """A lock that copies and pickles as a new lock: OpenSpiel clones a Python
    state by deep-copying its attributes one by one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self._lock.release()

    def __deepcopy__(self, memo: dict[int, Any]) -> _StateLock:
        return _StateLock()

    def __reduce__(self) -> tuple[type[_StateLock], tuple[()]]:
        return (_StateLock, ())


def _check_player(player: int) -> None:
    check_int(player, "player (0 black, 1 white)", 0, _NUM_PLAYERS - 1)


class WhatTheShellState(pyspiel.State):  # type: ignore[misc]
    """A position: a :class:`wts.Game` (``state.game``) and the joint moves so far."""

    def __init__(self, game: WhatTheShellGame) -> None:
        super().__init__(game)
        self.game = game.start.copy()
        self._max_turns = game.max_turns
        self.moves: list[tuple[int, int]] = []
        # Keeps a turn of the game and its entry in ``moves`` together across threads.
        self._lock = _StateLock()

    def current_player(self) -> int:
        """``PlayerId.SIMULTANEOUS`` until the game ends, then ``PlayerId.TERMINAL``."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def _legal_actions(self, player: int) -> list[int]:
        """The empty squares, ascending; none once the game is over."""
        _check_player(player)
        if self.is_terminal():
            return []
        return self.game.legal_moves()  # a fresh list of ints

    def _apply_actions(self, actions: list[int]) -> None:
        """Play the joint action; a terminal state takes none (GameOverError),
        even one ended by ``max_turns`` rather than by the rules. A joint action
        is two actions, black's then white's (ParameterError otherwise)."""
        if len(actions) != _NUM_PLAYERS:
            raise ParameterError(f"a joint action is {_NUM_PLAYERS} actions (black's, white's), "
                                 f"got {len(actions)}")
        black, white = actions[0], actions[1]
        with self._lock:
            if len(self.moves) >= self._max_turns and not self.game.is_over():
                raise GameOverError(f"the game ended after max_turns={self._max_turns} turns: "
                                    "no move can be played")
            self.game.play(black, white)
            self.moves.append((int(black), int(white)))

    def _action_to_string(self, player: int, action: int) -> str:
        _check_player(player)
        return f"{_COLORS[player].value} {SQUARE_NAMES[check_int(action, 'action', 0, 80)]}"

    def is_terminal(self) -> bool:
        return bool(self.game.is_over() or len(self.moves) >= self._max_turns)

    def returns(self) -> list[float]:
        """+1 / -1 to the winner / loser once the game is over, else 0 each."""
        status = self.game.status
        return [float(status.reward(color)) for color in _COLORS]

    def __str__(self) -> str:
        return str(self.game)

    def __deepcopy__(self, memo: dict[int, Any]) -> WhatTheShellState:
        # OpenSpiel clones Python states with copy.deepcopy.
        clone = WhatTheShellState(self.get_game())
        clone.game = self.game.copy()
        clone.moves = list(self.moves)
        return clone


class WhatTheShellObserver:
    """Observer, conforming to OpenSpiel's PyObserver interface."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.iig_obs_type = iig_obs_type
        self.tensor = np.zeros(int(np.prod(_SHAPE)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, _SHAPE)}

    def set_from(self, state: WhatTheShellState, player: int) -> None:
        """The (4, 9, 9) planes of ``state`` from ``player``'s point of view."""
        self.dict["observation"][...] = observation_planes(state.game, _COLORS[player])

    def string_from(self, state: WhatTheShellState, player: int) -> str:
        """The board and the status; with perfect recall, the joint moves so far."""
        color = _COLORS[player].value
        if self.iig_obs_type.perfect_recall:
            moves = " ".join(f"{SQUARE_NAMES[b]}/{SQUARE_NAMES[w]}" for b, w in state.moves)
            return f"{color}: {moves}" if moves else f"{color}:"
        return f"{color} to move\n{state.game}"


def load_game(**params: Any) -> pyspiel.Game:
    """``pyspiel.load_game("python_what_the_shell", params)``; ``max_turns`` is
    checked here, since OpenSpiel's own conversion of a huge int fails unclearly.

    >>> load_game(fen="9/9/9/9/4x4/9/9/9/9 - 3").new_initial_state().game.black
    frozenset({40})
    """
    if "max_turns" in params:
        params["max_turns"] = check_int(params["max_turns"], "max_turns", 1, MAX_OPENSPIEL_TURNS)
    return pyspiel.load_game(GAME_NAME, params)


pyspiel.register_game(_GAME_TYPE, WhatTheShellGame)
