/* module.c — modules, libraries and the linker. ptxi runs PTX, so an image is PTX
 * text, or a fatbinary holding PTX (the best for sm_90 is taken, as libcudart does);
 * an ELF cubin holds only machine code and is refused with what to do instead.
 * A library (cuLibrary*) is a module loaded into the primary context, and a CUkernel
 * is the module's CUfunction: the two kinds of handle are interchangeable. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "pgraph.h"

/* Live modules, for checking module and function handles, with their context. */
typedef struct mod_entry {
    ptxi_module *m;
    ptxi_ctx *ctx;
    bool library;
} mod_entry;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mod_entry *mods;
static size_t nmods, capmods;

static bool add_module(ptxi_module *m, ptxi_ctx *ctx, bool library) {
    pthread_mutex_lock(&lock);
    if (nmods == capmods) {
        size_t cap = capmods ? 2 * capmods : 16;
        mod_entry *n = realloc(mods, cap * sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&lock);
            return false;
        }
        mods = n, capmods = cap;
    }
    mods[nmods++] = (mod_entry){m, ctx, library};
    pthread_mutex_unlock(&lock);
    return true;
}

static bool take_module(ptxi_module *m) {
    pthread_mutex_lock(&lock);
    size_t i = 0;
    while (i < nmods && mods[i].m != m) i++;
    bool found = i < nmods;
    if (found) mods[i] = mods[--nmods];
    pthread_mutex_unlock(&lock);
    return found;
}

static bool module_valid(ptxi_module *m) {
    pthread_mutex_lock(&lock);
    bool ok = false;
    for (size_t i = 0; i < nmods && !ok; i++) ok = mods[i].m == m;
    pthread_mutex_unlock(&lock);
    return ok;
}

/* The entry whose module holds k (under the lock), or NULL. */
static mod_entry *entry_of(ptxi_kernel *k) {
    for (size_t i = 0; k && i < nmods; i++)
        for (unsigned j = 0, n = ptxi_module_kernel_count(mods[i].m); j < n; j++)
            if (ptxi_module_kernel_at(mods[i].m, j) == k) return &mods[i];
    return NULL;
}

bool cd_kernel_of_library(ptxi_kernel *k, bool *library) {
    pthread_mutex_lock(&lock);
    mod_entry *e = entry_of(k);
    if (e && library) *library = e->library;
    pthread_mutex_unlock(&lock);
    return e != NULL;
}

bool cd_kernel_valid(ptxi_kernel *k) {
    ptxi_ctx *ctx;
    return cd_kernel_of_library(k, NULL) || (cd_current(&ctx) == CUDA_SUCCESS && pg_kernel_in(ctx, k));
}

/* The context's modules are gone (destroyed, or the primary context reset). */
void cd_modules_forget(ptxi_ctx *c) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nmods;)
        if (mods[i].ctx == c) mods[i] = mods[--nmods];
        else i++;
    pthread_mutex_unlock(&lock);
}

/* ---- images ---- */

#define ELF_MAGIC "\177ELF"
#define FATBIN_MAGIC 0xba55ed50u
#define WRAPPER_MAGIC 0x466243b1u

