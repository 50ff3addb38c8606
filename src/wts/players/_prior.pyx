"""The square features of the learned prior, on bitboards, in C.

Each feature is a board: the empty squares that have it, from one player's
side. :mod:`wts.players.prior` names them, fits their weights and documents
them; the search (``wts.players._search``) scores its squares with them.

The lines are windows of five cells holding only the player's turtles and
empty squares (a "clean" window); ``own3`` marks the empty squares of the
clean windows with three of the player's turtles, and so on. A window that
runs off the board, or over a rank's padding bit, is never clean: the
padding is neither a turtle nor empty.
"""

import numpy as np

from wts.engine._bits cimport (
    wts_and, wts_andnot, wts_any, wts_board, wts_or, wts_shl, wts_shr, wts_square_bit,
    wts_square_board, wts_test_bit, wts_valid, wts_xor,
)
from wts.engine._core cimport WTS_BLACK, WTS_NUM_SQUARES, WTS_WHITE, wts_capturing_moves, wts_state
from wts.engine._predicates cimport wts_bracket_down, wts_bracket_up

from wts.errors import ParameterError, ParameterTypeError
from wts.params import check_float, is_masked_array, masked_array_refused

# The four line directions are the shifts 1 (E), 10 (N), 11 (NE) and 9 (NW) of
# the padded board.

cdef enum:
    F_OWN4 = 0
    F_FOE4 = 1
    F_OWN3 = 2
    F_FOE3 = 3
    F_OWN3_TWICE = 4
    F_FOE3_TWICE = 5
    F_OWN2 = 6
    F_FOE2 = 7
    F_OWN1 = 8
    F_CAPTURE = 9
    F_CAPTURE_HATCHES = 10
    F_FOE_CAPTURE = 11
    F_EXPOSED = 12
    F_NEAR_OWN = 13
    F_NEAR_FOE = 14
    F_NEAR_EGG = 15
    F_RING1 = 16
    F_RING2 = 17
    F_RING3 = 18

# The squares at each Chebyshev distance 0-1, 2 and 3 from the centre.
cdef wts_board RINGS[3]


