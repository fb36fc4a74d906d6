/* debug_dwarf.c — reads the DWARF sections nvcc writes into PTX into the
 * debugger's symbol table (debug_dwarf.h). The sections are PTX data
 * directives: bytes, words that name labels of the code (addresses), and
 * offsets into the other sections (`.debug_loc+133`); the labels become PTX
 * lines. nvcc names registers in locations with DW_OP_regx and the register's
 * name packed into the number ("%r5" = 0x257235); everything else is an
 * address of a PTX symbol plus an offset (DW_OP_addr, DW_OP_plus_uconst). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_dwarf.h"

/* ---- allocation: one pool per module's table ---- */

typedef struct pool_blk {
    struct pool_blk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} pool_blk;

static void *palloc(dw_info *di, size_t n) {
    n = (n + 15) & ~(size_t)15;
    pool_blk *b = di->pool;
    if (!b || b->used + n > b->cap) {
        size_t cap = n > 65536 ? n : 65536;
        pool_blk *nb = malloc(sizeof *nb + cap);
        if (!nb) return NULL;
        nb->next = b, nb->used = 0, nb->cap = cap;
        di->pool = b = nb;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

static char *pstrndup(dw_info *di, const char *s, size_t n) {
    char *p = palloc(di, n + 1);
    if (p) memcpy(p, s, n);
    return p;
}

void dw_free(dw_info *di) {
    if (!di) return;
    for (pool_blk *b = di->pool, *n; b; b = n) n = b->next, free(b);
    free(di->funcs);
    free(di->types);
    free(di);
}

/* ---- the sections' bytes ---- */

typedef struct reloc {
    uint32_t at;
    uint8_t size;
    const char *name; /* a label or symbol of the code */
    size_t nlen;
    int64_t add;
} reloc;

typedef struct section {
    char name[24];
    uint8_t *b;
    uint32_t n, cap;
    reloc *r;
    uint32_t nr, capr;
} section;

typedef struct secdef { /* a label defined inside a debug section */
    const char *name;
    size_t nlen;
    uint32_t off;
} secdef;

typedef struct reader {
    section sec[8];
    int nsec;
    secdef *defs;
    uint32_t ndefs, capdefs;
} reader;

static section *sec_get(reader *r, const char *name, size_t n) {
    for (int k = 0; k < r->nsec; k++)
        if (strlen(r->sec[k].name) == n && !strncmp(r->sec[k].name, name, n)) return &r->sec[k];
    if (r->nsec == 8 || n >= sizeof r->sec[0].name) return NULL;
    section *s = &r->sec[r->nsec++];
    memcpy(s->name, name, n);
    s->name[n] = 0;
    return s;
}

static bool put(section *s, uint64_t v, unsigned size) {
    if (s->n + size > s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 4096;
        while (cap < s->n + size) cap *= 2;
        uint8_t *nb = realloc(s->b, cap);
        if (!nb) return false;
        s->b = nb, s->cap = cap;
    }
    for (unsigned k = 0; k < size; k++) s->b[s->n++] = (uint8_t)(v >> (8 * k));
    return true;
}

static bool is_ident(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '.' || c == '%';
}

/* One `.section NAME { directives }` block of the PTX text. */
static bool read_block(reader *r, const char *t) {
    const char *p = t + strlen(".section");
    while (*p == ' ' || *p == '\t') p++;
    size_t nl = 0;
    while (is_ident(p[nl])) nl++;
    section *s = sec_get(r, p, nl);
    if (!s) return true;
    p = strchr(p, '{');
    if (!p) return true;
    p++;
    unsigned size = 0;
    while (*p && *p != '}') {
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',') {
            p++;
            continue;
        }
        if (c == '/' && p[1] == '/') {
            while (*p && *p != '\n') p++;
            continue;
        }
        if (c == '.' && p[1] == 'b' && p[2] >= '0' && p[2] <= '9') {
            size = (unsigned)strtoul(p + 2, (char **)&p, 10) / 8;
            if (size != 1 && size != 2 && size != 4 && size != 8) return false;
            continue;
        }
        if ((c >= '0' && c <= '9') || c == '-') {
            char *end;
            uint64_t v = c == '-' ? (uint64_t)strtoll(p, &end, 0) : strtoull(p, &end, 0);
            if (end == p || !size || !put(s, v, size)) return false;
            p = end;
            continue;
        }
        size_t n = 0;
        while (is_ident(p[n])) n++;
        if (!n) return false;
        if (p[n] == ':') { /* a label: here in this section */
            if (r->ndefs == r->capdefs) {
                uint32_t cap = r->capdefs ? r->capdefs * 2 : 64;
                secdef *nd = realloc(r->defs, cap * sizeof *nd);
                if (!nd) return false;
                r->defs = nd, r->capdefs = cap;
            }
            r->defs[r->ndefs++] = (secdef){p, n, s->n};
            p += n + 1;
            continue;
        }
        if (!size) return false;
        int64_t add = 0;
        const char *q = p + n;
        while (*q == ' ') q++;
        if (*q == '+' || (*q == '-' && q[1] >= '0' && q[1] <= '9')) {
            char *end;
            add = strtoll(q, &end, 0);
            q = end;
        }
        if (s->nr == s->capr) {
            uint32_t cap = s->capr ? s->capr * 2 : 256;
            reloc *nr = realloc(s->r, cap * sizeof *nr);
            if (!nr) return false;
            s->r = nr, s->capr = cap;
        }
        s->r[s->nr++] = (reloc){s->n, (uint8_t)size, p, n, add};
        if (!put(s, 0, size)) return false;
        p = q;
    }
    return true;
}

/* Offsets into debug sections and labels defined in them are numbers; what
 * is left names the code. */
static void resolve_local(reader *r) {
    for (int k = 0; k < r->nsec; k++) {
        section *s = &r->sec[k];
        uint32_t keep = 0;
        for (uint32_t i = 0; i < s->nr; i++) {
            reloc *x = &s->r[i];
            int64_t v = 0;
            bool local = false;
            if (x->nlen > 7 && !strncmp(x->name, ".debug_", 7)) local = true;
            for (uint32_t d = 0; !local && d < r->ndefs; d++)
                if (r->defs[d].nlen == x->nlen && !strncmp(r->defs[d].name, x->name, x->nlen))
                    local = true, v = r->defs[d].off;
            if (local) {
                uint64_t u = (uint64_t)(v + x->add);
                for (unsigned b = 0; b < x->size; b++) s->b[x->at + b] = (uint8_t)(u >> (8 * b));
            } else {
                s->r[keep++] = *x;
            }
        }
        s->nr = keep;
    }
}

static const reloc *reloc_at(const section *s, uint32_t at) {
    uint32_t lo = 0, hi = s->nr;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (s->r[mid].at < at) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->nr && s->r[lo].at == at ? &s->r[lo] : NULL;
}

/* ---- byte reading ---- */

typedef struct cur {
    const uint8_t *b;
    uint32_t n, at;
    bool bad;
} cur;

static uint64_t rd(cur *c, unsigned size) {
    if (c->at + size > c->n) {
        c->bad = true;
        c->at = c->n;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned k = 0; k < size; k++) v |= (uint64_t)c->b[c->at + k] << (8 * k);
    c->at += size;
    return v;
}

static uint64_t uleb(cur *c) {
    uint64_t v = 0;
    for (unsigned sh = 0;; sh += 7) {
        if (c->at >= c->n) {
            c->bad = true;
            return v;
        }
        uint8_t b = c->b[c->at++];
        if (sh < 64) v |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) return v;
    }
}

