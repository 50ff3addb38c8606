# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The fast core: What the Shell's rules on packed bitboards.

Every kernel is ``noexcept nogil`` on a plain :c:type:`wts_state`; the
declarations other Cython code cimports are in ``_core.pxd``. The rules are
the ones :mod:`wts.reference` spells out; the comments cite CLARIFICATIONS.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from wts.engine._bits cimport (
    wts_and, wts_andnot, wts_bit_board, wts_ctz64, wts_equal, wts_or, wts_rng_below_from,
    wts_rng_next, wts_select, wts_shl, wts_shr, wts_splitmix64, wts_square_board, wts_valid,
    wts_xor,
)

cdef extern from "wts_lanes.h" nogil:
    # Random games in SIMD lanes, the simple turns only; WTS_LANES_SIMD: built with AVX2 or
    # the NEON lanes.
    enum: WTS_LANES, WTS_LANES_SIMD
    ctypedef struct wts_lanes:
        pass
    void wts_lanes_put(wts_lanes *lanes, int lane, wts_board black, wts_board white,
                       wts_board eggs, uint32_t turn, const wts_rng *rng)
    void wts_lanes_get(const wts_lanes *lanes, int lane, wts_board *black, wts_board *white,
                       wts_board *eggs, uint32_t *turn, wts_rng *rng)
    uint64_t wts_lanes_draw(const wts_lanes *lanes, int lane)
    int wts_lanes_black_bit(const wts_lanes *lanes, int lane)
    int wts_lanes_white_bit(const wts_lanes *lanes, int lane)
    void wts_lanes_turtles(const wts_lanes *lanes, int lane, wts_board *black,
                           wts_board *white)
    void wts_lanes_put_boards(wts_lanes *lanes, int lane, wts_board black, wts_board white,
                              wts_board eggs)
    # Bit l set: lane l's turn is not simple, left for _random_turns. Bit l
    # of laid set: lane l laid an egg on its board, not yet in its queue; of
    # captured: lane l placed both turtles in a game with no egg, and closed
    # brackets whose pieces are still on the board.
    uint32_t wts_lanes_step(wts_lanes *lanes, uint32_t *laid, uint32_t *captured)
    # The proof alone, for turns of given moves: a lane's boards and move bits,
    # whether its empty squares and turn number rule a simple turn out, and
    # the test of every lane (bit l of ``scalar`` set sends lane l to the
    # scalar turn anyway); simple lanes get their new boards, and bits in
    # laid and captured as wts_lanes_step gives them.
    void wts_lanes_put_moves(wts_lanes *lanes, int lane, wts_board black, wts_board white,
                             wts_board eggs, int black_bit, int white_bit)
    int wts_lane_ends(uint32_t count, uint32_t turn)
    uint32_t wts_lanes_place(wts_lanes *lanes, uint32_t scalar, uint32_t *laid,
                             uint32_t *captured)

from wts.engine.keys import KEY_SEED as _KEY_SEED
from wts.engine.pieces import Status

# The Status of each C status code, indexed by the code: the one place the two
# are matched. Every module that reads a code from the core reads it here.
STATUSES = tuple({
    WTS_ONGOING: Status.ONGOING,
    WTS_SUDDEN_DEATH: Status.SUDDEN_DEATH,
    WTS_BLACK_WINS: Status.BLACK_WINS,
    WTS_WHITE_WINS: Status.WHITE_WINS,
    WTS_DRAW: Status.DRAW,
}[code] for code in range(len(Status)))

# Shift of each direction on the padded board, in the order of CLARIFICATIONS 14:
# E, W, N, S, NE, SW, NW, SE. Even indices point to higher bits, odd ones lower.
cdef int DIRECTION_SHIFT[WTS_NUM_DIRECTIONS]
DIRECTION_SHIFT[:] = [1, 1, 10, 10, 11, 11, 9, 9]

# Direction index of a one-step bit offset (offset + 11), -1 where none.
cdef int STEP_DIRECTION[23]
STEP_DIRECTION[:] = [5, 3, 7, -1, -1, -1, -1, -1, -1, -1, 1, -1,
                     0, -1, -1, -1, -1, -1, -1, -1, 6, 2, 4]

# The on-board neighbours of every padded bit.
cdef wts_board NEIGHBOURS[WTS_PADDED_BITS]


cdef void _init_neighbours() noexcept nogil:
    cdef int bit, d, k, other
    for bit in range(WTS_PADDED_BITS):
        NEIGHBOURS[bit].lo = NEIGHBOURS[bit].hi = 0
        if not wts_test_bit(wts_valid(), bit):
            continue
        for d in range(WTS_NUM_DIRECTIONS):
            k = DIRECTION_SHIFT[d]
            other = bit + k if d % 2 == 0 else bit - k
            if 0 <= other < WTS_PADDED_BITS and wts_test_bit(wts_valid(), other):
                NEIGHBOURS[bit] = wts_or(NEIGHBOURS[bit], wts_bit_board(other))


_init_neighbours()

# Every line of five squares (rows, columns, both diagonals), as boards.
cdef wts_board FIVES[WTS_NUM_FIVES]


cdef void _init_fives() noexcept nogil:
    cdef int bit, d, k, step, count = 0
    cdef wts_board five
    for bit in range(WTS_PADDED_BITS):
        for d in range(0, WTS_NUM_DIRECTIONS, 2):  # E, N, NE, NW: each line once
            k = DIRECTION_SHIFT[d]
            five = wts_and(wts_bit_board(bit), wts_valid())
            for step in range(1, 5):
                if bit + step * k < WTS_PADDED_BITS:
                    five = wts_or(five, wts_and(wts_bit_board(bit + step * k), wts_valid()))
            if wts_popcount(five) == 5:  # padding stops a line at the board's edge
                FIVES[count] = five
                count += 1


