/* arena.h — bump allocation for the IR: a module's nodes live in a chain of
 * large blocks freed at once, so building costs no per-node malloc. */
#ifndef PTXI_FE_ARENA_H
#define PTXI_FE_ARENA_H

#include <stddef.h>
#include <string.h>

typedef struct fe_arena_block {
    struct fe_arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} fe_arena_block;

typedef struct fe_arena {
    fe_arena_block *head;
    size_t total; /* bytes handed out, for statistics */
} fe_arena;

void *fe_arena_alloc_slow(fe_arena *a, size_t n);
void fe_arena_free(fe_arena *a);

/* Zeroed, 8-byte aligned. */
static inline void *fe_alloc(fe_arena *a, size_t n) {
    n = (n + 7) & ~(size_t)7;
    fe_arena_block *b = a->head;
    if (b && b->cap - b->used >= n) {
        void *p = b->data + b->used;
        b->used += n;
        a->total += n;
        return p;
    }
    return fe_arena_alloc_slow(a, n);
}

static inline char *fe_strndup(fe_arena *a, const char *s, size_t n) {
    char *p = fe_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static inline void *fe_memdup(fe_arena *a, const void *s, size_t n) {
    void *p = fe_alloc(a, n);
    if (n) memcpy(p, s, n);
    return p;
}

#endif
