cimport cython


@cython.final
cdef class History:
    # The game before the first turn (None: a new game). For a history of no
    # turns it is a snapshot that copies of the game share, or None.
    cdef readonly object root
    # The turns as a persistent list: None, or (earlier node, TurnResult).
    cdef object _last
    cdef readonly Py_ssize_t length

    cpdef History then(self, object turn)
    cpdef History previous(self)
