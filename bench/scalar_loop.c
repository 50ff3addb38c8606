/* A plain scalar C loop of random What the Shell games: the yardstick
 * bench/scalar_loop.py builds with the machine's C compiler for the host CPU
 * (-O3 -march=native) and times beside `wts.simulate`.
 *
 * It is self-contained on purpose: it shares no code with the engine, so its
 * speed says what a direct C kernel of the same rules and the same uniformly
 * random players does on this machine; only the engine's status codes and
 * last turn number (wts_status.h). bench/test_scalar_loop.py replays its
 * games on the engine, so both play the same game.
 *
 * Board: square (file f, rank r) at bit 10r + f of two 64-bit words; bit 9 of
 * every row and bits 90 and up stay zero, so lines are shifts by 1, 9, 10 and
 * 11 that never wrap. */

#include <stdint.h>
#include <string.h>

#include "wts_status.h"

/* GCC and Clang (the builtins below): scalar_loop.py looks for no other. */
#define EXPORT __attribute__((visibility("default")))

#if defined(__BMI2__)
#include <immintrin.h>
#endif

typedef struct { uint64_t lo, hi; } board;

#define VALID_LO 0xF7FDFF7FDFF7FDFFULL
#define VALID_HI 0x0000000001FF7FDFULL

static inline board mk(uint64_t lo, uint64_t hi) { board b = {lo, hi}; return b; }
static inline board b_and(board a, board b) { return mk(a.lo & b.lo, a.hi & b.hi); }
static inline board b_or(board a, board b) { return mk(a.lo | b.lo, a.hi | b.hi); }
static inline board b_andnot(board a, board b) { return mk(a.lo & ~b.lo, a.hi & ~b.hi); }
static inline int b_any(board a) { return (a.lo | a.hi) != 0; }
/* 0 < k < 64 everywhere below. */
static inline board shl(board a, int k) { return mk(a.lo << k, (a.hi << k) | (a.lo >> (64 - k))); }
static inline board shr(board a, int k) { return mk((a.lo >> k) | (a.hi << (64 - k)), a.hi >> k); }
static inline int popcount(board a) {
    return __builtin_popcountll(a.lo) + __builtin_popcountll(a.hi);
}
static inline board bit_board(int bit) {
    return bit < 64 ? mk(1ULL << bit, 0) : mk(0, 1ULL << (bit - 64));
}
static inline int test_bit(board a, int bit) {
    return bit < 64 ? (int)((a.lo >> bit) & 1) : (int)((a.hi >> (bit - 64)) & 1);
}

/* The k-th set bit of a word (k below its popcount). */
static inline int select64(uint64_t x, int k) {
#if defined(__BMI2__)
    return __builtin_ctzll(_pdep_u64(1ULL << k, x));
#else
    while (k--) x &= x - 1;
    return __builtin_ctzll(x);
#endif
}

static inline int select_bit(board a, int k) {
    int low = __builtin_popcountll(a.lo);
    return k < low ? select64(a.lo, k) : 64 + select64(a.hi, k - low);
}

/* xoshiro256** seeded by splitmix64; a uniform index by Lemire's method. */
typedef struct { uint64_t s[4]; } rng;