_init_fives()


# Position keys (wts.engine.keys defines them): a random number for each
# turtle's colour and padded bit (0 on padding) and each egg's age rank and square.
cdef uint64_t TURTLE_KEYS[2][WTS_PADDED_BITS]
cdef uint64_t EGG_KEYS[WTS_NUM_SQUARES][WTS_NUM_SQUARES]


cdef void _init_keys(uint64_t seed) noexcept nogil:
    cdef int color, rank, square
    for color in range(2):
        for square in range(WTS_NUM_SQUARES):
            TURTLE_KEYS[color][wts_square_bit(square)] = wts_splitmix64(&seed)
    for rank in range(WTS_NUM_SQUARES):
        for square in range(WTS_NUM_SQUARES):
            EGG_KEYS[rank][square] = wts_splitmix64(&seed)


_init_keys(_KEY_SEED)

# The square each square becomes under each symmetry, in the order of
# wts.Symmetry; (file, rank) from 0 to 8.
cdef uint8_t SYMMETRY_SQUARE[WTS_NUM_SYMMETRIES][WTS_NUM_SQUARES]


cdef void _init_symmetries() noexcept nogil:
    cdef int square, f, r, s
    cdef int images[WTS_NUM_SYMMETRIES][2]
    for square in range(WTS_NUM_SQUARES):
        f = square % 9
        r = square // 9
        images[0][:] = [f, r]            # identity
        images[1][:] = [8 - r, f]        # a quarter turn anticlockwise
        images[2][:] = [8 - f, 8 - r]    # a half turn
        images[3][:] = [r, 8 - f]        # a quarter turn clockwise
        images[4][:] = [8 - f, r]        # files mirrored (A <-> I)
        images[5][:] = [f, 8 - r]        # ranks mirrored (1 <-> 9)
        images[6][:] = [r, f]            # across the A1-I9 diagonal
        images[7][:] = [8 - r, 8 - f]    # across the A9-I1 diagonal
        for s in range(WTS_NUM_SYMMETRIES):
            SYMMETRY_SQUARE[s][square] = <uint8_t>(images[s][1] * 9 + images[s][0])


_init_symmetries()


cdef inline uint64_t _turtle_keys(wts_board turtles, int color) noexcept nogil:
    cdef uint64_t key = 0
    while wts_any(turtles):
        key ^= TURTLE_KEYS[color][wts_lowest_bit(turtles)]
        turtles = wts_clear_lowest(turtles)
    return key


cdef uint64_t wts_compute_key(const wts_state *state) noexcept nogil:
    """The key from scratch; every turn keeps ``state.key`` equal to it."""
    cdef uint64_t key = _turtle_keys(state.black, WTS_BLACK) ^ _turtle_keys(state.white, WTS_WHITE)
    cdef int i
    for i in range(state.egg_count):
        key ^= EGG_KEYS[i][state.egg_queue[i]]
    return key


cdef int wts_transform_square(int square, int symmetry) noexcept nogil:
    return SYMMETRY_SQUARE[symmetry][square]


cdef inline wts_board _transform_board(wts_board board, int symmetry) noexcept nogil:
    cdef wts_board image
    image.lo = image.hi = 0
    while wts_any(board):
        image = wts_or(image, wts_square_board(
            SYMMETRY_SQUARE[symmetry][wts_bit_square(wts_lowest_bit(board))]))
        board = wts_clear_lowest(board)
    return image


cdef void wts_transform(wts_state *dest, const wts_state *src, int symmetry) noexcept nogil:
    """Lines of five, brackets and the eggs' order look the same in every image,
    so the counts, the status and the turn carry over unchanged."""
    cdef int i
    wts_copy(dest, src)
    dest.black = _transform_board(src.black, symmetry)
    dest.white = _transform_board(src.white, symmetry)
    dest.eggs = _transform_board(src.eggs, symmetry)
    for i in range(src.egg_count):
        dest.egg_queue[i] = SYMMETRY_SQUARE[symmetry][src.egg_queue[i]]
    dest.key = wts_compute_key(dest)


cdef inline void _add_image_keys(uint64_t *keys, wts_board turtles, int color) noexcept nogil:
    cdef int s, square
    while wts_any(turtles):
        square = wts_bit_square(wts_lowest_bit(turtles))
        for s in range(WTS_NUM_SYMMETRIES):
            keys[s] ^= TURTLE_KEYS[color][wts_square_bit(SYMMETRY_SQUARE[s][square])]
        turtles = wts_clear_lowest(turtles)


cdef uint64_t wts_canonical_key(const wts_state *state, int *symmetry) noexcept nogil:
    """The keys of all eight images in one pass over the pieces."""
    cdef uint64_t keys[WTS_NUM_SYMMETRIES]
    cdef int s, i, best = 0
    for s in range(WTS_NUM_SYMMETRIES):
        keys[s] = 0
    _add_image_keys(keys, state.black, WTS_BLACK)
    _add_image_keys(keys, state.white, WTS_WHITE)
    for i in range(state.egg_count):
        for s in range(WTS_NUM_SYMMETRIES):
            keys[s] ^= EGG_KEYS[i][SYMMETRY_SQUARE[s][state.egg_queue[i]]]
    for s in range(1, WTS_NUM_SYMMETRIES):
        if keys[s] < keys[best]:
            best = s
    if symmetry != NULL:
        symmetry[0] = best
    return keys[best]