static int64_t sleb(cur *c) {
    int64_t v = 0;
    unsigned sh = 0;
    uint8_t b;
    do {
        if (c->at >= c->n) {
            c->bad = true;
            return v;
        }
        b = c->b[c->at++];
        if (sh < 64) v |= (int64_t)((uint64_t)(b & 0x7f) << sh);
        sh += 7;
    } while (b & 0x80);
    if (sh < 64 && (b & 0x40)) v |= -((int64_t)1 << sh);
    return v;
}

/* ---- DIEs ---- */

typedef struct abbrev {
    uint64_t code;
    uint32_t tag;
    bool kids;
    uint32_t nat;
    uint32_t at[48], form[48];
} abbrev;

typedef struct attr {
    uint32_t at, form;
    uint64_t u;         /* constants, references (CU-relative offsets), flags */
    const uint8_t *blk; /* blocks, strings */
    uint32_t len;
    const reloc *rel; /* an address: the label or symbol it names */
} attr;

typedef struct die {
    uint32_t off, tag;
    uint32_t nat;
    attr *at;
    int32_t parent;
    dw_type *type; /* built on first use */
    bool building;
} die;

enum {
    TAG_ARRAY = 0x01,
    TAG_CLASS = 0x02,
    TAG_ENUM = 0x04,
    TAG_PARAM = 0x05,
    TAG_BLOCK = 0x0b,
    TAG_MEMBER = 0x0d,
    TAG_PTR = 0x0f,
    TAG_REF = 0x10,
    TAG_CU = 0x11,
    TAG_STRUCT = 0x13,
    TAG_SUBR_TYPE = 0x15,
    TAG_TYPEDEF = 0x16,
    TAG_UNION = 0x17,
    TAG_INLINED = 0x1d,
    TAG_SUBRANGE = 0x21,
    TAG_BASE = 0x24,
    TAG_CONST = 0x26,
    TAG_ENUMERATOR = 0x28,
    TAG_SUBPROGRAM = 0x2e,
    TAG_VARIABLE = 0x34,
    TAG_VOLATILE = 0x35,
    TAG_UNSPEC = 0x3b,
    TAG_RVREF = 0x42,
};
enum {
    AT_LOCATION = 0x02,
    AT_NAME = 0x03,
    AT_BYTE_SIZE = 0x0b,
    AT_LOW_PC = 0x11,
    AT_HIGH_PC = 0x12,
    AT_CONST_VALUE = 0x1c,
    AT_UPPER_BOUND = 0x2f,
    AT_ABSTRACT_ORIGIN = 0x31,
    AT_ADDRESS_CLASS = 0x33,
    AT_COUNT = 0x37,
    AT_MEMBER_LOC = 0x38,
    AT_DECL_LINE = 0x3b,
    AT_SPECIFICATION = 0x47,
    AT_TYPE = 0x49,
    AT_CALL_FILE = 0x58,
    AT_CALL_LINE = 0x59,
    AT_LINKAGE = 0x6e,
    AT_MIPS_LINKAGE = 0x2007,
    AT_ENCODING = 0x3e,
};
enum {
    FORM_ADDR = 0x01,
    FORM_BLOCK2 = 0x03,
    FORM_BLOCK4 = 0x04,
    FORM_DATA2 = 0x05,
    FORM_DATA4 = 0x06,
    FORM_DATA8 = 0x07,
    FORM_STRING = 0x08,
    FORM_BLOCK = 0x09,
    FORM_BLOCK1 = 0x0a,
    FORM_DATA1 = 0x0b,
    FORM_FLAG = 0x0c,
    FORM_SDATA = 0x0d,
    FORM_STRP = 0x0e,
    FORM_UDATA = 0x0f,
    FORM_REF_ADDR = 0x10,
    FORM_REF1 = 0x11,
    FORM_REF2 = 0x12,
    FORM_REF4 = 0x13,
    FORM_REF8 = 0x14,
    FORM_REF_UDATA = 0x15,
    FORM_INDIRECT = 0x16,
    FORM_SEC_OFFSET = 0x17,
    FORM_EXPRLOC = 0x18,
    FORM_FLAG_PRESENT = 0x19,
};

