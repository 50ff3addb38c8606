"""A game's history, kept the same way by both engines.

A :class:`History` is immutable: a turn makes a new one on top of the old, so
copying a game shares its history at no cost, and a thread reading it never
sees it change.
"""

cimport cython


# A free list: a turn allocates one History, and games are played turn by turn.
@cython.freelist(64)
@cython.final
cdef class History:
    """The turns played on a game, oldest first, and the game they started from.

    ``History(root)`` has no turns; ``root`` is the game before the first turn,
    None for a new game.
    """

    def __cinit__(self, root=None):
        self.root = root
        self._last = None
        self.length = 0

    cpdef History then(self, object turn):
        """This history and one more turn after it."""
        cdef History longer = History.__new__(History)
        longer.root = self.root
        longer._last = (self._last, turn)
        longer.length = self.length + 1
        return longer

    cpdef History previous(self):
        """This history without its last turn; it must have one."""
        cdef History shorter = History.__new__(History)
        shorter.root = self.root
        shorter._last = (<tuple>self._last)[0]
        shorter.length = self.length - 1
        return shorter

    @property
    def last(self):
        """The last turn, or None before the first."""
        return None if self._last is None else (<tuple>self._last)[1]

    def turns(self):
        """The turns, oldest first."""
        cdef list turns = []
        cdef object node = self._last
        while node is not None:
            turns.append((<tuple>node)[1])
            node = (<tuple>node)[0]
        turns.reverse()
        return tuple(turns)

    def __len__(self):
        return self.length


#: The history of a new game: no turns, from the empty board.
NEW_GAME = History()
