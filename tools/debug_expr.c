/* debug_expr.c — C expressions for `ptxi debug`, as cuda-gdb reads them:
 * variables of the DWARF nvcc -G writes (debug_dwarf.c) in the scopes of the
 * selected frame, members, `->`, indexing, `@` slices, `*`, `&`, arithmetic,
 * comparisons, casts, sizeof, `$N` history, `$pc`, PTX registers and symbols,
 * CUDA's built-in variables; values printed as gdb prints them; ptype and
 * whatis; info locals and args; the frames of a lane with inlined calls. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "debug_dwarf.h"
#include "demangle.h"
#include "exec_mem.h"

#define XMAX 1024
/* /x of a PTX register shows all its digits (as info registers does); C values as gdb does */
static bool pad_hex; /* bytes of a value kept (longer arrays are read element by element) */

/* ---- types made here: C's, PTX registers', dim3 ---- */

#define BASE(id, nm, e, sz) static dw_type id = {.kind = DWK_BASE, .enc = e, .name = nm, .size = sz}
BASE(T_INT, "int", DWE_SIGNED, 4);
BASE(T_UINT, "unsigned int", DWE_UNSIGNED, 4);
BASE(T_LONG, "long", DWE_SIGNED, 8);
BASE(T_ULONG, "unsigned long", DWE_UNSIGNED, 8);
BASE(T_SHORT, "short", DWE_SIGNED, 2);
BASE(T_USHORT, "unsigned short", DWE_UNSIGNED, 2);
BASE(T_CHAR, "char", DWE_SCHAR, 1);
BASE(T_SCHAR, "signed char", DWE_SIGNED, 1);
BASE(T_UCHAR, "unsigned char", DWE_UNSIGNED, 1);
/* C's one-byte types (casts) print as characters; PTX's 8-bit registers (above) as numbers */
BASE(T_C_SCHAR, "signed char", DWE_SCHAR, 1);
BASE(T_C_UCHAR, "unsigned char", DWE_UCHAR, 1);
BASE(T_FLOAT, "float", DWE_FLOAT, 4);
BASE(T_DOUBLE, "double", DWE_FLOAT, 8);
BASE(T_HALF, "__half", DWE_FLOAT, 2);
BASE(T_BOOL, "bool", DWE_BOOL, 1);
BASE(T_PRED, "pred", DWE_UNSIGNED, 1);
BASE(T_B128, "unsigned __int128", DWE_UNSIGNED, 16);
static dw_type T_VOID = {.kind = DWK_VOID, .name = "void"};
static dw_member DIM3_MEM[] = {{"x", 0, &T_UINT}, {"y", 4, &T_UINT}, {"z", 8, &T_UINT}};
static dw_type T_UINT3 = {.kind = DWK_STRUCT, .name = "uint3", .size = 12, .nmem = 3, .mem = DIM3_MEM};
static dw_type T_DIM3 = {.kind = DWK_STRUCT, .name = "dim3", .size = 12, .nmem = 3, .mem = DIM3_MEM};

static const struct {
    const char *name;
    dw_type *t;
} C_TYPES[] = {{"int", &T_INT},
               {"signed int", &T_INT},
               {"signed", &T_INT},
               {"unsigned int", &T_UINT},
               {"unsigned", &T_UINT},
               {"long", &T_LONG},
               {"long int", &T_LONG},
               {"long long", &T_LONG},
               {"unsigned long", &T_ULONG},
               {"unsigned long long", &T_ULONG},
               {"size_t", &T_ULONG},
               {"short", &T_SHORT},
               {"unsigned short", &T_USHORT},
               {"char", &T_CHAR},
               {"signed char", &T_C_SCHAR},
               {"unsigned char", &T_C_UCHAR},
               {"float", &T_FLOAT},
               {"double", &T_DOUBLE},
               {"bool", &T_BOOL},
               {"void", &T_VOID},
               {"__half", &T_HALF},
               {"half", &T_HALF},
               {"dim3", &T_DIM3},
               {"uint3", &T_UINT3}};

/* The C type of a PTX register type. */
static dw_type *reg_type(uint8_t t) {
    if (t == IR_T_PRED) return &T_PRED;
    if (ir_type_bytes[t] == 16) return &T_B128;
    bool s = ir_type_class_of[t] == IR_TC_SINT, f = ir_type_class_of[t] == IR_TC_FLOAT;
    switch (ir_type_bytes[t]) {
    case 1: return s ? &T_SCHAR : &T_UCHAR;
    case 2: return f ? &T_HALF : s ? &T_SHORT : &T_USHORT;
    case 8: return f ? &T_DOUBLE : s ? &T_LONG : &T_ULONG;
    default: return f ? &T_FLOAT : s ? &T_INT : &T_UINT;
    }
}

/* Pointer and array types made by & and @, kept for the process's life. */
static struct made {
    dw_type t;
    struct made *next;
} * made_types;

static const dw_type *made_type(uint8_t kind, const dw_type *target, uint64_t count, uint8_t aclass) {
    for (struct made *m = made_types; m; m = m->next)
        if (m->t.kind == kind && m->t.target == target && m->t.count == count && m->t.aclass == aclass) return &m->t;
    struct made *m = calloc(1, sizeof *m);
    if (!m) return &T_VOID;
    m->t.kind = kind, m->t.target = (dw_type *)target, m->t.count = count, m->t.aclass = aclass;
    m->t.size = kind == DWK_PTR ? 8 : count * (target ? target->size : 0);
    m->next = made_types;
    made_types = m;
    return &m->t;
}

/* ---- values ---- */

typedef struct xv {
    const dw_type *t;
    bool lval; /* in memory at (sp, addr) */
    int sp;
    uint64_t addr;
    const char *reg; /* in this register */
    bool unavail;    /* no location here: <optimized out> */
    uint8_t vclass;  /* a variable's DW_AT_address_class (DWA_*), for its type's @space */
    uint8_t b[XMAX];
} xv;

static uint64_t tsize(const dw_type *t) {
    const dw_type *s = dw_strip(t);
    return s ? s->size : 0;
}

static bool is_float_t(const dw_type *t) {
    t = dw_strip(t);
    return t && t->kind == DWK_BASE && t->enc == DWE_FLOAT;
}
static bool is_signed_t(const dw_type *t) {
    t = dw_strip(t);
    if (t && t->kind == DWK_ENUM) return true;
    return t && t->kind == DWK_BASE && (t->enc == DWE_SIGNED || t->enc == DWE_SCHAR);
}
static bool is_scalar_t(const dw_type *t) {
    t = dw_strip(t);
    return t && (t->kind == DWK_BASE || t->kind == DWK_PTR || t->kind == DWK_ENUM);
}
static bool is_ptr_t(const dw_type *t) {
    t = dw_strip(t);
    return t && t->kind == DWK_PTR;
}

static double half_to_double(uint16_t h) {
    int e = h >> 10 & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h >> 15 ? -v : v;
}

static uint64_t x_u(const xv *v) {
    uint64_t n = tsize(v->t);
    if (n > 8) n = 8;
    uint64_t u = 0;
    memcpy(&u, v->b, n);
    return u;
}

static int64_t x_s(const xv *v) {
    uint64_t n = tsize(v->t), u = x_u(v);
    if (is_signed_t(v->t) && n && n < 8) return (int64_t)(u << (64 - 8 * n)) >> (64 - 8 * n);
    return (int64_t)u;
}

static double x_d(const xv *v) {
    if (is_float_t(v->t)) {
        uint64_t n = tsize(v->t);
        if (n == 4) {
            float f;
            memcpy(&f, v->b, 4);
            return f;
        }
        if (n == 8) {
            double x;
            memcpy(&x, v->b, 8);
            return x;
        }
        if (n == 2) {
            uint16_t h;
            memcpy(&h, v->b, 2);
            return half_to_double(h);
        }
    }
    return is_signed_t(v->t) ? (double)x_s(v) : (double)x_u(v);
}

static void set_int(xv *v, const dw_type *t, uint64_t u) {
    memset(v, 0, offsetof(xv, b));
    v->t = t;
    memset(v->b, 0, 16);
    memcpy(v->b, &u, 8);
}

static void set_float(xv *v, const dw_type *t, double x) {
    memset(v, 0, offsetof(xv, b));
    v->t = t;
    memset(v->b, 0, 16);
    if (tsize(t) == 4) {
        float f = (float)x;
        memcpy(v->b, &f, 4);
    } else memcpy(v->b, &x, 8);
}

/* ---- evaluation context ---- */

typedef struct ectx {
    dbg *d;
    vm_warp *w;
    int l;
    dbg_frame fr; /* the selected frame */
    bool have_fr;
    const dw_info *di;
    const char *p; /* the text still to read */
    char *err;
    size_t errlen;
    bool fail;
    bool noside; /* sizeof, whatis: types only, no memory read */
    int depth;   /* of nested operators: bounded */
    bool bare;   /* info locals/args: a pointer without its type in front, as gdb shows them there */
} ectx;

static void fail(ectx *c, const char *fmt, const char *a) {
    if (c->fail) return;
    c->fail = true;
    snprintf(c->err, c->errlen, fmt, a);
}

/* The address class of a pointer as a state space. */
static int space_of_class(uint8_t ac) {
    switch (ac) {
    case DWA_GLOBAL: return VM_SP_GLOBAL;
    case DWA_SHARED: return VM_SP_SHARED;
    case DWA_LOCAL: return VM_SP_LOCAL;
    case DWA_CONST: return VM_SP_CONST;
    case DWA_PARAM: return VM_SP_KPARAM;
    default: return VM_SP_GENERIC;
    }
}
static uint8_t class_of_space(int sp) {
    switch (sp) {
    case VM_SP_GLOBAL: return DWA_GLOBAL;
    case VM_SP_SHARED: return DWA_SHARED;
    case VM_SP_LOCAL: return DWA_LOCAL;
    case VM_SP_CONST: return DWA_CONST;
    case VM_SP_KPARAM: return DWA_PARAM;
    default: return DWA_GENERIC;
    }
}

