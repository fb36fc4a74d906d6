/* test_triton.c — PTX compiled by Triton (tests/interp/triton/gen.py: vector
 * add, row softmax, layer norm) runs as Triton's launcher runs it: 4 warps per
 * program, the kernel's dynamic shared memory, null scratch pointers. The
 * expected values come from the definitions, computed in double: the add is
 * exact; softmax and layer norm use ex2.approx/rsqrt-class instructions, so
 * they are checked to a relative error of 1e-5. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "ptxi.h"

#define DIR PTXI_SOURCE_DIR "/tests/interp/triton/"
enum { R = 64, C = 781 };

static ptxi_ctx *ctx;
static void setup(void) { cr_assert_eq(ptxi_ctx_create(&ctx, NULL), PTXI_SUCCESS); }
static void teardown(void) { ptxi_ctx_destroy(ctx); }
TestSuite(triton, .init = setup, .fini = teardown);

static float rnd(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return (float)((int32_t)(*s >> 8) - (1 << 23)) / (float)(1 << 21); /* about -4 .. 4 */
}

static ptxi_kernel *load(const char *file) {
    ptxi_module *m;
    cr_assert_eq(ptxi_module_load_file(ctx, file, &m), PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    return ptxi_module_kernel_at(m, 0);
}

static ptxi_dptr upload(const void *p, size_t n) {
    ptxi_dptr d;
    cr_assert_eq(ptxi_mem_alloc(ctx, n, &d), PTXI_SUCCESS);
    if (p) ptxi_memcpy_htod(ctx, d, p, n);
    else ptxi_memset_d8(ctx, d, 0, n);
    return d;
}

Test(triton, vector_add_is_exact) {
    enum { N = 5000 };
    static float x[N], y[N], out[N];
    uint32_t s = 1;
    for (int i = 0; i < N; i++) x[i] = rnd(&s), y[i] = rnd(&s);
    ptxi_dptr dx = upload(x, sizeof x), dy = upload(y, sizeof y), dout = upload(NULL, sizeof out), null = 0;
    uint32_t n = N;
    void *args[] = {&dx, &dy, &dout, &n, &null, &null};
    cr_assert_eq(
        ptxi_launch(load(DIR "add.ptx"), (ptxi_dim3){(N + 1023) / 1024, 1, 1}, (ptxi_dim3){128, 1, 1}, 0, NULL, args),
        PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    ptxi_memcpy_dtoh(ctx, out, dout, sizeof out);
    for (int i = 0; i < N; i++) cr_assert_eq(out[i], x[i] + y[i], "element %d", i);
}

Test(triton, row_softmax) {
    static float a[R * C], out[R * C];
    uint32_t s = 2;
    for (int i = 0; i < R * C; i++) a[i] = rnd(&s);
    ptxi_dptr din = upload(a, sizeof a), dout = upload(NULL, sizeof out), null = 0;
    int32_t cols = C;
    void *args[] = {&dout, &din, &cols, &cols, &cols, &null, &null};
    cr_assert_eq(ptxi_launch(load(DIR "softmax.ptx"), (ptxi_dim3){R, 1, 1}, (ptxi_dim3){128, 1, 1}, 16, NULL, args),
                 PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    ptxi_memcpy_dtoh(ctx, out, dout, sizeof out);
    for (int r = 0; r < R; r++) {
        double mx = -INFINITY, sum = 0;
        for (int c = 0; c < C; c++) mx = fmax(mx, a[r * C + c]);
        for (int c = 0; c < C; c++) sum += exp(a[r * C + c] - mx);
        for (int c = 0; c < C; c++) {
            double want = exp(a[r * C + c] - mx) / sum;
            cr_assert(fabs(out[r * C + c] - want) <= 1e-5 * want, "[%d][%d]: %g, want %g", r, c, out[r * C + c], want);
        }
    }
}

Test(triton, layer_norm) {
    static float a[R * C], out[R * C], w[C], b[C];
    uint32_t s = 3;
    for (int i = 0; i < R * C; i++) a[i] = rnd(&s);
    for (int i = 0; i < C; i++) w[i] = rnd(&s), b[i] = rnd(&s);
    ptxi_dptr dx = upload(a, sizeof a), dy = upload(NULL, sizeof out), dw = upload(w, sizeof w),
              db = upload(b, sizeof b), null = 0;
    int32_t stride = C, n = C;
    float eps = 1e-5f;
    void *args[] = {&dx, &dy, &dw, &db, &stride, &n, &eps, &null, &null};
    cr_assert_eq(ptxi_launch(load(DIR "layernorm.ptx"), (ptxi_dim3){R, 1, 1}, (ptxi_dim3){128, 1, 1}, 16, NULL, args),
                 PTXI_SUCCESS, "%s", ptxi_ctx_error_detail(ctx));
    ptxi_memcpy_dtoh(ctx, out, dy, sizeof out);
    for (int r = 0; r < R; r++) {
        double mean = 0, var = 0;
        for (int c = 0; c < C; c++) mean += a[r * C + c];
        mean /= C;
        for (int c = 0; c < C; c++) var += (a[r * C + c] - mean) * (a[r * C + c] - mean);
        var /= C;
        for (int c = 0; c < C; c++) {
            double want = (a[r * C + c] - mean) / sqrt(var + 1e-5) * w[c] + b[c];
            cr_assert(fabs(out[r * C + c] - want) <= 1e-5 * (1 + fabs(want)), "[%d][%d]: %g, want %g", r, c,
                      out[r * C + c], want);
        }
    }
}
