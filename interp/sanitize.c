/* sanitize.c — memcheck records in compute-sanitizer's format (sanitize.h). */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "sanitize.h"

#include "initcheck.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int vm_san_tool(const char *name) {
    static const char *const names[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
    static const int ids[] = {VM_SAN_MEMCHECK, VM_SAN_RACECHECK, VM_SAN_SYNCCHECK, VM_SAN_INITCHECK};
    for (size_t k = 0; name && k < sizeof names / sizeof *names; k++)
        if (!strcmp(name, names[k])) return ids[k];
    return 0;
}

vm_san *vm_san_from_env(int fd) {
    int t = vm_san_tool(getenv("PTXI_SANITIZE"));
    if (!t) return NULL;
    vm_san *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->tool = t;
    s->fd = fd;
    const char *lim = getenv("PTXI_SANITIZE_PRINT_LIMIT");
    s->print_limit = lim ? strtoull(lim, NULL, 10) : 100; /* compute-sanitizer's default */
    const char *leak = getenv("PTXI_SANITIZE_LEAK_CHECK");
    s->leak_check = leak && !strcmp(leak, "full");
    return s;
}

static void write_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k <= 0) return;
        p += k;
        n -= (size_t)k;
    }
}

/* Every line behind the prefix, in one write so records of several threads never mix. */
static void emit(vm_san *s, const char *text, bool close) {
    size_t cap = strlen(text) * 2 + 64, n = 0;
    char *out = malloc(cap);
    if (!out) return;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        n += (size_t)snprintf(out + n, cap - n, "========= %.*s\n", (int)len, p);
        p += len + (e != NULL);
    }
    if (close) n += (size_t)snprintf(out + n, cap - n, "========= \n");
    write_all(s->fd, out, n);
    free(out);
}

void vm_san_record(vm_san *s, const char *text) {
    uint64_t k = atomic_fetch_add(&s->errors, 1);
    if (!s->print_limit || k < s->print_limit) emit(s, text, true);
}

void vm_san_print(vm_san *s, const char *text) { emit(s, text, false); }

void vm_san_hazard(vm_san *s, const char *text, bool warning) {
    uint64_t k = atomic_fetch_add(&s->hazards[warning], 1) + atomic_load(&s->hazards[!warning]);
    if (!s->print_limit || k < s->print_limit) emit(s, text, true);
}

const char *vm_san_num(uint64_t n, char buf[32]) {
    char t[32];
    int len = snprintf(t, sizeof t, "%llu", (unsigned long long)n), o = 0;
    for (int k = 0; k < len; k++) {
        if (k && (len - k) % 3 == 0) buf[o++] = ',';
        buf[o++] = t[k];
    }
    buf[o] = 0;
    return buf;
}

/* One parameter as cu++filt writes it: "float const*" becomes "const float *". */
static size_t param_text(const char *p, size_t len, char *out, size_t cap) {
    char t[256];
    snprintf(t, sizeof t, "%.*s", (int)len, p);
    char *c = strstr(t, " const");
    bool lead_const = c && (c[6] == '*' || c[6] == '&' || c[6] == 0) && !strchr(t, '(');
    if (lead_const) memmove(c, c + 6, strlen(c + 6) + 1);
    size_t n = (size_t)snprintf(out, cap, "%s", lead_const ? "const " : "");
    for (const char *q = t; *q && n + 2 < cap; q++) {
        if ((*q == '*' || *q == '&') && q > t && q[-1] != '*' && q[-1] != '&' && q[-1] != ' ') out[n++] = ' ';
        out[n++] = *q;
    }
    out[n] = 0;
    return n;
}

/* A kernel's name as compute-sanitizer shows it: demangled where the C++
 * runtime's demangler is loaded (a CUDA program), with cu++filt's spacing. */
static void shown_name(const char *mangled, char *out, size_t cap) {
    typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
    demangle_fn dm = (demangle_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "__cxa_demangle");
    int st = -1;
    char *d = dm && mangled[0] == '_' && mangled[1] == 'Z' ? dm(mangled, NULL, NULL, &st) : NULL;
    if (!d || st) {
        free(d);
        snprintf(out, cap, "%s", mangled);
        return;
    }
    /* the parameters' parenthesis: the first outside template arguments, which
     * may hold casts ("barrier<(cuda::std::__4::thread_scope)2, ...>::arrive(long)") */
    char *open = NULL;
    for (int depth = 0, k = 0; d[k] && !open; k++) {
        if (d[k] == '<') depth++;
        else if (d[k] == '>' && depth) depth--;
        else if (d[k] == '(' && !depth) open = d + k;
    }
    size_t n = 0;
    if (!open) n = (size_t)snprintf(out, cap, "%s", d);
    else {
        n = (size_t)snprintf(out, cap, "%.*s(", (int)(open - d + 0), d);
        int depth = 0;
        const char *p = open + 1, *start = p;
        for (; *p && n + 4 < cap; p++) {
            if (*p == '<' || *p == '(') depth++;
            else if ((*p == '>' || *p == ')') && depth) depth--;
            else if ((*p == ',' && !depth) || (*p == ')' && !depth)) {
                n += param_text(start, (size_t)(p - start), out + n, cap - n);
                n += (size_t)snprintf(out + n, cap - n, "%s", *p == ',' ? ", " : ")");
                if (*p == ')') break;
                start = p + 1;
                while (*start == ' ') start++, p++;
            }
        }
    }
    free(d);
    /* nvcc's file-local namespace is not shown */
    for (char *q = strstr(out, "_INTERNAL_"), *e; q && (e = strstr(q, "::")); q = strstr(q, "_INTERNAL_"))
        memmove(q, e + 2, strlen(e + 2) + 1);
}

