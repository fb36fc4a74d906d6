/* debug_hook.c — where `ptxi debug -- PROGRAM` enters the runtime: when
 * PTXI_DEBUG is set, the debugger (tools/debug_app.c, linked in) is attached to
 * the context, learns the modules and hears of every launch. Costs one test
 * of a flag per launch otherwise. */
#include <stdlib.h>
#include <string.h>

#include "cudart_internal.h"
#include "debug_app.h"

bool cr_debugging;
static char *how;

/* Read once and removed, so that programs this one starts are not debugged too. */
__attribute__((constructor)) static void read_env(void) {
    const char *v = getenv("PTXI_DEBUG");
    if (!v || !*v) return;
    how = strdup(v);
    unsetenv("PTXI_DEBUG");
    cr_debugging = how != NULL;
}

void cr_debug_attach(ptxi_ctx *ctx) {
    if (cr_debugging) dbg_app_attach(ctx, how);
}

void cr_debug_module(ptxi_module *m, const char *ptx, size_t len) {
    if (cr_debugging) dbg_app_module(m, ptx, len);
}

void cr_debug_loaded(void) {
    if (cr_debugging) dbg_app_loaded();
}

void cr_debug_launch(ptxi_kernel *k, dim3 g, dim3 b) {
    dbg_app_launch(k, (ptxi_dim3){g.x, g.y, g.z}, (ptxi_dim3){b.x, b.y, b.z});
}

void cr_debug_launch_end(void) { dbg_app_launch_end(); }
