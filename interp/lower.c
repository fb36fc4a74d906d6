/* lower.c — IR to threaded code. Per function: lay out the register frame
 * (predicates, 32-bit and 64-bit lane arrays, constants, per-lane .param
 * regions), then pick one handler per instruction so handlers never test what
 * kind an operand is. Forms without a fast handler go to the ALU tables. */
#include <stdlib.h>
#include <string.h>

#include "exec_mem.h"
#include "hoist.h"
#include "jit.h"
#include "lower_ext.h"
#include "lower_impl.h"
#include "regshare.h"
#include "vm.h"
#include "warp.h"

const char *const vm_op_name[VM_OP__COUNT] = {
#define X(n, ...) #n,
    VM_OP_LIST(X)
#undef X
};

/* The first failure wins; it names the PTX line of the instruction being lowered. */
#define FAIL(lc, ...)                                                                                     \
    do {                                                                                                  \
        if (!(lc)->failed) {                                                                              \
            int n_ = (lc)->cur ? snprintf((lc)->err, (lc)->errlen, "%u:%u: error: ", (lc)->cur->loc.line, \
                                          (lc)->cur->loc.col)                                             \
                               : snprintf((lc)->err, (lc)->errlen, " error: ");                           \
            snprintf((lc)->err + n_, (lc)->errlen - (size_t)n_, __VA_ARGS__);                             \
        }                                                                                                 \
        (lc)->failed = 1;                                                                                 \
    } while (0)

static uint32_t reserve(lctx *lc, uint32_t bytes, uint32_t align) {
    uint32_t at = (lc->size + align - 1) & ~(align - 1);
    if (at + bytes > lc->cap) {
        uint32_t nc = lc->cap ? lc->cap : 4096;
        while (nc < at + bytes) nc *= 2;
        uint8_t *ni = realloc(lc->img, nc);
        if (!ni) {
            FAIL(lc, "out of memory");
            return 0;
        }
        memset(ni + lc->cap, 0, nc - lc->cap);
        lc->img = ni;
        lc->cap = nc;
    }
    lc->size = at + bytes;
    return at;
}

/* Constant slots: an immediate replicated over the 32 lanes. */
static uint32_t konst(lctx *lc, uint64_t v, bool wide) {
    uint32_t off = reserve(lc, wide ? 8 * VM_LANES : 4 * VM_LANES, 64);
    if (lc->failed) return 0;
    for (int l = 0; l < VM_LANES; l++) {
        if (wide) ((uint64_t *)(lc->img + off))[l] = v;
        else ((uint32_t *)(lc->img + off))[l] = (uint32_t)v;
    }
    return off;
}

static uint8_t type_kind(uint8_t t) {
    if (t == IR_T_PRED) return VM_K_PRED;
    return ir_type_bytes[t] == 16 ? VM_K_R128 : ir_type_bytes[t] == 8 ? VM_K_R64 : VM_K_R32;
}

static uint8_t reg_kind(const ir_reg *r) { return type_kind(r->type); }

/* Frame bytes of a register of kind k for the whole warp. */
static uint32_t reg_bytes(uint8_t k) {
    return k == VM_K_R128 ? 16 * VM_LANES : k == VM_K_R64 ? 8 * VM_LANES : 4 * VM_LANES;
}