typedef struct builder {
    dw_info *di;
    reader *r;
    const ir_module *m;
    const section *info, *str, *loc;
    die *d;
    uint32_t nd;
    uint32_t cu_off;
} builder;

static bool read_attr(builder *b, cur *c, uint32_t form, attr *a) {
    a->form = form;
    switch (form) {
    case FORM_ADDR:
        a->rel = reloc_at(b->info, c->at);
        a->u = rd(c, 8);
        break;
    case FORM_DATA1:
    case FORM_REF1:
    case FORM_FLAG: a->u = rd(c, 1); break;
    case FORM_DATA2:
    case FORM_REF2: a->u = rd(c, 2); break;
    case FORM_DATA4:
    case FORM_REF4:
    case FORM_REF_ADDR:
    case FORM_SEC_OFFSET: a->u = rd(c, 4); break;
    case FORM_DATA8:
    case FORM_REF8: a->u = rd(c, 8); break;
    case FORM_SDATA: a->u = (uint64_t)sleb(c); break;
    case FORM_UDATA:
    case FORM_REF_UDATA: a->u = uleb(c); break;
    case FORM_FLAG_PRESENT: a->u = 1; break;
    case FORM_STRING: {
        const uint8_t *s = c->b + c->at;
        while (c->at < c->n && c->b[c->at]) c->at++;
        if (c->at >= c->n) return false;
        a->blk = s;
        a->len = (uint32_t)(c->b + c->at - s);
        c->at++;
        break;
    }
    case FORM_STRP: {
        uint64_t o = rd(c, 4);
        if (!b->str || o >= b->str->n) break;
        a->blk = b->str->b + o;
        a->len = (uint32_t)strnlen((const char *)a->blk, b->str->n - o);
        break;
    }
    case FORM_BLOCK1:
    case FORM_BLOCK2:
    case FORM_BLOCK4:
    case FORM_BLOCK:
    case FORM_EXPRLOC: {
        uint64_t n = form == FORM_BLOCK1   ? rd(c, 1)
                     : form == FORM_BLOCK2 ? rd(c, 2)
                     : form == FORM_BLOCK4 ? rd(c, 4)
                                           : uleb(c);
        if (c->at + n > c->n) return false;
        a->blk = c->b + c->at;
        a->len = (uint32_t)n;
        a->u = c->at; /* where the block starts in .debug_info (its relocations) */
        c->at += (uint32_t)n;
        break;
    }
    case FORM_INDIRECT: return read_attr(b, c, (uint32_t)uleb(c), a);
    default: return false;
    }
    return !c->bad;
}

static const attr *get(const die *d, uint32_t at) {
    for (uint32_t k = 0; k < d->nat; k++)
        if (d->at[k].at == at) return &d->at[k];
    return NULL;
}

