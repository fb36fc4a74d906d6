/* mufu_seg.c — build-time tool: re-packs one recorded approximation table
 * (NAME.d32.zst: int32 differences of consecutive results, one zstd frame)
 * into independent zstd frames of SEG results each, so that alu_mufu.c
 * unpacks only the slices a kernel touches.
 *
 * Output (little-endian uint32 words): n, nseg, then per segment the byte
 * offset of its frame (from the start of the frames) and the running result
 * before its first difference, then the end offset of the last frame, then
 * the frames.  usage: mufu_seg IN.d32.zst OUT.seg */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "../alu_mufu_seg.h"

static void die(const char *what, const char *name) {
    fprintf(stderr, "mufu_seg: %s: %s\n", name, what);
    exit(1);
}

static void *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open", path);
    size_t cap = 1 << 20, n = 0;
    unsigned char *b = malloc(cap);
    for (size_t got; b && (got = fread(b + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) b = realloc(b, cap *= 2);
    }
    fclose(f);
    if (!b) die("out of memory", path);
    *len = n;
    return b;
}

static void put32(unsigned char *p, uint32_t v) {
    for (int k = 0; k < 4; k++) p[k] = (unsigned char)(v >> 8 * k);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: mufu_seg IN.d32.zst OUT.seg\n");
        return 2;
    }
    size_t zn;
    unsigned char *z = read_all(argv[1], &zn);
    unsigned long long raw = ZSTD_getFrameContentSize(z, zn);
    if (raw == ZSTD_CONTENTSIZE_UNKNOWN || raw == ZSTD_CONTENTSIZE_ERROR || raw % 4 || raw / 4 > 1u << 24)
        die("not a table", argv[1]);
    unsigned char *d = malloc(raw ? raw : 1);
    if (!d) die("out of memory", argv[1]);
    if (ZSTD_decompress(d, raw, z, zn) != raw) die("corrupt", argv[1]);
    uint32_t n = (uint32_t)(raw / 4), nseg = (n + MUFU_SEG - 1) / MUFU_SEG;
    size_t head = 4 * (3 + 2 * (size_t)nseg), cap = head + ZSTD_compressBound(raw) + (size_t)nseg * 64;
    unsigned char *out = malloc(cap);
    if (!out) die("out of memory", argv[1]);
    put32(out, n);
    put32(out + 4, nseg);
    size_t pos = 0;
    uint32_t acc = 0;
    for (uint32_t s = 0; s < nseg; s++) {
        uint32_t first = s * MUFU_SEG, cnt = n - first < MUFU_SEG ? n - first : MUFU_SEG;
        put32(out + 8 + 8 * s, (uint32_t)pos);
        put32(out + 12 + 8 * s, acc);
        size_t k = ZSTD_compress(out + head + pos, cap - head - pos, d + 4 * (size_t)first, 4 * (size_t)cnt, 19);
        if (ZSTD_isError(k)) die(ZSTD_getErrorName(k), argv[1]);
        pos += k;
        for (uint32_t j = 0; j < cnt; j++) {
            int32_t diff;
            memcpy(&diff, d + 4 * ((size_t)first + j), 4);
            acc += (uint32_t)diff;
        }
    }
    put32(out + 8 + 8 * (size_t)nseg, (uint32_t)pos);
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(out, 1, head + pos, f) != head + pos || fclose(f)) die("cannot write", argv[2]);
    free(out);
    free(d);
    free(z);
    return 0;
}
