/* async.c — asynchronous barriers (mbarrier) and asynchronous copies
 * (cp.async, cp.async.bulk, cp.reduce.async.bulk), lowered through
 * lower_ext.h into VM_EXT records run by async_mbar.c and async_copy.c. */
#include <stdlib.h>

#include "async_impl.h"
#include "async_tensor.h"

static bool has(const ir_insn *in, ir_mod m) { return ir_has_mod(in, m); }

static as_addr laddr(lctx *lc, const ir_operand *o, int sp) {
    vm_insn t = vm_lbase(lc, VM_NOP);
    vm_laddr(lc, o, sp, &t);
    if (t.sp != VM_SP_SHARED && t.sp != VM_SP_GLOBAL && t.sp != VM_SP_GENERIC && t.sp != VM_SP_KPARAM)
        vm_lfail(lc, "asynchronous operand: unsupported address form");
    return (as_addr){t.imm, t.a, t.flags, t.sp};
}

static as_rec *new_rec(lctx *lc, vm_ext_fn run) {
    as_rec *r = calloc(1, sizeof *r);
    if (!r) {
        vm_lfail(lc, "out of memory");
        return NULL;
    }
    r->run = run;
    r->d.kind = r->s[0].kind = r->s[1].kind = VM_K_SINK;
    return r;
}

static bool emit_rec(lctx *lc, as_rec *r) {
    vm_insn vi = vm_lbase(lc, VM_EXT);
    vi.p = r;
    vi.sp = VM_SP_GLOBAL; /* the space xlate() checks global operands in */
    vm_lemit(lc, vi);
    return true;
}

static bool too_few(lctx *lc, const ir_insn *in, uint32_t need) {
    if (in->nopnds >= need) return false;
    char mn[160], msg[224];
    ir_insn_mnemonic(in, mn, sizeof mn);
    snprintf(msg, sizeof msg, "'%s' needs %u operands", mn, need);
    vm_lfail(lc, msg);
    return true;
}

/* mbarrier.* : the object is addressed in .shared (any spelling) or generically. */
static bool lower_mbar(lctx *lc, const ir_insn *in) {
    const ir_operand *o = in->opnds;
    int sp = vm_lspace(in) == VM_SP_SHARED ? VM_SP_SHARED : VM_SP_GENERIC;
    as_rec *r;
    if (has(in, IR_MOD_PENDING_COUNT)) {
        if (too_few(lc, in, 2) || !(r = new_rec(lc, as_mbar_pending))) return true;
        r->d = vm_ldst(lc, &o[0]);
        r->s[0] = vm_lsrc(lc, &o[1], IR_T_B64);
        return emit_rec(lc, r);
    }
    if (has(in, IR_MOD_INIT) || has(in, IR_MOD_INVAL)) {
        bool init = has(in, IR_MOD_INIT);
        if (too_few(lc, in, init ? 2 : 1) || !(r = new_rec(lc, init ? as_mbar_init : as_mbar_inval))) return true;
        r->bar = laddr(lc, &o[0], sp);
        if (init) r->s[0] = vm_lsrc(lc, &o[1], IR_T_U32);
        return emit_rec(lc, r);
    }
    if (has(in, IR_MOD_ARRIVE) || has(in, IR_MOD_ARRIVE_DROP)) {
        if (too_few(lc, in, 2) || !(r = new_rec(lc, as_mbar_arrive))) return true;
        r->d = vm_ldst(lc, &o[0]);
        r->bar = laddr(lc, &o[1], sp);
        if (has(in, IR_MOD_ARRIVE_DROP)) r->flags |= AS_F_DROP;
        if (has(in, IR_MOD_NOCOMPLETE)) r->flags |= AS_F_NOCOMPLETE;
        if (in->nopnds > 2) {
            r->flags |= has(in, IR_MOD_EXPECT_TX) ? AS_F_EXPECT_TX : AS_F_COUNT;
            r->s[0] = vm_lsrc(lc, &o[2], IR_T_U32);
        }
        return emit_rec(lc, r);
    }
    if (has(in, IR_MOD_EXPECT_TX) || has(in, IR_MOD_COMPLETE_TX)) {
        if (too_few(lc, in, 2) || !(r = new_rec(lc, as_mbar_tx))) return true;
        if (has(in, IR_MOD_COMPLETE_TX)) r->flags |= AS_F_COMPLETE_TX;
        r->bar = laddr(lc, &o[0], sp);
        r->s[0] = vm_lsrc(lc, &o[1], IR_T_U32);
        return emit_rec(lc, r);
    }
    if (has(in, IR_MOD_TEST_WAIT) || has(in, IR_MOD_TRY_WAIT)) {
        /* an optional 4th operand (suspendTimeHint) only bounds how long to wait */
        if (too_few(lc, in, 3) || !(r = new_rec(lc, as_mbar_wait))) return true;
        if (has(in, IR_MOD_PARITY)) r->flags |= AS_F_PARITY;
        if (has(in, IR_MOD_TRY_WAIT)) r->flags |= AS_F_TRY;
        r->d = vm_ldst(lc, &o[0]);
        r->bar = laddr(lc, &o[1], sp);
        r->s[0] = vm_lsrc(lc, &o[2], r->flags & AS_F_PARITY ? IR_T_U32 : IR_T_B64);
        if (r->d.kind != VM_K_PRED && r->d.kind != VM_K_SINK)
            vm_lfail(lc, "mbarrier wait: the result must be a predicate");
        if (!(r->flags & AS_F_PARITY) && r->s[0].kind != VM_K_R64)
            vm_lfail(lc, "mbarrier wait: the state operand must be a 64-bit register");
        return emit_rec(lc, r);
    }
    return false;
}

