/* fatbin.c — takes the PTX out of the fatbinary that nvcc embeds in a program: the
 * wrapper the host stub registers, the fatbin header, its entries (PTX or SASS, per
 * architecture), LZ4 or zstd compression; picks the PTX that best fits sm_90. */
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "cudart_internal.h"

#define WRAPPER_MAGIC 0x466243b1u /* __fatBinC_Wrapper_t, fatbinary_section.h */
#define FATBIN_MAGIC 0xba55ed50u
#define TARGET_ARCH 90u

enum { KIND_PTX = 1, KIND_ELF = 2 };
enum { FLAG_LZ4 = 0x2000, FLAG_ZSTD = 0x8000 };

typedef struct {
    uint32_t magic;
    int32_t version;
    const void *data;
    const void *extra; /* version 2: the prelinked fatbinaries */
} fb_wrapper;

typedef struct {
    uint32_t magic;
    uint16_t version, header_size;
    uint64_t fat_size; /* bytes of entries after the header */
} fb_header;

/* One entry: its header, then payload_size bytes. Sizes as laid down by the
 * fatbinary tool; compressed payloads record both sizes. */
typedef struct {
    uint16_t kind, version;
    uint32_t header_size;
    uint64_t payload_size; /* padded */
    uint32_t compressed_size;
    uint32_t options_offset;
    uint16_t minor, major; /* of the PTX ISA / ELF format */
    uint32_t arch;         /* sm_XX / compute_XX as XX */
    uint32_t name_offset, name_len;
    uint64_t flags;
    uint64_t zero;
    uint64_t uncompressed_size;
} fb_entry;

/* Better for running on sm_90: the highest arch <= 90, else the lowest above. */
static bool better(unsigned cand, unsigned best) {
    if (!best) return true;
    if (cand <= TARGET_ARCH) return best > TARGET_ARCH || cand > best;
    return best > TARGET_ARCH && cand < best;
}

static char *inflate(const fb_entry *e, const char *payload, size_t *len, char *msg, size_t msg_size) {
    size_t out_size = e->uncompressed_size;
    char *out = malloc(out_size + 1);
    if (!out) return NULL;
    long got;
    if (e->flags & FLAG_ZSTD) {
        size_t r = ZSTD_decompress(out, out_size, payload, e->compressed_size);
        got = ZSTD_isError(r) ? -1 : (long)r;
    } else {
        got = LZ4_decompress_safe(payload, out, (int)e->compressed_size, (int)out_size);
    }
    if (got < 0) {
        snprintf(msg, msg_size, "the PTX for compute_%u in the fatbinary does not decompress", e->arch);
        free(out);
        return NULL;
    }
    out[got] = 0;
    *len = strlen(out);
    return out;
}

static char *copy_plain(const char *payload, size_t n, size_t *len) {
    size_t l = strnlen(payload, n);
    char *out = malloc(l + 1);
    if (!out) return NULL;
    memcpy(out, payload, l);
    out[l] = 0;
    *len = l;
    return out;
}

/* Walks one fatbin; remembers the best PTX entry and which SASS archs exist. */
static void scan(const fb_header *h, const fb_entry **best, char *sass, size_t sass_size) {
    if (!h || h->magic != FATBIN_MAGIC) return;
    const char *p = (const char *)h + h->header_size, *end = p + h->fat_size;
    while (p + sizeof(fb_entry) <= end) {
        const fb_entry *e = (const fb_entry *)p;
        /* A damaged fatbinary ends the walk rather than sending it outside the data. */
        uint64_t room = (uint64_t)(end - p);
        if (e->header_size < 0x40 || e->header_size > 0x1000 || e->header_size > room ||
            e->payload_size > room - e->header_size)
            break;
        if ((e->flags & (FLAG_LZ4 | FLAG_ZSTD)) &&
            (e->compressed_size > e->payload_size || e->uncompressed_size > ((uint64_t)1 << 31)))
            break;
        if (e->kind == KIND_PTX && better(e->arch, *best ? (*best)->arch : 0)) *best = e;
        if (e->kind == KIND_ELF) {
            size_t used = strlen(sass);
            snprintf(sass + used, sass_size - used, "%ssm_%u", used ? ", " : "", e->arch);
        }
        p += e->header_size + e->payload_size;
    }
}