/* "FILE:LINE" of .file index `file`, the file's base name. */
static bool file_line(const ir_module *m, uint32_t file, uint32_t line, char *out, size_t cap) {
    for (uint32_t k = 0; file && k < m->nfiles; k++)
        if (m->files[k].index == file) {
            const char *base = strrchr(m->files[k].name, '/');
            snprintf(out, cap, "%s:%u", base ? base + 1 : m->files[k].name, line);
            return true;
        }
    return false;
}

/* The index of the .loc in effect at instruction s in its function's body
 * when it is the one s's line comes from, else -1. */
static int loc_at(const ir_func *F, const vm_src *s) {
    int last = -1;
    for (uint32_t k = 0; k < F->nbody && F->body[k].loc.line <= s->loc.line; k++)
        if (F->body[k].kind == IR_ST_LOC) last = (int)k;
    if (last < 0) return -1;
    const ir_stmt *l = &F->body[last];
    return l->u.locd.dbg.file == s->dbg.file && l->u.locd.dbg.line == s->dbg.line ? last : -1;
}

/* The "inlined_at FILE LINE COL" of a .loc's text (-lineinfo code of an inlined function). */
static bool inlined_at(const char *text, ir_dbgloc *at) {
    const char *p = text ? strstr(text, "inlined_at") : NULL;
    return p && sscanf(p + 10, "%u %u %u", &at->file, &at->line, &at->col) == 3;
}

/* The string a .debug_str label names (bytes written as .b8 lists). */
static bool debug_str(const ir_module *m, const char *label, size_t len, char *out, size_t cap) {
    char key[128];
    if (len + 2 > sizeof key) return false;
    snprintf(key, sizeof key, "%.*s:", (int)len, label);
    for (uint32_t k = 0; k < m->nsections; k++) {
        const char *p = strstr(m->sections[k], key);
        if (!p) continue;
        size_t n = 0;
        for (p += strlen(key); *p && *p != '$' && *p != '}' && n + 1 < cap;) {
            if (*p == '.') p += strcspn(p, " \t\n"); /* .b8 */
            else if (*p >= '0' && *p <= '9') {
                char *e;
                unsigned long v = strtoul(p, &e, 10);
                p = e;
                if (!v) break;
                out[n++] = (char)v;
            } else p++;
        }
        out[n] = 0;
        return n > 0;
    }
    return false;
}

/* The name of the inlined function a .loc's text names ("function_name LABEL"), as records show it. */
static bool inlined_name(const ir_module *m, const char *text, char *out, size_t cap) {
    const char *fn = text && strstr(text, "inlined_at") ? strstr(text, "function_name") : NULL;
    char mangled[512];
    if (!fn) return false;
    fn += 13;
    fn += strspn(fn, " ");
    if (!debug_str(m, fn, strcspn(fn, " ,"), mangled, sizeof mangled)) return false;
    shown_name(mangled, out, cap);
    return true;
}