cdef void wts_init(wts_state *state) noexcept nogil:
    """The empty board at turn 0."""
    state.black.lo = state.black.hi = 0
    state.white.lo = state.white.hi = 0
    state.eggs.lo = state.eggs.hi = 0
    state.egg_count = 0
    state.status = WTS_ONGOING
    state.black_count = 0
    state.white_count = 0
    state.turn = 0
    state.key = 0


cdef void wts_copy(wts_state *dest, const wts_state *src) noexcept nogil:
    memcpy(dest, src, sizeof(wts_state))


cdef inline wts_board _turtles(const wts_state *state, int color) noexcept nogil:
    return state.black if color == WTS_BLACK else state.white


cdef inline wts_board _run_starts(wts_board turtles, int k) noexcept nogil:
    """Turtles that start a run of five or more along shift ``k``."""
    cdef wts_board pairs = wts_and(turtles, wts_shr(turtles, k))
    return wts_and(wts_and(pairs, wts_shr(pairs, 2 * k)), wts_shr(turtles, 4 * k))


cdef inline wts_board _run_cells(wts_board starts, int k) noexcept nogil:
    """Every cell of the runs that ``starts`` (along shift ``k``) begin."""
    cdef wts_board pairs = wts_or(starts, wts_shl(starts, k))
    return wts_or(wts_or(pairs, wts_shl(pairs, 2 * k)), wts_shl(starts, 4 * k))


cdef int wts_count_winning(wts_board turtles) noexcept nogil:
    """Distinct turtles in a line of five or more (CLARIFICATIONS 10)."""
    return _count_winning(turtles)


cdef wts_board wts_winning_turtles(wts_board turtles) noexcept nogil:
    """The turtles of ``turtles`` in a line of five or more (point 10)."""
    return _winning_turtles(turtles)


cdef inline wts_board _winning_turtles(wts_board turtles) noexcept nogil:
    # The starts of all four directions, then one test: nearly every turn has
    # no five, and a branch per direction mispredicts more than it saves.
    cdef wts_board row = _run_starts(turtles, 1), column = _run_starts(turtles, 10)
    cdef wts_board rising = _run_starts(turtles, 11), falling = _run_starts(turtles, 9)
    cdef wts_board starts = wts_or(wts_or(row, column), wts_or(rising, falling))
    if not wts_any(starts):
        return starts
    return wts_or(wts_or(_run_cells(row, 1), _run_cells(column, 10)),
                  wts_or(_run_cells(rising, 11), _run_cells(falling, 9)))


cdef inline int _count_winning(wts_board turtles) noexcept nogil:
    return wts_popcount(_winning_turtles(turtles))


cdef wts_board wts_five(int index) noexcept nogil:
    return FIVES[index]


cdef inline wts_board _completions(wts_board own, wts_board empty, int k) noexcept nogil:
    """Squares of ``empty`` where one more of ``own`` completes a five along
    shift ``k``: for each gap j of a window of five, the window starts whose
    other four cells are own, moved onto the gap."""
    cdef wts_board own1 = wts_shr(own, k), own2 = wts_shr(own, 2 * k)
    cdef wts_board own3 = wts_shr(own, 3 * k), own4 = wts_shr(own, 4 * k)
    cdef wts_board head = wts_and(own, own1), tail = wts_and(own3, own4)
    cdef wts_board gaps = wts_and(wts_and(own1, own2), tail)                  # gap 0
    gaps = wts_or(gaps, wts_shl(wts_and(wts_and(own, own2), tail), k))       # gap 1
    gaps = wts_or(gaps, wts_shl(wts_and(head, tail), 2 * k))                  # gap 2
    gaps = wts_or(gaps, wts_shl(wts_and(wts_and(head, own2), own4), 3 * k))  # gap 3
    gaps = wts_or(gaps, wts_shl(wts_and(wts_and(head, own2), own3), 4 * k))  # gap 4
    return wts_and(gaps, empty)


cdef wts_board wts_winning_moves(wts_board turtles, wts_board empty) noexcept nogil:
    """Squares of ``empty`` where one more of ``turtles`` completes a line of five
    (point 10), captures ignored. The shifts are constants, one call a
    direction, so that each folds into a couple of instructions."""
    cdef wts_board none
    if wts_popcount(turtles) < 4:
        none.lo = none.hi = 0
        return none
    return wts_or(wts_or(_completions(turtles, empty, 1), _completions(turtles, empty, 10)),
                  wts_or(_completions(turtles, empty, 11), _completions(turtles, empty, 9)))


cdef wts_board wts_capturing_moves(wts_board own, wts_board foe,
                                   wts_board empty) noexcept nogil:
    """Squares of ``empty`` where a turtle of ``own`` would close a bracket on two
    of ``foe`` (opponent turtles and eggs) against another of ``own`` (points 4-5)."""
    cdef wts_board result
    cdef int d, k
    result.lo = result.hi = 0
    for d in range(0, WTS_NUM_DIRECTIONS, 2):
        k = DIRECTION_SHIFT[d]
        result = wts_or(result, wts_or(_closers_up(empty, foe, own, k),
                                       _closers_down(empty, foe, own, k)))
    return result


cdef void wts_settle(wts_state *state) noexcept nogil:
    """A position written by hand: its status and its key."""
    _settle(state)
    state.key = wts_compute_key(state)


