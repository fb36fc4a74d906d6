/* nvjitlink.c — a libnvJitLink.so.13 that links PTX into PTX. Numba and cuda.core link
 * kernels with nvJitLink when it is installed (a CUDA toolkit, the nvidia-nvjitlink
 * wheel), and NVIDIA's library turns PTX into SASS, which ptxi cannot run. `ptxi exec`
 * loads this one first: it joins the PTX inputs (the rdc linker of libcudart), checks the
 * result with ptxi's front end, and hands out the linked PTX both as "PTX" and as the
 * "cubin", which ptxi's cuModuleLoadData takes as PTX text (the format of ptxi-ptxas).
 * It presents itself as an nvJitLink from before 12.3 (see the end of this file). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"
#include "ir.h"

/* nvJitLink's ABI (nvJitLink.h of CUDA 13): the result codes and input kinds in order. */
typedef enum {
    NVJITLINK_SUCCESS = 0,
    NVJITLINK_ERROR_UNRECOGNIZED_OPTION,
    NVJITLINK_ERROR_MISSING_ARCH,
    NVJITLINK_ERROR_INVALID_INPUT,
    NVJITLINK_ERROR_PTX_COMPILE,
    NVJITLINK_ERROR_NVVM_COMPILE,
    NVJITLINK_ERROR_INTERNAL,
    NVJITLINK_ERROR_THREADPOOL,
    NVJITLINK_ERROR_UNRECOGNIZED_INPUT,
    NVJITLINK_ERROR_FINALIZE,
    NVJITLINK_ERROR_NULL_INPUT,
    NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS,
    NVJITLINK_ERROR_INCORRECT_INPUT_TYPE,
    NVJITLINK_ERROR_ARCH_MISMATCH,
    NVJITLINK_ERROR_OUTDATED_LIBRARY,
    NVJITLINK_ERROR_MISSING_FATBIN,
    NVJITLINK_ERROR_UNRECOGNIZED_ARCH,
    NVJITLINK_ERROR_UNSUPPORTED_ARCH,
    NVJITLINK_ERROR_LTO_NOT_ENABLED,
} nvJitLinkResult;

typedef enum {
    NVJITLINK_INPUT_NONE = 0,
    NVJITLINK_INPUT_CUBIN = 1,
    NVJITLINK_INPUT_PTX,
    NVJITLINK_INPUT_LTOIR,
    NVJITLINK_INPUT_FATBIN,
    NVJITLINK_INPUT_OBJECT,
    NVJITLINK_INPUT_LIBRARY,
    NVJITLINK_INPUT_INDEX,
    NVJITLINK_INPUT_ANY = 10,
} nvJitLinkInputType;

#define EXPORT __attribute__((visibility("default")))

typedef struct nvJitLink {
    char **units; /* PTX texts, NUL-terminated, owned */
    size_t nunits;
    char *first_name; /* name of the first input, for diagnostics */
    char *linked;     /* after Complete: the linked PTX */
    size_t linked_len;
    char *error_log, *info_log;
    bool complete;
} nvJitLink;
typedef nvJitLink *nvJitLinkHandle;

static void log_to(char **log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_to(char **log, const char *fmt, ...) {
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    size_t old = *log ? strlen(*log) : 0;
    char *s = n < 0 ? NULL : realloc(*log, old + (size_t)n + 1);
    if (s) {
        vsnprintf(s + old, (size_t)n + 1, fmt, again);
        *log = s;
    }
    va_end(again);
}

EXPORT nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle *handle, uint32_t n, const char **options) {
    if (!handle || (n && !options)) return NVJITLINK_ERROR_NULL_INPUT;
    *handle = NULL;
    bool arch = false;
    for (uint32_t i = 0; i < n; i++) {
        if (!options[i]) return NVJITLINK_ERROR_NULL_INPUT;
        if (!strncmp(options[i], "-arch=", 6)) {
            if (strncmp(options[i] + 6, "sm_", 3) && strncmp(options[i] + 6, "compute_", 8))
                return NVJITLINK_ERROR_UNRECOGNIZED_ARCH;
            arch = true;
        } else if (options[i][0] != '-') {
            return NVJITLINK_ERROR_UNRECOGNIZED_OPTION;
        }
        /* -lto, -ptx, -O3, -g, -lineinfo, -maxrregcount=, -Xptxas=...: code generation
         * choices that PTX run by ptxi does not have */
    }
    if (!arch) return NVJITLINK_ERROR_MISSING_ARCH;
    *handle = calloc(1, sizeof **handle);
    return *handle ? NVJITLINK_SUCCESS : NVJITLINK_ERROR_INTERNAL;
}

