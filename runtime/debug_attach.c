/* debug_attach.c — how `ptxi debug` plugs into a context: the per-instruction
 * hook goes into the context's vm_runtime, which modules loaded afterwards
 * lower with (vm.h), and so does the fault hook. */
#include "rt.h"

void ptxi_attach_debugger(ptxi_ctx *ctx, int (*fn)(void *, struct vm_warp *, const struct vm_insn *), void *data) {
    ctx->vmrt.dbg = fn;
    ctx->vmrt.dbg_ctx = data;
}

void ptxi_attach_fault_hook(ptxi_ctx *ctx,
                            void (*fn)(void *, struct vm_warp *, const struct vm_insn *, int, int, const char *)) {
    ctx->vmrt.dbg_fault = fn;
}
