/* hoist.c — the launch-invariant instructions of a kernel.
 *
 * Much of a kernel's per-thread code computes what is the same in every
 * thread of the launch: its ld.param, the cvta of the pointers, %ntid and
 * %nctaid and the arithmetic on them (a grid stride, a row length minus one,
 * Numba's 22 parameters), constants moved into registers. A warp's entry
 * frame is reused by every CTA a host thread runs in the launch (sched.c),
 * so such a value, once in the frame, is still there for the next CTA.
 *
 * An instruction is hoisted when it writes one register that nothing else
 * writes, unguarded, with an integer operation (or a move, or an ld.param of
 * a kernel parameter no instruction can write) whose sources are immediates,
 * addresses of variables, %ntid, %nctaid and registers hoisted before it.
 * One of the kernel's first basic block (up to the first branch or label a
 * branch names), which every thread runs once, moves to the prologue
 * (VM_HOIST_FIRST). One after it runs there too but is counted where it
 * stood (VM_HOIST_LATER: lowering leaves a counting nop in its place), since
 * not every thread reaches it, or reaches it once: stencil's row length
 * minus one and its output pointer's cvta, behind the bounds test, were
 * computed again by every warp. Neither can fault or has an effect but its
 * register, so computing it for every thread changes nothing else.
 * Lowering (lower.c) emits the hoisted instructions first, in their order,
 * as the kernel's prologue, and gives their registers slots of their own;
 * a CTA whose warp finds its frame already set up starts after the prologue
 * and counts the prologue's instructions as executed (sched.c), so the
 * launch's instruction counts are exact. Float
 * arithmetic stays where it is (the mul/add contraction of contract.c is
 * decided per basic block), and so does anything that can fault, reads
 * memory other than kernel parameters, or carries (.cc). A use of such a
 * register before its one definition read an undefined value; it now reads
 * the defined one. */
#include <stdlib.h>

#include "hoist.h"

static bool is_kparam(const ir_func *f, const ir_var *v) {
    for (uint32_t k = 0; k < f->nparams; k++)
        if (f->params[k] == v) return true;
    return false;
}

/* Counts a definition of every register o names (o is operand 0). */
static void count_defs(const ir_operand *o, uint32_t *ndef) {
    if (o->kind == IR_OPND_REG) ndef[o->reg]++;
    else if (o->kind == IR_OPND_VEC || o->kind == IR_OPND_PAIR || o->kind == IR_OPND_LIST)
        for (uint32_t k = 0; k < o->nsub; k++) count_defs(&o->sub[k], ndef);
}

static bool names_kparam(const ir_func *f, const ir_operand *o) {
    if (o->kind == IR_OPND_VAR) return is_kparam(f, o->var);
    if (o->kind == IR_OPND_ADDR || o->kind == IR_OPND_VEC || o->kind == IR_OPND_LIST || o->kind == IR_OPND_PAIR)
        for (uint32_t k = 0; k < o->nsub; k++)
            if (names_kparam(f, &o->sub[k])) return true;
    return false;
}

static bool int_types(const ir_insn *in) {
    for (uint8_t k = 0; k < in->ntypes; k++)
        if (ir_type_class_of[in->types[k]] == IR_TC_FLOAT) return false;
    return true;
}

/* An integer operation with no state but its operands. */
static bool pure_int(uint16_t op) {
    switch (op) {
    case IR_OP_ADD:
    case IR_OP_SUB:
    case IR_OP_MUL:
    case IR_OP_MAD:
    case IR_OP_MUL24:
    case IR_OP_MAD24:
    case IR_OP_AND:
    case IR_OP_OR:
    case IR_OP_XOR:
    case IR_OP_NOT:
    case IR_OP_SHL:
    case IR_OP_SHR:
    case IR_OP_NEG:
    case IR_OP_ABS:
    case IR_OP_MIN:
    case IR_OP_MAX:
    case IR_OP_DIV:
    case IR_OP_REM:
    case IR_OP_BFE:
    case IR_OP_BFI:
    case IR_OP_PRMT:
    case IR_OP_LOP3:
    case IR_OP_SHF:
    case IR_OP_POPC:
    case IR_OP_CLZ:
    case IR_OP_BREV:
    case IR_OP_CVT:
    case IR_OP_CVTA: return true;
    default: return false;
    }
}

