"""The square features of the learned prior (:mod:`wts.players.prior`), for
the search to cimport: one board per feature, from one player's side."""

from wts.engine._bits cimport wts_board

cpdef enum:  # Python sees these too
    NUM_FEATURES = 19
    # The largest |weight| taken: exp() of NUM_FEATURES of them, times 81, stays
    # finite in a double.
    MAX_WEIGHT = 10

# Fill ``out[f]`` with the empty squares that have feature ``f``, for the player
# of ``own`` against ``foe``; ``eggs`` the eggs on the board.
cdef void square_features(wts_board own, wts_board foe, wts_board eggs,
                          wts_board *out) noexcept nogil
