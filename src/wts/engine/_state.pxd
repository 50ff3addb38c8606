"""The position's struct and the board's sizes: part of the public C API,
cimported from ``wts.engine._core``; kept here so that the engine's internal
``.pxd`` files (``_drivers.pxd``) can name them without cimporting the core."""

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from wts.engine._bits cimport wts_board

cdef enum:
    WTS_NUM_SQUARES = 81
    WTS_PADDED_BITS = 90      # bits 0..89 of a board; the last, 89, is padding
    WTS_NUM_DIRECTIONS = 8
    WTS_NUM_SYMMETRIES = 8    # in the order of wts.Symmetry
    WTS_NUM_FIVES = 140       # lines of five: 45 in rows, 45 in columns, 50 on diagonals
    # Every arrival of a turn (2 placed, at most 81 hatched) closes at most 8 brackets.
    WTS_MAX_CAPTURES = WTS_NUM_DIRECTIONS * (2 + WTS_NUM_SQUARES)

# The fields every turn reads come first, within 64 bytes, and the egg queue
# last: a batch reading the status of games that are over, or a turn that
# lays no egg, touches fewer cache lines.
ctypedef struct wts_state:
    wts_board black
    wts_board white
    wts_board eggs
    uint8_t egg_count
    uint8_t status          # WTS_ONGOING ... WTS_DRAW
    uint8_t black_count     # winning turtles after the last turn
    uint8_t white_count
    uint32_t turn           # turns played
    uint64_t key            # wts_compute_key of the position, kept by every turn
    uint8_t egg_queue[WTS_NUM_SQUARES]  # squares of the eggs, oldest first
