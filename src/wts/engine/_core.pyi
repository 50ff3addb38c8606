"""Type stub of :mod:`wts.engine._core`, the bitboard kernels.

Its C-level API (``wts_state``, ``wts_resolve_turn``, ...) is for Cython code
to ``cimport`` (see ``_core.pxd``); the names Python sees are below.
"""

from wts.engine.pieces import Status

STATUSES: tuple[Status, ...]
#: Games the playout driver (``wts.simulate``) plays at once: 8 SIMD lanes
#: on builds with AVX2, else 1.
PLAYOUT_LANES: int
#: The drivers for the engine's own modules, a capsule that ``_drivers.pxd`` opens.
DRIVERS: object

def state_size() -> int:
    """Bytes in one ``wts_state``: a game's whole position."""