/* Reads n bytes at (sp, a) for the lane; false when not readable. */
static bool read_mem(ectx *c, int sp, uint64_t a, uint8_t *out, uint64_t n) {
    for (uint64_t k = 0; k < n;) {
        uint32_t step = n - k >= 8 ? 8 : (uint32_t)(n - k);
        const uint8_t *p = dbg_host_of(c->d, c->w, c->l, sp, a + k, step);
        if (!p) return false;
        memcpy(out + k, p, step);
        k += step;
    }
    return true;
}

/* Fills v->b from memory (up to XMAX bytes). */
static void fetch(ectx *c, xv *v) {
    if (c->noside || !v->lval) return;
    uint64_t n = tsize(v->t);
    if (n > XMAX) n = XMAX;
    if (!read_mem(c, v->sp, v->addr, v->b, n)) {
        char a[40];
        snprintf(a, sizeof a, "0x%llx", (unsigned long long)v->addr);
        fail(c, "Cannot access memory at address %s", a);
    }
}

static void at_mem(ectx *c, xv *v, const dw_type *t, int sp, uint64_t a) {
    memset(v, 0, offsetof(xv, b));
    v->t = t, v->lval = true, v->sp = sp, v->addr = a;
    fetch(c, v);
}

/* ---- variables ---- */

/* The offset mirrors lower.c's layout: .local variables from 0 in each
 * function's frame, function-scope .shared ones after the module's, in order. */
static bool fvar_offset(const vm_program *prog, const char *sym, int *sp, uint64_t *off) {
    const ir_module *m = prog->ir;
    for (uint32_t k = 0; k < m->nglobals; k++)
        if (!strcmp(m->globals[k]->name, sym)) {
            const ir_var *v = m->globals[k];
            *sp = v->space == IR_SPACE_SHARED ? VM_SP_SHARED : v->space == IR_SPACE_CONST ? VM_SP_CONST : VM_SP_GLOBAL;
            *off = v->space == IR_SPACE_SHARED ? prog->shared_off[k] : prog->gaddr[k];
            return true;
        }
    uint64_t top = 0;
    for (uint32_t k = 0; k < m->nglobals; k++) {
        const ir_var *v = m->globals[k];
        if (v->space != IR_SPACE_SHARED || (v->linkage == IR_LINK_EXTERN && !v->size)) continue;
        uint32_t al = v->align ? v->align : 1;
        top = (top + al - 1) / al * al + v->size;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_func *F = m->funcs[f];
        if (!F->has_body) continue;
        uint64_t loc = 0;
        for (uint32_t k = 0; k < F->nlocals; k++) {
            const ir_var *v = F->locals[k];
            uint32_t al = v->align ? v->align : 1;
            if (v->space == IR_SPACE_LOCAL) {
                loc = (loc + al - 1) / al * al;
                if (!strcmp(v->name, sym)) {
                    *sp = VM_SP_LOCAL, *off = loc;
                    return true;
                }
                loc += v->size;
            } else if (v->space == IR_SPACE_SHARED) {
                top = (top + al - 1) / al * al;
                if (!strcmp(v->name, sym)) {
                    *sp = VM_SP_SHARED, *off = top;
                    return true;
                }
                top += v->size;
            }
        }
    }
    return false;
}

/* Does operand o name register reg (itself, or in a vector or p|q pair)? */
static bool names_reg(const ir_operand *o, uint32_t reg) {
    if (o->kind == IR_OPND_REG) return o->reg == reg;
    if (o->kind == IR_OPND_VEC || o->kind == IR_OPND_PAIR)
        for (uint32_t k = 0; k < o->nsub; k++)
            if (names_reg(&o->sub[k], reg)) return true;
    return false;
}

/* Does instruction in write register reg? Those that write one write their
 * first operand; a register first that is only read: a barrier's number
 * (bar.red writes its first), nanosleep's time. */
static bool writes_reg(const ir_insn *in, uint32_t reg) {
    if (!in->nopnds || !names_reg(&in->opnds[0], reg)) return false;
    if (in->op == IR_OP_BAR || in->op == IR_OP_BARRIER) return ir_has_mod(in, IR_MOD_RED);
    return in->op != IR_OP_NANOSLEEP;
}

/* Does register reg of F have a place at PTX line pc: a write to it at pc or
 * before in the text? cuda-gdb's ranges start at the writing instruction
 * itself and run on in address order (a loop coming back above the write
 * does not see it); outside them it shows the variable as <optimized out>. */
static bool reg_assigned(const ir_func *F, uint32_t reg, uint32_t pc) {
    for (uint32_t k = 0; k < F->nbody && F->body[k].loc.line <= pc; k++) {
        const ir_stmt *st = &F->body[k];
        if (st->kind == IR_ST_INSN && writes_reg(&st->u.insn, reg)) return true;
    }
    return false;
}

static bool var_value(ectx *c, const dw_var *var, xv *v) {
    memset(v, 0, offsetof(xv, b));
    v->t = var->type ? var->type : &T_INT;
    v->vclass = var->aclass;
    const vm_frame *fr = c->w ? &c->w->frames[c->fr.phys] : NULL;
    uint32_t line = 0;
    if (fr && c->have_fr) {
        const vm_func *f = dbg_func_of(c->w, c->fr.pc);
        line = f->src[c->fr.pc - f->code].loc.line;
    }
    const dw_loc *loc = dw_var_loc(var, line);
    if (!loc || !c->w) {
        v->unavail = true;
        return true;
    }
    if (loc->kind == DWL_REG) {
        int k = dbg_find_reg(fr->fn->ir, loc->reg, strlen(loc->reg));
        if (k < 0 || (line && !reg_assigned(fr->fn->ir, (uint32_t)k, line))) {
            v->unavail = true;
            return true;
        }
        uint8_t bytes[16] = {0};
        dbg_reg_bytes(fr->fn, fr->fb, k, c->l, bytes);
        uint64_t n = tsize(v->t);
        memcpy(v->b, bytes, n < 16 ? n : 16);
        v->reg = loc->reg;
        return true;
    }
    if (!loc->sym) {
        at_mem(c, v, v->t, space_of_class(var->aclass), (uint64_t)loc->off);
        return true;
    }
    int sp;
    uint64_t a;
    uint8_t ty;
    if (var->aclass == DWA_PARAM || !fvar_offset(c->d->prog, loc->sym, &sp, &a)) {
        if (dbg_find_symbol(c->d, c->w, loc->sym, strlen(loc->sym), &sp, &a, &ty)) {
            v->unavail = true;
            return true;
        }
    } else if (sp == VM_SP_LOCAL) {
        a += fr->local_base;
    }
    at_mem(c, v, v->t, sp, a + (uint64_t)loc->off);
    return true;
}

/* The scopes of the selected frame, innermost first, down to the one naming it. */
static int frame_scopes(ectx *c, const dw_scope **out, int max) {
    if (!c->have_fr || !c->fr.inner) return 0;
    int n = 0;
    for (const dw_scope *s = c->fr.inner; s && n < max; s = s->parent) {
        out[n++] = s;
        if (s == c->fr.named) break;
    }
    return n;
}

static const dw_var *find_var(ectx *c, const char *name) {
    const dw_scope *sc[32];
    int n = frame_scopes(c, sc, 32);
    for (int k = 0; k < n; k++)
        for (uint32_t q = sc[k]->nvars; q-- > 0;)
            if (sc[k]->vars[q].name && !strcmp(sc[k]->vars[q].name, name)) return &sc[k]->vars[q];
    for (uint32_t q = 0; c->di && q < c->di->nglobals; q++)
        if (c->di->globals[q].name && !strcmp(c->di->globals[q].name, name)) return &c->di->globals[q];
    return NULL;
}

/* ---- history ---- */

typedef struct hist {
    xv *v;
    unsigned n, cap;
} hist;

static hist *history(dbg *d) {
    if (!d->history) d->history = calloc(1, sizeof(hist));
    return d->history;
}

void dbg_history_free(dbg *d) {
    hist *h = d->history;
    if (h) free(h->v);
    free(h);
    d->history = NULL;
}

static void remember(dbg *d, const xv *v) {
    hist *h = history(d);
    if (!h) return;
    if (h->n == h->cap) {
        unsigned cap = h->cap ? h->cap * 2 : 16;
        xv *nv = realloc(h->v, cap * sizeof *nv);
        if (!nv) return;
        h->v = nv, h->cap = cap;
    }
    h->v[h->n++] = *v;
}

/* ---- the parser ---- */

static void skip(ectx *c) {
    while (*c->p == ' ' || *c->p == '\t') c->p++;
}

static bool eat(ectx *c, const char *tok) {
    skip(c);
    size_t n = strlen(tok);
    if (strncmp(c->p, tok, n)) return false;
    /* "&" is not "&&", "<" is not "<<" or "<=", "|" is not "||" */
    if (n == 1 && strchr("&|<>", tok[0]) && (c->p[1] == tok[0] || (strchr("<>", tok[0]) && c->p[1] == '=')))
        return false;
    if (n == 1 && strchr("=!", tok[0]) && c->p[1] == '=') return false;
    if (n == 1 && tok[0] == '-' && (c->p[1] == '>' || c->p[1] == '-')) return false;
    c->p += n;
    return true;
}