void vm_san_at(const vm_func *f, const vm_insn *i, char *out, size_t cap, char *frame, size_t fcap) {
    if (frame && fcap) frame[0] = 0;
    if (!f) {
        snprintf(out, cap, "<unknown>");
        return;
    }
    const vm_src *src = &f->src[i - f->code];
    char name[512], where[400] = "", callee[512];
    shown_name(f->ir->name, name, sizeof name);
    const ir_module *m = f->prog->ir;
    if (!file_line(m, src->dbg.file, src->dbg.line, where, sizeof where))
        snprintf(where, sizeof where, "%s:%u", f->prog->path ? f->prog->path : "<ptx>", src->loc.line);
    unsigned long long off = (unsigned long long)((size_t)(i - f->code) * 16);
    const ir_func *F = f->ir;
    int k = loc_at(F, src);
    bool inl = k >= 0 && inlined_name(m, F->body[k].u.locd.text, callee, sizeof callee);
    snprintf(out, cap, "%s+0x%llx in %s", inl ? callee : name, off, where);
    /* code of inlined functions is named as the innermost; each caller out to
     * the kernel is a Device Frame at the line of its call (the .loc before
     * that names the inlined_at place) */
    size_t n = 0;
    for (int depth = 0; inl && depth < 64; depth++) {
        ir_dbgloc at;
        char caller[400];
        if (!inlined_at(F->body[k].u.locd.text, &at) || !file_line(m, at.file, at.line, caller, sizeof caller)) break;
        int j = k - 1;
        for (; j >= 0; j--) {
            const ir_stmt *l = &F->body[j];
            if (l->kind == IR_ST_LOC && l->u.locd.dbg.file == at.file && l->u.locd.dbg.line == at.line &&
                l->u.locd.dbg.col == at.col)
                break;
        }
        inl = j >= 0 && inlined_name(m, F->body[j].u.locd.text, callee, sizeof callee);
        if (frame && n < fcap)
            n += (size_t)snprintf(frame + n, fcap - n, "\n        Device Frame: %s+0x%llx in %s", inl ? callee : name,
                                  off, caller);
        k = j;
    }
}

void vm_san_who(const vm_warp *w, int lane, char *out, size_t cap) {
    const vm_cta *cta = w->cta;
    const vm_launch_cfg *cfg = cta->grid->cfg;
    unsigned t = w->id * VM_LANES + (unsigned)lane, bx = cfg->block[0], by = cfg->block[1];
    snprintf(out, cap, "by thread (%u,%u,%u) in block (%u,%u,%u)", t % bx, t / bx % by, t / (bx * by), cta->ctaid[0],
             cta->ctaid[1], cta->ctaid[2]);
}

void vm_san_stop(vm_warp *w, const vm_insn *i, uint32_t lanes, const char *what) {
    vm_san *s = w->cta->grid->cfg->kernel->prog->rt->san;
    if (s->tool != VM_SAN_MEMCHECK) return;
    char at[1024], by[128], text[1400];
    vm_san_at(vm_func_of(w, i), i, at, sizeof at, NULL, 0);
    for (int l = 0; l < VM_LANES; l++)
        if (lanes >> l & 1) {
            vm_san_who(w, l, by, sizeof by);
            snprintf(text, sizeof text,
                     "%s\n    at %s\n    %s\n    Saved host backtrace up to driver entry point at kernel launch time",
                     what, at, by);
            vm_san_record(s, text);
        }
}

void vm_san_thread_record(vm_warp *w, const vm_insn *i, int lane, const char *what, uint64_t addr) {
    char at[1024], by[128], frame[VM_SAN_FRAMES], text[4096];
    vm_san_at(vm_func_of(w, i), i, at, sizeof at, frame, sizeof frame);
    vm_san_who(w, lane, by, sizeof by);
    snprintf(text, sizeof text,
             "%s\n    at %s\n    %s\n    Address 0x%llx%s\n"
             "    Saved host backtrace up to driver entry point at kernel launch time",
             what, at, by, (unsigned long long)addr, frame);
    vm_san_record(w->cta->grid->cfg->kernel->prog->rt->san, text);
}

void vm_san_bad_free(vm_warp *w, const vm_insn *i, int lane, uint64_t p, bool twice) {
    vm_san_thread_record(w, i, lane,
                         twice ? "Malloc/Free Error encountered : Device-side double free"
                               : "Malloc/Free Error encountered : Invalid pointer to device-side free",
                         p);
}

static const char *const space_name[] = {"__global__", "__shared__", "__local__", "__constant__",
                                         "__global__", "__global__", "__local__"};

static _Thread_local uint8_t scratch[256];

