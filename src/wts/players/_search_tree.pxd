"""The search tree of :mod:`wts.players._search` in C memory: an arena of
nodes, each holding its position, an arena of their statistics, and hash
tables from joint moves (and, with transpositions, positions) to nodes.
Inline, so the search's loop compiles into one C file with it."""

from libc.math cimport exp
from libc.stdint cimport int16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memset
from wts.engine._bits cimport (
    wts_any, wts_board, wts_clear_lowest, wts_lowest_bit, wts_popcount, wts_rng, wts_rng_seed,
)
from wts.engine._core cimport (
    WTS_NUM_SQUARES, WTS_PADDED_BITS, wts_copy, wts_is_over, wts_legal_moves, wts_state,
)
from wts.players._prior cimport NUM_FEATURES, square_features

cdef enum:
    # Each player's arrays of an expanded node (see _search_select.pxd): the
    # prior's only with a prior.
    PLAYER_STATS = 4
    PLAYER_STATS_WITH_PRIOR = 5
    MAX_DEPTH = 512      # a path longer than this stops descending and plays out
    NOT_EXPANDED = -1

cdef extern from "wts_blocks.h" nogil:
    # The nodes and the statistics: blocks that grow without a copy where the
    # system allows (sizes in bytes; NULL, the block as it was, when memory
    # runs out).
    void *wts_block_alloc(size_t bytes)
    void *wts_block_resize(void *block, size_t old_bytes, size_t new_bytes)
    void wts_block_free(void *block, size_t bytes)

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
    int16_t unvisited[2]  # each player's squares never chosen here (their visits are 0)

ctypedef struct Step:
    int32_t node
    int32_t black        # index of each player's choice among the n legal squares
    int32_t white
    double black_prob    # the probability each was chosen with
    double white_prob


# ---------------------------------------------------------------------------
# A hash table from 64-bit keys to node indices: open addressing with linear
# probing, a power-of-two capacity kept at most half full, the slot from the
# top bits of a Fibonacci hash. An empty slot holds the value -1. Keys may
# repeat (two positions can share a key); finding one entry of a key is
# table_find, walking all of them is up to the caller.

ctypedef struct Table:
    uint64_t *keys
    int32_t *values
    Py_ssize_t size, capacity
    int shift            # 64 - log2(capacity)

cdef enum:
    MIN_TABLE = 256
    TABLE_SLOT_BYTES = 12  # a key and a value


# Everything a search holds but its lock: the tree, its tables and settings.
ctypedef struct Tree:
    Node *nodes
    Py_ssize_t n_nodes, cap_nodes
    size_t max_memory
    stat_t *stats
    int64_t n_stats, cap_stats
    Table edges          # edge_key(parent, black, white) -> child
    Table positions      # with transpositions: position key -> node
    bint transpositions
    wts_rng rng
    int policy, playout, expand_threshold
    double exploration
    bint use_prior
    int player_stats, node_stats  # numbers a square of one player, of both
    double prior_factors[NUM_FEATURES]  # exp of the prior's weights
    double prior_weight
    int64_t n_iterations
    bint full


cdef inline uint64_t edge_key(int32_t parent, int black_square, int white_square) noexcept nogil:
    return (((<uint64_t>parent + 1) << 13)
            | <uint64_t>(black_square * WTS_NUM_SQUARES + white_square))


cdef inline bint same_position(const wts_state *a, const wts_state *b) noexcept nogil:
    """The same turtles, eggs and egg queue (the turn aside, as in the key)."""
    return (a.black.lo == b.black.lo and a.black.hi == b.black.hi
            and a.white.lo == b.white.lo and a.white.hi == b.white.hi
            and a.eggs.lo == b.eggs.lo and a.eggs.hi == b.eggs.hi
            and a.egg_count == b.egg_count
            and memcmp(a.egg_queue, b.egg_queue, a.egg_count) == 0)


cdef inline Py_ssize_t table_capacity(Py_ssize_t size) noexcept nogil:
    """The capacity that holds ``size`` entries and one more, at most half full."""
    cdef Py_ssize_t capacity = MIN_TABLE
    while capacity < 2 * (size + 1):
        capacity *= 2
    return capacity


cdef inline void table_free(Table *table) noexcept nogil:
    free(table.keys)
    free(table.values)
    table.keys = NULL
    table.values = NULL
    table.size = table.capacity = 0


cdef inline bint table_init(Table *table, Py_ssize_t capacity) noexcept nogil:
    """An empty table of ``capacity`` (a power of two) slots; False, and a table
    holding nothing, when memory runs out."""
    cdef int shift = 64
    table.keys = <uint64_t *>malloc(capacity * sizeof(uint64_t))
    table.values = <int32_t *>malloc(capacity * sizeof(int32_t))
    if table.keys == NULL or table.values == NULL:
        table_free(table)
        return False
    memset(table.values, 0xFF, capacity * sizeof(int32_t))
    while (<Py_ssize_t>1 << (64 - shift)) < capacity:
        shift -= 1
    table.size = 0
    table.capacity = capacity
    table.shift = shift
    return True


