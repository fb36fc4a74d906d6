/* debug_show.c — what `ptxi debug` shows of a stopped kernel: registers and
 * special registers of any lane, memory of every state space, warps, lanes,
 * threads, blocks and barriers, the call stack, PTX and .cu source; and the
 * values it evaluates for print, conditions, display and set var. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "alu_half.h"
#include "debug.h"
#include "exec_mem.h"
#include "mbarrier.h"
#include "numparse.h"

/* ---- positions ---- */

vm_warp *dbg_fwarp(dbg *d) {
    if (!d->stop_w || !d->cta) return NULL;
    return &d->cta->warps[d->fwarp];
}

const vm_func *dbg_func_of(const vm_warp *w, const vm_insn *i) {
    for (uint32_t k = w->depth; k-- > 0;) {
        const vm_func *f = w->frames[k].fn;
        if (i >= f->code && i <= f->code + f->ncode) return f;
    }
    return w->frames[0].fn;
}

const char *dbg_file_name(dbg *d, uint32_t file) {
    const ir_module *m = d->prog->ir;
    for (uint32_t k = 0; k < m->nfiles; k++)
        if (m->files[k].index == file) return m->files[k].name;
    return NULL;
}

/* One .cu file's lines, read on first use: by its .file name, else next to the PTX file. */
static struct {
    char *name;
    char **v;
    uint32_t n;
} cu_cache[8];

const char *dbg_cu_line(dbg *d, uint32_t file, uint32_t line) {
    const char *name = dbg_file_name(d, file);
    if (!name) return NULL;
    int k = 0;
    while (k < 8 && cu_cache[k].name && strcmp(cu_cache[k].name, name)) k++;
    if (k == 8) return NULL;
    if (!cu_cache[k].name) {
        cu_cache[k].name = strdup(name);
        FILE *f = fopen(name, "r");
        if (!f) {
            char alt[1024];
            const char *slash = strrchr(d->path, '/');
            snprintf(alt, sizeof alt, "%.*s%s", slash ? (int)(slash - d->path + 1) : 0, d->path, dbg_base(name));
            f = fopen(alt, "r");
        }
        if (!f) return NULL;
        char *buf = NULL;
        size_t cap = 0;
        ssize_t len;
        while ((len = getline(&buf, &cap, f)) >= 0) {
            while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = 0;
            char **nv = realloc(cu_cache[k].v, (cu_cache[k].n + 1) * sizeof *nv);
            if (!nv) break;
            cu_cache[k].v = nv;
            nv[cu_cache[k].n++] = strdup(buf);
        }
        free(buf);
        fclose(f);
    }
    return line >= 1 && line <= cu_cache[k].n ? cu_cache[k].v[line - 1] : NULL;
}

void dbg_where(dbg *d, const vm_warp *w, const vm_insn *i, char *buf, size_t len) {
    const vm_func *f = dbg_func_of(w, i);
    const vm_src *s = &f->src[i - f->code];
    /* inside an inlined call: the inlined function's name */
    const char *name = dbg_inlined_name(d, w, i);
    if (!name) name = dbg_fn_name(d, f->ir->name);
    int k = snprintf(buf, len, "%s at %s:%u", name, dbg_base(d->path), s->loc.line);
    const char *cu = s->dbg.file ? dbg_file_name(d, s->dbg.file) : NULL;
    if (cu && k > 0 && (size_t)k < len) snprintf(buf + k, len - (size_t)k, " (%s:%u)", dbg_base(cu), s->dbg.line);
}

void dbg_focus_line(dbg *d, char *buf, size_t len) {
    const vm_warp *w = &d->cta->warps[d->fwarp];
    int l = (int)d->flane;
    snprintf(buf, len, "block (%u,%u,%u), thread (%u,%u,%u), warp %u, lane %d", d->cta->ctaid[0], d->cta->ctaid[1],
             d->cta->ctaid[2], w->tid[0][l], w->tid[1][l], w->tid[2][l], d->fwarp, l);
}

static uint32_t live(const vm_warp *w) { return w->present & ~w->exited; }

/* Where lane l continues; NULL once it exited. */
const vm_insn *dbg_lane_pc(const vm_warp *w, int l) {
    if (!(live(w) >> l & 1) || w->state == VM_W_DONE) return NULL;
    return w->mask >> l & 1 ? w->pc : w->lpc[l];
}

void dbg_show_stop(dbg *d, const vm_warp *w, const vm_insn *i) {
    if (!i) {
        printf("warp %u of block (%u,%u,%u) has exited\n", w->id, w->cta->ctaid[0], w->cta->ctaid[1], w->cta->ctaid[2]);
        return;
    }
    char where[400];
    dbg_where(d, w, i, where, sizeof where);
    printf("%s\n", where);
    uint32_t div = live(w) & ~w->mask & ~w->blocked;
    printf("[block (%u,%u,%u), warp %u, active 0x%08x", w->cta->ctaid[0], w->cta->ctaid[1], w->cta->ctaid[2], w->id,
           w->mask);
    if (div) printf(", divergent 0x%08x", div);
    if (w->blocked & live(w)) printf(", blocked 0x%08x", w->blocked & live(w));
    if (w->exited & w->present) printf(", exited 0x%08x", w->exited & w->present);
    printf("]\n");
    const vm_func *f = dbg_func_of(w, i);
    const vm_src *s = &f->src[i - f->code];
    const char *cu = s->dbg.file ? dbg_cu_line(d, s->dbg.file, s->dbg.line) : NULL;
    if (cu) printf("%u\t%s\n", s->dbg.line, cu);
    if (s->loc.line && s->loc.line <= d->nptx) {
        const char *t = d->ptx[s->loc.line - 1];
        while (*t == ' ' || *t == '\t') t++;
        printf("=> %u\t%s\n", s->loc.line, t);
    }
}

/* ---- values ---- */

int dbg_lane_frame(const vm_warp *w, int l) {
    for (uint32_t k = w->depth - 1; k > 0; k--)
        if ((w->frames[k].lanes & ~w->frames[k].done) >> l & 1) return (int)k;
    return 0;
}

/* The frame that `frame`/`up`/`down` selected for lane l (0 = innermost): its index in w->frames. */
static int focus_frame(dbg *d, vm_warp *w, int l) {
    dbg_frame fr[64];
    int n = dbg_frames(d, w, l, fr, 64);
    if (!n) return 0;
    return fr[d->sel_frame < n ? d->sel_frame : n - 1].phys;
}

int dbg_find_reg(const ir_func *f, const char *name, size_t n) {
    for (uint32_t k = 0; k < f->nregs; k++)
        if (strlen(f->regs[k].name) == n && !strncmp(f->regs[k].name, name, n)) return (int)k;
    return -1;
}

/* Host bytes of register k of function fn in frame fb, lane l (a .b128
 * register: its low half; the high halves follow VM_B128_HI bytes after). */
