/* module.c — modules: parse and validate PTX, give module-scope variables
 * device memory (initializers and address relocations applied), resolve
 * .extern symbols against modules already loaded, lower to threaded code,
 * and symbol lookup/copies by name. */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "ffi_call.h"
#include "rt.h"

/* The libffi call interface of a bound .extern .func, from its PTX declaration. */
static rt_ffi_sig *prepare_ffi(const ir_func *f) {
    size_t sizes[RT_FFI_MAX_PARAMS];
    int isf[RT_FFI_MAX_PARAMS];
    if (f->nparams > RT_FFI_MAX_PARAMS || f->nrets > 1) return NULL;
    for (uint32_t k = 0; k < f->nparams; k++) {
        sizes[k] = f->params[k]->size;
        isf[k] = ir_type_class_of[f->params[k]->type] == IR_TC_FLOAT;
    }
    rt_ffi_sig *sig = calloc(1, sizeof *sig);
    if (sig && rt_ffi_prepare(sig, f->nparams, sizes, isf, f->nrets, f->nrets ? f->rets[0]->size : 0,
                              f->nrets && ir_type_class_of[f->rets[0]->type] == IR_TC_FLOAT) < 0) {
        free(sig);
        sig = NULL;
    }
    return sig;
}

static void module_free(ptxi_module *m);

/* m is not in the context's list (yet). */
static ptxi_status fail(ptxi_ctx *ctx, ptxi_module *m, ptxi_status s) {
    module_free(m);
    return rt_set_error(ctx, s);
}

/* Whether twin (a module of another context) was parsed from the same PTX as m. */
static bool same_globals(const ptxi_module *m, const ptxi_module *twin) {
    if (!twin || twin->ir->nglobals != m->ir->nglobals) return false;
    for (uint32_t k = 0; k < m->ir->nglobals; k++)
        if (strcmp(twin->ir->globals[k]->name, m->ir->globals[k]->name)) return false;
    return true;
}

/* The module's globals by name and count: what tells a kept variable's module (rt_kept). */
static uint64_t globals_sig(const ir_module *ir) {
    uint64_t h = 1469598103934665603u ^ ir->nglobals;
    for (uint32_t k = 0; k < ir->nglobals; k++)
        for (const char *c = ir->globals[k]->name;; c++) {
            h = (h ^ (uint8_t)*c) * 1099511628211u;
            if (!*c) break;
        }
    return h;
}

/* Whether global k's memory is the module's own: a .global/.const variable
 * it defines, in its context's arena (not a twin's, not another module's). */
static bool owns_var(const ptxi_ctx *ctx, const ptxi_module *m, uint32_t k) {
    const ir_var *v = m->ir->globals[k];
    return m->prog.gaddr[k] && v->linkage != IR_LINK_EXTERN &&
           (v->space == IR_SPACE_GLOBAL || v->space == IR_SPACE_CONST) &&
           m->prog.gaddr[k] - (uint64_t)(uintptr_t)ctx->arena.base < ctx->arena.reserve;
}

static bool kept_var(const ptxi_ctx *ctx, const ptxi_module *m, uint32_t k) {
    const ir_var *v = m->ir->globals[k];
    return m->runtime && v->managed && v->space == IR_SPACE_GLOBAL && owns_var(ctx, m, k);
}

/* One variable's entry, its bytes copied, in front of *list; false when out of
 * memory (an entry without a name or bytes is dropped by rt_kept_place). */
static bool keep(rt_kept **list, const char *name, uint64_t sig, uint64_t addr, uint64_t size) {
    rt_kept *e = calloc(1, sizeof *e);
    if (!e) return false;
    *e = (rt_kept){strdup(name), sig, addr, size, malloc(size), *list};
    *list = e;
    if (!e->name || !e->bytes) return false;
    memcpy(e->bytes, (const void *)(uintptr_t)addr, size);
    return true;
}

/* Before a reset: the runtime's __managed__ variables of every module, and
 * those kept by the last reset that no module took yet, with their bytes. */
