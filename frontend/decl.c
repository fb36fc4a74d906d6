/* decl.c — declarations: directive runs (.global .align 4 .b8 ...), register
 * ranges, variables with array dimensions, and initializers evaluated to bytes
 * plus relocations; also the constant expressions they use. */
#include <stdlib.h>
#include <string.h>

#include "fe.h"

#define MAX_REGS_PER_FUNC (1u << 20) /* nvcc's largest functions use ~10^5 */
#define MAX_INIT_BYTES (64u << 20)

void fe_dirs_reset(fe_parser *p) { p->dirs.n = 0; }

void fe_dir_push(fe_parser *p, int v, uint32_t arg, fe_span text, ir_loc loc) {
    *VEC_PUSH(p, p->dirs) = (fe_dir){v, arg, loc, text};
}

void fe_dim(fe_parser *p, const fe_cval *v, bool present, ir_loc loc) {
    uint64_t d = 0;
    if (present) {
        if (v->kind != CV_INT || v->i <= 0) {
            if (v->kind != CV_BAD) fe_error(p, loc, "array dimension must be a positive integer");
            d = 1;
        } else {
            d = (uint64_t)v->i;
        }
    } else if (p->dims.n > 0) {
        fe_error(p, loc, "only the first array dimension may be left out");
        d = 1;
    }
    if (p->dims.n == IR_MAX_DIMS) fe_error(p, loc, "too many array dimensions (at most %d)", IR_MAX_DIMS);
    else *VEC_PUSH(p, p->dims) = d;
}

/* Builds a variable from the pending directive run and dimensions. */
ir_var *fe_var_from_dirs(fe_parser *p, fe_span name, ir_loc loc, int default_space) {
    ir_var *v = fe_alloc(p->a, sizeof *v);
    v->name = fe_strndup(p->a, name.s, name.n);
    v->loc = loc;
    v->vec = 1;
    v->space = IR_SPACE_NONE;
    bool after_ptr = false;
    for (uint32_t i = 0; i < p->dirs.n; i++) {
        fe_dir *d = &p->dirs.v[i];
        int k = d->v;
        if (k == -1) { /* .align N */
            if (d->arg == 0 || (d->arg & (d->arg - 1))) { fe_error(p, d->loc, "alignment must be a power of two"); }
            if (after_ptr) {
                v->ptr_align = d->arg;
            } else {
                v->align = d->arg;
                v->align_explicit = true;
            }
        } else if (k >= DIRV_TYPE && k < DIRV_TYPE + IR_T__COUNT) {
            if (v->type) { fe_error(p, d->loc, "more than one type in declaration of '%s'", v->name); }
            v->type = (uint8_t)(k - DIRV_TYPE);
        } else if (k >= DIRV_SPACE && k < DIRV_SPACE + IR_SPACE__COUNT) {
            if (after_ptr) {
                v->ptr_space = (uint8_t)(k - DIRV_SPACE);
            } else if (v->space) {
                fe_error(p, d->loc, "more than one state space in declaration of '%s'", v->name);
            } else {
                v->space = (uint8_t)(k - DIRV_SPACE);
            }
        } else if (k >= DIRV_LINK && k < DIRV_LINK + 0x100) {
            v->linkage = (uint8_t)(k - DIRV_LINK);
        } else if (k >= DIRV_VEC && k < DIRV_VEC + 0x100) {
            v->vec = (uint8_t)(k - DIRV_VEC);
        } else if (k == DIRV_PTR) {
            v->is_ptr = true;
            after_ptr = true;
        } else if (k == DIRV_ATTR_MANAGED) {
            v->managed = true;
        } else if (k == DIRV_ATTR_UNIFIED) {
            v->unified = true;
        } else {
            fe_error(p, d->loc, "unknown directive '%.*s' in declaration", (int)d->text.n, d->text.s);
        }
    }
    if (!v->space) v->space = (uint8_t)default_space;
    if (!v->space) { fe_error(p, loc, "missing state space in declaration of '%s'", v->name); }
    if (!v->type) {
        fe_error(p, loc, "missing type in declaration of '%s'", v->name);
        v->type = IR_T_B8;
    }
    v->ndims = p->dims.n;
    uint64_t n = (uint64_t)ir_type_bytes[v->type] * v->vec;
    bool unsized = false;
    for (uint32_t i = 0; i < v->ndims; i++) {
        v->dims[i] = p->dims.v[i];
        if (!v->dims[i]) unsized = true;
        else if (n > (UINT64_MAX >> 1) / v->dims[i]) {
            fe_error(p, loc, "variable '%s' is too large", v->name);
            /* keep a consistent (scalar) variable so later steps need no checks */
            v->ndims = 0;
            unsized = false;
            n = (uint64_t)ir_type_bytes[v->type] * v->vec;
            break;
        } else n *= v->dims[i];
    }
    v->size = unsized ? 0 : n;
    if (!v->align) {
        uint32_t a = (uint32_t)ir_type_bytes[v->type] * v->vec;
        v->align = a ? a : 1;
    }
    return v;
}

