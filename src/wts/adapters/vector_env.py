"""What the Shell as a Gymnasium vector environment: many games stepped at once
on a :class:`wts.BatchGame` (``pip install "wts[vector]"``, Gymnasium >= 1.1).

>>> import numpy as np
>>> from wts.vector_env import make_vector_env
>>> envs = make_vector_env(64, opponent="random")      # the learner plays black
>>> observations, infos = envs.reset(seed=42)
>>> observations.shape, infos["action_mask"].shape
((64, 4, 9, 9), (64, 81))
>>> rng = np.random.default_rng(0)
>>> wins = 0
>>> for _ in range(200):
...     actions = (rng.random((64, 81)) * infos["action_mask"]).argmax(axis=1)
...     observations, rewards, terminations, truncations, infos = envs.step(actions)
...     wins += int((rewards == 1).sum())
>>> wins > 0, rewards.shape, terminations.dtype
(True, (64,), dtype('bool'))
>>> envs.close()

Two modes, chosen by ``opponent``:

- **versus a built-in opponent** (``opponent="random"`` or ``"greedy"``):
  the learner plays ``color`` (``"black"``, the default, or ``"white"``);
  actions ``(num_envs,)`` ints, one square index each (``(rank - 1) * 9 +
  file``, A1 = 0, I9 = 80); observations ``(num_envs, 4, 9, 9)`` uint8 from
  the learner's side; rewards ``(num_envs,)``. The random opponent names a
  uniformly random empty square, drawn with numpy for the whole batch; the
  greedy one is :class:`wts.agents.GreedyAgent`'s evaluation, asked game by
  game (about 0.4 ms a move, far more than the loop around it);
- **self-play** (``opponent=None``): each action holds both players' moves,
  ``(num_envs, 2)`` as (black, white); observations ``(num_envs, 2, 4, 9,
  9)``, ``[:, 0]`` from black's side and ``[:, 1]`` from white's; rewards
  ``(num_envs, 2)`` in the same order, so ``actions[:, c]``,
  ``observations[:, c]`` and ``rewards[:, c]`` all belong to colour ``c``.

The rest follows :func:`wts.env.parallel_env`. The planes are the agent's
turtles, the opponent's, the eggs (each 0/1) and the eggs' age (1 the
oldest; 0 no egg), ``[plane, rank - 1, file]``. Rewards are +1 to the winner
and -1 to the loser on the step that ends the game, 0 otherwise and for a
draw. ``terminations`` is True when the game is decided, ``truncations``
after ``max_cycles`` turns (default 500) with reward 0; both ``(num_envs,)``
bool. An illegal action (an occupied square, a number outside 0-80) never
raises: with ``illegal_action="random"`` it is replaced by a uniformly random
empty square; with ``"lose"`` the game ends at once, the offender -1 and the
other +1 (both: a draw), and the observation and turn returned are those of
the position before the illegal action (the game in ``envs.batch`` has been
stepped with random squares in its place, and restarts at the next step, as
every ended game does). An action array of the wrong
shape or dtype (floats, NaN included) raises :class:`wts.BatchError` and
changes nothing.

``infos`` holds numpy arrays, each with its ``_key`` bool array saying which
games have it (Gymnasium's vector convention): ``"action_mask"`` (num_envs,
81) int8, 1 on the legal squares, all 0 once the game is over (the same for
both players); ``"turn"`` (num_envs,) int64; after a step also
``"illegal_action"`` (bool) and ``"square"`` (int64, the square actually
played), shaped like the action, and against an opponent
``"opponent_square"``. ``_square`` and ``_illegal_action`` are False for a
game that played no move: one being reset, or one that ended on an illegal
action (its ``square`` is -1).

**Autoreset: next step** (``metadata["autoreset_mode"]`` is
``AutoresetMode.NEXT_STEP``, Gymnasium's default, which all its vector
wrappers understand). The step that ends a game returns its last position,
whose action mask is all 0, so no ``final_obs`` info is needed; the next
step ignores that game's action and returns the first position of a new
game, reward 0, neither terminated nor truncated, and ``_square`` False.
Learners skip those steps with ``infos["_square"]``. ``reset(options={"reset_mask":
mask})`` restarts the chosen games only.

**Seeds**: game ``g``'s randomness (the replacement of illegal actions, the
random opponent's moves, the greedy one's tie breaks) is a stream seeded by
``(seed, g)`` alone, so game ``g`` plays the same with 1 or 1,024 games
beside it. ``reset(seed=s)`` seeds every stream, ``reset()`` goes on with
them; a new environment starts from a fresh seed.

**Why a Gymnasium** ``VectorEnv``: a learner against an opponent is a
single-agent problem, and Gymnasium's vector API (batched spaces, numpy
arrays out, infos with ``_key`` masks, a declared autoreset mode) is what
single-agent training code and wrappers consume. PettingZoo has no vector
API of its own (SuperSuit turns each agent of each copy into a separate
single-agent environment, one Python object apiece, which loses the batch);
EnvPool's multi-player form flattens (game, player) pairs into one batch
with ``env_id`` and ``players`` infos, which suits its C++ thread pool but
not a batch whose two players always move together. Self-play here keeps
the player as a second axis instead.

Threads: ``reset`` and ``step`` hold the environment's lock, as in
:mod:`wts.env`.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from gymnasium.error import ClosedEnvironmentError
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "wts.vector_env needs Gymnasium 1.1 or later: pip install 'wts[vector]'"
    ) from exc

from wts.adapters.game_streams import GameStreams, random_squares
from wts.engine.batch import NO_MOVE, STATUSES, BatchGame
from wts.engine.pieces import Color
from wts.errors import BatchError, ParameterError
from wts.limits import DEFAULT_MAX_CYCLES
from wts.params import check_choice, check_int, check_seed, is_masked_array, masked_array_refused
from wts.players._greedy import greedy_move

__all__ = ["WhatTheShellVectorEnv", "make_vector_env", "OPPONENTS", "ILLEGAL_ACTIONS",
           "DEFAULT_MAX_CYCLES"]

#: The built-in opponents, by name.
OPPONENTS = ("random", "greedy")
#: The ways an illegal action can be handled (as in :mod:`wts.env`).
ILLEGAL_ACTIONS = ("random", "lose")
COLORS = ("black", "white")

Array = npt.NDArray[Any]
Infos = dict[str, Array]
StepReturn = tuple[Array, Array, Array, Array, Infos]

# Black's reward by status code: +1 where black has won, -1 where white has.
_BLACK_SIGN = np.array([s.reward(Color.BLACK) for s in STATUSES], dtype=np.int8)
_IS_OVER = np.array([s.is_over for s in STATUSES], dtype=np.bool_)


def _planes_space(shape: tuple[int, ...]) -> spaces.Box:
    high = np.ones(shape, dtype=np.uint8)
    high[..., 3, :, :] = 81  # egg ages count up to the number of squares
    return spaces.Box(low=0, high=high, shape=shape, dtype=np.uint8)


class WhatTheShellVectorEnv(VectorEnv):
    """``num_envs`` games as one Gymnasium vector environment; build it with
    :func:`make_vector_env` (the module docstring has the details)."""

    # Not a ClassVar: VectorEnv declares metadata as an attribute instances may set.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": "what_the_shell_vector_v0",
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        *,
        opponent: str | None = None,
        color: str | None = None,
        illegal_action: str = "random",
        max_cycles: int = DEFAULT_MAX_CYCLES,
    ) -> None:
        self.num_envs = check_int(num_envs, "num_envs", 1)
        self.opponent = None if opponent is None else check_choice(opponent, "opponent",
                                                                   OPPONENTS)
        if self.opponent is None and color is not None:
            raise ParameterError(f"color={color!r} needs an opponent: in self-play "
                                 "(opponent=None) each action holds both colours' moves")
        self.color = None if self.opponent is None else check_choice(
            "black" if color is None else color, "color", COLORS)
        self.illegal_action = check_choice(illegal_action, "illegal_action", ILLEGAL_ACTIONS)
        self.max_cycles = check_int(max_cycles, "max_cycles", 1)
        self._side = 0 if self.color in (None, "black") else 1  # the learner's column
        self._colors = "both" if self.color is None else self.color  # whose planes
        if self.opponent is None:
            self.single_observation_space = _planes_space((2, 4, 9, 9))
            self.single_action_space: spaces.Space[Any] = spaces.MultiDiscrete([81, 81])
            self._action_shape: tuple[int, ...] = (self.num_envs, 2)
        else:
            self.single_observation_space = _planes_space((4, 9, 9))
            self.single_action_space = spaces.Discrete(81)
            self._action_shape = (self.num_envs,)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        #: The games, to read (``batch[g]`` is game ``g`` as a :class:`wts.Game`);
        #: changing them directly puts them out of step with the environment.
        self.batch = BatchGame(self.num_envs)
        self._legal = self.batch.legal_mask()  # kept from one step to the next
        self._lock = threading.RLock()
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)  # reset on the next step
        self._streams = GameStreams(self.num_envs, random.SystemRandom().getrandbits(64))

    # --- Gymnasium's API ---------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Array, Infos]:
        """Start new games: all of them, or those of ``options["reset_mask"]``
        (a (num_envs,) bool array). ``seed`` seeds every game's stream."""
        with self._lock:
            self._check_open()
            chosen = self._reset_mask(options)
            if seed is not None:
                seed = check_seed(seed)
                super().reset(seed=seed)  # VectorEnv.np_random, for those who use it
                self._streams = GameStreams(self.num_envs, seed)
            self.batch.reset(chosen)
            if chosen is None:
                self._ended[:] = False
            else:
                self._ended &= ~chosen
            observations, self._legal = self.batch.player_planes(self._colors)
            mask = self._legal.view(np.int8).copy()
            mask[self._ended] = 0
            everywhere = np.ones(self.num_envs, dtype=np.bool_)
            infos = {"action_mask": mask, "_action_mask": everywhere,
                     "turn": self.batch.turns, "_turn": everywhere.copy()}
            return observations, infos

    def step(self, actions: npt.ArrayLike) -> StepReturn:
        """One turn in every game (see the module docstring); returns
        observations, rewards, terminations, truncations, infos."""
        with self._lock:
            self._check_open()
            return self._step(self._actions(actions))

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in one numpy-sized C array."""

    # --- the step, on whole arrays -------------------------------------------

    def _step(self, chosen: npt.NDArray[np.int64]) -> StepReturn:
        n = self.num_envs
        restarting = self._ended  # ended last step: restarted now, their actions ignored
        live = ~restarting
        legal = self._legal  # the games' legal squares as they stand
        if self.opponent == "greedy":
            seeds = self._streams.peek(1)[:, 0]
            self._streams.skip(1)
        at_random = random_squares(legal, self._streams, 2)  # one per colour
        if self.opponent is not None:
            learner = chosen
            chosen = at_random.copy()  # the random opponent's move is its column
            chosen[:, self._side] = learner
            if self.opponent == "greedy":
                chosen[:, 1 - self._side] = self._greedy_moves(live, seeds)
        rows = np.arange(n)[:, None]
        ok = (chosen >= 0) & (chosen < 81)
        ok &= legal[rows, np.where(ok, chosen, 0)]
        illegal = live[:, None] & ~ok
        played = np.where(ok, chosen, at_random)
        lost = (illegal.any(axis=1) if self.illegal_action == "lose"
                else np.zeros(n, dtype=np.bool_))
        kept: tuple[Array, Array] | None = None
        if lost.any():  # these games end as they stand: keep what they show now
            kept = self.batch.player_planes(self._colors)[0][lost], self.batch.turns[lost]
        # A game that ended last step plays its random squares (NO_MOVE, -1,
        # once over: none is legal) and restarts right after. A lost game
        # plays too, and shows `kept`.
        status = self.batch.step(played[:, 0], played[:, 1]).status
        self.batch.reset(restarting)
        observations, self._legal = self.batch.player_planes(self._colors)
        turns = self.batch.turns
        mask = self._legal.view(np.int8).copy()
        terminated = live & (_IS_OVER[status] | lost)
        black_reward = np.where(live & ~lost, _BLACK_SIGN[status], 0).astype(np.float64)
        if kept is not None:
            observations[lost], turns[lost] = kept
            black_reward[lost] = illegal[lost, 1].astype(np.float64) - illegal[lost, 0]
        truncated = live & ~terminated & (turns >= self.max_cycles)
        self._ended = terminated | truncated
        mask[self._ended] = 0
        moved = live & ~lost
        played[~moved] = NO_MOVE
        everywhere = np.ones(n, dtype=np.bool_)
        infos: Infos = {"action_mask": mask, "_action_mask": everywhere,
                        "turn": turns, "_turn": everywhere.copy(),
                        "_square": moved, "_illegal_action": live}
        if self.opponent is None:
            rewards = np.stack([black_reward, 0.0 - black_reward], axis=1)  # no -0.0
            infos["square"], infos["illegal_action"] = played, illegal
        else:
            rewards = black_reward if self._side == 0 else 0.0 - black_reward
            infos["square"] = played[:, self._side]
            infos["illegal_action"] = illegal[:, self._side]
            infos["opponent_square"] = played[:, 1 - self._side]
            infos["_opponent_square"] = moved.copy()
        return observations, rewards, terminated, truncated, infos

    def _greedy_moves(self, live: Array, seeds: npt.NDArray[np.uint64]) -> Array:
        """The greedy opponent's squares (NO_MOVE where not ``live``), game by game:
        each evaluation (~0.4 ms) costs far more than this loop."""
        moves = np.full(self.num_envs, NO_MOVE, dtype=np.int64)
        for index in np.flatnonzero(live).tolist():
            moves[index] = greedy_move(self.batch[index], 1 - self._side, int(seeds[index]))
        return moves

    # --- checks ----------------------------------------------------------------

    def _actions(self, actions: object) -> npt.NDArray[np.int64]:
        """The actions as int64, or a BatchError; out-of-range values stay
        illegal actions (uint64 ones are clamped to 81 so they cannot wrap)."""
        shape = self._action_shape
        if is_masked_array(actions):
            raise BatchError(masked_array_refused("actions"))
        try:
            array = np.asarray(actions)
        except (ValueError, TypeError, OverflowError):
            raise BatchError(f"actions must be an int array of shape {shape}; numpy cannot "
                             f"read this {type(actions).__name__} as an array") from None
        if array.shape != shape:
            raise BatchError(f"actions must have shape {shape}, not {array.shape}"
                             + (" (self-play takes (black, white) moves per game)"
                                if self.opponent is None else ""))
        if array.dtype.kind not in "iu":
            nan = array.dtype.kind in "fc" and bool(np.isnan(array).any())
            raise BatchError(f"actions must hold integers (square indices 0-80), not "
                             f"{array.dtype}{' (NaN among them)' if nan else ''}")
        if array.dtype.kind == "u":
            array = np.minimum(array, 81)
        return array.astype(np.int64)

    def _reset_mask(self, options: dict[str, Any] | None) -> Array | None:
        if not options:
            return None
        if not isinstance(options, dict) or set(options) - {"reset_mask"}:
            raise ParameterError(f"options may hold only 'reset_mask', not {options!r}")
        if is_masked_array(options["reset_mask"]):
            raise BatchError(masked_array_refused("options['reset_mask']"))
        mask = np.asarray(options["reset_mask"])
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
            raise BatchError(f"options['reset_mask'] must be a bool array of shape "
                             f"({self.num_envs},), not {mask.dtype} {mask.shape}")
        chosen: Array = mask.copy()
        return chosen

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError("this WhatTheShellVectorEnv is closed")


def make_vector_env(
    num_envs: int,
    *,
    opponent: str | None = None,
    color: str | None = None,
    illegal_action: str = "random",
    max_cycles: int = DEFAULT_MAX_CYCLES,
) -> WhatTheShellVectorEnv:
    """``num_envs`` games as one Gymnasium vector environment: self-play with
    ``opponent=None``, else against ``"random"`` or ``"greedy"`` with the
    learner playing ``color`` (``"black"`` by default); ``illegal_action``
    ``"random"`` or ``"lose"``; ``max_cycles`` turns before truncation."""
    return WhatTheShellVectorEnv(num_envs, opponent=opponent, color=color,
                                 illegal_action=illegal_action, max_cycles=max_cycles)
