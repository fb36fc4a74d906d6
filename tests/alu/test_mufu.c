/* test_mufu.c — the f32 .approx instructions against H200 recordings
 * (gpu/jobs/mufu_dump): random operands of every form, and whole binades that
 * the embedded tables do not contain but must follow from them (ex2's
 * complemented negative inputs, lg2's truncated exponent sum). Bit for bit. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "../../interp/alu.h"

#define DIR PTXI_SOURCE_DIR "/tests/alu/"

/* The op numbering of dump.cu (ops.txt). */
static const char *const forms[] = {
    "rcp.approx.ftz.f32", "rcp.approx.f32",     "rsqrt.approx.ftz.f32", "rsqrt.approx.f32",   "sqrt.approx.ftz.f32",
    "sqrt.approx.f32",    "ex2.approx.ftz.f32", "ex2.approx.f32",       "lg2.approx.ftz.f32", "lg2.approx.f32",
    "sin.approx.ftz.f32", "sin.approx.f32",     "cos.approx.ftz.f32",   "cos.approx.f32",     "tanh.approx.f32",
};
enum { NFORMS = sizeof forms / sizeof forms[0] };

static uint32_t *load_zst(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long zn = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *z = malloc((size_t)zn);
    cr_assert(fread(z, 1, (size_t)zn, f) == (size_t)zn);
    fclose(f);
    unsigned long long len = ZSTD_getFrameContentSize(z, (size_t)zn);
    cr_assert(len != ZSTD_CONTENTSIZE_UNKNOWN && len != ZSTD_CONTENTSIZE_ERROR && len % 4 == 0);
    uint32_t *v = malloc(len);
    cr_assert(ZSTD_decompress(v, len, z, (size_t)zn) == len);
    free(z);
    *n = len / 4;
    return v;
}

static alu_op form_op(const char *form) {
    alu_op op;
    cr_assert(alu_lookup(form, 2, &op), "%s unknown", form);
    cr_assert(!op.approx, "%s is still marked approximate", form);
    return op;
}
static uint32_t run(const alu_op *op, uint32_t x) {
    uint64_t s[2] = {x, 0}, d[2] = {0, 0};
    uint32_t cc = 0;
    op->fn(op, d, s, &cc);
    return (uint32_t)d[0];
}
static uint32_t eval(const char *form, uint32_t x) {
    alu_op op = form_op(form);
    return run(&op, x);
}

/* mufu_random.bin.zst: (op, operand, result) triples, 2048 per form, a quarter
 * of them subnormal or zero, half with exponents within 2^±40, the rest any
 * bits (NaN, inf, huge) — a subset of dump.cu's random.bin. */
Test(mufu, random_operands) {
    size_t n;
    uint32_t *t = load_zst(DIR "mufu_random.bin.zst", &n);
    long per[NFORMS] = {0}, bad = 0;
    alu_op ops[NFORMS];
    for (int k = 0; k < NFORMS; k++) ops[k] = form_op(forms[k]);
    for (size_t i = 0; i + 2 < n; i += 3) {
        cr_assert(t[i] < NFORMS);
        uint32_t got = run(&ops[t[i]], t[i + 1]);
        per[t[i]]++;
        if (got != t[i + 2] && bad++ < 10)
            fprintf(stderr, "%s %#x: gpu %#x ptxi %#x\n", forms[t[i]], t[i + 1], t[i + 2], got);
    }
    free(t);
    for (int k = 0; k < NFORMS; k++) cr_expect(per[k] == 2048, "%s: %ld cases", forms[k], per[k]);
    cr_expect(bad == 0, "%ld results differ from the GPU", bad);
}

/* A binade recorded as dump.cu writes it: int32 differences of consecutive
 * results, inputs counting up bit pattern by bit pattern from `lo`. */