cdef void _settle(wts_state *state) noexcept nogil:
    """Winning counts and the status read off the board (CLARIFICATIONS 10-12);
    a game at the last turn number is drawn (a wts ruling)."""
    cdef int black = _count_winning(state.black)
    cdef int white = _count_winning(state.white)
    cdef wts_board occupied = wts_or(wts_or(state.black, state.white), state.eggs)
    state.black_count = <uint8_t>black
    state.white_count = <uint8_t>white
    if black > white:
        state.status = WTS_BLACK_WINS
    elif white > black:
        state.status = WTS_WHITE_WINS
    elif wts_equal(occupied, wts_valid()) or state.turn == WTS_MAX_TURN:
        state.status = WTS_DRAW
    elif black > 0:
        state.status = WTS_SUDDEN_DEATH
    else:
        state.status = WTS_ONGOING


cdef inline wts_board _closers_up(
        wts_board arrivals, wts_board foe, wts_board own, int k) noexcept nogil:
    """Arrivals that close a bracket toward higher bits: p+k, p+2k foe, p+3k own."""
    return wts_and(wts_and(arrivals, wts_shr(foe, k)),
                   wts_and(wts_shr(foe, 2 * k), wts_shr(own, 3 * k)))


cdef inline wts_board _closers_down(
        wts_board arrivals, wts_board foe, wts_board own, int k) noexcept nogil:
    """The mirror image toward lower bits. Point 6: a bracket with an arrival at
    both ends counts once, from its lower end, which finds it going up."""
    cdef wts_board c = wts_and(wts_and(arrivals, wts_shl(foe, k)),
                               wts_and(wts_shl(foe, 2 * k), wts_shl(own, 3 * k)))
    return wts_andnot(c, wts_shl(arrivals, 3 * k))


cdef void _record_capture(
        wts_turn_record *record, int bit, int direction, int color, int round_) noexcept nogil:
    cdef wts_capture *entry = &record.captures[record.n_captures]
    entry.closer = <uint8_t>wts_bit_square(bit)
    entry.direction = <uint8_t>direction
    entry.color = <uint8_t>color
    entry.round = <uint8_t>round_
    record.n_captures += 1


cdef inline int _find_brackets_of_one(
        int arrival, wts_board own, wts_board foe, int color, int round_,
        wts_board *captured, wts_turn_record *record) noexcept nogil:
    """Brackets closed by a single arrival (every placement, many waves): only the
    directions where a trappable piece is adjacent are followed."""
    cdef wts_board near = wts_and(foe, NEIGHBOURS[arrival])
    cdef int bit, step, d, count = 0
    cdef unsigned found = 0  # bit d set: closes a bracket in direction d
    while wts_any(near):
        bit = wts_lowest_bit(near)
        near = wts_clear_lowest(near)
        step = bit - arrival
        if (0 <= bit + 2 * step < WTS_PADDED_BITS and wts_test_bit(foe, bit + step)
                and wts_test_bit(own, bit + 2 * step)):
            captured[0] = wts_or(captured[0], wts_or(wts_bit_board(bit), wts_bit_board(bit + step)))
            found |= 1u << STEP_DIRECTION[step + 11]
            count += 1
    if record != NULL and found:
        for d in range(WTS_NUM_DIRECTIONS):
            if found & (1u << d):
                _record_capture(record, arrival, d, color, round_)
    return count


cdef inline int _find_brackets(
        const wts_state *state, wts_board arrivals, int color, int round_,
        wts_board *captured, wts_turn_record *record) noexcept nogil:
    """Brackets closed by ``arrivals`` of ``color``, on the board as it stands
    (CLARIFICATIONS 4-6). Adds the trapped squares to ``captured`` and
    returns the number of captures; records them in the order of point 14."""
    cdef wts_board own = _turtles(state, color)
    cdef wts_board foe = wts_or(_turtles(state, 1 - color), state.eggs)
    cdef wts_board closers[WTS_NUM_DIRECTIONS]
    cdef wts_board all_closers, c
    cdef int d, k, bit, count = 0
    if not wts_any(wts_clear_lowest(arrivals)):
        return _find_brackets_of_one(wts_lowest_bit(arrivals), own, foe, color, round_,
                                     captured, record)
    # Several arrivals (a wave of hatches): every direction for all of them at
    # once, by constant shifts, in the direction order of point 14.
    closers[0] = _closers_up(arrivals, foe, own, 1)
    closers[1] = _closers_down(arrivals, foe, own, 1)
    closers[2] = _closers_up(arrivals, foe, own, 10)
    closers[3] = _closers_down(arrivals, foe, own, 10)
    closers[4] = _closers_up(arrivals, foe, own, 11)
    closers[5] = _closers_down(arrivals, foe, own, 11)
    closers[6] = _closers_up(arrivals, foe, own, 9)
    closers[7] = _closers_down(arrivals, foe, own, 9)
    all_closers = wts_or(wts_or(wts_or(closers[0], closers[1]), wts_or(closers[2], closers[3])),
                         wts_or(wts_or(closers[4], closers[5]), wts_or(closers[6], closers[7])))
    if not wts_any(all_closers):
        return 0
    for d in range(WTS_NUM_DIRECTIONS):
        c = closers[d]
        if not wts_any(c):
            continue
        k = DIRECTION_SHIFT[d]
        count += wts_popcount(c)
        if d % 2 == 0:
            captured[0] = wts_or(captured[0], wts_or(wts_shl(c, k), wts_shl(c, 2 * k)))
        else:
            captured[0] = wts_or(captured[0], wts_or(wts_shr(c, k), wts_shr(c, 2 * k)))
    if record != NULL:
        while wts_any(all_closers):
            bit = wts_lowest_bit(all_closers)
            for d in range(WTS_NUM_DIRECTIONS):
                if wts_test_bit(closers[d], bit):
                    _record_capture(record, bit, d, color, round_)
            all_closers = wts_clear_lowest(all_closers)
    return count