static size_t ident_len(const char *p) {
    size_t n = 0;
    if (isalpha((unsigned char)p[0]) || p[0] == '_' || p[0] == '$' || p[0] == '%')
        for (n = 1; isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$' || p[n] == '.'; n++)
            if (p[n] == '.' && p[0] != '%') break;
    return n;
}

static void expr(ectx *c, xv *v);
static void unary(ectx *c, xv *v);

/* Comparisons and ! give a bool in C++ code (DWARF from nvcc), an int in PTX alone. */
static const dw_type *truth_type(const ectx *c) { return c->di ? &T_BOOL : &T_INT; }

/* A type name at c->p ("unsigned int", "struct Pt", "pt_t", "float *"); NULL when there is none. */
static const dw_type *parse_type(ectx *c) {
    skip(c);
    const char *save = c->p;
    char words[128] = "";
    const dw_type *t = NULL;
    bool is_const = false;
    for (;;) {
        skip(c);
        size_t n = ident_len(c->p);
        if (!n || c->p[0] == '$' || c->p[0] == '%') break;
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)(n < 63 ? n : 63), c->p);
        if (!strcmp(w, "const") || !strcmp(w, "volatile")) {
            is_const = true;
            c->p += n;
            continue;
        }
        if (!strcmp(w, "struct") || !strcmp(w, "union") || !strcmp(w, "enum") || !strcmp(w, "class")) {
            c->p += n;
            skip(c);
            size_t m = ident_len(c->p);
            char full[128];
            snprintf(full, sizeof full, "%s %.*s", w, (int)m, c->p);
            c->p += m;
            t = dw_find_type(c->di, full);
            if (!t) {
                char msg[160];
                snprintf(msg, sizeof msg, "No %s type named %.*s.", w, (int)m, c->p - m);
                fail(c, "%s", msg);
                return NULL;
            }
            break;
        }
        char cand[128];
        bool base = false;
        if (snprintf(cand, sizeof cand, "%s%s%s", words, words[0] ? " " : "", w) < (int)sizeof cand)
            for (size_t k = 0; k < sizeof C_TYPES / sizeof C_TYPES[0]; k++)
                if (!strncmp(C_TYPES[k].name, cand, strlen(cand))) base = true;
        if (base) {
            snprintf(words, sizeof words, "%s", cand);
            c->p += n;
            continue;
        }
        if (!words[0]) {
            const dw_type *named = dw_find_type(c->di, w);
            if (named) {
                t = named;
                c->p += n;
            }
        }
        break;
    }
    if (!t && words[0]) {
        if (!strcmp(words, "long long unsigned") || !strcmp(words, "long unsigned"))
            snprintf(words, sizeof words, "unsigned long");
        const dw_type *dt = dw_find_type(c->di, words);
        for (size_t k = 0; k < sizeof C_TYPES / sizeof C_TYPES[0] && !dt; k++)
            if (!strcmp(C_TYPES[k].name, words)) dt = C_TYPES[k].t;
        t = dt;
    }
    if (!t) {
        c->p = save;
        return NULL;
    }
    (void)is_const;
    for (;;) {
        skip(c);
        if (*c->p == '*') {
            c->p++;
            t = made_type(DWK_PTR, t, 0, DWA_GENERIC);
            continue;
        }
        if (!strncmp(c->p, "const", 5) && !isalnum((unsigned char)c->p[5])) {
            c->p += 5;
            continue;
        }
        break;
    }
    return t;
}

static void history_value(ectx *c, xv *v, const char *tok, size_t n) {
    hist *h = history(c->d);
    unsigned cnt = h ? h->n : 0;
    long idx;
    if (n == 1) idx = (long)cnt;                             /* $ */
    else if (n == 2 && tok[1] == '$') idx = (long)cnt - 1;   /* $$ */
    else if (tok[1] == '$') idx = (long)cnt - atol(tok + 2); /* $$N */
    else idx = atol(tok + 1);                                /* $N */
    if (idx < 1 || idx > (long)cnt) {
        if (!cnt && n == 1) {
            set_int(v, &T_VOID, 0);
            v->unavail = true;
            return;
        }
        char b[32];
        snprintf(b, sizeof b, "%ld", idx);
        fail(c, "History has not yet reached $%s.", b);
        return;
    }
    *v = h->v[idx - 1];
}

static void builtin_dim3(ectx *c, xv *v, const char *sreg, const dw_type *t) {
    set_int(v, t, 0);
    for (int k = 0; k < 3; k++) {
        char name[16];
        snprintf(name, sizeof name, "%%%s.%c", sreg, 'x' + k);
        dbg_val r;
        if (dbg_eval(c->d, c->w, c->l, name, &r, c->err, c->errlen)) {
            c->fail = true;
            return;
        }
        uint32_t u = (uint32_t)r.bits;
        memcpy(v->b + 4 * k, &u, 4);
    }
}

static void identifier(ectx *c, xv *v) {
    size_t n = ident_len(c->p);
    char tok[128];
    snprintf(tok, sizeof tok, "%.*s", (int)(n < 127 ? n : 127), c->p);
    c->p += n;
    if (tok[0] == '$') {
        if (!strcmp(tok, "$pc")) {
            set_int(v, made_type(DWK_PTR, &T_VOID, 0, DWA_NONE), 0);
            if (!c->have_fr) {
                fail(c, "No registers.%s", "");
                return;
            }
            const vm_func *f = dbg_func_of(c->w, c->fr.pc);
            uint64_t pc = (uint64_t)(c->fr.pc - f->code);
            memcpy(v->b, &pc, 8);
            v->reg = "$pc";
            return;
        }
        bool digits = true;
        for (size_t k = 1; k < n; k++)
            if (!isdigit((unsigned char)tok[k]) && !(k == 1 && tok[1] == '$')) digits = false;
        if (digits) {
            history_value(c, v, tok, n);
            return;
        }
        fail(c, "No register or convenience variable %s.", tok);
        return;
    }
    if (tok[0] == '%') {
        dbg_val r;
        if (dbg_eval(c->d, c->w, c->l, tok, &r, c->err, c->errlen)) {
            c->fail = true;
            return;
        }
        const dw_type *t = reg_type(r.type);
        set_int(v, t, r.bits);
        if (t == &T_B128 && c->w) { /* both halves */
            const vm_frame *fr = &c->w->frames[c->have_fr ? c->fr.phys : 0];
            int k = dbg_find_reg(fr->fn->ir, tok, strlen(tok));
            if (k >= 0) dbg_reg_bytes(fr->fn, fr->fb, k, c->l, v->b);
        }
        v->reg = "";
        return;
    }
    if (!strcmp(tok, "sizeof")) {
        skip(c);
        const char *save = c->p;
        const dw_type *t = NULL;
        if (eat(c, "(")) {
            t = parse_type(c);
            if (t && !eat(c, ")")) t = NULL;
            if (!t) c->p = save;
        }
        if (!t) {
            bool ns = c->noside;
            c->noside = true;
            xv *x = malloc(sizeof *x);
            if (!x) {
                fail(c, "Out of memory.%s", "");
                return;
            }
            unary(c, x);
            t = x->t;
            free(x);
            c->noside = ns;
        }
        set_int(v, &T_ULONG, tsize(t));
        return;
    }
    const dw_var *var = find_var(c, tok);
    if (var) {
        var_value(c, var, v);
        return;
    }
    static const struct {
        const char *cuda, *sreg;
        dw_type *t;
    } B[] = {{"threadIdx", "tid", &T_UINT3},
             {"blockIdx", "ctaid", &T_UINT3},
             {"blockDim", "ntid", &T_DIM3},
             {"gridDim", "nctaid", &T_DIM3}};
    for (size_t k = 0; k < 4; k++)
        if (!strcmp(tok, B[k].cuda)) {
            if (!c->w) {
                fail(c, "No frame selected.%s", "");
                return;
            }
            builtin_dim3(c, v, B[k].sreg, B[k].t);
            return;
        }
    if (!strcmp(tok, "warpSize")) {
        set_int(v, &T_INT, VM_LANES);
        return;
    }
    int sp;
    uint64_t a;
    uint8_t type;
    if (!dbg_find_symbol(c->d, c->w, tok, n, &sp, &a, &type)) { /* a PTX symbol: its type from PTX */
        const dw_type *t = reg_type(type);
        if (c->d->prog) {
            const ir_module *m = c->d->prog->ir;
            for (uint32_t k = 0; k < m->nglobals; k++)
                if (!strcmp(m->globals[k]->name, tok) && m->globals[k]->size > ir_type_bytes[type] &&
                    ir_type_bytes[type])
                    t = made_type(DWK_ARRAY, t, m->globals[k]->size / ir_type_bytes[type], 0);
        }
        at_mem(c, v, t, sp, a);
        return;
    }
    if (c->have_fr) { /* a function-scope PTX variable */
        const vm_frame *fr = &c->w->frames[c->fr.phys];
        const ir_func *F = fr->fn->ir;
        for (uint32_t k = 0; k < F->nlocals; k++)
            if (!strcmp(F->locals[k]->name, tok) && fvar_offset(c->d->prog, tok, &sp, &a)) {
                const ir_var *pv = F->locals[k];
                const dw_type *t = reg_type(pv->type);
                if (ir_type_bytes[pv->type] && pv->size > ir_type_bytes[pv->type])
                    t = made_type(DWK_ARRAY, t, pv->size / ir_type_bytes[pv->type], 0);
                at_mem(c, v, t, sp, sp == VM_SP_LOCAL ? a + fr->local_base : a);
                return;
            }
    }
    fail(c, "No symbol \"%s\" in current context.", tok);
}

static void number(ectx *c, xv *v) {
    const char *s = c->p;
    char *end;
    bool fl = false;
    size_t n = strspn(s, "0123456789abcdefABCDEFxX.");
    for (size_t k = 0; k < n; k++)
        if ((s[k] == '.' || s[k] == 'e' || s[k] == 'E') && !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))) fl = true;
    if (fl) {
        double x = strtod(s, &end);
        bool f32 = *end == 'f' || *end == 'F';
        if (f32) end++;
        set_float(v, f32 ? &T_FLOAT : &T_DOUBLE, x);
    } else {
        uint64_t u = strtoull(s, &end, 0);
        bool uns = false, lng = false;
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L') {
            if (*end == 'u' || *end == 'U') uns = true;
            else lng = true;
            end++;
        }
        /* C's type for the literal: int, unsigned int, long, unsigned long */
        const dw_type *t = !lng && !uns && u <= INT32_MAX                                   ? &T_INT
                           : !lng && u <= UINT32_MAX && (uns || s[1] == 'x' || s[1] == 'X') ? &T_UINT
                           : !lng && !uns && u <= INT32_MAX                                 ? &T_INT
                           : !uns && u <= INT64_MAX                                         ? &T_LONG
                                                                                            : &T_ULONG;
        if (!lng && !uns && u > INT32_MAX && u <= UINT32_MAX && !(s[1] == 'x' || s[1] == 'X')) t = &T_LONG;
        set_int(v, t, u);
    }
    if (isalnum((unsigned char)*end) || *end == '_') {
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s",
                 (int)(ident_len(end) + (size_t)(end - s) < 63 ? ident_len(end) + (size_t)(end - s) : 63), s);
        fail(c, "Invalid number \"%s\".", tok);
    }
    c->p = end;
}

