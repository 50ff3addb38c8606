"""The network player's search: a simultaneous-move MCTS with PUCT priors
from a policy network and leaf values from its value head, whose leaves are
evaluated in batches.

One iteration descends from the root, each player choosing its own square
at each node by PUCT over its own statistics (decoupled selection), until
it meets a joint move not yet in the tree: the position it reaches is a
leaf. A finished game's result is backed up at once; any other leaf waits
for the network. ``collect(n)`` runs up to ``n`` descents without the GIL
and writes the leaves' planes into one array; the caller evaluates the
whole batch (:class:`wts.network.Network`) and hands the priors and values
to ``apply``, which expands the leaves and backs the values up every path
that reached them. Between the two a visit is counted on each path at once
(a virtual loss: the square looks visited and unrewarded), so that one
batch spreads over several leaves; a leaf reached twice in one batch is
evaluated once and backed up twice.

Everything here is C but the two calls' argument checks; nothing depends
on time or threads, so a seed's search repeats exactly.
"""

from cpython.pythread cimport (
    NOWAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_free_lock,
    PyThread_release_lock, PyThread_type_lock,
)
from libc.math cimport sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset
from wts.engine._bits cimport (
    wts_any, wts_bit_square, wts_board, wts_clear_lowest, wts_lowest_bit, wts_rng, wts_rng_seed,
)
from wts.engine._core cimport (
    WTS_NUM_SQUARES, wts_copy, wts_is_over, wts_legal_moves, wts_resolve_turn, wts_state,
)
from wts.engine._game cimport GameCore
from wts.engine._planes cimport NET_PLANES, network_planes
from wts.players._search_playouts cimport PLAYOUT_TACTICAL, playout_from, result
from wts.players._search_tree cimport (
    MIN_TABLE, Table, edge_key, table_find, table_free, table_grow, table_has_room, table_init,
)

from wts.errors import BusyError, ParameterError
from wts.params import check_float, check_int, check_seed

cdef enum:
    MAX_DEPTH = 512        # a path this long is cut: its last node's value is backed up
    UNEVALUATED = -1       # a node the network has not seen (stats)
    TERMINAL = -2          # a finished game's node (stats)

#: The most leaves one batch may hold.
MAX_BATCH = 4096

ctypedef struct AZNode:
    wts_state state
    int64_t visits          # descents through the node, virtual ones included
    double value            # black's rewards backed up through it
    int64_t stats           # offset of its 6 * n numbers, UNEVALUATED or TERMINAL
    float net_value         # the network's value for black (the result, when finished)
    int32_t n               # legal squares
    uint8_t squares[WTS_NUM_SQUARES]
    uint8_t uniform         # expanded with uniform priors, waiting for the network's

# A node's numbers, for player p (0 black, 1 white) and legal square i:
# prior at 6n*0 + ..., laid out as [p][field][i], field 0 prior, 1 visits, 2 reward sum.
cdef inline double *field(double *stats, int32_t n, int p, int f) noexcept nogil:
    return stats + (3 * p + f) * n

ctypedef struct Step:
    int32_t node
    int32_t black       # each player's index among the node's n squares
    int32_t white


ctypedef struct AZTree:
    AZNode *nodes
    Py_ssize_t n_nodes, cap_nodes
    double *stats
    int64_t n_stats, cap_stats
    Table edges
    size_t max_memory
    bint full
    double c_puct, fpu, mix
    int64_t expand_at       # 0: every leaf waits for the network; else see descend
    wts_rng rng
    int64_t evaluations, iterations
    # The batch being collected: its paths and the distinct leaves they end in.
    int batch_cap, n_paths, n_leaves
    int want              # the leaves this collect may write
    Step *paths           # batch_cap * MAX_DEPTH
    int32_t *path_length
    int32_t *path_leaf    # the node each path ends in
    int32_t *leaves       # the distinct nodes waiting for the network
    uint8_t *waiting      # per node: in leaves already (grown with the nodes)


cdef inline size_t tree_bytes(const AZTree *t) noexcept nogil:
    return (t.cap_nodes * (sizeof(AZNode) + 1) + t.cap_stats * sizeof(double)
            + t.edges.capacity * 12)