/* The PTX text of an image (malloc'd, NUL-terminated), or an error with `msg` saying why. */
static CUresult image_ptx(const void *image, char **ptx, size_t *len, char *msg, size_t msg_size) {
    *ptx = NULL;
    msg[0] = 0;
    if (!image) return CUDA_ERROR_INVALID_VALUE;
    const unsigned char *b = image;
    uint32_t magic = 0;
    /* none of the magic numbers holds a zero byte: a shorter string is text */
    if (strnlen(image, 4) == 4) memcpy(&magic, b, 4);
    if (magic && !memcmp(b, ELF_MAGIC, 4)) {
        snprintf(msg, msg_size,
                 "the image is an ELF cubin, machine code for one GPU, which ptxi cannot run; give "
                 "cuModuleLoadData the PTX instead (nvrtcGetPTX rather than nvrtcGetCUBIN, nvcc -ptx, or a "
                 "fatbinary built with -gencode arch=compute_90,code=compute_90)");
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    if (magic == FATBIN_MAGIC || magic == WRAPPER_MAGIC) {
        unsigned arch;
        int e = cr_fatbin_image_ptx(image, ptx, len, &arch, msg, msg_size);
        if (e == 0) return CUDA_SUCCESS;
        return *msg && strstr(msg, "SASS") ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_IMAGE;
    }
    *len = strlen(image);
    *ptx = malloc(*len + 1);
    if (!*ptx) return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(*ptx, image, *len + 1);
    return CUDA_SUCCESS;
}

/* JIT options a caller reads back: the logs (and their sizes) and the wall time. */
typedef struct jit_logs {
    char *error, *info;
    size_t error_size, info_size;
    float *wall;
    void **error_size_slot, **info_size_slot;
} jit_logs;

static void jit_parse(unsigned n, const CUjit_option *opts, void **vals, jit_logs *l) {
    memset(l, 0, sizeof *l);
    for (unsigned i = 0; opts && vals && i < n; i++) switch (opts[i]) {
        case CU_JIT_ERROR_LOG_BUFFER: l->error = vals[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
            l->error_size = (size_t)(uintptr_t)vals[i];
            l->error_size_slot = &vals[i];
            break;
        case CU_JIT_INFO_LOG_BUFFER: l->info = vals[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
            l->info_size = (size_t)(uintptr_t)vals[i];
            l->info_size_slot = &vals[i];
            break;
        case CU_JIT_WALL_TIME: l->wall = (float *)&vals[i]; break;
        default: break; /* optimisation levels, targets, caches: nothing to tune */
        }
}

static void jit_report(jit_logs *l, const char *error) {
    if (l->error && l->error_size) {
        snprintf(l->error, l->error_size, "%s", error ? error : "");
        if (l->error_size_slot) *l->error_size_slot = (void *)(uintptr_t)strlen(l->error);
    }
    if (l->info && l->info_size) {
        l->info[0] = 0;
        if (l->info_size_slot) *l->info_size_slot = (void *)0;
    }
    if (l->wall) *l->wall = 0;
}

/* Loads an image into ctx; on failure the reason goes to the JIT error log and, once,
 * to stderr (a program that does not read the log still learns why). */
static CUresult load(ptxi_ctx *ctx, const void *image, const char *name, jit_logs *logs, bool library,
                     ptxi_module **out) {
    char msg[1024];
    char *ptx;
    size_t len;
    CUresult r = image_ptx(image, &ptx, &len, msg, sizeof msg);
    if (r == CUDA_SUCCESS) {
        ptxi_status s = ptxi_module_load_data(ctx, ptx, len, name, out);
        free(ptx);
        if (s == PTXI_SUCCESS) {
            if (!add_module(*out, ctx, library)) {
                ptxi_module_unload(*out);
                r = CUDA_ERROR_OUT_OF_MEMORY;
            }
            if (logs) jit_report(logs, NULL);
            return r;
        }
        r = cd_map(s);
        snprintf(msg, sizeof msg, "%s", ptxi_ctx_error_detail(ctx));
    } else if (msg[0]) {
        char note[1100];
        snprintf(note, sizeof note, "%s: %s", name, msg);
        ptxi_warn_once(note);
    }
    if (logs) jit_report(logs, msg);
    return r;
}

/* load() with the caller's JIT options; the handle goes to *out on success. */
static CUresult load_jit(ptxi_ctx *ctx, const void *image, const char *name, unsigned n, CUjit_option *opts,
                         void **vals, bool library, void **out) {
    jit_logs logs;
    jit_parse(n, opts, vals, &logs);
    ptxi_module *m;
    CUresult r = load(ctx, image, name, &logs, library, &m);
    if (r == CUDA_SUCCESS) *out = m;
    return r;
}

CD_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                      CUjit_option *options, void **optionValues) {
    CD_CTX(ctx);
    if (!module || !image) return CUDA_ERROR_INVALID_VALUE;
    return load_jit(ctx, image, "cuModuleLoadData", numOptions, options, optionValues, false, (void **)module);
}

CD_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image) {
    return cuModuleLoadDataEx(module, image, 0, NULL, NULL);
}

CD_EXPORT CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin) {
    return cuModuleLoadDataEx(module, fatCubin, 0, NULL, NULL);
}