static void primary(ectx *c, xv *v) {
    skip(c);
    if (c->fail) return;
    if (eat(c, "(")) {
        expr(c, v);
        if (!eat(c, ")")) fail(c, "A syntax error in expression, near `%s'.", c->p);
        return;
    }
    if (*c->p == '{') { /* {TYPE} ADDRESS */
        c->p++;
        const dw_type *t = parse_type(c);
        if (!t || !eat(c, "}")) {
            fail(c, "A syntax error in expression, near `%s'.", c->p);
            return;
        }
        xv *a = malloc(sizeof *a);
        if (!a) return;
        unary(c, a);
        if (!c->fail) at_mem(c, v, t, is_ptr_t(a->t) ? space_of_class(dw_strip(a->t)->aclass) : VM_SP_GENERIC, x_u(a));
        free(a);
        return;
    }
    if (isdigit((unsigned char)*c->p) || (*c->p == '.' && isdigit((unsigned char)c->p[1]))) {
        number(c, v);
        return;
    }
    if (*c->p == '\'' && c->p[1] && c->p[2] == '\'') {
        set_int(v, &T_CHAR, (uint8_t)c->p[1]);
        c->p += 3;
        return;
    }
    if (ident_len(c->p)) {
        identifier(c, v);
        return;
    }
    if (!*c->p) fail(c, "A syntax error in expression, near `%s'.", c->p);
    else fail(c, "A syntax error in expression, near `%s'.", c->p);
}

/* The element type of an array or pointer; NULL for others. */
static const dw_type *elem_of(const dw_type *t) {
    t = dw_strip(t);
    if (!t || (t->kind != DWK_ARRAY && t->kind != DWK_PTR)) return NULL;
    return t->target ? t->target : &T_VOID;
}

static void deref(ectx *c, xv *v) {
    const dw_type *s = dw_strip(v->t);
    if (s && s->kind == DWK_ARRAY) { /* *arr is arr[0] */
        if (!v->lval) {
            fail(c, "Attempt to take contents of a non-pointer value.%s", "");
            return;
        }
        at_mem(c, v, s->target, v->sp, v->addr);
        return;
    }
    if (!s || s->kind != DWK_PTR) {
        fail(c, "Attempt to take contents of a non-pointer value.%s", "");
        return;
    }
    const dw_type *t = s->target ? s->target : &T_VOID;
    if (dw_strip(t)->kind == DWK_VOID) {
        fail(c, "Attempt to take contents of a non-pointer value.%s", "");
        return;
    }
    at_mem(c, v, t, space_of_class(s->aclass), x_u(v));
}

static void index_into(ectx *c, xv *v, int64_t i) {
    const dw_type *s = dw_strip(v->t), *e = elem_of(v->t);
    if (!e) {
        fail(c, "cannot subscript something of type `%s'", "");
        return;
    }
    if (s->kind == DWK_ARRAY && !v->lval) { /* an array held in registers or history */
        uint64_t es = tsize(e);
        if (i < 0 || (uint64_t)i * es + es > XMAX || (s->count && (uint64_t)i >= s->count)) {
            fail(c, "no such vector element%s", "");
            return;
        }
        xv tmp = *v;
        memset(v->b, 0, XMAX);
        memcpy(v->b, tmp.b + (uint64_t)i * es, es);
        v->t = e;
        return;
    }
    uint64_t base = s->kind == DWK_ARRAY ? v->addr : x_u(v);
    int sp = s->kind == DWK_ARRAY ? v->sp : space_of_class(s->aclass);
    at_mem(c, v, e, sp, base + (uint64_t)(i * (int64_t)tsize(e)));
}

static void member(ectx *c, xv *v, bool arrow) {
    skip(c);
    size_t n = ident_len(c->p);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), c->p);
    c->p += n;
    if (!n) {
        fail(c, "A syntax error in expression, near `%s'.", c->p);
        return;
    }
    if (arrow) {
        if (!is_ptr_t(v->t)) {
            fail(c, "The -> operator needs a pointer (use . for a member of \"%s\").", name);
            return;
        }
        deref(c, v);
        if (c->fail) return;
    }
    const dw_type *s = dw_strip(v->t);
    if (!s || (s->kind != DWK_STRUCT && s->kind != DWK_UNION)) {
        fail(c, "Attempt to extract a component of a value that is not a structure%s.", arrow ? " pointer" : "");
        return;
    }
    for (uint32_t k = 0; k < s->nmem; k++)
        if (s->mem[k].name && !strcmp(s->mem[k].name, name)) {
            const dw_member *m = &s->mem[k];
            if (v->lval) {
                at_mem(c, v, m->type, v->sp, v->addr + m->off);
                return;
            }
            uint64_t sz = tsize(m->type);
            uint8_t tmp[XMAX];
            memset(tmp, 0, sizeof tmp);
            if (m->off + sz <= XMAX) memcpy(tmp, v->b + m->off, sz);
            memcpy(v->b, tmp, XMAX);
            v->t = m->type;
            return;
        }
    char msg[200];
    snprintf(msg, sizeof msg, "There is no member named %s.", name);
    fail(c, "%s", msg);
}

static void postfix(ectx *c, xv *v) {
    primary(c, v);
    while (!c->fail) {
        skip(c);
        if (eat(c, "[")) {
            xv *i = malloc(sizeof *i);
            if (!i) return;
            expr(c, i);
            if (!c->fail && !eat(c, "]")) fail(c, "A syntax error in expression, near `%s'.", c->p);
            if (!c->fail) index_into(c, v, x_s(i));
            free(i);
        } else if (eat(c, "->")) member(c, v, true);
        else if (*c->p == '.' && !isdigit((unsigned char)c->p[1])) {
            c->p++;
            member(c, v, false);
        } else break;
    }
}

static void cast_to(ectx *c, xv *v, const dw_type *t) {
    const dw_type *s = dw_strip(t);
    if (!is_scalar_t(t)) {
        if (tsize(t) == tsize(v->t)) {
            v->t = t;
            return;
        }
        fail(c, "Invalid cast.%s", "");
        return;
    }
    if (is_float_t(t)) {
        double x = x_d(v);
        set_float(v, t, x);
        return;
    }
    uint64_t u = is_float_t(v->t) ? (uint64_t)(int64_t)x_d(v) : (uint64_t)x_s(v);
    uint8_t ac = s->kind == DWK_PTR && is_ptr_t(v->t) ? dw_strip(v->t)->aclass : 0;
    set_int(v, s->kind == DWK_PTR && !s->aclass && ac ? made_type(DWK_PTR, s->target, 0, ac) : t, u);
}

static void unary_(ectx *c, xv *v);

static void unary(ectx *c, xv *v) {
    if (++c->depth > 200) {
        fail(c, "Expression too deeply nested.%s", "");
        c->depth--;
        return;
    }
    unary_(c, v);
    c->depth--;
}

static void unary_(ectx *c, xv *v) {
    skip(c);
    if (c->fail) return;
    if (eat(c, "-")) {
        unary(c, v);
        if (c->fail) return;
        if (is_float_t(v->t)) set_float(v, v->t, -x_d(v));
        else
            set_int(v,
                    tsize(v->t) == 8                       ? v->t
                    : is_signed_t(v->t) || tsize(v->t) < 4 ? &T_INT
                                                           : &T_UINT,
                    (uint64_t)-x_s(v));
        return;
    }
    if (eat(c, "+")) {
        unary(c, v);
        return;
    }
    if (eat(c, "!")) {
        unary(c, v);
        if (!c->fail) set_int(v, truth_type(c), is_float_t(v->t) ? x_d(v) == 0 : x_u(v) == 0);
        return;
    }
    if (eat(c, "~")) {
        unary(c, v);
        if (!c->fail)
            set_int(v,
                    tsize(v->t) == 8                       ? v->t
                    : is_signed_t(v->t) || tsize(v->t) < 4 ? &T_INT
                                                           : &T_UINT,
                    ~(uint64_t)x_s(v));
        return;
    }
    if (eat(c, "*")) {
        unary(c, v);
        if (!c->fail) deref(c, v);
        return;
    }
    if (eat(c, "&")) {
        skip(c);
        const char *name = c->p;
        size_t n = ident_len(name);
        unary(c, v);
        if (c->fail) return;
        if (!v->lval) {
            char id[64];
            snprintf(id, sizeof id, "%.*s", (int)(n < 63 ? n : 63), name);
            if (v->reg && *v->reg) {
                char msg[200];
                snprintf(msg, sizeof msg, "Address requested for identifier \"%s\" which is in register %s", id,
                         v->reg);
                fail(c, "%s", msg);
            } else fail(c, "Attempt to take address of value not located in memory.%s", "");
            return;
        }
        uint64_t a = v->addr;
        set_int(v, made_type(DWK_PTR, v->t, 0, class_of_space(v->sp)), a);
        return;
    }
    skip(c);
    if (*c->p == '(') { /* a cast? */
        const char *save = c->p;
        c->p++;
        const dw_type *t = parse_type(c);
        if (t && eat(c, ")")) {
            unary(c, v);
            if (!c->fail) cast_to(c, v, t);
            return;
        }
        c->p = save;
        c->fail = false;
    }
    postfix(c, v);
}

/* The usual arithmetic conversions: the type both operands take. */
static const dw_type *common(const xv *a, const xv *b) {
    if (is_float_t(a->t) || is_float_t(b->t)) {
        uint64_t sa = is_float_t(a->t) ? tsize(a->t) : 0, sb = is_float_t(b->t) ? tsize(b->t) : 0;
        return sa == 8 || sb == 8 ? &T_DOUBLE : &T_FLOAT;
    }
    uint64_t sa = tsize(a->t), sb = tsize(b->t);
    bool ua = !is_signed_t(a->t) && sa >= 4, ub = !is_signed_t(b->t) && sb >= 4;
    if (sa == 8 || sb == 8) return (sa == 8 && ua) || (sb == 8 && ub) ? &T_ULONG : &T_LONG;
    return ua || ub ? &T_UINT : &T_INT;
}

