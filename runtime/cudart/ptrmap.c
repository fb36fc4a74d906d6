/* ptrmap.c — a map from addresses to records (open addressing), for the host stubs'
 * kernels and variables and for the kind of each allocation. Callers lock. */
#include <stdlib.h>

#include "cudart_internal.h"

static size_t slot_of(const cr_ptrmap *m, const void *key) {
    size_t i = ((uintptr_t)key >> 4) * 0x9e3779b97f4a7c15ull;
    for (i &= m->cap - 1; m->keys[i] && m->keys[i] != key; i = (i + 1) & (m->cap - 1)) {}
    return i;
}

void *cr_map_get(const cr_ptrmap *m, const void *key) {
    if (!m->cap || !key) return NULL;
    return m->vals[slot_of(m, key)];
}

/* A NULL value leaves the key in place as a tombstone, so probing stays correct. */
void cr_map_put(cr_ptrmap *m, const void *key, void *val) {
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        cr_ptrmap big = {calloc(cap, sizeof(void *)), calloc(cap, sizeof(void *)), cap, 0};
        if (!big.keys || !big.vals) abort();
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i] && m->vals[i]) cr_map_put(&big, m->keys[i], m->vals[i]);
        free(m->keys);
        free(m->vals);
        *m = big;
    }
    size_t i = slot_of(m, key);
    if (!m->keys[i]) m->n++;
    m->keys[i] = key;
    m->vals[i] = val;
}

void cr_map_free(cr_ptrmap *m) {
    free(m->keys);
    free(m->vals);
    *m = (cr_ptrmap){0};
}
