/* builtin.h — the built-in device functions: .extern .func declarations that no module
 * defines and the interpreter itself carries out, each named once at lowering
 * (vm_func.builtin) so that a call dispatches on a number. */
#ifndef PTXI_BUILTIN_H
#define PTXI_BUILTIN_H

#include "warp.h"

enum {
    VM_BI_NONE,
    VM_BI_VPRINTF,
    VM_BI_MALLOC,
    VM_BI_ALIGNED_MALLOC,
    VM_BI_FREE,
    VM_BI_ASSERTFAIL,
    /* the device runtime (dynamic parallelism): __cudaCDP2Xxx, or cudaXxx as older PTX names them */
    VM_BI_DEV_FIRST,
    VM_BI_GET_PARAMETER_BUFFER = VM_BI_DEV_FIRST,
    VM_BI_GET_PARAMETER_BUFFER_V2,
    VM_BI_LAUNCH_DEVICE,
    VM_BI_LAUNCH_DEVICE_V2,
    VM_BI_GET_LAST_ERROR,
    VM_BI_PEEK_AT_LAST_ERROR,
    VM_BI_GET_DEVICE,
    VM_BI_GET_DEVICE_COUNT,
    VM_BI_DEVICE_GET_ATTRIBUTE,
    VM_BI_DEVICE_GET_LIMIT,
    VM_BI_RUNTIME_GET_VERSION,
    VM_BI_STREAM_CREATE_WITH_FLAGS,
    VM_BI_STREAM_DESTROY,
    VM_BI_STREAM_WAIT_EVENT,
    VM_BI_EVENT_CREATE_WITH_FLAGS,
    VM_BI_EVENT_RECORD,
    VM_BI_EVENT_DESTROY,
    VM_BI_DEV_MALLOC,
    VM_BI_DEV_FREE,
    VM_BI_MEMCPY_ASYNC,
    VM_BI_MEMSET_ASYNC,
    VM_BI_GET_ERROR_NAME,
    VM_BI_GET_ERROR_STRING,
    VM_BI_DEV_UNSUPPORTED, /* a device-runtime call ptxi does not carry out */
};

/* Memory as one thread sees it through a generic address: n bytes at `a`, or NULL. */
uint8_t *vm_lane_ptr(vm_warp *w, int lane, uint64_t a, size_t n);

/* A call of a built-in device function (callee->builtin, or a host library's
 * function) by the given lanes; 0, or -1 after a fault (builtin.c). */
int vm_builtin_call(vm_warp *w, const vm_insn *i, vm_func *callee, uint32_t lanes);

/* A device-runtime call by the given lanes; 0, or -1 after a fault. */
int vm_devrt_call(vm_warp *w, const vm_insn *i, vm_func *callee, uint32_t lanes);

#endif
