"""What the Shell as a PettingZoo ``ParallelEnv`` (``pip install "wts[pettingzoo]"``).

>>> from wts.adapters.env import parallel_env
>>> env = parallel_env()
>>> observations, infos = env.reset(seed=42)
>>> while env.agents:
...     actions = {agent: env.action_space(agent).sample(observations[agent]["action_mask"])
...                for agent in env.agents}
...     observations, rewards, terminations, truncations, infos = env.step(actions)

- agents ``"black"`` and ``"white"``, who act at every step at once;
- actions ``Discrete(81)``: the square index, ``(rank - 1) * 9 + file``
  (A1 = 0, I9 = 80);
- observations ``{"observation": uint8 (4, 9, 9), "action_mask": int8 (81,)}``.
  The planes are from the agent's own point of view: its turtles, the
  opponent's turtles, the eggs (each 0/1), and the eggs' age (1 the oldest,
  the next to hatch; 0 no egg); ``[plane, rank - 1, file]``. The mask is 1 on
  the empty squares (the legal moves, the same for both) and all 0 once the
  game is over;
- rewards: +1 to the winner and -1 to the loser on the last step, 0 otherwise
  and for a draw;
- ``terminations`` when the game is decided; ``truncations`` after
  ``max_cycles`` turns (default 500, far longer than any game seen: random
  games average 29 turns), with reward 0.

**Illegal actions** (an occupied square, a number outside 0-80, something
that is not an integer or a 0-d integer array, such as a ``(1,)`` array or
a masked array, or a missing action) never raise. With
``illegal_action="random"`` (the default) the move is replaced by a uniformly
random empty square drawn from the environment's generator, which
``reset(seed=...)`` seeds; with ``illegal_action="lose"`` the game ends at once
and the offender gets -1 and the other player +1 (both offending: a draw,
0 each). Either way ``infos[agent]`` says ``"illegal_action": True``; every
info also holds the square actually played (``"square"``, None when the
game ended on an illegal action) and the turn number (``"turn"``).
"""

from __future__ import annotations

import operator
import threading
from typing import Any, ClassVar

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "wts.env needs PettingZoo and Gymnasium: pip install 'wts[pettingzoo]'"
    ) from exc

from wts.engine.game import Game
from wts.engine.observation import observation_planes
from wts.engine.pieces import Color
from wts.errors import ParameterTypeError
from wts.limits import DEFAULT_MAX_CYCLES
from wts.params import check_choice, check_int, check_seed, is_masked_array

__all__ = ["WhatTheShellEnv", "parallel_env", "observation_planes", "ILLEGAL_ACTIONS"]

AGENTS = ("black", "white")
#: The ways an illegal action can be handled.
ILLEGAL_ACTIONS = ("random", "lose")

Observations = dict[str, dict[str, np.ndarray]]
Infos = dict[str, dict[str, Any]]
#: What ``step`` returns: observations, rewards, terminations, truncations, infos.
StepReturn = tuple[Observations, dict[str, float], dict[str, bool], dict[str, bool], Infos]