void fe_decl_begin(fe_parser *p, fe_span name, ir_loc loc, bool has_range, uint64_t range) {
    if (p->cur_var) /* the previous declaration ended in a syntax error: finish it */
        fe_decl_end(p);
    ir_var *v = fe_var_from_dirs(p, name, loc, IR_SPACE_NONE);
    if (v->space == IR_SPACE_REG) {
        if (!p->fn) {
            fe_error(p, loc, "register declared outside a function");
            return;
        }
        if (v->ndims) fe_error(p, loc, "register '%s' cannot be an array", v->name);
        uint64_t count = has_range ? range : 1;
        if (!count) {
            fe_error(p, loc, "register range '%s<0>' declares no registers", v->name);
            return;
        }
        if (count > MAX_REGS_PER_FUNC - p->regs.n) { /* written so a huge count cannot wrap */
            fe_error(p, loc, "too many registers in one function");
            return;
        }
        /* every register nvcc declares is used somewhere in the text, so a
         * module with more registers than bytes is hostile: refuse it before
         * it costs gigabytes */
        uint64_t module_cap = p->len > MAX_REGS_PER_FUNC ? p->len : MAX_REGS_PER_FUNC;
        if (p->module_regs > module_cap || count > module_cap - p->module_regs) {
            fe_error(p, loc, "more registers declared than the module could use");
            return;
        }
        p->module_regs += count;
        uint32_t first = p->regs.n;
        for (uint64_t i = 0; i < count; i++) {
            ir_reg *r = VEC_PUSH(p, p->regs);
            if (has_range) {
                char buf[96];
                uint32_t k = name.n < 64 ? name.n : 64;
                memcpy(buf, name.s, k);
                k += (uint32_t)snprintf(buf + k, sizeof buf - k, "%lu", (unsigned long)i);
                r->name = (char *)(k < sizeof buf - 1 ? fe_intern(p, buf, k) : fe_strndup(p->a, buf, k));
            } else {
                r->name = v->name;
            }
            r->type = v->type;
            r->vec = v->vec;
            r->scope = p->scope - 1;
            r->loc = loc;
            uint32_t len = (uint32_t)strlen(r->name);
            fe_sym *e = fe_sym_find(&p->syms, r->name, len, -1);
            if (e && e->scope == p->scope) {
                fe_error(p, loc, "redefinition of '%s'", r->name);
                continue;
            }
            e = fe_sym_add(&p->syms, r->name, len, SYM_REG, p->scope);
            e->id = p->regs.n - 1;
        }
        ir_stmt *s = VEC_PUSH(p, p->body);
        memset(s, 0, sizeof *s);
        s->kind = IR_ST_REG_DECL;
        s->loc = loc;
        s->u.regs.first = first;
        s->u.regs.count = (uint32_t)count;
        return;
    }
    if (has_range) fe_error(p, loc, "a '<N>' range is only allowed on .reg declarations");
    if (p->fn) {
        v->func = p->fn;
        *VEC_PUSH(p, p->locals) = v;
        ir_stmt *s = VEC_PUSH(p, p->body);
        memset(s, 0, sizeof *s);
        s->kind = IR_ST_VAR_DECL;
        s->loc = loc;
        s->u.var = v;
    } else {
        *VEC_PUSH(p, p->globals) = v;
    }
    fe_add_var_sym(p, v);
    p->cur_var = v;
}

