/* nvrtc.c — a libnvrtc.so.13 in front of NVIDIA's. NVRTC programs compile CUDA C++
 * at run time and most ask for the "cubin" of the GPU they run on (nvrtcGetCUBIN after
 * --gpu-architecture=sm_XX), machine code that ptxi cannot run. NVRTC keeps the PTX it
 * generated on the way for a real architecture too, so this library forwards every
 * call to NVIDIA's libnvrtc and answers nvrtcGetCUBINSize/nvrtcGetCUBIN with the
 * program's PTX (NUL-terminated), which ptxi's cuModuleLoadData takes as the image —
 * as ptxi's libnvJitLink hands out linked PTX as its cubin. A program compiled to
 * LTO IR (-dlto) has no PTX: its cubin request goes to NVIDIA's library unchanged.
 *
 * NVIDIA's library is the first libnvrtc.so.13 that is not this one in $PTXI_NVRTC (a
 * file or a folder), the folders of $LD_LIBRARY_PATH, the CUDA toolkit this one was
 * built against, /usr/local/cuda/lib64 and the system library folders. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <nvrtc.h>

#define EXPORT __attribute__((visibility("default")))

#ifndef PTXI_NVRTC_DIRS
#define PTXI_NVRTC_DIRS ""
#endif

/* The entry points forwarded as they are, then the two this library answers. */
#define NVRTC_FORWARDED(X)                                                                                     \
    X(nvrtcVersion, (int *major, int *minor), (major, minor))                                                  \
    X(nvrtcGetNumSupportedArchs, (int *numArchs), (numArchs))                                                  \
    X(nvrtcGetSupportedArchs, (int *supportedArchs), (supportedArchs))                                         \
    X(nvrtcCreateProgram,                                                                                      \
      (nvrtcProgram * prog, const char *src, const char *name, int numHeaders, const char *const *headers,     \
       const char *const *includeNames),                                                                       \
      (prog, src, name, numHeaders, headers, includeNames))                                                    \
    X(nvrtcDestroyProgram, (nvrtcProgram * prog), (prog))                                                      \
    X(nvrtcCompileProgram, (nvrtcProgram prog, int numOptions, const char *const *options),                    \
      (prog, numOptions, options))                                                                             \
    X(nvrtcGetPTXSize, (nvrtcProgram prog, size_t * ptxSizeRet), (prog, ptxSizeRet))                           \
    X(nvrtcGetPTX, (nvrtcProgram prog, char *ptx), (prog, ptx))                                                \
    X(nvrtcGetLTOIRSize, (nvrtcProgram prog, size_t * LTOIRSizeRet), (prog, LTOIRSizeRet))                     \
    X(nvrtcGetLTOIR, (nvrtcProgram prog, char *LTOIR), (prog, LTOIR))                                          \
    X(nvrtcGetOptiXIRSize, (nvrtcProgram prog, size_t * optixirSizeRet), (prog, optixirSizeRet))               \
    X(nvrtcGetOptiXIR, (nvrtcProgram prog, char *optixir), (prog, optixir))                                    \
    X(nvrtcGetProgramLogSize, (nvrtcProgram prog, size_t * logSizeRet), (prog, logSizeRet))                    \
    X(nvrtcGetProgramLog, (nvrtcProgram prog, char *log), (prog, log))                                         \
    X(nvrtcAddNameExpression, (nvrtcProgram prog, const char *const name_expression), (prog, name_expression)) \
    X(nvrtcGetLoweredName, (nvrtcProgram prog, const char *const name_expression, const char **lowered_name),  \
      (prog, name_expression, lowered_name))                                                                   \
    X(nvrtcGetPCHHeapSize, (size_t * ret), (ret))                                                              \
    X(nvrtcSetPCHHeapSize, (size_t size), (size))                                                              \
    X(nvrtcGetPCHCreateStatus, (nvrtcProgram prog), (prog))                                                    \
    X(nvrtcGetPCHHeapSizeRequired, (nvrtcProgram prog, size_t * size), (prog, size))                           \
    X(nvrtcSetFlowCallback, (nvrtcProgram prog, int (*callback)(void *, void *), void *payload),               \
      (prog, callback, payload))