cdef wts_board _ring(int low, int high):
    cdef wts_board ring
    cdef int square, distance
    ring.lo = ring.hi = 0
    for square in range(WTS_NUM_SQUARES):
        distance = max(abs(square // 9 - 4), abs(square % 9 - 4))
        if low <= distance <= high:
            ring = wts_or(ring, wts_square_board(square))
    return ring


RINGS[0] = _ring(0, 1)
RINGS[1] = _ring(2, 2)
RINGS[2] = _ring(3, 3)


cdef inline wts_board _none() noexcept nogil:
    cdef wts_board board
    board.lo = board.hi = 0
    return board


cdef inline wts_board _not(wts_board a) noexcept nogil:
    return wts_andnot(wts_valid(), a)


cdef inline void _count_windows(wts_board own, wts_board open_, int k,
                                wts_board *by_count) noexcept nogil:
    """``by_count[c]`` (c = 1..4): the starts of the clean windows along shift
    ``k`` holding ``c`` of ``own``, by a bit-sliced sum of the five cells."""
    cdef wts_board x0 = own, x1 = wts_shr(own, k), x2 = wts_shr(own, 2 * k)
    cdef wts_board x3 = wts_shr(own, 3 * k), x4 = wts_shr(own, 4 * k)
    cdef wts_board clean = wts_and(wts_and(wts_and(open_, wts_shr(open_, k)),
                                           wts_and(wts_shr(open_, 2 * k), wts_shr(open_, 3 * k))),
                                   wts_shr(open_, 4 * k))
    # Full adders: x0 + x1 + x2 = s0 + 2 c0, then s0 + x3 + x4 = ones + 2 c1; the
    # count is ones + 2 (c0 + c1), and c0 + c1 is 1 (twos) or 2 (fours).
    cdef wts_board s0 = wts_xor(wts_xor(x0, x1), x2)
    cdef wts_board c0 = wts_or(wts_and(x0, x1), wts_and(x2, wts_xor(x0, x1)))
    cdef wts_board ones = wts_and(clean, wts_xor(wts_xor(s0, x3), x4))
    cdef wts_board c1 = wts_or(wts_and(s0, x3), wts_and(x4, wts_xor(s0, x3)))
    cdef wts_board twos = wts_and(clean, wts_xor(c0, c1))
    cdef wts_board fours = wts_and(clean, wts_and(c0, c1))
    by_count[1] = wts_andnot(wts_andnot(ones, twos), fours)
    by_count[2] = wts_andnot(twos, ones)
    by_count[3] = wts_and(twos, ones)
    by_count[4] = wts_andnot(fours, ones)


cdef inline wts_board _cells(wts_board starts, int k) noexcept nogil:
    """Every cell of the windows of five starting at ``starts`` along shift ``k``."""
    return wts_or(wts_or(wts_or(starts, wts_shl(starts, k)),
                         wts_or(wts_shl(starts, 2 * k), wts_shl(starts, 3 * k))),
                  wts_shl(starts, 4 * k))


# The lines' running results, one board each: the empty squares of a clean
# window holding 4, 3, 2 or 1 of the player's turtles, and of windows of 3 in
# two directions.
cdef enum:
    LINE_FOUR = 0
    LINE_THREE = 1
    LINE_THREE_TWICE = 2
    LINE_TWO = 3
    LINE_ONE = 4
    NUM_LINE = 5


cdef inline void _add_line(wts_board own, wts_board open_, int k, wts_board *lines) noexcept nogil:
    """Add the windows along shift ``k`` to ``lines`` (called with a constant
    ``k``, so that every shift folds into a couple of instructions)."""
    cdef wts_board by_count[5]
    cdef wts_board three
    _count_windows(own, open_, k, by_count)
    three = _cells(by_count[3], k)
    lines[LINE_FOUR] = wts_or(lines[LINE_FOUR], _cells(by_count[4], k))
    lines[LINE_THREE_TWICE] = wts_or(lines[LINE_THREE_TWICE], wts_and(lines[LINE_THREE], three))
    lines[LINE_THREE] = wts_or(lines[LINE_THREE], three)
    lines[LINE_TWO] = wts_or(lines[LINE_TWO], _cells(by_count[2], k))
    lines[LINE_ONE] = wts_or(lines[LINE_ONE], _cells(by_count[1], k))


cdef void _line_features(wts_board own, wts_board empty, wts_board *lines) noexcept nogil:
    """``lines`` (NUM_LINE boards) for the player of ``own``."""
    cdef wts_board open_ = wts_or(own, empty)
    cdef int i
    for i in range(NUM_LINE):
        lines[i] = _none()
    _add_line(own, open_, 1, lines)
    _add_line(own, open_, 10, lines)
    _add_line(own, open_, 11, lines)
    _add_line(own, open_, 9, lines)
    for i in range(NUM_LINE):
        lines[i] = wts_and(lines[i], empty)


cdef inline wts_board _both_ways(wts_board pieces, int k) noexcept nogil:
    return wts_or(wts_shl(pieces, k), wts_shr(pieces, k))


cdef inline wts_board _near(wts_board pieces) noexcept nogil:
    """The squares next to one of ``pieces``, in any of the 8 directions."""
    return wts_and(wts_or(wts_or(_both_ways(pieces, 1), _both_ways(pieces, 10)),
                          wts_or(_both_ways(pieces, 11), _both_ways(pieces, 9))),
                   wts_valid())


cdef inline wts_board _exposed_along(wts_board own, wts_board foe, wts_board empty,
                                     int k) noexcept nogil:
    # A turtle on s makes a pair with one of ``own`` at s + k (``own`` shifted
    # down stands for the pair's lower cells) or at s - k; a bracket of that
    # pair by ``foe``, from an empty closer, is the opponent's capture.
    cdef wts_board low = wts_shr(own, k)
    return wts_or(
        wts_or(wts_shl(wts_and(empty, wts_bracket_up(low, foe, k)), k),
               wts_shr(wts_and(empty, wts_bracket_down(low, foe, k)), 2 * k)),
        wts_or(wts_shr(wts_and(empty, wts_bracket_down(own, foe, k)), k),
               wts_shl(wts_and(empty, wts_bracket_up(own, foe, k)), 2 * k)))


cdef inline wts_board _exposed(wts_board own, wts_board foe, wts_board empty) noexcept nogil:
    """Squares where a turtle of ``own`` would make a pair with one already
    there, a ``foe`` turtle at one end of the pair and an empty square at the
    other: the opponent could capture both next turn."""
    return wts_or(wts_or(_exposed_along(own, foe, empty, 1), _exposed_along(own, foe, empty, 10)),
                  wts_or(_exposed_along(own, foe, empty, 11), _exposed_along(own, foe, empty, 9)))


cdef void square_features(wts_board own, wts_board foe, wts_board eggs,
                          wts_board *out) noexcept nogil:
    cdef wts_board empty = _not(wts_or(wts_or(own, foe), eggs))
    cdef wts_board lines[NUM_LINE]
    cdef wts_state position  # the player black: its boards only, for the C API
    cdef int i
    position.black = own
    position.white = foe
    position.eggs = eggs
    _line_features(own, empty, lines)
    out[F_OWN4] = lines[LINE_FOUR]
    out[F_OWN3] = lines[LINE_THREE]
    out[F_OWN3_TWICE] = lines[LINE_THREE_TWICE]
    out[F_OWN2] = lines[LINE_TWO]
    out[F_OWN1] = lines[LINE_ONE]
    _line_features(foe, empty, lines)  # the opponent's lone turtles say little: no foe1
    out[F_FOE4] = lines[LINE_FOUR]
    out[F_FOE3] = lines[LINE_THREE]
    out[F_FOE3_TWICE] = lines[LINE_THREE_TWICE]
    out[F_FOE2] = lines[LINE_TWO]
    out[F_CAPTURE] = wts_capturing_moves(&position, WTS_BLACK)
    out[F_CAPTURE_HATCHES] = out[F_CAPTURE] if wts_any(eggs) else _none()
    out[F_FOE_CAPTURE] = wts_capturing_moves(&position, WTS_WHITE)
    out[F_EXPOSED] = wts_and(_exposed(own, foe, empty), empty)
    out[F_NEAR_OWN] = wts_and(_near(own), empty)
    out[F_NEAR_FOE] = wts_and(_near(foe), empty)
    out[F_NEAR_EGG] = wts_and(_near(eggs), empty)
    for i in range(3):
        out[F_RING1 + i] = wts_and(RINGS[i], empty)


def check_weights(weights):
    """``weights`` as a list of NUM_FEATURES floats, refused unless a sequence of
    that many numbers within MAX_WEIGHT (its length read first: an endless
    iterable is refused, not read)."""
    if is_masked_array(weights):
        raise ParameterTypeError(masked_array_refused("a prior's weights"))
    if isinstance(weights, (str, bytes)) or not hasattr(weights, "__len__"):
        raise ParameterTypeError(f"a prior's weights must be a sequence of {NUM_FEATURES} "
                                 f"numbers, not {type(weights).__name__}")
    if len(weights) != NUM_FEATURES:
        raise ParameterError(f"a prior has {NUM_FEATURES} weights, not {len(weights)}")
    return [check_float(w, f"prior weight {i}", -MAX_WEIGHT, MAX_WEIGHT)
            for i, w in enumerate(weights)]


def features(planes):
    """The features of every square of each position: ``planes`` a uint8 array of
    shape (n, 3 or more, 9, 9) whose first three planes are the player's
    turtles, the opponent's turtles and the eggs (as :func:`wts.env` gives
    them); the result a uint8 array of shape (n, 81, NUM_FEATURES), 1 where the
    square has the feature (always 0 on an occupied square)."""
    if not isinstance(planes, np.ndarray) or isinstance(planes, np.ma.MaskedArray):
        raise ParameterTypeError(f"planes must be a numpy array, not {type(planes).__name__}")
    if planes.ndim != 4 or planes.shape[1] < 3 or planes.shape[2:] != (9, 9):
        raise ParameterError(f"planes must have shape (n, 3 or more, 9, 9), not {planes.shape}")
    if planes.dtype != np.uint8:
        raise ParameterTypeError(f"planes must be uint8, not {planes.dtype}")
    pieces = planes[:, :3]
    if pieces.size and pieces.max() > 1:
        raise ParameterError("planes must hold only 0 and 1 in their first three planes")
    overlap = np.flatnonzero(pieces.sum(axis=1, dtype=np.int32).reshape(len(planes), 81).max(
        axis=1, initial=0) > 1)
    if overlap.size:
        raise ParameterError(f"position {overlap[0]} has two pieces on one square")
    cdef const unsigned char[:, :, :, :] view = np.ascontiguousarray(pieces)
    result = np.zeros((planes.shape[0], WTS_NUM_SQUARES, NUM_FEATURES), dtype=np.uint8)
    cdef unsigned char[:, :, :] out = result
    cdef wts_board boards[NUM_FEATURES]
    cdef wts_board own, foe, eggs
    cdef Py_ssize_t n
    cdef int r, f, square, feature
    for n in range(view.shape[0]):
        own = foe = eggs = _none()
        for r in range(9):
            for f in range(9):
                if view[n, 0, r, f]:
                    own = wts_or(own, wts_square_board(r * 9 + f))
                elif view[n, 1, r, f]:
                    foe = wts_or(foe, wts_square_board(r * 9 + f))
                elif view[n, 2, r, f]:
                    eggs = wts_or(eggs, wts_square_board(r * 9 + f))
        square_features(own, foe, eggs, boards)
        for feature in range(NUM_FEATURES):
            for square in range(WTS_NUM_SQUARES):
                out[n, square, feature] = wts_test_bit(boards[feature], wts_square_bit(square))
    return result