static uint8_t *reg_ptr(const vm_func *fn, uint8_t *fb, int k, int l) {
    uint8_t t = fn->ir->regs[k].type;
    if (t == IR_T_PRED) return fb + fn->reg_off[k];
    return fb + fn->reg_off[k] + (size_t)l * (ir_type_bytes[t] >= 8 ? 8 : 4);
}

void dbg_reg_bytes(const vm_func *fn, uint8_t *fb, int k, int l, uint8_t out[16]) {
    uint8_t t = fn->ir->regs[k].type;
    const uint8_t *p = reg_ptr(fn, fb, k, l);
    memset(out, 0, 16);
    if (t == IR_T_PRED) out[0] = (uint8_t)(*(const uint32_t *)p >> l & 1);
    else if (ir_type_bytes[t] == 16) memcpy(out, p, 8), memcpy(out + 8, p + VM_B128_HI, 8);
    else memcpy(out, p, ir_type_bytes[t] >= 8 ? 8 : ir_type_bytes[t] ? ir_type_bytes[t] : 4);
}

static dbg_val read_reg(const vm_func *fn, uint8_t *fb, int k, int l) {
    dbg_val v = {.type = fn->ir->regs[k].type, .ok = true};
    const uint8_t *p = reg_ptr(fn, fb, k, l);
    if (v.type == IR_T_PRED) v.bits = *(const uint32_t *)p >> l & 1;
    else if (ir_type_bytes[v.type] >= 8) memcpy(&v.bits, p, 8); /* a .b128 register: its low half */
    else {
        uint32_t x;
        memcpy(&x, p, 4);
        unsigned b = ir_type_bytes[v.type];
        v.bits = b >= 4 ? x : x & ((1u << (8 * b)) - 1);
    }
    return v;
}

/* Special registers, read as the instruction handlers read them. */
static int eval_sreg(vm_warp *w, int l, const char *name, size_t n, dbg_val *v) {
    size_t base = n;
    unsigned c = 0;
    if (n > 2 && name[n - 2] == '.' && strchr("xyz", name[n - 1])) base = n - 2, c = (unsigned)(name[n - 1] - 'x');
    int s = -1;
    for (int k = 0; k < IR_SREG__COUNT; k++)
        if (strlen(ir_sreg_name[k]) == base && !strncmp(ir_sreg_name[k], name, base)) s = k;
    if (s < 0) return -1;
    static const uint8_t comps[] = {
#define X(e, sp, c) c,
        IR_SREG_LIST(X)
#undef X
    };
    if (comps[s] == 2 || (comps[s] == 1) != (base != n)) return -1; /* %envregN, %pmN; .x only where it exists */
    vm_insn q = {.x = (uint16_t)s, .sz = (uint8_t)c};
    v->ok = true;
    v->bits = vm_sreg_value(w, &q, l);
    v->type = s == IR_SREG_CLOCK64 || s == IR_SREG_GLOBALTIMER ? IR_T_U64 : IR_T_U32;
    return 0;
}

/* A module variable or kernel parameter: its space and device address. */
int dbg_find_symbol(dbg *d, vm_warp *w, const char *name, size_t n, int *sp, uint64_t *a, uint8_t *type) {
    const ir_module *m = d->prog->ir;
    for (uint32_t k = 0; k < m->nglobals; k++) {
        const ir_var *v = m->globals[k];
        if (strlen(v->name) != n || strncmp(v->name, name, n)) continue;
        *type = v->type;
        if (v->space == IR_SPACE_SHARED) *sp = VM_SP_SHARED, *a = d->prog->shared_off[k];
        else *sp = v->space == IR_SPACE_CONST ? VM_SP_CONST : VM_SP_GLOBAL, *a = d->prog->gaddr[k];
        return 0;
    }
    const vm_func *kf = w ? w->cta->grid->cfg->kernel : NULL;
    for (uint32_t k = 0; kf && k < kf->ir->nparams; k++) {
        const ir_var *p = kf->ir->params[k];
        if (strlen(p->name) != n || strncmp(p->name, name, n)) continue;
        *type = p->type;
        *sp = VM_SP_KPARAM;
        *a = w->cta->grid->cfg->params + kf->param_off[k];
        return 0;
    }
    return -1;
}

/* Host bytes of n bytes at address a of space sp, as lane l of w sees it; NULL when not readable. */
uint8_t *dbg_host_of(dbg *d, vm_warp *w, int l, int sp, uint64_t a, uint32_t n) {
    if (sp == VM_SP_GENERIC) sp = vm_generic_space(&a);
    switch (sp) {
    case VM_SP_SHARED: return w && a + n <= w->cta->smem_full ? w->cta->smem + a : NULL;
    case VM_SP_LOCAL:
        return w && a + n <= w->local_stride && vm_local_mem(w) ? w->local + (size_t)l * w->local_stride + a : NULL;
    case VM_SP_KPARAM: {
        if (!w) return NULL;
        const vm_launch_cfg *cfg = w->cta->grid->cfg;
        if (a < cfg->kernel->param_size) a += cfg->params; /* an offset in the parameter buffer */
        sp = VM_SP_GLOBAL;
        break;
    }
    default: break;
    }
    if (n > 16) return NULL;
    return vm_arena_ok(&d->ctx->arena, a, n, false) ? (uint8_t *)(uintptr_t)a : NULL;
}

static bool is_float(uint8_t t) { return ir_type_class_of[t] == IR_TC_FLOAT; }
static bool is_signed(uint8_t t) { return ir_type_class_of[t] == IR_TC_SINT; }

static const char *trim(const char *s, size_t *n) {
    while (*s == ' ' || *s == '\t') s++;
    size_t k = strlen(s);
    while (k && (s[k - 1] == ' ' || s[k - 1] == '\t')) k--;
    *n = k;
    return s;
}

