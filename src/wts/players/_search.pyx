# cython: language_level=3, boundscheck=False, wraparound=False
# cython: initializedcheck=False, cdivision=True
"""Simultaneous-move Monte Carlo tree search in C, for :class:`wts.agents.MCTSAgent`.

The search (:class:`Search`) grows a tree of *joint-move* nodes in C memory:
an arena of node structs, each holding its position (a ``wts_state``), and
an open-addressing table from (parent, black square, white square) to child.
At every node each player chooses separately (decoupled selection) among its
legal squares, by UCB1 (``"ucb"``, decoupled UCT), regret matching
(``"rm"``) or Exp3 (``"exp3"``); the joint move leads to the child. Regret matching and Exp3 see
each sampled reward minus the node's mean so far (a baseline: the same
expected regrets, far less variance than the raw importance-weighted
rewards, which made both much weaker here). A new leaf is played out
``expand_threshold`` times before it is expanded (given its statistics); a
playout finishes the game: uniformly random moves (``"random"``, the core's
``wts_playout``) or random moves that take an immediate five and block the
opponent's (``"tactical"``). The result (1 black wins, 0 white wins, 0.5 a
draw) is backed up along the path. The loop runs without the GIL, on no
Python object. Optionally, a second table from position keys to nodes lets
paths that reach one position share its node (``transpositions``), and
``advance`` moves the root on by a turn, keeping what lies below it. With
a learned prior over the squares (``prior``, ``wts.players.prior``), UCB1
tries the squares the prior favours first and leans towards them while they
have few visits, as PUCT does.

Values are kept from black's side: black's reward is ``v``, white's ``1 - v``.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport (
    NOWAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_free_lock,
    PyThread_release_lock, PyThread_type_lock,
)
from libc.math cimport exp, log, sqrt
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset
from wts.engine._bits cimport (
    wts_any, wts_bit_square, wts_board, wts_clear_lowest, wts_lowest_bit, wts_or, wts_popcount,
    wts_rng, wts_rng_below, wts_rng_seed, wts_select,
)
from wts.engine._core cimport (
    WTS_BLACK_WINS, WTS_NUM_SQUARES, WTS_PADDED_BITS, WTS_WHITE_WINS, wts_capturing_moves, wts_copy,
    wts_empty_squares, wts_is_over,
    wts_legal_moves,
    wts_playout, wts_resolve_turn, wts_state, wts_winning_moves,
)
from wts.engine._game cimport GameCore
from wts.players._prior cimport NUM_FEATURES, square_features
from wts.players._sampling cimport random_square, uniform

from wts.errors import BusyError, ParameterError
from wts.params import check_bool, check_choice, check_float, check_int, check_seed
from wts.players._prior import check_weights

cdef enum:
    POLICY_RM = 0
    POLICY_EXP3 = 1
    POLICY_UCB = 2

cdef enum:
    PLAYOUT_RANDOM = 0
    PLAYOUT_TACTICAL = 1
    PLAYOUT_CAPTURES = 2

cdef enum:
    # Each player's arrays of an expanded node (see "selection"): the prior's
    # only with a prior.
    PLAYER_STATS = 4
    PLAYER_STATS_WITH_PRIOR = 5
    MAX_DEPTH = 512      # a path longer than this stops descending and plays out
    MAX_PLAYOUT_TURNS = 1000
    NOT_EXPANDED = -1
    # Iterations run without the GIL between two looks at Ctrl-C and the stop
    # event: a few milliseconds.
    CHUNK = 256

# A search does at most this many iterations in all (its node counters are
# int64 and its statistics doubles, exact well beyond it).
MAX_ITERATIONS = 2**31 - 2

cdef dict POLICIES = {"rm": POLICY_RM, "exp3": POLICY_EXP3, "ucb": POLICY_UCB}
cdef dict PLAYOUTS = {"random": PLAYOUT_RANDOM, "tactical": PLAYOUT_TACTICAL,
                      "captures": PLAYOUT_CAPTURES}
# The largest UCB1 constant taken: far beyond any useful value, and finite.
cdef double MAX_UCB_CONSTANT = 1e6


cdef inline int _tactical_move(wts_board own_wins, wts_board foe_wins, wts_board empty,
                               wts_rng *rng) noexcept nogil:
    if wts_any(own_wins):
        return random_square(own_wins, rng)
    if wts_any(foe_wins):
        return random_square(foe_wins, rng)
    return random_square(empty, rng)


cdef void tactical_playout(wts_state *state, wts_rng *rng, bint captures) noexcept nogil:
    """Play to the end: each player completes a five when it can, else blocks
    the opponent's, else (with ``captures``) captures when it can, else moves
    uniformly at random. A playout still going after MAX_PLAYOUT_TURNS turns
    stops there (and counts as a draw)."""
    cdef wts_board empty, black_wins, white_wins
    cdef wts_board black_free, white_free
    cdef int black, white
    cdef uint64_t stop = <uint64_t>state.turn + MAX_PLAYOUT_TURNS  # no wrap near WTS_MAX_TURN
    while not wts_is_over(state) and state.turn < stop:
        empty = wts_empty_squares(state)
        black_wins = wts_winning_moves(state.black, empty)
        white_wins = wts_winning_moves(state.white, empty)
        black_free = white_free = empty
        if captures:
            black_free = wts_capturing_moves(state.black, wts_or(state.white, state.eggs), empty)
            white_free = wts_capturing_moves(state.white, wts_or(state.black, state.eggs), empty)
            if not wts_any(black_free):
                black_free = empty
            if not wts_any(white_free):
                white_free = empty
        black = _tactical_move(black_wins, white_wins, black_free, rng)
        white = _tactical_move(white_wins, black_wins, white_free, rng)
        wts_resolve_turn(state, black, white, NULL)


cdef inline bint _same_position(const wts_state *a, const wts_state *b) noexcept nogil:
    """The same turtles, eggs and egg queue (the turn aside, as in the key)."""
    return (a.black.lo == b.black.lo and a.black.hi == b.black.hi
            and a.white.lo == b.white.lo and a.white.hi == b.white.hi
            and a.eggs.lo == b.eggs.lo and a.eggs.hi == b.eggs.hi
            and a.egg_count == b.egg_count
            and memcmp(a.egg_queue, b.egg_queue, a.egg_count) == 0)


cdef inline double _result(const wts_state *state) noexcept nogil:
    """Black's reward in a finished game."""
    if state.status == WTS_BLACK_WINS:
        return 1.0
    if state.status == WTS_WHITE_WINS:
        return 0.0
    return 0.5


