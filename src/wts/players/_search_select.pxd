"""One iteration of :mod:`wts.players._search`: each player's selection at
each node down the tree, a playout from the leaf, the result backed up.
Inline, so the search's loop compiles into one C file with it."""

from libc.math cimport exp, log, sqrt
from libc.stdint cimport int16_t, int32_t, int64_t, uint32_t, uint64_t
from wts.engine._bits cimport wts_bit_square, wts_board, wts_rng_below, wts_select
from wts.engine._core cimport (
    WTS_NUM_SQUARES, wts_copy, wts_is_over, wts_legal_moves, wts_resolve_turn, wts_state,
)
from wts.players._sampling cimport uniform
from wts.players._search_playouts cimport playout_from, result
from wts.players._search_tree cimport (
    MAX_DEPTH, NOT_EXPANDED, Node, Step, Tree, edge_key, expand, find_position, grow_table,
    new_node, room_for_node, stat_t, table_add, table_find, table_has_room,
)

cdef enum:
    POLICY_RM = 0
    POLICY_EXP3 = 1
    POLICY_UCB = 2

# Each player of an expanded node has player_stats arrays of n numbers, one
# entry per legal square (ascending), in this order: ``a``, ``s``, ``q`` the
# sum of the rewards, ``c`` the visits and, with a prior, ``p`` the
# prior. For "rm" and "exp3" ``a`` is the policy's own (regrets, cumulative
# reward estimates) and ``s`` the cumulative strategy; for "ucb" ``a`` the
# mean reward and ``s`` 1/sqrt(visits), kept by each update so that a
# selection is a multiply-add a square, not a division and a square root.


cdef inline int select(Tree *tree, stat_t *block, int n, int unvisited, int64_t visits,
                       double mean, double *prob) noexcept nogil:
    """One player's choice among ``n`` squares, ``unvisited`` of them never
    chosen, and the probability it had; ``mean`` is the player's mean reward
    at the node so far."""
    cdef stat_t *a = block
    cdef stat_t *s = block + n
    cdef stat_t *c = block + 3 * n
    cdef stat_t *prior = block + 4 * n
    cdef double gamma = tree.exploration, total = 0.0, x, acc = 0.0, p = 0.0, best, value
    cdef double top
    cdef double weights[WTS_NUM_SQUARES]
    cdef int i, k, chosen = -1
    if tree.policy == POLICY_UCB and tree.use_prior:
        # UCB1 and a prior term that fades with the square's visits (as in
        # PUCT); an unvisited square counts as one visit of the mean reward, so
        # the prior orders the squares the search tries first.
        prob[0] = 1.0
        x = gamma * sqrt(log(<double>visits))
        top = tree.prior_weight * sqrt(<double>visits)
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
    if tree.policy == POLICY_UCB:
        # Decoupled UCT: UCB1 on each player's own statistics; unvisited squares
        # first, one of them uniformly at random.
        prob[0] = 1.0
        if unvisited:
            k = <int>wts_rng_below(&tree.rng, <uint32_t>unvisited)
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
    if tree.policy == POLICY_EXP3:
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
    x = uniform(&tree.rng)
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


cdef inline void update(const Tree *tree, stat_t *block, int n, int16_t *unvisited,
                        int chosen, double prob, double reward, double baseline) noexcept nogil:
    """Learn the ``reward`` (in [0, 1]) of ``chosen``, counted off ``unvisited``
    at its first visit; ``baseline`` is the player's mean reward at the node
    before it."""
    cdef stat_t *a = block
    cdef stat_t *s = block + n
    cdef stat_t *q = block + 2 * n
    cdef stat_t *c = block + 3 * n
    cdef double centred = reward - baseline
    cdef int i
    q[chosen] += reward
    if c[chosen] == 0.0:
        unvisited[0] -= 1
    c[chosen] += 1.0
    if tree.policy == POLICY_UCB:
        a[chosen] = q[chosen] / c[chosen]
        s[chosen] = <stat_t>(1.0 / sqrt(c[chosen]))
    elif tree.policy == POLICY_RM:
        # Sampled regrets: the importance-weighted reward of the chosen square
        # against the reward obtained, both measured from the baseline (the
        # same expectation, far less variance).
        for i in range(n):
            a[i] -= centred
        a[chosen] += centred / prob
    elif tree.policy == POLICY_EXP3:
        a[chosen] += centred / prob


cdef inline void iterate(Tree *tree, Step *path) noexcept nogil:
    """One iteration from the root; ``path`` has room for MAX_DEPTH steps."""
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
        node = &tree.nodes[index]
        node.visits += 1
        if wts_is_over(&node.state):
            value = result(&node.state)
            break
        if depth >= MAX_DEPTH:  # the path is full: play out from here
            value = playout_from(&node.state, tree.playout, &tree.rng)
            break
        if node.stats == NOT_EXPANDED:
            if (node.visits <= tree.expand_threshold or tree.full
                    or not expand(tree, index)):
                value = playout_from(&node.state, tree.playout, &tree.rng)
                break
            node = &tree.nodes[index]
        st = &tree.stats[node.stats]
        baseline = node.value / node.updates if node.updates else 0.5
        black = select(tree, st, node.n, node.unvisited[0], node.visits, baseline, &black_prob)
        white = select(tree, st + tree.player_stats * node.n, node.n, node.unvisited[1],
                       node.visits, 1.0 - baseline, &white_prob)
        path[depth].node = index
        path[depth].black = black
        path[depth].white = white
        path[depth].black_prob = black_prob
        path[depth].white_prob = white_prob
        depth += 1
        legal = wts_legal_moves(&node.state)
        black_square = wts_bit_square(wts_select(legal, black))
        white_square = wts_bit_square(wts_select(legal, white))
        key = edge_key(index, black_square, white_square)
        slot = table_find(&tree.edges, key)
        if tree.edges.values[slot] >= 0:
            index = tree.edges.values[slot]
            continue
        wts_copy(&next_state, &node.state)
        wts_resolve_turn(&next_state, black_square, white_square, NULL)
        if tree.transpositions:
            child = find_position(tree, &next_state)
            if child >= 0:  # a position met by another path: go on from its node
                if not tree.full and (table_has_room(&tree.edges)
                                      or grow_table(tree, &tree.edges)):
                    table_add(&tree.edges, key, child)
                index = child
                continue
        # A new joint move: a new leaf, played out once.
        child = new_node(tree, &next_state) if room_for_node(tree) else -1
        if child >= 0:
            table_add(&tree.edges, key, child)
            if tree.transpositions:
                table_add(&tree.positions, next_state.key, child)
            tree.nodes[child].visits = 1
        if wts_is_over(&next_state):
            value = result(&next_state)
        else:
            value = playout_from(&next_state, tree.playout, &tree.rng)
        break
    for i in range(depth - 1, -1, -1):
        node = &tree.nodes[path[i].node]
        st = &tree.stats[node.stats]
        baseline = node.value / node.updates if node.updates else 0.5
        node.value += value
        node.updates += 1
        update(tree, st, node.n, &node.unvisited[0], path[i].black, path[i].black_prob,
               value, baseline)
        update(tree, st + tree.player_stats * node.n, node.n, &node.unvisited[1],
               path[i].white, path[i].white_prob, 1.0 - value, 1.0 - baseline)