/* The whole file, NUL-terminated (PTX text is read as a string). */
static char *read_file(const char *path, CUresult *err, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = CUDA_ERROR_FILE_NOT_FOUND;
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(f);
                *err = CUDA_ERROR_OUT_OF_MEMORY;
                return NULL;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (!got) break;
    }
    fclose(f);
    buf[n] = 0;
    if (size) *size = n;
    return buf;
}

CD_EXPORT CUresult cuModuleLoad(CUmodule *module, const char *fname) {
    CD_CTX(ctx);
    if (!module || !fname) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    char *data = read_file(fname, &r, NULL);
    if (!data) return r;
    ptxi_module *m;
    r = load(ctx, data, fname, NULL, false, &m);
    free(data);
    if (r == CUDA_SUCCESS) *module = (CUmodule)m;
    return r;
}

CD_EXPORT CUresult cuModuleUnload(CUmodule hmod) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!take_module(MODULE(hmod))) return CUDA_ERROR_INVALID_HANDLE;
    return cd_map(ptxi_module_unload(MODULE(hmod)));
}

CD_EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!hfunc || !name) return CUDA_ERROR_INVALID_VALUE;
    if (!module_valid(MODULE(hmod))) return CUDA_ERROR_INVALID_HANDLE;
    ptxi_kernel *k;
    if (ptxi_module_get_kernel(MODULE(hmod), name, &k) != PTXI_SUCCESS) return CUDA_ERROR_NOT_FOUND;
    *hfunc = (CUfunction)k;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    if (!module_valid(MODULE(hmod))) return CUDA_ERROR_INVALID_HANDLE;
    ptxi_dptr a;
    size_t n;
    if (ptxi_module_get_global(MODULE(hmod), name, &a, &n) != PTXI_SUCCESS) return CUDA_ERROR_NOT_FOUND;
    if (dptr) *dptr = (CUdeviceptr)a;
    if (bytes) *bytes = n;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod) {
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    if (!module_valid(MODULE(mod))) return CUDA_ERROR_INVALID_HANDLE;
    *count = ptxi_module_kernel_count(MODULE(mod));
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod) {
    if (!functions) return CUDA_ERROR_INVALID_VALUE;
    if (!module_valid(MODULE(mod))) return CUDA_ERROR_INVALID_HANDLE;
    unsigned n = ptxi_module_kernel_count(MODULE(mod));
    for (unsigned i = 0; i < n && i < numFunctions; i++)
        functions[i] = (CUfunction)ptxi_module_kernel_at(MODULE(mod), i);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode) {
    if (!mode) return CUDA_ERROR_INVALID_VALUE;
    *mode = CU_MODULE_EAGER_LOADING;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc) {
    if (!hmod) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    mod_entry *e = entry_of(KERNEL(hfunc));
    if (e) *hmod = (CUmodule)e->m;
    pthread_mutex_unlock(&lock);
    return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CD_EXPORT CUresult cuFuncGetName(const char **name, CUfunction hfunc) {
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    if (!cd_kernel_valid(KERNEL(hfunc))) return CUDA_ERROR_INVALID_HANDLE;
    *name = ptxi_kernel_name(KERNEL(hfunc));
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function) {
    if (!state) return CUDA_ERROR_INVALID_VALUE;
    if (!cd_kernel_valid(KERNEL(function))) return CUDA_ERROR_INVALID_HANDLE;
    *state = CU_FUNCTION_LOADING_STATE_LOADED;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuFuncLoad(CUfunction function) {
    return cd_kernel_valid(KERNEL(function)) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CD_EXPORT CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize) {
    if (!cd_kernel_valid(KERNEL(func))) return CUDA_ERROR_INVALID_HANDLE;
    size_t size, align, offset;
    if (paramIndex >= ptxi_kernel_param_count(KERNEL(func)) ||
        ptxi_kernel_param_info(KERNEL(func), (unsigned)paramIndex, &size, &align, &offset) != PTXI_SUCCESS)
        return CUDA_ERROR_INVALID_VALUE;
    if (paramOffset) *paramOffset = offset;
    if (paramSize) *paramSize = size;
    return CUDA_SUCCESS;
}

/* ---- libraries: context-independent in CUDA; here loaded into the primary context ---- */

CD_EXPORT CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                     void **jitOptionsValues, unsigned int numJitOptions,
                                     CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                     unsigned int numLibraryOptions) {
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!library || !code) return CUDA_ERROR_INVALID_VALUE;
    ptxi_ctx *ctx;
    ptxi_status s = ptxi_primary_ctx(&ctx);
    if (s != PTXI_SUCCESS) return cd_map(s);
    return load_jit(ctx, code, "cuLibraryLoadData", numJitOptions, jitOptions, jitOptionsValues, true,
                    (void **)library);
}

