"""Both engines playing the same script, compared after every step.

After every step the whole position (turtles, eggs in age order, turn,
status, winning counts, legal moves and the printed board) and every field of
the :class:`TurnResult` must agree; an illegal move must raise the same
exception type and message in both and leave both positions unchanged.

A candidate that runs another program (an engine's rules part) may also fail
as a program: crash, hang or answer something malformed. Such a class has
``take_faults()``, the failures since it was last asked; any is a
difference of its own, :data:`ENGINE_FAILURE`, found at the step it came in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from wts.engine.events import TurnResult
from wts.engine.squares import SQUARE_NAMES

__all__ = [
    "EngineClass",
    "ENGINE_FAILURE",
    "Move",
    "POSITION_FIELDS",
    "Snapshot",
    "snapshot",
    "position_part",
    "Setup",
    "Script",
    "Difference",
    "EnginePair",
    "replay",
    "compare_engines",
]

EngineClass = Any
"""A class with the ``wts.Game`` API (``from_setup``, ``play``, ``copy``, ...)."""

ENGINE_FAILURE = "engine failure"
"""The :attr:`Difference.field` of a candidate program's crash, hang or malformed answer."""

Move = tuple[object, object]
"""What one step feeds to ``play``: black's move and white's move, as given."""


class _Raised(NamedTuple):
    """An exception an engine raised, compared by type and message."""

    type: type
    message: str

    def __repr__(self) -> str:
        return f"{self.type.__name__}({self.message!r})"


_POSITION_GETTERS: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("black", lambda game: game.black),
    ("white", lambda game: game.white),
    ("eggs", lambda game: game.eggs),
    ("turn", lambda game: game.turn),
    ("status", lambda game: game.status),
    ("winning_counts", lambda game: game.winning_counts),
    ("legal_moves", lambda game: game.legal_moves()),
    # The fast engine's key is kept turn by turn; the reference's is computed
    # from the board: equal keys are the incremental update checked.
    ("key", lambda game: game.key()),
    ("str", str),
)

POSITION_FIELDS = tuple(name for name, _get in _POSITION_GETTERS)
"""The parts of a position compared after every step, in order."""

Snapshot = tuple[Any, ...]


def snapshot(game: Any) -> Snapshot:
    """The whole position of ``game``, one entry per :data:`POSITION_FIELDS`.

    A part that raises is recorded as the exception (type and message), so a
    broken engine shows up as a difference in that part.
    """
    values = []
    for _name, get in _POSITION_GETTERS:
        try:
            values.append(get(game))
        except Exception as exc:
            values.append(_Raised(type(exc), str(exc)))
    return tuple(values)


def position_part(position: Snapshot, name: str) -> Any:
    """The part ``name`` (one of :data:`POSITION_FIELDS`) of a snapshot."""
    return position[POSITION_FIELDS.index(name)]


@dataclass(frozen=True)
class Setup:
    """A start position: turtles of each colour, the eggs, oldest first, and the
    turns already played (near the turn cap, ``wts.MAX_TURN``, for its draw)."""

    black: tuple[int, ...] = ()
    white: tuple[int, ...] = ()
    eggs: tuple[int, ...] = ()
    turn: int = 0

    def build(self, engine: EngineClass) -> Any:
        """A game of ``engine`` in this position (``engine()`` when new)."""
        if not (self.black or self.white or self.eggs or self.turn):
            return engine()
        if not self.turn:
            return engine.from_setup(black=self.black, white=self.white, eggs=self.eggs)
        return engine.from_setup(black=self.black, white=self.white, eggs=self.eggs,
                                 turn=self.turn)

    def pieces(self) -> int:
        """How many turtles and eggs the position holds."""
        return len(self.black) + len(self.white) + len(self.eggs)

    def python(self) -> str:
        """The Python expression that builds this position with a ``Game`` class."""
        if not (self.pieces() or self.turn):
            return "Game()"

        def names(squares: tuple[int, ...]) -> str:
            return "[" + ", ".join(f'"{SQUARE_NAMES[s]}"' for s in squares) + "]"

        turn = f", turn={self.turn}" if self.turn else ""
        return (
            f"Game.from_setup(black={names(self.black)}, white={names(self.white)}, "
            f"eggs={names(self.eggs)}{turn})"
        )


@dataclass(frozen=True)
class Script:
    """A start position and the steps fed to both engines, in order."""

    setup: Setup
    steps: tuple[Move, ...]


@dataclass(frozen=True)
class Difference:
    """Where the two engines disagreed.

    ``step`` is the index of the step in the script (-1: the start position);
    ``field`` names what differed, e.g. ``"TurnResult.hatched"``,
    ``"position.str"``, ``"error"``, ``"position after error.eggs"`` or
    :data:`ENGINE_FAILURE` (``candidate`` then says how the program failed).
    """

    step: int
    field: str
    reference: Any
    candidate: Any

    def describe(self) -> str:
        """Several lines saying what differed, with both values."""
        where = "the start position" if self.step < 0 else f"step {self.step + 1}"
        return (
            f"{self.field} differs at {where}\n"
            f"  reference: {_show(self.reference)}\n"
            f"  candidate: {_show(self.candidate)}"
        )


def _show(value: Any) -> str:
    text = repr(value)
    if isinstance(value, str) and "\n" in value:
        text = "\n    " + value.replace("\n", "\n    ")
    return text


