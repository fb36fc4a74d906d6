/* ptxlink.c — joins the PTX of several translation units (relocatable device code,
 * nvcc -rdc=true) into one module: one header, each extern declaration once unless
 * some unit defines it, a prototype for every function, then the variables, then the
 * bodies; file-local names that two units share are renamed in the later unit. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"

typedef enum { IT_HEADER, IT_EXTERN, IT_FUNC, IT_PROTO, IT_VAR, IT_OTHER } item_kind;

typedef struct {
    item_kind kind;
    int unit;
    bool entry, local, weak;
    char name[256];
    char *text; /* owned */
    bool dropped;
} item;

typedef struct {
    item *v;
    size_t n, cap;
} items;

typedef struct {
    char *s;
    size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s) abort();
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

static bool idchar(int c) { return isalnum(c) || c == '_' || c == '$'; }

static bool starts(const char *s, const char *word) {
    size_t n = strlen(word);
    return !strncmp(s, word, n) && !idchar((unsigned char)s[n]);
}

/* Whether directive `word` appears among the item's leading directives. */
static bool has_directive(const char *s, const char *word) {
    for (const char *p = s; *p && *p != '(' && *p != '{' && *p != '[' && *p != '=' && *p != ';'; p++)
        if (*p == '.' && (p == s || isspace((unsigned char)p[-1])) && starts(p, word)) return true;
    return false;
}

static void read_id(const char *p, char *out, size_t size) {
    size_t n = 0;
    while (isspace((unsigned char)*p)) p++;
    while (idchar((unsigned char)*p) && n + 1 < size) out[n++] = *p++;
    out[n] = 0;
}

/* The name an item declares or defines. */
static void item_name(item *it) {
    const char *s = it->text, *p;
    if ((p = strstr(s, ".entry"))) {
        read_id(p + 6, it->name, sizeof it->name);
        return;
    }
    if (has_directive(s, ".func") && (p = strstr(s, ".func"))) {
        p += 5;
        while (isspace((unsigned char)*p)) p++;
        if (*p == '(') { /* the return parameters */
            int depth = 0;
            do depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
            while (*++p && depth);
        }
        read_id(p, it->name, sizeof it->name);
        return;
    }
    /* A variable: the last identifier before its size, initializer or end. */
    const char *end = s + strcspn(s, "[=;<");
    const char *q = end;
    while (q > s && !idchar((unsigned char)q[-1])) q--;
    const char *b = q;
    while (b > s && idchar((unsigned char)b[-1])) b--;
    size_t n = (size_t)(q - b) < sizeof it->name - 1 ? (size_t)(q - b) : sizeof it->name - 1;
    memcpy(it->name, b, n);
    it->name[n] = 0;
}

static void add_item(items *l, int unit, const char *s, size_t n) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v) abort();
    }
    item *it = &l->v[l->n++];
    memset(it, 0, sizeof *it);
    it->unit = unit;
    it->text = strndup(s, n);
    const char *t = it->text;
    bool body = n && s[n - 1] == '}';
    if (starts(t, ".version") || starts(t, ".target") || starts(t, ".address_size") || starts(t, ".file"))
        it->kind = IT_HEADER;
    else if (has_directive(t, ".extern")) it->kind = IT_EXTERN;
    else if (has_directive(t, ".entry") || has_directive(t, ".func")) it->kind = body ? IT_FUNC : IT_PROTO;
    else if (has_directive(t, ".global") || has_directive(t, ".const") || has_directive(t, ".shared") ||
             has_directive(t, ".local"))
        it->kind = IT_VAR;
    else it->kind = IT_OTHER;
    it->entry = has_directive(t, ".entry");
    it->weak = has_directive(t, ".weak") || has_directive(t, ".common");
    it->local = !it->weak && !has_directive(t, ".visible") && !has_directive(t, ".extern");
    if (it->kind != IT_HEADER && it->kind != IT_OTHER) item_name(it);
}

/* Splits a unit into its top-level items: header lines, and statements ending at a
 * `;` or at the brace that closes a body. */
