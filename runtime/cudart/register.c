/* register.c — the registration protocol of nvcc's host stubs (__cudaRegisterFatBinary,
 * __cudaRegisterFunction, __cudaRegisterVar, ...): remembers each fatbinary's PTX and
 * which host address stands for which kernel or variable, and loads the PTX into each
 * ptxi context the runtime works in when it first does (state.c's spaces). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"

struct cr_fatbin {
    const void *wrapper;
    char *ptx;
    size_t len;
    unsigned arch;
    cudaError_t err; /* why this fatbinary cannot run, once known */
    char msg[512];
    bool reported;
    cr_fatbin *next;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static cr_fatbin *fatbins;
static cr_ptrmap funcs, vars;
static _Atomic unsigned long registrations = 1; /* a fresh space's `loaded` (0) is behind */

unsigned long cr_registrations(void) { return atomic_load_explicit(&registrations, memory_order_acquire); }

static const char *program_name(void) {
    extern char *program_invocation_short_name;
    return program_invocation_short_name;
}

CR_EXPORT void **__cudaRegisterFatBinary(void *fatCubin) {
    cr_fatbin *fb = calloc(1, sizeof *fb);
    if (!fb) abort();
    fb->wrapper = fatCubin;
    fb->err = cr_fatbin_ptx(fatCubin, &fb->ptx, &fb->len, &fb->arch, fb->msg, sizeof fb->msg);
    const char *dump = getenv("PTXI_DUMP_PTX");
    if (dump && fb->ptx) {
        /* For looking at what will run: DIR/<program>.<n>.compute_XX.ptx */
        static int seq; /* shared objects may be opened by several threads at once */
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%d.compute_%u.ptx", dump, program_name(),
                 __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED), fb->arch);
        FILE *f = fopen(path, "w");
        if (f) {
            fwrite(fb->ptx, 1, fb->len, f);
            fclose(f);
        }
    }
    pthread_mutex_lock(&reg_lock);
    fb->next = fatbins;
    fatbins = fb;
    pthread_mutex_unlock(&reg_lock);
    atomic_fetch_add(&registrations, 1);
    return (void **)fb;
}

/* Its kernels and variables are registered by now. */
CR_EXPORT void __cudaRegisterFatBinaryEnd(void **fatCubinHandle) {
    (void)fatCubinHandle;
    atomic_fetch_add(&registrations, 1);
    cr_late_registration();
}

/* The program is exiting (atexit) or a shared object is unloaded: forget its
 * registrations. Pending device printf output is not flushed, as on a GPU. */
CR_EXPORT void __cudaUnregisterFatBinary(void **fatCubinHandle) {
    cr_fatbin *fb = (cr_fatbin *)fatCubinHandle;
    pthread_mutex_lock(&reg_lock);
    for (cr_fatbin **p = &fatbins; *p; p = &(*p)->next)
        if (*p == fb) {
            *p = fb->next;
            break;
        }
    for (size_t i = 0; i < funcs.cap; i++) {
        cr_func *f = funcs.vals[i];
        if (f && f->fb == fb) f->fb = NULL;
    }
    for (size_t i = 0; i < vars.cap; i++) {
        cr_var *v = vars.vals[i];
        if (v && v->fb == fb) v->fb = NULL;
    }
    pthread_mutex_unlock(&reg_lock);
    /* The records stay allocated: a late stub call must find a dead entry, not freed memory. */
}

CR_EXPORT void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim,
                                      dim3 *gDim, int *wSize) {
    (void)deviceName, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    cr_func *f = calloc(1, sizeof *f);
    if (!f) abort();
    *f = (cr_func){hostFun, deviceFun, (cr_fatbin *)fatCubinHandle, -1};
    pthread_mutex_lock(&reg_lock);
    cr_map_put(&funcs, hostFun, f);
    pthread_mutex_unlock(&reg_lock);
}

static void add_var(void **handle, const void *host, const char *name, size_t size, bool constant, bool managed) {
    cr_var *v = calloc(1, sizeof *v);
    if (!v) abort();
    *v = (cr_var){host, name, (cr_fatbin *)handle, size, constant, managed};
    pthread_mutex_lock(&reg_lock);
    cr_map_put(&vars, host, v);
    pthread_mutex_unlock(&reg_lock);
}

/* ext=1 marks an `extern __device__` declaration (relocatable device code): its
 * storage is defined by another translation unit and found by name at load time. */