cdef inline void _remove_captured(wts_state *state, wts_board captured,
                                  bint keyed) noexcept nogil:
    """Captured pieces leave at once; captured eggs leave the queue before any
    egg dissolves or hatches (CLARIFICATIONS 6-7)."""
    cdef int i, square, kept = 0
    state.black = wts_andnot(state.black, captured)
    state.white = wts_andnot(state.white, captured)
    if wts_any(wts_and(state.eggs, captured)):
        for i in range(state.egg_count):
            square = state.egg_queue[i]
            if keyed:  # every egg after a captured one gets younger
                state.key ^= EGG_KEYS[i][square]
            if not wts_test_bit(captured, wts_square_bit(square)):
                state.egg_queue[kept] = <uint8_t>square
                if keyed:
                    state.key ^= EGG_KEYS[kept][square]
                kept += 1
        state.egg_count = <uint8_t>kept
        state.eggs = wts_andnot(state.eggs, captured)


cdef inline wts_board _take_oldest_eggs(wts_state *state, int count,
                                        bint keyed) noexcept nogil:
    """Take the ``count`` oldest eggs off the board and the queue."""
    cdef wts_board taken
    cdef int i
    taken.lo = taken.hi = 0
    for i in range(count):
        taken = wts_or(taken, wts_square_board(state.egg_queue[i]))
    for i in range(state.egg_count if keyed else 0):  # the eggs left move up by ``count``
        state.key ^= EGG_KEYS[i][state.egg_queue[i]]
        if i >= count:
            state.key ^= EGG_KEYS[i - count][state.egg_queue[i]]
    memmove(&state.egg_queue[0], &state.egg_queue[count], state.egg_count - count)
    state.egg_count = <uint8_t>(state.egg_count - count)
    state.eggs = wts_andnot(state.eggs, taken)
    return taken


cdef void wts_resolve_turn(wts_state *state, int black_move, int white_move,
                           wts_turn_record *record) noexcept nogil:
    """Play one turn of two legal moves; fills ``record`` unless it is NULL."""
    _resolve_turn(state, black_move, white_move, record, True)


cdef inline int _move_bit(int64_t move) noexcept nogil:
    """The padded bit of ``move`` if it is a square, else bit 9, which no board
    ever holds: one bit test then checks both the range and the square."""
    return wts_square_bit(<int>move) if <uint64_t>move < WTS_NUM_SQUARES else 9


cdef Py_ssize_t wts_resolve_turns(wts_state *states, uint8_t *statuses,
                                  const int64_t *black_moves, const int64_t *white_moves,
                                  Py_ssize_t n, Py_ssize_t *live, int32_t *captures,
                                  int32_t *hatches) noexcept nogil:
    """One turn in each of ``n`` games, all checked before any is played:
    wts_resolve_turn on every game not over, several at a time where the build
    has SIMD lanes. ``live`` is scratch space for ``n`` indices."""
    cdef Py_ssize_t i, j, n_live = 0, first_over_moved = -1
    cdef wts_board empty
    cdef bint over
    if n == 0:
        return -1
    # The games over are found from ``statuses`` alone, in a pass that reads no
    # game, and take no further work; the others are listed, then played
    # without a branch on whether a game is over (a coin toss once many have ended).
    for i in range(n):
        over = statuses[i] >= WTS_BLACK_WINS
        if over & ((black_moves[i] != -1) | (white_moves[i] != -1)):
            first_over_moved = i  # unless a game listed before it has a bad move
            break
        live[n_live] = i
        n_live += not over
    for j in range(n_live):
        i = live[j]
        empty = wts_empty_squares(&states[i])
        if not (wts_test_bit(empty, _move_bit(black_moves[i]))
                & wts_test_bit(empty, _move_bit(white_moves[i]))):
            return i
        if WTS_LANES_SIMD and wts_lane_ends(<uint32_t>wts_popcount(empty), states[i].turn):
            live[j] = ~i  # a turn the lanes cannot prove simple, marked while at hand
    if first_over_moved >= 0:
        return first_over_moved
    memset(captures, 0, 2 * n * sizeof(int32_t))
    memset(hatches, 0, n * sizeof(int32_t))
    if WTS_LANES_SIMD:
        _resolve_turns_lanes(states, statuses, black_moves, white_moves, live, n_live,
                             captures, hatches)
        return -1
    for j in range(n_live):
        i = live[j]
        _resolve_counted(&states[i], <int>black_moves[i], <int>white_moves[i],
                         &captures[2 * i], &hatches[i])
        statuses[i] = states[i].status
    return -1


cdef void _resolve_counted(wts_state *state, int black_move, int white_move,
                           int32_t *captures, int32_t *hatches) noexcept nogil:
    """wts_resolve_turn on a game not over, its captures by colour and its
    hatched eggs counted."""
    cdef wts_turn_record record
    cdef int j, black_captures = 0
    wts_resolve_turn(state, black_move, white_move, &record)
    for j in range(record.n_captures):
        black_captures += record.captures[j].color == WTS_BLACK
    captures[0] = black_captures
    captures[1] = record.n_captures - black_captures
    hatches[0] = record.n_hatched


