/* devrt.c — the built-in device functions by name, and the device runtime's calls
 * (dynamic parallelism: __cudaCDP2GetParameterBufferV2, __cudaCDP2LaunchDeviceV2, device-side
 * streams, events, errors and queries). This file decodes each call's parameters per
 * thread and writes its results; the host runtime (vm_runtime.devrt) queues the launches
 * and keeps each thread's last error. */
#include <string.h>

#include "builtin.h"
#include "exec_mem.h"

#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_NOT_SUPPORTED 801
#define CUDA_RUNTIME_VERSION 13000

static const struct {
    const char *name;
    int id;
} names[] = {
    {"vprintf", VM_BI_VPRINTF},
    {"malloc", VM_BI_MALLOC},
    {"__nv_aligned_device_malloc", VM_BI_ALIGNED_MALLOC},
    {"__cuda_syscall_aligned_malloc", VM_BI_ALIGNED_MALLOC},
    {"free", VM_BI_FREE},
    {"__assertfail", VM_BI_ASSERTFAIL},
    {"GetParameterBuffer", VM_BI_GET_PARAMETER_BUFFER},
    {"GetParameterBufferV2", VM_BI_GET_PARAMETER_BUFFER_V2},
    {"LaunchDevice", VM_BI_LAUNCH_DEVICE},
    {"LaunchDeviceV2", VM_BI_LAUNCH_DEVICE_V2},
    {"GetLastError", VM_BI_GET_LAST_ERROR},
    {"PeekAtLastError", VM_BI_PEEK_AT_LAST_ERROR},
    {"GetDevice", VM_BI_GET_DEVICE},
    {"GetDeviceCount", VM_BI_GET_DEVICE_COUNT},
    {"DeviceGetAttribute", VM_BI_DEVICE_GET_ATTRIBUTE},
    {"DeviceGetLimit", VM_BI_DEVICE_GET_LIMIT},
    {"RuntimeGetVersion", VM_BI_RUNTIME_GET_VERSION},
    {"StreamCreateWithFlags", VM_BI_STREAM_CREATE_WITH_FLAGS},
    {"StreamDestroy", VM_BI_STREAM_DESTROY},
    {"StreamWaitEvent", VM_BI_STREAM_WAIT_EVENT},
    {"EventCreateWithFlags", VM_BI_EVENT_CREATE_WITH_FLAGS},
    {"EventRecord", VM_BI_EVENT_RECORD},
    {"EventDestroy", VM_BI_EVENT_DESTROY},
    {"Malloc", VM_BI_DEV_MALLOC},
    {"Free", VM_BI_DEV_FREE},
    {"GetErrorName", VM_BI_GET_ERROR_NAME},
    {"GetErrorString", VM_BI_GET_ERROR_STRING},
    {"DeviceGetCacheConfig", VM_BI_DEV_UNSUPPORTED},
    {"DeviceGetSharedMemConfig", VM_BI_DEV_UNSUPPORTED},
    {"FuncGetAttributes", VM_BI_DEV_UNSUPPORTED},
    {"MemcpyAsync", VM_BI_MEMCPY_ASYNC},
    {"Memcpy2DAsync", VM_BI_DEV_UNSUPPORTED},
    {"Memcpy3DAsync", VM_BI_DEV_UNSUPPORTED},
    {"MemsetAsync", VM_BI_MEMSET_ASYNC},
    {"Memset2DAsync", VM_BI_DEV_UNSUPPORTED},
    {"Memset3DAsync", VM_BI_DEV_UNSUPPORTED},
    {"OccupancyMaxActiveBlocksPerMultiprocessor", VM_BI_DEV_UNSUPPORTED},
    {"OccupancyMaxActiveBlocksPerMultiprocessorWithFlags", VM_BI_DEV_UNSUPPORTED},
};

/* The device runtime's entry points: __cudaCDP2Xxx as nvcc 12+ calls them, cudaXxx as
 * the library itself (and older PTX) names them, either with the per-thread-stream
 * suffix _ptsz. The plain C library names (malloc, free) match exactly. */
int vm_builtin_id(const char *name) {
    char base[96];
    const char *n = name;
    bool devrt = false;
    if (!strncmp(n, "__cudaCDP2", 10)) n += 10, devrt = true;
    else if (!strncmp(n, "cuda", 4)) n += 4, devrt = true;
    size_t len = strlen(n);
    if (len >= sizeof base) return VM_BI_NONE;
    memcpy(base, n, len + 1);
    if (devrt && len > 5 && !strcmp(base + len - 5, "_ptsz")) base[len - 5] = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if ((names[k].id >= VM_BI_DEV_FIRST) == devrt && !strcmp(names[k].name, base)) return names[k].id;
    return VM_BI_NONE;
}