static void binade(const char *file, const char *form, uint32_t lo) {
    size_t n;
    uint32_t *d = load_zst(file, &n), want = 0;
    long bad = 0;
    alu_op op = form_op(form);
    for (size_t i = 0; i < n; i++) {
        want += d[i];
        uint32_t got = run(&op, lo + (uint32_t)i);
        if (got != want && bad++ < 10) fprintf(stderr, "%s %#x: gpu %#x ptxi %#x\n", form, lo + (uint32_t)i, want, got);
    }
    free(d);
    cr_expect(n == 1u << 23, "%s: %zu results", file, n);
    cr_expect(bad == 0, "%s: %ld of %zu results differ from the GPU", form, bad, n);
}

Test(mufu, ex2_negative_binade) { binade(DIR "mufu_ex2_ftz.bf000000.d32.zst", "ex2.approx.ftz.f32", 0xbf000000u); }
Test(mufu, lg2_binade_2_4) { binade(DIR "mufu_lg2_ftz.40000000.d32.zst", "lg2.approx.ftz.f32", 0x40000000u); }

/* Values derivable by hand from the recorded [1,2) results and the rules. */
Test(mufu, scaling_rules) {
    cr_expect_eq(eval("rcp.approx.ftz.f32", 0x40000000u), 0x3f000000u);   /* 1/2 */
    cr_expect_eq(eval("rcp.approx.ftz.f32", 0x7f000000u), 0u);            /* 2^-127 flushed */
    cr_expect_eq(eval("rcp.approx.f32", 0x7f000000u), 0x00400000u);       /* ... or subnormal */
    cr_expect_eq(eval("rcp.approx.f32", 0x00000001u), 0x7f800000u);       /* 2^149 overflows */
    cr_expect_eq(eval("rsqrt.approx.ftz.f32", 0x40800000u), 0x3f000000u); /* 4 -> 1/2 */
    cr_expect_eq(eval("sqrt.approx.f32", 0x00000001u),
                 eval("sqrt.approx.f32", 0x40000000u) - (75u << 23));   /* sqrt(2) * 2^-75 */
    cr_expect_eq(eval("ex2.approx.ftz.f32", 0xbf800000u), 0x3f000000u); /* 2^-1 exactly */
    cr_expect_eq(eval("ex2.approx.ftz.f32", 0xb3000000u), 0x3f800000u); /* -2^-25: fraction 0 */
    cr_expect_eq(eval("ex2.approx.ftz.f32", 0x43000000u), 0x7f800000u); /* 2^128 */
    cr_expect_eq(eval("lg2.approx.ftz.f32", 0x3f800000u), 0u);
    cr_expect_eq(eval("lg2.approx.ftz.f32", 0x00800000u), 0xc2fbffffu); /* -126 + 2^-17 */
    cr_expect_eq(eval("tanh.approx.f32", 0x3b7fffffu), 0x3b7fffffu);    /* below 2^-8: x */
    cr_expect_eq(eval("tanh.approx.f32", 0xc1000000u), 0xbf800000u);    /* -8: -1 */
    cr_expect_eq(eval("sin.approx.f32", 0x80000001u), 0x80000000u);
    cr_expect_eq(eval("cos.approx.f32", 0x7f000000u), eval("cos.approx.f32", 0u)); /* no fraction left */
}

/* ---- the warp forms (alu_warp32): every lane of a mask at once ---- */

/* Runs op over lanes of x (and b) under mask m into d, which starts as a
 * marker word: lanes outside m must keep it. */
static bool warp(const alu_op *op, const uint32_t *x, const uint32_t *b, uint32_t m, uint32_t *d) {
    for (int l = 0; l < 32; l++) d[l] = 0x5eed0000u + (uint32_t)l;
    return alu_warp32(op, d, x, b, m);
}
static uint32_t next_mask(uint32_t *seed) {
    *seed = *seed * 1664525u + 1013904223u;
    uint32_t m = *seed ^ *seed >> 13;
    return (*seed >> 28) < 6 ? 0xffffffffu : m; /* mostly whole warps */
}

