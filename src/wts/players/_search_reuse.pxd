"""Tree reuse for :mod:`wts.players._search`: the root moved on by a turn,
keeping the subtree below it and dropping the rest."""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from wts.engine._core cimport WTS_NUM_SQUARES, wts_is_over
from wts.players._search_tree cimport (
    NOT_EXPANDED, Node, Table, Tree, expand, stat_t, table_add, table_capacity, table_free,
    table_init, tree_free, wts_block_alloc, wts_block_free,
)


cdef inline bint reroot(Tree *tree, int32_t top) noexcept nogil:
    """Keep only node ``top`` and what lies below it, ``top`` as the root
    (renumbered from 0 in breadth-first order). False, the tree as it was,
    when memory runs out."""
    cdef Py_ssize_t n = tree.n_nodes, i, e, slot, count = 1, head = 0, kept_edges = 0
    cdef Py_ssize_t cap_nodes
    cdef int64_t n_stats = 0, block, cap_stats
    cdef int32_t parent, child, old
    cdef uint64_t key
    # The edges of each node, grouped by parent: first[p] .. first[p + 1] in edge_slot.
    cdef int32_t *first = <int32_t *>malloc((n + 1) * sizeof(int32_t))
    cdef int32_t *cursor = <int32_t *>malloc((n + 1) * sizeof(int32_t))
    cdef Py_ssize_t *edge_slot = <Py_ssize_t *>malloc(
        (tree.edges.size + 1) * sizeof(Py_ssize_t))
    cdef int32_t *renumber = <int32_t *>malloc(n * sizeof(int32_t))  # old index -> new
    cdef int32_t *order = <int32_t *>malloc(n * sizeof(int32_t))     # new index -> old
    cdef Node *nodes = NULL
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
    for slot in range(tree.edges.capacity):
        if tree.edges.values[slot] >= 0:
            first[(tree.edges.keys[slot] >> 13)] += 1  # (parent + 1) << 13 | moves
    for i in range(n):
        first[i + 1] += first[i]
        cursor[i] = first[i]
    for slot in range(tree.edges.capacity):
        if tree.edges.values[slot] >= 0:
            parent = <int32_t>((tree.edges.keys[slot] >> 13) - 1)
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
        if tree.nodes[old].stats != NOT_EXPANDED:
            n_stats += tree.node_stats * tree.nodes[old].n
        for e in range(first[old], first[old + 1]):
            kept_edges += 1
            child = tree.edges.values[edge_slot[e]]
            if renumber[child] < 0:
                renumber[child] = <int32_t>count
                order[count] = child
                count += 1
    cap_nodes = count if count > 64 else 64
    nodes = <Node *>wts_block_alloc(cap_nodes * sizeof(Node))
    # Room to expand the new root at once if it never was.
    cap_stats = n_stats + tree.node_stats * WTS_NUM_SQUARES
    stats = <stat_t *>wts_block_alloc(cap_stats * sizeof(stat_t))
    ok = (nodes != NULL and stats != NULL
          and table_init(&edges, table_capacity(kept_edges))
          and (not tree.transpositions
               or table_init(&positions, table_capacity(count))))
    if ok:
        n_stats = 0
        for i in range(count):
            old = order[i]
            nodes[i] = tree.nodes[old]
            if nodes[i].stats != NOT_EXPANDED:
                block = tree.node_stats * nodes[i].n
                memcpy(&stats[n_stats], &tree.stats[nodes[i].stats], block * sizeof(stat_t))
                nodes[i].stats = n_stats
                n_stats += block
            if tree.transpositions:
                table_add(&positions, nodes[i].state.key, <int32_t>i)
            for e in range(first[old], first[old + 1]):
                slot = edge_slot[e]
                key = ((<uint64_t>i + 1) << 13) | (tree.edges.keys[slot] & 0x1FFF)
                table_add(&edges, key, renumber[tree.edges.values[slot]])
        tree_free(tree)
        tree.nodes, tree.cap_nodes, tree.n_nodes = nodes, cap_nodes, count
        tree.stats, tree.n_stats = stats, n_stats
        tree.cap_stats = cap_stats
        tree.edges = edges
        tree.positions = positions
        tree.full = False
        tree.n_iterations = tree.nodes[0].visits
        if tree.nodes[0].stats == NOT_EXPANDED and not wts_is_over(&tree.nodes[0].state):
            expand(tree, 0)
    else:
        wts_block_free(nodes, cap_nodes * sizeof(Node))
        wts_block_free(stats, cap_stats * sizeof(stat_t))
        table_free(&edges)
        table_free(&positions)
    free(first)
    free(cursor)
    free(edge_slot)
    free(renumber)
    free(order)
    return ok
