/* The game's words the C side shares: a game's status codes and the last
 * turn number. No code: the core (wts_bits.h includes it; _core.pxd gives
 * it to Cython) and the yardstick bench/scalar_loop.c, which shares no code
 * with the engine, both read their numbering here; tests/test_vocabulary.py
 * holds it to wts.Status. */
#ifndef WTS_STATUS_H
#define WTS_STATUS_H

/* The last turn number: a game that reaches it is drawn (docs/rules.md,
 * "wts rulings"), so a turn count never wraps. */
#define WTS_MAX_TURN 0xFFFFFFFFu

/* A game's status, in the order of wts.Status. */
enum {
    WTS_ONGOING = 0,
    WTS_SUDDEN_DEATH = 1,
    WTS_BLACK_WINS = 2,
    WTS_WHITE_WINS = 3,
    WTS_DRAW = 4
};

#endif