static int eval_n(dbg *d, vm_warp *w, int l, const char *e, size_t n, dbg_val *v, char *err, size_t errlen) {
    memset(v, 0, sizeof *v);
    if (!n) {
        snprintf(err, errlen, "Argument required (expression to compute).");
        return -1;
    }
    char tok[128];
    snprintf(tok, sizeof tok, "%.*s", (int)(n < 127 ? n : 127), e);
    if (tok[0] == '%') {
        if (!w) {
            snprintf(err, errlen, "No registers: the kernel is not stopped.");
            return -1;
        }
        int fi = focus_frame(d, w, l);
        const vm_frame *fr = &w->frames[fi];
        int k = dbg_find_reg(fr->fn->ir, tok, strlen(tok));
        if (k >= 0) {
            *v = read_reg(fr->fn, fr->fb, k, l);
            return 0;
        }
        if (!eval_sreg(w, l, tok + 1, strlen(tok) - 1, v)) return 0;
        snprintf(err, errlen, "No register %s in %s.", tok, fr->fn->ir->name);
        return -1;
    }
    /* CUDA's built-in variables: threadIdx.x is %tid.x, and so on */
    static const struct {
        const char *cuda, *sreg;
    } BUILTIN[] = {{"threadIdx", "tid"}, {"blockIdx", "ctaid"}, {"blockDim", "ntid"}, {"gridDim", "nctaid"}};
    for (size_t k = 0; k < sizeof BUILTIN / sizeof BUILTIN[0]; k++) {
        size_t bl = strlen(BUILTIN[k].cuda);
        if (strncmp(tok, BUILTIN[k].cuda, bl) || tok[bl] != '.' || !strchr("xyz", tok[bl + 1]) || !tok[bl + 1] ||
            tok[bl + 2])
            continue;
        if (!w) {
            snprintf(err, errlen, "No frame selected.");
            return -1;
        }
        char sreg[16];
        snprintf(sreg, sizeof sreg, "%s.%c", BUILTIN[k].sreg, tok[bl + 1]);
        if (eval_sreg(w, l, sreg, strlen(sreg), v)) break;
        return 0;
    }
    if (!strcmp(tok, "warpSize")) {
        *v = (dbg_val){VM_LANES, IR_T_S32, true};
        return 0;
    }
    if (isdigit((unsigned char)tok[0]) || tok[0] == '-') {
        char *end;
        if (strpbrk(tok, ".eE") && !strstr(tok, "0x")) {
            double x = strtod(tok, &end);
            memcpy(&v->bits, &x, 8);
            v->type = IR_T_F64;
        } else {
            v->bits = tok[0] == '-' ? (uint64_t)strtoll(tok, &end, 0) : strtoull(tok, &end, 0);
            /* C's type for the literal: int, unsigned int, long, unsigned long (so
             * that p/f 0x3f800000 reads 32 bits as a float, as in gdb) */
            int64_t sv = (int64_t)v->bits;
            if (tok[0] == '-') v->type = sv >= INT32_MIN ? IR_T_S32 : IR_T_S64;
            else
                v->type = v->bits <= INT32_MAX    ? IR_T_S32
                          : v->bits <= UINT32_MAX ? IR_T_U32
                          : v->bits <= INT64_MAX  ? IR_T_S64
                                                  : IR_T_U64;
        }
        if (*end) {
            snprintf(err, errlen, "Invalid number \"%s\".", tok);
            return -1;
        }
        v->ok = true;
        return 0;
    }
    int sp;
    uint64_t a;
    uint8_t type;
    if (!dbg_find_symbol(d, w, tok, strlen(tok), &sp, &a, &type)) {
        unsigned b = ir_type_bytes[type];
        const uint8_t *p = b && b <= 8 ? dbg_host_of(d, w, l, sp, a, b) : NULL;
        if (!p) { /* an array or a space not readable now: its address */
            v->bits = a;
            v->type = IR_T_U64;
        } else {
            v->bits = load_bits(p, b, is_signed(type));
            v->type = type;
        }
        v->ok = true;
        return 0;
    }
    snprintf(err, errlen, "No symbol \"%s\" in current context.", tok);
    return -1;
}

int dbg_eval(dbg *d, vm_warp *w, int l, const char *expr, dbg_val *v, char *err, size_t errlen) {
    size_t n;
    const char *e = trim(expr, &n);
    return eval_n(d, w, l, e, n, v, err, errlen);
}

static double as_double(dbg_val v) {
    if (v.type == IR_T_F32) {
        float f;
        uint32_t b = (uint32_t)v.bits;
        memcpy(&f, &b, 4);
        return f;
    }
    if (v.type == IR_T_F64) {
        double x;
        memcpy(&x, &v.bits, 8);
        return x;
    }
    if (is_signed(v.type)) {
        unsigned b = ir_type_bytes[v.type];
        return b < 8 ? (double)(int64_t)(v.bits << (64 - 8 * b)) / (double)(1ull << (64 - 8 * b))
                     : (double)(int64_t)v.bits;
    }
    return (double)v.bits;
}

static int64_t as_signed(dbg_val v) {
    unsigned b = ir_type_bytes[v.type];
    if (is_signed(v.type) && b && b < 8) return (int64_t)(v.bits << (64 - 8 * b)) >> (64 - 8 * b);
    return (int64_t)v.bits;
}

/* A condition: a C expression, true when non-zero. */
int dbg_cond(dbg *d, vm_warp *w, int l, const char *expr, bool *out, char *err, size_t errlen) {
    return dbg_expr_bool(d, w, l, expr, out, err, errlen);
}

/* ---- formatting ---- */

void dbg_format_val(dbg_val v, char f, char *buf, size_t len) {
    unsigned b = ir_type_bytes[v.type];
    if (v.type == IR_T_PRED) b = 1;
    if (!b) b = 8;
    uint64_t bits = b < 8 ? v.bits & ((1ull << (8 * b)) - 1) : v.bits;
    if (!f) f = v.type == IR_T_F32 || v.type == IR_T_F64 ? 'f' : is_signed(v.type) ? 'd' : 'u';
    switch (f) {
    case 'x': snprintf(buf, len, "0x%0*llx", (int)(2 * b), (unsigned long long)bits); break;
    case 'd': {
        dbg_val s = v;
        s.type = b == 1 ? IR_T_S8 : b == 2 ? IR_T_S16 : b == 4 ? IR_T_S32 : IR_T_S64;
        s.bits = bits;
        snprintf(buf, len, "%lld", (long long)as_signed(s));
        break;
    }
    case 'f':
        if (b == 4) {
            float x;
            uint32_t u = (uint32_t)bits;
            memcpy(&x, &u, 4);
            snprintf(buf, len, "%.9g", x);
        } else if (b == 8) {
            double x;
            memcpy(&x, &bits, 8);
            snprintf(buf, len, "%.17g", x);
        } else if (b == 2) { /* a half */
            float x;
            uint32_t u = alu_f16_to_f32((uint16_t)bits);
            memcpy(&x, &u, 4);
            snprintf(buf, len, "%.5g", x);
        } else snprintf(buf, len, "%llu", (unsigned long long)bits);
        break;
    case 't': {
        int k = 0;
        for (int i = (int)(8 * b) - 1; i >= 0 && (size_t)k + 1 < len; i--) buf[k++] = (char)('0' + (bits >> i & 1));
        buf[k] = 0;
        break;
    }
    default: snprintf(buf, len, "%llu", (unsigned long long)bits); break;
    }
}

/* The value of e for lane l as text (record: it becomes $N). */
static int value_text(dbg *d, vm_warp *w, int l, const char *e, char f, bool record, char *buf, size_t len) {
    return dbg_expr_text(d, w, l, e, f, record, buf, len);
}