static int64_t sext(const dw_type *t, uint64_t u) { return tsize(t) == 4 ? (int64_t)(int32_t)u : (int64_t)u; }

static void binop(ectx *c, xv *a, xv *b, const char *op) {
    if (c->fail) return;
    if (!is_scalar_t(a->t) || !is_scalar_t(b->t)) {
        fail(c, "Argument to arithmetic operation not a number or boolean.%s", "");
        return;
    }
    bool pa = is_ptr_t(a->t), pb = is_ptr_t(b->t);
    if ((pa || pb) && (!strcmp(op, "+") || !strcmp(op, "-"))) {
        if (pa && pb) {
            if (op[0] != '-') {
                fail(c, "Argument to arithmetic operation not a number or boolean.%s", "");
                return;
            }
            uint64_t es = tsize(elem_of(a->t));
            set_int(a, &T_LONG, (uint64_t)(((int64_t)(x_u(a) - x_u(b))) / (int64_t)(es ? es : 1)));
            return;
        }
        xv *p = pa ? a : b, *i = pa ? b : a;
        uint64_t es = tsize(elem_of(p->t));
        if (!es) es = 1;
        int64_t n = x_s(i);
        uint64_t r = op[0] == '+' ? x_u(p) + (uint64_t)(n * (int64_t)es) : x_u(p) - (uint64_t)(n * (int64_t)es);
        const dw_type *t = p->t;
        set_int(a, t, r);
        return;
    }
    static const char *const cmp[] = {"==", "!=", "<", ">", "<=", ">="};
    const dw_type *t = common(a, b);
    for (int k = 0; k < 6; k++)
        if (!strcmp(op, cmp[k])) {
            int r;
            if (is_float_t(t)) {
                double x = x_d(a), y = x_d(b);
                bool R[6] = {x == y, x != y, x<y, x> y, x <= y, x >= y};
                r = R[k];
            } else if (is_signed_t(t)) {
                int64_t x = sext(t, (uint64_t)x_s(a)), y = sext(t, (uint64_t)x_s(b));
                bool R[6] = {x == y, x != y, x<y, x> y, x <= y, x >= y};
                r = R[k];
            } else {
                uint64_t x = x_u(a), y = x_u(b);
                if (tsize(t) == 4) x = (uint32_t)x_s(a), y = (uint32_t)x_s(b);
                bool R[6] = {x == y, x != y, x<y, x> y, x <= y, x >= y};
                r = R[k];
            }
            set_int(a, truth_type(c), (uint64_t)r);
            return;
        }
    if (!strcmp(op, "&&") || !strcmp(op, "||")) {
        bool x = is_float_t(a->t) ? x_d(a) != 0 : x_u(a) != 0, y = is_float_t(b->t) ? x_d(b) != 0 : x_u(b) != 0;
        set_int(a, truth_type(c), op[0] == '&' ? x && y : x || y);
        return;
    }
    if (is_float_t(t)) {
        double x = x_d(a), y = x_d(b), r;
        switch (op[0]) {
        case '+': r = x + y; break;
        case '-': r = x - y; break;
        case '*': r = x * y; break;
        case '/': r = x / y; break;
        default: fail(c, "Integer only operation %s.", op); return;
        }
        set_float(a, t, r);
        return;
    }
    bool s = is_signed_t(t);
    uint64_t x = (uint64_t)x_s(a), y = (uint64_t)x_s(b), r = 0;
    if (tsize(t) == 4) x = (uint32_t)x, y = (uint32_t)y;
    int64_t sx = sext(t, x), sy = sext(t, y);
    switch (op[0]) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/':
    case '%':
        if (!y) {
            fail(c, "Division by zero%s", "");
            return;
        }
        if (s) r = op[0] == '/' ? (uint64_t)(sy == INT64_MIN && sy == -1 ? sx : sx / sy) : (uint64_t)(sx % sy);
        else r = op[0] == '/' ? x / y : x % y;
        break;
    case '&': r = x & y; break;
    case '|': r = x | y; break;
    case '^': r = x ^ y; break;
    case '<': r = y >= 64 ? 0 : x << y; break;
    case '>': r = y >= 64 ? 0 : s ? (uint64_t)(sx >> y) : x >> y; break;
    default: break;
    }
    set_int(a, t, tsize(t) == 4 ? (uint32_t)r : r);
}

/* Binary operators by precedence, lowest first. */
static const char *const LEVELS[][4] = {
    {"||"},       {"&&"}, {"|"},      {"^"},          {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"},
    {"<<", ">>"}, {"@"},  {"+", "-"}, {"*", "/", "%"}};
#define NLEVELS (int)(sizeof LEVELS / sizeof LEVELS[0])

static void slice(ectx *c, xv *a, xv *b) {
    if (!a->lval) {
        fail(c, "Only values in memory can be extended with '@'.%s", "");
        return;
    }
    int64_t n = x_s(b);
    if (n <= 0) {
        fail(c, "Non-positive repeat count.%s", "");
        return;
    }
    at_mem(c, a, made_type(DWK_ARRAY, a->t, (uint64_t)n, 0), a->sp, a->addr);
}

static void binary(ectx *c, xv *v, int level) {
    if (level == NLEVELS) {
        unary(c, v);
        return;
    }
    binary(c, v, level + 1);
    for (;;) {
        if (c->fail) return;
        int hit = -1;
        for (int k = 0; k < 4 && LEVELS[level][k]; k++)
            if (eat(c, LEVELS[level][k])) {
                hit = k;
                break;
            }
        if (hit < 0) return;
        xv *r = malloc(sizeof *r);
        if (!r) {
            fail(c, "Out of memory.%s", "");
            return;
        }
        binary(c, r, level + 1);
        const char *op = LEVELS[level][hit];
        if (!c->fail) {
            if (op[0] == '@') slice(c, v, r);
            else {
                /* shifts are spelled "<<" and ">>": binop reads the first character */
                binop(c, v, r, op);
            }
        }
        free(r);
    }
}

/* COND ? A : B (both sides read, as && and || read theirs; no side effects). */
static void expr(ectx *c, xv *v) {
    binary(c, v, 0);
    if (c->fail || !eat(c, "?")) return;
    xv *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        fail(c, "Out of memory.%s", "");
        return;
    }
    bool yes = is_float_t(v->t) ? x_d(v) != 0 : x_u(v) != 0;
    expr(c, a);
    if (!c->fail && !eat(c, ":")) fail(c, "A syntax error in expression, near `%s'.", c->p);
    if (!c->fail) expr(c, b);
    if (!c->fail) *v = yes ? *a : *b;
    free(a);
    free(b);
}

/* ---- frames ---- */

/* The -lineinfo form of inlining: the `.loc ... function_name F, inlined_at FILE LINE COL`
 * in effect at instruction i (the text after the .loc's numbers, NULL when none). */
static const char *inlined_loc(const vm_func *f, const vm_insn *i) {
    const vm_src *s = &f->src[i - f->code];
    const ir_func *F = f->ir;
    const ir_stmt *last = NULL;
    for (uint32_t k = 0; k < F->nbody; k++) {
        const ir_stmt *st = &F->body[k];
        if (st->loc.line > s->loc.line) break;
        if (st->kind == IR_ST_LOC) last = st;
    }
    return dbg_loc_inlined(last, s);
}

const char *dbg_loc_inlined(const ir_stmt *last, const vm_src *s) {
    if (!last || last->u.locd.dbg.file != s->dbg.file || last->u.locd.dbg.line != s->dbg.line ||
        last->u.locd.dbg.col != s->dbg.col || !last->u.locd.text)
        return NULL;
    return strstr(last->u.locd.text, "inlined_at") ? last->u.locd.text : NULL;
}

int dbg_frames(dbg *d, vm_warp *w, int l, dbg_frame *out, int max) {
    const vm_insn *at = dbg_lane_pc(w, l);
    if (!at) return 0;
    const dw_info *di = dbg_dwarf(d);
    int top = dbg_lane_frame(w, l), n = 0;
    for (int k = top; k >= 0 && n < max; k--) {
        const vm_insn *i = k == top ? at : w->frames[k + 1].call;
        const vm_func *f = dbg_func_of(w, i);
        const vm_src *s = &f->src[i - f->code];
        uint32_t fi = (uint32_t)(f - d->prog->funcs);
        const dw_scope *sc[32];
        int ns = dw_scopes_at(di, (int32_t)fi, s->loc.line, sc, 32);
        dbg_frame fr = {.phys = k, .pc = i, .file = s->dbg.file, .line = s->dbg.line};
        if (ns) {
            fr.inner = sc[0];
            for (int q = 0; q < ns && n < max; q++) {
                if (sc[q]->kind == DWS_BLOCK) continue;
                fr.named = sc[q];
                out[n++] = fr;
                if (sc[q]->kind == DWS_INLINED) { /* the caller: the same instruction, at the call's line */
                    fr = (dbg_frame){.phys = k, .pc = i, .file = sc[q]->call_file, .line = sc[q]->call_line};
                    fr.inner = q + 1 < ns ? sc[q + 1] : NULL;
                }
            }
            continue;
        }
        const char *inl = inlined_loc(f, i);
        if (inl && n + 1 < max) { /* -lineinfo: the inlined function's name is a .debug_str label */
            const char *fnp = strstr(inl, "function_name");
            static char names[8][128];
            char *nm = names[n % 8];
            nm[0] = 0;
            if (fnp) {
                fnp += 13;
                while (*fnp == ' ') fnp++;
                size_t ln = strcspn(fnp, " ,+");
                char label[128];
                snprintf(label, sizeof label, "%.*s", (int)(ln < 127 ? ln : 127), fnp);
                if (!dw_str_label(d->prog->ir, label, nm, sizeof names[0])) nm[0] = 0;
            }
            fr.inl_name = nm[0] ? nm : "??";
            out[n++] = fr;
            const char *ia = strstr(inl, "inlined_at");
            unsigned file = 0, line = 0;
            if (ia) sscanf(ia + 10, "%u %u", &file, &line);
            fr = (dbg_frame){.phys = k, .pc = i, .file = file, .line = line};
        }
        out[n++] = fr;
    }
    return n;
}