cdef inline bint table_has_room(const Table *table) noexcept nogil:
    return 2 * (table.size + 1) <= table.capacity


cdef inline Py_ssize_t table_home(const Table *table, uint64_t key) noexcept nogil:
    return <Py_ssize_t>((key * 0x9E3779B97F4A7C15ULL) >> table.shift)


cdef inline Py_ssize_t table_next(const Table *table, Py_ssize_t slot) noexcept nogil:
    return (slot + 1) & (table.capacity - 1)


cdef inline Py_ssize_t table_find(const Table *table, uint64_t key) noexcept nogil:
    """The first slot holding ``key``, or the empty slot where it would go."""
    cdef Py_ssize_t slot = table_home(table, key)
    while table.values[slot] >= 0 and table.keys[slot] != key:
        slot = table_next(table, slot)
    return slot


cdef inline void table_add(Table *table, uint64_t key, int32_t value) noexcept nogil:
    """Enter ``key`` -> ``value``; the table has room for it."""
    cdef Py_ssize_t slot = table_home(table, key)
    while table.values[slot] >= 0:
        slot = table_next(table, slot)
    table.keys[slot] = key
    table.values[slot] = value
    table.size += 1


cdef inline bint table_grow(Table *table) noexcept nogil:
    """Double the capacity, keeping every entry; False, the table as it was,
    when memory runs out."""
    cdef Table grown
    cdef Py_ssize_t slot
    if not table_init(&grown, 2 * table.capacity):
        return False
    for slot in range(table.capacity):
        if table.values[slot] >= 0:
            table_add(&grown, table.keys[slot], table.values[slot])
    table_free(table)
    table[0] = grown
    return True


# ---------------------------------------------------------------------------
# The tree

cdef inline bint tree_build(Tree *tree, const wts_state *root, uint64_t seed, int policy,
                            double exploration, int playout, int expand_threshold,
                            size_t max_memory, bint transpositions,
                            const double *prior_weights, double prior_weight) noexcept nogil:
    """A tree holding only ``root`` (expanded unless the game is over), of
    whatever ``tree`` held before; ``prior_weights`` the prior's NUM_FEATURES
    weights, or NULL for none. False, and a tree holding nothing, when memory
    runs out."""
    cdef int f
    tree_free(tree)
    tree.use_prior = prior_weights != NULL
    for f in range(NUM_FEATURES):
        tree.prior_factors[f] = exp(prior_weights[f]) if prior_weights != NULL else 1.0
    tree.prior_weight = prior_weight
    tree.transpositions = transpositions
    tree.policy = policy
    tree.playout = playout
    tree.exploration = exploration
    tree.expand_threshold = expand_threshold
    tree.max_memory = max_memory
    wts_rng_seed(&tree.rng, seed)
    # The root and its statistics always fit; growth is what max_memory bounds.
    tree.cap_nodes = 64
    tree.nodes = <Node *>wts_block_alloc(tree.cap_nodes * sizeof(Node))
    tree.player_stats = PLAYER_STATS_WITH_PRIOR if tree.use_prior else PLAYER_STATS
    tree.node_stats = 2 * tree.player_stats
    tree.cap_stats = tree.node_stats * WTS_NUM_SQUARES
    tree.stats = <stat_t *>wts_block_alloc(tree.cap_stats * sizeof(stat_t))
    if (tree.nodes == NULL or tree.stats == NULL or not table_init(&tree.edges, MIN_TABLE)
            or (transpositions and not table_init(&tree.positions, MIN_TABLE))):
        tree_free(tree)
        return False
    tree.n_nodes = 0
    tree.n_stats = 0
    tree.n_iterations = 0
    tree.full = False
    new_node(tree, root)
    if transpositions:
        table_add(&tree.positions, root.key, 0)
    if not wts_is_over(root):
        expand(tree, 0)
    return True


cdef inline void tree_free(Tree *tree) noexcept nogil:
    wts_block_free(tree.nodes, tree.cap_nodes * sizeof(Node))
    wts_block_free(tree.stats, tree.cap_stats * sizeof(stat_t))
    tree.nodes = NULL
    tree.stats = NULL
    table_free(&tree.edges)
    table_free(&tree.positions)


# -- memory ---------------------------------------------------------------

cdef inline size_t tree_bytes(const Tree *tree) noexcept nogil:
    return (tree.cap_nodes * sizeof(Node) + tree.cap_stats * sizeof(stat_t)
            + (tree.edges.capacity + tree.positions.capacity) * TABLE_SLOT_BYTES)