int dbg_cmd_print(dbg *d, const char *fmt, const char *args, bool output) {
    vm_warp *w = dbg_fwarp(d);
    bool all = !strncmp(args, "-all", 4) && (args[4] == ' ' || !args[4]);
    if (all) args += 4;
    while (*args == ' ') args++;
    if (!strncmp(args, "-- ", 3)) args += 3;
    char buf[4096];
    if (!all) {
        if (value_text(d, w, (int)d->flane, args, fmt[0], !output, buf, sizeof buf)) {
            printf("%s\n", buf);
            return -1;
        }
        if (output) printf("%s", buf);
        else printf("$%u = %s\n", ++d->nvalues, buf);
        return 0;
    }
    if (!w) {
        printf("The program is not being run.\n");
        return -1;
    }
    /* every lane of the warp in focus: exited lanes say so; $N keeps the lane in focus */
    char *line = malloc(32 * sizeof buf);
    if (!line) return -1;
    size_t len = 0;
    line[0] = 0;
    for (int l = 0; l < VM_LANES; l++) {
        if (!(w->present >> l & 1)) continue;
        if (w->exited >> l & 1) snprintf(buf, sizeof buf, "<exited>");
        else if (value_text(d, w, l, args, fmt[0], false, buf, sizeof buf)) {
            printf("%s\n", buf);
            free(line);
            return -1;
        }
        len += (size_t)snprintf(line + len, 32 * sizeof buf - len, "%s[%d] = %s", len ? ", " : "", l, buf);
    }
    value_text(d, w, (int)d->flane, args, fmt[0], true, buf, sizeof buf);
    printf("$%u = {%s}\n", ++d->nvalues, line);
    free(line);
    return 0;
}

int dbg_show_display(dbg *d, const struct dbg_display *ds, bool quiet) {
    vm_warp *w = dbg_fwarp(d);
    if (!w) return 0;
    const char *e = ds->expr;
    char f = 0, buf[4096];
    if (e[0] == '/') {
        f = e[1];
        e += 2;
        while (*e == ' ') e++;
    }
    if (value_text(d, w, (int)d->flane, e, f, false, buf, sizeof buf)) {
        if (!quiet) printf("%s\n", buf);
        return -1;
    }
    printf("%d: %s = %s\n", ds->id, ds->expr, buf);
    return 0;
}

void dbg_run_displays(dbg *d) {
    for (int k = 0; k < d->ndisplay; k++)
        if (d->display[k].enabled) dbg_show_display(d, &d->display[k], true); /* out of its scope: not shown */
}

/* ---- memory ---- */

typedef struct addr_expr {
    int sp;
    uint64_t a;
} addr_expr;

static const struct {
    const char *name;
    int sp;
} spaces[] = {{"global", VM_SP_GLOBAL}, {"shared", VM_SP_SHARED}, {"local", VM_SP_LOCAL},
              {"const", VM_SP_CONST},   {"param", VM_SP_KPARAM},  {"generic", VM_SP_GENERIC}};

/* "[@space] base [+|- off]": base a number, a register of the lane in focus, or a symbol. */
static int parse_address(dbg *d, const char *e, addr_expr *x, char *desc, size_t desclen, char *err, size_t errlen) {
    vm_warp *w = dbg_fwarp(d);
    while (*e == ' ') e++;
    int sp = -1;
    if (*e == '@') {
        size_t n = strcspn(e + 1, " ");
        for (size_t k = 0; k < sizeof spaces / sizeof spaces[0]; k++)
            if (strlen(spaces[k].name) == n && !strncmp(spaces[k].name, e + 1, n)) sp = spaces[k].sp;
        if (sp < 0) {
            snprintf(err, errlen, "Unknown state space '%.*s'.", (int)n + 1, e);
            return -1;
        }
        e += 1 + n;
        while (*e == ' ') e++;
    }
    size_t n = strcspn(e, " +-");
    if (!n && *e == '-') n = strcspn(e + 1, " +-") + 1;
    dbg_val v;
    int ssp;
    uint8_t type;
    if (!dbg_find_symbol(d, w, e, n, &ssp, &v.bits, &type)) {
        if (sp < 0) sp = ssp;
    } else if (eval_n(d, w, (int)d->flane, e, n, &v, err, errlen)) {
        return -1;
    }
    const char *r = e + n;
    while (*r == ' ') r++;
    if (*r == '+' || *r == '-') {
        dbg_val o;
        size_t m;
        const char *oe = trim(r + 1, &m);
        if (eval_n(d, w, (int)d->flane, oe, m, &o, err, errlen)) return -1;
        v.bits += *r == '+' ? o.bits : -o.bits;
    } else if (*r) {
        snprintf(err, errlen, "A syntax error in expression, near `%s'.", r);
        return -1;
    }
    if (sp < 0) sp = VM_SP_GENERIC;
    x->sp = sp;
    x->a = v.bits;
    const char *sn = "generic";
    for (size_t k = 0; k < sizeof spaces / sizeof spaces[0]; k++)
        if (spaces[k].sp == sp) sn = spaces[k].name;
    snprintf(desc, desclen, "@%s 0x%llx", sn, (unsigned long long)x->a);
    return 0;
}

uint8_t *dbg_address(dbg *d, const char *expr, uint32_t want, char *desc, size_t desclen, char *err, size_t errlen) {
    addr_expr x;
    if (parse_address(d, expr, &x, desc, desclen, err, errlen)) return NULL;
    uint8_t *p = dbg_host_of(d, dbg_fwarp(d), (int)d->flane, x.sp, x.a, want);
    if (!p) snprintf(err, errlen, "Cannot access memory at %s.", desc);
    return p;
}

int dbg_writer_lane(dbg *d, const uint8_t *p, uint32_t n) {
    const vm_insn *i = d->prev_i;
    vm_warp *w = d->prev_w;
    static const uint16_t stores[] = {VM_ST, VM_STS4, VM_STG4, VM_STV, VM_ATOM};
    int k = 0;
    while (k < 5 && (!i || i->op != stores[k])) k++;
    if (k == 5 || !w) return -1;
    const vm_frame *fr = &w->frames[w->depth - 1];
    uint32_t size = i->sz ? i->sz : 4;
    if (i->op == VM_STV) size *= ((const vm_vec *)i->p)->n;
    for (int l = 0; l < VM_LANES; l++) {
        if (!(d->prev_m >> l & 1)) continue;
        uint8_t *h = dbg_host_of(d, w, l, i->sp, lane_addr(fr, fr->fb, i, l), 1);
        if (h && h < p + n && p < h + size) return l;
    }
    return -1;
}