/* The recorded cases of every form (NaN, inf, zero, subnormal, negative,
 * huge) 32 at a time through the warp form (the lanes' table reads a warp at
 * a time), under whole and partial masks. */
Test(mufu, warp_random_operands) {
    size_t n;
    uint32_t *t = load_zst(DIR "mufu_random.bin.zst", &n), seed = 1;
    long bad = 0, seen = 0;
    for (int f = 0; f < NFORMS; f++) {
        alu_op op = form_op(forms[f]);
        uint32_t x[32], want[32], d[32];
        int k = 0;
        for (size_t i = 0; i + 2 < n; i += 3) {
            if (t[i] != (uint32_t)f) continue;
            x[k] = t[i + 1], want[k++] = t[i + 2];
            if (k < 32) continue;
            k = 0;
            uint32_t m = next_mask(&seed);
            cr_assert(warp(&op, x, x, m, d), "%s: the warp form declined", forms[f]);
            for (int l = 0; l < 32; l++) {
                uint32_t w = m >> l & 1 ? want[l] : 0x5eed0000u + (uint32_t)l;
                seen += m >> l & 1;
                if (d[l] != w && bad++ < 10) fprintf(stderr, "%s %#x: want %#x got %#x\n", forms[f], x[l], w, d[l]);
            }
        }
    }
    free(t);
    cr_expect(seen > 12 * 1024, "%ld lanes", seen);
    cr_expect(bad == 0, "%ld lanes differ", bad);
}

/* The recorded binade (-1, -0.5] of ex2.approx.ftz, a warp at a time, the
 * result written over the operand as ex2.approx %r, %r does: first in order,
 * then (every slice of the table unpacked) each lane's operand drawn
 * at random from the binade, under whole and partial masks. */
Test(mufu, ex2_warp_negative_binade) {
    size_t n;
    uint32_t *dd = load_zst(DIR "mufu_ex2_ftz.bf000000.d32.zst", &n), want = 0;
    alu_op op = form_op("ex2.approx.ftz.f32");
    long bad = 0;
    uint32_t x[32], w[32];
    for (size_t i = 0; i < n; i++) dd[i] = want += dd[i];
    for (size_t i = 0; i < n; i += 32) {
        for (int l = 0; l < 32; l++) x[l] = 0xbf000000u + (uint32_t)(i + (size_t)l), w[l] = dd[i + (size_t)l];
        cr_assert(alu_warp32(&op, x, x, x, 0xffffffffu));
        for (int l = 0; l < 32; l++)
            if (x[l] != w[l] && bad++ < 10)
                fprintf(stderr, "ex2 %#zx: want %#x got %#x\n", 0xbf000000u + i + l, w[l], x[l]);
    }
    for (uint32_t s = 0; s < 1u << 23; s += 32 << 12) { /* the rest of the slices: ex2 of [1, 2) */
        for (int l = 0; l < 32; l++) x[l] = 0x3f800000u + s + ((uint32_t)l << 12);
        cr_assert(alu_warp32(&op, x, x, x, 0xffffffffu));
    }
    uint32_t seed = 7;
    for (int k = 0; k < 1 << 15; k++) {
        uint32_t m = next_mask(&seed), j[32];
        for (int l = 0; l < 32; l++) {
            seed = seed * 1664525u + 1013904223u;
            j[l] = seed >> 9, x[l] = 0xbf000000u + j[l];
        }
        cr_assert(alu_warp32(&op, x, x, x, m));
        for (int l = 0; l < 32; l++) {
            uint32_t wl = m >> l & 1 ? dd[j[l]] : 0xbf000000u + j[l];
            if (x[l] != wl && bad++ < 10)
                fprintf(stderr, "ex2 %#x (mask %#x): want %#x got %#x\n", 0xbf000000u + j[l], m, wl, x[l]);
        }
    }
    free(dd);
    cr_expect(n == 1u << 23);
    cr_expect(bad == 0, "%ld results differ from the GPU", bad);
}

