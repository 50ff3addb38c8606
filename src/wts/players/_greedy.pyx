"""The greedy player's one-turn evaluation in C, for :class:`wts.agents.GreedyAgent`.

It reads the position through the core's own rules: the lines of five
(``wts_five``), the squares that complete one (``wts_winning_moves``) and the
squares that capture (``wts_capturing_moves``).
"""

from wts.engine._bits cimport (
    wts_and, wts_any, wts_board, wts_or, wts_popcount, wts_rng, wts_rng_seed, wts_square_board,
)
from wts.engine._core cimport (
    WTS_BLACK, WTS_BLACK_WINS, WTS_DRAW, WTS_NUM_FIVES, WTS_NUM_SQUARES, wts_capturing_moves,
    wts_copy, wts_empty_squares, wts_five, wts_is_over, wts_resolve_turn, wts_state,
    wts_winning_moves,
)
from wts.engine._game cimport GameCore
from wts.players._sampling cimport random_square, uniform

from wts.params import check_int, check_seed

# Worth of a window of five cells holding k turtles of one colour and nothing else.
cdef double LINE_WORTH[6]
LINE_WORTH[:] = [0.0, 1.0, 4.0, 16.0, 64.0, 0.0]


cdef double line_worth(wts_board own, wts_board blockers) noexcept nogil:
    """Sum over the windows of five cells free of ``blockers`` of the worth of
    the ``own`` turtles they hold."""
    cdef double total = 0.0
    cdef wts_board five
    cdef int i
    for i in range(WTS_NUM_FIVES):
        five = wts_five(i)
        if not wts_any(wts_and(five, blockers)):
            total += LINE_WORTH[wts_popcount(wts_and(five, own))]
    return total


cdef double evaluate(const wts_state *s, int color) noexcept nogil:
    """A position's worth for ``color`` after a turn: the result if the game is
    over, else material, immediate threats of five, and line potential."""
    cdef wts_board own = s.black if color == WTS_BLACK else s.white
    cdef wts_board foe = s.white if color == WTS_BLACK else s.black
    cdef wts_board empty
    cdef int own_wins, foe_wins
    cdef double value
    if wts_is_over(s):
        if s.status == WTS_DRAW:
            return 0.0
        return 1e6 if (s.status == WTS_BLACK_WINS) == (color == WTS_BLACK) else -1e6
    empty = wts_empty_squares(s)
    own_wins = wts_popcount(wts_winning_moves(own, empty))
    foe_wins = wts_popcount(wts_winning_moves(foe, empty))
    value = 40.0 * (wts_popcount(own) - wts_popcount(foe))
    # One threat of five can be blocked (a collision lays an egg on it); two cannot.
    value += 400.0 if own_wins >= 2 else 80.0 * own_wins
    value -= 1000.0 if foe_wins >= 2 else 150.0 * foe_wins
    value += line_worth(own, wts_or(foe, s.eggs)) - line_worth(foe, wts_or(own, s.eggs))
    return value


