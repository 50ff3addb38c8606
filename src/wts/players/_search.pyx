# The C parts are inline functions in .pxd files, one a job (_search_tree, _search_select,
# _search_playouts, _search_reuse): cimported, they compile into this one C file, calls inlinable.
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
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset
from wts.engine._bits cimport wts_bit_square, wts_board, wts_select
from wts.engine._core cimport WTS_NUM_SQUARES, wts_legal_moves, wts_state
from wts.engine._game cimport GameCore
from wts.players._prior cimport NUM_FEATURES
from wts.players._search_playouts cimport PLAYOUT_CAPTURES, PLAYOUT_RANDOM, PLAYOUT_TACTICAL
from wts.players._search_reuse cimport reroot
from wts.players._search_select cimport POLICY_EXP3, POLICY_RM, POLICY_UCB, iterate
from wts.players._search_tree cimport (
    MAX_DEPTH, NOT_EXPANDED, Node, Step, Tree, edge_key, same_position, stat_t, table_find,
    tree_build, tree_bytes, tree_free,
)

from wts.errors import BusyError, ParameterError, ParameterTypeError
from wts.params import check_int, check_seed
from wts.players.search_options import SearchOptions

cdef enum:
    # Iterations run without the GIL between two looks at Ctrl-C and the stop
    # event: a few milliseconds.
    CHUNK = 256

# A search does at most this many iterations in all (its node counters are
# int64 and its statistics doubles, exact well beyond it).
MAX_ITERATIONS = 2**31 - 2

# SearchOptions names them (wts.players.search_options): their C codes.
cdef dict POLICY_CODES = {"rm": POLICY_RM, "exp3": POLICY_EXP3, "ucb": POLICY_UCB}
cdef dict PLAYOUT_CODES = {"random": PLAYOUT_RANDOM, "tactical": PLAYOUT_TACTICAL,
                           "captures": PLAYOUT_CAPTURES}


cdef class Search:
    """A simultaneous-move MCTS from one position; both players' statistics.

    ``Search(game, seed=0, options=None, *, max_memory=256 MiB, **options)``:
    the options are a :class:`wts.players.search_options.SearchOptions`, or its
    fields as keywords (``policy="ucb"``, ``exploration=None``,
    ``playout="tactical"``, ``expand_threshold=1``, ``transpositions=False``,
    ``prior=None``, ``prior_weight=None``), checked there. ``run(n)``
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

    cdef Tree tree
    cdef PyThread_type_lock busy  # held for the length of every call

    def __cinit__(self):
        memset(&self.tree, 0, sizeof(Tree))
        self.busy = PyThread_allocate_lock()
        if self.busy == NULL:
            raise MemoryError("cannot allocate a lock")

    cdef int _enter(self) except -1:
        """Take the search for one call, or raise BusyError or, before __init__
        has built the tree, RuntimeError."""
        if not PyThread_acquire_lock(self.busy, NOWAIT_LOCK):
            raise BusyError("this search is in use by another thread")
        if self.tree.nodes == NULL:
            PyThread_release_lock(self.busy)
            raise RuntimeError("this search has no tree: Search.__init__ has not run")
        return 0

    cdef void _leave(self) noexcept:
        PyThread_release_lock(self.busy)

    def __init__(self, GameCore game not None, seed=0, options=None, *,
                 max_memory=268435456, **keywords):
        cdef wts_state root
        cdef double weights[NUM_FEATURES]
        cdef const double *prior_weights = NULL
        cdef int f
        cdef bint built
        seed = check_seed(seed)
        max_memory = check_int(max_memory, "max_memory", 0, 2**62)
        if options is None:
            options = SearchOptions(**keywords)
        elif keywords:
            raise ParameterError(f"give the options as SearchOptions or as keywords, not both: "
                                 f"{', '.join(sorted(keywords))}")
        elif not isinstance(options, SearchOptions):
            raise ParameterTypeError(f"options must be a SearchOptions, not "
                                     f"{type(options).__name__}")
        if options.prior is not None:
            for f in range(NUM_FEATURES):
                weights[f] = options.prior[f]
            prior_weights = weights
        game.snapshot(&root)
        if not PyThread_acquire_lock(self.busy, NOWAIT_LOCK):
            raise BusyError("this search is in use by another thread")
        try:
            built = tree_build(&self.tree, &root, seed, POLICY_CODES[options.policy],
                               options.exploration, PLAYOUT_CODES[options.playout],
                               options.expand_threshold, max_memory, options.transpositions,
                               prior_weights, options.prior_weight)
        finally:
            PyThread_release_lock(self.busy)
        if not built:
            raise MemoryError("cannot allocate the search tree")

    def __dealloc__(self):
        tree_free(&self.tree)
        if self.busy != NULL:
            PyThread_free_lock(self.busy)

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
            goal = check_int(iterations, "iterations", 0, MAX_ITERATIONS - self.tree.n_iterations)
            if self.tree.nodes[0].stats == NOT_EXPANDED:  # the root position is over
                return 0
            path = <Step *>malloc(MAX_DEPTH * sizeof(Step))
            if path == NULL:
                raise MemoryError()
            try:
                while done < goal and not (stop is not None and stop.is_set()):
                    chunk = min(goal - done, <int64_t>CHUNK)
                    with nogil:
                        for _ in range(chunk):
                            iterate(&self.tree, path)
                    done += chunk
                    self.tree.n_iterations += chunk
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
            if self.tree.nodes[0].stats == NOT_EXPANDED:
                return False
            slot = table_find(&self.tree.edges, edge_key(0, b, w))
            if self.tree.edges.values[slot] < 0:
                return False
            with nogil:
                moved = reroot(&self.tree, self.tree.edges.values[slot])
            return moved
        finally:
            self._leave()

    def holds(self, GameCore game not None):
        """Whether the root is ``game``'s position: the same pieces, egg queue and turn."""
        cdef wts_state state
        game.snapshot(&state)
        self._enter()
        try:
            return (same_position(&self.tree.nodes[0].state, &state)
                    and self.tree.nodes[0].state.turn == state.turn)
        finally:
            self._leave()

    # -- reading the root -----------------------------------------------------------

    @property
    def iterations(self):
        """Iterations done so far (each one playout or a finished position reached)."""
        self._enter()
        try:
            return self.tree.n_iterations
        finally:
            self._leave()

    @property
    def nodes(self):
        """Nodes in the tree."""
        self._enter()
        try:
            return self.tree.n_nodes
        finally:
            self._leave()

    @property
    def edges(self):
        """Joint moves in the tree. With ``transpositions`` a node may be reached by
        several: ``edges - nodes + 1`` of them lead to a node another path met first."""
        self._enter()
        try:
            return self.tree.edges.size
        finally:
            self._leave()

    @property
    def expanded(self):
        """Nodes with statistics (expanded)."""
        cdef Py_ssize_t i, count = 0
        self._enter()
        try:
            for i in range(self.tree.n_nodes):
                count += self.tree.nodes[i].stats != NOT_EXPANDED
            return count
        finally:
            self._leave()

    @property
    def memory(self):
        """Bytes the tree holds."""
        self._enter()
        try:
            return tree_bytes(&self.tree)
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
            root = &self.tree.nodes[0]
            if root.stats == NOT_EXPANDED:
                return result
            array = &self.tree.stats[root.stats + (self.tree.player_stats * side + which) * root.n]
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
        cdef list sums = self._root_array(color, 3 if self.tree.policy == POLICY_UCB else 1)
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
