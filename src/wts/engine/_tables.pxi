# The core's tables and what reads only them: directions, neighbours, the
# lines of five, the position keys and the symmetries. Included by _core.pyx;
# no rule is decided here.


# Shift of each direction on the padded board, in the order of point 14:
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


cdef wts_board wts_five(int index) noexcept nogil:
    return FIVES[index]


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
