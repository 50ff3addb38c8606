"""C-level API of the wts core, for other Cython code to cimport by its
public name, ``wts.engine.capi`` (``capi.pxd``, which cimports this file):

    from wts.engine.capi cimport wts_state, wts_init, wts_resolve_turn, ...

Build with ``include_dirs=[wts.get_include()]`` so ``wts_bits.h`` is found.
All functions are ``noexcept nogil`` and take plain structs; none of them
checks its input: a caller passes only legal moves to a game not over
(``wts_legal_moves`` says which squares are legal). Squares are 0..80
(``rank * 9 + file``); boards (``wts_board``) hold padded bits
(``wts_square_bit``/``wts_bit_square`` convert).
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

# The board and generator types and the few primitives a caller needs to read
# a board (which squares it holds) or to seed a generator.
from wts.engine._bits cimport (
    wts_any, wts_bit_square, wts_board, wts_clear_lowest, wts_lowest_bit, wts_popcount, wts_rng,
    wts_rng_seed, wts_square_bit, wts_test_bit,
)

# Status codes, in the order of wts.Status (numbered in wts_status.h).
cdef extern from "wts_status.h":
    enum:
        WTS_ONGOING
        WTS_SUDDEN_DEATH
        WTS_BLACK_WINS
        WTS_WHITE_WINS
        WTS_DRAW

# Colours, in the order of wts.Color (Color.index).
cdef enum:
    WTS_BLACK = 0
    WTS_WHITE = 1

# The last turn number: a game that reaches it is drawn (docs/rules.md,
# "wts rulings"), so ``turn`` never wraps.
cdef extern from "wts_status.h":
    const uint32_t WTS_MAX_TURN

# The sizes and the position (wts_state), defined in _state.pxd, where the
# engine's internal .pxd files find them too.
from wts.engine._state cimport (
    WTS_MAX_CAPTURES, WTS_NUM_DIRECTIONS, WTS_NUM_FIVES, WTS_NUM_SQUARES, WTS_NUM_SYMMETRIES,
    WTS_PADDED_BITS, wts_state,
)

ctypedef struct wts_capture:
    uint8_t closer          # square of the arriving turtle
    uint8_t direction       # 0..7: E, W, N, S, NE, SW, NW, SE
    uint8_t color           # WTS_BLACK or WTS_WHITE
    uint8_t round           # 0 placement, k the k-th hatching wave

ctypedef struct wts_hatch:
    uint8_t square
    uint8_t color
    uint8_t wave

# What one turn did, in the order of point 14.
ctypedef struct wts_turn_record:
    int8_t collision        # square of the collision, or -1
    int n_captures
    int n_dissolved
    int n_hatched
    wts_capture captures[WTS_MAX_CAPTURES]
    uint8_t dissolved[WTS_NUM_SQUARES]
    wts_hatch hatched[WTS_NUM_SQUARES]

# What wts_piece_at reports.
cdef enum:
    WTS_EMPTY = 0
    WTS_BLACK_TURTLE = 1
    WTS_WHITE_TURTLE = 2
    WTS_EGG = 3

# A new game: the empty board at turn 0.
cdef void wts_init(wts_state *state) noexcept nogil
# A copy of a whole position (a struct copy).
cdef void wts_copy(wts_state *dest, const wts_state *src) noexcept nogil
# Recount the winning turtles, read the status off the board (points 10-12),
# as after a turn, and compute the key: for a position written by hand.
cdef void wts_settle(wts_state *state) noexcept nogil
# Play one turn of two legal moves (squares) on a game not over; record every
# event in ``record`` unless it is NULL.
cdef void wts_resolve_turn(wts_state *state, int black_move, int white_move,
                           wts_turn_record *record) noexcept nogil
# Distinct turtles of ``turtles`` in a line of five or more (point 10).
cdef int wts_count_winning(wts_board turtles) noexcept nogil
# Those turtles: the winning turtles of ``turtles``.
cdef wts_board wts_winning_turtles(wts_board turtles) noexcept nogil
# The squares holding nothing.
cdef wts_board wts_empty_squares(const wts_state *state) noexcept nogil
# The squares either player may name (the empty ones); none once the game is over.
cdef wts_board wts_legal_moves(const wts_state *state) noexcept nogil
# Whether ``square`` (any int) is one of wts_legal_moves.
cdef bint wts_is_legal(const wts_state *state, int square) noexcept nogil
# A uniformly random legal square, or -1 if there is none.
cdef int wts_random_legal_move(const wts_state *state, wts_rng *rng) noexcept nogil
# Play uniformly random moves for both players until the game ends.
cdef void wts_playout(wts_state *state, wts_rng *rng) noexcept nogil
# Play on with tactical moves until the game ends or ``max_turns`` turns
# are played: each player completes a five when it can (wts_winning_moves),
# else blocks the opponent's, else, with ``captures``, closes a bracket when
# it can (wts_capturing_moves), else plays a uniformly random empty square;
# one generator output a player a turn, uniform among the squares chosen from.
cdef void wts_tactical_playout(wts_state *state, wts_rng *rng, bint captures,
                               uint32_t max_turns) noexcept nogil
# Game ``game`` of a run of random games with ``seed``: its own generator.
cdef void wts_game_rng(wts_rng *rng, uint64_t seed, uint64_t game) noexcept nogil
# True once the game is won or drawn (status WTS_BLACK_WINS or later).
cdef bint wts_is_over(const wts_state *state) noexcept nogil
# What stands on ``square`` 0..80: WTS_EMPTY, WTS_BLACK_TURTLE, WTS_WHITE_TURTLE or WTS_EGG.
cdef int wts_piece_at(const wts_state *state, int square) noexcept nogil
# Squares of ``empty`` where one more of ``turtles`` completes a line of five
# (captures ignored).
cdef wts_board wts_winning_moves(wts_board turtles, wts_board empty) noexcept nogil
# The empty squares where a turtle of ``color`` (WTS_BLACK or WTS_WHITE) would
# close a bracket: two pieces it traps (the opponent's turtles and the eggs)
# between it and another turtle of its colour (points 4-5).
cdef wts_board wts_capturing_moves(const wts_state *state, int color) noexcept nogil
# Line of five number ``index`` (0 <= index < WTS_NUM_FIVES): every row, column
# and diagonal stretch of five squares.
cdef wts_board wts_five(int index) noexcept nogil
# The position's 64-bit key (wts.engine.keys defines it): the XOR of a random
# number for each turtle's colour and square and each egg's age rank and square.
# Equal positions have equal keys; the turn number is not part of it.
cdef uint64_t wts_compute_key(const wts_state *state) noexcept nogil
# ``src`` seen through symmetry ``symmetry`` (0 <= symmetry < WTS_NUM_SYMMETRIES),
# written to ``dest`` (which may not be ``src``): the same turn, status and egg order.
cdef void wts_transform(wts_state *dest, const wts_state *src, int symmetry) noexcept nogil
# The square ``square`` becomes under ``symmetry``.
cdef int wts_transform_square(int square, int symmetry) noexcept nogil
# The least key among the position's eight images; the first symmetry reaching
# it is written to ``symmetry`` unless it is NULL.
cdef uint64_t wts_canonical_key(const wts_state *state, int *symmetry) noexcept nogil
