/* The search tree's two large arrays (nodes, statistics): blocks that grow
 * in place.
 *
 * On Linux a block is its own mapping, and growing it moves the pages
 * (mremap), never the bytes: realloc would copy a block that malloc put in a
 * thread's heap, and the copies' page faults slowed two searches on two
 * threads to 1.82x one (docs/speed.md). Elsewhere, malloc and realloc.
 * Sizes are in bytes, as the caller keeps them; every call returns NULL, the
 * block as it was, when memory runs out.
 */
#ifndef WTS_BLOCKS_H
#define WTS_BLOCKS_H

#include <stddef.h>
#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__linux__) && defined(MREMAP_MAYMOVE)
#define WTS_BLOCKS_MAPPED 1
#else
#define WTS_BLOCKS_MAPPED 0
#endif

static inline void *wts_block_alloc(size_t bytes) {
#if WTS_BLOCKS_MAPPED
    void *block = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return block == MAP_FAILED ? NULL : block;
#else
    return malloc(bytes ? bytes : 1);
#endif
}

static inline void *wts_block_resize(void *block, size_t old_bytes, size_t new_bytes) {
#if WTS_BLOCKS_MAPPED
    void *grown = mremap(block, old_bytes ? old_bytes : 1, new_bytes ? new_bytes : 1,
                         MREMAP_MAYMOVE);
    return grown == MAP_FAILED ? NULL : grown;
#else
    (void)old_bytes;
    return realloc(block, new_bytes ? new_bytes : 1);
#endif
}

static inline void wts_block_free(void *block, size_t bytes) {
    if (block == NULL) return;
#if WTS_BLOCKS_MAPPED
    munmap(block, bytes ? bytes : 1);
#else
    (void)bytes;
    free(block);
#endif
}

#endif /* WTS_BLOCKS_H */