CR_EXPORT void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName,
                                 int ext, size_t size, int constant, int global) {
    (void)deviceName, (void)ext, (void)global;
    add_var(fatCubinHandle, hostVar, deviceAddress, size, constant, false);
}

/* A __managed__ variable: the host reaches it through the pointer at hostVarPtrAddress,
 * which is set to the device address when the module is loaded. */
CR_EXPORT void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                                        const char *deviceName, int ext, size_t size, int constant, int global) {
    (void)deviceName, (void)ext, (void)global;
    add_var(fatCubinHandle, hostVarPtrAddress, deviceAddress, size, constant, true);
}

CR_EXPORT void __cudaRegisterHostVar(void **fatCubinHandle, const char *deviceName, char *hostVar, size_t size) {
    (void)fatCubinHandle, (void)deviceName, (void)hostVar, (void)size;
    cr_warn_once("__cudaRegisterHostVar is not implemented");
}

/* Called by host code before it first touches a __managed__ variable. */
CR_EXPORT char __cudaInitModule(void **fatCubinHandle) {
    (void)fatCubinHandle;
    return cr_init() == cudaSuccess;
}

static void report(cr_fatbin *fb) {
    if (fb->reported) return;
    fb->reported = true;
    fprintf(stderr, "ptxi: %s: %s\n", program_name(), fb->msg);
}

/* A fatbinary that cannot be loaded is reported once and fails its own kernels'
 * launches, not every call of the program. */
void cr_load_modules(cr_space *sp) {
    unsigned long now = cr_registrations(); /* a registration after this loads again */
    bool primary = sp == &cr_primary;
    pthread_mutex_lock(&reg_lock);
    for (cr_fatbin *fb = fatbins; fb; fb = fb->next) {
        if (cr_map_get(&sp->mods, fb) || fb->err) continue;
        char name[300];
        snprintf(name, sizeof name, "%s.compute_%u.ptx", program_name(), fb->arch);
        ptxi_module *mod = NULL;
        /* the primary context loads first; another shares its __managed__ variables */
        ptxi_module *twin = primary ? NULL : cr_map_get(&cr_primary.mods, fb);
        ptxi_status s = ptxi_module_load_twin(sp->ctx, fb->ptx, fb->len, name, twin, &mod);
        if (s != PTXI_SUCCESS) {
            fb->err = s == PTXI_INVALID_PTX || s == PTXI_UNSUPPORTED_PTX ? cudaErrorInvalidPtx : cr_map(s);
            const char *detail = ptxi_ctx_error_detail(sp->ctx);
            snprintf(fb->msg, sizeof fb->msg, "its PTX (compute_%u) cannot be loaded: %s%s%s", fb->arch,
                     ptxi_error_string(s), detail && *detail ? "\n" : "", detail ? detail : "");
            continue;
        }
        cr_map_put(&sp->mods, fb, mod);
        if (primary) cr_debug_module(mod, fb->ptx, fb->len);
    }
    for (size_t i = 0; i < funcs.cap; i++) {
        cr_func *f = funcs.vals[i];
        ptxi_module *mod = f && f->fb ? cr_map_get(&sp->mods, f->fb) : NULL;
        ptxi_kernel *k;
        if (!mod || cr_map_get(&sp->kernels, f) || ptxi_module_get_kernel(mod, f->name, &k) != PTXI_SUCCESS) continue;
        cr_map_put(&sp->kernels, f, k);
        /* an opt-in cudaFuncSetAttribute gave it in another context holds here too */
        int opt_in = __atomic_load_n(&f->max_dyn_shared, __ATOMIC_RELAXED);
        if (opt_in >= 0) ptxi_kernel_set_attr(k, PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES, opt_in);
    }
    for (size_t i = 0; i < vars.cap; i++) {
        cr_var *v = vars.vals[i];
        ptxi_module *mod = v && v->fb ? cr_map_get(&sp->mods, v->fb) : NULL;
        ptxi_dptr addr;
        size_t bytes;
        if (!mod || cr_map_get(&sp->addrs, v) ||
            ptxi_module_get_global(mod, v->name, &addr, &bytes) != PTXI_SUCCESS || !addr)
            continue;
        cr_map_put(&sp->addrs, v, (void *)(uintptr_t)addr);
        /* the host reaches a __managed__ variable through one pointer: the primary's */
        if (v->managed && primary) *(void **)v->host_var = (void *)(uintptr_t)addr;
    }
    for (cr_fatbin *fb = fatbins; fb; fb = fb->next)
        if (fb->err) report(fb);
    pthread_mutex_unlock(&reg_lock);
    atomic_store_explicit(&sp->loaded, now, memory_order_release);
    if (primary) cr_debug_loaded();
}

