"""Type stub of :mod:`wts._core`, the bitboard kernels.

Its C-level API (``wts_state``, ``wts_resolve_turn``, ...) is for Cython code
to ``cimport`` (see ``_core.pxd``); the only name Python sees is below.
"""

def state_size() -> int:
    """Bytes in one ``wts_state``: a game's whole position."""