cdef inline int32_t add_node(AZTree *t, const wts_state *state) noexcept nogil:
    """A node for ``state``, or -1 when the tree may not grow."""
    cdef Py_ssize_t cap
    cdef AZNode *nodes
    cdef uint8_t *waiting
    cdef AZNode *node
    cdef wts_board legal
    if t.n_nodes == t.cap_nodes:
        cap = 2 * t.cap_nodes
        if tree_bytes(t) + (cap - t.cap_nodes) * (sizeof(AZNode) + 1) > t.max_memory:
            t.full = True
            return -1
        nodes = <AZNode *>realloc(t.nodes, cap * sizeof(AZNode))
        if nodes == NULL:
            t.full = True
            return -1
        t.nodes = nodes
        waiting = <uint8_t *>realloc(t.waiting, cap)
        if waiting == NULL:
            t.full = True
            return -1
        t.waiting = waiting
        t.cap_nodes = cap
    node = &t.nodes[t.n_nodes]
    wts_copy(&node.state, state)
    node.visits = 0
    node.value = 0.0
    node.n = 0
    node.uniform = 0
    if wts_is_over(state):
        node.stats = TERMINAL
        node.net_value = <float>result(state)
    else:
        node.stats = UNEVALUATED
        node.net_value = 0.5
        legal = wts_legal_moves(state)
        while wts_any(legal):
            node.squares[node.n] = <uint8_t>wts_bit_square(wts_lowest_bit(legal))
            node.n += 1
            legal = wts_clear_lowest(legal)
    t.waiting[t.n_nodes] = 0
    t.n_nodes += 1
    return <int32_t>(t.n_nodes - 1)


cdef inline bint room_for_stats(AZTree *t, int64_t need) noexcept nogil:
    cdef int64_t cap = t.cap_stats
    cdef double *grown
    if t.n_stats + need <= cap:
        return True
    while cap < t.n_stats + need:
        cap *= 2
    if tree_bytes(t) + (cap - t.cap_stats) * sizeof(double) > t.max_memory:
        return False
    grown = <double *>realloc(t.stats, cap * sizeof(double))
    if grown == NULL:
        return False
    t.stats = grown
    t.cap_stats = cap
    return True


cdef inline double mean_for(const AZNode *node, int p) noexcept nogil:
    """The node's mean reward for player ``p`` so far (its network value before any)."""
    cdef double black
    if node.visits > 0 and node.stats >= 0:
        black = node.value / node.visits
    else:
        black = node.net_value
    return black if p == 0 else 1.0 - black


cdef inline int32_t puct(const AZTree *t, AZNode *node, int p) noexcept nogil:
    """Player ``p``'s square index at ``node``: the largest Q + c P sqrt(N) / (1 + n),
    an unvisited square's Q the node's mean for p less ``fpu``; ties to the lower index."""
    cdef double *stats = t.stats + node.stats
    cdef double *prior = field(stats, node.n, p, 0)
    cdef double *visits = field(stats, node.n, p, 1)
    cdef double *reward = field(stats, node.n, p, 2)
    cdef double root_n = sqrt(<double>(node.visits if node.visits > 0 else 1))
    cdef double first = mean_for(node, p) - t.fpu
    cdef double q, score, best = -1e300
    cdef int32_t i, chosen = 0
    for i in range(node.n):
        q = reward[i] / visits[i] if visits[i] > 0 else first
        score = q + t.c_puct * prior[i] * root_n / (1.0 + visits[i])
        if score > best:
            best = score
            chosen = i
    return chosen


cdef inline int32_t child_of(AZTree *t, int32_t parent, int black_sq, int white_sq) noexcept nogil:
    """The child reached by the joint move, made if new; -1 when the tree is full."""
    cdef uint64_t key = edge_key(parent, black_sq, white_sq)
    cdef Py_ssize_t slot = table_find(&t.edges, key)
    cdef int32_t child
    cdef wts_state next_state
    if t.edges.values[slot] >= 0:
        return t.edges.values[slot]
    if not table_has_room(&t.edges):
        if tree_bytes(t) + t.edges.capacity * 12 > t.max_memory or not table_grow(&t.edges):
            t.full = True
            return -1
        slot = table_find(&t.edges, key)
    wts_copy(&next_state, &t.nodes[parent].state)
    wts_resolve_turn(&next_state, black_sq, white_sq, NULL)
    child = add_node(t, &next_state)
    if child < 0:
        return -1
    t.edges.keys[slot] = key
    t.edges.values[slot] = child
    t.edges.size += 1
    return child


