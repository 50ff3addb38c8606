"""Type stub of :mod:`wts.engine._history`: a game's history, shared by both engines."""

from typing import Any, final

from typing_extensions import Self

from wts.engine.events import TurnResult

@final
class History:
    @property
    def root(self) -> Any: ...
    @property
    def length(self) -> int: ...
    def __new__(cls, root: Any = None) -> Self: ...
    def then(self, turn: TurnResult) -> Self: ...
    def turns(self) -> tuple[TurnResult, ...]: ...
    def __len__(self) -> int: ...

NEW_GAME: History