class WhatTheShellEnv(ParallelEnv):  # type: ignore[misc]
    """The parallel environment; build it with :func:`parallel_env`."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "what_the_shell_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_action: str = "random",
        max_cycles: int = DEFAULT_MAX_CYCLES,
    ) -> None:
        if render_mode is not None:
            check_choice(render_mode, "render_mode", tuple(self.metadata["render_modes"]))
        self.render_mode = render_mode
        self.illegal_action = check_choice(illegal_action, "illegal_action", ILLEGAL_ACTIONS)
        self.max_cycles = check_int(max_cycles, "max_cycles", 1)
        # reset, step and the readers of the game run one at a time across threads.
        self._lock = threading.RLock()
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        high = np.ones((4, 9, 9), dtype=np.uint8)
        high[3] = 81
        self._observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=0, high=high, shape=(4, 9, 9), dtype=np.uint8),
                "action_mask": spaces.Box(low=0, high=1, shape=(81,), dtype=np.int8),
            })
            for agent in AGENTS
        }
        self._action_spaces = {agent: spaces.Discrete(81) for agent in AGENTS}
        self._rng = np.random.default_rng()
        self.game = Game()

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of ``agent``: the same object every call."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of ``agent``: the same object every call."""
        return self._action_spaces[agent]

    # ---------------------------------------------------------------------

    def _mask(self) -> np.ndarray:
        mask = np.zeros(81, dtype=np.int8)
        mask[self.game.legal_moves()] = 1
        return mask

    def _observations(self, agents: list[str]) -> Observations:
        mask = self._mask()
        return {
            agent: {"observation": observation_planes(self.game, agent),
                    "action_mask": mask.copy()}
            for agent in agents
        }

    def state(self) -> np.ndarray:
        """The whole position, (4, 9, 9) uint8: black, white, eggs, egg age."""
        with self._lock:
            return observation_planes(self.game, Color.BLACK)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, Infos]:
        """Start a new game; ``seed`` (0 to 2**64 - 1, as the vector environment
        takes) seeds the generator that replaces illegal actions."""
        if seed is not None:
            seed = check_seed(seed)
        with self._lock:
            return self._reset(seed)

    def _reset(self, seed: int | None) -> tuple[Observations, Infos]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = Game()
        self.agents = list(self.possible_agents)
        infos: Infos = {
            agent: {"illegal_action": False, "square": None, "turn": 0} for agent in self.agents
        }
        if self.render_mode == "human":
            self.render()
        return self._observations(self.agents), infos

    @staticmethod
    def _square(action: object, legal: set[int]) -> int | None:
        """The square an action names if it is one of ``legal``, else None: an
        int or a 0-d integer array, not a bool, a (1,) array or a masked array
        (whose mask numpy's reads would drop)."""
        if action is None or isinstance(action, (bool, np.bool_)) or is_masked_array(action):
            return None
        if isinstance(action, np.ndarray) and action.ndim != 0:
            return None
        try:
            square = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            return None
        return int(square) if square in legal else None

    def step(self, actions: dict[str, Any]) -> StepReturn:
        """Both agents' actions at once, a dict from agent to action; see the
        module docstring for illegal ones. Anything but a dict raises
        :class:`wts.ParameterTypeError`."""
        if not isinstance(actions, dict):
            raise ParameterTypeError("actions must be a dict from agent ('black', 'white') to "
                                     f"its action, not {type(actions).__name__}")
        with self._lock:
            return self._step(actions)

    def _step(self, actions: dict[str, Any]) -> StepReturn:
        if not self.agents:
            return {}, {}, {}, {}, {}
        agents = list(self.agents)
        legal = self.game.legal_moves()
        legal_set = set(legal)
        squares = {agent: self._square(actions.get(agent), legal_set) for agent in agents}
        illegal = {agent: squares[agent] is None for agent in agents}
        rewards = dict.fromkeys(agents, 0.0)
        terminations = dict.fromkeys(agents, False)
        truncations = dict.fromkeys(agents, False)
        if any(illegal.values()) and self.illegal_action == "lose":
            if not all(illegal.values()):
                for agent in agents:
                    rewards[agent] = -1.0 if illegal[agent] else 1.0
            terminations = dict.fromkeys(agents, True)
            played: dict[str, int | None] = dict.fromkeys(agents, None)
        else:
            chosen = {
                agent: square if square is not None else int(legal[self._rng.integers(len(legal))])
                for agent, square in squares.items()
            }
            played = dict(chosen)
            self.game.play(chosen["black"], chosen["white"])
            status = self.game.status
            if status.is_over:
                terminations = dict.fromkeys(agents, True)
                for agent in agents:
                    rewards[agent] = float(status.reward(Color(agent)))
            elif self.game.turn >= self.max_cycles:
                truncations = dict.fromkeys(agents, True)
        observations = self._observations(agents)
        if terminations["black"] or truncations["black"]:
            for agent in agents:
                observations[agent]["action_mask"][:] = 0
        infos = {
            agent: {"illegal_action": illegal[agent], "square": played[agent],
                    "turn": self.game.turn}
            for agent in agents
        }
        if terminations["black"] or truncations["black"]:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The board as text: returned for ``"ansi"``, printed for ``"human"``."""
        with self._lock:
            text = str(self.game)
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None

    def close(self) -> None:
        pass


def parallel_env(**kwargs: Any) -> WhatTheShellEnv:
    """A new What the Shell ``ParallelEnv``: ``render_mode`` (None, ``"human"``,
    ``"ansi"``), ``illegal_action`` (``"random"`` or ``"lose"``), ``max_cycles``."""
    return WhatTheShellEnv(**kwargs)