static void split(items *l, int unit, const char *s) {
    while (*s) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        if (s[0] == '/' && s[1] == '/') {
            s += strcspn(s, "\n");
            continue;
        }
        const char *b = s;
        if (starts(s, ".version") || starts(s, ".target") || starts(s, ".address_size") || starts(s, ".file")) {
            s += strcspn(s, "\n");
            add_item(l, unit, b, (size_t)(s - b));
            continue;
        }
        int depth = 0;
        for (; *s; s++) {
            if (*s == '"') {
                for (s++; *s && *s != '"'; s++)
                    if (*s == '\\' && s[1]) s++;
                if (!*s) break;
            } else if (s[0] == '/' && s[1] == '/') {
                s += strcspn(s, "\n") - 1;
            } else if (*s == '{') {
                depth++;
            } else if (*s == '}' && --depth == 0) {
                s++;
                const char *t = s; /* an initializer's braces end before its `;` */
                while (isspace((unsigned char)*t)) t++;
                if (*t == ';') s = t + 1;
                break;
            } else if (*s == ';' && depth == 0) {
                s++;
                break;
            }
        }
        add_item(l, unit, b, (size_t)(s - b));
    }
}

static item *defined(items *l, const char *name, size_t before) {
    for (size_t i = 0; i < before && i < l->n; i++)
        if ((l->v[i].kind == IT_FUNC || l->v[i].kind == IT_VAR) && !l->v[i].dropped && !strcmp(l->v[i].name, name))
            return &l->v[i];
    return NULL;
}

/* Replaces the identifier `from` by `to` wherever it stands as a whole token. */
static char *rename_in(const char *s, const char *from, const char *to) {
    buf b = {0};
    size_t n = strlen(from);
    for (const char *p = s; *p;) {
        if (!strncmp(p, from, n) && (p == s || !idchar((unsigned char)p[-1])) && !idchar((unsigned char)p[n])) {
            puts_(&b, to);
            p += n;
        } else {
            put(&b, p++, 1);
        }
    }
    if (!b.s) puts_(&b, "");
    return b.s;
}

char *cr_ptx_link(char *const *units, size_t n, size_t *len) {
    items l = {0};
    for (size_t u = 0; u < n; u++) {
        size_t first = l.n;
        split(&l, (int)u, units[u]);
        /* File-local names already taken by an earlier unit get this unit's suffix. */
        for (size_t i = first; i < l.n; i++) {
            item *it = &l.v[i];
            if ((it->kind != IT_FUNC && it->kind != IT_VAR) || !it->local || !defined(&l, it->name, first)) continue;
            char from[256], to[300];
            snprintf(from, sizeof from, "%s", it->name);
            snprintf(to, sizeof to, "%s_ptxi%zu", from, u);
            for (size_t j = first; j < l.n; j++) {
                char *t = rename_in(l.v[j].text, from, to);
                free(l.v[j].text);
                l.v[j].text = t;
                if (!strcmp(l.v[j].name, from))
                    snprintf(l.v[j].name, sizeof l.v[j].name, "%.*s", (int)sizeof l.v[j].name - 1, to);
            }
        }
        /* A weak (inline, template) definition made by several units is kept once. */
        for (size_t i = first; i < l.n; i++) {
            item *it = &l.v[i];
            if ((it->kind == IT_FUNC || it->kind == IT_VAR) && defined(&l, it->name, first)) it->dropped = true;
        }
    }
    buf out = {0};
    static const item_kind order[] = {IT_HEADER, IT_EXTERN, IT_PROTO, IT_VAR, IT_FUNC, IT_OTHER};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        for (size_t i = 0; i < l.n; i++) {
            item *it = &l.v[i];
            if (it->dropped) continue;
            if (order[k] == IT_PROTO && it->kind == IT_FUNC && !it->entry) {
                /* every function is declared before any body may call it */
                put(&out, it->text, strcspn(it->text, "{"));
                puts_(&out, ";\n");
                continue;
            }
            if (it->kind != order[k]) continue;
            if (it->kind == IT_HEADER && it->unit != 0) continue;
            if ((it->kind == IT_EXTERN || it->kind == IT_PROTO) && defined(&l, it->name, l.n)) continue;
            if (it->kind == IT_EXTERN || it->kind == IT_PROTO) {
                bool seen = false; /* the same declaration from several units */
                for (size_t j = 0; j < i && !seen; j++)
                    seen = l.v[j].kind == it->kind && !strcmp(l.v[j].name, it->name);
                if (seen) continue;
            }
            puts_(&out, it->text);
            puts_(&out, "\n");
        }
    }
    for (size_t i = 0; i < l.n; i++) free(l.v[i].text);
    free(l.v);
    *len = out.n;
    return out.s;
}