CD_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                                         void **jitOptionsValues, unsigned int numJitOptions,
                                         CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                         unsigned int numLibraryOptions) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!fileName) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    char *data = read_file(fileName, &r, NULL);
    if (!data) return r;
    r = cuLibraryLoadData(library, data, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                          libraryOptionValues, numLibraryOptions);
    free(data);
    return r;
}

CD_EXPORT CUresult cuLibraryUnload(CUlibrary library) { return cuModuleUnload((CUmodule)library); }

CD_EXPORT CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library) {
    if (!pMod) return CUDA_ERROR_INVALID_VALUE;
    if (!module_valid(MODULE(library))) return CUDA_ERROR_INVALID_HANDLE;
    *pMod = (CUmodule)library;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name) {
    return cuModuleGetFunction((CUfunction *)pKernel, (CUmodule)library, name);
}

CD_EXPORT CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib) {
    return cuModuleGetFunctionCount(count, (CUmodule)lib);
}

CD_EXPORT CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib) {
    return cuModuleEnumerateFunctions((CUfunction *)kernels, numKernels, (CUmodule)lib);
}

CD_EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name) {
    return cuModuleGetGlobal_v2(dptr, bytes, (CUmodule)library, name);
}

CD_EXPORT CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name) {
    return cuModuleGetGlobal_v2(dptr, bytes, (CUmodule)library, name);
}

CD_EXPORT CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel) {
    if (!pFunc) return CUDA_ERROR_INVALID_VALUE;
    if (!cd_kernel_valid(KERNEL(kernel))) return CUDA_ERROR_INVALID_HANDLE;
    *pFunc = (CUfunction)kernel;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel) {
    return cuFuncGetModule((CUmodule *)pLib, (CUfunction)kernel);
}

CD_EXPORT CUresult cuKernelGetName(const char **name, CUkernel hfunc) { return cuFuncGetName(name, (CUfunction)hfunc); }

CD_EXPORT CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t *paramSize) {
    return cuFuncGetParamInfo((CUfunction)kernel, paramIndex, paramOffset, paramSize);
}

/* ---- the linker: PTX (and the PTX of fatbinaries) joined into one PTX module ---- */

struct CUlinkState_st {
    char **units;
    size_t n, cap;
    char *out;
    jit_logs logs;
    struct CUlinkState_st *next;
};

/* Live link states: a handle is compared against them before it is read. */
static struct CUlinkState_st *links;

static bool link_valid(CUlinkState st) {
    pthread_mutex_lock(&lock);
    struct CUlinkState_st *p = links;
    while (p && p != st) p = p->next;
    pthread_mutex_unlock(&lock);
    return st && p;
}

CD_EXPORT CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                   CUlinkState *stateOut) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!stateOut) return CUDA_ERROR_INVALID_VALUE;
    struct CUlinkState_st *st = calloc(1, sizeof *st);
    if (!st) return CUDA_ERROR_OUT_OF_MEMORY;
    jit_parse(numOptions, options, optionValues, &st->logs);
    pthread_mutex_lock(&lock);
    st->next = links;
    links = st;
    pthread_mutex_unlock(&lock);
    *stateOut = st;
    return CUDA_SUCCESS;
}