cdef void _resolve_turns_lanes(wts_state *states, uint8_t *statuses,
                               const int64_t *black_moves, const int64_t *white_moves,
                               const Py_ssize_t *live, Py_ssize_t n_live, int32_t *captures,
                               int32_t *hatches) noexcept nogil:
    """wts_resolve_turns on the games ``live`` lists (none over; ``~i`` for game
    i if its turn may end the game, see wts_lane_ends), WTS_LANES at a time:
    the lanes prove which turns are simple (wts_lanes.h); those are
    played here as _resolve_turn would play them, every other one by
    _resolve_counted. A simple turn is two turtles and their keys, with their
    captures in a game with no egg, or a collision's egg; then one turn more,
    no five, still ongoing, nothing hatched (its zeros are already written)."""
    cdef wts_lanes lanes
    cdef wts_state *state
    cdef wts_board none
    cdef Py_ssize_t games[WTS_LANES]
    cdef int black_bits[WTS_LANES]
    cdef int white_bits[WTS_LANES]
    cdef Py_ssize_t first = 0, i
    cdef uint32_t scalar, laid, captured
    cdef wts_board taken
    cdef int lane, used
    none.lo = none.hi = 0
    while first < n_live:
        used = <int>min(<Py_ssize_t>WTS_LANES, n_live - first)
        scalar = 0
        for lane in range(used):
            i = live[first + lane]
            if i < 0:  # its turn may fill the board or reach the last turn number
                i = ~i
                scalar |= 1u << lane
            games[lane] = i
            state = &states[i]
            black_bits[lane] = wts_square_bit(<int>black_moves[i])
            white_bits[lane] = wts_square_bit(<int>white_moves[i])
            wts_lanes_put_moves(&lanes, lane, state.black, state.white, state.eggs,
                                black_bits[lane], white_bits[lane])
        for lane in range(used, WTS_LANES):
            wts_lanes_put_moves(&lanes, lane, none, none, none, 0, 0)
            scalar |= 1u << lane
        scalar = wts_lanes_place(&lanes, scalar, &laid, &captured)
        for lane in range(used):
            i = games[lane]
            state = &states[i]
            if (scalar >> lane) & 1u:
                _resolve_counted(state, <int>black_moves[i], <int>white_moves[i],
                                 &captures[2 * i], &hatches[i])
                statuses[i] = state.status
                continue
            # The counts stay 0 and the status ongoing, as they were: a game
            # with a five on the board never passes the lanes' test.
            state.turn += 1
            if (laid >> lane) & 1u:
                _lay_egg(state, <int>black_moves[i], True)
                continue
            state.black = wts_or(state.black, wts_bit_board(black_bits[lane]))
            state.white = wts_or(state.white, wts_bit_board(white_bits[lane]))
            state.key ^= (TURTLE_KEYS[WTS_BLACK][black_bits[lane]]
                          ^ TURTLE_KEYS[WTS_WHITE][white_bits[lane]])
            if (captured >> lane) & 1u:
                taken = _captured_without_eggs(black_bits[lane], white_bits[lane], state.black,
                                               state.white, &captures[2 * i])
                state.key ^= (_turtle_keys(wts_and(state.black, taken), WTS_BLACK)
                              ^ _turtle_keys(wts_and(state.white, taken), WTS_WHITE))
                _remove_captured(state, taken, True)
        first += used


cdef inline wts_board _captured_without_eggs(int black_bit, int white_bit, wts_board black,
                                             wts_board white, int32_t *counts) noexcept nogil:
    """The pieces a turn's brackets capture in a game with no egg, both
    turtles placed (points 5-6), and each colour's brackets in ``counts``;
    with no egg, nothing dissolves or hatches (point 8)."""
    cdef wts_board captured
    captured.lo = captured.hi = 0
    counts[0] = _find_brackets_of_one(black_bit, black, white, WTS_BLACK, 0, &captured, NULL)
    counts[1] = _find_brackets_of_one(white_bit, white, black, WTS_WHITE, 0, &captured, NULL)
    return captured


cdef inline void _lay_egg(wts_state *state, int square, bint keyed) noexcept nogil:
    """Point 9: a collision lays the newest egg."""
    state.eggs = wts_or(state.eggs, wts_square_board(square))
    state.egg_queue[state.egg_count] = <uint8_t>square
    if keyed:
        state.key ^= EGG_KEYS[state.egg_count][square]
    state.egg_count += 1