static const char *str_of(builder *b, const die *d, uint32_t at) {
    const attr *a = get(d, at);
    return a && a->blk ? pstrndup(b->di, (const char *)a->blk, a->len) : NULL;
}

static int32_t die_at(const builder *b, uint64_t off) {
    uint32_t lo = 0, hi = b->nd;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (b->d[mid].off < off) lo = mid + 1;
        else hi = mid;
    }
    return lo < b->nd && b->d[lo].off == off ? (int32_t)lo : -1;
}

static int32_t ref(const builder *b, const die *d, uint32_t at) {
    const attr *a = get(d, at);
    if (!a) return -1;
    return die_at(b, a->form == FORM_REF_ADDR ? a->u : b->cu_off + a->u);
}

/* ---- labels of the code: PTX lines ---- */

static bool label_line(const builder *b, const reloc *x, uint32_t *line, int32_t *fn) {
    if (!x) return false;
    for (uint32_t f = 0; f < b->m->nfuncs; f++) {
        const ir_func *F = b->m->funcs[f];
        for (uint32_t k = 0; k < F->nlabels; k++)
            if (strlen(F->labels[k].name) == x->nlen && !strncmp(F->labels[k].name, x->name, x->nlen)) {
                *line = F->labels[k].loc.line;
                if (fn) *fn = (int32_t)f;
                return true;
            }
    }
    return false;
}

/* ---- types ---- */

static dw_type *type_of(builder *b, int32_t k);

static uint64_t bound(const die *d) {
    const attr *a = get(d, AT_COUNT);
    if (a) return a->u;
    a = get(d, AT_UPPER_BOUND);
    return a ? a->u + 1 : 0;
}

static dw_type *new_type(builder *b, uint8_t kind) {
    dw_type *t = palloc(b->di, sizeof *t);
    if (t) t->kind = kind;
    return t;
}

/* A member's offset: a constant or DW_OP_plus_uconst N. */
static uint32_t member_off(const die *d) {
    const attr *a = get(d, AT_MEMBER_LOC);
    if (!a) return 0;
    if (!a->blk) return (uint32_t)a->u;
    cur c = {a->blk, a->len, 0, false};
    uint8_t op = (uint8_t)rd(&c, 1);
    return op == 0x23 ? (uint32_t)uleb(&c) : 0;
}

static dw_type *build_type(builder *b, int32_t k) {
    die *d = &b->d[k];
    static const struct {
        uint32_t tag;
        uint8_t kind;
    } kinds[] = {{TAG_BASE, DWK_BASE},    {TAG_PTR, DWK_PTR},           {TAG_REF, DWK_PTR},
                 {TAG_RVREF, DWK_PTR},    {TAG_ARRAY, DWK_ARRAY},       {TAG_STRUCT, DWK_STRUCT},
                 {TAG_CLASS, DWK_STRUCT}, {TAG_UNION, DWK_UNION},       {TAG_TYPEDEF, DWK_TYPEDEF},
                 {TAG_CONST, DWK_CONST},  {TAG_VOLATILE, DWK_VOLATILE}, {TAG_UNSPEC, DWK_VOID},
                 {TAG_ENUM, DWK_ENUM},    {TAG_SUBR_TYPE, DWK_FUNC},    {TAG_SUBPROGRAM, DWK_FUNC}};
    int kind = -1;
    for (size_t q = 0; q < sizeof kinds / sizeof kinds[0]; q++)
        if (kinds[q].tag == d->tag) kind = kinds[q].kind;
    if (kind < 0) return NULL;
    dw_type *t = new_type(b, (uint8_t)kind);
    if (!t) return NULL;
    d->type = t; /* before the parts: a struct may point to itself */
    t->name = str_of(b, d, AT_NAME);
    const attr *a = get(d, AT_BYTE_SIZE);
    t->size = a ? a->u : kind == DWK_PTR ? 8 : 0;
    if ((a = get(d, AT_ENCODING))) t->enc = (uint8_t)a->u;
    if ((a = get(d, AT_ADDRESS_CLASS))) t->aclass = (uint8_t)a->u;
    t->target = type_of(b, ref(b, d, AT_TYPE));
    if (kind == DWK_TYPEDEF || kind == DWK_CONST || kind == DWK_VOLATILE) t->size = t->target ? t->target->size : 0;
    if (kind == DWK_ENUM && !t->target) t->enc = DWE_SIGNED;
    /* the children: members, enumerators, subranges (outermost first) */
    uint32_t nmem = 0, nen = 0;
    for (uint32_t c = (uint32_t)k + 1; c < b->nd && b->d[c].parent >= k; c++) {
        if (b->d[c].parent != k) continue;
        nmem += b->d[c].tag == TAG_MEMBER, nen += b->d[c].tag == TAG_ENUMERATOR;
    }
    if (nmem) t->mem = palloc(b->di, nmem * sizeof *t->mem);
    if (nen) t->en = palloc(b->di, nen * sizeof *t->en);
    uint64_t dims[8];
    uint32_t nd = 0;
    for (uint32_t c = (uint32_t)k + 1; c < b->nd && b->d[c].parent >= k; c++) {
        const die *e = &b->d[c];
        if (e->parent != k) continue;
        if (e->tag == TAG_MEMBER && t->mem)
            t->mem[t->nmem++] = (dw_member){str_of(b, e, AT_NAME), member_off(e), type_of(b, ref(b, e, AT_TYPE))};
        else if (e->tag == TAG_ENUMERATOR && t->en) {
            const attr *v = get(e, AT_CONST_VALUE);
            t->en[t->nenum++] = (dw_enumer){str_of(b, e, AT_NAME), v ? (int64_t)v->u : 0};
        } else if (e->tag == TAG_SUBRANGE && nd < 8) dims[nd++] = bound(e);
    }
    if (kind == DWK_ARRAY) { /* int a[2][3]: an array of 2 arrays of 3 */
        if (!nd) dims[nd++] = 0;
        dw_type *elem = t->target;
        for (uint32_t q = nd; q-- > 1;) {
            dw_type *inner = new_type(b, DWK_ARRAY);
            if (!inner) return t;
            inner->target = elem, inner->count = dims[q], inner->size = (elem ? elem->size : 0) * dims[q];
            elem = inner;
        }
        t->target = elem, t->count = dims[0], t->size = (elem ? elem->size : 0) * dims[0];
    }
    return t;
}

