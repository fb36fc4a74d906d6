/* alu_half_approx.h — ex2.approx and tanh.approx on f16/bf16, bit-exact with the
 * GPU: the definition alu_half_approx_ref (alu_half.h) corrected by the list of
 * inputs where the recorded hardware result differs (alu_half_approx_tab.h). */
#ifndef PTXI_ALU_HALF_APPROX_H
#define PTXI_ALU_HALF_APPROX_H

#include "alu_half.h"
#include "alu_half_approx_tab.h"
#include <stddef.h>

static inline uint32_t alu_half_approx(bool ex2, int f, uint32_t x) {
    const uint16_t(*t)[2] = ex2 ? (f == ALU_FMT_F16 ? alu_approx_ex2_f16 : alu_approx_ex2_bf16)
                                : (f == ALU_FMT_F16 ? alu_approx_tanh_f16 : alu_approx_tanh_bf16);
    size_t n = ex2 ? (f == ALU_FMT_F16 ? sizeof alu_approx_ex2_f16 : sizeof alu_approx_ex2_bf16)
                   : (f == ALU_FMT_F16 ? sizeof alu_approx_tanh_f16 : sizeof alu_approx_tanh_bf16);
    size_t lo = 0, hi = n / sizeof t[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t[mid][0] < x) lo = mid + 1;
        else hi = mid;
    }
    if (t[lo][0] == x && x != 0xFFFF) return t[lo][1];
    return alu_half_approx_ref(ex2, f, x);
}

#endif
