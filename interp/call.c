/* call.c — call frames and calls: pushing a frame, direct and indirect
 * calls (lanes calling different functions call one after another), and the
 * hand-off of calls to built-in device functions (builtin.c). Returns are
 * completed by the scheduler (sched.c) once every lane of a frame is back. */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "pool.h"
#include "sanitize.h"
#include "warp.h"

int vm_push_frame(vm_warp *w, vm_func *fn, uint32_t lanes, const vm_insn *call, const vm_insn *ret) {
    if (!w->cap) { /* the first frame: the warp's own (frame0) */
        w->frames = &w->frame0;
        w->cap = 1;
    }
    if (w->depth == w->cap) {
        uint32_t nc = w->cap == 1 ? 8 : w->cap * 2;
        if (nc > 4096) return -1;
        vm_frame *nf = w->cap == 1 ? malloc(nc * sizeof *nf) : realloc(w->frames, nc * sizeof *nf);
        if (!nf) return -1;
        if (w->cap == 1) memcpy(nf, w->frames, sizeof *nf * w->depth);
        w->frames = nf;
        w->cap = nc;
    }
    uint8_t *fb = vm_block_alloc(fn->frame_size);
    if (!fb) return -1;
    memcpy(fb, fn->frame_init, fn->frame_size);
    uint32_t base = 0, align = fn->local_align ? fn->local_align : 1;
    for (int l = 0; l < VM_LANES; l++)
        if (lanes >> l & 1 && w->lsp[l] > base) base = w->lsp[l];
    base = (base + align - 1) & ~(align - 1);
    if ((uint64_t)base + fn->local_size > w->local_stride) {
        free(fb);
        return -2;
    }
    for (int l = 0; l < VM_LANES; l++)
        if (lanes >> l & 1) {
            w->lpc[l] = fn->code;
            w->lsp[l] = base + fn->local_size;
        }
    w->frames[w->depth++] = (vm_frame){fn, fb, ret, call, lanes, 0, base, w->cta->grid->cfg->params};
    return 0;
}

static vm_func *func_from_addr(vm_program *p, uint64_t a) {
    for (uint32_t k = 0; k < p->nfuncs; k++)
        if (p->funcs[k].fnaddr == a) return &p->funcs[k];
    return NULL;
}

int vm_do_call(vm_warp *w, const vm_insn *i, uint32_t m) {
    const vm_callinfo *ci = i->p;
    vm_frame *fr = &w->frames[w->depth - 1];
    for (int l = 0; l < VM_LANES; l++)
        if ((w->mask & ~m) >> l & 1) w->lpc[l] = i + 1;
    if (!m) return 0;
    vm_func *callee = ci->callee;
    uint32_t lanes = m;
    if (!callee) {
        const uint64_t *fp = (const uint64_t *)(fr->fb + ci->fptr);
        int l0 = __builtin_ctz(m);
        callee = func_from_addr(fr->fn->prog, fp[l0]);
        if (!callee) {
            vm_fault_at(w, i, l0, PTXI_ILLEGAL_INSTRUCTION,
                        "indirect call through 0x%llx, which is not a function address", (unsigned long long)fp[l0]);
            return -1;
        }
        lanes = 0;
        for (int l = 0; l < VM_LANES; l++)
            if (m >> l & 1 && fp[l] == fp[l0]) lanes |= 1u << l;
        for (int l = 0; l < VM_LANES; l++) /* lanes calling elsewhere call after this group returns */
            if ((m & ~lanes) >> l & 1) w->lpc[l] = i;
    }
    if (!callee->ir->has_body) {
        int r = vm_builtin_call(w, i, callee, lanes);
        if (r < 0) return -1;
        for (int l = 0; l < VM_LANES; l++)
            if (lanes >> l & 1) w->lpc[l] = i + 1;
        return 0;
    }
    int r = vm_push_frame(w, callee, lanes, i, i + 1);
    if (r < 0) {
        /* an H100 reports a stack overflow as an illegal address (tests/cudart/programs/stack_overflow.cu) */
        if (r == -2 && fr->fn->prog->rt->san) vm_san_stop(w, i, lanes, "Stack overflow");
        vm_fault_at(w, i, __builtin_ctz(lanes), PTXI_ILLEGAL_ADDRESS,
                    r == -2 ? "call to '%s' overflows the per-thread stack" : "call to '%s' nests too deeply",
                    callee->ir->name);
        return -1;
    }
    vm_frame *nf = &w->frames[w->depth - 1], *caller = &w->frames[w->depth - 2];
    for (uint32_t k = 0; k < ci->nargs && k < callee->ir->nparams; k++) {
        uint32_t sz = ci->argsize[k];
        for (int l = 0; l < VM_LANES; l++)
            if (lanes >> l & 1)
                memcpy(nf->fb + callee->param_off[k] + (size_t)l * sz, caller->fb + ci->argoff[k] + (size_t)l * sz, sz);
    }
    return 0;
}