static dw_type *type_of(builder *b, int32_t k) {
    if (k < 0) return NULL;
    die *d = &b->d[k];
    if (d->type || d->building) return d->type;
    d->building = true;
    dw_type *t = build_type(b, k);
    d->building = false;
    return t;
}

/* ---- locations ---- */

/* One location expression. */
static void read_expr(builder *b, const section *s, uint32_t at, uint32_t len, dw_loc *l) {
    cur c = {s->b, at + len, at, false};
    l->kind = DWL_NONE;
    while (c.at < c.n && !c.bad) {
        uint32_t opat = c.at;
        uint8_t op = (uint8_t)rd(&c, 1);
        if (op == 0x90) { /* DW_OP_regx: the register's name, its bytes packed big-endian */
            uint64_t v = uleb(&c);
            char name[16];
            int n = 0;
            for (int sh = 56; sh >= 0; sh -= 8) {
                char ch = (char)(v >> sh);
                if (ch && n < 15) name[n++] = ch;
            }
            name[n] = 0;
            if (name[0] == '%') l->kind = DWL_REG, memcpy(l->reg, name, (size_t)n + 1);
        } else if (op == 0x03) { /* DW_OP_addr: a symbol */
            const reloc *x = reloc_at(s, opat + 1);
            uint64_t v = rd(&c, 8);
            l->kind = DWL_ADDR;
            if (x) l->sym = pstrndup(b->di, x->name, x->nlen), l->off = x->add;
            else l->off = (int64_t)v;
        } else if (op == 0x23) { /* DW_OP_plus_uconst */
            l->off += (int64_t)uleb(&c);
        } else if (op == 0x9f || op == 0x96) { /* stack_value, nop */
        } else {
            l->kind = DWL_NONE;
            return;
        }
    }
}

static void read_location(builder *b, const die *d, dw_var *v) {
    const attr *a = get(d, AT_LOCATION);
    if (!a) return;
    if (a->blk) {
        v->loc = palloc(b->di, sizeof *v->loc);
        if (!v->loc) return;
        v->nloc = 1;
        read_expr(b, b->info, (uint32_t)a->u, a->len, v->loc);
        return;
    }
    /* a location list in .debug_loc */
    if (!b->loc) return;
    cur c = {b->loc->b, b->loc->n, (uint32_t)a->u, false};
    dw_loc tmp[64];
    uint32_t n = 0;
    while (!c.bad && n < 64) {
        const reloc *xl = reloc_at(b->loc, c.at);
        uint64_t s0 = rd(&c, 8);
        const reloc *xh = reloc_at(b->loc, c.at);
        uint64_t e0 = rd(&c, 8);
        if (!xl && !xh && !s0 && !e0) break;
        uint32_t len = (uint32_t)rd(&c, 2);
        if (c.bad || c.at + len > c.n) break;
        dw_loc l = {0};
        if (label_line(b, xl, &l.lo, NULL) && label_line(b, xh, &l.hi, NULL)) {
            read_expr(b, b->loc, c.at, len, &l);
            tmp[n++] = l;
        }
        c.at += len;
    }
    if (!n) return;
    v->loc = palloc(b->di, n * sizeof *v->loc);
    if (!v->loc) return;
    memcpy(v->loc, tmp, n * sizeof *tmp);
    v->nloc = n;
}

/* ---- scopes ---- */