/* A source operand whose value is the same in every thread of the launch. */
static bool invariant_src(const ir_operand *o, const uint8_t *inv) {
    switch (o->kind) {
    case IR_OPND_REG: return inv[o->reg];
    case IR_OPND_IMM_INT:
    case IR_OPND_IMM_F32:
    case IR_OPND_IMM_F64:
    case IR_OPND_FUNC: return true;
    case IR_OPND_SREG: return o->sreg == IR_SREG_NTID || o->sreg == IR_SREG_NCTAID;
    case IR_OPND_VAR:
        return o->var->space == IR_SPACE_GLOBAL || o->var->space == IR_SPACE_SHARED || o->var->space == IR_SPACE_CONST;
    default: return false;
    }
}

/* ld.param of a kernel parameter, [name + offset], one register. */
static bool kparam_load(const ir_func *f, const ir_insn *in) {
    if (in->op != IR_OP_LD || in->nopnds != 2 || in->ntypes != 1) return false;
    for (uint8_t k = 0; k < in->nmods; k++)
        if (in->mods[k] != IR_MOD_PARAM && in->mods[k] != IR_MOD_PARAM_ENTRY) return false;
    const ir_operand *a = &in->opnds[1];
    return in->nmods && a->kind == IR_OPND_ADDR && a->nsub == 1 && a->sub[0].kind == IR_OPND_VAR &&
           is_kparam(f, a->sub[0].var);
}

/* Marks the labels o names (a branch's target). */
static void mark_targets(const ir_operand *o, uint8_t *target) {
    if (o->kind == IR_OPND_LABEL) target[o->label] = 1;
    else if (o->kind == IR_OPND_VEC || o->kind == IR_OPND_LIST || o->kind == IR_OPND_PAIR)
        for (uint32_t k = 0; k < o->nsub; k++) mark_targets(&o->sub[k], target);
}

uint32_t vm_hoist_find(const ir_func *f, uint8_t *stmt, uint8_t *reg) {
    uint32_t n = 0;
    uint32_t *ndef = calloc(f->nregs + 1, sizeof *ndef);
    uint8_t *target = calloc(f->nlabels + 1, 1); /* labels a branch can reach; the others (DWARF's) start no block */
    if (!ndef || !target || !f->is_entry) {
        free(ndef);
        free(target);
        return 0;
    }
    bool params_fixed = true; /* no instruction but ld.param names a kernel parameter */
    for (uint32_t k = 0; k < f->nbody; k++) {
        if (f->body[k].kind == IR_ST_BRANCHTARGETS)
            for (uint32_t t = 0; t < f->body[k].u.targets.n; t++) target[f->body[k].u.targets.labels[t]] = 1;
        if (f->body[k].kind != IR_ST_INSN) continue;
        const ir_insn *in = &f->body[k].u.insn;
        if (in->nopnds) count_defs(&in->opnds[0], ndef);
        for (uint32_t j = 0; j < in->nopnds; j++) mark_targets(&in->opnds[j], target);
        if (in->op == IR_OP_LD && kparam_load(f, in)) continue;
        for (uint32_t j = 0; j < in->nopnds; j++)
            if (names_kparam(f, &in->opnds[j])) params_fixed = false;
    }
    uint8_t kind = VM_HOIST_FIRST;
    for (uint32_t k = 0; k < f->nbody; k++) {
        if ((f->body[k].kind == IR_ST_LABEL && target[f->body[k].u.label]) || f->body[k].kind == IR_ST_BRANCHTARGETS)
            kind = VM_HOIST_LATER;
        if (f->body[k].kind != IR_ST_INSN) continue;
        const ir_insn *in = &f->body[k].u.insn;
        if (in->op == IR_OP_BRA || in->op == IR_OP_BRX || in->op == IR_OP_RET || in->op == IR_OP_EXIT ||
            in->op == IR_OP_CALL) {
            kind = VM_HOIST_LATER;
            continue;
        }
        if (in->guard >= 0 || ir_has_mod(in, IR_MOD_CC) || !in->nopnds || in->opnds[0].kind != IR_OPND_REG) continue;
        uint32_t d = in->opnds[0].reg;
        uint8_t t = f->regs[d].type;
        if (ndef[d] != 1 || t == IR_T_PRED || ir_type_bytes[t] > 8 || f->regs[d].vec > 1) continue;
        bool ok;
        if (in->op == IR_OP_LD) ok = params_fixed && kparam_load(f, in);
        else {
            ok = in->op == IR_OP_MOV || (pure_int(in->op) && int_types(in));
            for (uint32_t j = 1; ok && j < in->nopnds; j++) ok = invariant_src(&in->opnds[j], reg);
        }
        if (!ok) continue;
        stmt[k] = kind;
        reg[d] = 1;
        n++;
    }
    free(ndef);
    free(target);
    return n;
}