/* State spaces of a copy's destination and source, in the order written. */
static void copy_spaces(const ir_insn *in, int sp[2]) {
    int n = 0;
    sp[0] = sp[1] = VM_SP_GLOBAL;
    for (unsigned k = 0; k < in->nmods && n < 2; k++) {
        ir_mod m = (ir_mod)in->mods[k];
        if (m == IR_MOD_GLOBAL) sp[n++] = VM_SP_GLOBAL;
        else if (m == IR_MOD_SHARED || m == IR_MOD_SHARED_CTA || m == IR_MOD_SHARED_CLUSTER) sp[n++] = VM_SP_SHARED;
    }
}

/* The reduction of a bulk or tensor reduce (VM_AO_*), or -1. */
static int red_op(const ir_insn *in) {
    static const struct {
        ir_mod m;
        uint8_t op;
    } ops[] = {{IR_MOD_ADD, VM_AO_ADD}, {IR_MOD_MIN, VM_AO_MIN}, {IR_MOD_MAX, VM_AO_MAX}, {IR_MOD_AND, VM_AO_AND},
               {IR_MOD_OR, VM_AO_OR},   {IR_MOD_XOR, VM_AO_XOR}, {IR_MOD_INC, VM_AO_INC}, {IR_MOD_DEC, VM_AO_DEC}};
    int op = -1;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (has(in, ops[k].m)) op = ops[k].op;
    return op;
}

/* cp.reduce.async.bulk operation and element type, or false when unsupported. */
static bool red_kind(const ir_insn *in, as_rec *r) {
    int op = red_op(in);
    if (op < 0 || in->ntypes != 1) return false;
    int at;
    switch (in->types[0]) {
    case IR_T_U32:
    case IR_T_B32: at = VM_AT_U32; break;
    case IR_T_S32: at = VM_AT_S32; break;
    case IR_T_U64:
    case IR_T_B64: at = VM_AT_U64; break;
    case IR_T_S64: at = VM_AT_S64; break;
    case IR_T_F32: at = VM_AT_F32; break;
    case IR_T_F64: at = VM_AT_F64; break;
    case IR_T_F16: at = VM_AT_F16; break;
    case IR_T_BF16: at = VM_AT_BF16; break;
    default: return false;
    }
    if ((at == VM_AT_F32 || at == VM_AT_F64) && op != VM_AO_ADD) return false;
    if (at == VM_AT_F16 || at == VM_AT_BF16) {
        /* computed with the ALU's own 16-bit arithmetic (round to nearest, no flush) */
        int aop = op == VM_AO_ADD ? IR_OP_ADD : op == VM_AO_MIN ? IR_OP_MIN : op == VM_AO_MAX ? IR_OP_MAX : -1;
        if (!alu_lookup_binop(aop, in->types[0], &r->half[0])) return false;
    }
    r->redop = (uint8_t)op;
    r->redty = (uint8_t)at;
    r->size = ir_type_bytes[in->types[0]];
    return true;
}

