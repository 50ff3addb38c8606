"""The bit primitives of the core (``wts_bits.h``): a padded 9x9 board in two
64-bit words, and the random generator. For wts's own compiled modules (the
engine's and the players'); other projects cimport the state API,
``wts.engine._core``, which re-exports the few of these it needs.
"""

from libc.stdint cimport uint32_t, uint64_t

cdef extern from "wts_bits.h" nogil:
    # Square (file f, rank r) at bit 10 * r + f; bit 10 * r + 9 and bits 90 up stay 0.
    ctypedef struct wts_board:
        uint64_t lo
        uint64_t hi

    # xoshiro256** state.
    ctypedef struct wts_rng:
        uint64_t s[4]

    wts_board wts_valid()                              # the 81 squares of the board
    wts_board wts_and(wts_board a, wts_board b)
    wts_board wts_or(wts_board a, wts_board b)
    wts_board wts_andnot(wts_board a, wts_board b)     # a and not b
    wts_board wts_xor(wts_board a, wts_board b)
    wts_board wts_shl(wts_board a, int k)              # toward higher bits, 0 <= k < 64
    wts_board wts_shr(wts_board a, int k)              # toward lower bits, 0 <= k < 64
    wts_board wts_bit_board(int bit)                   # the board of one padded bit
    wts_board wts_square_board(int square)             # the board of one square 0..80
    wts_board wts_clear_lowest(wts_board a)            # a without its lowest bit
    bint wts_any(wts_board a)                          # a has a bit set
    bint wts_equal(wts_board a, wts_board b)
    bint wts_test_bit(wts_board a, int bit)
    int wts_popcount(wts_board a)                      # bits set
    int wts_lowest_bit(wts_board a)                    # lowest bit set; a not empty
    int wts_ctz64(uint64_t x)                          # lowest bit set of x; x not 0
    int wts_select(wts_board a, int k)                 # the k-th bit set (from 0)
    int wts_square_bit(int square)                     # square 0..80 -> padded bit
    int wts_bit_square(int bit)                        # padded bit -> square 0..80
    uint64_t wts_splitmix64(uint64_t *x)               # the next of splitmix64's sequence
    void wts_rng_seed(wts_rng *rng, uint64_t seed)     # filled by splitmix64 from seed
    uint64_t wts_rng_next(wts_rng *rng)                # 64 random bits
    uint32_t wts_rng_below(wts_rng *rng, uint32_t n)   # uniform in [0, n), 0 < n
    # Uniform in [0, n) from the 32 random bits r; rng only when r is rejected.
    uint32_t wts_rng_below_from(wts_rng *rng, uint32_t n, uint32_t r)
