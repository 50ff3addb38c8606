"""Type stub of :mod:`wts._game`: a game held in one C ``wts_state`` struct.

:class:`wts.Game` is ``GameCore`` with the shared API of
:class:`wts.base.GameBase`; use that class rather than this one.
"""

from collections.abc import Iterable
from typing import SupportsIndex

from typing_extensions import Self, disjoint_base

from wts.engine._history import History
from wts.engine.events import TurnResult
from wts.engine.pieces import Piece, Status
from wts.engine.squares import Square

@disjoint_base
class GameCore:
    def __init__(self) -> None: ...
    @classmethod
    def from_setup(
        cls,
        black: Iterable[SupportsIndex | str] = (),
        white: Iterable[SupportsIndex | str] = (),
        eggs: Iterable[SupportsIndex | str] = (),
        turn: SupportsIndex = 0,
    ) -> Self: ...
    def copy(self) -> Self: ...
    def _current_history(self) -> History: ...
    @property
    def black(self) -> frozenset[Square]: ...
    @property
    def white(self) -> frozenset[Square]: ...
    @property
    def eggs(self) -> tuple[Square, ...]: ...
    @property
    def turn(self) -> int: ...
    @property
    def status(self) -> Status: ...
    @property
    def winning_counts(self) -> tuple[int, int]: ...
    def is_over(self) -> bool: ...
    def piece_at(self, square: SupportsIndex | str) -> Piece: ...
    def legal_moves(self) -> list[Square]: ...
    def play(
        self, black_move: SupportsIndex | str, white_move: SupportsIndex | str
    ) -> TurnResult: ...
