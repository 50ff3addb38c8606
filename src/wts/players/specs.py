"""A player named by a line of text, parsed once: :class:`AgentSpec`.

A spec is an agent's name, an optional number after a colon (an MCTS or
network player's level, OpenSpiel's simulations a move) and options after commas, as
``"mcts:2,threads=2,reuse=false"``; or ``"engine:CMD"``, an engine program.
The command line, the match and ladder functions and the run folders take a
spec's text and parse it here, once, at their edge; below that they pass the
:class:`AgentSpec`. Its text (``str(spec)``) is the one game records and run
folders store: lower case, each option as its type writes it.

>>> spec = AgentSpec.parse(" MCTS : 2 , threads = 02, reuse=no")
>>> spec.name, spec.number, spec.keywords()
('mcts', 2, {'threads': 2, 'reuse': False})
>>> str(spec)
'mcts:2,threads=2,reuse=false'

What an option's value may be (a thread count, a policy's name) is checked
by the agent that takes it, when it is made (:func:`wts.agents.make_agent`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from wts._public import publish
from wts.errors import ParameterError, ParameterTypeError

__all__ = ["AgentSpec", "AGENT_NAMES", "AGENT_OPTIONS", "ENGINE_PREFIX", "LEVELS",
           "OPENSPIEL_SIMULATIONS", "MAX_OPENSPIEL_SIMULATIONS"]

#: How a spec names an engine program.
ENGINE_PREFIX = "engine:"

#: Playouts per move of each ``MCTSAgent`` level (``mcts:LEVEL``). The
#: measured time per move on one core of a 2-core x86-64 machine is in
#: docs/players.md.
LEVELS: dict[int, int] = {1: 1_000, 2: 8_000, 3: 32_000, 4: 100_000, 5: 640_000}

#: The agent names a spec may start with (besides ``engine:``).
AGENT_NAMES = ("random", "greedy", "mcts", "az", "openspiel-mcts")

#: Simulations a move of ``openspiel-mcts`` when the spec names none, and the
#: most (OpenSpiel's tree is Python objects).
OPENSPIEL_SIMULATIONS = 1_000
MAX_OPENSPIEL_SIMULATIONS = 1_000_000

#: The options a spec may give each agent after its name, and their types.
AGENT_OPTIONS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {},
    "mcts": {"playouts": int, "time_limit": float, "clock": float, "threads": int,
             "reuse": bool, "transpositions": bool, "policy": str, "exploration": float,
             "playout": str, "final": str, "purify": float, "prior": str,
             "prior_weight": float},
    "az": {"playouts": int, "time_limit": float, "net": str, "batch": int, "c_puct": float,
           "fpu": float, "mix": float, "expand_at": int, "noise": float, "temperature": float},
    "openspiel-mcts": {"uct_c": float},
}
#: The options whose text keeps its case (a file's path); the others are read lower case.
CASED_OPTIONS = frozenset({"net"})
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
_INTEGER = re.compile(r"[0-9]+")

Option = bool | int | float | str


def _shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message, cut short if long."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r} (and {len(text) - limit} more characters)"


def _written(value: Option) -> str:
    """An option's value as its type writes it: ``02`` is ``2``, ``yes`` is ``true``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: ``name`` (one of :data:`AGENT_NAMES`, or ``"engine"``),
    ``number`` (the MCTS level or OpenSpiel's simulations, None where the
    text names none), ``options`` (the options in the order given, each as
    its type: ``("threads", 2)``) and ``command`` (an engine's command, as
    written; None for the others). Build one with :meth:`parse`."""

    name: str
    number: int | None = None
    options: tuple[tuple[str, Option], ...] = ()
    command: str | None = None

    def __post_init__(self) -> None:
        # A spec built field by field is held to what parse makes.
        if self.name == "engine":
            if not isinstance(self.command, str) or not self.command.strip() or (
                    self.number is not None or self.options):
                raise ParameterError("an engine spec has a command and nothing else: "
                                     "AgentSpec('engine', command='./my-engine')")
            return
        if self.name not in AGENT_NAMES or self.command is not None:
            raise ParameterError(f"unknown agent {self.name!r}: expected one of "
                                 f"{', '.join(AGENT_NAMES)}, or engine with a command")
        if self.number is not None:
            _check_number(self.name, self.number, str(self))
        known = AGENT_OPTIONS[self.name]
        if not isinstance(self.options, tuple):
            raise ParameterTypeError("an AgentSpec's options are a tuple of (name, value)")
        for option in self.options:
            if not (isinstance(option, tuple) and len(option) == 2 and option[0] in known
                    and type(option[1]) is known[option[0]]):
                raise ParameterError(f"bad option {option!r} for {self.name}: expected "
                                     f"(name, value) with name one of: "
                                     f"{', '.join(known) or 'none'}, of its type")
        if len({key for key, _ in self.options}) != len(self.options):
            raise ParameterError(f"an option is given twice in {str(self)!r}")

    @classmethod
    def parse(cls, spec: str | AgentSpec) -> AgentSpec:
        """The spec ``spec`` names (an :class:`AgentSpec` is returned as it is).
        Bad text raises :class:`wts.ParameterError` saying what was wrong."""
        if isinstance(spec, AgentSpec):
            return spec
        if not isinstance(spec, str):
            raise ParameterTypeError(f"an agent spec is a string, not {type(spec).__name__}")
        if spec.strip()[:len(ENGINE_PREFIX)].lower() == ENGINE_PREFIX:
            command = spec.strip()[len(ENGINE_PREFIX):].strip()  # its case and commas kept
            if not command:
                raise ParameterError(f"bad agent spec {_shown(spec)}: engine: needs a command")
            if not command.isprintable():
                raise ParameterError(f"bad agent spec {_shown(spec)}: a control character in "
                                     "the engine's command")
            return cls("engine", command=command)
        head, *items = spec.strip().split(",")
        name, sep, number = (part.strip() for part in head.lower().partition(":"))
        if name not in AGENT_NAMES:
            raise ParameterError(f"unknown agent {spec!r}: expected one of "
                                 f"{', '.join(AGENT_NAMES)} (mcts takes a level, as mcts:2; "
                                 "openspiel-mcts a number of simulations, as "
                                 "openspiel-mcts:1000), or engine:CMD")
        parsed = cls(name, _number(spec, name, number) if sep else None,
                     _options(spec, name, items))
        if not all(c.isprintable() and not c.isspace() for c in str(parsed)):
            raise ParameterError(f"bad agent spec {_shown(spec)}: white space or a control "
                                 "character inside a part")
        return parsed

    @property
    def is_engine(self) -> bool:
        """Whether the spec names an engine program (``engine:CMD``)."""
        return self.name == "engine"

    def keywords(self) -> dict[str, Option]:
        """The options as keyword arguments of the agent."""
        return dict(self.options)

    def __str__(self) -> str:
        if self.command is not None:
            return f"{ENGINE_PREFIX}{self.command}"
        parts = [self.name if self.number is None else f"{self.name}:{self.number}"]
        parts += [f"{key}={_written(value)}" for key, value in self.options]
        return ",".join(parts)


def _number(spec: str, name: str, text: str) -> int:
    """The number after ``name:`` in ``spec``."""
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else 0
    return _check_number(name, number, spec)


def _check_number(name: str, number: object, spec: str) -> int:
    """``number``, the level or simulations of the agent ``name`` (of ``spec``)."""
    if name in ("mcts", "az"):
        if type(number) is not int or number not in LEVELS:
            raise ParameterError(f"bad level in {spec!r}: expected {name}:1 to "
                                 f"{name}:{max(LEVELS)}")
        return number
    if name == "openspiel-mcts":
        if type(number) is not int or not 1 <= number <= MAX_OPENSPIEL_SIMULATIONS:
            raise ParameterError(f"bad number of simulations in {spec!r}: expected "
                                 f"openspiel-mcts:1 to openspiel-mcts:{MAX_OPENSPIEL_SIMULATIONS}")
        return number
    raise ParameterError(f"agent {name!r} takes no level: {spec!r}")


def _options(spec: str, name: str, items: list[str]) -> tuple[tuple[str, Option], ...]:
    """The options after the name, each as its type."""
    known = AGENT_OPTIONS[name]
    options: dict[str, Option] = {}
    for item in items:
        key, sep, text = (part.strip() for part in item.partition("="))
        key = key.lower()
        if key not in CASED_OPTIONS:
            text = text.lower()
        if key not in known or not sep or not text:
            names = ", ".join(known) or "none"
            raise ParameterError(f"bad option {_shown(item.strip())} in {_shown(spec)}: expected "
                                 f"KEY=VALUE with KEY one of: {names}")
        if key in options:
            raise ParameterError(f"option {key!r} given twice in {_shown(spec)}")
        kind = known[key]
        try:
            if kind is bool:
                if text not in _TRUE + _FALSE:
                    raise ValueError(text)
                options[key] = text in _TRUE
            elif kind is int:
                if not _INTEGER.fullmatch(text):
                    raise ValueError(text)
                options[key] = int(text)
            else:
                if not text.isascii():
                    raise ValueError(text)
                options[key] = kind(text)
                if kind is float and not math.isfinite(options[key]):  # type: ignore[arg-type]
                    raise ValueError(text)
        except ValueError:
            wanted = {bool: "true or false", int: "digits"}.get(kind, kind.__name__)
            raise ParameterError(f"bad value for {key} in {_shown(spec)}: expected {wanted}, "
                                 f"not {_shown(text)}") from None
    return tuple(options.items())


# Shown and pickled under the documented path, whatever module holds the code.
publish("wts.agents", __all__, globals())