static bool push_ptr(void ***v, uint32_t *n, void *p) {
    void **nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv) return false;
    nv[(*n)++] = p;
    *v = nv;
    return true;
}

static void read_var(builder *b, const die *d, dw_var *v) {
    const die *o = d;
    int32_t org = ref(b, d, AT_ABSTRACT_ORIGIN);
    if (org >= 0) o = &b->d[org];
    int32_t spec = ref(b, o, AT_SPECIFICATION);
    const die *named = spec >= 0 ? &b->d[spec] : o;
    v->name = str_of(b, named, AT_NAME);
    v->type = type_of(b, ref(b, named, AT_TYPE));
    if (!v->type && named != o) v->type = type_of(b, ref(b, o, AT_TYPE));
    v->param = d->tag == TAG_PARAM;
    const attr *a = get(d, AT_ADDRESS_CLASS);
    if (a) v->aclass = (uint8_t)a->u;
    if ((a = get(named, AT_DECL_LINE))) v->line = (uint32_t)a->u;
    read_location(b, d, v);
}

static dw_scope *read_scope(builder *b, int32_t k, dw_scope *parent) {
    const die *d = &b->d[k];
    dw_scope *sc = palloc(b->di, sizeof *sc);
    if (!sc) return NULL;
    sc->kind = d->tag == TAG_SUBPROGRAM ? DWS_FUNC : d->tag == TAG_INLINED ? DWS_INLINED : DWS_BLOCK;
    sc->parent = parent;
    sc->fn = parent ? parent->fn : -1;
    const attr *lo = get(d, AT_LOW_PC), *hi = get(d, AT_HIGH_PC);
    if (lo && hi) {
        label_line(b, lo->rel, &sc->lo, &sc->fn);
        label_line(b, hi->rel, &sc->hi, NULL);
    }
    const die *fd = d;
    int32_t org = ref(b, d, AT_ABSTRACT_ORIGIN);
    if (org >= 0) fd = &b->d[org];
    int32_t spec = ref(b, fd, AT_SPECIFICATION);
    if (sc->kind != DWS_BLOCK) {
        const die *nd = spec >= 0 ? &b->d[spec] : fd;
        sc->name = str_of(b, nd, AT_NAME);
        sc->linkage = str_of(b, nd, AT_LINKAGE);
        if (!sc->linkage) sc->linkage = str_of(b, nd, AT_MIPS_LINKAGE);
        if (!sc->linkage) sc->linkage = str_of(b, fd, AT_MIPS_LINKAGE);
        sc->ret = type_of(b, ref(b, nd, AT_TYPE));
    }
    const attr *a;
    if ((a = get(d, AT_CALL_FILE))) sc->call_file = (uint32_t)a->u;
    if ((a = get(d, AT_CALL_LINE))) sc->call_line = (uint32_t)a->u;
    uint32_t nv = 0;
    for (uint32_t c = (uint32_t)k + 1; c < b->nd && b->d[c].parent >= k; c++)
        if (b->d[c].parent == k && (b->d[c].tag == TAG_PARAM || b->d[c].tag == TAG_VARIABLE)) nv++;
    if (nv) sc->vars = palloc(b->di, nv * sizeof *sc->vars);
    for (uint32_t c = (uint32_t)k + 1; c < b->nd && b->d[c].parent >= k; c++) {
        const die *e = &b->d[c];
        if (e->parent != k) continue;
        if ((e->tag == TAG_PARAM || e->tag == TAG_VARIABLE) && sc->vars) read_var(b, e, &sc->vars[sc->nvars++]);
        else if (e->tag == TAG_BLOCK || e->tag == TAG_INLINED) {
            dw_scope *kid = read_scope(b, (int32_t)c, sc);
            if (kid && !push_ptr((void ***)&sc->kids, &sc->nkids, kid)) return sc;
        }
    }
    return sc;
}

/* ---- the whole ---- */

static void free_reader(reader *r) {
    for (int k = 0; k < r->nsec; k++) free(r->sec[k].b), free(r->sec[k].r);
    free(r->defs);
}

