/* state.c — the contexts the runtime works in: the primary context of device 0,
 * created on first use, or the context a driver call made current on the calling
 * thread, each with the program's modules loaded on its first use; the runtime's
 * error model: a per-thread last error, a context-wide sticky error (a device
 * fault), and ptxi statuses mapped to cudaError_t values. Also the error names and
 * versions. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"

cr_space cr_primary;

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool ready;
static cudaError_t init_error;
static _Thread_local cudaError_t last_error;

static pthread_mutex_t spaces_lock = PTHREAD_MUTEX_INITIALIZER;
static cr_space *spaces; /* of contexts other than the primary */

static void on_reset(void *arg);

/* The context is the process's primary one (libptxi), shared with libcuda.so.1. */
static cudaError_t create_ctx(void) {
    ptxi_status s = ptxi_primary_ctx(&cr_primary.ctx);
    if (s != PTXI_SUCCESS) {
        cr_primary.ctx = NULL;
        return cudaErrorInitializationError;
    }
    ptxi_primary_on_reset(on_reset, NULL);
    cr_debug_attach(cr_primary.ctx);
    return cudaSuccess;
}

ptxi_ctx *cr_ctx(void) {
    ptxi_ctx *c = ptxi_current_top();
    return c ? c : ptxi_primary_peek();
}

/* A context the runtime worked in is destroyed (cuCtxDestroy): its modules went with it. */
static void on_destroy(ptxi_ctx *c, void *arg) {
    (void)arg;
    pthread_mutex_lock(&spaces_lock);
    cr_space **p = &spaces;
    while (*p && (*p)->ctx != c) p = &(*p)->next;
    cr_space *gone = *p;
    if (gone) *p = gone->next;
    pthread_mutex_unlock(&spaces_lock);
    if (!gone) return;
    cr_forget_modules(gone);
    free(gone);
}

static pthread_once_t destroy_once = PTHREAD_ONCE_INIT;
static void watch_destroy(void) { ptxi_ctx_on_destroy(on_destroy, NULL); }

cr_space *cr_space_here(void) {
    ptxi_ctx *c = ptxi_current_top();
    if (!c || c == ptxi_primary_peek()) return &cr_primary;
    pthread_once(&destroy_once, watch_destroy);
    pthread_mutex_lock(&spaces_lock);
    cr_space *sp = spaces;
    while (sp && sp->ctx != c) sp = sp->next;
    /* a context on the stack that is no longer live was destroyed by another thread */
    if (!sp && ptxi_ctx_live(c) && (sp = calloc(1, sizeof *sp))) {
        sp->ctx = c;
        sp->next = spaces;
        spaces = sp;
    }
    pthread_mutex_unlock(&spaces_lock);
    return sp;
}

cudaError_t cr_init(void) { return cr_init_ex(true); }

static void load_if_behind(cr_space *sp) {
    if (atomic_load_explicit(&sp->loaded, memory_order_acquire) == cr_registrations()) return;
    pthread_mutex_lock(&init_lock);
    if (atomic_load_explicit(&sp->loaded, memory_order_relaxed) != cr_registrations()) cr_load_modules(sp);
    pthread_mutex_unlock(&init_lock);
}

cudaError_t cr_init_ex(bool promote) {
    if (!atomic_load_explicit(&ready, memory_order_acquire)) {
        pthread_mutex_lock(&init_lock);
        if (!atomic_load_explicit(&ready, memory_order_relaxed)) {
            if (!cr_primary.ctx && !init_error) init_error = create_ctx();
            if (!init_error) cr_load_modules(&cr_primary);
            atomic_store_explicit(&ready, true, memory_order_release);
        }
        pthread_mutex_unlock(&init_lock);
    }
    if (init_error) return init_error;
    /* a thread with no current context gets the primary one, as NVIDIA's
     * runtime binds it: the driver then sees it current there (and may pop it) */
    if (!ptxi_current_top()) ptxi_current_set(cr_primary.ctx);
    cr_space *sp = cr_space_here();
    if (!sp) return cudaErrorDeviceUninitialized; /* as the GPU answers for a destroyed context */
    if (sp != &cr_primary) load_if_behind(sp);
    cudaError_t p = promote ? atomic_exchange(&sp->pending, cudaSuccess) : cudaSuccess;
    if (p) {
        cudaError_t none = cudaSuccess;
        atomic_compare_exchange_strong(&sp->sticky, &none, p);
    }
    cudaError_t st = atomic_load(&sp->sticky);
    /* a call that reports the device's fault is a flush point too: what the
     * failed kernel printed, and its assertion, come out first as on the GPU */
    if (st) ptxi_ctx_synchronize(sp->ctx);
    return st;
}

void cr_late_registration(void) {
    if (!atomic_load_explicit(&ready, memory_order_acquire)) return;
    pthread_mutex_lock(&init_lock);
    if (cr_primary.ctx && !init_error) cr_load_modules(&cr_primary);
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
    cr_space *sp = s != PTXI_SUCCESS && ptxi_error_is_sticky(s) ? cr_space_here() : NULL;
    if (sp) {
        cudaError_t none = cudaSuccess;
        atomic_compare_exchange_strong(&sp->sticky, &none, e);
        atomic_store(&sp->pending, cudaSuccess);
        return cr_ret(atomic_load(&sp->sticky));
    }
    return cr_ret(e);
}

void cr_defer_fault(ptxi_status s) {
    cr_space *sp = cr_space_here();
    cudaError_t none = cudaSuccess;
    if (sp) atomic_compare_exchange_strong(&sp->pending, &none, cr_map(s));
}

cudaError_t cr_sticky(void) {
    cr_space *sp = cr_space_here();
    return sp ? atomic_load(&sp->sticky) : cudaSuccess;
}

static void clear_sticky(void) {
    atomic_store(&cr_primary.sticky, cudaSuccess);
    atomic_store(&cr_primary.pending, cudaSuccess);
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
    cr_forget_modules(&cr_primary);
    cr_load_modules(&cr_primary);
    clear_sticky();
    pthread_mutex_unlock(&init_lock);
}

/* Destroys the primary context's state (memory, modules, streams) and clears a
 * sticky error. */
CR_EXPORT cudaError_t cudaDeviceReset(void) {
    if (!atomic_load_explicit(&ready, memory_order_acquire) || init_error) {
        clear_sticky();
        return cudaSuccess;
    }
    ptxi_primary_reset();
    return cudaSuccess;
}
