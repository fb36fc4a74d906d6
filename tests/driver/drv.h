/* drv.h — helpers for the driver API tests: a checked call, a context made
 * current, and the PTX kernels the tests load (hand-written; the expected values
 * come from what each kernel is defined to compute). */
#ifndef DRV_H
#define DRV_H

#include <criterion/criterion.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <string.h>

#define CK(call)                                                                       \
    do {                                                                               \
        CUresult r_ = (call);                                                          \
        const char *n_ = NULL;                                                         \
        cuGetErrorName(r_, &n_);                                                       \
        cr_assert_eq(r_, CUDA_SUCCESS, "%s = %d (%s)", #call, (int)r_, n_ ? n_ : "?"); \
    } while (0)

/* cuInit, then the primary context retained and made current. */
static inline CUcontext drv_setup(void) {
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDevicePrimaryCtxRetain(&ctx, 0));
    CK(cuCtxSetCurrent(ctx));
    return ctx;
}

/* add(a, b, c, n): c[i] = a[i] + b[i] for i < n; scale(p, k, n): p[i] *= k;
 * fault(p): stores to p (a bad address makes a sticky fault);
 * counter: a .global u32 bumped by bump(); grid_id(out): out[blockIdx.x] = %cluster_ctarank. */
static const char PTX_KERNELS[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".global .u32 counter = 5;\n"
    ".visible .entry add(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n"
    "{\n"
    "  .reg .u32 %r<6>; .reg .u64 %d<8>; .reg .f32 %f<4>; .reg .pred %p;\n"
    "  mov.u32 %r0, %tid.x; mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x;\n"
    "  mad.lo.u32 %r3, %r1, %r2, %r0;\n"
    "  ld.param.u32 %r4, [n]; setp.ge.u32 %p, %r3, %r4; @%p ret;\n"
    "  ld.param.u64 %d0, [a]; ld.param.u64 %d1, [b]; ld.param.u64 %d2, [c];\n"
    "  mul.wide.u32 %d3, %r3, 4;\n"
    "  add.u64 %d4, %d0, %d3; add.u64 %d5, %d1, %d3; add.u64 %d6, %d2, %d3;\n"
    "  ld.global.f32 %f0, [%d4]; ld.global.f32 %f1, [%d5]; add.f32 %f2, %f0, %f1;\n"
    "  st.global.f32 [%d6], %f2;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry scale(.param .u64 p, .param .u32 k, .param .u32 n)\n"
    "{\n"
    "  .reg .u32 %r<8>; .reg .u64 %d<4>; .reg .pred %p;\n"
    "  mov.u32 %r0, %tid.x; mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x;\n"
    "  mad.lo.u32 %r3, %r1, %r2, %r0;\n"
    "  ld.param.u32 %r4, [n]; setp.ge.u32 %p, %r3, %r4; @%p ret;\n"
    "  ld.param.u64 %d0, [p]; mul.wide.u32 %d1, %r3, 4; add.u64 %d2, %d0, %d1;\n"
    "  ld.param.u32 %r5, [k]; ld.global.u32 %r6, [%d2]; mul.lo.u32 %r7, %r6, %r5; st.global.u32 [%d2], %r7;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry fault(.param .u64 p)\n"
    "{\n"
    "  .reg .u64 %d0; .reg .u32 %r0;\n"
    "  ld.param.u64 %d0, [p]; mov.u32 %r0, 1; st.global.u32 [%d0], %r0;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry bump()\n"
    "{\n"
    "  .reg .u32 %r0;\n"
    "  atom.global.add.u32 %r0, [counter], 1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry rank(.param .u64 out)\n"
    "{\n"
    "  .reg .u32 %r<3>; .reg .u64 %d<4>;\n"
    "  mov.u32 %r0, %ctaid.x; mov.u32 %r1, %cluster_ctarank;\n"
    "  ld.param.u64 %d0, [out]; mul.wide.u32 %d1, %r0, 4; add.u64 %d2, %d0, %d1;\n"
    "  st.global.u32 [%d2], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry empty()\n"
    "{\n"
    "  ret;\n"
    "}\n";

static inline CUmodule drv_module(void) {
    CUmodule m;
    CK(cuModuleLoadData(&m, PTX_KERNELS));
    return m;
}

#endif
