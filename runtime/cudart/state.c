/* state.c — the context behind device 0, created on first use, and the runtime's error
 * model: a per-thread last error, a context-wide sticky error (a device fault), and
 * ptxi statuses mapped to cudaError_t values. Also the error names and versions. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"

ptxi_ctx *cr_ctx;

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool ready;
static cudaError_t init_error;
static _Atomic cudaError_t sticky, pending;
static _Thread_local cudaError_t last_error;

static void on_reset(void *arg);

/* The context is the process's primary one (libptxi), shared with libcuda.so.1. */
static cudaError_t create_ctx(void) {
    ptxi_status s = ptxi_primary_ctx(&cr_ctx);
    if (s != PTXI_SUCCESS) {
        cr_ctx = NULL;
        return cudaErrorInitializationError;
    }
    ptxi_primary_on_reset(on_reset, NULL);
    cr_debug_attach(cr_ctx);
    return cudaSuccess;
}

cudaError_t cr_init(void) { return cr_init_ex(true); }

cudaError_t cr_init_ex(bool promote) {
    if (!atomic_load_explicit(&ready, memory_order_acquire)) {
        pthread_mutex_lock(&init_lock);
        if (!atomic_load_explicit(&ready, memory_order_relaxed)) {
            if (!cr_ctx && !init_error) init_error = create_ctx();
            if (!init_error) cr_load_modules();
            atomic_store_explicit(&ready, true, memory_order_release);
        }
        pthread_mutex_unlock(&init_lock);
    }
    if (init_error) return init_error;
    cudaError_t p = promote ? atomic_exchange(&pending, cudaSuccess) : cudaSuccess;
    if (p) {
        cudaError_t none = cudaSuccess;
        atomic_compare_exchange_strong(&sticky, &none, p);
    }
    cudaError_t st = atomic_load(&sticky);
    /* a call that reports the device's fault is a flush point too: what the
     * failed kernel printed, and its assertion, come out first as on the GPU */
    if (st && cr_ctx) ptxi_ctx_synchronize(cr_ctx);
    return st;
}

void cr_late_registration(void) {
    if (!atomic_load_explicit(&ready, memory_order_acquire)) return;
    pthread_mutex_lock(&init_lock);
    if (cr_ctx && !init_error) cr_load_modules();
    pthread_mutex_unlock(&init_lock);
}

_Thread_local const char *cr_api;

/* Sanitize mode: a failed call is recorded under the name of the API call
 * that returns it (CR_ENTER notes it). */
static void sanitize_record(cudaError_t e) {
    if (e == cudaErrorNotReady || !cr_api || !ptxi_sanitizer()) return;
    ptxi_sanitize_api_error(cr_api, cudaGetErrorName(e), (int)e, cudaGetErrorString(e));
}

cudaError_t cr_ret(cudaError_t e) {
    if (e != cudaSuccess) {
        last_error = e;
        sanitize_record(e);
    }
    return e;
}