cdef inline void back_up(AZTree *t, int path, double black_reward, bint counted) noexcept nogil:
    """Add ``black_reward`` along path ``path`` and to its leaf; its visits are
    counted already (the virtual loss) when ``counted``."""
    cdef AZNode *node
    back_up_steps(t, path, black_reward, counted)
    node = &t.nodes[t.path_leaf[path]]
    node.visits += 1
    node.value += black_reward


cdef inline void back_up_steps(AZTree *t, int path, double black_reward,
                               bint counted) noexcept nogil:
    """``back_up`` but for the leaf."""
    cdef Step *steps = t.paths + path * MAX_DEPTH
    cdef int k
    cdef AZNode *node
    cdef double *stats
    for k in range(t.path_length[path]):
        node = &t.nodes[steps[k].node]
        stats = t.stats + node.stats
        if not counted:
            node.visits += 1
            field(stats, node.n, 0, 1)[steps[k].black] += 1
            field(stats, node.n, 1, 1)[steps[k].white] += 1
        node.value += black_reward
        field(stats, node.n, 0, 2)[steps[k].black] += black_reward
        field(stats, node.n, 1, 2)[steps[k].white] += 1.0 - black_reward


cdef inline bint expand_uniform(AZTree *t, AZNode *node) noexcept nogil:
    """Gives ``node`` statistics with uniform priors, for the network's to
    replace later; False when the tree has no room for them."""
    cdef int64_t need = 6 * node.n
    cdef double *stats
    cdef int p, j
    if not room_for_stats(t, need):
        t.full = True
        return False
    node.stats = t.n_stats
    t.n_stats += need
    stats = t.stats + node.stats
    memset(stats, 0, need * sizeof(double))
    for p in range(2):
        for j in range(node.n):
            field(stats, node.n, p, 0)[j] = 1.0 / node.n
    node.uniform = 1
    return True


cdef inline int play_out_leaf(AZTree *t, int path, int32_t leaf) noexcept nogil:
    """With ``expand_at``: a leaf is played out at once (a tactical playout,
    no network), and expanded with uniform priors from its second visit on;
    the descent is backed up now. Returns 0."""
    cdef AZNode *node = &t.nodes[leaf]
    cdef double value = playout_from(&node.state, PLAYOUT_TACTICAL, &t.rng)
    if node.stats == UNEVALUATED and node.visits >= 1:
        expand_uniform(t, node)  # a full tree leaves it a leaf: the search goes on
    back_up(t, path, value, True)
    return 0


cdef inline int play_out_past(AZTree *t, int path, int depth, int32_t current, int32_t ib,
                              int32_t iw) noexcept nogil:
    """A full tree with ``expand_at``: the joint move chosen at ``current``
    has no node and gets none; it is played and played out from there, and
    the descent backed up through ``current``. Returns 0."""
    cdef Step *steps = t.paths + path * MAX_DEPTH
    cdef AZNode *node = &t.nodes[current]
    cdef double *stats = t.stats + node.stats
    cdef wts_state next_state
    cdef double value
    node.visits += 1
    field(stats, node.n, 0, 1)[ib] += 1
    field(stats, node.n, 1, 1)[iw] += 1
    steps[depth].node = current
    steps[depth].black = ib
    steps[depth].white = iw
    wts_copy(&next_state, &node.state)
    wts_resolve_turn(&next_state, node.squares[ib], node.squares[iw], NULL)
    value = (result(&next_state) if wts_is_over(&next_state)
             else playout_from(&next_state, PLAYOUT_TACTICAL, &t.rng))
    t.path_length[path] = depth + 1
    t.iterations += 1
    back_up_steps(t, path, value, True)
    return 0


cdef inline void ask_network(AZTree *t, int32_t current) noexcept nogil:
    """Queues a node expanded with uniform priors, once visited ``expand_at``
    times, for the network's priors (if the batch has room)."""
    if t.n_leaves < t.want and not t.waiting[current]:
        t.waiting[current] = 1
        t.leaves[t.n_leaves] = current
        t.n_leaves += 1