typedef struct call {
    vm_warp *w;
    const vm_insn *i;
    const vm_callinfo *ci;
    uint8_t *fb;
    int lane;
} call;

static uint8_t *arg_bytes(const call *c, unsigned k) {
    return c->fb + c->ci->argoff[k] + (size_t)c->lane * c->ci->argsize[k];
}

static uint64_t arg(const call *c, unsigned k) {
    if (k >= c->ci->nargs) return 0;
    unsigned n = c->ci->argsize[k];
    return load_bits(arg_bytes(c, k), n > 8 ? 8 : n, false);
}

static void dim3_arg(const call *c, unsigned k, uint32_t d[3]) {
    d[0] = d[1] = d[2] = 1;
    if (k < c->ci->nargs && c->ci->argsize[k] >= 12) memcpy(d, arg_bytes(c, k), 12);
}

static void ret(const call *c, uint64_t v) {
    if (!c->ci->nrets) return;
    unsigned n = c->ci->retsize[0];
    store_bits(c->fb + c->ci->retoff[0] + (size_t)c->lane * c->ci->retsize[0], n > 8 ? 8 : n, v);
}

/* Stores a result through the pointer the caller passed; false after a fault. */
static bool put(const call *c, uint64_t addr, uint64_t v, unsigned n) {
    uint8_t *p = vm_lane_ptr(c->w, c->lane, addr, n);
    if (!p) {
        vm_fault_at(c->w, c->i, c->lane, PTXI_ILLEGAL_ADDRESS, "%s: the result pointer 0x%llx is not writable memory",
                    ((const vm_callinfo *)c->i->p)->callee->ir->name, (unsigned long long)addr);
        return false;
    }
    store_bits(p, n, v);
    return true;
}

/* The kernel a device launch names: an .entry of the calling program, else NULL. */
static const vm_func *kernel_at(const vm_program *prog, uint64_t addr) {
    for (uint32_t k = 0; k < prog->nfuncs; k++)
        if (prog->funcs[k].fnaddr == addr && prog->funcs[k].ir->is_entry) return &prog->funcs[k];
    return NULL;
}