def _call(func: Callable[[], Any]) -> tuple[Any, _Raised | None]:
    try:
        return func(), None
    except Exception as exc:  # the candidate may fail in any way: that is a finding
        return None, _Raised(type(exc), str(exc))


def _first_difference(
    step: int, prefix: str, names: Sequence[str], ref: Sequence[Any], cand: Sequence[Any]
) -> Difference | None:
    for name, a, b in zip(names, ref, cand):
        if a != b:
            return Difference(step, f"{prefix}.{name}", a, b)
    return None


class _Missing:
    """Stands for a TurnResult field the candidate's result lacks."""

    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()


def take_fault(candidate: EngineClass) -> str | None:
    """The first failure of a candidate program since it was last asked (the
    others are dropped: the first is the finding), or None."""
    take = getattr(candidate, "take_faults", None)
    faults = take() if callable(take) else None
    return faults[0] if faults else None


def _compare_results(step: int, ref: TurnResult, cand: Any) -> Difference | None:
    values = [getattr(cand, name, _MISSING) for name in TurnResult._fields]
    found = _first_difference(step, "TurnResult", TurnResult._fields, ref, values)
    if found is None and ref != cand:
        found = Difference(step, "TurnResult", ref, cand)
    return found


class EnginePair:
    """One game held by two engines at once, compared after every step.

    ``difference`` is the first disagreement found (None while they agree);
    ``ref_position`` and ``cand_position`` are the snapshots after the last
    step. Once a difference is found the pair should not be stepped again.
    """

    def __init__(self, reference: EngineClass, candidate: EngineClass, setup: Setup) -> None:
        self.ref: Any = None
        self.cand: Any = None
        self.difference: Difference | None = None
        self.ref_position: Snapshot = ()
        self.cand_position: Snapshot = ()
        self.candidate = candidate
        ref, ref_err = _call(lambda: setup.build(reference))
        cand, cand_err = _call(lambda: setup.build(candidate))
        fault = take_fault(candidate)
        if fault is not None:
            self.difference = Difference(-1, ENGINE_FAILURE, ref_err or "a status", fault)
            return
        if ref_err or cand_err:  # both refusing the position alike leaves nothing to play
            if ref_err != cand_err:
                self.difference = Difference(-1, "from_setup", ref_err or "ok", cand_err or "ok")
            return
        self.ref, self.cand = ref, cand
        self.ref_position, self.cand_position = self._positions(-1, "position")

    def _positions(self, step: int, prefix: str) -> tuple[Snapshot, Snapshot]:
        ref_pos, cand_pos = snapshot(self.ref), snapshot(self.cand)
        if ref_pos != cand_pos:
            self.difference = _first_difference(step, prefix, POSITION_FIELDS, ref_pos, cand_pos)
        return ref_pos, cand_pos

    @property
    def ready(self) -> bool:
        """Both engines hold a game and agree so far."""
        return self.ref is not None and self.difference is None

    def step(self, index: int, black_move: object, white_move: object) -> tuple[
        TurnResult | None, _Raised | None
    ]:
        """Play one step on both engines and compare.

        Returns the reference's result, or the exception it raised (then the
        candidate must have raised the same and both positions are unchanged).
        Sets :attr:`difference` on any disagreement.
        """
        ref_result, ref_err = _call(lambda: self.ref.play(black_move, white_move))
        cand_result, cand_err = _call(lambda: self.cand.play(black_move, white_move))
        fault = take_fault(self.candidate)
        if fault is not None:
            self.difference = Difference(index, ENGINE_FAILURE, ref_err or ref_result, fault)
            return ref_result, ref_err
        if ref_err or cand_err:
            if ref_err != cand_err:
                self.difference = Difference(
                    index, "error", ref_err or ref_result, cand_err or cand_result
                )
                return ref_result, ref_err
            ref_before, cand_before = self.ref_position, self.cand_position
            ref_after, cand_after = self._positions(index, "position after error")
            if self.difference is None:
                self.difference = _first_difference(
                    index, "candidate position changed by error", POSITION_FIELDS,
                    cand_before, cand_after,
                ) or _first_difference(
                    index, "reference position changed by error", POSITION_FIELDS,
                    ref_before, ref_after,
                )
            return None, ref_err
        self.difference = _compare_results(index, ref_result, cand_result)
        if self.difference is None:
            self.ref_position, self.cand_position = self._positions(index, "position")
        return ref_result, None


def replay(
    reference: EngineClass, candidate: EngineClass, script: Script
) -> tuple[Difference | None, list[int]]:
    """Feed ``script`` to both engines; the first difference, and the steps used.

    The steps used are those the reference accepted, plus the step where the
    engines differed: the others were illegal in both alike and changed nothing.
    """
    pair = EnginePair(reference, candidate, script.setup)
    used: list[int] = []
    if not pair.ready:
        return pair.difference, used
    for index, (black_move, white_move) in enumerate(script.steps):
        _result, error = pair.step(index, black_move, white_move)
        if pair.difference is not None:
            used.append(index)
            return pair.difference, used
        if error is None:
            used.append(index)
    return None, used


def compare_engines(
    reference: EngineClass,
    candidate: EngineClass,
    setup: Setup | None = None,
    moves: Iterable[Move] = (),
) -> Difference | None:
    """Play ``moves`` from ``setup`` on both engines; the first difference or None."""
    return replay(reference, candidate, Script(setup or Setup(), tuple(moves)))[0]