rt_kept *rt_keep_managed(ptxi_ctx *ctx) {
    rt_kept *list = NULL;
    bool ok = true;
    pthread_mutex_lock(&ctx->mod_lock);
    for (ptxi_module *m = ctx->modules; ok && m; m = m->next) {
        uint64_t sig = globals_sig(m->ir);
        for (uint32_t k = 0; ok && m->prog.gaddr && k < m->ir->nglobals; k++)
            if (kept_var(ctx, m, k)) {
                const ir_var *v = m->ir->globals[k];
                ok = keep(&list, v->name, sig, m->prog.gaddr[k], v->size ? v->size : 1);
            }
    }
    for (rt_kept *o = ctx->kept; ok && o; o = o->next) ok = keep(&list, o->name, o->sig, o->addr, o->size);
    pthread_mutex_unlock(&ctx->mod_lock);
    return list;
}

/* After the reset, in an arena at the old base: each kept variable's memory
 * again, with its bytes, for the module that takes it (place_globals). */
void rt_kept_place(ptxi_ctx *ctx, rt_kept *kept) {
    pthread_mutex_lock(&ctx->mod_lock);
    while (kept) {
        rt_kept *e = kept;
        kept = e->next;
        if (e->name && e->bytes && vm_arena_alloc_at(&ctx->arena, e->addr, e->size, VM_SH_MANAGED, e->name)) {
            memcpy((void *)(uintptr_t)e->addr, e->bytes, e->size);
            free(e->bytes);
            e->bytes = NULL;
            e->next = ctx->kept;
            ctx->kept = e;
        } else {
            e->next = NULL;
            rt_kept_free(e);
        }
    }
    pthread_mutex_unlock(&ctx->mod_lock);
}

void rt_kept_free(rt_kept *kept) {
    for (rt_kept *n; kept; kept = n) {
        n = kept->next;
        free(kept->name);
        free(kept->bytes);
        free(kept);
    }
}

/* The memory a reset kept for the variable, taken out of the list; 0 if none. */
static uint64_t take_kept(ptxi_ctx *ctx, uint64_t sig, const ir_var *v) {
    for (rt_kept **p = &ctx->kept; *p; p = &(*p)->next) {
        rt_kept *e = *p;
        if (e->sig != sig || e->size != (v->size ? v->size : 1) || strcmp(e->name, v->name)) continue;
        uint64_t a = e->addr;
        vm_arena_set_what(&ctx->arena, a, v->name); /* the entry's name goes with it */
        *p = e->next;
        e->next = NULL;
        rt_kept_free(e);
        return a;
    }
    return 0;
}

/* Device memory for every module-scope .global/.const variable; a .managed
 * one is twin's when the module is twin's PTX loaded again (one object in the
 * process, as __managed__ memory is on a GPU), or what a reset of the context
 * kept of it, with its value. */
static ptxi_status place_globals(ptxi_ctx *ctx, ptxi_module *m, const ptxi_module *twin) {
    const ir_module *ir = m->ir;
    if (!same_globals(m, twin)) twin = NULL;
    uint64_t sig = m->runtime && ctx->kept ? globals_sig(ir) : 0;
    for (uint32_t k = 0; k < ir->nglobals; k++) {
        const ir_var *v = ir->globals[k];
        if (v->space != IR_SPACE_GLOBAL && v->space != IR_SPACE_CONST) continue;
        if (v->linkage == IR_LINK_EXTERN) {
            m->prog.gaddr[k] = ctx->vmrt.resolve_var(ctx, v->name);
            if (!m->prog.gaddr[k]) {
                rt_detail(ctx, "%s:%u:%u: error: extern variable '%s' is not defined by any loaded module", m->path,
                          v->loc.line, v->loc.col, v->name);
                return PTXI_UNRESOLVED_EXTERN;
            }
            continue;
        }
        if (twin && v->managed && v->space == IR_SPACE_GLOBAL && twin->prog.gaddr[k]) {
            m->prog.gaddr[k] = twin->prog.gaddr[k];
            continue;
        }
        if (sig && v->managed && v->space == IR_SPACE_GLOBAL && (m->prog.gaddr[k] = take_kept(ctx, sig, v))) continue;
        uint8_t kind = v->space == IR_SPACE_CONST ? VM_SH_CONST : v->managed ? VM_SH_MANAGED : VM_SH_GLOBAL;
        uint64_t a = vm_arena_alloc(&ctx->arena, v->size ? v->size : 1, kind, v->name);
        if (!a) return PTXI_OUT_OF_MEMORY;
        if (v->has_init && v->init) memcpy((void *)(uintptr_t)a, v->init, v->size);
        m->prog.gaddr[k] = a;
    }
    return PTXI_SUCCESS;
}

