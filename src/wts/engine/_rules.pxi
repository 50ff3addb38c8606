# The rules of a turn, in the order a turn applies them: the one home of each
# rule in the fast core (the reference engine, wts/engine/reference.py, is the
# other engine's), deciding with the predicates of wts_predicates.h (what a
# bracket is and traps, a run of five, a draw), which the SIMD lanes share.
# Included by _core.pyx. The drivers (_drivers.pxi) play a
# turn through _resolve_turn, or, where the lanes prove it simple
# (wts_lanes.h, which decides no rule), through this file's own steps:
# _place_turtles, _lay_egg, _find_brackets_of_one, _remove_captured.
#
#   0. legal squares: the empty ones, none once the game is over (point 3)
#   1. placement: a collision lays an egg (point 9), else both turtles land
#   2. brackets: each arrival closes brackets on two pieces (points 4-6)
#   3. removal: captured pieces and eggs leave at once (points 6-7)
#   4. dissolving: each black-white pair of captures dissolves the oldest egg (8)
#   5. hatching: the rest hatch for the player with more, wave by wave (8)
#   6. fives: the winning turtles (point 10)
#   7. status: the winner, sudden death, a full board or the last turn (10-12)
# and, for the players, what one more move would do (wts_winning_moves,
# wts_capturing_moves).


cdef void wts_resolve_turn(wts_state *state, int black_move, int white_move,
                           wts_turn_record *record) noexcept nogil:
    """Play one turn of two legal moves; fills ``record`` unless it is NULL."""
    _resolve_turn(state, black_move, white_move, record, True)


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
        _place_turtles(state, wts_square_bit(black_move), wts_square_bit(white_move))
        captured.lo = captured.hi = 0
        # Points 5-6: both placed turtles are on the board before either looks for brackets.
        black_captures = _find_brackets_of_one(wts_square_bit(black_move), state.black,
                                               wts_trappable(state.white, state.eggs),
                                               WTS_BLACK, 0, &captured, record)
        white_captures = _find_brackets_of_one(wts_square_bit(white_move), state.white,
                                               wts_trappable(state.black, state.eggs),
                                               WTS_WHITE, 0, &captured, record)
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


# ---- 0. legal squares ----------------------------------------------------


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


# ---- 1. placement --------------------------------------------------------


cdef inline void _lay_egg(wts_state *state, int square, bint keyed) noexcept nogil:
    """Point 9: a collision lays the newest egg."""
    state.eggs = wts_or(state.eggs, wts_square_board(square))
    state.egg_queue[state.egg_count] = <uint8_t>square
    if keyed:
        state.key ^= EGG_KEYS[state.egg_count][square]
    state.egg_count += 1


cdef inline void _place_turtles(wts_state *state, int black_bit, int white_bit) noexcept nogil:
    """Point 5: both turtles land (on two different empty squares), before
    either looks for brackets."""
    state.black = wts_or(state.black, wts_bit_board(black_bit))
    state.white = wts_or(state.white, wts_bit_board(white_bit))


cdef inline wts_board _turtles(const wts_state *state, int color) noexcept nogil:
    return state.black if color == WTS_BLACK else state.white


# ---- 2. brackets ---------------------------------------------------------


cdef inline wts_board _closers_up(
        wts_board arrivals, wts_board pairs, wts_board own, int k) noexcept nogil:
    """Arrivals that close a bracket toward higher bits (``pairs``: wts_pairs of the foe)."""
    return wts_and(arrivals, wts_bracket_up(pairs, own, k))