int dbg_cmd_x(dbg *d, const char *fmt, const char *args) {
    unsigned count = 1;
    char f = 'x', u = 'w';
    for (const char *p = fmt; *p;) {
        if (isdigit((unsigned char)*p)) {
            char *end;
            count = (unsigned)strtoul(p, &end, 10);
            p = end;
        } else if (strchr("bhwg", *p)) u = *p++;
        else if (strchr("xduft", *p)) f = *p++;
        else {
            printf("Invalid format letter '%c'.\n", *p);
            return -1;
        }
    }
    unsigned size = u == 'b' ? 1 : u == 'h' ? 2 : u == 'w' ? 4 : 8;
    addr_expr x;
    char desc[200], err[300], err2[300];
    if (parse_address(d, args, &x, desc, sizeof desc, err, sizeof err)) {
        /* a C expression: an array or lvalue where it lives, a pointer's or number's value */
        uint64_t a;
        if (dbg_expr_pointer(d, args, &x.sp, &a, err2, sizeof err2)) {
            printf("%s\n", *args == '@' ? err : err2);
            return -1;
        }
        x.a = a;
        const char *sn = "generic";
        for (size_t k = 0; k < sizeof spaces / sizeof spaces[0]; k++)
            if (spaces[k].sp == x.sp) sn = spaces[k].name;
        snprintf(desc, sizeof desc, "@%s 0x%llx", sn, (unsigned long long)a);
    }
    unsigned per = 16 / size > 8 ? 8 : 16 / size;
    for (unsigned k = 0; k < count; k++) {
        uint64_t a = x.a + (uint64_t)k * size;
        const uint8_t *p = dbg_host_of(d, dbg_fwarp(d), (int)d->flane, x.sp, a, size);
        if (k % per == 0) {
            if (k) printf("\n");
            printf("%.*s0x%llx:", (int)strcspn(desc, "0"), desc, (unsigned long long)a);
        }
        if (!p) {
            printf("\tCannot access memory at address 0x%llx\n", (unsigned long long)a);
            return -1;
        }
        dbg_val v = {.bits = load_bits(p, size, false), .ok = true};
        v.type = size == 1 ? IR_T_U8 : size == 2 ? IR_T_U16 : size == 4 ? IR_T_U32 : IR_T_U64;
        if (f == 'f' && size == 4) v.type = IR_T_F32;
        if (f == 'f' && size == 8) v.type = IR_T_F64;
        char buf[80];
        dbg_format_val(v, f, buf, sizeof buf);
        printf("\t%s", buf);
    }
    printf("\n");
    return 0;
}

static int parse_type(const char *s, size_t n) {
    for (int t = 1; t < IR_T__COUNT; t++)
        if (strlen(ir_type_name[t]) == n && !strncmp(ir_type_name[t], s, n) && ir_type_bytes[t] &&
            ir_type_bytes[t] <= 8)
            return t;
    return -1;
}

/* Bits of text v for a destination of type t. */
static int value_bits(dbg *d, vm_warp *w, const char *v, int t, uint64_t *out, char *err, size_t errlen) {
    dbg_val x;
    if (dbg_eval(d, w, (int)d->flane, v, &x, err, errlen)) return -1;
    if (t == IR_T_F32) {
        float f = (float)as_double(x);
        uint32_t b;
        memcpy(&b, &f, 4);
        *out = b;
    } else if (t == IR_T_F64) {
        double f = as_double(x);
        memcpy(out, &f, 8);
    } else {
        *out = is_float(x.type) ? (uint64_t)(int64_t)as_double(x) : x.bits;
    }
    return 0;
}

int dbg_cmd_set_var(dbg *d, const char *args) {
    vm_warp *w = dbg_fwarp(d);
    if (!w) {
        printf("The program is not being run.\n");
        return -1;
    }
    const char *eq = strchr(args, '=');
    if (!eq) {
        printf("Usage: set var %%REG = VALUE | set var {TYPE} ADDRESS = VALUE\n");
        return -1;
    }
    char lhs[200], err[300];
    size_t ln;
    const char *l = trim(args, &ln);
    ln = (size_t)(eq - l);
    while (ln && l[ln - 1] == ' ') ln--;
    snprintf(lhs, sizeof lhs, "%.*s", (int)ln, l);
    uint64_t bits;
    if (lhs[0] == '%') {
        int lane = (int)d->flane, fi = focus_frame(d, w, lane);
        const vm_frame *fr = &w->frames[fi];
        int k = dbg_find_reg(fr->fn->ir, lhs, strlen(lhs));
        if (k < 0) {
            printf("No register %s in %s.\n", lhs, fr->fn->ir->name);
            return -1;
        }
        int t = fr->fn->ir->regs[k].type;
        if (value_bits(d, w, eq + 1, t, &bits, err, sizeof err)) {
            printf("%s\n", err);
            return -1;
        }
        uint8_t *p = reg_ptr(fr->fn, fr->fb, k, lane);
        if (t == IR_T_PRED) *(uint32_t *)p = (*(uint32_t *)p & ~(1u << lane)) | (uint32_t)(bits != 0) << lane;
        else store_bits(p, ir_type_bytes[t] == 8 ? 8 : 4, bits);
        return 0;
    }
    if (lhs[0] != '{' || !strchr(lhs, '}')) {
        printf("Usage: set var {TYPE} ADDRESS = VALUE\n");
        return -1;
    }
    const char *close = strchr(lhs, '}');
    int t = parse_type(lhs + 1, (size_t)(close - lhs - 1));
    if (t < 0) {
        printf("Unknown type '%.*s'.\n", (int)(close - lhs - 1), lhs + 1);
        return -1;
    }
    char desc[200];
    uint8_t *p = dbg_address(d, close + 1, ir_type_bytes[t], desc, sizeof desc, err, sizeof err);
    if (!p) {
        printf("%s\n", err);
        return -1;
    }
    if (value_bits(d, w, eq + 1, t, &bits, err, sizeof err)) {
        printf("%s\n", err);
        return -1;
    }
    store_bits(p, ir_type_bytes[t], bits);
    return 0;
}

/* ---- info ---- */

static void pc_text(dbg *d, const vm_warp *w, const vm_insn *i, char *buf, size_t len) {
    if (!i) snprintf(buf, len, "-");
    else dbg_where(d, w, i, buf, len);
}