cudaError_t cr_map(ptxi_status s) {
    switch (s) {
    case PTXI_SUCCESS: return cudaSuccess;
    case PTXI_INVALID_VALUE: return cudaErrorInvalidValue;
    case PTXI_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case PTXI_NOT_INITIALIZED: return cudaErrorInitializationError;
    case PTXI_INVALID_CONTEXT: return cudaErrorDeviceUninitialized;
    case PTXI_NOT_READY: return cudaErrorNotReady;
    case PTXI_INVALID_PTX: return cudaErrorInvalidPtx;
    case PTXI_UNSUPPORTED_PTX: return cudaErrorUnsupportedPtxVersion;
    case PTXI_NOT_FOUND: return cudaErrorInvalidSymbol;
    case PTXI_INVALID_HANDLE: return cudaErrorInvalidResourceHandle;
    case PTXI_INVALID_CONFIGURATION: return cudaErrorInvalidConfiguration;
    case PTXI_LAUNCH_OUT_OF_RESOURCES: return cudaErrorLaunchOutOfResources;
    case PTXI_INVALID_PARAMETERS: return cudaErrorInvalidValue;
    case PTXI_UNRESOLVED_EXTERN: return cudaErrorInvalidPtx;
    case PTXI_NOT_SUPPORTED: return cudaErrorNotSupported;
    case PTXI_NOT_PERMITTED: return cudaErrorNotPermitted;
    case PTXI_IO: return cudaErrorFileNotFound;
    case PTXI_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case PTXI_MISALIGNED_ADDRESS: return cudaErrorMisalignedAddress;
    case PTXI_ASSERT: return cudaErrorAssert;
    case PTXI_LAUNCH_FAILED: return cudaErrorLaunchFailure;
    case PTXI_LAUNCH_TIMEOUT: return cudaErrorLaunchTimeout;
    case PTXI_ILLEGAL_INSTRUCTION: return cudaErrorIllegalInstruction;
    case PTXI_STACK_OVERFLOW: return cudaErrorIllegalAddress;
    case PTXI_BARRIER_DEADLOCK: return cudaErrorLaunchFailure;
    case PTXI_INVALID_ADDRESS_SPACE: return cudaErrorInvalidAddressSpace;
    }
    return cudaErrorUnknown;
}

cudaError_t cr_st(ptxi_status s) {
    cudaError_t e = cr_map(s);
    if (s != PTXI_SUCCESS && ptxi_error_is_sticky(s)) {
        cudaError_t none = cudaSuccess;
        atomic_compare_exchange_strong(&sticky, &none, e);
        atomic_store(&pending, cudaSuccess);
        return cr_ret(atomic_load(&sticky));
    }
    return cr_ret(e);
}

void cr_defer_fault(ptxi_status s) {
    cudaError_t none = cudaSuccess;
    atomic_compare_exchange_strong(&pending, &none, cr_map(s));
}

cudaError_t cr_sticky(void) { return atomic_load(&sticky); }

static void clear_sticky(void) {
    atomic_store(&sticky, cudaSuccess);
    atomic_store(&pending, cudaSuccess);
    last_error = cudaSuccess;
}

void cr_warn_once(const char *what) { ptxi_warn_once(what); }

/* The last error is the thread's own and is cleared by reading it, even a sticky one
 * (as recorded on an H100): the sticky error comes back from every later call instead. */
CR_EXPORT cudaError_t cudaGetLastError(void) {
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

CR_EXPORT cudaError_t cudaPeekAtLastError(void) { return last_error; }

static const struct {
    int code;
    const char *name, *text;
} errors[] = {
#define X(v, n, t) {v, #n, t},
#include "errors.def"
#undef X
};

static int error_index(cudaError_t e) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == (int)e) return (int)i;
    return -1;
}

CR_EXPORT const char *cudaGetErrorName(cudaError_t error) {
    int i = error_index(error);
    return i < 0 ? "unrecognized error code" : errors[i].name;
}

CR_EXPORT const char *cudaGetErrorString(cudaError_t error) {
    int i = error_index(error);
    return i < 0 ? "unrecognized error code" : errors[i].text;
}

CR_EXPORT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
    if (!runtimeVersion) return cr_ret(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaDriverGetVersion(int *driverVersion) {
    if (!driverVersion) return cr_ret(cudaErrorInvalidValue);
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

/* After the primary context is reset (cudaDeviceReset here, cuDevicePrimaryCtxReset
 * in libcuda.so.1) the sticky error is gone and the program's modules are loaded
 * again at once, so that __managed__ variables, which the host reaches without
 * calling the runtime, point at live memory. */
static void on_reset(void *arg) {
    (void)arg;
    pthread_mutex_lock(&init_lock);
    cr_forget_modules();
    cr_load_modules();
    clear_sticky();
    pthread_mutex_unlock(&init_lock);
}

/* Destroys the device's state (memory, modules, streams) and clears a sticky error. */
CR_EXPORT cudaError_t cudaDeviceReset(void) {
    if (!cr_ctx) {
        clear_sticky();
        return cudaSuccess;
    }
    ptxi_primary_reset();
    return cudaSuccess;
}