cdef inline int descend(AZTree *t) noexcept nogil:
    """One descent into the batch's next path slot: 1 if it ended in a leaf
    for the network (kept), 0 if it was backed up at once (a finished game,
    the depth cut), -1 if the tree could not grow (nothing kept)."""
    cdef int path = t.n_paths
    cdef Step *steps = t.paths + path * MAX_DEPTH
    cdef int32_t current = 0, child, ib, iw
    cdef int depth = 0, k
    cdef AZNode *node
    cdef double *stats
    while True:
        node = &t.nodes[current]
        if node.stats == TERMINAL or node.stats == UNEVALUATED or depth == MAX_DEPTH:
            break
        if node.uniform and node.visits >= t.expand_at:
            ask_network(t, current)
        ib = puct(t, node, 0)
        iw = puct(t, node, 1)
        child = child_of(t, current, node.squares[ib], node.squares[iw])
        if child < 0 and t.expand_at > 0:
            return play_out_past(t, path, depth, current, ib, iw)
        if child < 0:
            # Undo the virtual visits of this path: the tree stays as it was.
            for k in range(depth):
                node = &t.nodes[steps[k].node]
                stats = t.stats + node.stats
                node.visits -= 1
                field(stats, node.n, 0, 1)[steps[k].black] -= 1
                field(stats, node.n, 1, 1)[steps[k].white] -= 1
            return -1
        node = &t.nodes[current]  # the nodes may have moved
        stats = t.stats + node.stats
        node.visits += 1
        field(stats, node.n, 0, 1)[ib] += 1
        field(stats, node.n, 1, 1)[iw] += 1
        steps[depth].node = current
        steps[depth].black = ib
        steps[depth].white = iw
        depth += 1
        current = child
    t.path_length[path] = depth
    t.path_leaf[path] = current
    t.iterations += 1
    node = &t.nodes[current]
    if node.stats == UNEVALUATED and t.expand_at > 0 and current != 0:
        return play_out_leaf(t, path, current)
    if node.stats == UNEVALUATED:
        t.n_paths += 1
        if not t.waiting[current]:
            t.waiting[current] = 1
            t.leaves[t.n_leaves] = current
            t.n_leaves += 1
        return 1
    # A finished game, or the depth cut at a node already evaluated.
    back_up(t, path, node.net_value if node.stats == TERMINAL else mean_for(node, 0), True)
    return 0