/* div.full/div.approx[.ftz].f32 of the H100 table (alu_table.txt) through
 * the warp form: each case with its divisor in every lane (one reciprocal;
 * a divisor that needs scaling lane by lane), then the cases of each form
 * 32 at a time, a divisor per lane (the reciprocals a warp at a time), under
 * whole and partial masks. Every lane against the GPU's quotient. */
enum { DIV_FORMS = 8, DIV_MAX = 512 };
typedef struct {
    char mn[64];
    unsigned n, a[DIV_MAX], b[DIV_MAX], q[DIV_MAX];
} div_form;

static void div_lanes(const div_form *f, const uint32_t *x, const uint32_t *y, const uint32_t *q, uint32_t m,
                      long *bad) {
    alu_op op;
    uint32_t d[32];
    cr_assert(alu_lookup(f->mn, 3, &op), "%s unknown", f->mn);
    cr_assert(warp(&op, x, y, m, d), "%s: the warp form declined", f->mn);
    for (int l = 0; l < 32; l++) {
        uint32_t w = m >> l & 1 ? q[l] : 0x5eed0000u + (uint32_t)l;
        if (d[l] != w && (*bad)++ < 10) fprintf(stderr, "%s %#x / %#x: want %#x got %#x\n", f->mn, x[l], y[l], w, d[l]);
    }
}

Test(mufu, div_warp) {
    FILE *fp = fopen(DIR "alu_table.txt", "r");
    cr_assert(fp);
    static div_form forms[DIV_FORMS];
    int nf = 0;
    char line[512];
    long cases = 0, bad = 0, lanes = 0;
    while (fgets(line, sizeof line, fp)) {
        char mn[64];
        unsigned a, b, q;
        if (strncmp(line, "div.", 4) || sscanf(line, "%63s 3 | %x %x | %x", mn, &a, &b, &q) != 4 ||
            !strstr(mn, ".f32") || (!strstr(mn, ".full") && !strstr(mn, ".approx")))
            continue;
        int k = 0;
        while (k < nf && strcmp(forms[k].mn, mn)) k++;
        if (k == nf) {
            cr_assert(nf < DIV_FORMS, "more div forms than expected");
            snprintf(forms[nf++].mn, sizeof forms[0].mn, "%s", mn);
        }
        div_form *f = &forms[k];
        if (f->n < DIV_MAX) f->a[f->n] = a, f->b[f->n] = b, f->q[f->n++] = q;
        cases++;
    }
    fclose(fp);
    uint32_t seed = 7;
    for (int k = 0; k < nf; k++) {
        const div_form *f = &forms[k];
        uint32_t x[32], y[32], q[32];
        for (unsigned c = 0; c < f->n; c++) { /* the divisor in every lane */
            for (int l = 0; l < 32; l++) x[l] = f->a[c], y[l] = f->b[c], q[l] = f->q[c];
            div_lanes(f, x, y, q, next_mask(&seed) | 1, &bad);
        }
        for (unsigned r = 0; r < 8; r++) /* a case per lane, drawn at random */
            for (unsigned c = 0; c + 32 <= f->n; c += 32) {
                for (int l = 0; l < 32; l++) {
                    seed = seed * 1664525u + 1013904223u;
                    unsigned e = seed % f->n;
                    x[l] = f->a[e], y[l] = f->b[e], q[l] = f->q[e];
                }
                uint32_t m = next_mask(&seed);
                div_lanes(f, x, y, q, m, &bad);
                lanes += __builtin_popcount(m);
            }
    }
    cr_expect(cases >= 400 && nf >= 4, "%ld cases in %d forms", cases, nf);
    cr_expect(lanes > 4 * cases, "%ld lanes with a divisor per lane", lanes);
    cr_expect(bad == 0, "%ld lanes differ from the GPU", bad);
}