static uint64_t f32_bits(double v) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t f64_bits(double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

static void emit_raw(lctx *lc, vm_insn in);

static bool is_kparam(const lctx *lc, const ir_var *v, uint32_t *k) {
    if (!lc->f->is_entry) return false;
    for (uint32_t i = 0; i < lc->f->nparams; i++)
        if (lc->f->params[i] == v) {
            *k = i;
            return true;
        }
    return false;
}

/* Frame region of a per-lane .param variable (function params/returns, call-sequence params). */
static bool fparam_region(const lctx *lc, const ir_var *v, uint32_t *off) {
    const ir_func *f = lc->f;
    for (uint32_t i = 0; i < f->nparams && !f->is_entry; i++)
        if (f->params[i] == v) {
            *off = lc->vf->param_off[i];
            return true;
        }
    for (uint32_t i = 0; i < f->nrets; i++)
        if (f->rets[i] == v) {
            *off = lc->vf->ret_off[i];
            return true;
        }
    for (uint32_t i = 0; i < f->nlocals; i++)
        if (f->locals[i] == v && v->space == IR_SPACE_PARAM) {
            *off = lc->var_off[i];
            return true;
        }
    return false;
}

static bool local_var_off(const lctx *lc, const ir_var *v, uint32_t *off) {
    for (uint32_t i = 0; i < lc->f->nlocals; i++)
        if (lc->f->locals[i] == v && v->space == IR_SPACE_LOCAL) {
            *off = lc->var_off[i];
            return true;
        }
    return false;
}

static int64_t global_index(const vm_program *p, const ir_var *v) {
    for (uint32_t i = 0; i < p->ir->nglobals; i++)
        if (p->ir->globals[i] == v) return i;
    return -1;
}

/* Shared offset or device address of a variable whose address is fixed at load. */
static bool static_addr(lctx *lc, const ir_var *v, uint64_t *addr) {
    int64_t gi = global_index(lc->prog, v);
    if (gi >= 0) {
        if (v->space == IR_SPACE_SHARED) {
            *addr = lc->prog->shared_off[gi];
            if (lc->shared_used) lc->shared_used[gi] = 1;
        } else *addr = lc->prog->gaddr[gi];
        return true;
    }
    if (v->space == IR_SPACE_SHARED) /* function-scope .shared: laid out after module ones */
        for (uint32_t i = 0; i < lc->f->nlocals; i++)
            if (lc->f->locals[i] == v) {
                *addr = lc->var_off[i];
                return true;
            }
    return false;
}

static uint32_t scratch(lctx *lc, bool wide) { return reserve(lc, wide ? 8 * VM_LANES : 4 * VM_LANES, 64); }

static vm_insn base_insn(lctx *lc, uint16_t op) {
    vm_insn in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.g = lc->vf->true_slot;
    return in;
}

/* Source operand -> frame slot of the wanted kind; materialises immediates,
 * special registers, addresses and negated predicates. */
static vm_opnd src_opnd(lctx *lc, const ir_operand *o, uint8_t type) {
    uint8_t want = type_kind(type);
    bool wide = want == VM_K_R64;
    bool isf = ir_type_class_of[type] == IR_TC_FLOAT;
    vm_opnd r = {0, want};
    switch (o->kind) {
    case IR_OPND_REG: {
        const ir_reg *rg = &lc->f->regs[o->reg];
        r.off = lc->vf->reg_off[o->reg];
        r.kind = reg_kind(rg);
        if (o->neg && r.kind == VM_K_PRED) {
            uint32_t t = reserve(lc, 4, 4);
            vm_insn in = base_insn(lc, VM_PNOT);
            in.d = t;
            in.a = r.off;
            emit_raw(lc, in);
            r.off = t;
        }
        /* Relaxed typing: a 64-bit register read as a 32-bit operand gives its low
         * half (and a 32-bit one read as 64 bits is zero-extended). Handlers read
         * lane arrays of one width, so the value is moved to a slot of the wanted one. */
        if ((r.kind == VM_K_R64 && want == VM_K_R32) || (r.kind == VM_K_R32 && want == VM_K_R64)) {
            vm_insn in = base_insn(lc, want == VM_K_R32 ? VM_CVT_U32_U64 : VM_CVT_U64_U32);
            in.d = scratch(lc, want == VM_K_R64);
            in.a = r.off;
            emit_raw(lc, in);
            r.off = in.d;
            r.kind = want;
        }
        return r;
    }
    case IR_OPND_IMM_INT:
        if (want == VM_K_R128) {
            FAIL(lc, "a .b128 operand must be a register");
            return r;
        }
        if (want == VM_K_PRED) {
            uint32_t t = reserve(lc, 4, 4);
            *(uint32_t *)(lc->img + t) = o->ival ? VM_FULL : 0;
            r.off = t;
            return r;
        }
        if (isf) r.off = konst(lc, type == IR_T_F64 ? f64_bits((double)o->ival) : f32_bits((double)o->ival), wide);
        else r.off = konst(lc, (uint64_t)o->ival, wide);
        return r;
    case IR_OPND_IMM_F32: r.off = konst(lc, wide ? f64_bits(o->fval) : (o->fbits & 0xffffffffu), wide); return r;
    case IR_OPND_IMM_F64: r.off = konst(lc, wide ? o->fbits : f32_bits(o->fval), wide); return r;
    case IR_OPND_SREG: {
        vm_insn in = base_insn(lc, VM_MOV_SREG);
        in.x = o->sreg;
        in.sz = o->comp;
        in.d = scratch(lc, wide);
        if (wide) in.flags |= VM_F_D64;
        emit_raw(lc, in);
        r.off = in.d;
        return r;
    }
    case IR_OPND_FUNC:
        for (uint32_t k = 0; k < lc->prog->nfuncs; k++)
            if (lc->prog->funcs[k].ir == o->func) {
                r.off = konst(lc, lc->prog->funcs[k].fnaddr, wide);
                return r;
            }
        FAIL(lc, "function '%s' has no address", o->func->name);
        return r;
    case IR_OPND_VAR: {
        uint64_t a;
        uint32_t k;
        if (static_addr(lc, o->var, &a)) {
            r.off = konst(lc, a + (uint64_t)o->ival, wide);
            return r;
        }
        vm_insn in = base_insn(lc, VM_MOV_ADDR);
        in.d = scratch(lc, wide);
        if (wide) in.flags |= VM_F_D64;
        if (is_kparam(lc, o->var, &k)) {
            in.sp = VM_SP_KPARAM;
            in.imm = lc->vf->param_off[k] + o->ival;
        } else if (local_var_off(lc, o->var, &k)) {
            in.sp = VM_SP_LOCAL;
            in.imm = (int64_t)k + o->ival;
        } else {
            FAIL(lc, "the address of '%s' cannot be taken here", o->var->name);
            return r;
        }
        emit_raw(lc, in);
        r.off = in.d;
        return r;
    }
    case IR_OPND_SINK: r.kind = VM_K_SINK; return r;
    default: FAIL(lc, "unsupported operand form"); return r;
    }
}

static vm_opnd dst_opnd(lctx *lc, const ir_operand *o) {
    vm_opnd r = {0, VM_K_SINK};
    if (o->kind == IR_OPND_SINK) return r;
    if (o->kind != IR_OPND_REG) {
        FAIL(lc, "destination must be a register");
        return r;
    }
    r.off = lc->vf->reg_off[o->reg];
    r.kind = reg_kind(&lc->f->regs[o->reg]);
    return r;
}

static void emit_raw(lctx *lc, vm_insn in) {
    if (lc->n + 1 >= lc->ncap) {
        uint32_t nc = lc->ncap ? lc->ncap * 2 : 256;
        vm_insn *c = realloc(lc->code, nc * sizeof *c);
        vm_src *s = realloc(lc->src, nc * sizeof *s);
        const ir_insn **ii = realloc(lc->ins, nc * sizeof *ii);
        if (c) lc->code = c;
        if (s) lc->src = s;
        if (ii) lc->ins = ii;
        if (!c || !s || !ii) {
            free(lc->code);
            lc->code = NULL;
            FAIL(lc, "out of memory");
            return;
        }
        lc->ncap = nc;
    }
    if (lc->failed) return;
    lc->src[lc->n] = (vm_src){lc->cur ? lc->cur->loc : (ir_loc){0, 0}, lc->cur ? lc->cur->dbg : (ir_dbgloc){0, 0, 0}};
    lc->ins[lc->n] = lc->cur;
    lc->code[lc->n++] = in;
}

/* Emits `in` with the current instruction's guard. */
static void emit(lctx *lc, vm_insn in) {
    const ir_insn *ii = lc->cur;
    if (ii->guard >= 0) {
        in.g = lc->vf->reg_off[ii->guard];
        in.gx = ii->guard_neg ? VM_FULL : 0;
    }
    emit_raw(lc, in);
}

static bool has(const ir_insn *in, ir_mod m) { return ir_has_mod(in, m); }
static uint8_t ty(const ir_insn *in, unsigned k) { return in->ntypes > k ? in->types[k] : IR_T_NONE; }

/* Everything the ALU tables know: gather operand slots, look up the form. */
static bool lower_alu(lctx *lc, const ir_insn *in) {
    alu_key key;
    alu_key_of(in, &key);
    unsigned nop = 0;
    for (uint32_t k = 0; k < in->nopnds; k++) nop += in->opnds[k].kind == IR_OPND_PAIR ? 2 : 1;
    vm_alu *a = calloc(1, sizeof *a);
    if (!a) {
        FAIL(lc, "out of memory");
        return true;
    }
    if (!alu_lookup_key(&key, nop, &a->op)) {
        free(a);
        return false;
    }
    unsigned di = 0, si = 0;
    for (uint32_t k = 0; k < in->nopnds && !lc->failed; k++) {
        const ir_operand *o = &in->opnds[k];
        if (o->kind == IR_OPND_PAIR) {
            a->d[di++] = dst_opnd(lc, &o->sub[0]);
            a->d[di++] = dst_opnd(lc, &o->sub[1]);
        } else if (di < a->op.nd) {
            a->d[di++] = dst_opnd(lc, o);
        } else if (si < 6) {
            uint8_t b = a->op.sbytes[si];
            uint8_t t = b == 0 ? IR_T_PRED : b == 8 ? IR_T_B64 : IR_T_B32;
            if (o->kind == IR_OPND_IMM_F32 || o->kind == IR_OPND_IMM_F64) t = b == 8 ? IR_T_F64 : IR_T_F32;
            a->s[si++] = src_opnd(lc, o, t);
        }
    }
    vm_insn vi = base_insn(lc, VM_ALU);
    vi.p = a;
    emit(lc, vi);
    return true;
}

/* Address operand [base+off] -> flags/a/imm/sp of a memory instruction. */
static void lower_addr(lctx *lc, const ir_operand *o, int space, vm_insn *vi) {
    vi->sp = (uint8_t)space;
    if (o->kind != IR_OPND_ADDR) {
        FAIL(lc, "expected an address operand");
        return;
    }
    vi->imm = o->ival;
    if (!o->nsub) return;
    const ir_operand *b = &o->sub[0];
    if (b->kind == IR_OPND_REG) {
        vi->a = lc->vf->reg_off[b->reg];
        vi->flags |= reg_kind(&lc->f->regs[b->reg]) == VM_K_R64 ? VM_F_BASE_REG64 : VM_F_BASE_REG32;
        return;
    }
    if (b->kind == IR_OPND_IMM_INT) {
        vi->imm += b->ival;
        return;
    }
    if (b->kind != IR_OPND_VAR) {
        FAIL(lc, "unsupported address form");
        return;
    }
    const ir_var *v = b->var;
    uint64_t a;
    uint32_t k;
    vi->imm += b->ival;
    if (v->space == IR_SPACE_PARAM) {
        if (is_kparam(lc, v, &k)) {
            vi->sp = VM_SP_KPARAM;
            vi->imm += lc->vf->param_off[k];
            vi->flags |= VM_F_PARAM_SYM;
            vi->x = 1;
            return;
        }
        if (fparam_region(lc, v, &k)) {
            vi->sp = VM_SP_FPARAM;
            vi->c = k;
            vi->x = (uint16_t)(v->size ? v->size : 8);
            return;
        }
    }
    if (local_var_off(lc, v, &k)) {
        vi->imm += k;
        vi->flags |= VM_F_FRAME_SYM;
        if (space == VM_SP_GENERIC) vi->imm += (int64_t)vm_local_win;
        return;
    }
    if (static_addr(lc, v, &a)) {
        vi->imm += (int64_t)a;
        if (v->space == IR_SPACE_SHARED && space == VM_SP_GENERIC) vi->imm += (int64_t)vm_shared_win;
        return;
    }
    FAIL(lc, "cannot address '%s' here", v->name);
}

static int space_of(const ir_insn *in) {
    if (has(in, IR_MOD_SHARED) || has(in, IR_MOD_SHARED_CTA) || has(in, IR_MOD_SHARED_CLUSTER)) return VM_SP_SHARED;
    if (has(in, IR_MOD_GLOBAL)) return VM_SP_GLOBAL;
    if (has(in, IR_MOD_LOCAL)) return VM_SP_LOCAL;
    if (has(in, IR_MOD_CONST)) return VM_SP_CONST;
    if (has(in, IR_MOD_PARAM) || has(in, IR_MOD_PARAM_ENTRY) || has(in, IR_MOD_PARAM_FUNC)) return VM_SP_KPARAM;
    return VM_SP_GENERIC;
}

static void lower_ldst(lctx *lc, const ir_insn *in, bool store) {
    int sp = space_of(in);
    uint8_t t = ty(in, 0);
    unsigned sz = ir_type_bytes[t];
    const ir_operand *addr = &in->opnds[store ? 0 : 1], *val = &in->opnds[store ? 1 : 0];
    /* `{ %r }`, one register in braces (Triton writes its masked accesses so),
     * is the plain access: the same record, and the same fast handlers */
    if (val->kind == IR_OPND_VEC && val->nsub == 1 && val->sub[0].kind == IR_OPND_REG) val = &val->sub[0];
    vm_insn vi = base_insn(lc, 0);
    vi.sz = (uint8_t)sz;
    if (ir_type_class_of[t] == IR_TC_SINT) vi.flags |= VM_F_SIGNED;
    if (sz > 16 || !sz || (sz == 16 && val->kind == IR_OPND_VEC)) {
        FAIL(lc, "unsupported access type .%s", ir_type_name[t]);
        return;
    }
    if (sz == 16) {
        /* ld/st .b128: one 16-byte access of the register's two halves */
        vm_vec *v = calloc(1, sizeof *v);
        if (!v) {
            FAIL(lc, "out of memory");
            return;
        }
        vm_opnd r = store ? src_opnd(lc, val, t) : dst_opnd(lc, val);
        v->n = 2;
        if (r.kind == VM_K_SINK) v->e[0] = v->e[1] = r;
        else if (r.kind != VM_K_R128) {
            free(v);
            FAIL(lc, "a .b128 access needs a .b128 register");
            return;
        } else v->e[0] = (vm_opnd){r.off, VM_K_R64}, v->e[1] = (vm_opnd){r.off + VM_B128_HI, VM_K_R64};
        vi.op = store ? VM_STV : VM_LDV;
        vi.sz = 8;
        vi.p = v;
    } else if (val->kind == IR_OPND_VEC) {
        vm_vec *v = calloc(1, sizeof *v);
        if (!v) {
            FAIL(lc, "out of memory");
            return;
        }
        v->n = val->nsub;
        for (uint32_t k = 0; k < val->nsub && k < 8; k++)
            v->e[k] = store ? src_opnd(lc, &val->sub[k], t) : dst_opnd(lc, &val->sub[k]);
        vi.op = store ? VM_STV : VM_LDV;
        vi.p = v;
    } else if (store) {
        vm_opnd s = src_opnd(lc, val, t);
        vi.op = VM_ST;
        vi.b = s.off;
        if (s.kind == VM_K_R64) vi.flags |= VM_F_D64;
    } else {
        vm_opnd d = dst_opnd(lc, val);
        vi.op = VM_LD;
        vi.d = d.off;
        if (d.kind == VM_K_R64) vi.flags |= VM_F_D64;
        if (d.kind == VM_K_SINK) { vi.op = VM_NOP; }
    }
    lower_addr(lc, addr, sp, &vi);
    /* Strong accesses (flags, locks, message passing between CTAs) are host
     * atomics with acquire/release order: plain moves on x86, and visible as
     * synchronization to race detectors. */
    if ((vi.op == VM_LD || vi.op == VM_ST) &&
        (has(in, IR_MOD_VOLATILE) || has(in, IR_MOD_RELAXED) || has(in, IR_MOD_ACQUIRE) || has(in, IR_MOD_RELEASE) ||
         has(in, IR_MOD_MMIO)))
        vi.flags |= VM_F_STRONG;
    /* the 4-byte shared/global forms with a register base have their own handlers */
    if ((vi.op == VM_LD || vi.op == VM_ST) && sz == 4 && !(vi.flags & (VM_F_D64 | VM_F_FRAME_SYM | VM_F_STRONG))) {
        if (vi.sp == VM_SP_SHARED && vi.flags & VM_F_BASE_REG32) vi.op = vi.op == VM_LD ? VM_LDS4 : VM_STS4;
        else if (vi.sp == VM_SP_GLOBAL && vi.flags & VM_F_BASE_REG64) vi.op = vi.op == VM_LD ? VM_LDG4 : VM_STG4;
    }
    if (vi.sp == VM_SP_KPARAM && vi.x == 1) {
        if (vi.op == VM_LD && !(vi.flags & (VM_F_BASE_REG64 | VM_F_BASE_REG32))) {
            vi.op = VM_LD_KPARAM; /* adds the buffer's address itself */
            vi.flags &= (uint8_t)~VM_F_PARAM_SYM;
        }
        vi.x = 0;
    }
    emit(lc, vi);
}

static void lower_atom(lctx *lc, const ir_insn *in, bool red) {
    static const struct {
        ir_mod m;
        int op;
    } ops[] = {{IR_MOD_ADD, VM_AO_ADD},   {IR_MOD_MIN, VM_AO_MIN}, {IR_MOD_MAX, VM_AO_MAX}, {IR_MOD_INC, VM_AO_INC},
               {IR_MOD_DEC, VM_AO_DEC},   {IR_MOD_AND, VM_AO_AND}, {IR_MOD_OR, VM_AO_OR},   {IR_MOD_XOR, VM_AO_XOR},
               {IR_MOD_EXCH, VM_AO_EXCH}, {IR_MOD_CAS, VM_AO_CAS}};
    int op = -1;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (has(in, ops[k].m)) op = ops[k].op;
    uint8_t t = ty(in, 0);
    int at;
    switch (t) {
    case IR_T_S32: at = VM_AT_S32; break;
    case IR_T_U64:
    case IR_T_B64: at = VM_AT_U64; break;
    case IR_T_S64: at = VM_AT_S64; break;
    case IR_T_F32: at = VM_AT_F32; break;
    case IR_T_F64: at = VM_AT_F64; break;
    case IR_T_U32:
    case IR_T_B32: at = VM_AT_U32; break;
    case IR_T_B16:
    case IR_T_U16: at = VM_AT_B16; break;
    case IR_T_F16: at = VM_AT_F16; break;
    case IR_T_BF16: at = VM_AT_BF16; break;
    case IR_T_F16X2: at = VM_AT_F16X2; break;
    case IR_T_BF16X2: at = VM_AT_BF16X2; break;
    case IR_T_B128: at = VM_AT_B128; break;
    default: at = -1;
    }
    bool half = at == VM_AT_F16 || at == VM_AT_BF16 || at == VM_AT_F16X2 || at == VM_AT_BF16X2;
    alu_op hop = {0};
    if (half) {
        /* 16-bit float atomics compute with the ALU's own add/min/max (round to nearest, no flush) */
        int aop = op == VM_AO_ADD ? IR_OP_ADD : op == VM_AO_MIN ? IR_OP_MIN : op == VM_AO_MAX ? IR_OP_MAX : -1;
        if (!alu_lookup_binop(aop, t, &hop)) op = -1;
    }
    if ((at == VM_AT_B16 || at == VM_AT_B128) && op != VM_AO_CAS && op != VM_AO_EXCH) op = -1;
    if (op < 0 || at < 0 || (op != VM_AO_ADD && (at == VM_AT_F32 || at == VM_AT_F64)) || in->ntypes > 1) {
        char mn[128];
        ir_insn_mnemonic(in, mn, sizeof mn);
        FAIL(lc, "unsupported atomic '%s'", mn);
        return;
    }
    vm_alu *a = calloc(1, sizeof *a);
    if (!a) {
        FAIL(lc, "out of memory");
        return;
    }
    uint32_t k = 0;
    a->op = hop;
    vm_insn vi = base_insn(lc, VM_ATOM);
    a->d[0] = red ? (vm_opnd){0, VM_K_SINK} : dst_opnd(lc, &in->opnds[k++]);
    const ir_operand *addr = &in->opnds[k++];
    a->s[0] = src_opnd(lc, &in->opnds[k++], t);
    if (op == VM_AO_CAS && k < in->nopnds) a->s[1] = src_opnd(lc, &in->opnds[k++], t);
    vi.p = a;
    vi.x = (uint16_t)(op << 8 | at);
    vi.sz = ir_type_bytes[t];
    lower_addr(lc, addr, space_of(in), &vi);
    emit(lc, vi);
}

/* Fast integer/float forms: (opcode, type, modifiers) -> handler, else 0. */
static int fast_binop(const ir_insn *in, uint8_t *kind) {
    uint8_t t = ty(in, 0);
    bool w64 = ir_type_bytes[t] == 8;
    int tc = ir_type_class_of[t];
    *kind = w64 ? VM_K_R64 : VM_K_R32;
    if (in->ntypes != 1 || (ir_type_bytes[t] != 4 && ir_type_bytes[t] != 8)) return 0;
    if (t == IR_T_S16X2 || t == IR_T_U16X2 || t == IR_T_F16X2 || t == IR_T_BF16X2 || t == IR_T_TF32) return 0;
    unsigned nm = in->nmods;
    bool lo = has(in, IR_MOD_LO);
    bool f = tc == IR_TC_FLOAT;
    if (f && (t != IR_T_F32 && t != IR_T_F64)) return 0;
    bool rn_only = nm == 0 || (nm == 1 && has(in, IR_MOD_RN));
    switch (in->op) {
    case IR_OP_ADD:
        if (f) return rn_only ? (w64 ? VM_ADDF64 : VM_ADDF32) : 0;
        return nm ? 0 : w64 ? VM_ADD64 : VM_ADD32;
    case IR_OP_SUB:
        if (f) return rn_only ? (w64 ? VM_SUBF64 : VM_SUBF32) : 0;
        return nm ? 0 : w64 ? VM_SUB64 : VM_SUB32;
    case IR_OP_MUL:
        if (f) return rn_only ? (w64 ? VM_MULF64 : VM_MULF32) : 0;
        if (nm == 1 && lo) return w64 ? VM_MUL64 : VM_MUL32;
        if (nm == 1 && has(in, IR_MOD_WIDE) && !w64) {
            *kind = VM_K_R64;
            return tc == IR_TC_SINT ? VM_MULWS32 : VM_MULWU32;
        }
        if (nm == 1 && has(in, IR_MOD_HI) && !w64) return tc == IR_TC_SINT ? VM_MULHIS32 : VM_MULHIU32;
        return 0;
    case IR_OP_AND: return nm || f ? 0 : w64 ? VM_AND64 : VM_AND32;
    case IR_OP_OR: return nm || f ? 0 : w64 ? VM_OR64 : VM_OR32;
    case IR_OP_XOR: return nm || f ? 0 : w64 ? VM_XOR64 : VM_XOR32;
    case IR_OP_SHL: return nm || f ? 0 : w64 ? VM_SHL64 : VM_SHL32;
    case IR_OP_SHR:
        return nm || f ? 0 : tc == IR_TC_SINT ? (w64 ? VM_SHRS64 : VM_SHRS32) : (w64 ? VM_SHRU64 : VM_SHRU32);
    case IR_OP_MIN:
        if (f) return nm || w64 ? 0 : VM_MINF32;
        return nm || w64 ? 0 : tc == IR_TC_SINT ? VM_MINS32 : VM_MINU32;
    case IR_OP_MAX:
        if (f) return nm || w64 ? 0 : VM_MAXF32;
        return nm || w64 ? 0 : tc == IR_TC_SINT ? VM_MAXS32 : VM_MAXU32;
    case IR_OP_FMA: return f && nm == 1 && has(in, IR_MOD_RN) ? (w64 ? VM_FMAF64 : VM_FMAF32) : 0;
    case IR_OP_DIV:
        if (!f) return nm || w64 ? 0 : tc == IR_TC_SINT ? VM_DIVS32 : VM_DIVU32;
        return nm == 1 && has(in, IR_MOD_RN) ? (w64 ? VM_DIVF64 : VM_DIVF32) : 0;
    case IR_OP_REM: return nm || f || w64 ? 0 : tc == IR_TC_SINT ? VM_REMS32 : VM_REMU32;
    case IR_OP_MAD:
        if (f) return 0;
        if (nm == 1 && lo) return w64 ? VM_MAD64 : VM_MAD32;
        if (nm == 1 && has(in, IR_MOD_WIDE) && !w64) {
            *kind = VM_K_R64;
            return tc == IR_TC_SINT ? VM_MADWS32 : VM_MADWU32;
        }
        return 0;
    default: return 0;
    }
}

/* Bit-field, funnel-shift, lop3, prmt and common cvt forms with 32-bit operands. */
static int fast_bits(const ir_insn *in) {
    uint8_t t0 = ty(in, 0), t1 = ty(in, 1);
    switch (in->op) {
    case IR_OP_SHF:
        if (in->nopnds != 4 || t0 != IR_T_B32 || in->nmods != 2) return 0;
        if (has(in, IR_MOD_L)) return has(in, IR_MOD_WRAP) ? VM_SHFLW : VM_SHFLC;
        return has(in, IR_MOD_WRAP) ? VM_SHFRW : VM_SHFRC;
    case IR_OP_LOP3:
        return in->nopnds == 5 && in->nmods == 0 && t0 == IR_T_B32 && in->opnds[4].kind == IR_OPND_IMM_INT ? VM_LOP3
                                                                                                           : 0;
    case IR_OP_PRMT: return in->nopnds == 4 && in->nmods == 0 && t0 == IR_T_B32 ? VM_PRMT : 0;
    case IR_OP_BFE:
        if (in->nopnds != 4 || in->nmods) return 0;
        return t0 == IR_T_U32 ? VM_BFEU32 : t0 == IR_T_S32 ? VM_BFES32 : 0;
    case IR_OP_SQRT:
        if (in->nopnds != 2 || in->nmods != 1 || !has(in, IR_MOD_RN)) return 0;
        return t0 == IR_T_F32 ? VM_SQRTF32 : t0 == IR_T_F64 ? VM_SQRTF64 : 0;
    case IR_OP_NEG: return in->nopnds == 2 && !in->nmods && t0 == IR_T_F32 ? VM_NEGF32 : 0;
    case IR_OP_ABS: return in->nopnds == 2 && !in->nmods && t0 == IR_T_F32 ? VM_ABSF32 : 0;
    case IR_OP_CVT:
        if (in->nopnds != 2 || in->nmods != 1 || in->ntypes != 2) return 0;
        if (has(in, IR_MOD_RN) && t0 == IR_T_F32)
            return t1 == IR_T_U32 ? VM_CVTF32U32 : t1 == IR_T_S32 ? VM_CVTF32S32 : 0;
        if (has(in, IR_MOD_RZI) && t0 == IR_T_S32 && t1 == IR_T_F32) return VM_CVTRZIS32F32;
        return 0;
    default: return 0;
    }
}

static const struct {
    ir_mod m;
    int base;
} cmp_mods[] = {{IR_MOD_EQ, 0}, {IR_MOD_NE, 1}, {IR_MOD_LT, 2}, {IR_MOD_LE, 3}, {IR_MOD_GT, 4},
                {IR_MOD_GE, 5}, {IR_MOD_LO, 2}, {IR_MOD_LS, 3}, {IR_MOD_HI, 4}, {IR_MOD_HS, 5}};

static int fast_setp(const ir_insn *in) {
    if (in->nmods != 1 || in->ntypes != 1 || in->nopnds != 3 || in->opnds[0].kind != IR_OPND_REG) return 0;
    int c = -1;
    for (size_t k = 0; k < sizeof cmp_mods / sizeof cmp_mods[0]; k++)
        if (in->mods[0] == cmp_mods[k].m) c = cmp_mods[k].base;
    if (c < 0) return 0;
    int base;
    switch (in->types[0]) {
    case IR_T_S32: base = VM_EQ_S32; break;
    case IR_T_U32:
    case IR_T_B32: base = VM_EQ_U32; break;
    case IR_T_S64: base = VM_EQ_S64; break;
    case IR_T_U64:
    case IR_T_B64: base = VM_EQ_U64; break;
    case IR_T_F32: base = VM_EQ_F32; break;
    case IR_T_F64: base = VM_EQ_F64; break;
    default: return 0;
    }
    /* lo/ls/hi/hs only make sense unsigned */
    return base + c;
}

/* Two 64-bit moves, one per half of a .b128 value: d and s are the frame
 * offsets of the halves (a sink destination is skipped). */
static void mov_halves(lctx *lc, const vm_opnd *d, const vm_opnd *s) {
    for (int k = 0; k < 2; k++) {
        if (d[k].kind == VM_K_SINK) continue;
        vm_insn vi = base_insn(lc, VM_MOV64);
        vi.d = d[k].off;
        vi.a = s[k].off;
        emit(lc, vi);
    }
}

/* mov.b128: between .b128 registers, or packing {lo, hi} 64-bit registers into
 * one and unpacking it (the forms CUDA's 16-byte atomics compile to). */
static void lower_mov128(lctx *lc, const ir_operand *d, const ir_operand *s) {
    vm_opnd dv[2], sv[2];
    if (d->kind == IR_OPND_VEC || s->kind == IR_OPND_VEC) {
        const ir_operand *v = d->kind == IR_OPND_VEC ? d : s;
        if (v->nsub != 2) {
            FAIL(lc, "mov.b128 packs or unpacks two .b64 values");
            return;
        }
    }
    for (int k = 0; k < 2; k++) {
        if (d->kind == IR_OPND_VEC) dv[k] = dst_opnd(lc, &d->sub[k]);
        else dv[k] = (vm_opnd){dst_opnd(lc, d).off + (k ? VM_B128_HI : 0), VM_K_R64};
        if (s->kind == IR_OPND_VEC) sv[k] = src_opnd(lc, &s->sub[k], IR_T_B64);
        else sv[k] = (vm_opnd){src_opnd(lc, s, IR_T_B128).off + (k ? VM_B128_HI : 0), VM_K_R64};
        if ((dv[k].kind != VM_K_R64 && dv[k].kind != VM_K_SINK) || sv[k].kind != VM_K_R64) {
            FAIL(lc, "mov.b128 operands must be .b128 registers or pairs of 64-bit registers");
            return;
        }
    }
    mov_halves(lc, dv, sv);
}

static void lower_mov(lctx *lc, const ir_insn *in) {
    const ir_operand *d = &in->opnds[0], *s = &in->opnds[1];
    uint8_t t = ty(in, 0);
    if (t == IR_T_B128) {
        lower_mov128(lc, d, s);
        return;
    }
    if (s->kind == IR_OPND_VEC || d->kind == IR_OPND_VEC) {
        const ir_operand *v = s->kind == IR_OPND_VEC ? s : d;
        vm_vec *vv = calloc(1, sizeof *vv);
        if (!vv) {
            FAIL(lc, "out of memory");
            return;
        }
        unsigned part = ir_type_bytes[t] / (v->nsub ? v->nsub : 1);
        if (v->nsub != 2 || (part != 4 && part != 2)) {
            free(vv);
            FAIL(lc, "unsupported vector mov");
            return;
        }
        vv->n = 2;
        vm_insn vi = base_insn(lc, s->kind == IR_OPND_VEC ? VM_MOV_PACK : VM_MOV_UNPACK);
        for (int k = 0; k < 2; k++)
            vv->e[k] = s->kind == IR_OPND_VEC ? src_opnd(lc, &v->sub[k], part == 4 ? IR_T_B32 : IR_T_B16)
                                              : dst_opnd(lc, &v->sub[k]);
        vi.sz = (uint8_t)part;
        if (s->kind == IR_OPND_VEC) vi.d = dst_opnd(lc, d).off;
        else vi.a = src_opnd(lc, s, t).off;
        vi.p = vv;
        emit(lc, vi);
        return;
    }
    vm_opnd dd = dst_opnd(lc, d);
    if (dd.kind == VM_K_PRED) {
        vm_insn vi = base_insn(lc, VM_MOVP);
        vi.d = dd.off;
        vi.a = src_opnd(lc, s, IR_T_PRED).off;
        emit(lc, vi);
        return;
    }
    if (s->kind == IR_OPND_SREG) {
        vm_insn vi = base_insn(lc, VM_MOV_SREG);
        vi.x = s->sreg;
        vi.sz = s->comp;
        vi.d = dd.off;
        if (dd.kind == VM_K_R64) vi.flags |= VM_F_D64;
        emit(lc, vi);
        return;
    }
    vm_opnd ss = src_opnd(lc, s,
                          dd.kind == VM_K_R64 ? (ir_type_class_of[t] == IR_TC_FLOAT ? IR_T_F64 : IR_T_B64)
                                              : (t == IR_T_F32 ? IR_T_F32 : IR_T_B32));
    vm_insn vi = base_insn(lc, dd.kind == VM_K_R64 ? VM_MOV64 : VM_MOV32);
    if (ss.kind != dd.kind) { /* relaxed typing: move the low bits */
        vi.op = dd.kind == VM_K_R64 ? VM_CVT_U64_U32 : VM_CVT_U32_U64;
    }
    vi.d = dd.off;
    vi.a = ss.off;
    emit(lc, vi);
}

static void lower_call(lctx *lc, const ir_insn *in) {
    vm_callinfo *ci = calloc(1, sizeof *ci);
    if (!ci) {
        FAIL(lc, "out of memory");
        return;
    }
    uint32_t k = 0;
    const ir_operand *rets = NULL, *args = NULL;
    if (k < in->nopnds && in->opnds[k].kind == IR_OPND_LIST) rets = &in->opnds[k++];
    if (k >= in->nopnds) {
        free(ci);
        FAIL(lc, "call without target");
        return;
    }
    const ir_operand *tgt = &in->opnds[k++];
    if (k < in->nopnds && in->opnds[k].kind == IR_OPND_LIST) args = &in->opnds[k++];
    if (tgt->kind == IR_OPND_FUNC) {
        for (uint32_t j = 0; j < lc->prog->nfuncs; j++)
            if (lc->prog->funcs[j].ir == tgt->func) ci->callee = &lc->prog->funcs[j];
        if (ci->callee && !ci->callee->ir->has_body && lc->prog->rt && lc->prog->rt->resolve_func) {
            vm_func *ext = lc->prog->rt->resolve_func(lc->prog->rt->ctx, tgt->func->name);
            if (ext) ci->callee = ext;
        }
    } else if (tgt->kind == IR_OPND_REG) {
        ci->fptr = lc->vf->reg_off[tgt->reg];
    } else {
        free(ci);
        FAIL(lc, "unsupported call target");
        return;
    }
    const ir_operand *lists[2] = {rets, args};
    for (int li = 0; li < 2; li++) {
        const ir_operand *L = lists[li];
        for (uint32_t j = 0; L && j < L->nsub; j++) {
            const ir_operand *o = &L->sub[j];
            uint32_t off;
            if (o->kind != IR_OPND_VAR || !fparam_region(lc, o->var, &off) || j >= (li ? 32u : 8u)) {
                FAIL(lc, "call arguments must be .param variables");
                free(ci);
                return;
            }
            uint32_t sz = (uint32_t)(o->var->size ? o->var->size : 8);
            if (li) {
                ci->argoff[j] = off;
                ci->argsize[j] = sz;
                ci->nargs = j + 1;
            } else {
                ci->retoff[j] = off;
                ci->retsize[j] = sz;
                ci->nrets = j + 1;
            }
        }
    }
    vm_insn vi = base_insn(lc, VM_CALL);
    vi.p = ci;
    emit(lc, vi);
}

static void lower_collective(lctx *lc, const ir_insn *in) {
    vm_alu *a = calloc(1, sizeof *a);
    if (!a) {
        FAIL(lc, "out of memory");
        return;
    }
    vm_insn vi = base_insn(lc, 0);
    vi.p = a;
    const ir_operand *o = in->opnds;
    uint32_t n = in->nopnds;
    const ir_operand *d = &o[0];
    if (d->kind == IR_OPND_PAIR) {
        a->d[1] = dst_opnd(lc, &d->sub[1]);
        d = &d->sub[0];
    }
    vi.d = dst_opnd(lc, d).off;
    switch (in->op) {
    case IR_OP_ACTIVEMASK: vi.op = VM_ACTIVEMASK; break;
    case IR_OP_SHFL:
        vi.op = VM_SHFL;
        vi.x = has(in, IR_MOD_UP)     ? VM_SHFL_UP
               : has(in, IR_MOD_DOWN) ? VM_SHFL_DOWN
               : has(in, IR_MOD_BFLY) ? VM_SHFL_BFLY
                                      : VM_SHFL_IDX;
        if (n < 4) {
            FAIL(lc, "shfl needs 4 or 5 operands");
            return;
        }
        vi.a = src_opnd(lc, &o[1], IR_T_B32).off;
        vi.b = src_opnd(lc, &o[2], IR_T_B32).off;
        vi.c = src_opnd(lc, &o[3], IR_T_B32).off;
        vi.imm = n > 4 ? src_opnd(lc, &o[4], IR_T_B32).off : konst(lc, VM_FULL, false);
        break;
    case IR_OP_VOTE:
        vi.op = VM_VOTE;
        vi.x = has(in, IR_MOD_ALL)   ? VM_VOTE_ALL
               : has(in, IR_MOD_ANY) ? VM_VOTE_ANY
               : has(in, IR_MOD_UNI) ? VM_VOTE_UNI
                                     : VM_VOTE_BALLOT;
        vi.a = src_opnd(lc, &(ir_operand){.kind = o[1].kind, .reg = o[1].reg, .ival = o[1].ival}, IR_T_PRED).off;
        vi.b = o[1].neg ? VM_FULL : 0;
        vi.imm = n > 2 ? src_opnd(lc, &o[2], IR_T_B32).off : konst(lc, VM_FULL, false);
        break;
    case IR_OP_MATCH:
        vi.op = VM_MATCH;
        vi.x = has(in, IR_MOD_ALL) ? VM_MATCH_ALL : VM_MATCH_ANY;
        if (ir_type_bytes[ty(in, 0)] == 8) vi.flags |= VM_F_D64;
        vi.a = src_opnd(lc, &o[1], ty(in, 0)).off;
        vi.imm = src_opnd(lc, &o[2], IR_T_B32).off;
        break;
    case IR_OP_REDUX: {
        vi.op = VM_REDUX;
        bool s = ty(in, 0) == IR_T_S32;
        vi.x = has(in, IR_MOD_ADD)   ? VM_REDUX_ADD
               : has(in, IR_MOD_MIN) ? (s ? VM_REDUX_MINS : VM_REDUX_MIN)
               : has(in, IR_MOD_MAX) ? (s ? VM_REDUX_MAXS : VM_REDUX_MAX)
               : has(in, IR_MOD_AND) ? VM_REDUX_AND
               : has(in, IR_MOD_OR)  ? VM_REDUX_OR
                                     : VM_REDUX_XOR;
        vi.a = src_opnd(lc, &o[1], IR_T_B32).off;
        vi.imm = src_opnd(lc, &o[2], IR_T_B32).off;
        break;
    }
    default: break;
    }
    emit(lc, vi);
}

static void lower_bar(lctx *lc, const ir_insn *in) {
    vm_insn vi = base_insn(lc, VM_BAR);
    if (has(in, IR_MOD_WARP)) {
        vi.op = VM_BAR_WARP;
        vi.a = in->nopnds ? src_opnd(lc, &in->opnds[0], IR_T_B32).off : 0;
        emit(lc, vi);
        return;
    }
    uint32_t k = 0;
    if (has(in, IR_MOD_RED)) {
        vi.op = VM_BAR_RED;
        vi.sz = has(in, IR_MOD_POPC) ? VM_BAR_RED_POPC : has(in, IR_MOD_AND) ? VM_BAR_RED_AND : VM_BAR_RED_OR;
        vi.d = dst_opnd(lc, &in->opnds[k++]).off;
    }
    if (has(in, IR_MOD_ARRIVE)) vi.x = VM_BAR_ARRIVE_ONLY;
    /* bar.sync: 1 + an immediate barrier id in imm, so that the converged
     * path (vm_bar_sync_whole) need not load it from the warp's frame */
    const ir_operand *id = k < in->nopnds ? &in->opnds[k] : NULL;
    if (vi.op == VM_BAR && (!id || (id->kind == IR_OPND_IMM_INT && id->ival >= 0 && id->ival < 16)))
        vi.imm = id ? id->ival + 1 : 1;
    vi.a = k < in->nopnds ? src_opnd(lc, &in->opnds[k++], IR_T_B32).off : konst(lc, 0, false);
    uint32_t rest = in->nopnds - k;
    if ((vi.op == VM_BAR_RED && rest == 2) || (vi.op == VM_BAR && rest == 1)) {
        vi.b = src_opnd(lc, &in->opnds[k++], IR_T_B32).off;
        vi.x |= VM_BAR_COUNTED;
    }
    if (vi.op == VM_BAR_RED) {
        const ir_operand *p = &in->opnds[k];
        vi.c = lc->vf->reg_off[p->reg];
        vi.imm = p->neg ? VM_FULL : 0;
    }
    emit(lc, vi);
}

static void lower_cvta(lctx *lc, const ir_insn *in) {
    bool to = has(in, IR_MOD_TO);
    int sp = space_of(in);
    vm_opnd d = dst_opnd(lc, &in->opnds[0]);
    vm_opnd s = src_opnd(lc, &in->opnds[1], ty(in, 0));
    vm_insn vi = base_insn(lc, 0);
    vi.d = d.off;
    vi.a = s.off;
    if (sp != VM_SP_SHARED && sp != VM_SP_LOCAL) {
        vi.op = d.kind == s.kind ? (d.kind == VM_K_R64 ? VM_MOV64 : VM_MOV32)
                                 : (d.kind == VM_K_R64 ? VM_CVT_U64_U32 : VM_CVT_U32_U64);
    } else {
        vi.op = to ? VM_CVTA_TO : VM_CVTA_FROM;
        vi.imm = (int64_t)(sp == VM_SP_SHARED ? vm_shared_win : vm_local_win);
        if (d.kind == VM_K_R64) vi.flags |= VM_F_D64;
        if (s.kind == VM_K_R64) vi.flags |= VM_F_BASE_REG64;
    }
    emit(lc, vi);
}

static void lower_ld(lctx *lc, const ir_insn *in) { lower_ldst(lc, in, false); }
static void lower_st(lctx *lc, const ir_insn *in) { lower_ldst(lc, in, true); }
static void lower_atom_op(lctx *lc, const ir_insn *in) { lower_atom(lc, in, false); }
static void lower_red(lctx *lc, const ir_insn *in) { lower_atom(lc, in, true); }

static void lower_barrier(lctx *lc, const ir_insn *in) {
    if (!has(in, IR_MOD_CLUSTER) || !vm_lower_cluster(lc, in)) lower_bar(lc, in);
}

static void lower_bra(lctx *lc, const ir_insn *in) {
    vm_insn vi = base_insn(lc, VM_BRA);
    vi.imm = in->opnds[0].label; /* resolved after the body */
    emit(lc, vi);
}

static void lower_brx(lctx *lc, const ir_insn *in) {
    vm_insn vi = base_insn(lc, VM_BRX);
    vi.a = src_opnd(lc, &in->opnds[0], IR_T_U32).off;
    vi.x = (uint16_t)in->opnds[1].label;
    emit(lc, vi);
}

/* Instructions that are one record with no operands. */
static void lower_plain(lctx *lc, const ir_insn *in) {
    static const uint16_t rec[IR_OP__COUNT] = {
        [IR_OP_EXIT] = VM_EXIT,
        [IR_OP_RET] = VM_RET,
        [IR_OP_TRAP] = VM_TRAP,
        [IR_OP_BRKPT] = VM_BRKPT,
        [IR_OP_MEMBAR] = VM_FENCE,
        [IR_OP_FENCE] = VM_FENCE,
        [IR_OP_PREFETCH] = VM_NOP,
        [IR_OP_PREFETCHU] = VM_NOP,
        [IR_OP_APPLYPRIORITY] = VM_NOP,
        [IR_OP_DISCARD] = VM_NOP,
        /* a grid starts after the grids before it end: nothing to wait for */
        [IR_OP_GRIDDEPCONTROL] = VM_NOP,
    };
    emit(lc, base_insn(lc, rec[in->op]));
}

static void lower_createpolicy(lctx *lc, const ir_insn *in) {
    vm_insn vi = base_insn(lc, VM_MOV64);
    vi.d = dst_opnd(lc, &in->opnds[0]).off;
    vi.a = konst(lc, 0x10e0000000000000ull, true); /* an opaque policy value */
    emit(lc, vi);
}

static void lower_nanosleep(lctx *lc, const ir_insn *in) {
    vm_insn vi = base_insn(lc, VM_NANOSLEEP);
    vi.a = in->nopnds ? src_opnd(lc, &in->opnds[0], IR_T_U32).off : 0;
    emit(lc, vi);
}

static void lower_pmevent(lctx *lc, const ir_insn *in) {
    vm_insn vi = base_insn(lc, VM_PMEVENT);
    vi.imm = in->nopnds && in->opnds[0].kind == IR_OPND_IMM_INT ? in->opnds[0].ival : 0;
    emit(lc, vi);
}

static void lower_isspacep(lctx *lc, const ir_insn *in) {
    vm_insn vi = base_insn(lc, VM_ISSPACEP);
    vi.sp = (uint8_t)space_of(in);
    vi.x = has(in, IR_MOD_SHARED_CLUSTER); /* any CTA of the cluster, not only this one */
    vi.d = dst_opnd(lc, &in->opnds[0]).off;
    vm_opnd s = src_opnd(lc, &in->opnds[1], IR_T_B64);
    vi.a = s.off;
    if (s.kind == VM_K_R64) vi.flags |= VM_F_BASE_REG64;
    emit(lc, vi);
}

static void lower_stack(lctx *lc, const ir_insn *in) {
    vm_insn vi = base_insn(lc, in->op == IR_OP_ALLOCA      ? VM_ALLOCA
                               : in->op == IR_OP_STACKSAVE ? VM_STACKSAVE
                                                           : VM_STACKRESTORE);
    bool wide = ir_type_bytes[ty(in, 0)] == 8;
    if (wide) vi.flags |= VM_F_D64;
    if (in->op == IR_OP_STACKRESTORE) vi.a = src_opnd(lc, &in->opnds[0], ty(in, 0)).off;
    else vi.d = dst_opnd(lc, &in->opnds[0]).off;
    if (in->op == IR_OP_ALLOCA) {
        vi.a = src_opnd(lc, &in->opnds[1], ty(in, 0)).off;
        vi.imm = in->nopnds > 2 ? in->opnds[2].ival : 8;
    }
    emit(lc, vi);
}

/* The instructions of family CORE (opcodes.def), by opcode. */
static void (*const core_lower[IR_OP__COUNT])(lctx *, const ir_insn *) = {
    [IR_OP_MOV] = lower_mov,
    [IR_OP_LD] = lower_ld,
    [IR_OP_LDU] = lower_ld,
    [IR_OP_ST] = lower_st,
    [IR_OP_ATOM] = lower_atom_op,
    [IR_OP_RED] = lower_red,
    [IR_OP_CALL] = lower_call,
    [IR_OP_CVTA] = lower_cvta,
    [IR_OP_BAR] = lower_barrier,
    [IR_OP_BARRIER] = lower_barrier,
    [IR_OP_SHFL] = lower_collective,
    [IR_OP_VOTE] = lower_collective,
    [IR_OP_MATCH] = lower_collective,
    [IR_OP_REDUX] = lower_collective,
    [IR_OP_ACTIVEMASK] = lower_collective,
    [IR_OP_BRA] = lower_bra,
    [IR_OP_BRX] = lower_brx,
    [IR_OP_EXIT] = lower_plain,
    [IR_OP_RET] = lower_plain,
    [IR_OP_TRAP] = lower_plain,
    [IR_OP_BRKPT] = lower_plain,
    [IR_OP_MEMBAR] = lower_plain,
    [IR_OP_FENCE] = lower_plain,
    [IR_OP_PREFETCH] = lower_plain,
    [IR_OP_PREFETCHU] = lower_plain,
    [IR_OP_APPLYPRIORITY] = lower_plain,
    [IR_OP_DISCARD] = lower_plain,
    [IR_OP_GRIDDEPCONTROL] = lower_plain,
    [IR_OP_CREATEPOLICY] = lower_createpolicy,
    [IR_OP_NANOSLEEP] = lower_nanosleep,
    [IR_OP_PMEVENT] = lower_pmevent,
    [IR_OP_ISSPACEP] = lower_isspacep,
    [IR_OP_ALLOCA] = lower_stack,
    [IR_OP_STACKSAVE] = lower_stack,
    [IR_OP_STACKRESTORE] = lower_stack,
};

static bool lower_core(lctx *lc, const ir_insn *in) {
    if (!core_lower[in->op]) return false;
    core_lower[in->op](lc, in);
    return true;
}

/* Family ALU: a specialised handler when the form has one, else the ALU tables. */
static bool lower_arith(lctx *lc, const ir_insn *in) {
    uint8_t kind;
    int op;
    switch (in->op) {
    case IR_OP_SETP:
        if ((op = fast_setp(in)) != 0) {
            vm_insn vi = base_insn(lc, (uint16_t)op);
            vi.d = dst_opnd(lc, &in->opnds[0]).off;
            vi.a = src_opnd(lc, &in->opnds[1], in->types[0]).off;
            vi.b = src_opnd(lc, &in->opnds[2], in->types[0]).off;
            emit(lc, vi);
            return true;
        }
        break;
    case IR_OP_SELP: {
        uint8_t t = ty(in, 0);
        unsigned b = ir_type_bytes[t];
        if (in->ntypes == 1 && (b == 4 || b == 8) && in->opnds[3].kind == IR_OPND_REG) {
            vm_insn vi = base_insn(lc, b == 8 ? VM_SELP64 : VM_SELP32);
            vi.d = dst_opnd(lc, &in->opnds[0]).off;
            vi.a = src_opnd(lc, &in->opnds[1], t).off;
            vi.b = src_opnd(lc, &in->opnds[2], t).off;
            vi.c = lc->vf->reg_off[in->opnds[3].reg];
            vi.imm = in->opnds[3].neg ? VM_FULL : 0;
            emit(lc, vi);
            return true;
        }
        break;
    }
    case IR_OP_CVT:
        if (in->nmods == 0 && in->ntypes == 2) {
            uint8_t dt = in->types[0], st = in->types[1];
            int vop = 0;
            if ((dt == IR_T_U64 || dt == IR_T_S64) && st == IR_T_U32) vop = VM_CVT_U64_U32;
            else if ((dt == IR_T_S64 || dt == IR_T_U64) && st == IR_T_S32) vop = VM_CVT_S64_S32;
            else if ((dt == IR_T_U32 || dt == IR_T_S32) && (st == IR_T_U64 || st == IR_T_S64)) vop = VM_CVT_U32_U64;
            if (vop && in->opnds[1].kind == IR_OPND_REG) {
                vm_insn vi = base_insn(lc, (uint16_t)vop);
                vi.d = dst_opnd(lc, &in->opnds[0]).off;
                vi.a = src_opnd(lc, &in->opnds[1], st).off;
                emit(lc, vi);
                return true;
            }
        }
        break;
    case IR_OP_AND:
    case IR_OP_OR:
    case IR_OP_XOR:
    case IR_OP_NOT:
        if (ty(in, 0) == IR_T_PRED) {
            vm_insn vi = base_insn(lc, in->op == IR_OP_AND   ? VM_PAND
                                       : in->op == IR_OP_OR  ? VM_POR
                                       : in->op == IR_OP_XOR ? VM_PXOR
                                                             : VM_PNOT);
            vi.d = dst_opnd(lc, &in->opnds[0]).off;
            const ir_operand *a = &in->opnds[1];
            vi.a = src_opnd(lc, &(ir_operand){.kind = a->kind, .reg = a->reg, .ival = a->ival}, IR_T_PRED).off;
            vi.imm = a->neg ? VM_FULL : 0;
            if (in->op != IR_OP_NOT) {
                const ir_operand *b = &in->opnds[2];
                vi.b = src_opnd(lc, &(ir_operand){.kind = b->kind, .reg = b->reg, .ival = b->ival}, IR_T_PRED).off;
                vi.x = b->neg;
            }
            emit(lc, vi);
            return true;
        }
        if (in->op == IR_OP_NOT && in->ntypes == 1 && in->nmods == 0) {
            bool w = ir_type_bytes[ty(in, 0)] == 8;
            if (ir_type_bytes[ty(in, 0)] == 4 || w) {
                vm_insn vi = base_insn(lc, w ? VM_NOT64 : VM_NOT32);
                vi.d = dst_opnd(lc, &in->opnds[0]).off;
                vi.a = src_opnd(lc, &in->opnds[1], ty(in, 0)).off;
                emit(lc, vi);
                return true;
            }
        }
        break;
    default: break;
    }
    if ((op = fast_bits(in)) != 0) {
        vm_insn vi = base_insn(lc, (uint16_t)op);
        vi.d = dst_opnd(lc, &in->opnds[0]).off;
        bool w64 = op == VM_SQRTF64;
        vm_opnd a = src_opnd(lc, &in->opnds[1], w64 ? IR_T_F64 : IR_T_B32);
        vi.a = a.off;
        if (in->nopnds > 2) vi.b = src_opnd(lc, &in->opnds[2], IR_T_B32).off;
        if (in->nopnds > 3) vi.c = src_opnd(lc, &in->opnds[3], IR_T_B32).off;
        if (op == VM_LOP3) vi.imm = in->opnds[4].ival & 0xff;
        if (a.kind == (w64 ? VM_K_R64 : VM_K_R32)) {
            emit(lc, vi);
            return true;
        }
    }
    if ((op = fast_binop(in, &kind)) != 0) {
        vm_opnd d = dst_opnd(lc, &in->opnds[0]);
        uint8_t t = ty(in, 0);
        bool shift = in->op == IR_OP_SHL || in->op == IR_OP_SHR;
        if (d.kind == kind && in->nopnds >= 3) {
            vm_opnd a = src_opnd(lc, &in->opnds[1], t);
            vm_opnd b = src_opnd(lc, &in->opnds[2], shift ? IR_T_U32 : t);
            vm_opnd c = {0, VM_K_R32};
            if (in->nopnds > 3)
                c = src_opnd(lc, &in->opnds[3], kind == VM_K_R64 && ir_type_bytes[t] == 4 ? IR_T_B64 : t);
            bool ok = a.kind == type_kind(t) && b.kind == (shift ? VM_K_R32 : type_kind(t));
            if (ok) {
                vm_insn vi = base_insn(lc, (uint16_t)op);
                vi.d = d.off;
                vi.a = a.off;
                vi.b = b.off;
                vi.c = c.off;
                emit(lc, vi);
                return true;
            }
        }
    }
    return lower_alu(lc, in);
}

/* Who lowers each instruction family (opcodes.def); NONE has nobody. Each
 * returns false for a form it cannot run. */
static bool (*const family_lower[IR_FAM__COUNT])(lctx *, const ir_insn *) = {
    [IR_FAM_CORE] = lower_core,          [IR_FAM_ALU] = lower_arith,    [IR_FAM_VIDEO] = lower_alu,
    [IR_FAM_ASYNC] = vm_lower_ext,       [IR_FAM_TEX] = vm_lower_tex,   [IR_FAM_MMA] = vm_lower_mma,
    [IR_FAM_CLUSTER] = vm_lower_cluster, [IR_FAM_WMMA] = vm_lower_wmma, [IR_FAM_WGMMA] = vm_lower_wgmma,
};

static void lower_insn(lctx *lc, const ir_insn *in) {
    lc->cur = in;
    bool (*fn)(lctx *, const ir_insn *) = family_lower[ir_opcode_info[in->op].family];
    if (fn && fn(lc, in)) return;
    /* Not executable (yet): the instruction traps when reached, so modules
     * using it still load and everything else runs. */
    char mn[160];
    ir_insn_mnemonic(in, mn, sizeof mn);
    vm_insn vi = base_insn(lc, VM_TRAP);
    vi.p = strdup(mn);
    vi.x = 1;
    emit(lc, vi);
}

/* Frame layout of one function, before any code is lowered (calls need the callee's). */
/* The launch-invariant statements of f (hoist.c) and the registers they
 * write (returned; NULL when none, under a debugger, or out of memory). */
static uint8_t *hoist_find(const vm_program *prog, const ir_func *f, uint8_t **stmt) {
    if (stmt) *stmt = NULL;
    if (!f->is_entry || (prog->rt && (prog->rt->dbg || prog->rt->dbg_fault))) return NULL;
    uint8_t *reg = calloc(f->nregs + 1, 1), *st = calloc(f->nbody + 1, 1);
    if (!reg || !st || !vm_hoist_find(f, st, reg)) {
        free(reg);
        free(st);
        return NULL;
    }
    if (stmt) *stmt = st;
    else free(st);
    return reg;
}

/* What a reused entry frame copies from frame_init again for each CTA
 * (vm_func.reset_lines, reset_cc): the lines of the predicates in live (read
 * before written on some path from the entry; all of them when live is
 * NULL), and the carry flag when an instruction reads it. */
static void reset_lines(vm_func *vf, const uint64_t *live) {
    const ir_func *f = vf->ir;
    vf->reset_lines = 0;
    for (uint32_t k = 0; k < f->nregs; k++)
        if (f->regs[k].type == IR_T_PRED && (!live || live[k / 64] >> (k % 64) & 1)) {
            uint32_t line = vf->reg_off[k] / 64;
            vf->reset_lines |= 1ull << (line < 63 ? line : 63);
        }
    vf->reset_cc = false;
    for (uint32_t i = 0; i < f->nbody; i++) {
        uint16_t op = f->body[i].kind == IR_ST_INSN ? f->body[i].u.insn.op : 0;
        vf->reset_cc |= op == IR_OP_ADDC || op == IR_OP_SUBC || op == IR_OP_MADC;
    }
}

static int layout(vm_program *prog, vm_func *vf, uint32_t *shared_top, char *err, size_t errlen) {
    const ir_func *f = vf->ir;
    lctx lc = {.prog = prog, .vf = vf, .f = f, .err = err, .errlen = errlen};
    vf->true_slot = reserve(&lc, 4, 4);
    *(uint32_t *)(lc.img + vf->true_slot) = VM_FULL;
    vf->reg_off = calloc(f->nregs + 1, sizeof *vf->reg_off);
    vf->param_off = calloc(f->nparams + 1, sizeof *vf->param_off);
    vf->ret_off = calloc(f->nrets + 1, sizeof *vf->ret_off);
    if (!vf->reg_off || !vf->param_off || !vf->ret_off) {
        free(lc.img);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t k = 0; k < f->nregs; k++)
        if (f->regs[k].type == IR_T_PRED) vf->reg_off[k] = reserve(&lc, 4, 4);
    vf->regs_lo = vf->regs_hi = (lc.size + 63) & ~63u;
    for (uint32_t k = 0; k < f->nregs; k++) {
        const ir_reg *r = &f->regs[k];
        if (r->type != IR_T_PRED && (ir_type_bytes[r->type] > 16 || r->vec > 1)) {
            snprintf(err, errlen, "register %s: type .%s%s is not supported", r->name, ir_type_name[r->type],
                     r->vec > 1 ? " (vector)" : "");
            free(lc.img);
            return -1;
        }
    }
    /* Registers whose live ranges never meet share a slot (regshare.c), but
     * not under a debugger, which shows every register by name. */
    uint32_t *slot = calloc(f->nregs + 1, sizeof *slot), *slot_off = NULL;
    uint64_t *live = f->is_entry ? calloc((f->nregs + 64) / 64, sizeof *live) : NULL;
    int nslots = slot && !(prog->rt && (prog->rt->dbg || prog->rt->dbg_fault)) ? vm_share_slots(f, slot, live) : -1;
    if (f->is_entry) reset_lines(vf, nslots >= 0 ? live : NULL);
    free(live);
    /* the prologue's registers (hoist.c) live through every CTA: slots of their own */
    uint8_t *hreg = hoist_find(prog, f, NULL);
    if (nslots >= 0 && !(slot_off = malloc(((size_t)nslots + 1) * sizeof *slot_off))) nslots = -1;
    for (int k = 0; k < nslots; k++) slot_off[k] = UINT32_MAX;
    for (uint32_t k = 0; k < f->nregs; k++) {
        const ir_reg *r = &f->regs[k];
        if (r->type == IR_T_PRED) continue;
        uint32_t *so = nslots >= 0 && !(hreg && hreg[k]) ? &slot_off[slot[k]] : NULL;
        if (so && *so != UINT32_MAX) {
            vf->reg_off[k] = *so;
            continue;
        }
        vf->reg_off[k] = reserve(&lc, reg_bytes(reg_kind(r)), 64);
        if (so) *so = vf->reg_off[k];
        vf->regs_hi = lc.size;
    }
    free(slot);
    free(slot_off);
    free(hreg);
    if (f->is_entry) {
        uint32_t off = 0;
        for (uint32_t k = 0; k < f->nparams; k++) {
            const ir_var *p = f->params[k];
            uint32_t al = p->align ? p->align : 1;
            off = (off + al - 1) / al * al;
            vf->param_off[k] = off;
            off += (uint32_t)p->size;
        }
        vf->param_size = off;
    } else {
        for (uint32_t k = 0; k < f->nparams; k++)
            vf->param_off[k] = reserve(&lc, (uint32_t)(f->params[k]->size ? f->params[k]->size : 8) * VM_LANES, 64);
        for (uint32_t k = 0; k < f->nrets; k++)
            vf->ret_off[k] = reserve(&lc, (uint32_t)(f->rets[k]->size ? f->rets[k]->size : 8) * VM_LANES, 64);
    }
    /* function-scope variables: per-lane .param regions, .local offsets, .shared offsets */
    uint32_t *voff = calloc(f->nlocals + 1, sizeof *voff);
    if (!voff) {
        free(lc.img);
        return -1;
    }
    uint32_t loc = 0, lal = 1;
    for (uint32_t k = 0; k < f->nlocals; k++) {
        const ir_var *v = f->locals[k];
        uint32_t al = v->align ? v->align : 1;
        if (v->space == IR_SPACE_PARAM) voff[k] = reserve(&lc, (uint32_t)(v->size ? v->size : 8) * VM_LANES, 64);
        else if (v->space == IR_SPACE_LOCAL) {
            loc = (loc + al - 1) / al * al;
            voff[k] = loc;
            loc += (uint32_t)v->size;
            if (al > lal) lal = al;
        } else if (v->space == IR_SPACE_SHARED) {
            *shared_top = (*shared_top + al - 1) / al * al;
            voff[k] = *shared_top;
            *shared_top += (uint32_t)v->size;
        }
    }
    vf->local_size = loc;
    vf->local_align = lal;
    vf->frame_init = lc.img;
    vf->frame_size = lc.size;
    vf->ncode = 0;
    vf->code = (vm_insn *)voff; /* parked until lowering: the variable offsets */
    return 0;
}

static bool mentions(const ir_operand *o, uint32_t r) {
    if (o->kind == IR_OPND_REG) return o->reg == r;
    if (o->kind == IR_OPND_ADDR || o->kind == IR_OPND_VEC || o->kind == IR_OPND_LIST || o->kind == IR_OPND_PAIR)
        for (uint32_t k = 0; k < o->nsub; k++)
            if (mentions(&o->sub[k], r)) return true;
    return false;
}

static int lower_func(vm_program *prog, vm_func *vf, char *err, size_t errlen) {
    const ir_func *f = vf->ir;
    lctx lc = {.prog = prog, .vf = vf, .f = f, .err = err, .errlen = errlen};
    lc.img = vf->frame_init;
    lc.size = lc.cap = vf->frame_size;
    lc.var_off = (uint32_t *)vf->code;
    vf->code = NULL;
    lc.label_code = malloc((f->nlabels + 1) * sizeof *lc.label_code);
    lc.shared_used = calloc(prog->ir->nglobals + 1, 1);
    if (!lc.label_code || !lc.shared_used) {
        free(lc.label_code);
        free(lc.shared_used);
        return -1;
    }
    memset(lc.label_code, 0xff, (f->nlabels + 1) * sizeof *lc.label_code);
    /* the launch-invariant prologue first (hoist.c) */
    uint8_t *hstmt;
    free(hoist_find(prog, f, &hstmt));
    uint32_t nfree = 0;
    for (uint32_t k = 0; hstmt && k < f->nbody && !lc.failed; k++) {
        if (!hstmt[k]) continue;
        uint32_t at = lc.n;
        lower_insn(&lc, &f->body[k].u.insn);
        if (lc.n > at && lc.code[lc.n - 1].op == VM_TRAP) { /* not executable: this and the rest stay in place */
            free(lc.code[lc.n - 1].p);
            lc.n = at;
            memset(hstmt + k, 0, f->nbody - k);
        } else if (hstmt[k] == VM_HOIST_LATER) {
            hstmt[k] = (uint8_t)(lc.n - at + VM_HOIST_LATER); /* its records, counted in place */
            nfree += lc.n - at;
        }
    }
    vf->nhoist = lc.n;
    vf->nhoist_free = nfree;
    for (uint32_t k = 0; k < f->nbody && !lc.failed; k++) {
        const ir_stmt *s = &f->body[k];
        if (s->kind == IR_ST_LABEL) lc.label_code[s->u.label] = lc.n;
        else if (s->kind == IR_ST_INSN && hstmt && hstmt[k] >= VM_HOIST_LATER) {
            /* computed in the prologue: a nop per record counts it here */
            lc.cur = &s->u.insn;
            for (int r = VM_HOIST_LATER; r < hstmt[k]; r++) emit_raw(&lc, base_insn(&lc, VM_NOP));
        } else if (s->kind == IR_ST_INSN && hstmt && hstmt[k]) continue;
        else if (s->kind == IR_ST_INSN && !vm_contract(&lc, f, k, !prog->no_contract)) lower_insn(&lc, &s->u.insn);
        else if (s->kind == IR_ST_BRANCHTARGETS) lc.label_code[s->u.targets.label] = lc.n;
    }
    lc.cur = NULL;
    emit_raw(&lc, base_insn(&lc, VM_FALLOFF));
    /* the carry flag of .cc instructions: one hidden lane array at the frame's end */
    reserve(&lc, 4 * VM_LANES, 64);
    if (lc.failed) goto fail;
    const void *const *tab = vm_handler_table();
    for (uint32_t k = 0; k < lc.n; k++) {
        vm_insn *vi = &lc.code[k];
#ifndef PTXI_SWITCH_DISPATCH
        vi->h = tab[prog->rt && prog->rt->dbg ? VM_DBG : vi->op];
#else
        (void)tab;
#endif
        if (vi->op == VM_BRA) {
            uint32_t t = lc.label_code[vi->imm];
            vi->target = &lc.code[t];
            if (t <= k) vi->flags |= VM_F_BACK;
            vi->imm = 0;
        } else if (vi->op == VM_BRX) {
            const ir_stmt *bt = NULL;
            for (uint32_t s = 0; s < f->nbody; s++)
                if (f->body[s].kind == IR_ST_BRANCHTARGETS && f->body[s].u.targets.label == vi->x) bt = &f->body[s];
            if (!bt) {
                snprintf(err, errlen, "brx.idx: '%s' is not a .branchtargets list", f->labels[vi->x].name);
                goto fail;
            }
            const vm_insn **tabs = malloc((bt->u.targets.n + 1) * sizeof *tabs);
            if (!tabs) goto fail;
            for (uint32_t t = 0; t < bt->u.targets.n; t++) tabs[t] = &lc.code[lc.label_code[bt->u.targets.labels[t]]];
            vi->p = (void *)tabs;
            vi->imm = bt->u.targets.n;
        }
    }
#ifndef PTXI_SWITCH_DISPATCH
    if (!(prog->rt && (prog->rt->dbg || prog->rt->dbg_fault))) vm_fuse(&lc, tab);
#endif
    /* static shared memory this function uses itself (kernel attributes add callees') */
    for (uint32_t g = 0; g < prog->ir->nglobals; g++)
        if (lc.shared_used[g]) {
            uint32_t size = (uint32_t)prog->ir->globals[g]->size;
            vf->shared_bytes += size;
            if (prog->shared_off[g] + size > vf->shared_end) vf->shared_end = prog->shared_off[g] + size;
        }
    for (uint32_t k = 0; k < f->nlocals; k++)
        if (f->locals[k]->space == IR_SPACE_SHARED) {
            uint32_t size = (uint32_t)f->locals[k]->size;
            vf->shared_bytes += size;
            if (lc.var_off[k] + size > vf->shared_end) vf->shared_end = lc.var_off[k] + size;
        }
    free(lc.shared_used);
    lc.shared_used = NULL;
    vf->code = lc.code;
    vf->src = lc.src;
    vf->ncode = lc.n - 1;
    vf->frame_init = lc.img;
    vf->frame_size = lc.size;
    free(lc.label_code);
    free(lc.var_off);
    free(lc.ins);
    free(hstmt);
    return 0;
fail:
    if (!err[0]) snprintf(err, errlen, "out of memory");
    vf->code = lc.code;
    vf->src = lc.src;
    vf->ncode = lc.n;
    vf->frame_init = lc.img;
    free(lc.label_code);
    free(lc.var_off);
    free(lc.shared_used);
    free(lc.ins);
    free(hstmt);
    return -1;
}

int vm_lower(vm_program *prog, char *err, size_t errlen) {
    const ir_module *m = prog->ir;
    err[0] = 0;
    prog->nfuncs = m->nfuncs;
    prog->funcs = calloc(m->nfuncs + 1, sizeof *prog->funcs);
    prog->shared_off = calloc(m->nglobals + 1, sizeof *prog->shared_off);
    if (!prog->funcs || !prog->shared_off) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* module-scope .shared variables; extern unsized ones alias the dynamic region */
    uint32_t top = 0, dynal = 16;
    for (uint32_t k = 0; k < m->nglobals; k++) {
        const ir_var *v = m->globals[k];
        if (v->space != IR_SPACE_SHARED || (v->linkage == IR_LINK_EXTERN && !v->size)) continue;
        uint32_t al = v->align ? v->align : 1;
        top = (top + al - 1) / al * al;
        prog->shared_off[k] = top;
        top += (uint32_t)v->size;
    }
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        prog->funcs[k].ir = m->funcs[k];
        prog->funcs[k].prog = prog;
        prog->funcs[k].fnaddr = (uint64_t)(uintptr_t)&prog->funcs[k];
        if (!m->funcs[k]->has_body) prog->funcs[k].builtin = vm_builtin_id(m->funcs[k]->name);
        if (m->funcs[k]->has_body && layout(prog, &prog->funcs[k], &top, err, errlen) < 0) return -1;
    }
    for (uint32_t k = 0; k < m->nglobals; k++) {
        const ir_var *v = m->globals[k];
        if (v->space == IR_SPACE_SHARED && v->linkage == IR_LINK_EXTERN && !v->size && v->align > dynal)
            dynal = v->align;
    }
    uint32_t dyn = (top + dynal - 1) / dynal * dynal;
    for (uint32_t k = 0; k < m->nglobals; k++) {
        const ir_var *v = m->globals[k];
        if (v->space == IR_SPACE_SHARED && v->linkage == IR_LINK_EXTERN && !v->size) prog->shared_off[k] = dyn;
    }
    prog->shared_static = top;
    prog->dyn_shared_align = dynal;
    for (uint32_t k = 0; k < m->nfuncs; k++)
        if (m->funcs[k]->has_body && lower_func(prog, &prog->funcs[k], err, errlen) < 0) {
            size_t n = strlen(err);
            snprintf(err + n, errlen - n, " (in function '%s')", m->funcs[k]->name);
            return -1;
        }
    /* shared_end takes in what callees use; a call it cannot follow (indirect,
     * or to a function defined elsewhere) takes in all of the module's */
    for (bool more = true; more;) {
        more = false;
        for (uint32_t k = 0; k < prog->nfuncs; k++) {
            vm_func *f = &prog->funcs[k];
            for (uint32_t j = 0; f->ir->has_body && j < f->ncode; j++) {
                const vm_callinfo *ci = f->code[j].op == VM_CALL ? f->code[j].p : NULL;
                if (!ci || (ci->callee && ci->callee->builtin)) continue;
                bool known = ci->callee && ci->callee->prog == prog && ci->callee->ir->has_body;
                uint32_t end = known ? ci->callee->shared_end : prog->shared_static;
                if (end > f->shared_end) f->shared_end = end, more = true;
            }
        }
    }
#ifndef NDEBUG
    for (uint32_t k = 0; k < m->nfuncs; k++)
        if (m->funcs[k]->has_body && vm_check_records(&prog->funcs[k], err, errlen) < 0) return -1;
#endif
    vm_jit_program(prog);
    return 0;
}