/* [map, {c0, ...}] -> the map's address and the coordinates; false when malformed. */
static bool tensor_operand(lctx *lc, const ir_operand *o, as_rec *r, as_addr *map) {
    if (o->kind != IR_OPND_ADDR || o->nsub != 2 || o->sub[1].kind != IR_OPND_VEC || o->sub[1].nsub != r->rank) {
        vm_lfail(lc, "tensor copy: expected [tensorMap, {coordinates}] with one coordinate per dimension");
        return false;
    }
    ir_operand base = *o;
    base.nsub = 1;
    vm_insn t = vm_lbase(lc, VM_NOP);
    vm_laddr(lc, &base, VM_SP_GENERIC, &t);
    *map = (as_addr){t.imm, t.a, t.flags, t.sp};
    for (unsigned d = 0; d < r->rank; d++) r->crd[d] = vm_lsrc(lc, &o->sub[1].sub[d], IR_T_S32);
    return true;
}

/* The element type of a tensor reduction comes from the map at run time, so
 * both 16-bit float forms of the operation are looked up here. */
static void tensor_half_ops(const ir_insn *in, as_rec *r) {
    int op = has(in, IR_MOD_ADD) ? IR_OP_ADD : has(in, IR_MOD_MIN) ? IR_OP_MIN : has(in, IR_MOD_MAX) ? IR_OP_MAX : -1;
    if (op < 0) return;
    if (!alu_lookup_binop(op, IR_T_F16, &r->half[0])) r->half[0].fn = NULL;
    if (!alu_lookup_binop(op, IR_T_BF16, &r->half[1])) r->half[1].fn = NULL;
}

static bool lower_tensor(lctx *lc, const ir_insn *in) {
    static const ir_mod dims[5] = {IR_MOD_1D, IR_MOD_2D, IR_MOD_3D, IR_MOD_4D, IR_MOD_5D};
    const ir_operand *o = in->opnds;
    if (has(in, IR_MOD_IM2COL_W) || has(in, IR_MOD_IM2COL_W_128) || has(in, IR_MOD_TILE_GATHER4) ||
        has(in, IR_MOD_TILE_SCATTER4) || has(in, IR_MOD_CTA_GROUP_2))
        return false;
    int sp[2];
    copy_spaces(in, sp);
    bool load = sp[0] == VM_SP_SHARED, red = has(in, IR_MOD_REDUCE);
    as_rec *r = new_rec(lc, load ? as_tensor_load : as_tensor_store);
    if (!r) return true;
    for (unsigned d = 0; d < 5; d++)
        if (has(in, dims[d])) r->rank = (uint8_t)(d + 1);
    if (!r->rank || (load && red) || (load && !has(in, IR_MOD_MBARRIER_COMPLETE_TX_BYTES))) {
        free(r);
        return false;
    }
    if (has(in, IR_MOD_IM2COL)) {
        /* im2col: loads of 3..5 dimensions, with one 16-bit offset per spatial dimension */
        if (!load || r->rank < 3) {
            free(r);
            return false;
        }
        r->flags |= AS_F_IM2COL;
    }
    if (red) {
        int op = red_op(in);
        if (op < 0) {
            free(r);
            return false;
        }
        r->redop = (uint8_t)op;
        r->flags |= AS_F_REDUCE;
        tensor_half_ops(in, r);
    }
    if (too_few(lc, in, load ? 3 : 2)) {
        free(r);
        return true;
    }
    if (load) {
        r->dst = laddr(lc, &o[0], VM_SP_SHARED);
        if (!tensor_operand(lc, &o[1], r, &r->src)) {
            free(r);
            return true;
        }
        r->bar = laddr(lc, &o[2], VM_SP_SHARED);
        if (r->flags & AS_F_IM2COL) {
            if (too_few(lc, in, 4)) {
                free(r);
                return true;
            }
            if (o[3].kind != IR_OPND_VEC || o[3].nsub != r->rank - 2u) {
                vm_lfail(lc, "im2col tensor copy: expected one offset per spatial dimension, {o0, ...}");
                free(r);
                return true;
            }
            for (unsigned d = 0; d + 2 < r->rank; d++) r->off[d] = vm_lsrc(lc, &o[3].sub[d], IR_T_U16);
        }
        if (has(in, IR_MOD_MULTICAST_CLUSTER)) {
            unsigned k = r->flags & AS_F_IM2COL ? 4 : 3;
            if (too_few(lc, in, k + 1)) {
                free(r);
                return true;
            }
            r->flags |= AS_F_MULTICAST;
            r->s[1] = vm_lsrc(lc, &o[k], IR_T_U16);
        }
    } else {
        if (!tensor_operand(lc, &o[0], r, &r->dst)) {
            free(r);
            return true;
        }
        r->src = laddr(lc, &o[1], VM_SP_SHARED);
    }
    return emit_rec(lc, r);
}