cdef class AZSearch:
    """The tree of one position's search with a network's leaves in batches.

    ``AZSearch(game, seed=0, *, c_puct=1.0, fpu=0.0, mix=0.0, expand_at=0,
    max_memory=256 MiB)``: ``c_puct`` the weight of the priors, ``fpu`` how
    far below the node's mean an unvisited square starts, ``mix`` the share
    of a tactical playout's result in a leaf's value (0: the value head
    alone). With ``expand_at`` N > 0 the network sees only the nodes that
    matter: every leaf past the root is played out at once (a tactical
    playout, no network) and, from its second visit, expanded with uniform
    priors; a node visited N times is sent to the network, whose priors then
    replace the uniform ones. ``collect`` then runs its descents whether or
    not they find such nodes, and returns 0 leaves with the descents done
    (``iterations`` grew) when none was found.

    ``planes = numpy.empty((batch, 81, 11), numpy.float32)``; then, until
    done: ``k = search.collect(planes, legal)`` (``legal`` (batch, 81)
    uint8) writes ``k`` leaves, evaluate them, and ``search.apply(black,
    white, values)`` with the first ``k`` rows. ``collect`` returns 0 when
    no descent found a leaf (a solved tree, or a full one).
    """

    cdef AZTree t
    cdef PyThread_type_lock busy
    cdef bint pending     # collected, not applied
    cdef bint stuck       # a batch found no room: no descent can go on

    def __cinit__(self):
        memset(&self.t, 0, sizeof(AZTree))
        self.busy = PyThread_allocate_lock()
        if self.busy == NULL:
            raise MemoryError("cannot allocate a lock")

    def __dealloc__(self):
        self._free()
        if self.busy != NULL:
            PyThread_free_lock(self.busy)

    cdef void _free(self) noexcept:
        free(self.t.nodes)
        free(self.t.stats)
        free(self.t.waiting)
        free(self.t.paths)
        free(self.t.path_length)
        free(self.t.path_leaf)
        free(self.t.leaves)
        table_free(&self.t.edges)
        self.t.nodes = NULL
        self.t.stats = NULL
        self.t.waiting = NULL
        self.t.paths = NULL
        self.t.path_length = self.t.path_leaf = self.t.leaves = NULL
        self.t.batch_cap = 0

    cdef int _enter(self) except -1:
        if not PyThread_acquire_lock(self.busy, NOWAIT_LOCK):
            raise BusyError("this search is in use by another thread")
        if self.t.nodes == NULL:
            PyThread_release_lock(self.busy)
            raise RuntimeError("this search has no tree: AZSearch.__init__ has not run")
        return 0

    def __init__(self, GameCore game not None, seed=0, *, c_puct=1.0, fpu=0.0, mix=0.0,
                 expand_at=0, max_memory=268435456):
        cdef wts_state root
        seed = check_seed(seed)
        c_puct = check_float(c_puct, "c_puct", 0.0, 1e6)
        fpu = check_float(fpu, "fpu", -1.0, 1.0)
        mix = check_float(mix, "mix", 0.0, 1.0)
        expand_at = check_int(expand_at, "expand_at", 0, 2**31)
        max_memory = check_int(max_memory, "max_memory", 0, 2**62)
        game.snapshot(&root)
        if wts_is_over(&root):
            raise ParameterError("the game is over: there is nothing to search")
        if not PyThread_acquire_lock(self.busy, NOWAIT_LOCK):
            raise BusyError("this search is in use by another thread")
        try:
            self._free()
            self.t.c_puct, self.t.fpu, self.t.mix = c_puct, fpu, mix
            self.t.expand_at = expand_at
            self.t.max_memory = max_memory
            self.t.full = False
            self.t.evaluations = self.t.iterations = 0
            self.pending = self.stuck = False
            wts_rng_seed(&self.t.rng, seed)
            self.t.cap_nodes = 64
            self.t.nodes = <AZNode *>malloc(self.t.cap_nodes * sizeof(AZNode))
            self.t.waiting = <uint8_t *>malloc(self.t.cap_nodes)
            self.t.cap_stats = 6 * WTS_NUM_SQUARES * 8
            self.t.stats = <double *>malloc(self.t.cap_stats * sizeof(double))
            self.t.n_nodes = self.t.n_stats = 0
            if (self.t.nodes == NULL or self.t.waiting == NULL or self.t.stats == NULL
                    or not table_init(&self.t.edges, MIN_TABLE)):
                self._free()
                raise MemoryError("no memory for a search tree")
            add_node(&self.t, &root)
        finally:
            PyThread_release_lock(self.busy)

    cdef int _batch(self, int cap) except -1:
        """Room for a batch of ``cap`` paths."""
        if cap <= self.t.batch_cap:
            return 0
        free(self.t.paths)
        free(self.t.path_length)
        free(self.t.path_leaf)
        free(self.t.leaves)
        self.t.paths = <Step *>malloc(<size_t>cap * MAX_DEPTH * sizeof(Step))
        self.t.path_length = <int32_t *>malloc(cap * sizeof(int32_t))
        self.t.path_leaf = <int32_t *>malloc(cap * sizeof(int32_t))
        self.t.leaves = <int32_t *>malloc(cap * sizeof(int32_t))
        if (self.t.paths == NULL or self.t.path_length == NULL or self.t.path_leaf == NULL
                or self.t.leaves == NULL):
            self.t.batch_cap = 0
            raise MemoryError("no memory for a batch of leaves")
        self.t.batch_cap = cap
        return 0

    def collect(self, float[:, :, ::1] planes not None, uint8_t[:, ::1] legal not None,
                int descents=0):
        """Descend until ``len(planes)`` leaves wait for the network, or
        ``descents`` descents (default 4 a leaf) are done, or the tree is
        full; write the leaves' planes and legal squares. Returns how many."""
        cdef int cap = planes.shape[0], tries, i, sq, got
        cdef int32_t leaf
        cdef AZNode *node
        if not 1 <= cap <= MAX_BATCH:
            raise ParameterError(f"a batch holds 1 to {MAX_BATCH} leaves, not {cap}")
        if planes.shape[1] != WTS_NUM_SQUARES or planes.shape[2] != NET_PLANES:
            raise ParameterError(f"planes must have shape (batch, 81, {NET_PLANES})")
        if legal.shape[0] != cap or legal.shape[1] != WTS_NUM_SQUARES:
            raise ParameterError(f"legal must have shape ({cap}, 81)")
        tries = 4 * cap if descents <= 0 else descents
        self._enter()
        try:
            if self.t.expand_at > 0 and self.t.nodes[0].stats == UNEVALUATED:
                tries = 1  # every other descent needs the root's priors: it goes alone
            if self.pending:
                raise ParameterError("collect called twice: apply the batch it collected first")
            self._batch(cap)
            self.t.n_paths = self.t.n_leaves = 0
            self.t.want = cap
            if self.stuck:
                return 0
            with nogil:
                while tries > 0 and self.t.n_leaves < cap and self.t.n_paths < cap:
                    tries -= 1
                    got = descend(&self.t)
                    if got < 0:
                        break
                for i in range(self.t.n_leaves):
                    leaf = self.t.leaves[i]
                    node = &self.t.nodes[leaf]
                    network_planes(&node.state, &planes[i, 0, 0])
                    memset(&legal[i, 0], 0, WTS_NUM_SQUARES)
                    for sq in range(node.n):
                        legal[i, node.squares[sq]] = 1
            self.pending = self.t.n_paths > 0 or self.t.n_leaves > 0
            return self.t.n_leaves
        finally:
            PyThread_release_lock(self.busy)

    def apply(self, const float[:, ::1] black not None, const float[:, ::1] white not None,
              const float[::1] values not None):
        """Expand the leaves ``collect`` wrote with the network's priors (over
        the 81 squares; renormalised over the legal ones) and values (black's
        expected result), and back them up. Returns how many were expanded:
        0 when the tree has no room for them (the batch is dropped, and
        ``collect`` finds nothing more)."""
        cdef int k = self.t.n_leaves, i, j, p
        cdef int32_t leaf
        cdef AZNode *node
        cdef double *stats
        cdef double total, value
        cdef const float *prior
        cdef double *grown
        self._enter()
        try:
            if not self.pending:
                raise ParameterError("apply without a batch: call collect first")
            if (black.shape[0] < k or white.shape[0] < k or values.shape[0] < k
                    or black.shape[1] != WTS_NUM_SQUARES or white.shape[1] != WTS_NUM_SQUARES):
                raise ParameterError(f"apply needs {k} rows of 81 priors a player and {k} values")
            for i in range(k):
                if not 0.0 <= values[i] <= 1.0:
                    raise ParameterError(f"value {i} is {values[i]!r}: values are from 0 to 1")
            # Room for every leaf's numbers first, so that a full tree changes nothing
            # (a node expanded with uniform priors has its numbers already).
            total = 0
            for i in range(k):
                if not self.t.nodes[self.t.leaves[i]].uniform:
                    total += 6 * self.t.nodes[self.t.leaves[i]].n
            # The root's always fit; growth is what max_memory bounds.
            if self.t.n_stats > 0 and not room_for_stats(&self.t, <int64_t>total):
                self.t.full = self.stuck = True
                self._cancel()
                return 0
            if self.t.n_stats + total > self.t.cap_stats:
                self.t.cap_stats = <int64_t>(self.t.n_stats + total)
                grown = <double *>realloc(self.t.stats, self.t.cap_stats * sizeof(double))
                if grown == NULL:
                    raise MemoryError("no memory for the root's statistics")
                self.t.stats = grown
            with nogil:
                for i in range(k):
                    leaf = self.t.leaves[i]
                    node = &self.t.nodes[leaf]
                    if not node.uniform:
                        node.stats = self.t.n_stats
                        self.t.n_stats += 6 * node.n
                        stats = self.t.stats + node.stats
                        memset(stats, 0, 6 * node.n * sizeof(double))
                    stats = self.t.stats + node.stats
                    for p in range(2):
                        prior = &black[i, 0] if p == 0 else &white[i, 0]
                        total = 0
                        for j in range(node.n):
                            value = prior[node.squares[j]]
                            if not value > 0:  # NaN and negatives count as nothing
                                value = 0
                            field(stats, node.n, p, 0)[j] = value
                            total += value
                        for j in range(node.n):
                            if total > 0:
                                field(stats, node.n, p, 0)[j] /= total
                            else:
                                field(stats, node.n, p, 0)[j] = 1.0 / node.n
                    value = values[i]
                    if self.t.mix > 0 and not node.uniform:  # a visited node's value is its own
                        value = ((1 - self.t.mix) * value
                                 + self.t.mix * playout_from(&node.state, PLAYOUT_TACTICAL,
                                                             &self.t.rng))
                    node.net_value = <float>value
                    node.uniform = 0  # its priors are the network's now
                    self.t.waiting[leaf] = 0
                self.t.evaluations += k
                for i in range(self.t.n_paths):
                    node = &self.t.nodes[self.t.path_leaf[i]]
                    back_up(&self.t, i, node.net_value, True)
            self.pending = False
            return k
        finally:
            PyThread_release_lock(self.busy)

    cdef void _cancel(self) noexcept:
        """Undo the collected batch's virtual visits."""
        cdef int i, k
        cdef Step *steps
        cdef AZNode *node
        cdef double *stats
        for i in range(self.t.n_paths):
            steps = self.t.paths + i * MAX_DEPTH
            for k in range(self.t.path_length[i]):
                node = &self.t.nodes[steps[k].node]
                stats = self.t.stats + node.stats
                node.visits -= 1
                field(stats, node.n, 0, 1)[steps[k].black] -= 1
                field(stats, node.n, 1, 1)[steps[k].white] -= 1
            self.t.iterations -= 1
        for i in range(self.t.n_leaves):
            self.t.waiting[self.t.leaves[i]] = 0
        self.t.n_paths = self.t.n_leaves = 0
        self.pending = False

    def cancel(self):
        """Drop a collected batch (an evaluation that failed): the tree is as
        before it, but for the descents ``expand_at`` backed up at once."""
        self._enter()
        try:
            if self.pending:
                self._cancel()
        finally:
            PyThread_release_lock(self.busy)

    def add_root_noise(self, const double[::1] black not None, const double[::1] white not None,
                       double share):
        """Mix ``share`` of the noise (81 a player, over the squares) into the
        root's priors, as self-play does to explore (once the root is evaluated)."""
        cdef AZNode *root
        cdef double *stats
        cdef int p, j
        cdef double total, drawn
        cdef const double[::1] noise
        share = check_float(share, "share", 0.0, 1.0)
        if black.shape[0] != WTS_NUM_SQUARES or white.shape[0] != WTS_NUM_SQUARES:
            raise ParameterError("noise has 81 values a player")
        self._enter()
        try:
            root = &self.t.nodes[0]
            if root.stats < 0:
                raise ParameterError("the root is not evaluated yet")
            stats = self.t.stats + root.stats
            for p in range(2):
                noise = black if p == 0 else white
                total = 0
                for j in range(root.n):
                    total += max(noise[root.squares[j]], 0.0)
                for j in range(root.n):
                    drawn = (max(noise[root.squares[j]], 0.0) / total if total > 0
                             else 1.0 / root.n)
                    field(stats, root.n, p, 0)[j] = (
                        (1 - share) * field(stats, root.n, p, 0)[j] + share * drawn)
        finally:
            PyThread_release_lock(self.busy)

    def root(self, int player):
        """Player ``player``'s (0 black, 1 white) root statistics over the 81
        squares: visits, mean rewards (None where unvisited) and priors."""
        cdef AZNode *node
        cdef double *stats
        cdef int j
        if player not in (0, 1):
            raise ParameterError(f"player is 0 (black) or 1 (white), not {player!r}")
        self._enter()
        try:
            visits = [0] * WTS_NUM_SQUARES
            values = [None] * WTS_NUM_SQUARES
            priors = [0.0] * WTS_NUM_SQUARES
            node = &self.t.nodes[0]
            if node.stats >= 0:
                stats = self.t.stats + node.stats
                for j in range(node.n):
                    n = field(stats, node.n, player, 1)[j]
                    visits[node.squares[j]] = int(n)
                    if n > 0:
                        values[node.squares[j]] = field(stats, node.n, player, 2)[j] / n
                    priors[node.squares[j]] = field(stats, node.n, player, 0)[j]
            return visits, values, priors
        finally:
            PyThread_release_lock(self.busy)

    @property
    def root_value(self):
        """Black's mean reward at the root (its network value before any descent)."""
        self._enter()
        try:
            return mean_for(&self.t.nodes[0], 0)
        finally:
            PyThread_release_lock(self.busy)

    @property
    def iterations(self):
        """Descents backed up so far (a batch's count once applied)."""
        return self.t.iterations - (self.t.n_paths if self.pending else 0)

    @property
    def evaluations(self):
        """Positions the network evaluated for this tree."""
        return self.t.evaluations

    @property
    def nodes(self):
        return self.t.n_nodes

    @property
    def full(self):
        """Whether the tree reached ``max_memory`` and stopped growing."""
        return bool(self.t.full)

    @property
    def memory(self):
        """Bytes the tree holds."""
        return tree_bytes(&self.t) + <size_t>self.t.batch_cap * (
            MAX_DEPTH * sizeof(Step) + 3 * sizeof(int32_t))