cdef inline Py_ssize_t grown_capacity(const Tree *tree, Py_ssize_t cap, Py_ssize_t need,
                                      size_t item) noexcept nogil:
    """A larger capacity of an array of ``cap`` items of ``item`` bytes that holds
    ``need`` items: double it, or less to stay within max_memory; 0 if none fits."""
    cdef size_t room, used = tree_bytes(tree)
    cdef Py_ssize_t grown = cap
    while grown < need:
        grown *= 2
    if used + (grown - cap) * item > tree.max_memory:
        room = (tree.max_memory - used) // item if used < tree.max_memory else 0
        grown = cap + <Py_ssize_t>room
        if grown < need:
            return 0
    return grown


cdef inline int32_t new_node(Tree *tree, const wts_state *state) noexcept nogil:
    """A node for ``state``, or -1 when the tree may not grow."""
    cdef Node *grown
    cdef Node *node
    cdef Py_ssize_t cap
    if tree.n_nodes == tree.cap_nodes:
        cap = grown_capacity(tree, tree.cap_nodes, tree.n_nodes + 1, sizeof(Node))
        if cap == 0 or cap > 0x7FFFFFFF:
            tree.full = True
            return -1
        grown = <Node *>wts_block_resize(tree.nodes, tree.cap_nodes * sizeof(Node),
                                         cap * sizeof(Node))
        if grown == NULL:
            tree.full = True
            return -1
        tree.nodes = grown
        tree.cap_nodes = cap
    node = &tree.nodes[tree.n_nodes]
    wts_copy(&node.state, state)
    node.visits = 0
    node.updates = 0
    node.value = 0.0
    node.n = 0
    node.unvisited[0] = node.unvisited[1] = 0
    node.stats = NOT_EXPANDED
    tree.n_nodes += 1
    return <int32_t>(tree.n_nodes - 1)


cdef inline bint expand(Tree *tree, int32_t index) noexcept nogil:
    """Give a node its statistics: player_stats arrays of n numbers for each player."""
    cdef Node *node = &tree.nodes[index]
    cdef int n = wts_popcount(wts_legal_moves(&node.state))
    cdef int64_t need = tree.n_stats + tree.node_stats * n, cap = tree.cap_stats
    cdef stat_t *grown
    if need > cap:
        cap = grown_capacity(tree, cap, need, sizeof(stat_t))
        if cap == 0:
            tree.full = True
            return False
        grown = <stat_t *>wts_block_resize(tree.stats, tree.cap_stats * sizeof(stat_t),
                                           cap * sizeof(stat_t))
        if grown == NULL:
            tree.full = True
            return False
        tree.stats = grown
        tree.cap_stats = cap
    memset(&tree.stats[tree.n_stats], 0, tree.node_stats * n * sizeof(stat_t))
    node.n = n
    node.unvisited[0] = node.unvisited[1] = n
    node.stats = tree.n_stats
    tree.n_stats = need
    if tree.use_prior:
        fill_prior(tree, node, &tree.stats[node.stats])
    return True


cdef inline void fill_prior(const Tree *tree, const Node *node, stat_t *block) noexcept nogil:
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
            factor = tree.prior_factors[f]
            rest = features[f]
            while wts_any(rest):
                weights[wts_lowest_bit(rest)] *= factor
                rest = wts_clear_lowest(rest)
        p = block + side * tree.player_stats * node.n + 4 * node.n
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


cdef inline bint grow_table(Tree *tree, Table *table) noexcept nogil:
    """Double ``table`` if max_memory and the system allow; otherwise the
    tree is full."""
    if (tree_bytes(tree) + table.capacity * TABLE_SLOT_BYTES > tree.max_memory
            or not table_grow(table)):
        tree.full = True
        return False
    return True


cdef inline bint room_for_node(Tree *tree) noexcept nogil:
    """Room in the edge table (and the position table) for one more node."""
    if tree.full:
        return False
    if not table_has_room(&tree.edges) and not grow_table(tree, &tree.edges):
        return False
    return (not tree.transpositions or table_has_room(&tree.positions)
            or grow_table(tree, &tree.positions))


# -- transpositions ---------------------------------------------------------
#
# With ``transpositions`` a joint move that leads to a position already in
# the tree links to its node: the tree becomes a graph, and the statistics
# of a position are shared by every path to it.

cdef inline int32_t find_position(const Tree *tree, const wts_state *state) noexcept nogil:
    """The node holding ``state``'s position, or -1."""
    cdef Py_ssize_t slot = table_find(&tree.positions, state.key)
    cdef int32_t index
    while tree.positions.values[slot] >= 0:
        index = tree.positions.values[slot]
        if (tree.positions.keys[slot] == state.key
                and same_position(&tree.nodes[index].state, state)):
            return index
        slot = table_next(&tree.positions, slot)
    return -1
