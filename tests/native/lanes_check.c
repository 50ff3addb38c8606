/* Drives wts_lanes.h over random positions and prints a digest of all it
 * wrote, for tests/test_lanes_builds.py: every build of the lanes (AVX2 on
 * x86-64, NEON on AArch64) must print the digest recorded there.
 *
 *     lanes_check SEED ROUNDS
 *
 * A round fills every lane with a random position (turtles, eggs, a turn
 * number, some at the last one, a generator state), steps the lanes four
 * times as simulate does, then loads random moves (some colliding) and
 * places them as BatchGame.step does. The digest covers every result mask and every field of
 * every lane after every call; the counts say the test reached each kind
 * of turn. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wts_lanes.h"

static uint64_t digest = 0xCBF29CE484222325ULL;  /* FNV-1a over 64-bit words */

static void mix(uint64_t word) {
    int i;
    for (i = 0; i < 8; i++) {
        digest ^= (word >> (8 * i)) & 0xFFu;
        digest *= 0x100000001B3ULL;
    }
}

static void mix_lanes(const wts_lanes *lanes) {
    int lane;
    for (lane = 0; lane < WTS_LANES; lane++) {
        mix(lanes->black_lo[lane]); mix(lanes->black_hi[lane]);
        mix(lanes->white_lo[lane]); mix(lanes->white_hi[lane]);
        mix(lanes->eggs_lo[lane]); mix(lanes->eggs_hi[lane]);
        mix(lanes->s0[lane]); mix(lanes->s1[lane]);
        mix(lanes->s2[lane]); mix(lanes->s3[lane]);
        mix(lanes->draw[lane]);
        mix(lanes->black_bit[lane]); mix(lanes->white_bit[lane]);
        mix(lanes->turn[lane]);
    }
}

/* A random position: each square empty, black, white or an egg, with a
 * crowding of its own so that some positions are nearly full. */
static void random_position(uint64_t *seed, wts_board *black, wts_board *white,
                            wts_board *eggs) {
    uint32_t crowding = (uint32_t)(wts_splitmix64(seed) % 100u);
    uint32_t egg_share = (uint32_t)(wts_splitmix64(seed) % 4u);  /* no egg a quarter of the time */
    int square;
    *black = *white = *eggs = wts_board_make(0, 0);
    for (square = 0; square < 81; square++) {
        uint64_t r = wts_splitmix64(seed);
        wts_board bit = wts_square_board(square);
        if (r % 100u >= crowding) continue;
        r >>= 8;
        if (r % 16u < egg_share) *eggs = wts_or(*eggs, bit);
        else if (r & 0x100u) *black = wts_or(*black, bit);
        else *white = wts_or(*white, bit);
    }
    /* A lane always has an empty square: a full board's game is over. */
    if (!wts_any(wts_andnot(wts_valid(), wts_or(wts_or(*black, *white), *eggs)))) {
        wts_board centre = wts_square_board(40);
        *black = wts_andnot(*black, centre);
        *white = wts_andnot(*white, centre);
        *eggs = wts_andnot(*eggs, centre);
    }
}

static uint32_t random_turn(uint64_t *seed) {
    uint64_t r = wts_splitmix64(seed);
    return r % 16u == 0 ? WTS_MAX_TURN - 1u - (uint32_t)(r >> 4) % 2u : (uint32_t)(r >> 8) % 200u;
}

/* A random empty padded bit of the position, or bit 0 when it is full. */
static int random_empty_bit(uint64_t *seed, wts_board black, wts_board white, wts_board eggs) {
    wts_board empty = wts_andnot(wts_valid(), wts_or(wts_or(black, white), eggs));
    int count = wts_popcount(empty);
    return count == 0 ? 0 : wts_select(empty, (int)(wts_splitmix64(seed) % (uint64_t)count));
}

int main(int argc, char **argv) {
    static const int STEPS = 4;
    uint64_t seed, counts[5] = {0, 0, 0, 0, 0};  /* lane-turns, scalar, simple, laid, captured */
    long rounds, round;
    wts_lanes lanes;
    if (argc != 3) {
        fprintf(stderr, "usage: lanes_check SEED ROUNDS\n");
        return 2;
    }
    seed = strtoull(argv[1], NULL, 10);
    rounds = strtol(argv[2], NULL, 10);
    memset(&lanes, 0, sizeof lanes);
    for (round = 0; round < rounds; round++) {
        uint32_t scalar, laid, captured;
        int lane, step;
        for (lane = 0; lane < WTS_LANES; lane++) {
            wts_board black, white, eggs;
            wts_rng rng;
            random_position(&seed, &black, &white, &eggs);
            wts_rng_seed(&rng, wts_splitmix64(&seed));
            wts_lanes_put(&lanes, lane, black, white, eggs, random_turn(&seed), &rng);
        }
        for (step = 0; step < STEPS; step++) {
            scalar = wts_lanes_step(&lanes, &laid, &captured);
            mix(scalar); mix(laid); mix(captured);
            mix_lanes(&lanes);
            for (lane = 0; lane < WTS_LANES; lane++) {
                counts[0]++;
                counts[1] += (scalar >> lane) & 1u;
                counts[2] += ((scalar | laid | captured) >> lane & 1u) ^ 1u;
                counts[3] += (laid >> lane) & 1u;
                counts[4] += (captured >> lane) & 1u;
            }
        }
        for (step = 0; step < 2; step++) {
            uint32_t sent = (uint32_t)(wts_splitmix64(&seed) & wts_splitmix64(&seed))
                            & ((1u << WTS_LANES) - 1u);
            for (lane = 0; lane < WTS_LANES; lane++) {
                wts_board black, white, eggs;
                int black_bit, white_bit;
                random_position(&seed, &black, &white, &eggs);
                black_bit = random_empty_bit(&seed, black, white, eggs);
                white_bit = wts_splitmix64(&seed) % 4u == 0
                                ? black_bit : random_empty_bit(&seed, black, white, eggs);
                wts_lanes_put_moves(&lanes, lane, black, white, eggs, black_bit, white_bit);
            }
            scalar = wts_lanes_place(&lanes, sent, &laid, &captured);
            mix(scalar); mix(laid); mix(captured);
            mix_lanes(&lanes);
        }
    }
    printf("digest %016" PRIx64 " lanes %d vector %d lane-turns %" PRIu64 " scalar %" PRIu64
           " simple %" PRIu64 " laid %" PRIu64 " captured %" PRIu64 "\n",
           digest, WTS_LANES, WTS_VEC, counts[0], counts[1], counts[2], counts[3], counts[4]);
    return 0;
}
