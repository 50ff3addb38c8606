"""The network's input planes of one position, in C: what
:class:`wts.BatchGame` writes for a batch (``network_planes``) and the
network search writes for each leaf it evaluates. One place, so the two
cannot drift apart; :data:`wts.engine.batch.NETWORK_PLANES` names them.

Always from black's side (both players move at once, and one evaluation
gives both players' policies): float32, square-major (81 squares, then the
planes: the layout the network's first convolution reads)."""

from libc.string cimport memset
from wts.engine._bits cimport (
    wts_any, wts_bit_square, wts_board, wts_clear_lowest, wts_lowest_bit,
)
from wts.engine._core cimport (
    WTS_BLACK, WTS_NUM_SQUARES, WTS_WHITE, wts_capturing_moves, wts_empty_squares,
    wts_state, wts_winning_moves, wts_winning_turtles,
)

cdef enum:
    NET_PLANES = 11
    # The planes whose black and white meanings swap with the colours, in pairs.
    PLANE_BLACK = 0
    PLANE_WHITE = 1
    PLANE_EGGS = 2
    PLANE_EGG_AGE = 3       # 1 for the oldest egg (the next to hatch), 1/2 the next, ...
    PLANE_BLACK_FIVES = 4   # empty squares where black completes a five
    PLANE_WHITE_FIVES = 5
    PLANE_BLACK_CAPTURES = 6  # empty squares where black closes a bracket
    PLANE_WHITE_CAPTURES = 7
    PLANE_BLACK_WINNING = 8   # black turtles standing in a five now
    PLANE_WHITE_WINNING = 9
    PLANE_BOARD = 10        # ones: where the board is, for the convolutions' zero padding


cdef inline void fill_plane(float *out, wts_board board, int plane) noexcept nogil:
    while wts_any(board):
        out[wts_bit_square(wts_lowest_bit(board)) * NET_PLANES + plane] = 1.0
        board = wts_clear_lowest(board)


cdef inline void network_planes(const wts_state *state, float *out) noexcept nogil:
    """Write the WTS_NUM_SQUARES * NET_PLANES floats of ``state``'s planes."""
    cdef int k, sq
    cdef wts_board empty = wts_empty_squares(state)
    memset(out, 0, WTS_NUM_SQUARES * NET_PLANES * sizeof(float))
    fill_plane(out, state.black, PLANE_BLACK)
    fill_plane(out, state.white, PLANE_WHITE)
    for k in range(state.egg_count):
        sq = state.egg_queue[k]
        out[sq * NET_PLANES + PLANE_EGGS] = 1.0
        out[sq * NET_PLANES + PLANE_EGG_AGE] = 1.0 / (k + 1)
    fill_plane(out, wts_winning_moves(state.black, empty), PLANE_BLACK_FIVES)
    fill_plane(out, wts_winning_moves(state.white, empty), PLANE_WHITE_FIVES)
    fill_plane(out, wts_capturing_moves(state, WTS_BLACK), PLANE_BLACK_CAPTURES)
    fill_plane(out, wts_capturing_moves(state, WTS_WHITE), PLANE_WHITE_CAPTURES)
    fill_plane(out, wts_winning_turtles(state.black), PLANE_BLACK_WINNING)
    fill_plane(out, wts_winning_turtles(state.white), PLANE_WHITE_WINNING)
    for sq in range(WTS_NUM_SQUARES):
        out[sq * NET_PLANES + PLANE_BOARD] = 1.0