/* Whether a library is NVIDIA's device runtime (libcudadevrt.a: an ar archive of
 * cuda_device_runtime.o). ptxi implements the device runtime's entry points itself, as
 * for the runtime's -rdc programs (runtime/cudart/fatbin.c), so the linker leaves it out. */
static bool device_runtime_library(const char *data, size_t size) {
    static const char member[] = "cuda_device_runtime.o";
    if (size < 8 || memcmp(data, "!<arch>\n", 8)) return false;
    for (size_t i = 8; i + sizeof member - 1 <= size; i++)
        if (!memcmp(data + i, member, sizeof member - 1)) return true;
    return false;
}

static CUresult add_unit(CUlinkState state, CUjitInputType type, const void *data, size_t size, const char *name) {
    char msg[1024];
    const char *what = NULL;
    if (type == CU_JIT_INPUT_LIBRARY && device_runtime_library(data, size)) return CUDA_SUCCESS;
    switch (type) {
    case CU_JIT_INPUT_PTX:
    case CU_JIT_INPUT_FATBINARY: break;
    case CU_JIT_INPUT_CUBIN: what = "a cubin (machine code), which ptxi cannot run; link its PTX instead"; break;
    case CU_JIT_INPUT_OBJECT:
    case CU_JIT_INPUT_LIBRARY: what = "a host object or library; link the PTX of its device code instead"; break;
    default: what = "an input type ptxi's linker does not take (it links PTX and fatbinaries holding PTX)"; break;
    }
    if (what) {
        snprintf(msg, sizeof msg, "cuLinkAddData: %s is %s", name ? name : "an input", what);
        ptxi_warn_once(msg);
        jit_report(&state->logs, msg);
        return type == CU_JIT_INPUT_CUBIN ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_NOT_SUPPORTED;
    }
    char *ptx;
    size_t len;
    CUresult r = image_ptx(data, &ptx, &len, msg, sizeof msg);
    if (r != CUDA_SUCCESS) {
        jit_report(&state->logs, msg);
        return r;
    }
    if (state->n == state->cap) {
        size_t cap = state->cap ? 2 * state->cap : 4;
        char **u = realloc(state->units, cap * sizeof *u);
        if (!u) {
            free(ptx);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        state->units = u, state->cap = cap;
    }
    state->units[state->n++] = ptx;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                                    unsigned int numOptions, CUjit_option *options, void **optionValues) {
    (void)numOptions, (void)options, (void)optionValues;
    if (!link_valid(state) || !data || !size) return CUDA_ERROR_INVALID_VALUE;
    /* PTX need not be NUL-terminated here: size bounds it */
    char *copy = malloc(size + 1);
    if (!copy) return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(copy, data, size);
    copy[size] = 0;
    CUresult r = add_unit(state, type, copy, size, name);
    free(copy);
    return r;
}

CD_EXPORT CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues) {
    (void)numOptions, (void)options, (void)optionValues;
    if (!link_valid(state) || !path) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    size_t size = 0;
    char *data = read_file(path, &r, &size);
    if (!data) return r;
    r = add_unit(state, type, data, size, path);
    free(data);
    return r;
}

CD_EXPORT CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut) {
    if (!link_valid(state) || !cubinOut) return CUDA_ERROR_INVALID_VALUE;
    if (!state->n) return CUDA_ERROR_INVALID_VALUE;
    free(state->out);
    size_t len;
    state->out = cr_ptx_link(state->units, state->n, &len);
    if (!state->out) return CUDA_ERROR_OUT_OF_MEMORY;
    jit_report(&state->logs, NULL);
    *cubinOut = state->out;
    if (sizeOut) *sizeOut = len + 1;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuLinkDestroy(CUlinkState state) {
    pthread_mutex_lock(&lock);
    struct CUlinkState_st **q = &links;
    while (*q && *q != state) q = &(*q)->next;
    bool found = state && *q;
    if (found) *q = state->next;
    pthread_mutex_unlock(&lock);
    if (!found) return CUDA_ERROR_INVALID_HANDLE;
    for (size_t i = 0; i < state->n; i++) free(state->units[i]);
    free(state->units);
    free(state->out);
    free(state);
    return CUDA_SUCCESS;
}
