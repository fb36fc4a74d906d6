/* async_impl.h — what the asynchronous barrier (async_mbar.c) and copy
 * (async_copy.c) run functions share with their lowering (async.c): the
 * extension record and operand addressing (the mbarrier word: mbarrier.h). */
#ifndef PTXI_ASYNC_IMPL_H
#define PTXI_ASYNC_IMPL_H

#include "exec_mem.h"
#include "lower_ext.h"
#include "mbarrier.h"

/* An [address] operand: base register (or none) + immediate, in a state space. */
typedef struct as_addr {
    int64_t imm;
    uint32_t base;
    uint8_t flags; /* VM_F_BASE_REG64 / VM_F_BASE_REG32 / VM_F_FRAME_SYM */
    uint8_t sp;    /* VM_SP_SHARED, VM_SP_GLOBAL or VM_SP_GENERIC */
} as_addr;

/* The record behind a VM_EXT instruction (vm_insn.p). */
typedef struct as_rec {
    vm_ext_fn run;        /* first, as lower_ext.h requires */
    uint16_t flags;       /* AS_F_* */
    uint8_t redop, redty; /* cp.reduce.async.bulk: VM_AO_*, VM_AT_* */
    uint32_t size;        /* cp.async cp-size; element bytes of a reduction */
    vm_opnd d;            /* result register (or sink) */
    vm_opnd s[2];         /* count / txCount / token / parity / size; src-size or ignore-src */
    as_addr bar, dst, src;
    uint8_t rank; /* tensor forms: dimensions, coordinates in crd */
    vm_opnd crd[5];
    vm_opnd off[3]; /* im2col: the offsets (16-bit) of the spatial dimensions */
    alu_op half[2]; /* reductions on f16 / bf16: the ALU's add, min or max */
} as_rec;

enum {
    AS_F_COUNT = 1,        /* s[0] is an arrival count */
    AS_F_EXPECT_TX = 2,    /* arrive.expect_tx: s[0] is a transaction count */
    AS_F_DROP = 4,         /* arrive_drop */
    AS_F_NOCOMPLETE = 8,   /* .noComplete */
    AS_F_PARITY = 16,      /* test_wait/try_wait.parity */
    AS_F_TRY = 32,         /* try_wait (else test_wait) */
    AS_F_COMPLETE_TX = 64, /* complete_tx (else expect_tx); bulk copy signals bar */
    AS_F_SRCSIZE = 128,    /* cp.async: s[1] is src-size */
    AS_F_IGNORE_SRC = 256, /* cp.async: s[1] is the ignore-src predicate */
    AS_F_NOINC = 512,      /* cp.async.mbarrier.arrive.noinc */
    AS_F_MULTICAST = 1024, /* cp.async.bulk .multicast::cluster: s[1] is ctaMask */
    AS_F_REDUCE = 2048,    /* tensor store that reduces (redop) */
    AS_F_IM2COL = 4096,    /* tensor load in im2col mode (offsets in off) */
};

static inline uint64_t as_ea(const vm_warp *w, const uint8_t *fb, const as_addr *a, int l) {
    uint64_t v = (uint64_t)a->imm;
    if (a->flags & VM_F_BASE_REG64) v += ((const uint64_t *)(fb + a->base))[l];
    else if (a->flags & VM_F_BASE_REG32) v = (uint32_t)(((const uint32_t *)(fb + a->base))[l] + (uint32_t)a->imm);
    if (a->flags & VM_F_FRAME_SYM) v += w->frames[w->depth - 1].local_base;
    if (a->sp == VM_SP_KPARAM) v += w->cta->grid->cfg->params; /* a kernel parameter named in [ ] */
    return v;
}

static inline bool as_pred(const uint8_t *fb, uint32_t off, int l) { return *(const uint32_t *)(fb + off) >> l & 1; }

static inline void as_put_pred(uint8_t *fb, vm_opnd d, int l, bool v) {
    if (d.kind != VM_K_PRED) return;
    uint32_t *p = (uint32_t *)(fb + d.off);
    *p = (*p & ~(1u << l)) | (uint32_t)v << l;
}

/* Host pointer of n bytes of shared memory at address a of operand `ad`
 * (a shared-window offset, or a generic address that must fall in the shared
 * window), aligned to `align`; NULL after a fault naming `what`. */
uint8_t *as_shared(vm_warp *w, const vm_insn *i, const as_addr *ad, uint64_t a, int l, uint32_t n, uint32_t align,
                   const char *what);
/* .multicast::cluster: the CTA that bit r of a ctaMask names (a block
 * launched without a cluster is rank 0 of its own), or NULL when the cluster
 * has no such rank (the bit is ignored). */
vm_cta *as_mc_cta(vm_warp *w, uint32_t r);
/* complete_tx of `bytes` on the barrier at *bar (shared address sa); false after a fault. */
bool as_complete_tx(vm_warp *w, const vm_insn *i, int l, uint64_t *bar, uint64_t sa, uint32_t bytes);
/* One arrive-on of `count` (as mbarrier.arrive and cp.async.mbarrier.arrive.noinc). */
bool as_arrive(vm_warp *w, const vm_insn *i, int l, uint64_t *bar, uint64_t sa, uint32_t count, uint16_t flags,
               uint64_t *old);

/* Run functions (vm_ext_fn). */
int as_mbar_init(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_mbar_inval(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_mbar_arrive(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_mbar_tx(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_mbar_wait(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_mbar_pending(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_cp(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_cp_arrive(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_bulk(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_bulk_reduce(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_tensor_load(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_tensor_store(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_tmap_replace(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);
int as_tmap_copy(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m);

/* tensormap.replace fields (as_rec.redop; the dimension in as_rec.size). */
enum {
    AS_TM_ADDR,
    AS_TM_RANK,
    AS_TM_BOX,
    AS_TM_GDIM,
    AS_TM_GSTRIDE,
    AS_TM_ESTRIDE,
    AS_TM_ELEMTYPE,
    AS_TM_INTERLEAVE,
    AS_TM_SWIZZLE,
    AS_TM_ATOMICITY,
    AS_TM_FILL
};

#endif