static bool lower_bulk(lctx *lc, const ir_insn *in) {
    const ir_operand *o = in->opnds;
    bool red = has(in, IR_MOD_REDUCE);
    if (has(in, IR_MOD_TENSOR)) return lower_tensor(lc, in);
    if (has(in, IR_MOD_CP_MASK)) return false;
    as_rec *r = new_rec(lc, red ? as_bulk_reduce : as_bulk);
    if (!r) return true;
    if (red && !red_kind(in, r)) {
        free(r);
        return false;
    }
    bool mbar = has(in, IR_MOD_MBARRIER_COMPLETE_TX_BYTES);
    if (too_few(lc, in, mbar ? 4 : 3)) {
        free(r);
        return true;
    }
    int sp[2];
    copy_spaces(in, sp);
    r->dst = laddr(lc, &o[0], sp[0]);
    r->src = laddr(lc, &o[1], sp[1]);
    r->s[0] = vm_lsrc(lc, &o[2], IR_T_U32);
    if (mbar) {
        r->flags |= AS_F_COMPLETE_TX;
        r->bar = laddr(lc, &o[3], VM_SP_SHARED);
    }
    if (has(in, IR_MOD_MULTICAST_CLUSTER)) {
        /* each CTA of the ctaMask receives the bytes (async_copy.c) */
        if (too_few(lc, in, 5)) {
            free(r);
            return true;
        }
        r->flags |= AS_F_MULTICAST;
        r->s[1] = vm_lsrc(lc, &o[4], IR_T_U16);
    }
    return emit_rec(lc, r);
}

static bool lower_cp(lctx *lc, const ir_insn *in) {
    const ir_operand *o = in->opnds;
    if (!has(in, IR_MOD_ASYNC)) return false;
    /* Copies complete when issued, so groups are always complete. */
    if (has(in, IR_MOD_COMMIT_GROUP) || has(in, IR_MOD_WAIT_GROUP) || has(in, IR_MOD_WAIT_ALL) ||
        (has(in, IR_MOD_BULK) && has(in, IR_MOD_PREFETCH))) {
        vm_lemit(lc, vm_lbase(lc, VM_NOP));
        return true;
    }
    if (has(in, IR_MOD_MBARRIER) && has(in, IR_MOD_ARRIVE)) {
        as_rec *r;
        if (too_few(lc, in, 1) || !(r = new_rec(lc, as_cp_arrive))) return true;
        if (has(in, IR_MOD_NOINC)) r->flags |= AS_F_NOINC;
        r->bar = laddr(lc, &o[0], vm_lspace(in) == VM_SP_SHARED ? VM_SP_SHARED : VM_SP_GENERIC);
        return emit_rec(lc, r);
    }
    if (has(in, IR_MOD_BULK)) return lower_bulk(lc, in);
    if (!has(in, IR_MOD_CA) && !has(in, IR_MOD_CG)) return false;
    as_rec *r;
    if (too_few(lc, in, 3) || !(r = new_rec(lc, as_cp))) return true;
    if (o[2].kind != IR_OPND_IMM_INT || (o[2].ival != 4 && o[2].ival != 8 && o[2].ival != 16) ||
        (has(in, IR_MOD_CG) && o[2].ival != 16)) {
        vm_lfail(lc, has(in, IR_MOD_CG) ? "cp.async.cg: cp-size must be 16" : "cp.async: cp-size must be 4, 8 or 16");
        free(r);
        return true;
    }
    r->size = (uint32_t)o[2].ival;
    r->dst = laddr(lc, &o[0], VM_SP_SHARED);
    r->src = laddr(lc, &o[1], VM_SP_GLOBAL);
    /* a trailing cache-policy operand follows src-size / ignore-src when present */
    uint32_t extra = in->nopnds - 3 - (has(in, IR_MOD_L2_CACHE_HINT) ? 1 : 0);
    if (extra >= 1 && in->nopnds > 3) {
        r->s[1] = vm_lsrc(lc, &o[3], IR_T_U32);
        r->flags |= r->s[1].kind == VM_K_PRED ? AS_F_IGNORE_SRC : AS_F_SRCSIZE;
    }
    return emit_rec(lc, r);
}