/* ---- services for extensions (lower_ext.h) ---- */

vm_opnd vm_lsrc(lctx *lc, const ir_operand *o, uint8_t type) { return src_opnd(lc, o, type); }
vm_opnd vm_ldst(lctx *lc, const ir_operand *o) { return dst_opnd(lc, o); }
void vm_laddr(lctx *lc, const ir_operand *o, int space, vm_insn *vi) { lower_addr(lc, o, space, vi); }
int vm_lspace(const ir_insn *in) { return space_of(in); }
vm_insn vm_lbase(lctx *lc, uint16_t op) { return base_insn(lc, op); }
void vm_lemit(lctx *lc, vm_insn vi) { emit(lc, vi); }
void vm_lfail(lctx *lc, const char *msg) { FAIL(lc, "%s", msg); }
const ir_func *vm_lfunc(lctx *lc) { return lc->f; }
bool vm_lmentions(const ir_operand *o, uint32_t r) { return mentions(o, r); }
void vm_linsn_as(lctx *lc, const ir_insn *in, const ir_insn *orig) {
    uint32_t n0 = lc->n;
    lower_insn(lc, in);
    for (uint32_t k = n0; k < lc->n; k++) lc->ins[k] = orig;
    lc->cur = orig;
}

void vm_program_free(vm_program *prog) {
    if (!prog || !prog->funcs) return;
    vm_jit_free(prog);
    for (uint32_t k = 0; k < prog->nfuncs; k++) {
        vm_func *f = &prog->funcs[k];
        for (uint32_t c = 0; f->code && c < f->ncode; c++) {
            vm_insn *vi = &f->code[c];
            if (vi->op == VM_ALU || vi->op == VM_LDS4 || vi->op == VM_CALL || vi->op == VM_LDV || vi->op == VM_STV ||
                vi->op == VM_ATOM || vi->op == VM_MOV_PACK || vi->op == VM_MOV_UNPACK || vi->op == VM_BRX ||
                vi->op == VM_TRAP || vi->op == VM_SHFL || vi->op == VM_VOTE || vi->op == VM_MATCH ||
                vi->op == VM_REDUX || vi->op == VM_ACTIVEMASK || vi->op == VM_EXT)
                free(vi->p);
        }
        free(f->ffi);
        free(f->code);
        free(f->src);
        free(f->frame_init);
        free(f->reg_off);
        free(f->param_off);
        free(f->ret_off);
    }
    free(prog->funcs);
    free(prog->shared_off);
    prog->funcs = NULL;
}