/* ---- initializers ---- */

static uint32_t elem_bytes(const ir_var *v) { return ir_type_bytes[v->type]; }

void fe_init_begin(fe_parser *p, ir_loc loc) {
    ir_var *v = p->cur_var;
    p->ibuf.n = 0;
    p->irel.n = p->irel_names.n = p->irel_locs.n = 0;
    p->ilevel.n = 0;
    p->icur = 0;
    p->init_too_many = false;
    if (!v) {
        fe_error(p, loc, "registers cannot be initialized");
        return;
    }
    if (v->space != IR_SPACE_GLOBAL && v->space != IR_SPACE_CONST) {
        fe_error(p, loc, "only .global and .const variables can be initialized");
        p->cur_var = NULL;
        return;
    }
    if (v->size > MAX_INIT_BYTES) {
        fe_error(p, loc, "initialized variable '%s' is larger than %u MiB", v->name, MAX_INIT_BYTES >> 20);
        p->cur_var = NULL;
        return;
    }
    /* trailing zeros are left out of initializers, so a short line may stand
     * for megabytes; bound the total rather than each variable alone */
    p->module_init += v->size;
    if (p->module_init > 4ull * MAX_INIT_BYTES + 16ull * p->len) {
        fe_error(p, loc, "initialized variables total more than the module can hold");
        p->cur_var = NULL;
        return;
    }
    if (!elem_bytes(v)) {
        fe_error(p, loc, "variables of type .%s cannot be initialized", ir_type_name[v->type]);
        p->cur_var = NULL;
        return;
    }
    v->has_init = true;
}

/* bytes covered by a brace group opened at nesting depth d (1 = outermost) */
static uint64_t group_bytes(const ir_var *v, uint32_t d) {
    uint64_t n = (uint64_t)elem_bytes(v);
    if (d >= 2 + v->ndims) return n; /* the vector group of one element */
    n *= v->vec;
    for (uint32_t i = d - 1; i < v->ndims; i++) n *= v->dims[i];
    return n;
}

void fe_init_open(fe_parser *p, ir_loc loc) {
    ir_var *v = p->cur_var;
    if (!v) return;
    uint32_t depth = p->ilevel.n + 1;
    uint32_t maxd = 1 + v->ndims + (v->vec > 1);
    if (depth > maxd) {
        fe_error(p, loc, "too many levels of braces in initializer of '%s'", v->name);
        p->cur_var = NULL;
        return;
    }
    *VEC_PUSH(p, p->ilevel) = p->icur;
}

void fe_init_close(fe_parser *p) {
    ir_var *v = p->cur_var;
    if (!v || !p->ilevel.n) return;
    uint64_t start = p->ilevel.v[--p->ilevel.n];
    uint32_t depth = p->ilevel.n + 1;
    if (depth >= 2) {
        uint64_t g = group_bytes(v, depth);
        if (p->icur - start <= g) p->icur = start + g;
    }
}

static bool reserve(fe_parser *p, uint64_t end) {
    if (end > MAX_INIT_BYTES) return false;
    while (p->ibuf.cap < end) fe_grow((void **)&p->ibuf.v, &p->ibuf.cap, 1);
    if (p->ibuf.n < end) {
        memset(p->ibuf.v + p->ibuf.n, 0, end - p->ibuf.n);
        p->ibuf.n = (uint32_t)end;
    }
    return true;
}

static uint16_t f32_to_f16_bits(float f);