def greedy_move(GameCore game not None, color, seed):
    """The greedy player's square for ``color`` (0 black, 1 white).

    Every legal square is scored by the position after the turn (``evaluate``)
    averaged over the opponent's likely replies, weighted: a square that wins
    for them (4), one that blocks a five of ours (3), one where they capture
    (2), one that blocks a capture of ours (1), their two best line-building
    squares (1 each) and one random square (1). Ties break at random from
    ``seed``. Returns -1 when the game is over.
    """
    cdef wts_state position
    cdef const wts_state *s = &position
    cdef wts_rng rng
    cdef wts_board empty, own, foe, foe_wins, own_wins, foe_captures, own_captures, foe_with
    cdef wts_state after
    cdef int replies[WTS_NUM_SQUARES]
    cdef double weights[WTS_NUM_SQUARES]
    cdef double reply_weight[WTS_NUM_SQUARES]
    cdef double best_value, value, total_weight, gain, first_gain, second_gain, base
    cdef int n_replies = 0, square, reply, best = -1, i, first, second
    cdef int black_move, white_move
    cdef int side = check_int(color, "color (0 black, 1 white)", 0, 1)
    wts_rng_seed(&rng, check_seed(seed))
    game.snapshot(&position)
    if wts_is_over(s):
        return -1
    with nogil:
        empty = wts_empty_squares(s)
        own = s.black if side == WTS_BLACK else s.white
        foe = s.white if side == WTS_BLACK else s.black
        foe_wins = wts_winning_moves(foe, empty)
        own_wins = wts_winning_moves(own, empty)
        foe_captures = wts_capturing_moves(s, 1 - side)
        own_captures = wts_capturing_moves(s, side)
        for square in range(WTS_NUM_SQUARES):
            reply_weight[square] = 0.0
            if not (wts_any(wts_and(empty, wts_square_board(square)))):
                continue
            if wts_any(wts_and(foe_wins, wts_square_board(square))):
                reply_weight[square] += 4.0
            if wts_any(wts_and(own_wins, wts_square_board(square))):
                reply_weight[square] += 3.0
            if wts_any(wts_and(foe_captures, wts_square_board(square))):
                reply_weight[square] += 2.0
            if wts_any(wts_and(own_captures, wts_square_board(square))):
                reply_weight[square] += 1.0
        # The opponent's two best line-building squares, judged by line worth alone.
        base = line_worth(foe, wts_or(own, s.eggs))
        first = second = -1
        first_gain = second_gain = -1e300
        for square in range(WTS_NUM_SQUARES):
            if not wts_any(wts_and(empty, wts_square_board(square))):
                continue
            foe_with = wts_or(foe, wts_square_board(square))
            gain = (line_worth(foe_with, wts_or(own, s.eggs)) - base
                    + 1e-6 * uniform(&rng))
            if gain > first_gain:
                second = first
                second_gain = first_gain
                first = square
                first_gain = gain
            elif gain > second_gain:
                second = square
                second_gain = gain
        if first >= 0:
            reply_weight[first] += 1.0
        if second >= 0:
            reply_weight[second] += 1.0
        reply_weight[random_square(empty, &rng)] += 1.0
        total_weight = 0.0
        for square in range(WTS_NUM_SQUARES):
            if reply_weight[square] > 0.0:
                replies[n_replies] = square
                weights[n_replies] = reply_weight[square]
                total_weight += reply_weight[square]
                n_replies += 1
        best_value = -1e300
        for square in range(WTS_NUM_SQUARES):
            if not wts_any(wts_and(empty, wts_square_board(square))):
                continue
            value = 0.0
            for i in range(n_replies):
                reply = replies[i]
                wts_copy(&after, s)
                if side == WTS_BLACK:
                    black_move, white_move = square, reply
                else:
                    black_move, white_move = reply, square
                wts_resolve_turn(&after, black_move, white_move, NULL)
                value += weights[i] * evaluate(&after, side)
            value = value / total_weight + 1e-3 * uniform(&rng)
            if value > best_value:
                best_value = value
                best = square
    return best


def evaluate_position(GameCore game not None, color):
    """``evaluate`` of the greedy player: the worth of ``game`` for ``color``."""
    cdef wts_state position
    cdef int side = check_int(color, "color (0 black, 1 white)", 0, 1)
    game.snapshot(&position)
    return evaluate(&position, side)


def winning_squares(GameCore game not None, color):
    """Empty squares where one more turtle of ``color`` makes five in a row
    (captures ignored), ascending."""
    cdef wts_state position
    cdef int side = check_int(color, "color (0 black, 1 white)", 0, 1)
    game.snapshot(&position)
    cdef wts_board wins = wts_winning_moves(
        position.black if side == WTS_BLACK else position.white, wts_empty_squares(&position))
    return [sq for sq in range(WTS_NUM_SQUARES) if wts_any(wts_and(wins, wts_square_board(sq)))]