cdef inline void _resolve_turn(wts_state *state, int black_move, int white_move,
                               wts_turn_record *record, bint keyed) noexcept nogil:
    """The turn; ``keyed`` False leaves ``state.key`` stale, for a playout that
    computes it once at its end."""
    cdef wts_board captured, hatched
    cdef wts_board black_before = state.black, white_before = state.white
    cdef int black_captures, white_captures, pending, count, color, wave, i
    if record != NULL:
        record.collision = -1
        record.n_captures = record.n_dissolved = record.n_hatched = 0
    if black_move == white_move:
        # Nothing captures or hatches.
        _lay_egg(state, black_move, keyed)
        if record != NULL:
            record.collision = <int8_t>black_move
    else:
        state.black = wts_or(state.black, wts_square_board(black_move))
        state.white = wts_or(state.white, wts_square_board(white_move))
        captured.lo = captured.hi = 0
        # Points 5-6: both placed turtles are on the board before either looks for brackets.
        black_captures = _find_brackets_of_one(wts_square_bit(black_move), state.black,
                                               wts_or(state.white, state.eggs), WTS_BLACK, 0,
                                               &captured, record)
        white_captures = _find_brackets_of_one(wts_square_bit(white_move), state.white,
                                               wts_or(state.black, state.eggs), WTS_WHITE, 0,
                                               &captured, record)
        _remove_captured(state, captured, keyed)
        # Point 8: each black-white pair of captures dissolves the oldest egg.
        count = min(black_captures, white_captures, <int>state.egg_count)
        if count:
            if record != NULL:
                for i in range(count):
                    record.dissolved[record.n_dissolved] = state.egg_queue[i]
                    record.n_dissolved += 1
            _take_oldest_eggs(state, count, keyed)
        # The rest hatch for the player with more captures, wave by wave.
        color = WTS_BLACK if black_captures > white_captures else WTS_WHITE
        pending = abs(black_captures - white_captures)
        wave = 0
        while pending:
            count = min(pending, <int>state.egg_count)
            if count == 0:
                break
            wave += 1
            if record != NULL:
                for i in range(count):
                    record.hatched[record.n_hatched].square = state.egg_queue[i]
                    record.hatched[record.n_hatched].color = <uint8_t>color
                    record.hatched[record.n_hatched].wave = <uint8_t>wave
                    record.n_hatched += 1
            hatched = _take_oldest_eggs(state, count, keyed)
            if color == WTS_BLACK:
                state.black = wts_or(state.black, hatched)
            else:
                state.white = wts_or(state.white, hatched)
            captured.lo = captured.hi = 0
            pending = _find_brackets(state, hatched, color, wave, &captured, record)
            _remove_captured(state, captured, keyed)
        # The eggs' share of the key changed with the queue; the turtles' with
        # the squares that gained or lost one.
        if keyed:
            state.key ^= (_turtle_keys(wts_xor(black_before, state.black), WTS_BLACK)
                          ^ _turtle_keys(wts_xor(white_before, state.white), WTS_WHITE))
    state.turn += 1
    _settle(state)


cdef wts_board wts_empty_squares(const wts_state *state) noexcept nogil:
    """The squares holding nothing, as a padded board."""
    return wts_andnot(wts_valid(), wts_or(wts_or(state.black, state.white), state.eggs))


cdef wts_board wts_legal_moves(const wts_state *state) noexcept nogil:
    """The empty squares as a padded board; none once the game is over (point 3)."""
    cdef wts_board none
    if wts_is_over(state):
        none.lo = none.hi = 0
        return none
    return wts_empty_squares(state)


cdef bint wts_is_legal(const wts_state *state, int square) noexcept nogil:
    """Whether either player may name ``square`` (any int) this turn."""
    return (0 <= square < WTS_NUM_SQUARES
            and wts_test_bit(wts_legal_moves(state), wts_square_bit(square)))


cdef inline int _random_square(wts_board legal, uint32_t count, uint32_t r,
                               wts_rng *rng) noexcept nogil:
    """A uniformly random square of ``legal``, which holds ``count`` > 0, from the
    32 random bits ``r``: the same square whatever the build (a select, not a
    rejection loop, whose mispredicted branches cost more than the select)."""
    return wts_bit_square(wts_select(legal, <int>wts_rng_below_from(rng, count, r)))


cdef int wts_random_legal_move(const wts_state *state, wts_rng *rng) noexcept nogil:
    """A uniformly random legal square, or -1 if there is none."""
    cdef wts_board legal = wts_legal_moves(state)
    if not wts_any(legal):
        return -1
    return _random_square(legal, <uint32_t>wts_popcount(legal),
                          <uint32_t>(wts_rng_next(rng) >> 32), rng)


cdef void _random_turns(wts_state *state, wts_rng *rng, uint64_t draw,
                        bint to_the_end) noexcept nogil:
    """Turns of uniformly random moves, the first from the generator output
    ``draw`` and each later one from the next: its high half for black, its
    low half for white (``rng`` also for a rejected half). One turn, or every
    turn to the end of the game with ``to_the_end``. One function for both,
    so that the compiler inlines _resolve_turn, without record or key, once."""
    cdef wts_board legal
    cdef uint32_t count
    cdef int black, white
    while True:
        legal = wts_empty_squares(state)
        count = <uint32_t>wts_popcount(legal)
        black = _random_square(legal, count, <uint32_t>(draw >> 32), rng)
        white = _random_square(legal, count, <uint32_t>draw, rng)
        _resolve_turn(state, black, white, NULL, False)
        if not to_the_end or wts_is_over(state):
            return
        draw = wts_rng_next(rng)


cdef void wts_playout(wts_state *state, wts_rng *rng) noexcept nogil:
    """Both players pick uniformly among the empty squares until the game ends;
    one generator output a turn."""
    if not wts_is_over(state):
        _random_turns(state, rng, wts_rng_next(rng), True)
    state.key = wts_compute_key(state)  # once, not turn by turn


# Odd constant spreading game indices over the generator's seed space.
cdef uint64_t GAME_STRIDE = 0xD1B54A32D192ED03ULL


cdef void wts_game_rng(wts_rng *rng, uint64_t seed, uint64_t game) noexcept nogil:
    """Game ``game`` of a run with ``seed`` plays from its own xoshiro256** stream."""
    wts_rng_seed(rng, seed ^ (game * GAME_STRIDE))


# Games a playout range plays at once: lanes with AVX2, else one game at a time
# (lanes stepped one by one measured slower than wts_playout).
PLAYOUT_LANES = WTS_LANES if WTS_LANES_SIMD else 1