uint8_t *vm_san_access(vm_warp *w, const vm_insn *i, int lane, int sp, uint64_t a, unsigned n, bool wr, int why) {
    vm_cta *cta = w->cta;
    vm_grid *g = cta->grid;
    vm_runtime *rt = g->cfg->kernel->prog->rt;
    vm_arena *arena = rt->arena;
    if (sp == VM_SP_GENERIC) sp = vm_generic_space(&a);
    if (why == VM_SAN_OOB && sp == VM_SP_SHARED && cta->san) { /* racecheck: every shared access comes here */
        uint8_t *p = vm_san_shared(w, i, lane, a, n, wr);
        if (p) return p;
    }
    bool arena_space = sp == VM_SP_GLOBAL || sp == VM_SP_CONST || sp == VM_SP_KPARAM;
    /* What an H100 lets through unreported: shared addresses in the 1 KiB the
     * system reserves before the CTA's own (a negative offset), and local
     * addresses outside the thread's frame (they land in the local memory of
     * the device). Reads see zeros. */
    bool unseen = why == VM_SAN_OOB &&
                  ((sp == VM_SP_SHARED && a >= VM_WIN_SIZE - VM_SAN_SHARED_RESERVED && a < VM_WIN_SIZE) || sp == VM_SP_LOCAL);
    if (unseen && n <= sizeof scratch) {
        if (!wr) memset(scratch, 0, n);
        return scratch;
    }
    if (rt->san->tool == VM_SAN_RACECHECK || rt->san->tool == VM_SAN_SYNCCHECK) {
        /* no bounds records either (the GPU's racecheck and synccheck give none): a bad access faults */
        return why == VM_SAN_OOB && arena_space && vm_arena_ok_exact(arena, a, n, wr) ? (uint8_t *)(uintptr_t)a : NULL;
    }
    if (rt->san->tool == VM_SAN_INITCHECK) { /* no bounds records: a bad access faults as in a normal run */
        vm_alloc r;
        bool in = why == VM_SAN_OOB && arena_space && vm_init_find(arena, a, n, &r) &&
                  (!wr || (r.kind != VM_SH_CONST && r.kind != VM_SH_PARAM));
        if (in) return vm_init_access(w, i, lane, a, n, wr, &r);
        /* freed memory is still there on a GPU: read or written unreported */
        if (why == VM_SAN_OOB && arena_space && n <= sizeof scratch && vm_arena_locate(arena, a, &r) == 2) {
            if (!wr) memset(scratch, 0, n);
            return scratch;
        }
        return NULL;
    }
    if (why == VM_SAN_OOB && arena_space && vm_arena_ok_exact(arena, a, n, wr)) return (uint8_t *)(uintptr_t)a;
    if (n > sizeof scratch) return NULL;
    /* The GPU stops a warp at its first bad access: the lanes of that
     * instruction report, later instructions of the warp do not (inline.3:
     * the other branch of a divergent warp). ptxi runs the warp on, silently. */
    if (w->san_bad && w->san_bad != i) {
        if (!wr) memset(scratch, 0, n);
        return scratch;
    }
    w->san_bad = i;
    const vm_func *f = vm_func_of(w, i);
    char at[1024], frame[VM_SAN_FRAMES], nb[32], sb[32];
    vm_san_at(f, i, at, sizeof at, frame, sizeof frame);
    unsigned t = w->id * VM_LANES + (unsigned)lane, bx = g->cfg->block[0], by = g->cfg->block[1];
    uint64_t shown = sp == VM_SP_SHARED ? a + VM_SAN_SHARED_RESERVED : a;
    char text[4096];
    int len = snprintf(text, sizeof text,
                       "Invalid %s %s of size %u bytes\n    at %s\n"
                       "    by thread (%u,%u,%u) in block (%u,%u,%u)\n    Access to 0x%llx is %s",
                       space_name[sp], wr ? "write" : "read", n, at, t % bx, t / bx % by, t / (bx * by), cta->ctaid[0],
                       cta->ctaid[1], cta->ctaid[2], (unsigned long long)shown,
                       why == VM_SAN_MISALIGNED ? "misaligned" : "out of bounds");
    vm_alloc r;
    int loc = arena_space ? vm_arena_locate(arena, a, &r) : 0;
    if (len > 0 && (size_t)len < sizeof text && loc) {
        size_t o = (size_t)len;
        if (r.kind == VM_SH_HEAP) snprintf(text + o, sizeof text - o, "\n    and is located in the device heap");
        else if (loc == 1)
            snprintf(text + o, sizeof text - o, "\n    and is inside the nearest allocation at 0x%llx of size %s bytes",
                     (unsigned long long)r.addr, vm_san_num(r.size, sb));
        else if (loc == 2)
            snprintf(text + o, sizeof text - o, "\n    and is inside a freed allocation at 0x%llx of size %s bytes",
                     (unsigned long long)r.addr, vm_san_num(r.size, sb));
        else if (a >= r.addr + r.size)
            snprintf(text + o, sizeof text - o,
                     "\n    and is %s bytes after the nearest allocation at 0x%llx of size %s bytes",
                     vm_san_num(a - (r.addr + r.size) + 1, nb), (unsigned long long)r.addr, vm_san_num(r.size, sb));
        else
            snprintf(text + o, sizeof text - o,
                     "\n    and is %s bytes before the nearest allocation at 0x%llx of size %s bytes",
                     vm_san_num(r.addr - a, nb), (unsigned long long)r.addr, vm_san_num(r.size, sb));
    }
    size_t o = strlen(text);
    snprintf(text + o, sizeof text - o, "%s\n    Saved host backtrace up to driver entry point at kernel launch time",
             frame);
    vm_san_record(rt->san, text);
    if (!wr) memset(scratch, 0, n);
    return scratch;
}