void fe_init_elem(fe_parser *p, const fe_cval *c) {
    ir_var *v = p->cur_var;
    if (!v) return;
    uint32_t e = elem_bytes(v);
    uint64_t at = p->icur;
    p->icur += e;
    if (v->size && p->icur > v->size) {
        if (!p->init_too_many) fe_error(p, c->loc, "too many initializers for '%s'", v->name);
        p->init_too_many = true;
        return;
    }
    if (!reserve(p, p->icur)) {
        fe_error(p, c->loc, "initializer of '%s' is larger than %u MiB", v->name, MAX_INIT_BYTES >> 20);
        p->cur_var = NULL;
        return;
    }
    uint8_t *dst = p->ibuf.v + at;
    uint64_t bits = 0;
    int cls = ir_type_class_of[v->type];
    switch (c->kind) {
    case CV_BAD: return;
    case CV_SYM: {
        ir_reloc *r = VEC_PUSH(p, p->irel);
        *r = (ir_reloc){.offset = at,
                        .size = (uint8_t)e,
                        .generic = c->generic,
                        .shift = c->shift,
                        .mask = c->mask ? c->mask : ~0ull,
                        .addend = c->i};
        *VEC_PUSH(p, p->irel_names) = c->sym;
        *VEC_PUSH(p, p->irel_locs) = c->loc;
        return;
    }
    case CV_INT:
        if (cls == IR_TC_FLOAT && (v->type == IR_T_F32 || v->type == IR_T_F64)) {
            double d = (double)c->i;
            float f = (float)d;
            if (e == 4) memcpy(&bits, &f, 4);
            else memcpy(&bits, &d, 8);
        } else {
            bits = (uint64_t)c->i;
        }
        break;
    case CV_F32:
    case CV_F64:
    case CV_DEC:
        if (cls != IR_TC_FLOAT && c->kind == CV_DEC) {
            fe_error(p, c->loc, "floating-point initializer for integer variable '%s'", v->name);
            return;
        }
        if (cls != IR_TC_FLOAT || (c->kind == CV_F32 && e == 4) || (c->kind == CV_F64 && e == 8)) {
            bits = c->bits;
        } else if (e == 8) {
            memcpy(&bits, &c->f, 8);
        } else if (e == 4) {
            float f = (float)c->f;
            memcpy(&bits, &f, 4);
        } else if (v->type == IR_T_F16) {
            bits = f32_to_f16_bits((float)c->f);
        } else if (v->type == IR_T_BF16) {
            float f = (float)c->f;
            uint32_t w;
            memcpy(&w, &f, 4);
            bits = (w + 0x7FFF + ((w >> 16) & 1)) >> 16;
        } else {
            fe_error(p, c->loc, "cannot initialize .%s from a floating-point constant", ir_type_name[v->type]);
            return;
        }
        break;
    }
    for (uint32_t i = 0; i < e && i < 8; i++) dst[i] = (uint8_t)(bits >> (8 * i));
}

