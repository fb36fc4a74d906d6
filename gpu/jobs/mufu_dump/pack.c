/* pack.c — turns the recorded dumps (dump.cu) into the tables ptxi embeds
 * (interp/mufu/<name>.d32.zst): each is the sequence of results of one
 * function's determining domain, stored as dump.cu does (int32 differences of
 * consecutive result bits, the first entry absolute), zstd-compressed.
 *   cc -O2 -o pack pack.c -lzstd -lm && ./pack <dumps-dir> <out-dir>
 * <dumps-dir> holds the default dumps and the extra binades of run.sh,
 * decompressed (xz -dk). */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static const char *dir;

static uint32_t *load(const char *name, uint32_t want) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    uint32_t *r = malloc((size_t)want * 4);
    if (fread(r, 4, want, f) != want || fgetc(f) != EOF) {
        fprintf(stderr, "%s: not %u entries\n", path, want);
        exit(1);
    }
    fclose(f);
    for (uint32_t i = 1; i < want; i++) r[i] += r[i - 1];
    return r;
}

static void save(const char *out, const char *name, const uint32_t *v, uint32_t n) {
    int32_t *d = malloc((size_t)n * 4);
    for (uint32_t i = 0; i < n; i++) d[i] = (int32_t)(v[i] - (i ? v[i - 1] : 0));
    size_t cap = ZSTD_compressBound((size_t)n * 4);
    void *z = malloc(cap);
    size_t zn = ZSTD_compress(z, cap, d, (size_t)n * 4, 19);
    if (ZSTD_isError(zn)) {
        fprintf(stderr, "zstd: %s\n", ZSTD_getErrorName(zn));
        exit(1);
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.d32.zst", out, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(z, 1, zn, f) != zn || fclose(f)) {
        perror(path);
        exit(1);
    }
    printf("%s: %u results, %zu bytes\n", path, n, zn);
    free(d);
    free(z);
}

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float flt(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* sin/cos: the unit sees the angle in turns, t = x * 0x3e22f983 truncated to
 * f32, on a grid of 2^-25 turn; its results over one quarter turn give all. */
enum { Q = 1 << 23 };
static uint32_t core[Q];
static uint8_t have[Q];
static void add_sincos(const char *name, uint32_t lo, int cosine) {
    uint32_t *r = load(name, 1u << 23);
    for (uint32_t i = 0; i < 1u << 23; i++) {
        fesetround(FE_TOWARDZERO);
        volatile float x = flt(lo + i), t = x * flt(0x3e22f983);
        fesetround(FE_TONEAREST);
        uint32_t F = (uint32_t)floor(((double)t - floor((double)t)) * 0x1p25);
        if (cosine) F += Q;
        F &= 4 * Q - 1;
        uint32_t f = F & (Q - 1), v = r[i] ^ (F & 2 * Q ? 0x80000000u : 0);
        if (F & Q) f = Q - 1 - f;
        if (have[f] && core[f] != v) {
            fprintf(stderr, "%s: inconsistent quarter at %u\n", name, f);
            exit(1);
        }
        core[f] = v;
        have[f] = 1;
    }
    free(r);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: pack <dumps-dir> <out-dir>\n");
        return 2;
    }
    dir = argv[1];
    const char *out = argv[2];
    static const struct {
        const char *name, *file;
        uint32_t n;
    } same[] = {
        {"rcp", "rcp_ftz.1_2.3f800000.d32", 1u << 23},   {"rsqrt", "rsqrt_ftz.1_4.3f800000.d32", 1u << 24},
        {"sqrt", "sqrt_ftz.1_4.3f800000.d32", 1u << 24}, {"ex2", "ex2_ftz.1_2.3f800000.d32", 1u << 23},
        {"lg2_1", "lg2_ftz.1_2.3f800000.d32", 1u << 23}, {"lg2_05", "lg2_ftz.3f000000_3f800000.3f000000.d32", 1u << 23},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        uint32_t *v = load(same[i].file, same[i].n);
        save(out, same[i].name, v, same[i].n);
        free(v);
    }
    /* tanh: binades 2^-8 .. 8, each only at the input precision the unit keeps
     * (the results are constant over the dropped low bits). */
    static const char *tanh_files[11] = {"tanh.3b800000_3c000000.3b800000.d32",
                                         "tanh.3c000000_3c800000.3c000000.d32",
                                         "tanh.3c800000_3d000000.3c800000.d32",
                                         "tanh.3d000000_3d800000.3d000000.d32",
                                         "tanh.3d800000_3e000000.3d800000.d32",
                                         "tanh.3e000000_3e800000.3e000000.d32",
                                         "tanh.3e800000_3f000000.3e800000.d32",
                                         "tanh.0.5_1.3f000000.d32",
                                         "tanh.1_2.3f800000.d32",
                                         "tanh.40000000_40800000.40000000.d32",
                                         "tanh.40800000_41000000.40800000.d32"};
    static const int tanh_drop[11] = {6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3};
    uint32_t *tv = malloc(sizeof(uint32_t) << 23), tn = 0;
    for (int b = 0; b < 11; b++) {
        uint32_t *r = load(tanh_files[b], 1u << 23);
        for (uint32_t i = 0; i < 1u << 23; i++) {
            if (r[i] != r[i & ~((1u << tanh_drop[b]) - 1)]) {
                fprintf(stderr, "%s: not constant at %u\n", tanh_files[b], i);
                return 1;
            }
            if (!(i & ((1u << tanh_drop[b]) - 1))) tv[tn++] = r[i];
        }
        free(r);
    }
    save(out, "tanh", tv, tn);
    free(tv);
    static const char *sc[] = {"1_2.3f800000", "3e800000_3f000000.3e800000", "3f000000_3f800000.3f000000",
                               "40000000_40800000.40000000", "40800000_41000000.40800000"};
    for (int c = 0; c < 2; c++)
        for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
            char name[128];
            snprintf(name, sizeof name, "%s_ftz.%s.d32", c ? "cos" : "sin", sc[i]);
            add_sincos(name, (uint32_t)strtoul(strchr(sc[i], '.') + 1, 0, 16), c);
        }
    for (uint32_t f = 0; f < Q; f++)
        if (!have[f]) {
            fprintf(stderr, "sin: quarter turn incomplete at %u\n", f);
            return 1;
        }
    save(out, "sin", core, Q);
    (void)bits;
    return 0;
}
