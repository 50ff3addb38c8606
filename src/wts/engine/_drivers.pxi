# The drivers: many turns at a time, for BatchGame.step (given moves) and for
# random playouts (simulate, the search's playouts). Included by _core.pyx;
# the engine's own modules reach them through the capsule DRIVERS
# (_drivers.pxd), not through the public C API.
# They decide no rule: a turn is played by _resolve_turn (_rules.pxi), or in
# SIMD lanes where wts_lanes.h proves it simple, with what the lanes leave
# (a capture's pieces, a collision's egg) finished here by the rules' own
# helpers. One lane driver, _drive_lanes, serves both jobs.

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


# ---- Turns of given moves: BatchGame.step ---------------------------------


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
    cdef _GivenMoves job
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
        job.states = states
        job.statuses = statuses
        job.black_moves = black_moves
        job.white_moves = white_moves
        job.live = live
        job.n_live = n_live
        job.captures = captures
        job.hatches = hatches
        job.next = 0
        _drive_lanes(&job)
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


cdef inline wts_board _captured_without_eggs(int black_bit, int white_bit, wts_board black,
                                             wts_board white, int32_t *counts) noexcept nogil:
    """The pieces a turn's brackets capture in a game with no egg, both
    turtles placed (points 5-6), and each colour's brackets in ``counts``;
    with no egg, nothing dissolves or hatches (point 8)."""
    cdef wts_board captured, no_eggs
    captured.lo = captured.hi = no_eggs.lo = no_eggs.hi = 0
    counts[0] = _find_brackets_of_one(black_bit, black, wts_trappable(white, no_eggs),
                                      WTS_BLACK, 0, &captured, NULL)
    counts[1] = _find_brackets_of_one(white_bit, white, wts_trappable(black, no_eggs),
                                      WTS_WHITE, 0, &captured, NULL)
    return captured


# ---- Random turns and playouts: simulate and the search ---------------------


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


cdef inline int _tactical_move(wts_board own_wins, wts_board foe_wins, wts_board free,
                               wts_rng *rng) noexcept nogil:
    """A five of its own if it has one, else a block of the opponent's, else a
    square of ``free``: uniformly among them, from one generator output."""
    cdef wts_board squares = free
    if wts_any(own_wins):
        squares = own_wins
    elif wts_any(foe_wins):
        squares = foe_wins
    return _random_square(squares, <uint32_t>wts_popcount(squares),
                          <uint32_t>(wts_rng_next(rng) >> 32), rng)


cdef void wts_tactical_playout(wts_state *state, wts_rng *rng, bint captures,
                               uint32_t max_turns) noexcept nogil:
    """The search's tactical playout: here, so that every build of the core
    has one with its rules inlined and no key kept turn by turn."""
    cdef wts_board empty, black_wins, white_wins, black_free, white_free
    cdef int black, white
    cdef uint64_t stop = <uint64_t>state.turn + max_turns  # no wrap near WTS_MAX_TURN
    while not wts_is_over(state) and state.turn < stop:
        empty = wts_empty_squares(state)
        _winning_moves_of_both(state.black, state.white, empty, &black_wins, &white_wins)
        black_free = white_free = empty
        if captures:
            black_free = _capturing_moves(state, WTS_BLACK)
            white_free = _capturing_moves(state, WTS_WHITE)
            if not wts_any(black_free):
                black_free = empty
            if not wts_any(white_free):
                white_free = empty
        black = _tactical_move(black_wins, white_wins, black_free, rng)
        white = _tactical_move(white_wins, black_wins, white_free, rng)
        _resolve_turn(state, black, white, NULL, False)
    state.key = wts_compute_key(state)


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
    cdef _Playouts job
    if WTS_LANES_SIMD:
        job.start = start
        job.seed = seed
        job.first = first
        job.stop = stop
        job.lengths = lengths
        job.ends = statuses
        job.next = first
        _drive_lanes(&job)
        return
    for game in range(first, stop):
        wts_copy(&state, start)
        wts_game_rng(&rng, seed, game)
        wts_playout(&state, &rng)
        lengths[game - first] = <int32_t>(state.turn - start.turn)
        statuses[game - first] = state.status


# ---- The lanes: one driver for turns of given moves and for playouts -------