# ---------------------------------------------------------------------------
# The search tree

# The statistics are doubles: a square's visits count exactly to 2**53, far
# beyond MAX_ITERATIONS, and sums of rewards and regrets keep their precision.
# Floats (half the memory) froze a square's visits at 2**24 = 16,777,216,
# minutes of a long search, and lost the regrets' precision long before.
ctypedef double stat_t

ctypedef struct Node:
    wts_state state
    int64_t visits       # int64: with transpositions a path may pass a node more than once
    int64_t stats        # offset of node_stats * n numbers in the stats arena, or NOT_EXPANDED
    int64_t updates      # results backed up through the node's statistics
    double value         # their sum (black's rewards)
    int32_t n            # legal squares (the empty ones; the same for both players)

ctypedef struct Step:
    int32_t node
    int32_t black        # index of each player's choice among the n legal squares
    int32_t white
    double black_prob    # the probability each was chosen with
    double white_prob


cdef inline uint64_t _edge_key(int32_t parent, int black_square, int white_square) noexcept nogil:
    return (((<uint64_t>parent + 1) << 13)
            | <uint64_t>(black_square * WTS_NUM_SQUARES + white_square))


# ---------------------------------------------------------------------------
# A hash table from 64-bit keys to node indices: open addressing with linear
# probing, a power-of-two capacity kept at most half full, the slot from the
# top bits of a Fibonacci hash. An empty slot holds the value -1. Keys may
# repeat (two positions can share a key); finding one entry of a key is
# _table_find, walking all of them is up to the caller.

ctypedef struct Table:
    uint64_t *keys
    int32_t *values
    Py_ssize_t size, capacity
    int shift            # 64 - log2(capacity)

cdef enum:
    MIN_TABLE = 256
    TABLE_SLOT_BYTES = 12  # a key and a value

cdef inline Py_ssize_t _table_capacity(Py_ssize_t size) noexcept nogil:
    """The capacity that holds ``size`` entries and one more, at most half full."""
    cdef Py_ssize_t capacity = MIN_TABLE
    while capacity < 2 * (size + 1):
        capacity *= 2
    return capacity


cdef bint _table_init(Table *table, Py_ssize_t capacity) noexcept nogil:
    """An empty table of ``capacity`` (a power of two) slots; False, and a table
    holding nothing, when memory runs out."""
    cdef int shift = 64
    table.keys = <uint64_t *>malloc(capacity * sizeof(uint64_t))
    table.values = <int32_t *>malloc(capacity * sizeof(int32_t))
    if table.keys == NULL or table.values == NULL:
        _table_free(table)
        return False
    memset(table.values, 0xFF, capacity * sizeof(int32_t))
    while (<Py_ssize_t>1 << (64 - shift)) < capacity:
        shift -= 1
    table.size = 0
    table.capacity = capacity
    table.shift = shift
    return True


cdef void _table_free(Table *table) noexcept nogil:
    free(table.keys)
    free(table.values)
    table.keys = NULL
    table.values = NULL
    table.size = table.capacity = 0


cdef inline bint _table_has_room(const Table *table) noexcept nogil:
    return 2 * (table.size + 1) <= table.capacity


cdef inline Py_ssize_t _table_home(const Table *table, uint64_t key) noexcept nogil:
    return <Py_ssize_t>((key * 0x9E3779B97F4A7C15ULL) >> table.shift)


cdef inline Py_ssize_t _table_next(const Table *table, Py_ssize_t slot) noexcept nogil:
    return (slot + 1) & (table.capacity - 1)


cdef inline Py_ssize_t _table_find(const Table *table, uint64_t key) noexcept nogil:
    """The first slot holding ``key``, or the empty slot where it would go."""
    cdef Py_ssize_t slot = _table_home(table, key)
    while table.values[slot] >= 0 and table.keys[slot] != key:
        slot = _table_next(table, slot)
    return slot


