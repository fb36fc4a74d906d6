/* alu_run.c — the generic ALU handler: an instruction the fast paths do not
 * cover runs its ALU function (alu.h) lane by lane, on operands read from and
 * written to the frame by kind (predicate, 32- or 64-bit register, sink). */
#include "warp.h"

static inline uint64_t read_opnd(const uint8_t *fb, const vm_opnd *o, uint8_t bytes, int l) {
    switch (o->kind) {
    case VM_K_PRED: return (*(const uint32_t *)(fb + o->off) >> l) & 1;
    case VM_K_R64: {
        uint64_t v = ((const uint64_t *)(fb + o->off))[l];
        return bytes && bytes < 8 ? v & ((1ull << (8 * bytes)) - 1) : v;
    }
    default: {
        uint64_t v = ((const uint32_t *)(fb + o->off))[l];
        return bytes && bytes < 4 ? v & ((1ull << (8 * bytes)) - 1) : v;
    }
    }
}

static inline void write_opnd(uint8_t *fb, const vm_opnd *o, int l, uint64_t v) {
    switch (o->kind) {
    case VM_K_PRED: {
        uint32_t *p = (uint32_t *)(fb + o->off);
        *p = (*p & ~(1u << l)) | ((uint32_t)(v & 1) << l);
        break;
    }
    case VM_K_R64: ((uint64_t *)(fb + o->off))[l] = v; break;
    case VM_K_SINK: break;
    default: ((uint32_t *)(fb + o->off))[l] = (uint32_t)v; break;
    }
}

/* The carry flag lives in a hidden per-frame register at the end of the frame.
 * An ALU function is a function of its sources and carry alone, so when the
 * second executing lane's sources and carry are the first's, lanes that
 * repeat the first's take its results without the call (a row's sum divided
 * in every lane: the reciprocal's table lookup once per warp instead of 32
 * times); otherwise the lanes are not compared any further. */
/* Every source a 32-bit register with one value in all 32 lanes. */
static bool uniform32(const uint8_t *fb, const vm_alu *a) {
    if (!a->op.ns) return false;
    for (unsigned k = 0; k < a->op.ns; k++) {
        if (a->s[k].kind != VM_K_R32) return false;
        const uint32_t *v = (const uint32_t *)(fb + a->s[k].off);
        uint32_t x = 0;
        for (int l = 0; l < VM_LANES; l++) x |= v[l] ^ v[0];
        if (x) return false;
    }
    return true;
}

void vm_alu_run(vm_warp *w, uint8_t *fb, const vm_alu *a, uint32_t m) {
    uint32_t *cc = (uint32_t *)(fb + w->frames[w->depth - 1].fn->frame_size - 4 * VM_LANES);
    uint64_t ps[6] = {0}, pd[2] = {0, 0};
    uint32_t pcin = 0, pcout = 0;
    enum { FIRST, SECOND, REUSE, EACH } memo = FIRST;
    if (m == VM_FULL && !a->op.cc_in && !a->op.cc_out && uniform32(fb, a)) {
        /* the whole warp on one value (a row's statistic after a butterfly
         * reduction, Triton's sqrt and reciprocal): one call for every lane */
        uint32_t none = 0;
        for (unsigned k = 0; k < a->op.ns; k++) ps[k] = read_opnd(fb, &a->s[k], a->op.sbytes[k], 0);
        a->op.fn(&a->op, pd, ps, &none);
        for (unsigned k = 0; k < a->op.nd; k++) {
            if (a->d[k].kind == VM_K_R32) { /* one vector fill, not a switch per lane */
                uint32_t *d = (uint32_t *)(fb + a->d[k].off);
                for (int l = 0; l < VM_LANES; l++) d[l] = (uint32_t)pd[k];
            } else
                for (int l = 0; l < VM_LANES; l++) write_opnd(fb, &a->d[k], l, pd[k]);
        }
        return;
    }
    if (a->op.nd == 1 && a->d[0].kind == VM_K_R32 && a->op.ns && a->op.ns <= 2 && a->s[0].kind == VM_K_R32 &&
        a->s[a->op.ns - 1].kind == VM_K_R32 && !a->op.cc_in && !a->op.cc_out &&
        alu_warp32(&a->op, (uint32_t *)(fb + a->d[0].off), (const uint32_t *)(fb + a->s[0].off),
                   (const uint32_t *)(fb + a->s[a->op.ns - 1].off), m))
        return;
    for (int l = 0; l < VM_LANES; l++)
        if (m >> l & 1) {
            uint64_t s[6], d[2] = {0, 0};
            for (unsigned k = 0; k < a->op.ns; k++) s[k] = read_opnd(fb, &a->s[k], a->op.sbytes[k], l);
            if (memo == SECOND || memo == REUSE) {
                bool same = cc[l] == pcin;
                for (unsigned k = 0; k < a->op.ns; k++) same &= s[k] == ps[k];
                if (same) {
                    memo = REUSE;
                    cc[l] = pcout;
                    for (unsigned k = 0; k < a->op.nd; k++) write_opnd(fb, &a->d[k], l, pd[k]);
                    continue;
                }
                if (memo == SECOND) memo = EACH;
            }
            if (memo == FIRST) pcin = cc[l];
            a->op.fn(&a->op, d, s, &cc[l]);
            if (memo == FIRST) {
                for (unsigned k = 0; k < a->op.ns; k++) ps[k] = s[k];
                pd[0] = d[0], pd[1] = d[1];
                pcout = cc[l];
                memo = SECOND;
            }
            for (unsigned k = 0; k < a->op.nd; k++) write_opnd(fb, &a->d[k], l, d[k]);
        }
}