/* round to nearest even; only used for initializers */
static uint16_t f32_to_f16_bits(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xFF, man = x & 0x7FFFFF;
    if (exp == 0xFF) return (uint16_t)(sign | 0x7C00 | (man ? 0x200 : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7C00);
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        man |= 0x800000;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = (uint32_t)e << 10 | man >> 13, rem = man & 0x1FFF;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

void fe_decl_end(fe_parser *p) {
    ir_var *v = p->cur_var;
    p->cur_var = NULL;
    if (!v || !v->has_init) return;
    uint64_t written = p->ibuf.n;
    if (!v->size) {
        /* unsized array: the initializer decides the first dimension */
        uint64_t row = group_bytes(v, 2);
        if (!row) row = 1;
        uint64_t rows = (written + row - 1) / row;
        if (!rows) rows = 1;
        if (row > MAX_INIT_BYTES || rows > MAX_INIT_BYTES / row) {
            fe_error(p, v->loc, "initialized variable '%s' is larger than %u MiB", v->name, MAX_INIT_BYTES >> 20);
            v->has_init = false;
            return;
        }
        v->dims[0] = rows;
        v->size = rows * row;
    }
    v->init = fe_alloc(p->a, v->size);
    if (written) memcpy(v->init, p->ibuf.v, written < v->size ? written : v->size);
    v->nrelocs = p->irel.n;
    v->relocs = p->irel.n ? fe_memdup(p->a, p->irel.v, p->irel.n * sizeof *v->relocs) : NULL;
    for (uint32_t i = 0; i < v->nrelocs; i++)
        *VEC_PUSH(p, p->pend_globals) = (fe_pending){
            .name = p->irel_names.v[i], .loc = p->irel_locs.v[i], .reloc = &v->relocs[i]};
}

/* ---- constant expressions ---- */

fe_cval fe_cv_name(fe_parser *p, fe_span name, ir_loc loc) {
    (void)p;
    return (fe_cval){.kind = CV_SYM, .sym = name, .loc = loc};
}

fe_cval fe_cv_call(fe_parser *p, fe_span fname, fe_cval arg, ir_loc loc) {
    if (fname.n == 7 && memcmp(fname.s, "generic", 7) == 0 && arg.kind == CV_SYM && !arg.generic && !arg.mask) {
        arg.generic = true;
        arg.loc = loc;
        return arg;
    }
    if (arg.kind != CV_BAD)
        fe_error(p, loc, "unknown operator '%.*s(...)' in constant expression", (int)fname.n, fname.s);
    return (fe_cval){.kind = CV_BAD, .loc = loc};
}

/* 0xFF00(sym): the bytes of sym's address selected by the mask */
fe_cval fe_cv_mask(fe_parser *p, fe_cval mask, fe_cval arg, ir_loc loc) {
    if (mask.kind != CV_INT || mask.i == 0 || arg.kind != CV_SYM || arg.mask) {
        if (mask.kind != CV_BAD && arg.kind != CV_BAD)
            fe_error(p, loc, "invalid mask expression: expected MASK(symbol)");
        return (fe_cval){.kind = CV_BAD, .loc = loc};
    }
    arg.mask = (uint64_t)mask.i;
    arg.shift = (uint8_t)__builtin_ctzll(arg.mask);
    arg.loc = loc;
    return arg;
}

fe_cval fe_cv_unop(fe_parser *p, int op, fe_cval a, ir_loc loc) {
    a.loc = loc;
    if (a.kind == CV_INT) {
        a.i = op == '-' ? (int64_t)(0 - (uint64_t)a.i) : ~a.i;
        return a;
    }
    if (op == '-' && a.kind == CV_F32) {
        a.bits ^= 0x80000000u;
        a.f = -a.f;
        return a;
    }
    if (op == '-' && (a.kind == CV_F64 || a.kind == CV_DEC)) {
        a.bits ^= 0x8000000000000000ull;
        a.f = -a.f;
        return a;
    }
    if (a.kind != CV_BAD) fe_error(p, loc, "invalid operand of unary '%c'", op);
    return (fe_cval){.kind = CV_BAD, .loc = loc};
}

fe_cval fe_cv_binop(fe_parser *p, int op, fe_cval a, fe_cval b, ir_loc loc) {
    if (a.kind == CV_BAD || b.kind == CV_BAD) return (fe_cval){.kind = CV_BAD, .loc = a.loc};
    if (a.kind == CV_INT && b.kind == CV_INT) {
        uint64_t x = (uint64_t)a.i, y = (uint64_t)b.i, r = 0;
        switch (op) {
        case '+': r = x + y; break;
        case '-': r = x - y; break;
        case '*': r = x * y; break;
        case '/':
            if (!y || (a.i == INT64_MIN && b.i == -1)) {
                fe_error(p, loc, "division by zero in constant expression");
                return (fe_cval){.kind = CV_BAD, .loc = a.loc};
            }
            r = (uint64_t)(a.i / b.i);
            break;
        case '&': r = x & y; break;
        case '|': r = x | y; break;
        case '^': r = x ^ y; break;
        case 'L': r = y >= 64 ? 0 : x << y; break;
        case 'R': r = y >= 64 ? 0 : x >> y; break;
        }
        a.i = (int64_t)r;
        return a;
    }
    if (a.kind == CV_SYM && b.kind == CV_INT && (op == '+' || op == '-')) {
        a.i = op == '+' ? (int64_t)((uint64_t)a.i + (uint64_t)b.i) : (int64_t)((uint64_t)a.i - (uint64_t)b.i);
        return a;
    }
    if (a.kind == CV_INT && b.kind == CV_SYM && op == '+') {
        b.i = (int64_t)((uint64_t)b.i + (uint64_t)a.i);
        b.loc = a.loc;
        return b;
    }
    fe_error(p, loc, "invalid operands in constant expression");
    return (fe_cval){.kind = CV_BAD, .loc = a.loc};
}