cdef inline wts_board _closers_down(
        wts_board arrivals, wts_board pairs, wts_board own, int k) noexcept nogil:
    """The mirror image toward lower bits. Point 6: a bracket with an arrival at
    both ends counts once, from its lower end, which finds it going up."""
    return wts_andnot(wts_and(arrivals, wts_bracket_down(pairs, own, k)),
                      wts_shl(arrivals, 3 * k))


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
        if wts_bracket_beyond(foe, own, bit, step):
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
    (points 4-6). Adds the trapped squares to ``captured`` and
    returns the number of captures; records them in the order of point 14."""
    cdef wts_board own = _turtles(state, color)
    cdef wts_board foe = wts_trappable(_turtles(state, 1 - color), state.eggs)
    cdef wts_board closers[WTS_NUM_DIRECTIONS]
    cdef wts_board all_closers, c, pairs
    cdef int d, k, bit, count = 0
    if not wts_any(wts_clear_lowest(arrivals)):
        return _find_brackets_of_one(wts_lowest_bit(arrivals), own, foe, color, round_,
                                     captured, record)
    # Several arrivals (a wave of hatches): every direction for all of them at
    # once, by constant shifts, in the direction order of point 14.
    pairs = wts_pairs(foe, 1)
    closers[0] = _closers_up(arrivals, pairs, own, 1)
    closers[1] = _closers_down(arrivals, pairs, own, 1)
    pairs = wts_pairs(foe, 10)
    closers[2] = _closers_up(arrivals, pairs, own, 10)
    closers[3] = _closers_down(arrivals, pairs, own, 10)
    pairs = wts_pairs(foe, 11)
    closers[4] = _closers_up(arrivals, pairs, own, 11)
    closers[5] = _closers_down(arrivals, pairs, own, 11)
    pairs = wts_pairs(foe, 9)
    closers[6] = _closers_up(arrivals, pairs, own, 9)
    closers[7] = _closers_down(arrivals, pairs, own, 9)
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


# ---- 3-5. removal, dissolving and hatching: the egg queue ------------------


cdef inline void _remove_captured(wts_state *state, wts_board captured,
                                  bint keyed) noexcept nogil:
    """Captured pieces leave at once; captured eggs leave the queue before any
    egg dissolves or hatches (points 6-7)."""
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


# ---- 6. fives --------------------------------------------------------------


cdef inline wts_board _winning_turtles(wts_board turtles) noexcept nogil:
    # The starts of all four directions, then one test: nearly every turn has
    # no five, and a branch per direction mispredicts more than it saves.
    cdef wts_board row = wts_run_starts(turtles, 1), column = wts_run_starts(turtles, 10)
    cdef wts_board rising = wts_run_starts(turtles, 11), falling = wts_run_starts(turtles, 9)
    cdef wts_board starts = wts_or(wts_or(row, column), wts_or(rising, falling))
    if not wts_any(starts):
        return starts
    return wts_or(wts_or(wts_run_cells(row, 1), wts_run_cells(column, 10)),
                  wts_or(wts_run_cells(rising, 11), wts_run_cells(falling, 9)))


cdef inline int _count_winning(wts_board turtles) noexcept nogil:
    return wts_popcount(_winning_turtles(turtles))


cdef int wts_count_winning(wts_board turtles) noexcept nogil:
    """Distinct turtles in a line of five or more (point 10)."""
    return _count_winning(turtles)


cdef wts_board wts_winning_turtles(wts_board turtles) noexcept nogil:
    """The turtles of ``turtles`` in a line of five or more (point 10)."""
    return _winning_turtles(turtles)


# ---- 7. status -----------------------------------------------------------


cdef void _settle(wts_state *state) noexcept nogil:
    """Winning counts and the status read off the board (points 10-12);
    a game at the last turn number is drawn (a wts ruling)."""
    cdef int black = 0, white = 0
    if wts_any_run_of_both(state.black, state.white):
        black = _count_winning(state.black)
        white = _count_winning(state.white)
    cdef wts_board occupied = wts_or(wts_or(state.black, state.white), state.eggs)
    state.black_count = <uint8_t>black
    state.white_count = <uint8_t>white
    if black > white:
        state.status = WTS_BLACK_WINS
    elif white > black:
        state.status = WTS_WHITE_WINS
    elif wts_ends_drawn(occupied, state.turn):
        state.status = WTS_DRAW
    elif black > 0:
        state.status = WTS_SUDDEN_DEATH
    else:
        state.status = WTS_ONGOING


cdef void wts_settle(wts_state *state) noexcept nogil:
    """A position written by hand: its status and its key."""
    _settle(state)
    state.key = wts_compute_key(state)


# ---- What one more move would do, for the players --------------------------


cdef inline wts_board _winning_moves(wts_board turtles, wts_board empty) noexcept nogil:
    cdef wts_board none
    if wts_popcount(turtles) < 4:
        none.lo = none.hi = 0
        return none
    return wts_and(wts_line_gaps(turtles), empty)


cdef inline void _winning_moves_of_both(wts_board black, wts_board white, wts_board empty,
                                        wts_board *black_wins,
                                        wts_board *white_wins) noexcept nogil:
    """_winning_moves of both players, computed together."""
    if wts_popcount(black) < 4 and wts_popcount(white) < 4:
        black_wins.lo = black_wins.hi = white_wins.lo = white_wins.hi = 0
        return
    wts_line_gaps_of_both(black, white, black_wins, white_wins)
    black_wins[0] = wts_and(black_wins[0], empty)
    white_wins[0] = wts_and(white_wins[0], empty)


cdef wts_board wts_winning_moves(wts_board turtles, wts_board empty) noexcept nogil:
    """Squares of ``empty`` where one more of ``turtles`` completes a line of five
    (point 10), captures ignored. The shifts are constants, one call a
    direction, so that each folds into a couple of instructions."""
    return _winning_moves(turtles, empty)


cdef inline wts_board _capturing_along(wts_board own, wts_board trapped, int k) noexcept nogil:
    cdef wts_board pairs = wts_pairs(trapped, k)
    return wts_or(wts_bracket_up(pairs, own, k), wts_bracket_down(pairs, own, k))


cdef inline wts_board _capturing_moves(const wts_state *state, int color) noexcept nogil:
    cdef wts_board own = _turtles(state, color)
    cdef wts_board trapped = wts_trappable(_turtles(state, 1 - color), state.eggs)
    return wts_and(wts_or(wts_or(_capturing_along(own, trapped, 1),
                                 _capturing_along(own, trapped, 10)),
                          wts_or(_capturing_along(own, trapped, 11),
                                 _capturing_along(own, trapped, 9))),
                   wts_empty_squares(state))


cdef wts_board wts_capturing_moves(const wts_state *state, int color) noexcept nogil:
    """The empty squares where a turtle of ``color`` would close a bracket on two
    pieces it traps (points 4-5)."""
    return _capturing_moves(state, color)