static bool parse_dies(builder *b, const section *info) {
    cur c = {info->b, info->n, 0, false};
    uint32_t cap = 0;
    while (c.at + 11 <= c.n) {
        uint32_t unit = c.at;
        uint64_t len = rd(&c, 4);
        uint32_t end = unit + 4 + (uint32_t)len;
        if (len >= 0xfffffff0u || end > c.n) return false;
        uint16_t ver = (uint16_t)rd(&c, 2);
        uint64_t aoff = rd(&c, 4);
        unsigned asz = (unsigned)rd(&c, 1);
        if (ver < 2 || ver > 4 || asz != 8) return false;
        section *abs = NULL;
        for (int k = 0; k < b->r->nsec; k++)
            if (!strcmp(b->r->sec[k].name, ".debug_abbrev")) abs = &b->r->sec[k];
        if (!abs) return false;
        /* the abbreviations */
        abbrev *ab = NULL;
        uint32_t nab = 0;
        cur a = {abs->b, abs->n, (uint32_t)aoff, false};
        for (;;) {
            uint64_t code = uleb(&a);
            if (!code || a.bad) break;
            abbrev *nv = realloc(ab, (nab + 1) * sizeof *nv);
            if (!nv) {
                free(ab);
                return false;
            }
            ab = nv;
            abbrev *x = &ab[nab++];
            x->code = code;
            x->tag = (uint32_t)uleb(&a);
            x->kids = rd(&a, 1) != 0;
            x->nat = 0;
            for (;;) {
                uint32_t at = (uint32_t)uleb(&a), form = (uint32_t)uleb(&a);
                if ((!at && !form) || a.bad) break;
                if (x->nat < 48) x->at[x->nat] = at, x->form[x->nat++] = form;
            }
        }
        b->cu_off = unit;
        int32_t stack[64];
        int depth = 0;
        bool ok = true;
        while (c.at < end && ok) {
            uint32_t off = c.at;
            uint64_t code = uleb(&c);
            if (!code) {
                if (depth) depth--;
                continue;
            }
            abbrev *x = NULL;
            for (uint32_t k = 0; k < nab; k++)
                if (ab[k].code == code) x = &ab[k];
            if (!x) {
                ok = false;
                break;
            }
            if (b->nd == cap) {
                cap = cap ? cap * 2 : 256;
                die *nv = realloc(b->d, cap * sizeof *nv);
                if (!nv) {
                    ok = false;
                    break;
                }
                b->d = nv;
            }
            die *dd = &b->d[b->nd];
            *dd = (die){.off = off, .tag = x->tag, .parent = depth ? stack[depth - 1] : -1};
            dd->at = x->nat ? palloc(b->di, x->nat * sizeof *dd->at) : NULL;
            for (uint32_t k = 0; k < x->nat && ok; k++) {
                attr *at = &dd->at[k];
                at->at = x->at[k];
                ok = dd->at && read_attr(b, &c, x->form[k], at);
            }
            dd->nat = dd->at ? x->nat : 0;
            b->nd++;
            if (x->kids) {
                if (depth == 64) ok = false;
                else stack[depth++] = (int32_t)(b->nd - 1);
            }
        }
        free(ab);
        if (!ok) return false;
        c.at = end;
        break; /* nvcc writes one unit per module */
    }
    return true;
}

dw_info *dw_read(const ir_module *m, char *err, size_t errlen) {
    bool any = false;
    for (uint32_t k = 0; k < m->nsections; k++)
        if (strstr(m->sections[k], ".debug_info")) any = true;
    if (!any) return NULL;
    reader r = {0};
    for (uint32_t k = 0; k < m->nsections; k++)
        if (!strncmp(m->sections[k], ".section", 8) && !read_block(&r, m->sections[k])) {
            snprintf(err, errlen, "the DWARF sections cannot be read");
            free_reader(&r);
            return NULL;
        }
    resolve_local(&r);
    dw_info *di = calloc(1, sizeof *di);
    if (!di) {
        free_reader(&r);
        return NULL;
    }
    builder b = {.di = di, .r = &r, .m = m};
    for (int k = 0; k < r.nsec; k++) {
        if (!strcmp(r.sec[k].name, ".debug_info")) b.info = &r.sec[k];
        if (!strcmp(r.sec[k].name, ".debug_str")) b.str = &r.sec[k];
        if (!strcmp(r.sec[k].name, ".debug_loc")) b.loc = &r.sec[k];
    }
    if (!b.info || !parse_dies(&b, b.info)) {
        snprintf(err, errlen, "the DWARF in .debug_info cannot be read");
        free(b.d);
        free_reader(&r);
        dw_free(di);
        return NULL;
    }
    uint32_t nglob = 0;
    for (uint32_t k = 0; k < b.nd; k++) {
        die *d = &b.d[k];
        int32_t p = d->parent;
        bool top = p >= 0 && b.d[p].tag == TAG_CU;
        if (!top) continue;
        if (d->tag == TAG_VARIABLE) nglob++;
        if (d->tag == TAG_SUBPROGRAM && get(d, AT_LOW_PC)) {
            dw_scope *sc = read_scope(&b, (int32_t)k, NULL);
            if (sc && !push_ptr((void ***)&di->funcs, &di->nfuncs, sc)) break;
        }
    }
    for (uint32_t k = 0; k < b.nd; k++) /* named types at any depth, for ptype NAME */
        if (b.d[k].tag != TAG_SUBPROGRAM && type_of(&b, (int32_t)k) && b.d[k].type->name &&
            !push_ptr((void ***)&di->types, &di->ntypes, b.d[k].type))
            break;
    di->globals = nglob ? palloc(di, nglob * sizeof *di->globals) : NULL;
    for (uint32_t k = 0; k < b.nd && di->globals; k++) {
        int32_t p = b.d[k].parent;
        if (p >= 0 && b.d[p].tag == TAG_CU && b.d[k].tag == TAG_VARIABLE)
            read_var(&b, &b.d[k], &di->globals[di->nglobals++]);
    }
    /* the scopes' lists live in malloc'd vectors: move them into the pool */
    for (uint32_t f = 0; f < di->nfuncs; f++) {
        dw_scope *stack[64] = {di->funcs[f]};
        int n = 1;
        while (n) {
            dw_scope *sc = stack[--n];
            if (sc->nkids) {
                dw_scope **kids = palloc(di, sc->nkids * sizeof *kids);
                if (kids) memcpy(kids, sc->kids, sc->nkids * sizeof *kids);
                free(sc->kids);
                sc->kids = kids;
                if (!kids) sc->nkids = 0;
                for (uint32_t k = 0; k < sc->nkids && n < 64; k++) stack[n++] = sc->kids[k];
            }
        }
    }
    free(b.d);
    free_reader(&r);
    return di;
}

