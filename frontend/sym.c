/* sym.c — the front end's symbol tables: chained hashing with the newest
 * entry first in each chain, so closing a scope is truncating the entry
 * vector (entries leave in the reverse order they came). */
#include <stdlib.h>
#include <string.h>

#include "fe.h"

static uint32_t hash(const char *s, uint32_t n) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h ^ (h >> 15);
}

static void relink(fe_symtab *t) {
    for (uint32_t i = 0; i < t->nbuckets; i++) t->buckets[i] = -1;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t b = t->v[i].hash & (t->nbuckets - 1);
        t->v[i].next = t->buckets[b];
        t->buckets[b] = (int32_t)i;
    }
}

void fe_sym_init(fe_symtab *t) {
    memset(t, 0, sizeof *t);
    t->nbuckets = 256;
    t->buckets = malloc(t->nbuckets * sizeof *t->buckets);
    relink(t);
}

void fe_sym_free(fe_symtab *t) {
    free(t->buckets);
    free(t->v);
    memset(t, 0, sizeof *t);
}

/* scope < 0: the visible (newest) entry of that name; else an exact scope. */
fe_sym *fe_sym_find(fe_symtab *t, const char *s, uint32_t n, int scope) {
    uint32_t h = hash(s, n);
    for (int32_t i = t->buckets[h & (t->nbuckets - 1)]; i >= 0; i = t->v[i].next) {
        fe_sym *e = &t->v[i];
        if (e->hash == h && e->len == n && memcmp(e->name, s, n) == 0 && (scope < 0 || e->scope == (uint32_t)scope))
            return e;
    }
    return NULL;
}

/* `s` must outlive the entry (it points into the module arena). */
fe_sym *fe_sym_add(fe_symtab *t, const char *s, uint32_t n, uint8_t kind, uint32_t scope) {
    if (t->n == t->cap) fe_grow((void **)&t->v, &t->cap, sizeof *t->v);
    fe_sym *e = &t->v[t->n];
    *e = (fe_sym){.name = s, .len = n, .hash = hash(s, n), .kind = kind, .scope = scope};
    uint32_t b = e->hash & (t->nbuckets - 1);
    e->next = t->buckets[b];
    t->buckets[b] = (int32_t)t->n++;
    if (t->n > t->nbuckets) {
        free(t->buckets);
        t->nbuckets *= 4;
        t->buckets = malloc(t->nbuckets * sizeof *t->buckets);
        relink(t);
        e = &t->v[t->n - 1];
    }
    return e;
}

void fe_sym_truncate(fe_symtab *t, uint32_t n) {
    while (t->n > n) {
        fe_sym *e = &t->v[--t->n];
        t->buckets[e->hash & (t->nbuckets - 1)] = e->next;
    }
}

/* Register names (%r0, %r1, ...) and .loc texts repeat in every function;
 * one copy each keeps a large module's IR small. */
const char *fe_intern(fe_parser *p, const char *s, uint32_t n) {
    fe_sym *e = fe_sym_find(&p->strings, s, n, -1);
    if (!e) e = fe_sym_add(&p->strings, fe_strndup(p->a, s, n), n, 0, 0);
    return e->name;
}
