/* The search tree's two large arrays (nodes, statistics): blocks that grow
 * without a copy once they are large, and whose memory the next search
 * finds ready.
 *
 * A block of up to WTS_BLOCK_MAPPED_FROM bytes comes from malloc. On Linux a
 * larger one is a mapping of its own, and growing it moves its pages
 * (mremap), never its bytes: realloc copied the blocks that malloc kept in a
 * thread's heap, and those copies held two searches on two threads to 1.82x
 * one (docs/speed.md). A mapping starts with a header holding its size, so
 * a block may be larger than asked: the last mapping freed, if at most
 * WTS_BLOCK_SPARE_MAX bytes, is kept for the next one asked for, its pages
 * already faulted in, as malloc keeps what a short search frees. Elsewhere,
 * malloc and realloc throughout. Sizes are the bytes the caller asked for
 * (they say which kind a block is); every call returns NULL, the block as it
 * was, when memory runs out.
 */
#ifndef WTS_BLOCKS_H
#define WTS_BLOCKS_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <pthread.h>
#include <sys/mman.h>
#endif
#if defined(__linux__) && defined(MREMAP_MAYMOVE)
#define WTS_BLOCKS_MAPPED 1
#else
#define WTS_BLOCKS_MAPPED 0
#endif

#define WTS_BLOCK_MAPPED_FROM ((size_t)1 << 20)
#define WTS_BLOCK_SPARE_MAX ((size_t)64 << 20)
#define WTS_BLOCK_HEADER ((size_t)64)  /* keeps the block 64-byte aligned */

static inline int wts_block_is_mapped(size_t bytes) {
    return WTS_BLOCKS_MAPPED && bytes > WTS_BLOCK_MAPPED_FROM;
}

#if WTS_BLOCKS_MAPPED
static pthread_mutex_t wts_block_spare_lock = PTHREAD_MUTEX_INITIALIZER;
static char *wts_block_spare = NULL;  /* a mapping's start, its size in its header */

static inline size_t wts_mapping_size(const char *mapping) { return *(const size_t *)mapping; }

static inline void *wts_mapping_block(char *mapping, size_t size) {
    *(size_t *)mapping = size;
    return mapping + WTS_BLOCK_HEADER;
}

static inline void *wts_block_map(size_t bytes) {
    size_t size = bytes + WTS_BLOCK_HEADER;
    char *mapping;
    pthread_mutex_lock(&wts_block_spare_lock);
    mapping = wts_block_spare;
    if (mapping != NULL && wts_mapping_size(mapping) >= size) {
        wts_block_spare = NULL;
    } else {
        mapping = NULL;
    }
    pthread_mutex_unlock(&wts_block_spare_lock);
    if (mapping != NULL) return mapping + WTS_BLOCK_HEADER;
    mapping = (char *)mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                           -1, 0);
    return mapping == MAP_FAILED ? NULL : wts_mapping_block(mapping, size);
}

static inline void wts_block_unmap(void *block) {
    char *mapping = (char *)block - WTS_BLOCK_HEADER, *dropped = mapping;
    size_t size = wts_mapping_size(mapping);
    if (size <= WTS_BLOCK_SPARE_MAX) {
        pthread_mutex_lock(&wts_block_spare_lock);
        if (wts_block_spare == NULL || wts_mapping_size(wts_block_spare) < size) {
            dropped = wts_block_spare;
            wts_block_spare = mapping;
        }
        pthread_mutex_unlock(&wts_block_spare_lock);
    }
    if (dropped != NULL) munmap(dropped, wts_mapping_size(dropped));
}
#endif

static inline void *wts_block_alloc(size_t bytes) {
#if WTS_BLOCKS_MAPPED
    if (wts_block_is_mapped(bytes)) return wts_block_map(bytes);
#endif
    return malloc(bytes ? bytes : 1);
}

static inline void wts_block_free(void *block, size_t bytes) {
    if (block == NULL) return;
#if WTS_BLOCKS_MAPPED
    if (wts_block_is_mapped(bytes)) {
        wts_block_unmap(block);
        return;
    }
#endif
    free(block);
}

static inline void *wts_block_resize(void *block, size_t old_bytes, size_t new_bytes) {
#if WTS_BLOCKS_MAPPED
    if (wts_block_is_mapped(old_bytes) && wts_block_is_mapped(new_bytes)) {
        char *mapping = (char *)block - WTS_BLOCK_HEADER;
        size_t size = wts_mapping_size(mapping), wanted = new_bytes + WTS_BLOCK_HEADER;
        if (wanted <= size) return block;
        mapping = (char *)mremap(mapping, size, wanted, MREMAP_MAYMOVE);
        return mapping == MAP_FAILED ? NULL : wts_mapping_block(mapping, wanted);
    }
    if (wts_block_is_mapped(old_bytes) || wts_block_is_mapped(new_bytes)) {
        /* From one kind to the other: one copy, of about WTS_BLOCK_MAPPED_FROM bytes. */
        void *moved = wts_block_alloc(new_bytes);
        if (moved == NULL) return NULL;
        memcpy(moved, block, old_bytes < new_bytes ? old_bytes : new_bytes);
        wts_block_free(block, old_bytes);
        return moved;
    }
#endif
    (void)old_bytes;
    return realloc(block, new_bytes ? new_bytes : 1);
}

#endif /* WTS_BLOCKS_H */