const char *dbg_frame_name(dbg *d, const dbg_frame *fr, const vm_warp *w) {
    if (fr->inl_name) { /* a C++ name, shown as gdb shows an inlined function: its name alone */
        static char buf[256];
        if (!ptx_demangle(fr->inl_name, buf, sizeof buf)) return fr->inl_name;
        buf[strcspn(buf, "(")] = 0;
        /* nvcc's file-local namespace (_INTERNAL_<hash>_<file>) says nothing */
        const char *q = strstr(buf, "::");
        if (!strncmp(buf, "_INTERNAL_", 10) && q) memmove(buf, q + 2, strlen(q + 2) + 1);
        return buf;
    }
    if (fr->named && fr->named->kind == DWS_INLINED && fr->named->name) return fr->named->name;
    return dbg_fn_name(d, w->frames[fr->phys].fn->ir->name);
}

const char *dbg_inlined_name(dbg *d, const vm_warp *w, const vm_insn *i) {
    const vm_func *f = dbg_func_of(w, i);
    const vm_src *s = &f->src[i - f->code];
    const dw_scope *sc[32];
    int ns = dw_scopes_at(dbg_dwarf(d), (int32_t)(f - d->prog->funcs), s->loc.line, sc, 32), q = 0;
    while (q < ns && sc[q]->kind == DWS_BLOCK) q++;
    if (q < ns) return sc[q]->kind == DWS_INLINED ? sc[q]->name : NULL;
    dbg_frame fr[2];
    const char *inl = inlined_loc(f, i);
    if (!inl) return NULL;
    const char *fnp = strstr(inl, "function_name");
    static char nm[128];
    if (!fnp) return "??";
    fnp += 13;
    while (*fnp == ' ') fnp++;
    size_t ln = strcspn(fnp, " ,+");
    char label[128];
    snprintf(label, sizeof label, "%.*s", (int)(ln < 127 ? ln : 127), fnp);
    if (!dw_str_label(d->prog->ir, label, nm, sizeof nm)) return "??";
    fr[0] = (dbg_frame){.inl_name = nm};
    return dbg_frame_name(d, &fr[0], w);
}

bool dbg_frame_inlined(const dbg_frame *fr) { return fr->inl_name || (fr->named && fr->named->kind == DWS_INLINED); }

/* ---- the context of the lane in focus and its selected frame ---- */

static void setup(ectx *c, dbg *d, vm_warp *w, int l, char *err, size_t errlen) {
    memset(c, 0, sizeof *c);
    c->d = d, c->w = w, c->l = l, c->err = err, c->errlen = errlen;
    c->di = d->prog ? dbg_dwarf(d) : NULL;
    if (!w) return;
    dbg_frame fr[64];
    int n = dbg_frames(d, w, l, fr, 64);
    if (!n) return;
    int sel = d->sel_frame < n ? d->sel_frame : n - 1;
    c->fr = fr[sel];
    c->have_fr = true;
}

static int evaluate(dbg *d, vm_warp *w, int l, const char *text, xv *v, char *err, size_t errlen, ectx *cx) {
    setup(cx, d, w, l, err, errlen);
    cx->p = text;
    skip(cx);
    if (!*cx->p) {
        snprintf(err, errlen, "Argument required (expression to compute).");
        return -1;
    }
    expr(cx, v);
    skip(cx);
    if (!cx->fail && *cx->p) fail(cx, "A syntax error in expression, near `%s'.", cx->p);
    return cx->fail ? -1 : 0;
}

/* ---- printing values ---- */

typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (b->n + 1 < b->cap) {
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        if (k > 0) b->n = b->n + (size_t)k < b->cap ? b->n + (size_t)k : b->cap - 1;
    }
    va_end(ap);
}

static const char *space_name(uint8_t ac) {
    switch (ac) {
    case DWA_GLOBAL: return "global";
    case DWA_SHARED: return "shared";
    case DWA_LOCAL: return "local";
    case DWA_CONST: return "constant";
    case DWA_PARAM: return "parameter";
    case DWA_GENERIC: return "generic";
    case DWA_REG: return "register";
    default: return NULL;
    }
}

/* A type as cuda-gdb writes it around a declarator `inner` ("" for a bare
 * type); expand (ptype): typedefs resolved, structs and unions with their
 * members. The space of the memory a value of the type lives in (pre, a
 * DWA_*) goes before the base type, `@shared int [32]`, and on to the members
 * of an expanded struct; a pointer puts the space it points into before its
 * target, `const @generic int *`, or, with ptr_suffix (a function's
 * parameters), after itself, `const int * @generic`. Named structs, unions
 * and enums go by their names alone, as in C++, unless expanded. */
static void type_text_x(const dw_type *t, const char *inner, sbuf *o, bool expand, uint8_t pre, bool ptr_suffix);
static void type_text(const dw_type *t, const char *inner, sbuf *o) { type_text_x(t, inner, o, false, 0, false); }

static void type_text_x(const dw_type *t, const char *inner, sbuf *o, bool expand, uint8_t pre, bool ptr_suffix) {
    char buf[512];
    if (!t) {
        sb_add(o, "void%s%s", *inner ? " " : "", inner);
        return;
    }
    const char *sn = space_name(pre);
    switch (t->kind) {
    case DWK_PTR: {
        bool paren = t->target && (t->target->kind == DWK_ARRAY || t->target->kind == DWK_FUNC);
        const char *own = ptr_suffix ? space_name(t->aclass) : NULL;
        char star[80];
        snprintf(star, sizeof star, "*%s%s%s", own ? " @" : "", own ? own : "", *inner && (own || inner[0] == '@') ? " " : "");
        snprintf(buf, sizeof buf, paren ? "(%s%s)" : "%s%s", star, inner);
        type_text_x(t->target, buf, o, expand, ptr_suffix ? 0 : t->aclass, false);
        return;
    }
    case DWK_ARRAY:
        if (t->count) snprintf(buf, sizeof buf, "%s[%llu]", inner, (unsigned long long)t->count);
        else snprintf(buf, sizeof buf, "%s[]", inner);
        type_text_x(t->target, buf, o, expand, pre, false);
        return;
    case DWK_CONST:
    case DWK_VOLATILE: {
        const char *q = t->kind == DWK_CONST ? "const" : "volatile";
        if (t->target && t->target->kind == DWK_PTR) {
            snprintf(buf, sizeof buf, " %s%s%s", q, *inner ? " " : "", inner);
            type_text_x(t->target, buf, o, expand, pre, ptr_suffix);
        } else {
            sb_add(o, "%s ", q);
            type_text_x(t->target, inner, o, expand, pre, false);
        }
        return;
    }
    case DWK_FUNC:
        snprintf(buf, sizeof buf, "%s(void)", inner);
        type_text_x(t->target, buf, o, expand, 0, false);
        return;
    case DWK_TYPEDEF:
        if (expand) {
            type_text_x(t->target, inner, o, expand, pre, false);
            return;
        }
        break;
    default: break;
    }
    if (sn) sb_add(o, "@%s ", sn);
    const char *kw = t->kind == DWK_STRUCT  ? "struct "
                     : t->kind == DWK_UNION ? "union "
                     : t->kind == DWK_ENUM  ? "enum "
                                            : "";
    if (expand && (t->kind == DWK_STRUCT || t->kind == DWK_UNION)) {
        sb_add(o, "%s%s%s{\n", kw, t->name ? t->name : "", t->name ? " " : "");
        for (uint32_t k = 0; k < t->nmem; k++) {
            sb_add(o, "    ");
            type_text_x(t->mem[k].type, t->mem[k].name ? t->mem[k].name : "", o, false, pre, false);
            sb_add(o, ";\n");
        }
        sb_add(o, "}");
    } else if (expand && t->kind == DWK_ENUM) {
        sb_add(o, "enum %s%s{", t->name ? t->name : "", t->name ? " " : "");
        for (uint32_t k = 0; k < t->nenum; k++) sb_add(o, "%s%s", k ? ", " : "", t->en[k].name);
        sb_add(o, "}");
    } else {
        sb_add(o, "%s%s", t->name ? "" : kw, t->name ? t->name : "{...}");
    }
    if (*inner) sb_add(o, " %s", inner);
}

static void value_text(ectx *c, const xv *v, const dw_type *t, const uint8_t *b, char f, sbuf *o, int depth);

