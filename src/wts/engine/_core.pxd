# cython: language_level=3
"""C-level API of the wts core, for other Cython code to cimport.

    from wts.engine._core cimport wts_state, wts_init, wts_resolve_turn, ...

Build with ``include_dirs=[wts.get_include()]`` so ``wts_bits.h`` is found.
All functions are ``noexcept nogil`` and take plain structs; none of them
checks its input: a caller passes only legal moves to a game not over
(``wts_legal_moves`` says which squares are legal).
"""

from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t

cdef extern from "wts_bits.h" nogil:
    ctypedef struct wts_board:
        uint64_t lo
        uint64_t hi

    ctypedef struct wts_rng:
        uint64_t s[4]

    wts_board wts_valid()
    wts_board wts_and(wts_board a, wts_board b)
    wts_board wts_or(wts_board a, wts_board b)
    wts_board wts_andnot(wts_board a, wts_board b)
    wts_board wts_shl(wts_board a, int k)
    wts_board wts_shr(wts_board a, int k)
    wts_board wts_bit_board(int bit)
    wts_board wts_square_board(int square)
    wts_board wts_clear_lowest(wts_board a)
    bint wts_any(wts_board a)
    bint wts_equal(wts_board a, wts_board b)
    bint wts_test_bit(wts_board a, int bit)
    int wts_popcount(wts_board a)
    int wts_lowest_bit(wts_board a)
    int wts_select(wts_board a, int k)
    int wts_square_bit(int square)
    int wts_bit_square(int bit)
    void wts_rng_seed(wts_rng *rng, uint64_t seed)
    uint64_t wts_rng_next(wts_rng *rng)
    uint32_t wts_rng_below(wts_rng *rng, uint32_t n)
    int wts_uniform_bit(uint32_t r)

# Status codes, in the order of wts.Status.
cdef enum:
    WTS_ONGOING = 0
    WTS_SUDDEN_DEATH = 1
    WTS_BLACK_WINS = 2
    WTS_WHITE_WINS = 3
    WTS_DRAW = 4

# Colours and the directions of CLARIFICATIONS 14, in that order.
cdef enum:
    WTS_BLACK = 0
    WTS_WHITE = 1

# The last turn number: a game that reaches it is drawn (docs/rules.md,
# "wts rulings"), so ``turn`` never wraps.
cdef extern from *:
    """
    #define WTS_MAX_TURN 0xFFFFFFFFu
    """
    const uint32_t WTS_MAX_TURN

cdef enum:
    WTS_NUM_SQUARES = 81
    WTS_NUM_DIRECTIONS = 8
    # Every arrival of a turn (2 placed, at most 81 hatched) closes at most 8 brackets.
    WTS_MAX_CAPTURES = 8 * (2 + 81)

ctypedef struct wts_state:
    wts_board black
    wts_board white
    wts_board eggs
    uint8_t egg_queue[81]   # squares (0..80) of the eggs, oldest first
    uint8_t egg_count
    uint8_t status          # WTS_ONGOING ... WTS_DRAW
    uint8_t black_count     # winning turtles after the last turn
    uint8_t white_count
    uint32_t turn           # turns played

ctypedef struct wts_capture:
    uint8_t closer          # square of the arriving turtle
    uint8_t direction       # 0..7: E, W, N, S, NE, SW, NW, SE
    uint8_t color           # WTS_BLACK or WTS_WHITE
    uint8_t round           # 0 placement, k the k-th hatching wave

ctypedef struct wts_hatch:
    uint8_t square
    uint8_t color
    uint8_t wave

# What one turn did, in the order of CLARIFICATIONS 14.
ctypedef struct wts_turn_record:
    int8_t collision        # square of the collision, or -1
    int n_captures
    int n_dissolved
    int n_hatched
    wts_capture captures[WTS_MAX_CAPTURES]
    uint8_t dissolved[81]
    wts_hatch hatched[81]

# What wts_piece_at reports.
cdef enum:
    WTS_EMPTY = 0
    WTS_BLACK_TURTLE = 1
    WTS_WHITE_TURTLE = 2
    WTS_EGG = 3

cdef void wts_init(wts_state *state) noexcept nogil
cdef void wts_copy(wts_state *dest, const wts_state *src) noexcept nogil
cdef void wts_settle(wts_state *state) noexcept nogil
cdef void wts_resolve_turn(wts_state *state, int black_move, int white_move,
                           wts_turn_record *record) noexcept nogil
cdef int wts_count_winning(wts_board turtles) noexcept nogil
cdef wts_board wts_legal_moves(const wts_state *state) noexcept nogil
cdef bint wts_is_legal(const wts_state *state, int square) noexcept nogil
cdef int wts_random_legal_move(const wts_state *state, wts_rng *rng) noexcept nogil
cdef void wts_playout(wts_state *state, wts_rng *rng) noexcept nogil
cdef bint wts_is_over(const wts_state *state) noexcept nogil
cdef int wts_piece_at(const wts_state *state, int square) noexcept nogil