# What the lanes play: one turn of given moves in each game ``live`` lists
# (wts_resolve_turns), or every turn of the games ``first``..``stop-1`` of a
# run of random games (wts_playout_range). The driver is written once over
# the fused type _LaneJob: Cython makes one function for each kind of job,
# with the other kind's branches removed.
ctypedef struct _GivenMoves:
    wts_state *states
    uint8_t *statuses
    const int64_t *black_moves
    const int64_t *white_moves
    const Py_ssize_t *live      # ~i for game i if its turn may end the game
    Py_ssize_t n_live
    int32_t *captures
    int32_t *hatches
    Py_ssize_t next             # the next game: an index into ``live``

ctypedef struct _Playouts:
    const wts_state *start
    uint64_t seed
    uint64_t first
    uint64_t stop
    int32_t *lengths
    uint8_t *ends               # each game's final status
    uint64_t next               # the next game's number

ctypedef fused _LaneJob:
    _GivenMoves
    _Playouts


cdef void _drive_lanes(_LaneJob *job) noexcept nogil:
    """Plays ``job`` WTS_LANES games at a time. Each step the lanes place both
    moves of every lane (drawn from the lane's own generator in a playout)
    and prove which turns are simple (wts_lanes.h); what a simple turn leaves
    is finished here by the rules' helpers (a capture's pieces leave, a
    collision's egg joins the queue), and every other turn is played by the
    rules (_rules.pxi) on the lane's game. A lane takes the next game once
    its own is done (after its one turn of given moves, at the end of a
    playout) and idles when none is left. In a playout a lane's state is
    brought up to date only for a turn played by the rules: its status and
    key may lag until then."""
    cdef wts_lanes lanes
    cdef wts_state own[WTS_LANES]        # a playout's games
    cdef wts_state *games[WTS_LANES]     # the game each lane plays
    cdef uint64_t numbers[WTS_LANES]     # given: the game's index; playouts: its number
    cdef uint32_t active = 0, pinned = 0, scalar, laid, captured, done
    cdef wts_rng rng
    cdef wts_state *state
    cdef int lane
    for lane in range(WTS_LANES):
        if _lane_fill(job, &lanes, lane, own, games, numbers, &pinned):
            active |= 1u << lane
    while active:
        if _LaneJob is _GivenMoves:
            scalar = wts_lanes_place(&lanes, pinned | ~active, &laid, &captured) & active
        else:
            scalar = wts_lanes_step(&lanes, &laid, &captured) & active
        laid &= active
        captured &= active
        # Given moves: every lane's game is done after one turn; a playout's
        # only when a turn played by the rules ends it.
        if _LaneJob is _GivenMoves:
            done = active
        else:
            _playout_leftovers(&lanes, games, laid, captured)
            done = scalar
        while done:
            lane = wts_ctz64(done)
            done &= done - 1
            state = games[lane]
            if _LaneJob is _GivenMoves:
                if (scalar >> lane) & 1u:
                    _resolve_counted(state, <int>job.black_moves[numbers[lane]],
                                     <int>job.white_moves[numbers[lane]],
                                     &job.captures[2 * numbers[lane]],
                                     &job.hatches[numbers[lane]])
                    job.statuses[numbers[lane]] = state.status
                else:
                    _lane_settle(&lanes, lane, state, (laid >> lane) & 1u,
                                 (captured >> lane) & 1u, &job.captures[2 * numbers[lane]])
            else:
                wts_lanes_get(&lanes, lane, &state.black, &state.white, &state.eggs,
                              &state.turn, &rng)
                _random_turns(state, &rng, wts_lanes_draw(&lanes, lane), False)
                if not wts_is_over(state):
                    wts_lanes_put(&lanes, lane, state.black, state.white, state.eggs,
                                  state.turn, &rng)
                    continue
                job.lengths[numbers[lane] - job.first] = <int32_t>(state.turn - job.start.turn)
                job.ends[numbers[lane] - job.first] = state.status
            if not _lane_fill(job, &lanes, lane, own, games, numbers, &pinned):
                active &= ~(1u << lane)


cdef inline void _playout_leftovers(wts_lanes *lanes, wts_state **games, uint32_t laid,
                                    uint32_t captured) noexcept nogil:
    """What the lanes leave of a playout's simple turns, in the lanes' boards
    and the games' queues: the pieces a capture takes in a game with no egg,
    a collision's egg."""
    cdef wts_board black, white, taken, none
    cdef int32_t counts[2]
    cdef int lane
    none.lo = none.hi = 0
    while captured:
        lane = wts_ctz64(captured)
        captured &= captured - 1
        wts_lanes_turtles(lanes, lane, &black, &white)
        taken = _captured_without_eggs(wts_lanes_black_bit(lanes, lane),
                                       wts_lanes_white_bit(lanes, lane), black, white, counts)
        wts_lanes_put_boards(lanes, lane, wts_andnot(black, taken), wts_andnot(white, taken),
                             none)
    while laid:
        lane = wts_ctz64(laid)
        laid &= laid - 1
        _lay_egg(games[lane], wts_bit_square(wts_lanes_black_bit(lanes, lane)), False)