static void info_registers(dbg *d, vm_warp *w, const char *which) {
    int l = (int)d->flane;
    const vm_frame *fr = &w->frames[focus_frame(d, w, l)];
    const ir_func *f = fr->fn->ir;
    bool any = false;
    for (uint32_t k = 0; k < f->nregs; k++) {
        if (*which) { /* only the registers named */
            size_t n = strlen(f->regs[k].name);
            const char *p = strstr(which, f->regs[k].name);
            if (!p || (p[n] && p[n] != ' ')) continue;
        }
        dbg_val v = read_reg(fr->fn, fr->fb, (int)k, l);
        char hex[40], nat[80];
        dbg_format_val(v, 'x', hex, sizeof hex);
        dbg_format_val(v, 0, nat, sizeof nat);
        if (ir_type_bytes[f->regs[k].type] == 16) { /* .b128: both halves, high first */
            uint8_t b[16];
            uint64_t lo, hi;
            dbg_reg_bytes(fr->fn, fr->fb, (int)k, l, b);
            memcpy(&lo, b, 8);
            memcpy(&hi, b + 8, 8);
            snprintf(hex, sizeof hex, "0x%016llx%016llx", (unsigned long long)hi, (unsigned long long)lo);
            snprintf(nat, sizeof nat, "{lo = %llu, hi = %llu}", (unsigned long long)lo, (unsigned long long)hi);
        }
        printf("%-10s %-20s %s\n", f->regs[k].name, hex, nat);
        any = true;
    }
    if (!any) printf("Invalid register `%s' in %s.\n", which, f->name);
}

static void info_warps(dbg *d) {
    printf("  Wp  Active      Divergent   Blocked     Exited      PC\n");
    for (uint32_t k = 0; k < d->cta->nwarps; k++) {
        const vm_warp *w = &d->cta->warps[k];
        char pc[400];
        bool done = w->state == VM_W_DONE || !live(w);
        pc_text(d, w, done ? NULL : w->pc, pc, sizeof pc);
        printf("%c %2u  0x%08x  0x%08x  0x%08x  0x%08x  %s\n", k == d->fwarp ? '*' : ' ', k, done ? 0 : w->mask,
               live(w) & ~w->mask & ~w->blocked, w->blocked & live(w), w->exited & w->present, pc);
    }
}

static const char *lane_state(const vm_warp *w, int l) {
    if (!(w->present >> l & 1)) return "absent";
    if (w->exited >> l & 1) return "exited";
    if (w->blocked >> l & 1) return "blocked";
    return w->mask >> l & 1 ? "active" : "divergent";
}

static void info_lanes(dbg *d) {
    const vm_warp *w = dbg_fwarp(d);
    printf("  Ln  State      ThreadIdx     PC\n");
    for (int l = 0; l < VM_LANES; l++) {
        if (!(w->present >> l & 1)) continue;
        char pc[400], tid[40];
        pc_text(d, w, dbg_lane_pc(w, l), pc, sizeof pc);
        snprintf(tid, sizeof tid, "(%u,%u,%u)", w->tid[0][l], w->tid[1][l], w->tid[2][l]);
        printf("%c %2d  %-9s  %-12s  %s\n", (uint32_t)l == d->flane ? '*' : ' ', l, lane_state(w, l), tid, pc);
    }
}

/* Threads of the running block grouped into runs with the same PC and state. */
static void info_threads(dbg *d) {
    const vm_cta *c = d->cta;
    printf("  BlockIdx  ThreadIdx     To ThreadIdx  Count  State      PC\n");
    uint32_t start = 0;
    for (uint32_t t = 0; t <= c->nthreads; t++) {
        const vm_warp *w0 = &c->warps[start / VM_LANES];
        int l0 = (int)(start % VM_LANES);
        if (t < c->nthreads) {
            const vm_warp *w = &c->warps[t / VM_LANES];
            int l = (int)(t % VM_LANES);
            if (dbg_lane_pc(w, l) == dbg_lane_pc(w0, l0) && !strcmp(lane_state(w, l), lane_state(w0, l0))) continue;
        }
        const vm_warp *we = &c->warps[(t - 1) / VM_LANES];
        int le = (int)((t - 1) % VM_LANES);
        char pc[400], a[40], b[40];
        pc_text(d, w0, dbg_lane_pc(w0, l0), pc, sizeof pc);
        snprintf(a, sizeof a, "(%u,%u,%u)", w0->tid[0][l0], w0->tid[1][l0], w0->tid[2][l0]);
        snprintf(b, sizeof b, "(%u,%u,%u)", we->tid[0][le], we->tid[1][le], we->tid[2][le]);
        bool focus = d->fwarp * VM_LANES + d->flane >= start && d->fwarp * VM_LANES + d->flane < t;
        printf("%c (%u,%u,%u)   %-12s  %-12s  %5u  %-9s  %s\n", focus ? '*' : ' ', c->ctaid[0], c->ctaid[1],
               c->ctaid[2], a, b, t - start, lane_state(w0, l0), pc);
        start = t;
    }
}