void cr_forget_modules(cr_space *sp) {
    pthread_mutex_lock(&reg_lock);
    cr_map_free(&sp->mods);
    cr_map_free(&sp->kernels);
    cr_map_free(&sp->addrs);
    atomic_store(&sp->loaded, 0);
    pthread_mutex_unlock(&reg_lock);
}

cr_func *cr_find_func(const void *host_fun) {
    pthread_mutex_lock(&reg_lock);
    cr_func *f = cr_map_get(&funcs, host_fun);
    pthread_mutex_unlock(&reg_lock);
    return f;
}

/* By its host shadow; a __managed__ variable also by its own address, which is what
 * `&var` gives in host code once the runtime has set the variable up. */
cr_var *cr_find_var(const void *host_var) {
    pthread_mutex_lock(&reg_lock);
    cr_var *v = cr_map_get(&vars, host_var);
    for (size_t i = 0; !v && host_var && i < vars.cap; i++) {
        cr_var *m = vars.vals[i];
        if (m && m->managed && cr_map_get(&cr_primary.addrs, m) == host_var) v = m;
    }
    pthread_mutex_unlock(&reg_lock);
    return v;
}

/* An address that is no registered kernel is an invalid handle (as CUDA 13 answers).
 * Under the lock: another thread may be loading modules or unregistering. */
static cudaError_t kernel_of(cr_func *f, ptxi_kernel **out) {
    if (!f) return cudaErrorInvalidResourceHandle;
    cr_space *sp = cr_space_here();
    pthread_mutex_lock(&reg_lock);
    ptxi_kernel *k = sp ? cr_map_get(&sp->kernels, f) : NULL;
    cudaError_t e = !f->fb       ? cudaErrorInvalidDeviceFunction
                    : f->fb->err ? f->fb->err
                    : !k         ? cudaErrorInvalidDeviceFunction
                                 : cudaSuccess;
    if (e == cudaSuccess) *out = k;
    pthread_mutex_unlock(&reg_lock);
    return e;
}

cudaError_t cr_kernel_of(const void *host_fun, ptxi_kernel **out) { return kernel_of(cr_find_func(host_fun), out); }

cudaError_t cr_kernel_of_handle(cudaKernel_t h, ptxi_kernel **out) { return kernel_of((cr_func *)h, out); }

/* The kernel handle the launch macro caches is our record for the stub. */
CR_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr) {
    cr_func *f = cr_find_func(entryFuncAddr);
    if (!kernelPtr) return cr_ret(cudaErrorInvalidValue);
    *kernelPtr = (cudaKernel_t)f;
    return f ? cudaSuccess : cr_ret(cudaErrorInvalidDeviceFunction);
}

CR_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr) {
    return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

CR_EXPORT cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr) {
    /* a CUfunction: libcuda's handle for the kernel (the graph calls take it) */
    CR_ENTER();
    ptxi_kernel *k = NULL;
    if (!functionPtr) return cr_ret(cudaErrorInvalidValue);
    cudaError_t e = cr_kernel_of(symbolPtr, &k);
    *functionPtr = (cudaFunction_t)k;
    return e == cudaSuccess ? cudaSuccess : cr_ret(cudaErrorInvalidDeviceFunction);
}

CR_EXPORT cudaError_t cudaFuncGetName(const char **name, const void *func) {
    cr_func *f = cr_find_func(func);
    if (!name) return cr_ret(cudaErrorInvalidValue);
    if (!f) return cr_ret(cudaErrorInvalidDeviceFunction);
    *name = f->name;
    return cudaSuccess;
}

ptxi_module *cr_var_module(const cr_var *v) {
    cr_space *sp = cr_space_here();
    pthread_mutex_lock(&reg_lock);
    ptxi_module *m = sp && v && v->fb ? cr_map_get(&sp->mods, v->fb) : NULL;
    pthread_mutex_unlock(&reg_lock);
    return m;
}

ptxi_dptr cr_var_addr(const cr_var *v) {
    cr_space *sp = cr_space_here();
    pthread_mutex_lock(&reg_lock);
    ptxi_dptr a = sp && v && v->fb ? (ptxi_dptr)(uintptr_t)cr_map_get(&sp->addrs, v) : 0;
    pthread_mutex_unlock(&reg_lock);
    return a;
}