cdef void wts_playout_range(const wts_state *start, uint64_t seed, uint64_t first,
                            uint64_t stop, int32_t *lengths, uint8_t *statuses) noexcept nogil:
    """Games ``first``..``stop-1`` of the run ``seed``, each played out from
    ``start`` on its own generator; game ``g``'s turns and final status go to
    ``lengths[g - first]`` and ``statuses[g - first]``."""
    cdef wts_state state
    cdef wts_rng rng
    cdef uint64_t game
    if WTS_LANES_SIMD:
        _playout_lanes(start, seed, first, stop, lengths, statuses)
        return
    for game in range(first, stop):
        wts_copy(&state, start)
        wts_game_rng(&rng, seed, game)
        wts_playout(&state, &rng)
        lengths[game - first] = <int32_t>(state.turn - start.turn)
        statuses[game - first] = state.status


cdef void _playout_lanes(const wts_state *start, uint64_t seed, uint64_t first,
                         uint64_t stop, int32_t *lengths, uint8_t *statuses) noexcept nogil:
    """wts_playout_range with WTS_LANES games at a time: each step plays the
    simple turns in the lanes (wts_lanes.h), finishes here those the lanes
    leave a part of (a capture's pieces to remove, a collision's egg to
    queue), and plays every other one here, by _random_turns on the lane's
    own state and generator; a lane whose game ends takes the next game, and
    idles once none is left. A lane's state is brought up to date only for a
    scalar turn: its status and key may lag until then."""
    cdef wts_lanes lanes
    cdef wts_state states[WTS_LANES]
    cdef uint64_t games[WTS_LANES]
    cdef uint64_t next_game = first
    cdef uint32_t active = 0, scalar, laid, captured
    cdef int32_t counts[2]
    cdef wts_board black, white, taken, none
    cdef wts_rng rng
    cdef int lane
    cdef wts_state *state
    none.lo = none.hi = 0
    for lane in range(WTS_LANES):
        if _lane_load(&lanes, lane, &states[lane], &games[lane], &next_game, start, seed,
                      first, stop, lengths, statuses):
            active |= 1u << lane
    while active:
        scalar = wts_lanes_step(&lanes, &laid, &captured) & active
        captured &= active
        while captured:
            # Both turtles are placed; the captured pieces leave.
            lane = wts_ctz64(captured)
            captured &= captured - 1
            wts_lanes_turtles(&lanes, lane, &black, &white)
            taken = _captured_without_eggs(wts_lanes_black_bit(&lanes, lane),
                                           wts_lanes_white_bit(&lanes, lane), black, white,
                                           counts)
            wts_lanes_put_boards(&lanes, lane, wts_andnot(black, taken),
                                 wts_andnot(white, taken), none)
        laid &= active
        while laid:
            # A collision laid an egg on the lane's board: into the game's queue.
            lane = wts_ctz64(laid)
            laid &= laid - 1
            _lay_egg(&states[lane], wts_bit_square(wts_lanes_black_bit(&lanes, lane)), False)
        while scalar:
            lane = wts_ctz64(scalar)
            scalar &= scalar - 1
            state = &states[lane]
            wts_lanes_get(&lanes, lane, &state.black, &state.white, &state.eggs, &state.turn,
                          &rng)
            _random_turns(state, &rng, wts_lanes_draw(&lanes, lane), False)
            if not wts_is_over(state):
                wts_lanes_put(&lanes, lane, state.black, state.white, state.eggs, state.turn,
                              &rng)
                continue
            lengths[games[lane] - first] = <int32_t>(state.turn - start.turn)
            statuses[games[lane] - first] = state.status
            if not _lane_load(&lanes, lane, state, &games[lane], &next_game, start, seed,
                              first, stop, lengths, statuses):
                active &= ~(1u << lane)


cdef bint _lane_load(wts_lanes *lanes, int lane, wts_state *state, uint64_t *game,
                     uint64_t *next_game, const wts_state *start, uint64_t seed,
                     uint64_t first, uint64_t stop, int32_t *lengths,
                     uint8_t *statuses) noexcept nogil:
    """Put the next game into ``lane``, False if none is left (the lane then
    holds the empty board, so its steps, which nobody reads, stay legal).
    A start already over ends its games at once."""
    cdef wts_rng rng
    cdef wts_board none
    none.lo = none.hi = 0
    if wts_is_over(start):
        while next_game[0] < stop:
            lengths[next_game[0] - first] = 0
            statuses[next_game[0] - first] = start.status
            next_game[0] += 1
    if next_game[0] == stop:
        wts_game_rng(&rng, 0, 0)
        wts_lanes_put(lanes, lane, none, none, none, 0, &rng)
        return False
    game[0] = next_game[0]
    next_game[0] += 1
    wts_copy(state, start)
    wts_game_rng(&rng, seed, game[0])
    wts_lanes_put(lanes, lane, state.black, state.white, state.eggs, state.turn, &rng)
    return True


cdef bint wts_is_over(const wts_state *state) noexcept nogil:
    return state.status >= WTS_BLACK_WINS


cdef int wts_piece_at(const wts_state *state, int square) noexcept nogil:
    cdef int bit = wts_square_bit(square)
    if wts_test_bit(state.black, bit):
        return WTS_BLACK_TURTLE
    if wts_test_bit(state.white, bit):
        return WTS_WHITE_TURTLE
    if wts_test_bit(state.eggs, bit):
        return WTS_EGG
    return WTS_EMPTY


def state_size():
    """Bytes in one ``wts_state``: a game's whole position."""
    return sizeof(wts_state)
