/* arena.c — block chain behind fe_alloc(). Blocks are mmap-sized so the
 * kernel hands out zeroed pages and untouched tails cost nothing. */
#include "arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK_MIN (256u * 1024u)

void *fe_arena_alloc_slow(fe_arena *a, size_t n) {
    size_t cap = n > BLOCK_MIN / 4 ? n : BLOCK_MIN - sizeof(fe_arena_block);
    fe_arena_block *b = calloc(1, sizeof *b + cap);
    if (!b) {
        fprintf(stderr, "ptxi: out of memory (%zu bytes)\n", n);
        abort();
    }
    b->cap = cap;
    b->used = n;
    a->total += n;
    if (n > BLOCK_MIN / 4 && a->head) {
        /* a large one-off allocation goes behind the current block so the
         * current block's free space stays usable */
        b->next = a->head->next;
        a->head->next = b;
    } else {
        b->next = a->head;
        a->head = b;
    }
    return b->data;
}

void fe_arena_free(fe_arena *a) {
    fe_arena_block *b = a->head;
    while (b) {
        fe_arena_block *n = b->next;
        free(b);
        b = n;
    }
    a->head = NULL;
    a->total = 0;
}
