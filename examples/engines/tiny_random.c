/* A tiny What the Shell engine in C: it names a random empty square.
 *
 * The whole protocol an engine needs to play (docs/protocol.md): the
 * handshake, an option, position, go, stop, isready, quit, and an error for
 * anything else. Build and run it against wts's players:
 *
 *     cc -O2 -o tiny_random examples/engines/tiny_random.c
 *     wts tournament "engine:./tiny_random" greedy --games 10
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 65540

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next_random(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static void say(const char *line) {
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

/* The empty squares of a position string's board field (rank 9 first; a digit
 * is that many empty squares; x, o, e a turtle or an egg), as indices
 * (rank - 1) * 9 + file. Returns how many, or -1 if the board is malformed. */
static int empty_squares(const char *board, int *empty) {
    int count = 0, rank = 8, file = 0;
    for (const char *p = board; *p && *p != ' '; p++) {
        if (*p == '/') {
            if (file != 9 || rank == 0) return -1;
            rank--;
            file = 0;
        } else if (*p >= '1' && *p <= '9') {
            for (int k = 0; k < *p - '0'; k++, file++) {
                if (file >= 9) return -1;
                empty[count++] = rank * 9 + file;
            }
        } else if (*p == 'x' || *p == 'o' || *p == 'e') {
            if (++file > 9) return -1;
        } else {
            return -1;
        }
    }
    return (rank == 0 && file == 9) ? count : -1;
}

static int is_square(const char *t) {
    return t[0] >= 'A' && t[0] <= 'I' && t[1] >= '1' && t[1] <= '9' && t[2] == '\0';
}

static int is_number(const char *t) {
    if (!*t) return 0;
    for (; *t; t++)
        if (*t < '0' || *t > '9') return 0;
    return 1;
}

/* position BOARD EGGS TURN [moves B W ...]: the board is read; the rest is
 * checked for its shape. Returns the empty squares, or -1 if malformed. */
static int read_position(char *args, int *empty) {
    char *tokens[2 * 1024 + 8];
    int n = 0;
    for (char *t = strtok(args, " \t"); t && n < (int)(sizeof tokens / sizeof *tokens);
         t = strtok(NULL, " \t"))
        tokens[n++] = t;
    if (n < 3 || !is_number(tokens[2])) return -1;
    if (n > 3) {
        if (strcmp(tokens[3], "moves") != 0 || (n - 4) % 2 != 0) return -1;
        for (int i = 4; i < n; i++)
            if (!is_square(tokens[i])) return -1;
    }
    return empty_squares(tokens[0], empty);
}

/* go COLOR [movetime|btime|wtime|binc|winc|playouts N] [infinite]: 1 if well formed. */
static int valid_go(char *args) {
    char *t = strtok(args, " \t");
    if (!t || (strcmp(t, "black") != 0 && strcmp(t, "white") != 0)) return 0;
    while ((t = strtok(NULL, " \t"))) {
        if (strcmp(t, "infinite") == 0) continue;
        if (strcmp(t, "movetime") && strcmp(t, "btime") && strcmp(t, "wtime") &&
            strcmp(t, "binc") && strcmp(t, "winc") && strcmp(t, "playouts"))
            return 0;
        t = strtok(NULL, " \t");
        if (!t || !is_number(t)) return 0;
    }
    return 1;
}

int main(void) {
    static char line[MAX_LINE];
    int empty[81], empties = -1;
    char answer[64];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *command = line + strspn(line, " \t");
        if (*command == '\0') continue;
        if (strncmp(command, "wtsp ", 5) == 0) {
            say("id name tiny random (C)");
            say("id author the wts examples");
            say("protocol 1");
            say("option name seed type spin default 0 min 0 max 4294967295");
            say("ready");
        } else if (strcmp(command, "isready") == 0) {
            say("readyok");
        } else if (strncmp(command, "setoption name seed", 19) == 0) {
            /* a value the option does not take is refused, and the seed kept */
            const char *value = command + 19;
            char *end = NULL;
            unsigned long long seed = 0;
            int ok = strncmp(value, " value ", 7) == 0 && value[7] >= '0' && value[7] <= '9';
            if (ok) {
                errno = 0;
                seed = strtoull(value + 7, &end, 10);
                while (*end == ' ' || *end == '\t') end++;
                ok = errno == 0 && *end == '\0' && seed <= 4294967295ull;
            }
            if (!ok) {
                say("error option seed takes a whole number from 0 to 4294967295");
            } else {
                rng_state = seed * 2654435761u + 0x9E3779B97F4A7C15ull;
                if (rng_state == 0) rng_state = 1;
            }
        } else if (strcmp(command, "newgame") == 0) {
            empties = -1;
        } else if (strncmp(command, "position ", 9) == 0) {
            empties = read_position(command + 9, empty);
            if (empties < 0) say("error malformed position");
        } else if (strncmp(command, "go ", 3) == 0) {
            if (!valid_go(command + 3)) {
                say("error malformed go: go black|white [limits]");
            } else if (empties <= 0) {
                say("error no position, or no empty square: send position first");
            } else {
                int sq = empty[next_random() % (uint64_t)empties];
                say("info string a random empty square");
                snprintf(answer, sizeof answer, "move %c%d", 'A' + sq % 9, sq / 9 + 1);
                say(answer);
            }
        } else if (strcmp(command, "stop") == 0) {
            /* go is answered at once: there is never a search to stop */
        } else if (strcmp(command, "quit") == 0) {
            break;
        } else {
            snprintf(answer, sizeof answer, "error unknown command: %.40s", command);
            say(answer);
        }
    }
    return 0;
}