/* The best PTX of one fatbin, inflated. */
static cudaError_t extract(const fb_header *h, char **ptx, size_t *len, unsigned *arch, char *msg, size_t msg_size) {
    const fb_entry *best = NULL;
    char sass[256] = "";
    scan(h, &best, sass, sizeof sass);
    if (!best) {
        if (sass[0])
            snprintf(msg, msg_size,
                     "the program's device code is SASS only (%s) and holds no PTX, which ptxi needs; "
                     "rebuild it with -arch=compute_90 or -gencode arch=compute_90,code=compute_90 "
                     "(or add code=compute_XX to its -gencode options)",
                     sass);
        else snprintf(msg, msg_size, "the program's fatbinary holds no PTX");
        return cudaErrorNoKernelImageForDevice;
    }
    const char *payload = (const char *)best + best->header_size;
    if (best->flags & (FLAG_LZ4 | FLAG_ZSTD)) *ptx = inflate(best, payload, len, msg, msg_size);
    else *ptx = copy_plain(payload, best->payload_size, len);
    if (!*ptx) {
        if (!msg[0]) snprintf(msg, msg_size, "out of memory reading the fatbinary");
        return cudaErrorInvalidKernelImage;
    }
    *arch = best->arch;
    return cudaSuccess;
}

/* The device runtime library (libcudadevrt, linked in with -rdc=true -lcudadevrt): its
 * unit defines the __cudaCDP2* entry points the program's PTX calls, in terms of
 * driver internals (cnp*) that exist only as machine code. ptxi implements those entry
 * points itself, so the unit is left out of the join. */
static bool is_device_runtime(const char *ptx) {
    for (const char *p = ptx; (p = strstr(p, "__cudaCDP2")); p++) {
        const char *line = p;
        while (line > ptx && line[-1] != '\n') line--;
        if (!strncmp(line, ".extern", 7)) continue;
        const char *f = strstr(line, ".func");
        if (f && f < p) return true;
    }
    return false;
}

cudaError_t cr_fatbin_ptx(const void *wrapper, char **ptx, size_t *len, unsigned *arch, char *msg, size_t msg_size) {
    const fb_wrapper *w = wrapper;
    *ptx = NULL;
    if (!w || w->magic != WRAPPER_MAGIC) {
        snprintf(msg, msg_size, "the program registered device code that is not a fatbinary");
        return cudaErrorInvalidKernelImage;
    }
    if (w->version != 2 || !w->extra) return extract(w->data, ptx, len, arch, msg, msg_size);
    /* Relocatable device code: `data` holds the device-linked SASS; the PTX is in the
     * fatbins of the translation units (a NULL-terminated array), to be joined. */
    const fb_header *const *units = w->extra;
    size_t n = 0;
    while (units[n]) n++;
    char **texts = calloc(n + 1, sizeof *texts);
    cudaError_t e = texts ? cudaSuccess : cudaErrorMemoryAllocation;
    size_t kept = 0;
    for (size_t i = 0; i < n && e == cudaSuccess; i++) {
        size_t l;
        unsigned a;
        e = extract(units[i], &texts[kept], &l, &a, msg, msg_size);
        if (e != cudaSuccess) break;
        if (is_device_runtime(texts[kept])) { /* its calls are the interpreter's built-ins */
            free(texts[kept]);
            texts[kept] = NULL;
            continue;
        }
        if (!kept++ || a > *arch) *arch = a;
    }
    if (e == cudaSuccess) *ptx = cr_ptx_link(texts, kept, len);
    for (size_t i = 0; texts && i < kept; i++) free(texts[i]);
    free(texts);
    return e;
}

/* A fatbinary given by itself (cuModuleLoadData, cuModuleLoadFatBinary): a fatbin
 * header, or nvcc's wrapper around one. Returns a cudaError_t. */
int cr_fatbin_image_ptx(const void *image, char **ptx, size_t *len, unsigned *arch, char *msg, size_t msg_size) {
    const fb_header *h = image;
    *ptx = NULL;
    if (h && h->magic == FATBIN_MAGIC) return extract(h, ptx, len, arch, msg, msg_size);
    return cr_fatbin_ptx(image, ptx, len, arch, msg, msg_size);
}
