/* test_ffi.c — calling host C functions through PTX-shaped signatures:
 * integer, float, double and pointer parameters and results, more parameters
 * than registers, void results, and the signatures that are refused. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "ffi_call.h"

static int32_t add3(int32_t a, int32_t b, int32_t c) { return a + b + c; }
static double mix(float f, double d, int64_t i, const char *p) { return f * d + (double)i + p[1]; }
static float halve(float x) { return x / 2; }
static uint8_t low_byte(uint16_t x) { return (uint8_t)x; }
static int *bump(int *p, int64_t n) { return p + n; }
static int side;
static void set_side(uint32_t v) { side = (int)v; }
/* 10 integers and 10 doubles: some of each go on the stack. */
static double many(int64_t a0, double d0, int64_t a1, double d1, int64_t a2, double d2, int64_t a3, double d3,
                   int64_t a4, double d4, int64_t a5, double d5, int64_t a6, double d6, int64_t a7, double d7,
                   int64_t a8, double d8, int64_t a9, double d9) {
    return (double)(a0 + 2 * a1 + 3 * a2 + 4 * a3 + 5 * a4 + 6 * a5 + 7 * a6 + 8 * a7 + 9 * a8 + 10 * a9) + d0 +
           2 * d1 + 3 * d2 + 4 * d3 + 5 * d4 + 6 * d5 + 7 * d6 + 8 * d7 + 9 * d8 + 10 * d9;
}

#define FN(f) ((void (*)(void))(f))

Test(ffi, integers) {
    rt_ffi_sig s;
    size_t sz[] = {4, 4, 4};
    int fl[] = {0, 0, 0};
    cr_assert_eq(rt_ffi_prepare(&s, 3, sz, fl, 1, 4, 0), 0);
    int32_t a = 40, b = -3, c = 5, r = 0;
    void *args[] = {&a, &b, &c};
    rt_ffi_call(&s, FN(add3), args, &r);
    cr_expect_eq(r, 42);
}

Test(ffi, floats_doubles_pointers) {
    rt_ffi_sig s;
    size_t sz[] = {4, 8, 8, 8};
    int fl[] = {1, 1, 0, 0};
    cr_assert_eq(rt_ffi_prepare(&s, 4, sz, fl, 1, 8, 1), 0);
    float f = 1.5f;
    double d = 4.0, r = 0;
    int64_t i = 10;
    const char *p = "ab";
    void *args[] = {&f, &d, &i, &p};
    rt_ffi_call(&s, FN(mix), args, &r);
    cr_expect_eq(r, 1.5 * 4.0 + 10 + 'b');

    size_t sz1[] = {4};
    int fl1[] = {1};
    float x = 3.0f, y = 0;
    cr_assert_eq(rt_ffi_prepare(&s, 1, sz1, fl1, 1, 4, 1), 0);
    rt_ffi_call(&s, FN(halve), (void *[]){&x}, &y);
    cr_expect_eq(y, 1.5f);

    size_t sz2[] = {8, 8};
    int fl2[] = {0, 0};
    int arr[4];
    int *base = arr, *res = NULL;
    int64_t n = 3;
    cr_assert_eq(rt_ffi_prepare(&s, 2, sz2, fl2, 1, 8, 0), 0);
    rt_ffi_call(&s, FN(bump), (void *[]){&base, &n}, &res);
    cr_expect_eq(res, arr + 3);
}

Test(ffi, narrow_integers_and_void) {
    rt_ffi_sig s;
    size_t sz[] = {2};
    int fl[] = {0};
    cr_assert_eq(rt_ffi_prepare(&s, 1, sz, fl, 1, 1, 0), 0);
    uint16_t x = 0x1234;
    /* Only the result's own byte is written. */
    uint8_t out[2] = {0xee, 0xee};
    rt_ffi_call(&s, FN(low_byte), (void *[]){&x}, out);
    cr_expect_eq(out[0], 0x34);
    cr_expect_eq(out[1], 0xee);

    size_t sz4[] = {4};
    cr_assert_eq(rt_ffi_prepare(&s, 1, sz4, fl, 0, 0, 0), 0);
    uint32_t v = 7;
    rt_ffi_call(&s, FN(set_side), (void *[]){&v}, NULL);
    cr_expect_eq(side, 7);
}

Test(ffi, stack_parameters) {
    rt_ffi_sig s;
    size_t sz[20];
    int fl[20];
    int64_t a[10];
    double d[10], r = 0;
    void *args[20];
    for (int i = 0; i < 10; i++) {
        sz[2 * i] = sz[2 * i + 1] = 8;
        fl[2 * i] = 0;
        fl[2 * i + 1] = 1;
        a[i] = i + 1;
        d[i] = 0.5 * (i + 1);
        args[2 * i] = &a[i];
        args[2 * i + 1] = &d[i];
    }
    cr_assert_eq(rt_ffi_prepare(&s, 20, sz, fl, 1, 8, 1), 0);
    rt_ffi_call(&s, FN(many), args, &r);
    /* sum k*k for k=1..10 = 385; the doubles add 0.5 * 385. */
    cr_expect_eq(r, 385 + 192.5);
}

Test(ffi, refused_signatures) {
    rt_ffi_sig s;
    size_t sz[] = {16};
    int fl[] = {0};
    cr_expect_eq(rt_ffi_prepare(&s, 1, sz, fl, 0, 0, 0), -1); /* an aggregate */
    size_t h[] = {2};
    int hf[] = {1};
    cr_expect_eq(rt_ffi_prepare(&s, 1, h, hf, 0, 0, 0), -1);      /* a half float */
    cr_expect_eq(rt_ffi_prepare(&s, 0, NULL, NULL, 1, 3, 0), -1); /* a 3-byte result */
    cr_expect_eq(rt_ffi_prepare(&s, RT_FFI_MAX_PARAMS + 1, NULL, NULL, 0, 0, 0), -1);
}
