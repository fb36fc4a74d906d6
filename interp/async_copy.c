/* async_copy.c — asynchronous copies: cp.async (4/8/16 bytes with zero-fill),
 * cp.async.mbarrier.arrive, cp.async.bulk between global and shared memory
 * (with mbarrier transaction counts) and cp.reduce.async.bulk. Copies
 * complete when issued, which the PTX memory model allows: the commit/wait
 * instructions that order them then have nothing to wait for. */
#include "async_impl.h"

static bool pow2(uint32_t n) { return n && !(n & (n - 1)); }

/* Checks n bytes of global memory at a (16-aligned) for lane l; NULL after a fault. */
static uint8_t *global_range(vm_warp *w, uint8_t *fb, const vm_insn *i, int l, uint64_t a, uint32_t n, bool wr) {
    for (uint32_t k = 0; k < n; k += 16)
        if (!xlate(w, fb, i, l, a + k, 16, wr)) return NULL;
    return (uint8_t *)(uintptr_t)a;
}

/* n bytes (a multiple of 16) of operand `ad` at a, in shared or global memory. */
static uint8_t *bulk_ptr(vm_warp *w, uint8_t *fb, const vm_insn *i, const as_addr *ad, uint64_t a, int l, uint32_t n,
                         bool wr, const char *what) {
    if (ad->sp == VM_SP_GLOBAL) {
        if (a & 15) {
            vm_fault_at(w, i, l, PTXI_MISALIGNED_ADDRESS, "misaligned %s: global address 0x%llx is not 16-byte aligned",
                        what, (unsigned long long)a);
            return NULL;
        }
        return global_range(w, fb, i, l, a, n, wr);
    }
    return as_shared(w, i, ad, a, l, n, 16, what);
}

/* cp.async.ca/.cg.shared.global [dst], [src], cp-size {, src-size | ignore-src} */
int as_cp(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    uint32_t n = r->size;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint8_t *dp = as_shared(w, i, &r->dst, as_ea(w, fb, &r->dst, l), l, n, n, "cp.async destination");
            if (!dp) return VM_EXT_FAULT;
            uint32_t ss = n;
            if (r->flags & AS_F_SRCSIZE) {
                ss = (uint32_t)get_reg(fb, r->s[1].off, r->s[1].kind, l);
                if (ss > n) {
                    vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "cp.async src-size %u is larger than cp-size %u", ss,
                                n);
                    return VM_EXT_FAULT;
                }
            }
            if ((r->flags & AS_F_IGNORE_SRC) && as_pred(fb, r->s[1].off, l)) ss = 0;
            if (ss) {
                uint64_t sa = as_ea(w, fb, &r->src, l);
                if (sa & (n - 1)) {
                    vm_fault_at(w, i, l, PTXI_MISALIGNED_ADDRESS,
                                "misaligned cp.async source: global address 0x%llx is not "
                                "%u-byte aligned",
                                (unsigned long long)sa, n);
                    return VM_EXT_FAULT;
                }
                /* only src-size bytes are read: they may end an allocation */
                uint8_t *sp = xlate(w, fb, i, l, sa, pow2(ss) ? ss : 1, false);
                if (!sp || (!pow2(ss) && !xlate(w, fb, i, l, sa + ss - 1, 1, false))) return VM_EXT_FAULT;
                memcpy(dp, sp, ss);
            }
            memset(dp + ss, 0, n - ss);
        }
    return VM_EXT_NEXT;
}

/* cp.async.mbarrier.arrive: the arrive-on happens once the thread's earlier
 * cp.async copies are done, which they are. Without .noinc the pending count
 * is raised by one first, so the pair leaves it unchanged. */
int as_cp_arrive(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint64_t *p = (uint64_t *)as_shared(w, i, &r->bar, as_ea(w, fb, &r->bar, l), l, 8, 8, "mbarrier object");
            if (!p) return VM_EXT_FAULT;
            uint64_t sa = (uint64_t)((uint8_t *)p - w->cta->smem), old;
            if (!(*p & MB_VALID)) {
                vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION,
                            "cp.async.mbarrier.arrive on the mbarrier at shared address 0x%llx, which is not "
                            "initialized",
                            (unsigned long long)sa);
                return VM_EXT_FAULT;
            }
            if ((r->flags & AS_F_NOINC) && !as_arrive(w, i, l, p, sa, 1, 0, &old)) return VM_EXT_FAULT;
            if (!(r->flags & AS_F_NOINC) && w->cta->san) vm_san_mbar(w, i, l, sa, MB_PHASE(*p), VM_SYNC_MB_CP_ARRIVE);
        }
    return VM_EXT_NEXT;
}