static uint64_t global_addr(const ptxi_module *m, const ir_var *v) {
    for (uint32_t k = 0; k < m->ir->nglobals; k++)
        if (m->ir->globals[k] == v) return v->space == IR_SPACE_SHARED ? m->prog.shared_off[k] : m->prog.gaddr[k];
    return 0;
}

/* Initializers holding addresses of other variables or functions. */
static void apply_relocs(ptxi_module *m) {
    const ir_module *ir = m->ir;
    for (uint32_t k = 0; k < ir->nglobals; k++) {
        const ir_var *v = ir->globals[k];
        if (!m->prog.gaddr[k] || v->linkage == IR_LINK_EXTERN) continue;
        for (uint32_t r = 0; r < v->nrelocs; r++) {
            const ir_reloc *rl = &v->relocs[r];
            uint64_t a = 0;
            if (rl->is_func) {
                for (uint32_t f = 0; f < m->prog.nfuncs; f++)
                    if (m->prog.funcs[f].ir == rl->func) a = m->prog.funcs[f].fnaddr;
            } else {
                a = global_addr(m, rl->var);
                if (rl->generic && rl->var->space == IR_SPACE_SHARED) a += vm_shared_win;
            }
            a += (uint64_t)rl->addend;
            if (rl->mask) a = (a >> rl->shift) & rl->mask;
            uint8_t *dst = (uint8_t *)(uintptr_t)m->prog.gaddr[k] + rl->offset;
            memcpy(dst, &a, rl->size > 8 ? 8 : rl->size);
        }
    }
}

/* Places, lowers and links a parsed module and adds it to the context's list;
 * with ctx->mod_lock held. */
static ptxi_status link_module(ptxi_ctx *ctx, ptxi_module *m, const ptxi_module *twin) {
    m->prog.ir = m->ir;
    m->prog.path = m->path;
    m->prog.rt = &ctx->vmrt;
    m->prog.no_contract = ctx->opt.no_contract;
    m->prog.gaddr = calloc(m->ir->nglobals + 1, sizeof *m->prog.gaddr);
    if (!m->prog.gaddr) return PTXI_OUT_OF_MEMORY;
    ptxi_status s = place_globals(ctx, m, twin);
    if (s) return s;
    char err[512];
    if (vm_lower(&m->prog, err, sizeof err) < 0) {
        /* lowering errors come as "LINE:COL: error: ..." (or " error: ...") when an instruction is known */
        bool located = err[0] == ' ' || (err[0] >= '0' && err[0] <= '9');
        rt_detail(ctx, "%s:%s%s\n", m->path, located ? "" : " error: ", err);
        return PTXI_UNSUPPORTED_PTX;
    }
    /* .extern .func: another module, a host binding, or a built-in */
    for (uint32_t k = 0; k < m->prog.nfuncs; k++) {
        vm_func *f = &m->prog.funcs[k];
        if (f->ir->has_body || f->ir->is_proto || f->builtin) continue;
        if (ctx->vmrt.resolve_func(ctx, f->ir->name)) continue;
        bool bound = false;
        for (rt_bind *b = ctx->binds; b; b = b->next)
            if (!strcmp(b->name, f->ir->name)) {
                f->host_fn = b->fn;
                bound = true;
            }
        if (bound && !(f->ffi = prepare_ffi(f->ir))) {
            rt_detail(ctx, "%s:%u:%u: error: extern function '%s' has a signature a host function cannot receive",
                      m->path, f->ir->loc.line, f->ir->loc.col, f->ir->name);
            return PTXI_NOT_SUPPORTED;
        }
        if (!bound) {
            rt_detail(ctx, "%s:%u:%u: error: extern function '%s' is not defined by any loaded module or host binding",
                      m->path, f->ir->loc.line, f->ir->loc.col, f->ir->name);
            return PTXI_UNRESOLVED_EXTERN;
        }
    }
    apply_relocs(m);
    for (uint32_t k = 0; k < m->prog.nfuncs; k++) {
        int bi = m->prog.funcs[k].builtin;
        if (bi == VM_BI_LAUNCH_DEVICE || bi == VM_BI_LAUNCH_DEVICE_V2) rt_sanitize_dynpar(ctx);
        m->nkernels += m->prog.funcs[k].ir->is_entry;
    }
    m->kernels = calloc(m->nkernels + 1, sizeof *m->kernels);
    if (!m->kernels) return PTXI_OUT_OF_MEMORY;
    unsigned n = 0;
    for (uint32_t k = 0; k < m->prog.nfuncs; k++)
        if (m->prog.funcs[k].ir->is_entry) m->kernels[n++] = (ptxi_kernel){m, &m->prog.funcs[k], 48 * 1024};
    m->next = ctx->modules;
    ctx->modules = m;
    return PTXI_SUCCESS;
}