/* typed: a pointer with its type in front, as gdb prints a value (not its members). */
static void scalar_text(const dw_type *t, const uint8_t *b, char f, bool typed, sbuf *o) {
    const dw_type *s = dw_strip(t);
    uint64_t n = s->size ? s->size : 8;
    if (n == 16) { /* a .b128 register */
        uint64_t lo, hi;
        memcpy(&lo, b, 8);
        memcpy(&hi, b + 8, 8);
        sb_add(o, "0x%016llx%016llx", (unsigned long long)hi, (unsigned long long)lo);
        return;
    }
    uint64_t u = 0;
    memcpy(&u, b, n > 8 ? 8 : n);
    if (s->kind == DWK_PTR) {
        if (f && f != 'a') {
            dbg_val dv = {u, IR_T_U64, true};
            char tb[80];
            dbg_format_val(dv, f, tb, sizeof tb);
            sb_add(o, "%s", tb);
            return;
        }
        if (!typed) {
            sb_add(o, "0x%llx", (unsigned long long)u);
            return;
        }
        sbuf tn = {0};
        char tnb[256];
        tn.s = tnb, tn.cap = sizeof tnb;
        type_text(t, "", &tn);
        sb_add(o, "(%s) 0x%llx", tnb, (unsigned long long)u);
        return;
    }
    if (s->kind == DWK_ENUM && !f) {
        int64_t sv = (int64_t)(n < 8 ? (u << (64 - 8 * n)) : u);
        if (n < 8) sv >>= 64 - 8 * n;
        for (uint32_t k = 0; k < s->nenum; k++)
            if (s->en[k].val == sv) {
                sb_add(o, "%s", s->en[k].name);
                return;
            }
        sb_add(o, "%lld", (long long)sv);
        return;
    }
    if (s->enc == DWE_BOOL && !f) {
        sb_add(o, "%s", u ? "true" : "false");
        return;
    }
    if (f == 'c' || (!f && (s->enc == DWE_SCHAR || s->enc == DWE_UCHAR) && n == 1)) {
        int ch = (int)(s->enc == DWE_UCHAR ? (uint8_t)u : (int8_t)u);
        if (f == 'c') ch = (int8_t)u;
        if (ch >= 32 && ch < 127) sb_add(o, ch == '\'' || ch == '\\' ? "%d '\\%c'" : "%d '%c'", ch, ch);
        else sb_add(o, "%d '\\%03o'", ch, ch & 0xff);
        return;
    }
    if (f == 't' && !pad_hex) {
        uint64_t m = n < 8 ? u & ((1ull << (8 * n)) - 1) : u;
        char bits[72];
        int k = 0;
        for (int i = 63; i >= 0; i--)
            if (k || (m >> i & 1) || !i) bits[k++] = (char)('0' + (m >> i & 1));
        bits[k] = 0;
        sb_add(o, "%s", bits);
        return;
    }
    if (f == 'x' && !pad_hex) {
        sb_add(o, "0x%llx", (unsigned long long)(n < 8 ? u & ((1ull << (8 * n)) - 1) : u));
        return;
    }
    if (f == 'o') {
        sb_add(o, "0%llo", (unsigned long long)(n < 8 ? u & ((1ull << (8 * n)) - 1) : u));
        return;
    }
    /* the register printer's formats: x d u f t */
    uint8_t irt = s->kind == DWK_BASE && s->enc == DWE_FLOAT                             ? (n == 4   ? IR_T_F32
                                                                                            : n == 8 ? IR_T_F64
                                                                                                     : IR_T_F16)
                  : (s->enc == DWE_SIGNED || s->enc == DWE_SCHAR || s->kind == DWK_ENUM) ? (n == 1   ? IR_T_S8
                                                                                            : n == 2 ? IR_T_S16
                                                                                            : n == 4 ? IR_T_S32
                                                                                                     : IR_T_S64)
                                                                                         : (n == 1   ? IR_T_U8
                                                                                            : n == 2 ? IR_T_U16
                                                                                            : n == 4 ? IR_T_U32
                                                                                                     : IR_T_U64);
    if (t == &T_PRED) irt = IR_T_PRED;
    if (!f && irt == IR_T_F16) f = 'f';
    dbg_val dv = {u, irt, true};
    char tb[160];
    dbg_format_val(dv, f, tb, sizeof tb);
    sb_add(o, "%s", tb);
}

static void elems_text(ectx *c, const dw_type *e, uint64_t count, const xv *v, uint64_t base_off, const uint8_t *b,
                       char f, sbuf *o, int depth) {
    uint64_t es = tsize(e);
    sb_add(o, "{");
    if (es > XMAX) {
        sb_add(o, "...}");
        return;
    }
    uint64_t shown = 0;
    uint8_t *tmp = malloc(es > XMAX ? XMAX : (es ? es : 1));
    uint8_t *prev = malloc(es > XMAX ? XMAX : (es ? es : 1));
    if (!tmp || !prev) {
        free(tmp);
        free(prev);
        sb_add(o, "...}");
        return;
    }
    for (uint64_t k = 0; k < count && shown < 200;) {
        /* the element's bytes: kept in the value, else read from memory */
        const uint8_t *eb;
        uint64_t off = base_off + k * es;
        bool ok = true;
        if (off + es <= XMAX && b) eb = b + off;
        else if (v && v->lval && es <= XMAX) {
            ok = read_mem(c, v->sp, v->addr + off, tmp, es);
            eb = tmp;
        } else ok = false, eb = tmp;
        if (!ok) {
            sb_add(o, "%s<error: Cannot access memory>", k ? ", " : "");
            break;
        }
        /* runs of 10 or more equal elements: <repeats N times> */
        uint64_t run = 1;
        memcpy(prev, eb, es);
        while (k + run < count) {
            uint64_t o2 = base_off + (k + run) * es;
            const uint8_t *nb;
            if (o2 + es <= XMAX && b) nb = b + o2;
            else if (v && v->lval && es <= XMAX && read_mem(c, v->sp, v->addr + o2, tmp, es)) nb = tmp;
            else break;
            if (memcmp(nb, prev, es)) break;
            run++;
        }
        if (k) sb_add(o, ", ");
        if (run >= 10) {
            value_text(c, NULL, e, prev, f, o, depth + 1);
            sb_add(o, " <repeats %llu times>", (unsigned long long)run);
            k += run;
        } else {
            value_text(c, NULL, e, prev, f, o, depth + 1);
            k++;
        }
        shown++;
        if (shown == 200 && k < count) sb_add(o, "...");
    }
    free(tmp);
    free(prev);
    sb_add(o, "}");
}

static void value_text(ectx *c, const xv *v, const dw_type *t, const uint8_t *b, char f, sbuf *o, int depth) {
    const dw_type *s = dw_strip(t);
    if (!s || s->kind == DWK_VOID) {
        sb_add(o, "void");
        return;
    }
    if (depth > 8) {
        sb_add(o, "{...}");
        return;
    }
    if (s->kind == DWK_STRUCT || s->kind == DWK_UNION) {
        sb_add(o, "{");
        for (uint32_t k = 0; k < s->nmem; k++) {
            const dw_member *m = &s->mem[k];
            sb_add(o, "%s%s = ", k ? ", " : "", m->name ? m->name : "");
            const dw_type *ms = dw_strip(m->type);
            if (ms && ms->kind == DWK_ARRAY) {
                elems_text(c, ms->target, ms->count, v, m->off, m->off + tsize(m->type) <= XMAX ? b : NULL, f, o,
                           depth);
            } else if (m->off + tsize(m->type) <= XMAX) {
                value_text(c, NULL, m->type, b + m->off, f, o, depth + 1);
            } else sb_add(o, "...");
        }
        sb_add(o, "}");
        return;
    }
    if (s->kind == DWK_ARRAY) {
        elems_text(c, s->target, s->count, v, 0, b, f, o, depth);
        return;
    }
    if (s->kind == DWK_FUNC) {
        sb_add(o, "{function}");
        return;
    }
    scalar_text(t, b, f, depth == 0 && !c->bare, o);
}

static void print_value(ectx *c, const xv *v, char f, sbuf *o) {
    if (v->unavail) {
        sb_add(o, "<optimized out>");
        return;
    }
    if (v->reg && !strcmp(v->reg, "$pc")) {
        uint64_t idx = x_u(v);
        const vm_func *fn = dbg_func_of(c->w, c->fr.pc);
        uint32_t line = idx < fn->ncode ? fn->src[idx].loc.line : 0;
        sb_add(o, "(void (*)(void)) 0x%llx <%s+%llu> (%s:%u)", (unsigned long long)idx * 16,
               dbg_fn_name(c->d, fn->ir->name), (unsigned long long)idx * 16, dbg_base(c->d->path), line);
        return;
    }
    value_text(c, v, v->t, v->b, f, o, 0);
}

/* ---- entry points ---- */

int dbg_expr_text(dbg *d, vm_warp *w, int l, const char *text, char f, bool record, char *buf, size_t len) {
    xv *v = malloc(sizeof *v);
    if (!v) {
        snprintf(buf, len, "Out of memory.");
        return -1;
    }
    ectx c;
    char err[400];
    if (evaluate(d, w, l, text, v, err, sizeof err, &c)) {
        snprintf(buf, len, "%s", err);
        free(v);
        return -1;
    }
    sbuf o = {buf, 0, len};
    buf[0] = 0;
    pad_hex = v->reg && !*v->reg;
    print_value(&c, v, f, &o);
    pad_hex = false;
    if (record) remember(d, v);
    free(v);
    return 0;
}

int dbg_expr_bool(dbg *d, vm_warp *w, int l, const char *text, bool *out, char *err, size_t errlen) {
    xv *v = malloc(sizeof *v);
    if (!v) {
        snprintf(err, errlen, "Out of memory.");
        return -1;
    }
    ectx c;
    int r = evaluate(d, w, l, text, v, err, errlen, &c);
    if (!r && !is_scalar_t(v->t)) {
        snprintf(err, errlen, "The condition is not a number.");
        r = -1;
    }
    if (!r && v->unavail) {
        snprintf(err, errlen, "The condition's value is optimized out.");
        r = -1;
    }
    if (!r) *out = is_float_t(v->t) ? x_d(v) != 0 : x_u(v) != 0;
    free(v);
    return r;
}

int dbg_expr_address(dbg *d, const char *text, int *sp, uint64_t *addr, uint32_t *size, char *desc, size_t desclen,
                     char *err, size_t errlen) {
    xv *v = malloc(sizeof *v);
    if (!v) return -1;
    ectx c;
    int r = evaluate(d, dbg_fwarp(d), (int)d->flane, text, v, err, errlen, &c);
    if (!r && !v->lval && v->reg && *v->reg)
        snprintf(err, errlen, "Cannot watch `%s': it lives in register %s (a watchpoint watches memory).", text,
                 v->reg),
            r = -1;
    else if (!r && v->unavail) snprintf(err, errlen, "Cannot watch `%s': it has no location here.", text), r = -1;
    else if (!r && !v->lval) snprintf(err, errlen, "Cannot watch constant value `%s'.", text), r = -1;
    if (!r) {
        *sp = v->sp, *addr = v->addr;
        uint64_t n = tsize(v->t);
        *size = n > 8 || !n ? 8 : (uint32_t)n;
        sbuf o = {desc, 0, desclen};
        desc[0] = 0;
        sb_add(&o, "%s", text);
        d->watch_type = v->t;
    }
    free(v);
    return r;
}