/* tensormap.replace.tile.FIELD{.space}.b1024.type [map], {ord,} new_val and
 * tensormap.cp_fenceproxy.global.shared::cta... [dst], [src], 128 */
static bool lower_tensormap(lctx *lc, const ir_insn *in) {
    static const struct {
        ir_mod m;
        uint8_t field;
        bool ord;
    } fields[] = {{IR_MOD_GLOBAL_ADDRESS, AS_TM_ADDR, false},  {IR_MOD_RANK, AS_TM_RANK, false},
                  {IR_MOD_BOX_DIM, AS_TM_BOX, true},           {IR_MOD_GLOBAL_DIM, AS_TM_GDIM, true},
                  {IR_MOD_GLOBAL_STRIDE, AS_TM_GSTRIDE, true}, {IR_MOD_ELEMENT_STRIDE, AS_TM_ESTRIDE, true},
                  {IR_MOD_ELEMTYPE, AS_TM_ELEMTYPE, false},    {IR_MOD_INTERLEAVE_LAYOUT, AS_TM_INTERLEAVE, false},
                  {IR_MOD_SWIZZLE_MODE, AS_TM_SWIZZLE, false}, {IR_MOD_SWIZZLE_ATOMICITY, AS_TM_ATOMICITY, false},
                  {IR_MOD_FILL_MODE, AS_TM_FILL, false}};
    const ir_operand *o = in->opnds;
    int sp = vm_lspace(in) == VM_SP_SHARED   ? VM_SP_SHARED
             : vm_lspace(in) == VM_SP_GLOBAL ? VM_SP_GLOBAL
                                             : VM_SP_GENERIC;
    as_rec *r;
    if (has(in, IR_MOD_CP_FENCEPROXY)) {
        if (too_few(lc, in, 2) || !(r = new_rec(lc, as_tmap_copy))) return true;
        r->dst = laddr(lc, &o[0], VM_SP_GLOBAL);
        r->src = laddr(lc, &o[1], VM_SP_SHARED);
        return emit_rec(lc, r);
    }
    if (!has(in, IR_MOD_REPLACE) || !has(in, IR_MOD_TILE)) return false;
    int f = -1;
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
        if (has(in, fields[k].m)) f = (int)k;
    if (f < 0) return false;
    if (too_few(lc, in, fields[f].ord ? 3 : 2) || !(r = new_rec(lc, as_tmap_replace))) return true;
    r->redop = fields[f].field;
    r->dst = laddr(lc, &o[0], sp);
    if (fields[f].ord) {
        if (o[1].kind != IR_OPND_IMM_INT || o[1].ival < 0 || o[1].ival > 4) {
            vm_lfail(lc, "tensormap.replace: the dimension must be an integer 0..4");
            free(r);
            return true;
        }
        r->size = (uint32_t)o[1].ival;
    }
    r->s[0] = vm_lsrc(lc, &o[fields[f].ord ? 2 : 1],
                      in->ntypes && ir_type_bytes[in->types[in->ntypes - 1]] == 8 ? IR_T_B64 : IR_T_B32);
    return emit_rec(lc, r);
}

bool vm_lower_ext(lctx *lc, const ir_insn *in) {
    switch (in->op) {
    case IR_OP_TENSORMAP: return lower_tensormap(lc, in);
    case IR_OP_MBARRIER: return lower_mbar(lc, in);
    case IR_OP_CP: return lower_cp(lc, in);
    default: return false;
    }
}