static ptxi_status load_data(ptxi_ctx *ctx, const char *text, size_t len, const char *name, const ptxi_module *twin,
                             bool runtime, ptxi_module **out) {
    RT_CHECK_STICKY(ctx);
    if (!text || !out) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    rt_flush(ctx);
    ptxi_module *m = calloc(1, sizeof *m);
    if (!m) return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    m->ctx = ctx;
    m->runtime = runtime;
    m->path = strdup(name ? name : "<ptx>");
    fe_diags d = {.path = m->path, .src = text, .srclen = len};
    m->ir = fe_parse(text, len, m->path, &d);
    if (m->ir && !d.nerrors) fe_validate(m->ir, &d);
    if (!m->ir || d.nerrors) {
        char *buf = fe_diags_string(&d, false);
        rt_detail(ctx, "%s", buf ? buf : "");
        free(buf);
        fe_diags_free(&d);
        return fail(ctx, m, PTXI_INVALID_PTX);
    }
    fe_diags_free(&d);
    /* Linking sees the modules loaded so far and joins them: one load at a time. */
    pthread_mutex_lock(&ctx->mod_lock);
    ptxi_status s = link_module(ctx, m, twin);
    pthread_mutex_unlock(&ctx->mod_lock);
    if (s) return fail(ctx, m, s);
    *out = m;
    return PTXI_SUCCESS;
}

ptxi_status ptxi_module_load_data(ptxi_ctx *ctx, const char *text, size_t len, const char *name, ptxi_module **out) {
    return load_data(ctx, text, len, name, NULL, false, out);
}

ptxi_status ptxi_module_load_twin(ptxi_ctx *ctx, const char *text, size_t len, const char *name, const ptxi_module *twin,
                                  ptxi_module **out) {
    return load_data(ctx, text, len, name, twin, true, out);
}

ptxi_status ptxi_module_load_file(ptxi_ctx *ctx, const char *path, ptxi_module **out) {
    RT_CHECK_STICKY(ctx);
    if (!path) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    FILE *f = fopen(path, "rb");
    if (!f) {
        rt_detail(ctx, "%s: cannot open file", path);
        return rt_set_error(ctx, PTXI_IO);
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 > cap) {
            cap = cap ? cap * 2 : 1 << 20;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
            }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (!r) break;
    }
    fclose(f);
    ptxi_status s = ptxi_module_load_data(ctx, buf, n, path, out);
    free(buf);
    return s;
}

