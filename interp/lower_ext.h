/* lower_ext.h — how instruction families that live in their own files
 * (asynchronous barriers and copies, ...) are lowered and executed without
 * touching the core: each lowers the instructions of its family (the FAMILY
 * column of frontend/opcodes.def) and emits VM_EXT records whose `p` points
 * at a struct that starts with the run function. */
#ifndef PTXI_LOWER_EXT_H
#define PTXI_LOWER_EXT_H

#include "warp.h"

typedef struct lctx lctx;

/* What a run function returns. */
enum {
    VM_EXT_FAULT = -1,  /* vm_fault_at() was called */
    VM_EXT_NEXT = 0,    /* done: continue with the next instruction */
    VM_EXT_RESCHED = 1, /* lane positions (w->lpc, blocked) were set: choose again */
    VM_EXT_YIELD = 2,   /* done, and give the host thread to other warps (a wait that failed) */
    VM_EXT_RETRY = 3,   /* not done: give the host thread to other warps, then run it again */
};
/* m: the lanes executing; fb: the frame; i->p: the extension's record. */
typedef int (*vm_ext_fn)(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);

/* Family ASYNC (cp, mbarrier, tensormap); returns true when it emitted code
 * for the instruction, false for a form it cannot run (async.c). */
bool vm_lower_ext(lctx *lc, const ir_insn *in);
/* Warp matrix instructions (wmma.c). */
bool vm_lower_wmma(lctx *lc, const ir_insn *in);
/* Warpgroup matrix instructions, elect.sync, setmaxnreg (wgmma.c). */
bool vm_lower_wgmma(lctx *lc, const ir_insn *in);
/* mma.sync, ldmatrix, stmatrix (mma.c). */
bool vm_lower_mma(lctx *lc, const ir_insn *in);
/* mapa, getctarank, barrier.cluster (cluster.c). */
bool vm_lower_cluster(lctx *lc, const ir_insn *in);
/* Texture and surface instructions (tex.c). */
bool vm_lower_tex(lctx *lc, const ir_insn *in);

/* Lowering services for extensions. */
vm_opnd vm_lsrc(lctx *lc, const ir_operand *o, uint8_t type); /* source -> frame slot (immediates materialised) */
vm_opnd vm_ldst(lctx *lc, const ir_operand *o);               /* destination register (or sink) */
/* [addr] operand -> vi->flags/a/imm/sp; then lane_addr()/xlate() (exec_mem.h) give host pointers. */
void vm_laddr(lctx *lc, const ir_operand *o, int space, vm_insn *vi);
int vm_lspace(const ir_insn *in);        /* VM_SP_* from .shared/.global/... */
vm_insn vm_lbase(lctx *lc, uint16_t op); /* a record with no guard applied yet */
void vm_lemit(lctx *lc, vm_insn vi);     /* emits with the instruction's guard */
void vm_lfail(lctx *lc, const char *msg);
const ir_func *vm_lfunc(lctx *lc);                  /* the function being lowered */
bool vm_lmentions(const ir_operand *o, uint32_t r); /* o is, or holds, register r */
/* Lowers `in` (made up by a pass) as if it were `orig`, whose records it becomes. */
void vm_linsn_as(lctx *lc, const ir_insn *in, const ir_insn *orig);

/* mul/add contraction (contract.c): true when statement k of f was lowered
 * (dropped, or emitted as an fma) and must not be lowered again. */
bool vm_contract(lctx *lc, const ir_func *f, uint32_t k, bool on);

/* An f32 add/sub that took a product it cannot express as an fma record
 * (contract.c's fused record): d := fma(±q_a, q_b, ±c) per lane, where the
 * product is a * b, or a / b as the GPU divides (q_a, q_b: alu_div_rcp_f32's
 * scaled dividend and reciprocal; a times the folded reciprocal k of an
 * immediate divisor when kconst). Offsets of 32-bit registers in the frame. */
typedef struct vm_fused_form {
    bool quot; /* a quotient of registers */
    bool full; /* div.full (else div.approx) */
    bool neg_p, neg_c, ftz, sat, kconst;
    uint32_t k, d, a, b, c;
} vm_fused_form;
/* Whether record i is such a record (all four operands registers); fills *f. */
bool vm_fused_of(const vm_insn *i, vm_fused_form *f);
/* For quotient record i whose a and b are these in every lane: q_a << 32 | q_b. */
uint64_t vm_fused_quot(const vm_insn *i, uint32_t a, uint32_t b);

#endif