cdef inline void _lane_settle(const wts_lanes *lanes, int lane, wts_state *state, bint laid,
                              bint captured, int32_t *counts) noexcept nogil:
    """A simple turn of given moves, played on its game as _resolve_turn would
    play it: a collision's egg, or both turtles and their keys, and the pieces
    their brackets take in a game with no egg (their counts in ``counts``).
    The winning counts stay 0 and the status ongoing, as they were: a game
    with a five on the board never passes the lanes' test."""
    cdef int black_bit = wts_lanes_black_bit(lanes, lane)
    cdef int white_bit = wts_lanes_white_bit(lanes, lane)
    cdef wts_board taken
    state.turn += 1
    if laid:
        _lay_egg(state, wts_bit_square(black_bit), True)
        return
    _place_turtles(state, black_bit, white_bit)
    state.key ^= TURTLE_KEYS[WTS_BLACK][black_bit] ^ TURTLE_KEYS[WTS_WHITE][white_bit]
    if captured:
        taken = _captured_without_eggs(black_bit, white_bit, state.black, state.white, counts)
        state.key ^= (_turtle_keys(wts_and(state.black, taken), WTS_BLACK)
                      ^ _turtle_keys(wts_and(state.white, taken), WTS_WHITE))
        _remove_captured(state, taken, True)


cdef inline bint _lane_fill(_LaneJob *job, wts_lanes *lanes, int lane,
                            wts_state *own, wts_state **games, uint64_t *numbers,
                            uint32_t *pinned) noexcept nogil:
    """Put the job's next game into ``lane``, False if none is left (the lane
    then holds the empty board, so its steps, which nobody reads, stay legal)."""
    if _LaneJob is _GivenMoves:
        return _given_fill(job, lanes, lane, games, numbers, pinned)
    else:
        return _playout_fill(job, lanes, lane, own, games, numbers)


cdef inline bint _given_fill(_GivenMoves *job, wts_lanes *lanes, int lane, wts_state **games,
                             uint64_t *numbers, uint32_t *pinned) noexcept nogil:
    """The game and its moves, the lane pinned to the rules' turn if the turn
    may end the game."""
    cdef wts_board none
    cdef Py_ssize_t i
    pinned[0] &= ~(1u << lane)
    if job.next == job.n_live:
        none.lo = none.hi = 0
        wts_lanes_put_moves(lanes, lane, none, none, none, 0, 0)
        return False
    i = job.live[job.next]
    job.next += 1
    if i < 0:
        i = ~i
        pinned[0] |= 1u << lane
    numbers[lane] = <uint64_t>i
    games[lane] = &job.states[i]
    wts_lanes_put_moves(lanes, lane, job.states[i].black, job.states[i].white,
                        job.states[i].eggs, wts_square_bit(<int>job.black_moves[i]),
                        wts_square_bit(<int>job.white_moves[i]))
    return True


cdef bint _playout_fill(_Playouts *job, wts_lanes *lanes, int lane, wts_state *own,
                        wts_state **games, uint64_t *numbers) noexcept nogil:
    """A copy of the start on the game's own generator; a start already over
    ends every game at once."""
    cdef wts_rng rng
    cdef wts_board none
    none.lo = none.hi = 0
    if wts_is_over(job.start):
        while job.next < job.stop:
            job.lengths[job.next - job.first] = 0
            job.ends[job.next - job.first] = job.start.status
            job.next += 1
    if job.next == job.stop:
        wts_game_rng(&rng, 0, 0)
        wts_lanes_put(lanes, lane, none, none, none, 0, &rng)
        return False
    numbers[lane] = job.next
    job.next += 1
    games[lane] = &own[lane]
    wts_copy(&own[lane], job.start)
    wts_game_rng(&rng, job.seed, numbers[lane])
    wts_lanes_put(lanes, lane, own[lane].black, own[lane].white, own[lane].eggs,
                  own[lane].turn, &rng)
    return True


cdef wts_drivers _DRIVERS
_DRIVERS.resolve_turns = wts_resolve_turns
_DRIVERS.playout_range = wts_playout_range
DRIVERS = PyCapsule_New(&_DRIVERS, "wts.engine._core.DRIVERS", NULL)