ptxi_status ptxi_module_unload(ptxi_module *m) {
    if (!m) return PTXI_INVALID_HANDLE;
    ptxi_ctx *ctx = m->ctx;
    rt_flush(ctx);
    pthread_mutex_lock(&ctx->mod_lock);
    for (ptxi_module **p = &ctx->modules; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            break;
        }
    pthread_mutex_unlock(&ctx->mod_lock);
    module_free(m);
    return PTXI_SUCCESS;
}

static void module_free(ptxi_module *m) {
    ptxi_ctx *ctx = m->ctx;
    if (m->prog.gaddr && m->ir)
        for (uint32_t k = 0; k < m->ir->nglobals; k++)
            if (owns_var(ctx, m, k)) vm_arena_free(&ctx->arena, m->prog.gaddr[k]);
    vm_program_free(&m->prog);
    free(m->prog.gaddr);
    ir_module_free(m->ir);
    free(m->kernels);
    free(m->path);
    free(m);
}

ptxi_status ptxi_module_get_kernel(ptxi_module *m, const char *name, ptxi_kernel **out) {
    if (!m || !name || !out) return PTXI_INVALID_VALUE;
    for (unsigned k = 0; k < m->nkernels; k++)
        if (!strcmp(m->kernels[k].vf->ir->name, name)) {
            *out = &m->kernels[k];
            return PTXI_SUCCESS;
        }
    rt_detail(m->ctx, "no kernel named '%s' in %s", name, m->path);
    return rt_set_error(m->ctx, PTXI_NOT_FOUND);
}

unsigned ptxi_module_kernel_count(ptxi_module *m) { return m ? m->nkernels : 0; }
ptxi_kernel *ptxi_module_kernel_at(ptxi_module *m, unsigned i) { return m && i < m->nkernels ? &m->kernels[i] : NULL; }

ptxi_status ptxi_module_get_global(ptxi_module *m, const char *name, ptxi_dptr *addr, size_t *bytes) {
    if (!m || !name) return PTXI_INVALID_VALUE;
    for (uint32_t k = 0; k < m->ir->nglobals; k++) {
        const ir_var *v = m->ir->globals[k];
        if (strcmp(v->name, name) || !m->prog.gaddr[k]) continue;
        if (addr) *addr = m->prog.gaddr[k];
        if (bytes) *bytes = v->size;
        return PTXI_SUCCESS;
    }
    return rt_set_error(m->ctx, PTXI_NOT_FOUND);
}

static ptxi_status symbol_range(ptxi_module *m, const char *name, size_t offset, size_t n, uint8_t **p) {
    ptxi_dptr a;
    size_t size;
    ptxi_status s = ptxi_module_get_global(m, name, &a, &size);
    if (s) return s;
    if (offset > size || n > size - offset) return rt_set_error(m->ctx, PTXI_INVALID_VALUE);
    *p = (uint8_t *)(uintptr_t)a + offset;
    return PTXI_SUCCESS;
}

/* Both directions of a symbol copy: to_dev copies src into the symbol. */
static ptxi_status symbol_copy(ptxi_module *m, const char *name, size_t offset, void *host, size_t n, bool to_dev) {
    if (!m) return PTXI_INVALID_HANDLE;
    RT_CHECK_STICKY(m->ctx);
    uint8_t *p = NULL;
    ptxi_status s = symbol_range(m, name, offset, n, &p);
    if (s) return s;
    rt_flush(m->ctx);
    if (to_dev) memcpy(p, host, n);
    else memcpy(host, p, n);
    return PTXI_SUCCESS;
}

ptxi_status ptxi_memcpy_to_symbol(ptxi_module *m, const char *name, size_t offset, const void *src, size_t n) {
    return symbol_copy(m, name, offset, (void *)(uintptr_t)src, n, true);
}

ptxi_status ptxi_memcpy_from_symbol(ptxi_module *m, const char *name, size_t offset, void *dst, size_t n) {
    return symbol_copy(m, name, offset, dst, n, false);
}