EXPORT nvJitLinkResult nvJitLinkDestroy(nvJitLinkHandle *handle) {
    if (!handle) return NVJITLINK_ERROR_NULL_INPUT;
    nvJitLink *h = *handle;
    if (!h) return NVJITLINK_SUCCESS;
    for (size_t i = 0; i < h->nunits; i++) free(h->units[i]);
    free(h->units);
    free(h->first_name);
    free(h->linked);
    free(h->error_log);
    free(h->info_log);
    free(h);
    *handle = NULL;
    return NVJITLINK_SUCCESS;
}

/* PTX text: printable, with a .version directive before any NUL. */
static bool is_ptx(const char *p, size_t n) {
    size_t len = strnlen(p, n);
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)p[i] < 9 || ((unsigned char)p[i] > 13 && (unsigned char)p[i] < 32)) return false;
    for (size_t i = 0; i + 8 <= len; i++)
        if (!memcmp(p + i, ".version", 8)) return true;
    return false;
}

EXPORT nvJitLinkResult nvJitLinkAddData(nvJitLinkHandle h, nvJitLinkInputType type, const void *data, size_t size,
                                        const char *name) {
    if (!h || !data) return NVJITLINK_ERROR_NULL_INPUT;
    if (h->complete) return NVJITLINK_ERROR_INVALID_INPUT;
    const char *p = data;
    if (!name) name = "input";
    bool ptx = is_ptx(p, size);
    if (type != NVJITLINK_INPUT_PTX && type != NVJITLINK_INPUT_CUBIN && type != NVJITLINK_INPUT_ANY) {
        /* nothing but PTX can run on ptxi: say how to get it */
        log_to(&h->error_log, "ptxi: %s: ptxi's nvJitLink links PTX only (got %s); pass the PTX of this code instead\n",
               name,
               type == NVJITLINK_INPUT_LTOIR     ? "LTO-IR"
               : type == NVJITLINK_INPUT_FATBIN  ? "a fatbinary"
               : type == NVJITLINK_INPUT_OBJECT  ? "a host object"
               : type == NVJITLINK_INPUT_LIBRARY ? "a library"
                                                 : "an unsupported input");
        return NVJITLINK_ERROR_UNRECOGNIZED_INPUT;
    }
    if (!ptx) {
        log_to(&h->error_log,
               "ptxi: %s is not PTX (an ELF cubin holds only SASS, which ptxi cannot run); "
               "pass the PTX of this code instead\n",
               name);
        return type == NVJITLINK_INPUT_PTX ? NVJITLINK_ERROR_INVALID_INPUT : NVJITLINK_ERROR_UNRECOGNIZED_INPUT;
    }
    size_t len = strnlen(p, size);
    char *text = malloc(len + 1);
    char **units = realloc(h->units, (h->nunits + 1) * sizeof *units);
    if (!text || !units) {
        free(text);
        if (units) h->units = units;
        return NVJITLINK_ERROR_INTERNAL;
    }
    memcpy(text, p, len);
    text[len] = 0;
    h->units = units;
    h->units[h->nunits++] = text;
    if (!h->first_name) h->first_name = strdup(name);
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult nvJitLinkAddFile(nvJitLinkHandle h, nvJitLinkInputType type, const char *path) {
    if (!h || !path) return NVJITLINK_ERROR_NULL_INPUT;
    size_t n;
    char *buf = fe_read_file(path, &n);
    if (!buf) {
        log_to(&h->error_log, "ptxi: cannot read %s\n", path);
        return NVJITLINK_ERROR_INVALID_INPUT;
    }
    nvJitLinkResult r = nvJitLinkAddData(h, type, buf, n, path);
    free(buf);
    return r;
}

EXPORT nvJitLinkResult nvJitLinkComplete(nvJitLinkHandle h) {
    if (!h) return NVJITLINK_ERROR_NULL_INPUT;
    if (h->complete) return NVJITLINK_SUCCESS;
    if (!h->nunits) {
        log_to(&h->error_log, "ptxi: nothing to link\n");
        return NVJITLINK_ERROR_INVALID_INPUT;
    }
    if (h->nunits == 1) {
        h->linked_len = strlen(h->units[0]);
        h->linked = strdup(h->units[0]);
    } else {
        h->linked = cr_ptx_link(h->units, h->nunits, &h->linked_len);
    }
    if (!h->linked) return NVJITLINK_ERROR_INTERNAL;
    fe_diags d = {0};
    ir_module *m = fe_parse(h->linked, h->linked_len, h->nunits == 1 ? h->first_name : "linked PTX", &d);
    if (!d.nerrors) fe_validate(m, &d);
    char *log = fe_diags_string(&d, true);
    if (log && *log) log_to(d.nerrors ? &h->error_log : &h->info_log, "%s", log);
    free(log);
    bool ok = d.nerrors == 0;
    fe_diags_free(&d);
    ir_module_free(m);
    if (!ok) return NVJITLINK_ERROR_PTX_COMPILE;
    log_to(&h->info_log, "ptxi: linked %zu PTX input%s into PTX\n", h->nunits, h->nunits == 1 ? "" : "s");
    h->complete = true;
    return NVJITLINK_SUCCESS;
}

/* The linked PTX is the output in both forms; the "cubin" carries its NUL. */
static nvJitLinkResult output_size(nvJitLinkHandle h, size_t *size) {
    if (!h || !size) return NVJITLINK_ERROR_NULL_INPUT;
    if (!h->complete) return NVJITLINK_ERROR_INVALID_INPUT;
    *size = h->linked_len + 1;
    return NVJITLINK_SUCCESS;
}

static nvJitLinkResult output(nvJitLinkHandle h, void *out) {
    if (!h || !out) return NVJITLINK_ERROR_NULL_INPUT;
    if (!h->complete) return NVJITLINK_ERROR_INVALID_INPUT;
    memcpy(out, h->linked, h->linked_len + 1);
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult nvJitLinkGetLinkedCubinSize(nvJitLinkHandle h, size_t *size) { return output_size(h, size); }
EXPORT nvJitLinkResult nvJitLinkGetLinkedCubin(nvJitLinkHandle h, void *cubin) { return output(h, cubin); }
EXPORT nvJitLinkResult nvJitLinkGetLinkedPtxSize(nvJitLinkHandle h, size_t *size) { return output_size(h, size); }
EXPORT nvJitLinkResult nvJitLinkGetLinkedPtx(nvJitLinkHandle h, char *ptx) { return output(h, ptx); }

static nvJitLinkResult log_size(const char *log, size_t *size) {
    if (!size) return NVJITLINK_ERROR_NULL_INPUT;
    *size = (log ? strlen(log) : 0) + 1;
    return NVJITLINK_SUCCESS;
}

static nvJitLinkResult log_copy(const char *log, char *out) {
    if (!out) return NVJITLINK_ERROR_NULL_INPUT;
    strcpy(out, log ? log : "");
    return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult nvJitLinkGetErrorLogSize(nvJitLinkHandle h, size_t *size) {
    return h ? log_size(h->error_log, size) : NVJITLINK_ERROR_NULL_INPUT;
}
EXPORT nvJitLinkResult nvJitLinkGetErrorLog(nvJitLinkHandle h, char *log) {
    return h ? log_copy(h->error_log, log) : NVJITLINK_ERROR_NULL_INPUT;
}
EXPORT nvJitLinkResult nvJitLinkGetInfoLogSize(nvJitLinkHandle h, size_t *size) {
    return h ? log_size(h->info_log, size) : NVJITLINK_ERROR_NULL_INPUT;
}
EXPORT nvJitLinkResult nvJitLinkGetInfoLog(nvJitLinkHandle h, char *log) {
    return h ? log_copy(h->info_log, log) : NVJITLINK_ERROR_NULL_INPUT;
}

/* No nvJitLinkVersion: it appeared in nvJitLink 12.3, and Numba takes it as the sign that
 * it may compile kernels to LTO-IR, which only NVIDIA's libNVVM-based linker reads. Without
 * it Numba hands over PTX, and cuda.core links with the driver's cuLink* (PTX in ptxi's
 * libcuda.so.1) after one warning that nvJitLink is older than 12.3. */

/* nvJitLink.h's inline wrappers call these versioned names; programs built against it
 * link to them rather than to the plain ones. */
#define VERSIONED(name) EXPORT __typeof__(name) __##name##_13_0 __attribute__((alias(#name)));
VERSIONED(nvJitLinkCreate)
VERSIONED(nvJitLinkDestroy)
VERSIONED(nvJitLinkAddData)
VERSIONED(nvJitLinkAddFile)
VERSIONED(nvJitLinkComplete)
VERSIONED(nvJitLinkGetLinkedCubinSize)
VERSIONED(nvJitLinkGetLinkedCubin)
VERSIONED(nvJitLinkGetLinkedPtxSize)
VERSIONED(nvJitLinkGetLinkedPtx)
VERSIONED(nvJitLinkGetErrorLogSize)
VERSIONED(nvJitLinkGetErrorLog)
VERSIONED(nvJitLinkGetInfoLogSize)
VERSIONED(nvJitLinkGetInfoLog)