static inline uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next(rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline uint32_t below(rng *r, uint32_t n) {
    uint64_t m = (uint64_t)(uint32_t)(next(r) >> 32) * n;
    if ((uint32_t)m < n) {
        uint32_t threshold = (0u - n) % n;
        while ((uint32_t)m < threshold) m = (uint64_t)(uint32_t)(next(r) >> 32) * n;
    }
    return (uint32_t)(m >> 32);
}

/* ---- the game ----------------------------------------------------------- */


/* ring3[bit]: the squares three steps away in each of the 8 directions, where
 * the far end of a bracket closed on that square would stand. star[bit]: the
 * squares up to four steps away in the 8 directions, and the square itself.
 * Each call into the loop builds them on its stack, so calls on several
 * threads share nothing. */
typedef struct { board ring3[90], star[90]; } tables;

static void init_tables(tables *t) {
    static const int steps[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                    {1, 1}, {-1, -1}, {-1, 1}, {1, -1}};
    int bit, d;
    for (bit = 0; bit < 90; bit++) {
        int f = bit % 10, r = bit / 10;
        t->ring3[bit] = t->star[bit] = mk(0, 0);
        if (f > 8) continue;
        t->star[bit] = bit_board(bit);
        for (d = 0; d < 8; d++) {
            int n;
            for (n = 1; n <= 4; n++) {
                int ef = f + n * steps[d][0], er = r + n * steps[d][1];
                if (ef < 0 || ef > 8 || er < 0 || er > 8) break;
                t->star[bit] = b_or(t->star[bit], bit_board(10 * er + ef));
                if (n == 3) t->ring3[bit] = b_or(t->ring3[bit], bit_board(10 * er + ef));
            }
        }
    }
}

typedef struct {
    board turtles[2];       /* black, white */
    board eggs;
    int8_t queue[81];       /* egg bits, oldest first */
    int n_eggs;
    uint32_t turn;          /* turns played */
    int winning[2];         /* winning turtles of each colour after the last turn */
    const tables *t;
} game;

static const int SHIFTS[4] = {1, 9, 10, 11};

/* The turtles of a colour in a line of five or more, counted once each. */
static int count_winning(board t) {
    board starts[4];
    int d, any = 0;
    for (d = 0; d < 4; d++) {
        int k = SHIFTS[d];
        board pairs = b_and(t, shr(t, k));
        starts[d] = b_and(b_and(pairs, shr(pairs, 2 * k)), shr(t, 4 * k));
        any |= b_any(starts[d]);
    }
    if (!any) return 0;
    board cells = mk(0, 0);
    for (d = 0; d < 4; d++) {
        int k = SHIFTS[d];
        board s = starts[d];
        board pairs = b_or(s, shl(s, k));
        cells = b_or(cells, b_or(b_or(pairs, shl(pairs, 2 * k)), shl(s, 4 * k)));
    }
    return popcount(cells);
}

/* Brackets closed by the arrivals of one colour, on the board as it stands:
 * adds the captured pieces to *captured and returns how many brackets. A
 * bracket whose two ends both arrived is counted in the + direction only. */
static int brackets(const game *g, int colour, board arrivals, board *captured) {
    board own = g->turtles[colour];
    board foe = b_or(g->turtles[1 - colour], g->eggs);
    int d, count = 0;
    for (d = 0; d < 4; d++) {
        int k = SHIFTS[d];
        board up = b_and(b_and(arrivals, shr(foe, k)), b_and(shr(foe, 2 * k), shr(own, 3 * k)));
        board down = b_and(b_and(arrivals, shl(foe, k)), b_and(shl(foe, 2 * k), shl(own, 3 * k)));
        down = b_andnot(down, shl(arrivals, 3 * k));
        if (b_any(up) | b_any(down)) {
            *captured = b_or(*captured, b_or(b_or(shl(up, k), shl(up, 2 * k)),
                                             b_or(shr(down, k), shr(down, 2 * k))));
            count += popcount(up) + popcount(down);
        }
    }
    return count;
}

static void remove_captured(game *g, board captured) {
    g->turtles[0] = b_andnot(g->turtles[0], captured);
    g->turtles[1] = b_andnot(g->turtles[1], captured);
    if (b_any(b_and(g->eggs, captured))) {
        int i, kept = 0;
        for (i = 0; i < g->n_eggs; i++) {
            if (!test_bit(captured, g->queue[i])) g->queue[kept++] = g->queue[i];
        }
        g->n_eggs = kept;
        g->eggs = b_andnot(g->eggs, captured);
    }
}

/* Takes the n oldest eggs off the board; returns their squares. */
static board take_oldest(game *g, int n) {
    board taken = mk(0, 0);
    int i;
    for (i = 0; i < n; i++) taken = b_or(taken, bit_board(g->queue[i]));
    memmove(g->queue, g->queue + n, (size_t)(g->n_eggs - n));
    g->n_eggs -= n;
    g->eggs = b_andnot(g->eggs, taken);
    return taken;
}

static inline int min_int(int a, int b) { return a < b ? a : b; }

/* The winning count of a colour after a turn in which one turtle of it was
 * placed on `bit` and none hatched: without a line of five before the turn,
 * a new one runs through `bit`, so too few turtles in its star mean none. */
static inline int count_after_placement(const game *g, int colour, int bit) {
    if (!g->winning[colour] && popcount(b_and(g->turtles[colour], g->t->star[bit])) < 5) return 0;
    return count_winning(g->turtles[colour]);
}

/* Points 11-12 and the last turn number's draw, from the counts of the turn. */
static int game_status(const game *g) {
    board occupied = b_or(b_or(g->turtles[0], g->turtles[1]), g->eggs);
    if (g->winning[0] != g->winning[1]) {
        return g->winning[0] > g->winning[1] ? WTS_BLACK_WINS : WTS_WHITE_WINS;
    }
    if ((occupied.lo == VALID_LO && occupied.hi == VALID_HI) || g->turn == WTS_MAX_TURN) {
        return WTS_DRAW;
    }
    return g->winning[0] ? WTS_SUDDEN_DEATH : WTS_ONGOING;
}

static int play_turn(game *g, int black_bit, int white_bit) {
    if (black_bit == white_bit) {
        /* No turtle moves: the counts stand. */
        g->eggs = b_or(g->eggs, bit_board(black_bit));
        g->queue[g->n_eggs++] = (int8_t)black_bit;
    } else {
        board b = bit_board(black_bit), w = bit_board(white_bit), captured = mk(0, 0);
        int cb, cw, hatched = 0;
        g->turtles[0] = b_or(g->turtles[0], b);
        g->turtles[1] = b_or(g->turtles[1], w);
        /* Most placements have no turtle of their colour three squares away. */
        cb = b_any(b_and(g->turtles[0], g->t->ring3[black_bit])) ? brackets(g, 0, b, &captured) : 0;
        cw = b_any(b_and(g->turtles[1], g->t->ring3[white_bit])) ? brackets(g, 1, w, &captured) : 0;
        if (cb | cw) {
            int dissolved, colour, hatching;
            remove_captured(g, captured);
            dissolved = min_int(min_int(cb, cw), g->n_eggs);
            take_oldest(g, dissolved);
            colour = cb > cw ? 0 : 1;
            hatching = min_int(cb > cw ? cb - cw : cw - cb, g->n_eggs);
            hatched = hatching > 0;
            while (hatching > 0) {
                board wave = take_oldest(g, hatching);
                g->turtles[colour] = b_or(g->turtles[colour], wave);
                captured = mk(0, 0);
                hatching = brackets(g, colour, wave, &captured);
                if (hatching) remove_captured(g, captured);
                hatching = min_int(hatching, g->n_eggs);
            }
        }
        if (hatched) {
            g->winning[0] = count_winning(g->turtles[0]);
            g->winning[1] = count_winning(g->turtles[1]);
        } else {
            g->winning[0] = count_after_placement(g, 0, black_bit);
            g->winning[1] = count_after_placement(g, 1, white_bit);
        }
    }
    g->turn++;
    return game_status(g);
}

static inline int random_empty(rng *r, board empty, int n) {
    return select_bit(empty, (int)below(r, (uint32_t)n));
}

/* Plays one game from the seed; writes both players' squares (public index,
 * rank * 9 + file) for up to `capacity` turns. Returns the turns played and
 * sets *status. */
static uint64_t play_game(const tables *t, uint64_t seed, int32_t *moves, uint64_t capacity,
                          int *status) {
    game g;
    rng r;
    uint64_t x = seed, turns = 0;
    int i, result = WTS_ONGOING;
    memset(&g, 0, sizeof g);
    g.t = t;
    for (i = 0; i < 4; i++) r.s[i] = splitmix64(&x);
    while (result == WTS_ONGOING || result == WTS_SUDDEN_DEATH) {
        board empty = b_andnot(mk(VALID_LO, VALID_HI),
                               b_or(b_or(g.turtles[0], g.turtles[1]), g.eggs));
        int n = popcount(empty);
        int black_bit = random_empty(&r, empty, n), white_bit = random_empty(&r, empty, n);
        if (turns < capacity) {
            moves[2 * turns] = black_bit - black_bit / 10;
            moves[2 * turns + 1] = white_bit - white_bit / 10;
        }
        result = play_turn(&g, black_bit, white_bit);
        turns++;
    }
    *status = result;
    return turns;
}

static uint64_t game_seed(uint64_t seed, uint64_t index) {
    uint64_t x = seed ^ (index * 0xD1B54A32D192ED03ULL);
    return splitmix64(&x);
}

/* Plays games first..first+count-1 of the run from `seed`; returns the turns
 * played. */
EXPORT uint64_t wts_scalar_loop_run(uint64_t first, uint64_t count, uint64_t seed) {
    uint64_t i, turns = 0;
    int result;
    tables t;
    init_tables(&t);
    for (i = first; i - first < count; i++) {
        turns += play_game(&t, game_seed(seed, i), NULL, 0, &result);
    }
    return turns;
}

/* Game `index` of the run from `seed`, with its moves (see play_game). */
EXPORT uint64_t wts_scalar_loop_game(uint64_t seed, uint64_t index, int32_t *moves,
                                     uint64_t capacity, int32_t *status) {
    int result;
    uint64_t turns;
    tables t;
    init_tables(&t);
    turns = play_game(&t, game_seed(seed, index), moves, capacity, &result);
    *status = result;
    return turns;
}

static inline int square_bit(int square) { return square + square / 9; }

/* Plays given moves from a set-up, for the tests: ``cells`` holds the 81
 * squares (0 empty, 1 black, 2 white, 3 egg) and ``eggs`` the egg squares,
 * oldest first, as scalar_loop.py checked them; each turn is two squares of
 * ``moves``. Stops when the game is over, and returns the turns played, or
 * -(k + 1) if turn k names a square that is not empty (the game then stands
 * as before that turn). Writes the position reached back into ``cells``,
 * ``eggs`` and *n_eggs, and its status into *result. */
EXPORT int32_t wts_scalar_loop_play(int8_t *cells, int8_t *eggs, int32_t *n_eggs,
                                    uint32_t turn, const int32_t *moves, int32_t n_turns,
                                    int32_t *result) {
    game g;
    tables t;
    int32_t k, played = 0;
    int i, state;
    init_tables(&t);
    memset(&g, 0, sizeof g);
    g.t = &t;
    g.turn = turn;
    for (i = 0; i < 81; i++) {
        if (cells[i] == 1) g.turtles[0] = b_or(g.turtles[0], bit_board(square_bit(i)));
        if (cells[i] == 2) g.turtles[1] = b_or(g.turtles[1], bit_board(square_bit(i)));
        if (cells[i] == 3) g.eggs = b_or(g.eggs, bit_board(square_bit(i)));
    }
    for (i = 0; i < *n_eggs; i++) g.queue[i] = (int8_t)square_bit(eggs[i]);
    g.n_eggs = *n_eggs;
    g.winning[0] = count_winning(g.turtles[0]);
    g.winning[1] = count_winning(g.turtles[1]);
    state = game_status(&g);
    for (k = 0; k < n_turns && (state == WTS_ONGOING || state == WTS_SUDDEN_DEATH); k++) {
        int black_bit = square_bit(moves[2 * k]), white_bit = square_bit(moves[2 * k + 1]);
        board occupied = b_or(b_or(g.turtles[0], g.turtles[1]), g.eggs);
        if (test_bit(occupied, black_bit) || test_bit(occupied, white_bit)) {
            played = -(k + 1);
            break;
        }
        state = play_turn(&g, black_bit, white_bit);
        played = k + 1;
    }
    for (i = 0; i < 81; i++) {
        int bit = square_bit(i);
        cells[i] = (int8_t)(test_bit(g.turtles[0], bit) ? 1 : test_bit(g.turtles[1], bit) ? 2
                            : test_bit(g.eggs, bit) ? 3 : 0);
    }
    for (i = 0; i < g.n_eggs; i++) eggs[i] = (int8_t)(g.queue[i] - g.queue[i] / 10);
    *n_eggs = g.n_eggs;
    *result = state;
    return played;
}