cdef inline void _table_add(Table *table, uint64_t key, int32_t value) noexcept nogil:
    """Enter ``key`` -> ``value``; the table has room for it."""
    cdef Py_ssize_t slot = _table_home(table, key)
    while table.values[slot] >= 0:
        slot = _table_next(table, slot)
    table.keys[slot] = key
    table.values[slot] = value
    table.size += 1


cdef bint _table_grow(Table *table) noexcept nogil:
    """Double the capacity, keeping every entry; False, the table as it was,
    when memory runs out."""
    cdef Table grown
    cdef Py_ssize_t slot
    if not _table_init(&grown, 2 * table.capacity):
        return False
    for slot in range(table.capacity):
        if table.values[slot] >= 0:
            _table_add(&grown, table.keys[slot], table.values[slot])
    _table_free(table)
    table[0] = grown
    return True


def _check_prior(prior, policy):
    """The prior's NUM_FEATURES weights as floats, or None for no prior."""
    if prior is None:
        return None
    if policy != "ucb":
        raise ParameterError(f"a prior needs policy 'ucb', not {policy!r}")
    return check_weights(prior)


cdef class Search:
    """A simultaneous-move MCTS from one position; both players' statistics.

    ``Search(game, seed=0, policy="ucb", exploration=None, playout="tactical",
    expand_threshold=1, max_memory=256 MiB, transpositions=False, prior=None,
    prior_weight=1.0)``. ``run(n)``
    does ``n`` more iterations (each one playout, or a finished position reached in the tree)
    without the GIL; ``strategy``, ``visits`` and ``values`` read the root.
    ``exploration`` is gamma for ``"rm"`` and ``"exp3"`` and the UCB1 constant
    for ``"ucb"`` (default 0.2 for all three: docs/mcts.md has the matches
    that chose it). With ``transpositions`` a joint move that reaches a
    position already in the tree links to its node (``edges`` counts the
    links). :meth:`advance` moves the root on by a turn, keeping the
    subtree. Once the tree holds about ``max_memory`` bytes it stops growing;
    the search goes on below its leaves. ``prior`` (with ``"ucb"``), the
    weights of :mod:`wts.players.prior`'s features, gives each expanded node a
    prior over its squares: it orders the untried ones and adds
    ``prior_weight`` x prior x sqrt(node visits) / (1 + square visits) to the
    UCB1 values.

    A search runs one call at a time: a call made while another thread's call
    is running raises :class:`wts.BusyError`.
    """

    cdef Node *tree
    cdef Py_ssize_t n_nodes, cap_nodes
    cdef size_t max_memory
    cdef stat_t *stats
    cdef int64_t n_stats, cap_stats
    cdef Table edges      # _edge_key(parent, black, white) -> child
    cdef Table positions  # with transpositions: position key -> node
    cdef bint transpositions
    cdef wts_rng rng
    cdef int policy, playout, expand_threshold
    cdef double exploration
    cdef bint use_prior
    cdef int player_stats, node_stats  # numbers a square of one player, of both
    cdef double prior_factors[NUM_FEATURES]  # exp of the prior's weights
    cdef double prior_weight
    cdef int64_t n_iterations
    cdef bint full
    cdef PyThread_type_lock busy  # held for the length of every call

    def __cinit__(self):
        self.tree = NULL
        self.stats = NULL
        memset(&self.edges, 0, sizeof(Table))
        memset(&self.positions, 0, sizeof(Table))
        self.busy = PyThread_allocate_lock()
        if self.busy == NULL:
            raise MemoryError("cannot allocate a lock")

    cdef int _enter(self) except -1:
        """Take the search for one call, or raise BusyError or, before __init__
        has built the tree, RuntimeError."""
        if not PyThread_acquire_lock(self.busy, NOWAIT_LOCK):
            raise BusyError("this search is in use by another thread")
        if self.tree == NULL:
            PyThread_release_lock(self.busy)
            raise RuntimeError("this search has no tree: Search.__init__ has not run")
        return 0

    cdef void _leave(self) noexcept:
        PyThread_release_lock(self.busy)

    def __init__(self, GameCore game not None, seed=0, policy="ucb", exploration=None,
                 playout="tactical", expand_threshold=1, max_memory=268435456,
                 transpositions=False, prior=None, prior_weight=1.0):
        cdef wts_state root
        cdef int f
        seed = check_seed(seed)
        policy = check_choice(policy, "policy", tuple(POLICIES))
        playout = check_choice(playout, "playout", tuple(PLAYOUTS))
        expand_threshold = check_int(expand_threshold, "expand_threshold", 1, 2**31 - 1)
        max_memory = check_int(max_memory, "max_memory", 0, 2**62)
        transpositions = check_bool(transpositions, "transpositions")
        if exploration is None:
            exploration = 0.2
        if policy == "ucb":
            exploration = check_float(exploration, "exploration (the UCB1 constant)",
                                      0.0, MAX_UCB_CONSTANT)
        else:
            exploration = check_float(exploration, "exploration (gamma)", 0.0, 1.0,
                                      exclude_minimum=True)
        weights = _check_prior(prior, policy)
        prior_weight = check_float(prior_weight, "prior_weight", 0.0, MAX_UCB_CONSTANT)
        game.snapshot(&root)
        if not PyThread_acquire_lock(self.busy, NOWAIT_LOCK):
            raise BusyError("this search is in use by another thread")
        try:
            self.use_prior = weights is not None
            for f in range(NUM_FEATURES):
                self.prior_factors[f] = exp(weights[f]) if weights is not None else 1.0
            self.prior_weight = prior_weight
            self._build(&root, seed, POLICIES[policy], exploration, PLAYOUTS[playout],
                        expand_threshold, max_memory, transpositions)
        finally:
            PyThread_release_lock(self.busy)

    cdef int _build(self, const wts_state *root, uint64_t seed, int policy, double exploration,
                    int playout, int expand_threshold, size_t max_memory,
                    bint transpositions) except -1:
        """A tree holding only ``root`` (expanded unless the game is over)."""
        self._free()
        self.transpositions = transpositions
        self.policy = policy
        self.playout = playout
        self.exploration = exploration
        self.expand_threshold = expand_threshold
        self.max_memory = max_memory
        wts_rng_seed(&self.rng, seed)
        # The root and its statistics always fit; growth is what max_memory bounds.
        self.cap_nodes = 64
        self.tree = <Node *>malloc(self.cap_nodes * sizeof(Node))
        self.player_stats = PLAYER_STATS_WITH_PRIOR if self.use_prior else PLAYER_STATS
        self.node_stats = 2 * self.player_stats
        self.cap_stats = self.node_stats * WTS_NUM_SQUARES
        self.stats = <stat_t *>malloc(self.cap_stats * sizeof(stat_t))
        if (self.tree == NULL or self.stats == NULL or not _table_init(&self.edges, MIN_TABLE)
                or (transpositions and not _table_init(&self.positions, MIN_TABLE))):
            self._free()
            raise MemoryError("cannot allocate the search tree")
        self.n_nodes = 0
        self.n_stats = 0
        self.n_iterations = 0
        self.full = False
        self._new_node(root)
        if transpositions:
            _table_add(&self.positions, root.key, 0)
        if not wts_is_over(root):
            self._expand(0)
        return 0

    cdef void _free(self) noexcept nogil:
        free(self.tree)
        free(self.stats)
        self.tree = NULL
        self.stats = NULL
        _table_free(&self.edges)
        _table_free(&self.positions)

    def __dealloc__(self):
        self._free()
        if self.busy != NULL:
            PyThread_free_lock(self.busy)

    # -- memory ---------------------------------------------------------------

    cdef size_t _bytes(self) noexcept nogil:
        return (self.cap_nodes * sizeof(Node) + self.cap_stats * sizeof(stat_t)
                + (self.edges.capacity + self.positions.capacity) * TABLE_SLOT_BYTES)

    cdef Py_ssize_t _grown_capacity(self, Py_ssize_t cap, Py_ssize_t need,
                                    size_t item) noexcept nogil:
        """A larger capacity of an array of ``cap`` items of ``item`` bytes that holds
        ``need`` items: double it, or less to stay within max_memory; 0 if none fits."""
        cdef size_t room, used = self._bytes()
        cdef Py_ssize_t grown = cap
        while grown < need:
            grown *= 2
        if used + (grown - cap) * item > self.max_memory:
            room = (self.max_memory - used) // item if used < self.max_memory else 0
            grown = cap + <Py_ssize_t>room
            if grown < need:
                return 0
        return grown

    cdef int32_t _new_node(self, const wts_state *state) noexcept nogil:
        """A node for ``state``, or -1 when the tree may not grow."""
        cdef Node *grown
        cdef Py_ssize_t cap
        if self.n_nodes == self.cap_nodes:
            cap = self._grown_capacity(self.cap_nodes, self.n_nodes + 1, sizeof(Node))
            if cap == 0 or cap > 0x7FFFFFFF:
                self.full = True
                return -1
            grown = <Node *>realloc(self.tree, cap * sizeof(Node))
            if grown == NULL:
                self.full = True
                return -1
            self.tree = grown
            self.cap_nodes = cap
        cdef Node *node = &self.tree[self.n_nodes]
        wts_copy(&node.state, state)
        node.visits = 0
        node.updates = 0
        node.value = 0.0
        node.n = 0
        node.stats = NOT_EXPANDED
        self.n_nodes += 1
        return <int32_t>(self.n_nodes - 1)

    cdef bint _expand(self, int32_t index) noexcept nogil:
        """Give a node its statistics: player_stats arrays of n numbers for each player."""
        cdef Node *node = &self.tree[index]
        cdef int n = wts_popcount(wts_legal_moves(&node.state))
        cdef int64_t need = self.n_stats + self.node_stats * n, cap = self.cap_stats
        cdef stat_t *grown
        if need > cap:
            cap = self._grown_capacity(cap, need, sizeof(stat_t))
            if cap == 0:
                self.full = True
                return False
            grown = <stat_t *>realloc(self.stats, cap * sizeof(stat_t))
            if grown == NULL:
                self.full = True
                return False
            self.stats = grown
            self.cap_stats = cap
        memset(&self.stats[self.n_stats], 0, self.node_stats * n * sizeof(stat_t))
        node.n = n
        node.stats = self.n_stats
        self.n_stats = need
        if self.use_prior:
            self._fill_prior(node, &self.stats[node.stats])
        return True

    cdef void _fill_prior(self, const Node *node, stat_t *block) noexcept nogil:
        """Each player's prior over the node's legal squares (summing to 1), in
        its ``p`` array: in proportion to exp(the sum of the weights of the
        square's features), a product of the factors exp(weight)."""
        cdef wts_board features[NUM_FEATURES]
        cdef wts_board legal = wts_legal_moves(&node.state), rest
        cdef const wts_state *state = &node.state
        cdef stat_t *p
        cdef double factor, total
        cdef double weights[WTS_PADDED_BITS]  # by padded bit
        cdef int side, i, f, bit
        for side in range(2):
            if side == 0:
                square_features(state.black, state.white, state.eggs, features)
            else:
                square_features(state.white, state.black, state.eggs, features)
            for i in range(WTS_PADDED_BITS):
                weights[i] = 1.0
            for f in range(NUM_FEATURES):  # the features are sparse: visit their squares
                factor = self.prior_factors[f]
                rest = features[f]
                while wts_any(rest):
                    weights[wts_lowest_bit(rest)] *= factor
                    rest = wts_clear_lowest(rest)
            p = block + side * self.player_stats * node.n + 4 * node.n
            total = 0.0
            rest = legal
            while wts_any(rest):
                total += weights[wts_lowest_bit(rest)]
                rest = wts_clear_lowest(rest)
            rest = legal
            for i in range(node.n):
                bit = wts_lowest_bit(rest)
                rest = wts_clear_lowest(rest)
                p[i] = <stat_t>(weights[bit] / total)

    cdef bint _grow_table(self, Table *table) noexcept nogil:
        """Double ``table`` if max_memory and the system allow; otherwise the
        tree is full."""
        if (self._bytes() + table.capacity * TABLE_SLOT_BYTES > self.max_memory
                or not _table_grow(table)):
            self.full = True
            return False
        return True

    # -- transpositions ---------------------------------------------------------
    #
    # With ``transpositions`` a joint move that leads to a position already in
    # the tree links to its node: the tree becomes a graph, and the statistics
    # of a position are shared by every path to it.

    cdef int32_t _find_position(self, const wts_state *state) noexcept nogil:
        """The node holding ``state``'s position, or -1."""
        cdef Py_ssize_t slot = _table_find(&self.positions, state.key)
        cdef int32_t index
        while self.positions.values[slot] >= 0:
            index = self.positions.values[slot]
            if (self.positions.keys[slot] == state.key
                    and _same_position(&self.tree[index].state, state)):
                return index
            slot = _table_next(&self.positions, slot)
        return -1

    cdef bint _room_for_node(self) noexcept nogil:
        """Room in the edge table (and the position table) for one more node."""
        if self.full:
            return False
        if not _table_has_room(&self.edges) and not self._grow_table(&self.edges):
            return False
        return (not self.transpositions or _table_has_room(&self.positions)
                or self._grow_table(&self.positions))

    # -- moving the root ------------------------------------------------------------

    cdef bint _reroot(self, int32_t top) noexcept nogil:
        """Keep only node ``top`` and what lies below it, ``top`` as the root
        (renumbered from 0 in breadth-first order). False, the tree as it was,
        when memory runs out."""
        cdef Py_ssize_t n = self.n_nodes, i, e, slot, count = 1, head = 0, kept_edges = 0
        cdef Py_ssize_t cap_nodes
        cdef int64_t n_stats = 0, block
        cdef int32_t parent, child, old
        cdef uint64_t key
        # The edges of each node, grouped by parent: first[p] .. first[p + 1] in edge_slot.
        cdef int32_t *first = <int32_t *>malloc((n + 1) * sizeof(int32_t))
        cdef int32_t *cursor = <int32_t *>malloc((n + 1) * sizeof(int32_t))
        cdef Py_ssize_t *edge_slot = <Py_ssize_t *>malloc(
            (self.edges.size + 1) * sizeof(Py_ssize_t))
        cdef int32_t *renumber = <int32_t *>malloc(n * sizeof(int32_t))  # old index -> new
        cdef int32_t *order = <int32_t *>malloc(n * sizeof(int32_t))     # new index -> old
        cdef Node *tree = NULL
        cdef stat_t *stats = NULL
        cdef Table edges, positions
        cdef bint ok = False
        memset(&edges, 0, sizeof(Table))
        memset(&positions, 0, sizeof(Table))
        if (first == NULL or cursor == NULL or edge_slot == NULL or renumber == NULL
                or order == NULL):
            free(first)
            free(cursor)
            free(edge_slot)
            free(renumber)
            free(order)
            return False
        memset(first, 0, (n + 1) * sizeof(int32_t))
        for slot in range(self.edges.capacity):
            if self.edges.values[slot] >= 0:
                first[(self.edges.keys[slot] >> 13)] += 1  # (parent + 1) << 13 | moves
        for i in range(n):
            first[i + 1] += first[i]
            cursor[i] = first[i]
        for slot in range(self.edges.capacity):
            if self.edges.values[slot] >= 0:
                parent = <int32_t>((self.edges.keys[slot] >> 13) - 1)
                edge_slot[cursor[parent]] = slot
                cursor[parent] += 1
        # Breadth first from ``top``: the nodes kept, numbered in the order met.
        for i in range(n):
            renumber[i] = -1
        renumber[top] = 0
        order[0] = top
        while head < count:
            old = order[head]
            head += 1
            if self.tree[old].stats != NOT_EXPANDED:
                n_stats += self.node_stats * self.tree[old].n
            for e in range(first[old], first[old + 1]):
                kept_edges += 1
                child = self.edges.values[edge_slot[e]]
                if renumber[child] < 0:
                    renumber[child] = <int32_t>count
                    order[count] = child
                    count += 1
        cap_nodes = count if count > 64 else 64
        tree = <Node *>malloc(cap_nodes * sizeof(Node))
        # Room to expand the new root at once if it never was.
        stats = <stat_t *>malloc((n_stats + self.node_stats * WTS_NUM_SQUARES) * sizeof(stat_t))
        ok = (tree != NULL and stats != NULL
              and _table_init(&edges, _table_capacity(kept_edges))
              and (not self.transpositions
                   or _table_init(&positions, _table_capacity(count))))
        if ok:
            n_stats = 0
            for i in range(count):
                old = order[i]
                tree[i] = self.tree[old]
                if tree[i].stats != NOT_EXPANDED:
                    block = self.node_stats * tree[i].n
                    memcpy(&stats[n_stats], &self.stats[tree[i].stats], block * sizeof(stat_t))
                    tree[i].stats = n_stats
                    n_stats += block
                if self.transpositions:
                    _table_add(&positions, tree[i].state.key, <int32_t>i)
                for e in range(first[old], first[old + 1]):
                    slot = edge_slot[e]
                    key = ((<uint64_t>i + 1) << 13) | (self.edges.keys[slot] & 0x1FFF)
                    _table_add(&edges, key, renumber[self.edges.values[slot]])
            self._free()
            self.tree, self.cap_nodes, self.n_nodes = tree, cap_nodes, count
            self.stats, self.n_stats = stats, n_stats
            self.cap_stats = n_stats + self.node_stats * WTS_NUM_SQUARES
            self.edges = edges
            self.positions = positions
            self.full = False
            self.n_iterations = self.tree[0].visits
            if self.tree[0].stats == NOT_EXPANDED and not wts_is_over(&self.tree[0].state):
                self._expand(0)
        else:
            free(tree)
            free(stats)
            _table_free(&edges)
            _table_free(&positions)
        free(first)
        free(cursor)
        free(edge_slot)
        free(renumber)
        free(order)
        return ok

    # -- selection ------------------------------------------------------------
    #
    # Each player of an expanded node has player_stats arrays of n numbers, one
    # entry per legal square (ascending), in this order: ``a``, ``s``, ``q`` the
    # sum of the rewards, ``c`` the visits and, with a prior, ``p`` the
    # prior. For "rm" and "exp3" ``a`` is the policy's own (regrets, cumulative
    # reward estimates) and ``s`` the cumulative strategy; for "ucb" ``a`` the
    # mean reward and ``s`` 1/sqrt(visits), kept by each update so that a
    # selection is a multiply-add a square, not a division and a square root.

    cdef int _select(self, stat_t *block, int n, int64_t visits, double mean,
                     double *prob) noexcept nogil:
        """One player's choice among ``n`` squares, and the probability it had;
        ``mean`` is the player's mean reward at the node so far."""
        cdef stat_t *a = block
        cdef stat_t *s = block + n
        cdef stat_t *c = block + 3 * n
        cdef stat_t *prior = block + 4 * n
        cdef double gamma = self.exploration, total = 0.0, x, acc = 0.0, p = 0.0, best, value
        cdef double top
        cdef double weights[WTS_NUM_SQUARES]
        cdef int i, k, chosen = -1, ties = 0
        if self.policy == POLICY_UCB and self.use_prior:
            # UCB1 and a prior term that fades with the square's visits (as in
            # PUCT); an unvisited square counts as one visit of the mean reward, so
            # the prior orders the squares the search tries first.
            prob[0] = 1.0
            x = gamma * sqrt(log(<double>visits))
            top = self.prior_weight * sqrt(<double>visits)
            chosen = 0
            for i in range(n):
                if c[i] == 0.0:
                    value = mean + x + top * prior[i]
                else:
                    value = a[i] + x * s[i] + top * prior[i] / (1.0 + c[i])
                if i == 0 or value > best:
                    best = value
                    chosen = i
            return chosen
        if self.policy == POLICY_UCB:
            # Decoupled UCT: UCB1 on each player's own statistics; unvisited squares
            # first, one of them uniformly at random.
            prob[0] = 1.0
            for i in range(n):
                ties += c[i] == 0.0
            if ties:
                k = <int>wts_rng_below(&self.rng, <uint32_t>ties)
                for i in range(n):
                    if c[i] == 0.0:
                        if k == 0:
                            return i
                        k -= 1
            x = gamma * sqrt(log(<double>visits))
            chosen = 0
            best = a[0] + x * s[0]
            for i in range(1, n):
                value = a[i] + x * s[i]
                if value > best:
                    best = value
                    chosen = i
            return chosen
        if self.policy == POLICY_EXP3:
            top = a[0]
            for i in range(1, n):
                if a[i] > top:
                    top = a[i]
            for i in range(n):
                weights[i] = exp((gamma / n) * (a[i] - top))
                total += weights[i]
        else:
            # Regret matching: play in proportion to the positive regrets.
            for i in range(n):
                weights[i] = a[i] if a[i] > 0.0 else 0.0
                total += weights[i]
        x = uniform(&self.rng)
        for i in range(n):
            if total > 0.0:
                p = (1.0 - gamma) * weights[i] / total + gamma / n
            else:
                p = 1.0 / n
            s[i] += p
            acc += p
            if chosen < 0 and x < acc:
                chosen = i
                prob[0] = p
        if chosen < 0:
            chosen = n - 1
            prob[0] = p
        return chosen

    cdef void _update(self, stat_t *block, int n, int chosen, double prob, double reward,
                      double baseline) noexcept nogil:
        """Learn the ``reward`` (in [0, 1]) of ``chosen``; ``baseline`` is the
        player's mean reward at the node before it."""
        cdef stat_t *a = block
        cdef stat_t *s = block + n
        cdef stat_t *q = block + 2 * n
        cdef stat_t *c = block + 3 * n
        cdef double centred = reward - baseline
        cdef int i
        q[chosen] += reward
        c[chosen] += 1.0
        if self.policy == POLICY_UCB:
            a[chosen] = q[chosen] / c[chosen]
            s[chosen] = <stat_t>(1.0 / sqrt(c[chosen]))
        elif self.policy == POLICY_RM:
            # Sampled regrets: the importance-weighted reward of the chosen square
            # against the reward obtained, both measured from the baseline (the
            # same expectation, far less variance).
            for i in range(n):
                a[i] -= centred
            a[chosen] += centred / prob
        elif self.policy == POLICY_EXP3:
            a[chosen] += centred / prob

    # -- one iteration ----------------------------------------------------------

    cdef double _playout_from(self, const wts_state *state) noexcept nogil:
        cdef wts_state s
        wts_copy(&s, state)
        if self.playout != PLAYOUT_RANDOM:
            tactical_playout(&s, &self.rng, self.playout == PLAYOUT_CAPTURES)
        else:
            wts_playout(&s, &self.rng)
        return _result(&s)

    cdef void _iterate(self, Step *path) noexcept nogil:
        cdef int32_t index = 0, child
        cdef int depth = 0, i, black_square, white_square
        cdef Node *node
        cdef stat_t *st
        cdef double value, black_prob, white_prob, baseline
        cdef int black, white
        cdef wts_board legal
        cdef wts_state next_state
        cdef uint64_t key
        cdef Py_ssize_t slot
        while True:
            node = &self.tree[index]
            node.visits += 1
            if wts_is_over(&node.state):
                value = _result(&node.state)
                break
            if depth >= MAX_DEPTH:  # the path is full: play out from here
                value = self._playout_from(&node.state)
                break
            if node.stats == NOT_EXPANDED:
                if (node.visits <= self.expand_threshold or self.full
                        or not self._expand(index)):
                    value = self._playout_from(&node.state)
                    break
                node = &self.tree[index]
            st = &self.stats[node.stats]
            baseline = node.value / node.updates if node.updates else 0.5
            black = self._select(st, node.n, node.visits, baseline, &black_prob)
            white = self._select(st + self.player_stats * node.n, node.n, node.visits,
                                 1.0 - baseline, &white_prob)
            path[depth].node = index
            path[depth].black = black
            path[depth].white = white
            path[depth].black_prob = black_prob
            path[depth].white_prob = white_prob
            depth += 1
            legal = wts_legal_moves(&node.state)
            black_square = wts_bit_square(wts_select(legal, black))
            white_square = wts_bit_square(wts_select(legal, white))
            key = _edge_key(index, black_square, white_square)
            slot = _table_find(&self.edges, key)
            if self.edges.values[slot] >= 0:
                index = self.edges.values[slot]
                continue
            wts_copy(&next_state, &node.state)
            wts_resolve_turn(&next_state, black_square, white_square, NULL)
            if self.transpositions:
                child = self._find_position(&next_state)
                if child >= 0:  # a position met by another path: go on from its node
                    if not self.full and (_table_has_room(&self.edges)
                                          or self._grow_table(&self.edges)):
                        _table_add(&self.edges, key, child)
                    index = child
                    continue
            # A new joint move: a new leaf, played out once.
            child = self._new_node(&next_state) if self._room_for_node() else -1
            if child >= 0:
                _table_add(&self.edges, key, child)
                if self.transpositions:
                    _table_add(&self.positions, next_state.key, child)
                self.tree[child].visits = 1
            if wts_is_over(&next_state):
                value = _result(&next_state)
            else:
                value = self._playout_from(&next_state)
            break
        for i in range(depth - 1, -1, -1):
            node = &self.tree[path[i].node]
            st = &self.stats[node.stats]
            baseline = node.value / node.updates if node.updates else 0.5
            node.value += value
            node.updates += 1
            self._update(st, node.n, path[i].black, path[i].black_prob, value, baseline)
            self._update(st + self.player_stats * node.n, node.n, path[i].white,
                         path[i].white_prob,
                         1.0 - value, 1.0 - baseline)

    def run(self, iterations, stop=None):
        """Do up to ``iterations`` more iterations without the GIL; returns how many
        were done. Between chunks of a few milliseconds it looks at Ctrl-C (raising
        KeyboardInterrupt, the iterations done so far kept) and at ``stop``, an
        object with ``is_set()`` such as a :class:`threading.Event`: once it is
        set, the search returns early."""
        cdef Step *path
        cdef int64_t done = 0, goal, chunk
        self._enter()
        try:
            goal = check_int(iterations, "iterations", 0, MAX_ITERATIONS - self.n_iterations)
            if self.tree[0].stats == NOT_EXPANDED:  # the root position is over
                return 0
            path = <Step *>malloc(MAX_DEPTH * sizeof(Step))
            if path == NULL:
                raise MemoryError()
            try:
                while done < goal and not (stop is not None and stop.is_set()):
                    chunk = min(goal - done, <int64_t>CHUNK)
                    with nogil:
                        for _ in range(chunk):
                            self._iterate(path)
                    done += chunk
                    self.n_iterations += chunk
                    PyErr_CheckSignals()
            finally:
                free(path)
            return done
        finally:
            self._leave()

    def advance(self, black, white):
        """Move the root to the position after the joint move (``black``,
        ``white``, squares 0-80), keeping everything searched below it, as a
        search that reuses its tree from one turn to the next does. Returns
        False, and leaves the search as it was, when that joint move was never
        searched (or memory ran out). ``iterations`` becomes the new root's visits,
        which count the playouts from it made before it was expanded: those are
        not in ``visits`` or ``strategy``."""
        cdef int b = check_int(black, "black (a square 0-80)", 0, WTS_NUM_SQUARES - 1)
        cdef int w = check_int(white, "white (a square 0-80)", 0, WTS_NUM_SQUARES - 1)
        cdef Py_ssize_t slot
        cdef bint moved
        self._enter()
        try:
            if self.tree[0].stats == NOT_EXPANDED:
                return False
            slot = _table_find(&self.edges, _edge_key(0, b, w))
            if self.edges.values[slot] < 0:
                return False
            with nogil:
                moved = self._reroot(self.edges.values[slot])
            return moved
        finally:
            self._leave()

    def holds(self, GameCore game not None):
        """Whether the root is ``game``'s position: the same pieces, egg queue and turn."""
        cdef wts_state state
        game.snapshot(&state)
        self._enter()
        try:
            return (_same_position(&self.tree[0].state, &state)
                    and self.tree[0].state.turn == state.turn)
        finally:
            self._leave()

    # -- reading the root -----------------------------------------------------------

    @property
    def iterations(self):
        """Iterations done so far (each one playout or a finished position reached)."""
        self._enter()
        try:
            return self.n_iterations
        finally:
            self._leave()

    @property
    def nodes(self):
        """Nodes in the tree."""
        self._enter()
        try:
            return self.n_nodes
        finally:
            self._leave()

    @property
    def edges(self):
        """Joint moves in the tree. With ``transpositions`` a node may be reached by
        several: ``edges - nodes + 1`` of them lead to a node another path met first."""
        self._enter()
        try:
            return self.edges.size
        finally:
            self._leave()

    @property
    def expanded(self):
        """Nodes with statistics (expanded)."""
        cdef Py_ssize_t i, count = 0
        self._enter()
        try:
            for i in range(self.n_nodes):
                count += self.tree[i].stats != NOT_EXPANDED
            return count
        finally:
            self._leave()

    @property
    def memory(self):
        """Bytes the tree holds."""
        self._enter()
        try:
            return self._bytes()
        finally:
            self._leave()

    cdef list _root_array(self, color, int which):
        """81 entries of one of the root's arrays for ``color``; None off the legal squares."""
        cdef int side = check_int(color, "color (0 black, 1 white)", 0, 1)
        cdef list result = [None] * WTS_NUM_SQUARES
        cdef Node *root
        cdef stat_t *array
        cdef wts_board legal
        cdef int i
        self._enter()
        try:
            root = &self.tree[0]
            if root.stats == NOT_EXPANDED:
                return result
            array = &self.stats[root.stats + (self.player_stats * side + which) * root.n]
            legal = wts_legal_moves(&root.state)
            for i in range(root.n):
                result[wts_bit_square(wts_select(legal, i))] = array[i]
            return result
        finally:
            self._leave()

    def strategy(self, color):
        """The root's final strategy for ``color`` (0 black, 1 white): 81 floats
        summing to 1, zero on occupied squares (all zero once the game is over).
        For ``"rm"`` and ``"exp3"`` the average strategy; for
        ``"ucb"`` the share of visits."""
        cdef list sums = self._root_array(color, 3 if self.policy == POLICY_UCB else 1)
        cdef double total = sum([x for x in sums if x is not None])
        cdef int n = sum([x is not None for x in sums])
        return [0.0 if x is None else (x / total if total > 0.0 else 1.0 / n) for x in sums]

    def visits(self, color):
        """How often the search chose each square at the root for ``color``
        (81 ints, zero on occupied squares)."""
        return [0 if x is None else int(x) for x in self._root_array(color, 3)]

    def values(self, color):
        """``color``'s mean reward (1 a win, 0.5 a draw, 0 a loss) after each square
        at the root, None where it was never chosen or is occupied."""
        cdef list sums = self._root_array(color, 2)
        cdef list counts = self._root_array(color, 3)
        return [None if c is None or c == 0.0 else q / c for q, c in zip(sums, counts)]