/* .multicast::cluster: n bytes from sp into the shared memory of every CTA of
 * the ctaMask, at dp's offset, each completing them on its own mbarrier at the
 * offset of the instruction's. */
static bool multicast(vm_warp *w, uint8_t *fb, const vm_insn *i, int l, const uint8_t *dp, const uint8_t *sp,
                      uint32_t n) {
    const as_rec *r = i->p;
    uint32_t mask = (uint16_t)get_reg(fb, r->s[1].off, r->s[1].kind, l);
    uint64_t off = (uint64_t)(dp - w->cta->smem), bo = 0;
    if (r->flags & AS_F_COMPLETE_TX) {
        uint8_t *p = as_shared(w, i, &r->bar, as_ea(w, fb, &r->bar, l), l, 8, 8, "mbarrier object");
        if (!p) return false;
        bo = (uint64_t)(p - w->cta->smem);
    }
    for (uint32_t k = 0; mask >> k; k++) {
        if (!(mask >> k & 1)) continue;
        vm_cta *c = as_mc_cta(w, k);
        if (!c) continue;
        memmove(c->smem + off, sp, n);
        if ((r->flags & AS_F_COMPLETE_TX) && !as_complete_tx(w, i, l, (uint64_t *)(c->smem + bo), bo, n)) return false;
    }
    return true;
}

/* cp.async.bulk [dst], [src], size {, [mbar]}: global->shared (complete_tx on
 * mbar), shared->shared (likewise), shared->global (bulk group). */
int as_bulk(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint32_t n = (uint32_t)get_reg(fb, r->s[0].off, r->s[0].kind, l);
            if (n & 15) {
                vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "cp.async.bulk size %u is not a multiple of 16", n);
                return VM_EXT_FAULT;
            }
            uint8_t *dp = bulk_ptr(w, fb, i, &r->dst, as_ea(w, fb, &r->dst, l), l, n, true, "bulk copy destination");
            uint8_t *sp = dp ? bulk_ptr(w, fb, i, &r->src, as_ea(w, fb, &r->src, l), l, n, false, "bulk copy source")
                             : NULL;
            if (!sp) return VM_EXT_FAULT;
            if (r->flags & AS_F_MULTICAST) {
                if (!multicast(w, fb, i, l, dp, sp, n)) return VM_EXT_FAULT;
                continue;
            }
            memmove(dp, sp, n);
            if (r->flags & AS_F_COMPLETE_TX) {
                uint64_t *p = (uint64_t *)as_shared(w, i, &r->bar, as_ea(w, fb, &r->bar, l), l, 8, 8,
                                                    "mbarrier object");
                if (!p || !as_complete_tx(w, i, l, p, (uint64_t)((uint8_t *)p - w->cta->smem), n)) return VM_EXT_FAULT;
            }
        }
    return VM_EXT_NEXT;
}

/* cp.reduce.async.bulk: element-wise dst = dst op src, each element atomically
 * (other blocks may reduce into the same global memory). */
int as_bulk_reduce(vm_warp *w, uint8_t *fb, const vm_insn *i, uint32_t m) {
    const as_rec *r = i->p;
    uint32_t es = r->size;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint32_t n = (uint32_t)get_reg(fb, r->s[0].off, r->s[0].kind, l);
            if (n & 15) {
                vm_fault_at(w, i, l, PTXI_ILLEGAL_INSTRUCTION, "cp.reduce.async.bulk size %u is not a multiple of 16",
                            n);
                return VM_EXT_FAULT;
            }
            uint8_t *dp = bulk_ptr(w, fb, i, &r->dst, as_ea(w, fb, &r->dst, l), l, n, true,
                                   "bulk reduction destination");
            uint8_t *sp = dp ? bulk_ptr(w, fb, i, &r->src, as_ea(w, fb, &r->src, l), l, n, false,
                                        "bulk reduction source")
                             : NULL;
            if (!sp) return VM_EXT_FAULT;
            for (uint32_t k = 0; k < n; k += es)
                atom_lane(dp + k, r->redop, r->redty, load_bits(sp + k, es, false), 0, &r->half[0]);
            if (r->flags & AS_F_COMPLETE_TX) {
                uint64_t *p = (uint64_t *)as_shared(w, i, &r->bar, as_ea(w, fb, &r->bar, l), l, 8, 8,
                                                    "mbarrier object");
                if (!p || !as_complete_tx(w, i, l, p, (uint64_t)((uint8_t *)p - w->cta->smem), n)) return VM_EXT_FAULT;
            }
        }
    return VM_EXT_NEXT;
}