/* One thread's call: the cudaError_t it returns, or -1 after a fault. */
static int one(const call *c, vm_func *callee, vm_runtime *rt, vm_devcall *d) {
    vm_warp *w = c->w;
    const vm_program *prog = w->frames[w->depth - 1].fn->prog;
    switch (callee->builtin) {
    case VM_BI_GET_PARAMETER_BUFFER:
        d->op = VM_DEV_PARAM_BUFFER;
        d->a[0] = arg(c, 0), d->a[1] = arg(c, 1);
        break;
    case VM_BI_GET_PARAMETER_BUFFER_V2:
        d->op = VM_DEV_PARAM_BUFFER;
        d->func = kernel_at(prog, arg(c, 0));
        dim3_arg(c, 1, d->g);
        dim3_arg(c, 2, d->b);
        d->shmem = (uint32_t)arg(c, 3);
        if (!d->func) {
            ret(c, 0);
            return 98; /* cudaErrorInvalidDeviceFunction */
        }
        break;
    case VM_BI_LAUNCH_DEVICE:
        d->op = VM_DEV_LAUNCH;
        d->func = kernel_at(prog, arg(c, 0));
        d->a[0] = arg(c, 1);
        dim3_arg(c, 2, d->g);
        dim3_arg(c, 3, d->b);
        d->shmem = (uint32_t)arg(c, 4);
        d->a[1] = arg(c, 5);
        if (!d->func) return 98;
        break;
    case VM_BI_LAUNCH_DEVICE_V2:
        d->op = VM_DEV_LAUNCH;
        d->a[0] = arg(c, 0), d->a[1] = arg(c, 1);
        break;
    case VM_BI_GET_LAST_ERROR:
    case VM_BI_PEEK_AT_LAST_ERROR:
        d->op = VM_DEV_LAST_ERROR;
        d->a[0] = callee->builtin == VM_BI_GET_LAST_ERROR;
        rt->devrt(rt->ctx, d);
        return (int)d->out;
    case VM_BI_GET_DEVICE: return put(c, arg(c, 0), 0, 4) ? 0 : -1;
    case VM_BI_GET_DEVICE_COUNT: return put(c, arg(c, 0), 1, 4) ? 0 : -1;
    case VM_BI_RUNTIME_GET_VERSION: return put(c, arg(c, 0), CUDA_RUNTIME_VERSION, 4) ? 0 : -1;
    case VM_BI_DEVICE_GET_ATTRIBUTE:
        d->op = VM_DEV_ATTRIBUTE;
        d->a[0] = arg(c, 1), d->a[1] = arg(c, 2);
        break;
    case VM_BI_DEVICE_GET_LIMIT:
        d->op = VM_DEV_LIMIT;
        d->a[0] = arg(c, 1);
        break;
    case VM_BI_STREAM_CREATE_WITH_FLAGS:
    case VM_BI_EVENT_CREATE_WITH_FLAGS: d->op = VM_DEV_HANDLE; break;
    case VM_BI_STREAM_DESTROY:
    case VM_BI_STREAM_WAIT_EVENT:
    case VM_BI_EVENT_RECORD:
    case VM_BI_EVENT_DESTROY:
        /* Child grids run in the order they were launched (after the grid that launched
         * them), which keeps every stream's order and every wait on an event recorded
         * before it: these calls need nothing more than a handle. */
        return arg(c, 0) ? 0 : 400; /* cudaErrorInvalidResourceHandle */
    case VM_BI_MEMCPY_ASYNC:        /* (dst, src, bytes, kind, stream) */
        d->op = VM_DEV_MEMCPY;
        d->a[0] = arg(c, 0), d->a[1] = arg(c, 1), d->a[2] = arg(c, 2), d->a[3] = arg(c, 4);
        break;
    case VM_BI_MEMSET_ASYNC: /* (dst, value, bytes, stream) */
        d->op = VM_DEV_MEMSET;
        d->a[0] = arg(c, 0), d->a[1] = arg(c, 1) & 0xff, d->a[2] = arg(c, 2), d->a[3] = arg(c, 3);
        break;
    case VM_BI_GET_ERROR_NAME:
    case VM_BI_GET_ERROR_STRING:
        d->op = VM_DEV_ERROR_TEXT;
        d->a[0] = arg(c, 0), d->a[1] = callee->builtin == VM_BI_GET_ERROR_STRING;
        rt->devrt(rt->ctx, d);
        ret(c, d->out);
        return 0;
    case VM_BI_DEV_MALLOC: {
        uint64_t p = rt->malloc(rt->ctx, arg(c, 1), 16);
        if (!put(c, arg(c, 0), p, 8)) return -1;
        return p ? 0 : 2; /* cudaErrorMemoryAllocation */
    }
    case VM_BI_DEV_FREE: {
        uint64_t p = arg(c, 0);
        return p && rt->free(rt->ctx, p) ? CUDA_ERROR_INVALID_VALUE : 0;
    }
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    int e = rt->devrt(rt->ctx, d);
    switch (callee->builtin) {
    case VM_BI_GET_PARAMETER_BUFFER:
    case VM_BI_GET_PARAMETER_BUFFER_V2: ret(c, e ? 0 : d->out); return e;
    case VM_BI_DEVICE_GET_ATTRIBUTE: return e || put(c, arg(c, 0), d->out, 4) ? e : -1;
    case VM_BI_DEVICE_GET_LIMIT: return e || put(c, arg(c, 0), d->out, 8) ? e : -1;
    case VM_BI_STREAM_CREATE_WITH_FLAGS:
    case VM_BI_EVENT_CREATE_WITH_FLAGS: return put(c, arg(c, 0), d->out, 8) ? e : -1;
    default: return e;
    }
}

int vm_devrt_call(vm_warp *w, const vm_insn *i, vm_func *callee, uint32_t lanes) {
    vm_frame *fr = &w->frames[w->depth - 1];
    vm_runtime *rt = fr->fn->prog->rt;
    const vm_launch_cfg *cfg = w->cta->grid->cfg;
    uint32_t per_cta = cfg->block[0] * cfg->block[1] * cfg->block[2];
    for (int l = 0; l < VM_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        call c = {w, i, i->p, fr->fb, l};
        if (!rt->devrt || !cfg->devq) {
            vm_fault_at(w, i, l, PTXI_UNRESOLVED_EXTERN, "call to '%s': device-side launches need the CUDA runtime",
                        callee->ir->name);
            return -1;
        }
        vm_devcall d = {.grid = cfg->devq, .thread = w->cta->linear * per_cta + w->id * VM_LANES + (unsigned)l};
        int e = one(&c, callee, rt, &d);
        if (e < 0) return -1;
        if (d.op != VM_DEV_PARAM_BUFFER && d.op != VM_DEV_ERROR_TEXT) ret(&c, (uint64_t)e);
        if (e && d.op != VM_DEV_LAST_ERROR) {
            vm_devcall s = {.op = VM_DEV_SET_ERROR, .grid = cfg->devq, .thread = d.thread, .a = {(uint64_t)e}};
            rt->devrt(rt->ctx, &s);
        }
    }
    return 0;
}