static struct {
#define FIELD(name, params, args) nvrtcResult(*name) params;
    NVRTC_FORWARDED(FIELD)
#undef FIELD
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t *);
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char *);
    const char *(*nvrtcGetErrorString)(nvrtcResult);
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *lib;

/* Whether path is a file other than this library. */
static int other_library(const char *path) {
    struct stat s, self;
    Dl_info info;
    if (stat(path, &s) != 0 || !S_ISREG(s.st_mode)) return 0;
    if (dladdr((void *)&other_library, &info) && info.dli_fname && stat(info.dli_fname, &self) == 0 &&
        s.st_dev == self.st_dev && s.st_ino == self.st_ino)
        return 0;
    return 1;
}

/* Tries the folders of a ':'-separated list (or a file named by it). */
static void try_list(const char *list) {
    if (lib || !list || !*list) return;
    if (other_library(list) && (lib = dlopen(list, RTLD_NOW | RTLD_LOCAL))) return;
    char *copy = strdup(list), *save = NULL;
    for (char *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !lib; dir = strtok_r(NULL, ":", &save)) {
        char path[4096];
        snprintf(path, sizeof path, "%s/libnvrtc.so.13", dir);
        if (other_library(path)) lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    free(copy);
}

static void load(void) {
    try_list(getenv("PTXI_NVRTC"));
    try_list(getenv("LD_LIBRARY_PATH"));
    try_list(PTXI_NVRTC_DIRS);
    try_list("/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/lib/x86_64-linux-gnu:/usr/lib64:/usr/lib");
    if (!lib) {
        fprintf(stderr, "ptxi: NVIDIA's libnvrtc.so.13 was not found (set PTXI_NVRTC to it)\n");
        return;
    }
#define LOOKUP(name, params, args) *(void **)&real.name = dlsym(lib, #name);
    NVRTC_FORWARDED(LOOKUP)
    LOOKUP(nvrtcGetCUBINSize, , )
    LOOKUP(nvrtcGetCUBIN, , )
    LOOKUP(nvrtcGetErrorString, , )
#undef LOOKUP
}

#define FORWARD(name, params, args)                                     \
    EXPORT nvrtcResult name params {                                    \
        pthread_once(&once, load);                                      \
        return real.name ? real.name args : NVRTC_ERROR_INTERNAL_ERROR; \
    }
NVRTC_FORWARDED(FORWARD)
#undef FORWARD

EXPORT const char *nvrtcGetErrorString(nvrtcResult result) {
    pthread_once(&once, load);
    return real.nvrtcGetErrorString ? real.nvrtcGetErrorString(result) : "NVRTC_ERROR_INTERNAL_ERROR";
}

/* The PTX with its terminating NUL; the real cubin when the program has no PTX. */
EXPORT nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet) {
    pthread_once(&once, load);
    if (!real.nvrtcGetPTXSize || !real.nvrtcGetCUBINSize) return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = real.nvrtcGetPTXSize(prog, cubinSizeRet);
    return r == NVRTC_SUCCESS ? r : real.nvrtcGetCUBINSize(prog, cubinSizeRet);
}

EXPORT nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin) {
    pthread_once(&once, load);
    if (!real.nvrtcGetPTXSize || !real.nvrtcGetPTX || !real.nvrtcGetCUBIN) return NVRTC_ERROR_INTERNAL_ERROR;
    size_t n;
    return real.nvrtcGetPTXSize(prog, &n) == NVRTC_SUCCESS ? real.nvrtcGetPTX(prog, cubin)
                                                           : real.nvrtcGetCUBIN(prog, cubin);
}