static void info_blocks(dbg *d) {
    const vm_cta *c = d->cta;
    const vm_launch_cfg *cfg = c->grid->cfg;
    uint64_t n = c->grid->ncta;
    printf("  BlockIdx   State\n* (%u,%u,%u)    running\n", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    printf("Grid (%u,%u,%u): %llu block(s) finished, %llu waiting to start\n", cfg->grid[0], cfg->grid[1], cfg->grid[2],
           (unsigned long long)c->linear, (unsigned long long)(n - c->linear - 1));
}

static void info_barriers(dbg *d) {
    const vm_cta *c = d->cta;
    bool any = false;
    for (unsigned b = 0; b < 16; b++) {
        uint32_t waiting = 0;
        for (uint32_t k = 0; k < c->nwarps; k++) waiting += (uint32_t)__builtin_popcount(c->warps[k].barwait[b]);
        if (!c->bars[b].arrived && !waiting) continue;
        any = true;
        printf("barrier %u: %u thread(s) arrived, expecting %u; waiting warps:", b, c->bars[b].arrived,
               c->bars[b].expected ? c->bars[b].expected : c->nthreads);
        for (uint32_t k = 0; k < c->nwarps; k++)
            if (c->warps[k].barwait[b]) printf(" %u (lanes 0x%08x)", k, c->warps[k].barwait[b]);
        printf("\n");
    }
    if (!any) printf("No thread of block (%u,%u,%u) waits at a barrier.\n", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
}

/* An mbarrier is its own 64-bit word in shared memory (mbarrier.h). */
static void info_mbarrier(dbg *d, const char *expr) {
    char desc[200], err[300];
    const uint8_t *p = dbg_address(d, expr, 8, desc, sizeof desc, err, sizeof err);
    if (!p) {
        printf("%s\n", *expr ? err : "info cuda mbarrier ADDRESS (e.g. @shared %r1)");
        return;
    }
    uint64_t s;
    memcpy(&s, p, 8);
    if (!(s & MB_VALID)) {
        printf("%s: not an initialized mbarrier (0x%016llx)\n", desc, (unsigned long long)s);
        return;
    }
    printf("%s: mbarrier phase %u, %u of %u arrivals pending, transaction count %d\n", desc, MB_PHASE(s), MB_PEND(s),
           MB_EXP(s), MB_TX(s));
}

static void info_frame(dbg *d, vm_warp *w);
static void info_line(dbg *d, vm_warp *w);
static void info_source(dbg *d, vm_warp *w);

int dbg_cmd_info(dbg *d, const char *args) {
    size_t n = strcspn(args, " ");
    const char *rest = args + n;
    while (*rest == ' ') rest++;
#define ARG(w) (n && n <= strlen(w) && !strncmp(args, w, n))
    if (ARG("breakpoints") || ARG("watchpoints")) {
        dbg_info_breakpoints(d);
        return 0;
    }
    if (ARG("display")) {
        if (d->ndisplay) printf("Auto-display expressions now in effect:\nNum Enb Expression\n");
        for (int k = 0; k < d->ndisplay; k++)
            printf("%d:   %s  %s\n", d->display[k].id, d->display[k].enabled ? "y" : "n", d->display[k].expr);
        if (!d->ndisplay) printf("There are no auto-display expressions now.\n");
        return 0;
    }
    vm_warp *w = dbg_fwarp(d);
    if (!w) {
        printf("The program is not being run.\n");
        return -1;
    }
    if (ARG("registers") || ARG("all-registers")) {
        info_registers(d, w, rest);
        return 0;
    }
    if (ARG("frame")) {
        info_frame(d, w);
        return 0;
    }
    if (ARG("locals")) return dbg_info_vars(d, false);
    if (ARG("args")) return dbg_info_vars(d, true);
    if (ARG("line")) {
        info_line(d, w);
        return 0;
    }
    if (ARG("source")) {
        info_source(d, w);
        return 0;
    }
    if (!strncmp(args, "cuda", 4)) {
        const char *s = args + 4;
        while (*s == ' ') s++;
        if (!strncmp(s, "warps", 5)) info_warps(d);
        else if (!strncmp(s, "lanes", 5)) info_lanes(d);
        else if (!strncmp(s, "threads", 7)) info_threads(d);
        else if (!strncmp(s, "blocks", 6)) info_blocks(d);
        else if (!strncmp(s, "barriers", 8)) info_barriers(d);
        else if (!strncmp(s, "kernels", 7)) {
            const vm_launch_cfg *c = d->cta->grid->cfg;
            printf("  Kernel  Function  GridDim  BlockDim\n* %-7u %s  (%u,%u,%u)  (%u,%u,%u)\n", d->kernel_no,
                   dbg_fn_name(d, c->kernel->ir->name), c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1],
                   c->block[2]);
        } else if (!strncmp(s, "mbarrier", 8)) info_mbarrier(d, s + strcspn(s, " ") + (s[strcspn(s, " ")] ? 1 : 0));
        else printf("info cuda: kernels, warps, lanes, threads, blocks, barriers or mbarrier ADDRESS\n");
        return 0;
    }
#undef ARG
    printf("Undefined info command: \"%s\".\n", args);
    return -1;
}

/* "NAME at FILE.ptx:LINE (FILE.cu:LINE)" of a frame; an inlined call is marked so. */
static void frame_where(dbg *d, vm_warp *w, const dbg_frame *fr, char *buf, size_t len) {
    const vm_func *f = dbg_func_of(w, fr->pc);
    const vm_src *s = &f->src[fr->pc - f->code];
    char args[1024];
    dbg_frame_args(d, w, (int)d->flane, fr, args, sizeof args);
    int k = snprintf(buf, len, "%s%s%s at %s:%u", dbg_frame_name(d, fr, w), args,
                     dbg_frame_inlined(fr) ? " (inlined)" : "", dbg_base(d->path), s->loc.line);
    const char *cu = fr->file ? dbg_file_name(d, fr->file) : NULL;
    if (cu && k > 0 && (size_t)k < len) snprintf(buf + k, len - (size_t)k, " (%s:%u)", dbg_base(cu), fr->line);
}

void dbg_cmd_backtrace_frame(dbg *d, int k) {
    vm_warp *w = dbg_fwarp(d);
    dbg_frame fr[64];
    int n = w ? dbg_frames(d, w, (int)d->flane, fr, 64) : 0;
    char where[600] = "";
    if (k < n) frame_where(d, w, &fr[k], where, sizeof where);
    printf("%s\n", where);
}

int dbg_cmd_backtrace(dbg *d) {
    vm_warp *w = dbg_fwarp(d);
    if (!w) {
        printf("No stack.\n");
        return -1;
    }
    int l = (int)d->flane;
    dbg_frame fr[64];
    int n = dbg_frames(d, w, l, fr, 64);
    if (!n) {
        printf("Lane %d has exited.\n", l);
        return 0;
    }
    for (int k = 0; k < n; k++) {
        char where[600];
        frame_where(d, w, &fr[k], where, sizeof where);
        printf("#%d  %s\n", k, where);
    }
    return 0;
}

/* frame [N], up [N], down [N] (dir 0, 1, -1): selects a frame of the lane in
 * focus for variables, registers, set var and info registers, and shows it. */
int dbg_cmd_frame(dbg *d, int dir, const char *args) {
    vm_warp *w = dbg_fwarp(d);
    if (!w) {
        printf("No stack.\n");
        return -1;
    }
    int l = (int)d->flane;
    dbg_frame fr[64];
    int nf = dbg_frames(d, w, l, fr, 64);
    if (!nf) {
        printf("Lane %d has exited.\n", l);
        return -1;
    }
    int top = nf - 1;
    uint64_t n = dir ? 1 : (uint64_t)d->sel_frame;
    if (*args && !num_parse_u64(args, 1u << 20, &n)) {
        printf("Invalid number \"%s\".\n", args);
        return -1;
    }
    int want = dir > 0 ? d->sel_frame + (int)n : dir < 0 ? d->sel_frame - (int)n : (int)n;
    if (want > top) {
        if (dir > 0 && d->sel_frame == top) {
            printf("Initial frame selected; you cannot go up.\n");
            return -1;
        }
        if (!dir) {
            printf("No frame at level %s.\n", args);
            return -1;
        }
        want = top;
    }
    if (want < 0) {
        if (d->sel_frame == 0) {
            printf("Bottom (innermost) frame selected; you cannot go down.\n");
            return -1;
        }
        want = 0;
    }
    d->sel_frame = want;
    char where[600];
    frame_where(d, w, &fr[want], where, sizeof where);
    printf("#%d  %s\n", want, where);
    const vm_func *f = dbg_func_of(w, fr[want].pc);
    const vm_src *s = &f->src[fr[want].pc - f->code];
    const char *cu = fr[want].file ? dbg_cu_line(d, fr[want].file, fr[want].line) : NULL;
    if (cu) printf("%u\t%s\n", fr[want].line, cu);
    else if (s->loc.line && s->loc.line <= d->nptx) printf("%u\t%s\n", s->loc.line, d->ptx[s->loc.line - 1]);
    return 0;
}

/* info frame: the selected frame, its caller and callee, the lane. */
static void info_frame(dbg *d, vm_warp *w) {
    int l = (int)d->flane;
    dbg_frame fr[64];
    int n = dbg_frames(d, w, l, fr, 64);
    if (!n) {
        printf("Lane %d has exited.\n", l);
        return;
    }
    int k = d->sel_frame < n ? d->sel_frame : n - 1;
    char where[600], focus[160];
    frame_where(d, w, &fr[k], where, sizeof where);
    dbg_focus_line(d, focus, sizeof focus);
    const vm_func *f = dbg_func_of(w, fr[k].pc);
    printf("Stack level %d, pc = %s+%u, in %s\n", k, dbg_fn_name(d, f->ir->name), (unsigned)(fr[k].pc - f->code) * 16,
           where);
    if (k + 1 < n) printf(" called by frame at level %d\n", k + 1);
    if (k > 0) printf(" caller of frame at level %d\n", k - 1);
    if (dbg_frame_inlined(&fr[k])) printf(" inlined into frame %d\n", k + 1);
    printf(" %s\n", focus);
}

/* info line: the .cu and PTX lines of the selected frame's PC. */
static void info_line(dbg *d, vm_warp *w) {
    dbg_frame fr[64];
    int n = dbg_frames(d, w, (int)d->flane, fr, 64);
    if (!n) {
        printf("No line number information available.\n");
        return;
    }
    const dbg_frame *f = &fr[d->sel_frame < n ? d->sel_frame : n - 1];
    const vm_func *fn = dbg_func_of(w, f->pc);
    uint32_t idx = (uint32_t)(f->pc - fn->code), first = idx, last = idx;
    const vm_src *s = &fn->src[idx];
    while (first > 0 && fn->src[first - 1].dbg.line == s->dbg.line && fn->src[first - 1].dbg.file == s->dbg.file)
        first--;
    while (last + 1 < fn->ncode && fn->src[last + 1].dbg.line == s->dbg.line &&
           fn->src[last + 1].dbg.file == s->dbg.file)
        last++;
    const char *cu = f->file ? dbg_file_name(d, f->file) : NULL;
    if (!cu) {
        printf("No line number information available for %s:%u.\n", dbg_base(d->path), s->loc.line);
        return;
    }
    printf("Line %u of \"%s\" starts at %s:%u and ends after %s:%u.\n", f->line, dbg_base(cu), dbg_base(d->path),
           fn->src[first].loc.line, dbg_base(d->path), fn->src[last].loc.line);
}

static void info_source(dbg *d, vm_warp *w) {
    const vm_func *f = w ? dbg_func_of(w, dbg_lane_pc(w, (int)d->flane) ? dbg_lane_pc(w, (int)d->flane) : w->pc) : NULL;
    const vm_src *s = f && dbg_lane_pc(w, (int)d->flane) ? &f->src[dbg_lane_pc(w, (int)d->flane) - f->code] : NULL;
    const char *cu = s && s->dbg.file ? dbg_file_name(d, s->dbg.file) : NULL;
    printf("Current source file is %s\n", cu ? dbg_base(cu) : dbg_base(d->path));
    if (cu) printf("Compilation directory is %.*s\nLocated in %s\n", (int)(dbg_base(cu) - cu), cu, cu);
    printf("PTX: %s, %u lines\n", d->path, d->nptx);
    printf("Contains %s debugging information.\n", dbg_dwarf(d) ? "DWARF" : cu ? "line number (.loc)" : "no");
}

/* Ten PTX lines from `from`; a bare `list` after this one goes on after them. */
static void list_lines(dbg *d, uint32_t from, uint32_t mark, const vm_insn *at) {
    uint32_t to = from + 9 < d->nptx ? from + 9 : d->nptx;
    for (uint32_t k = from; k <= to; k++) printf("%s%u\t%s\n", k == mark ? "=> " : "   ", k, d->ptx[k - 1]);
    if (from > to) printf("Line number %u out of range; \"%s\" has %u lines.\n", from, dbg_base(d->path), d->nptx);
    d->list_next = to + 1;
    d->list_at = at;
}

int dbg_cmd_list(dbg *d, const char *args) {
    uint32_t center = 0, mark = 0;
    vm_warp *w = dbg_fwarp(d);
    const vm_insn *i = w ? dbg_lane_pc(w, (int)d->flane) : NULL;
    if (*args) {
        dbg_loc *locs;
        uint32_t n;
        char err[300];
        const char *colon = strrchr(args, ':');
        const char *file = colon ? args : d->path;
        bool cu = colon && strncmp(dbg_base(args), dbg_base(d->path), (size_t)(colon - args)) != 0;
        if (cu) { /* a .cu line: list that file when readable */
            const ir_module *m = d->prog->ir;
            for (uint32_t k = 0; k < m->nfiles; k++)
                if (!strncmp(dbg_base(m->files[k].name), dbg_base(file), strlen(dbg_base(m->files[k].name)))) {
                    uint32_t line = (uint32_t)strtoul(colon + 1, NULL, 10);
                    if (!dbg_cu_line(d, m->files[k].index, line)) break;
                    uint32_t last = line + 4;
                    while (last > line && !dbg_cu_line(d, m->files[k].index, last)) last--;
                    for (uint32_t q = line > 5 ? line - 5 : 1; q <= last; q++)
                        printf("   %u\t%s\n", q, dbg_cu_line(d, m->files[k].index, q));
                    return 0;
                }
            printf("No source file named %.*s (or it cannot be read).\n", (int)(colon - args), args);
            return -1;
        }
        if (dbg_resolve(d, args, &locs, &n, err, sizeof err)) {
            printf("%s\n", err);
            return -1;
        }
        if (!n) {
            free(locs);
            return -1;
        }
        center = d->prog->funcs[locs[0].fn].src[locs[0].idx].loc.line;
        free(locs);
    } else if (d->list_next && d->list_at == i) {
        list_lines(d, d->list_next, 0, i);
        return 0;
    } else if (i) {
        const vm_func *f = dbg_func_of(w, i);
        const vm_src *s = &f->src[i - f->code];
        center = mark = s->loc.line;
        const char *cu = s->dbg.file ? dbg_cu_line(d, s->dbg.file, s->dbg.line) : NULL;
        if (cu) {
            printf("%s:\n", dbg_base(dbg_file_name(d, s->dbg.file)));
            uint32_t from = s->dbg.line > 5 ? s->dbg.line - 5 : 1;
            for (uint32_t q = from; q <= s->dbg.line + 4; q++) {
                const char *t = dbg_cu_line(d, s->dbg.file, q);
                if (!t) break;
                printf("%s%u\t%s\n", q == s->dbg.line ? "=> " : "   ", q, t);
            }
            printf("%s:\n", dbg_base(d->path));
        }
    } else {
        printf("No default source: give a location (list FILE:LINE, list FUNCTION).\n");
        return -1;
    }
    list_lines(d, center > 5 ? center - 5 : 1, mark, i);
    return 0;
}
