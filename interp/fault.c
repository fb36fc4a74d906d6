/* fault.c — the fault report every bad access, trap or failed assert ends in:
 * the first fault of a launch is recorded in its grid (status and a message
 * naming kernel, PTX line, block and thread) and stops the grid. */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "warp.h"

const vm_func *vm_func_of(const vm_warp *w, const vm_insn *i) {
    for (uint32_t d = w->depth; d-- > 0;) {
        const vm_func *f = w->frames[d].fn;
        if (i >= f->code && i <= f->code + f->ncode) return f;
    }
    return w->frames[0].fn;
}

/* Appends one assert message line to f->asserts (the GPU prints all of them;
 * past VM_ASSERT_TEXT_MAX bytes further lines are dropped, as a GPU drops them
 * past its own buffer: gpu/jobs/fidelity/recorded/assert_many.count). */
static void add_assert_line(vm_fault *f, const char *line) {
    size_t n = strlen(line);
    if (f->asserts_len + n + 1 > VM_ASSERT_TEXT_MAX) return;
    char *p = realloc(f->asserts, f->asserts_len + n + 2);
    if (!p) return;
    memcpy(p + f->asserts_len, line, n);
    p[f->asserts_len + n] = '\n';
    p[f->asserts_len + n + 1] = 0;
    f->asserts = p;
    f->asserts_len += n + 1;
}

void vm_fault_at(vm_warp *w, const vm_insn *i, int lane, ptxi_status status, const char *fmt, ...) {
    vm_cta *cta = w->cta;
    vm_grid *g = cta->grid;
    bool first = false;
    pthread_mutex_lock(&g->lock);
    if (status == PTXI_ASSERT && (!g->status || g->status == PTXI_ASSERT)) {
        /* every failed assert: one line each, as the GPU prints them */
        char what[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        add_assert_line(g->fault, what);
    }
    if (!g->status) {
        first = true;
        const vm_func *f = vm_func_of(w, i);
        const vm_src *src = &f->src[i - f->code];
        char what[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        char cu[300] = "";
        const ir_module *m = f->prog->ir;
        if (src->dbg.file)
            for (uint32_t k = 0; k < m->nfiles; k++)
                if (m->files[k].index == src->dbg.file) {
                    snprintf(cu, sizeof cu, " (%s:%u)", m->files[k].name, src->dbg.line);
                    break;
                }
        unsigned t = w->id * VM_LANES + (unsigned)lane, bx = g->cfg->block[0], by = g->cfg->block[1];
        if (status == PTXI_ASSERT) /* assert: the message is the GPU's line, printed at the next flush */
            snprintf(g->fault->msg, sizeof g->fault->msg, "%s\n", what);
        else
            snprintf(g->fault->msg, sizeof g->fault->msg,
                     "ptxi: kernel '%s': %s\n  at %s:%u:%u%s in %s\n  block (%u,%u,%u), thread (%u,%u,%u)",
                     g->cfg->kernel->ir->name, what, f->prog->path ? f->prog->path : "<ptx>", src->loc.line,
                     src->loc.col, cu, f->ir->name, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], t % bx, t / bx % by,
                     t / (bx * by));
        g->fault->status = status;
        g->status = status;
    }
    pthread_mutex_unlock(&g->lock);
    vm_runtime *rt = g->cfg->kernel->prog->rt;
    if (first && rt && rt->dbg_fault) rt->dbg_fault(rt->dbg_ctx, w, i, lane, status, g->fault->msg);
    /* A failed assert ends its thread; the others run on, so what they print
     * and their own asserts come out as on a GPU. Every other fault stops the grid. */
    if (status != PTXI_ASSERT || (rt && rt->dbg_fault)) atomic_store(&g->stop, 1);
}