int dbg_expr_pointer(dbg *d, const char *text, int *sp, uint64_t *addr, char *err, size_t errlen) {
    xv *v = malloc(sizeof *v);
    if (!v) return -1;
    ectx c;
    int r = evaluate(d, dbg_fwarp(d), (int)d->flane, text, v, err, errlen, &c);
    const dw_type *s = r ? NULL : dw_strip(v->t);
    if (!r && v->lval && s && s->kind != DWK_PTR && !is_scalar_t(s)) *sp = v->sp, *addr = v->addr; /* arrays, structs */
    else if (!r && s && s->kind == DWK_PTR) *sp = space_of_class(s->aclass), *addr = x_u(v);
    else if (!r && is_scalar_t(v->t)) *sp = VM_SP_GENERIC, *addr = x_u(v);
    else if (!r) snprintf(err, errlen, "Invalid address `%s'.", text), r = -1;
    free(v);
    return r;
}

const void *dbg_expr_type_at(dbg *d, vm_warp *w, int l, const char *text) {
    xv *v = malloc(sizeof *v);
    if (!v) return NULL;
    ectx c;
    char err[200];
    const void *t = !evaluate(d, w, l, text, v, err, sizeof err, &c) && v->lval ? v->t : NULL;
    free(v);
    return t;
}

/* Bytes of a watched variable as its type prints them. */
void dbg_expr_format(const void *type, const uint8_t *bytes, char *buf, size_t len) {
    sbuf o = {buf, 0, len};
    buf[0] = 0;
    ectx c = {0};
    value_text(&c, NULL, type, bytes, 0, &o, 0);
}

int dbg_cmd_ptype(dbg *d, const char *args, bool whatis) {
    ectx c;
    char err[400];
    vm_warp *w = dbg_fwarp(d);
    setup(&c, d, w, (int)d->flane, err, sizeof err);
    c.p = args;
    skip(&c);
    if (!*c.p) {
        printf("Argument required (one or more choices).\n");
        return -1;
    }
    const dw_type *t = parse_type(&c);
    if (c.fail) {
        printf("%s\n", err);
        return -1;
    }
    skip(&c);
    bool is_type = t && !*c.p;
    uint8_t q = 0; /* the space of the value's storage: @register int, @shared int [32], pt_t * @parameter */
    if (!is_type) {
        xv *v = malloc(sizeof *v);
        if (!v) return -1;
        c.p = args, c.fail = false, c.noside = true;
        expr(&c, v);
        skip(&c);
        if (!c.fail && *c.p) fail(&c, "A syntax error in expression, near `%s'.", c.p);
        t = v->t;
        if (v->reg) q = v->vclass;
        else if (v->lval) q = v->vclass ? v->vclass : class_of_space(v->sp);
        free(v);
        if (c.fail) {
            /* a function by name */
            const dw_scope *fn = dw_find_func(c.di, args);
            if (!fn) {
                printf("%s\n", err);
                return -1;
            }
            char buf[1024];
            sbuf o = {buf, 0, sizeof buf};
            type_text(fn->ret, "", &o);
            printf("type = %s (", buf);
            bool first = true;
            for (uint32_t k = 0; k < fn->nvars; k++)
                if (fn->vars[k].param) {
                    char pb[256];
                    sbuf po = {pb, 0, sizeof pb};
                    type_text_x(fn->vars[k].type, "", &po, false, 0, true);
                    printf("%s%s", first ? "" : ", ", pb);
                    first = false;
                }
            printf(")\n");
            return 0;
        }
    }
    char buf[4096];
    sbuf o = {buf, 0, sizeof buf};
    buf[0] = 0;
    /* whatis peels one typedef off a type name; ptype shows the whole type */
    if (whatis && is_type && t->kind == DWK_TYPEDEF) t = t->target;
    const dw_type *st = t;
    while (st && (st->kind == DWK_CONST || st->kind == DWK_VOLATILE || (!whatis && st->kind == DWK_TYPEDEF)))
        st = st->target;
    char at[32] = "";
    if (q && st && st->kind == DWK_PTR && space_name(q)) snprintf(at, sizeof at, "@%s", space_name(q));
    type_text_x(t, at, &o, !whatis, at[0] ? 0 : q, false);
    printf("type = %s\n", buf);
    return 0;
}

void dbg_frame_args(dbg *d, vm_warp *w, int l, const dbg_frame *fr, char *buf, size_t len) {
    buf[0] = 0;
    if (!fr->named || !w) return;
    ectx c;
    char err[200];
    setup(&c, d, w, l, err, sizeof err);
    c.fr = *fr;
    c.have_fr = true;
    c.bare = true;
    xv *v = malloc(sizeof *v);
    if (!v) return;
    sbuf o = {buf, 0, len};
    sb_add(&o, " (");
    bool first = true;
    for (uint32_t q = 0; q < fr->named->nvars; q++) {
        const dw_var *var = &fr->named->vars[q];
        if (!var->param || !var->name) continue;
        c.fail = false;
        var_value(&c, var, v);
        sb_add(&o, "%s%s=", first ? "" : ", ", var->name);
        first = false;
        if (c.fail) sb_add(&o, "<error>");
        else print_value(&c, v, 0, &o);
    }
    sb_add(&o, ")");
    free(v);
}

/* gdb's hash of a C++ name (cp_search_name_hash, for plain identifiers). */
static uint32_t gdb_name_hash(const char *name) {
    uint32_t h = 0;
    for (const char *p = name; *p; p++) h = h * 67 + (uint32_t)tolower((unsigned char)*p) - 113;
    return h;
}

/* info locals (args false) or info args: the variables of the selected frame's scopes. */
int dbg_info_vars(dbg *d, bool args) {
    vm_warp *w = dbg_fwarp(d);
    if (!w) {
        printf("No frame selected.\n");
        return -1;
    }
    ectx c;
    char err[400];
    setup(&c, d, w, (int)d->flane, err, sizeof err);
    const dw_scope *sc[32];
    int n = frame_scopes(&c, sc, 32);
    if (!n) {
        printf("No symbol table info available.\n");
        return -1;
    }
    bool any = false;
    char *buf = malloc(8192);
    xv *v = malloc(sizeof *v);
    if (!buf || !v) {
        free(buf);
        free(v);
        return -1;
    }
    c.bare = true;
    for (int k = 0; k < n; k++) {
        if (args && sc[k] != c.fr.named) continue;
        /* cuda-gdb lists a lexical block's variables in the order of its hash
         * table: bucket by bucket, each in the DWARF's order, with n / 4 * 5 / 4
         * + 1 buckets for n variables (what its transcripts show for blocks of
         * 3, 5, 7 and 15); a function's or an inlined call's in the DWARF's order */
        uint32_t nv = sc[k]->nvars, nb = sc[k]->kind == DWS_BLOCK ? nv / 4 * 5 / 4 + 1 : 1;
        for (uint32_t q = 0; q < nb * nv; q++) {
            const dw_var *var = &sc[k]->vars[q % nv];
            if (var->param != args || !var->name) continue;
            if (nb > 1 && gdb_name_hash(var->name) % nb != q / nv) continue;
            c.fail = false;
            var_value(&c, var, v);
            sbuf o = {buf, 0, 8192};
            buf[0] = 0;
            if (c.fail) sb_add(&o, "<error: %s>", err);
            else print_value(&c, v, 0, &o);
            printf("%s = %s\n", var->name, buf);
            any = true;
        }
    }
    if (!any) printf(args ? "No arguments.\n" : "No locals.\n");
    free(buf);
    free(v);
    return 0;
}

/* The value a function returns, for finish: the callee's result type (DWARF,
 * else the PTX return parameter's), its bytes in the caller's frame. */
/* Without DWARF: the type the caller reads the returned value as (the first
 * ld.param from a .param variable after the call: `ld.param.f32 %f3, [retval0]`),
 * else the callee's declared return type (`.param .b32 func_retval0`). */
static uint8_t returned_type(const vm_func *caller, const vm_insn *call, uint8_t declared) {
    const ir_func *F = caller->ir;
    uint32_t line = caller->src[call - caller->code].loc.line;
    for (uint32_t k = 0; k < F->nbody; k++) {
        const ir_stmt *st = &F->body[k];
        if (st->kind != IR_ST_INSN || st->loc.line <= line) continue;
        const ir_insn *in = &st->u.insn;
        if (in->op == IR_OP_CALL) break;
        if (in->op != IR_OP_LD || in->nopnds < 2 || !in->ntypes) continue;
        const ir_operand *a = &in->opnds[1];
        if (a->kind == IR_OPND_ADDR && a->nsub == 1 && a->sub[0].kind == IR_OPND_VAR &&
            a->sub[0].var->space == IR_SPACE_PARAM)
            return in->types[0];
    }
    return declared;
}

void dbg_show_returned(dbg *d, vm_warp *w, int l, const vm_insn *call, const vm_func *callee) {
    if (!call || !callee || !callee->ir->nrets) return;
    const vm_callinfo *ci = call->p;
    if (!ci || !ci->nrets) return;
    const vm_frame *fr = &w->frames[w->depth - 1];
    const dw_info *di = dbg_dwarf(d);
    const dw_scope *fs = dw_find_func(di, callee->ir->name);
    const dw_type *t = fs && fs->ret ? fs->ret : reg_type(returned_type(fr->fn, call, callee->ir->rets[0]->type));
    if (fs && !fs->ret) return;
    xv *v = malloc(sizeof *v);
    if (!v) return;
    memset(v, 0, sizeof *v);
    v->t = t;
    uint64_t n = ci->retsize[0] < XMAX ? ci->retsize[0] : XMAX;
    memcpy(v->b, fr->fb + ci->retoff[0] + (size_t)l * ci->retsize[0], n);
    ectx c;
    char err[100];
    setup(&c, d, w, l, err, sizeof err);
    char buf[4096];
    sbuf o = {buf, 0, sizeof buf};
    buf[0] = 0;
    print_value(&c, v, 0, &o);
    remember(d, v);
    printf("Value returned is $%u = %s\n", ++d->nvalues, buf);
    free(v);
}