/* ---- queries ---- */

static bool holds(const dw_scope *sc, uint32_t line) { return sc->hi && line >= sc->lo && line < sc->hi; }

int dw_scopes_at(const dw_info *di, int32_t fn, uint32_t line, const dw_scope **out, int max) {
    if (!di || max <= 0) return 0;
    const dw_scope *sc = NULL;
    for (uint32_t k = 0; k < di->nfuncs && !sc; k++)
        if (di->funcs[k]->fn == fn && holds(di->funcs[k], line)) sc = di->funcs[k];
    if (!sc) return 0;
    const dw_scope *chain[64];
    int n = 0;
    while (sc && n < 64) {
        chain[n++] = sc;
        const dw_scope *next = NULL;
        for (uint32_t k = 0; k < sc->nkids && !next; k++)
            if (holds(sc->kids[k], line)) next = sc->kids[k];
        sc = next;
    }
    int m = n < max ? n : max;
    for (int k = 0; k < m; k++) out[k] = chain[n - 1 - k];
    return m;
}

const dw_loc *dw_var_loc(const dw_var *v, uint32_t line) {
    for (uint32_t k = 0; k < v->nloc; k++)
        if (!v->loc[k].hi || (line >= v->loc[k].lo && line < v->loc[k].hi))
            return v->loc[k].kind == DWL_NONE ? NULL : &v->loc[k];
    return NULL;
}

const dw_type *dw_strip(const dw_type *t) {
    while (t && (t->kind == DWK_TYPEDEF || t->kind == DWK_CONST || t->kind == DWK_VOLATILE)) t = t->target;
    return t;
}

const dw_type *dw_find_type(const dw_info *di, const char *name) {
    if (!di) return NULL;
    int want = -1;
    if (!strncmp(name, "struct ", 7)) want = DWK_STRUCT, name += 7;
    else if (!strncmp(name, "union ", 6)) want = DWK_UNION, name += 6;
    else if (!strncmp(name, "enum ", 5)) want = DWK_ENUM, name += 5;
    else if (!strncmp(name, "class ", 6)) want = DWK_STRUCT, name += 6;
    while (*name == ' ') name++;
    for (uint32_t k = 0; k < di->ntypes; k++) {
        const dw_type *t = di->types[k];
        if (t->name && !strcmp(t->name, name) && (want < 0 || t->kind == want)) return t;
    }
    return NULL;
}

const dw_scope *dw_find_func(const dw_info *di, const char *name) {
    for (uint32_t k = 0; di && k < di->nfuncs; k++) {
        const dw_scope *f = di->funcs[k];
        if ((f->linkage && !strcmp(f->linkage, name)) || (f->name && !strcmp(f->name, name))) return f;
    }
    return NULL;
}

bool dw_str_label(const ir_module *m, const char *label, char *out, size_t n) {
    reader r = {0};
    bool found = false;
    for (uint32_t k = 0; k < m->nsections; k++)
        if (!strncmp(m->sections[k], ".section", 8) && strstr(m->sections[k], ".debug_str") &&
            !read_block(&r, m->sections[k]))
            break;
    const section *s = NULL;
    for (int k = 0; k < r.nsec; k++)
        if (!strcmp(r.sec[k].name, ".debug_str")) s = &r.sec[k];
    for (uint32_t d = 0; s && d < r.ndefs && !found; d++)
        if (r.defs[d].nlen == strlen(label) && !strncmp(r.defs[d].name, label, r.defs[d].nlen)) {
            uint32_t o = r.defs[d].off;
            size_t len = strnlen((const char *)s->b + o, s->n - o);
            snprintf(out, n, "%.*s", (int)len, (const char *)s->b + o);
            found = true;
        }
    free_reader(&r);
    return found;
}
