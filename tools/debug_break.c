/* debug_break.c — where `ptxi debug` stops: locations ([FILE:]LINE of the PTX
 * or, through .loc, of the .cu source; function and label names) resolved to
 * code indexes, breakpoints with per-lane conditions, and watchpoints that
 * compare the watched bytes before every instruction. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "numparse.h"

const char *dbg_base(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool all_digits(const char *s) {
    if (!*s) return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

/* Appends every (function, index) where `match` holds and the previous
 * instruction of the function does not (the start of each run of a line). */
typedef bool (*line_fn)(const vm_src *s, uint32_t file, uint32_t line);
static bool ptx_at(const vm_src *s, uint32_t file, uint32_t line) {
    (void)file;
    return s->loc.line == line;
}
static bool cu_at(const vm_src *s, uint32_t file, uint32_t line) { return s->dbg.file == file && s->dbg.line == line; }

static int collect(dbg *d, line_fn at, uint32_t file, uint32_t line, dbg_loc **out, uint32_t *n) {
    *n = 0;
    *out = NULL;
    for (uint32_t f = 0; f < d->prog->nfuncs; f++) {
        const vm_func *vf = &d->prog->funcs[f];
        for (uint32_t k = 0; k < vf->ncode; k++) {
            if (!at(&vf->src[k], file, line)) continue;
            /* compiler-made instructions (.loc line 0) inside a line do not start it again */
            uint32_t p = k;
            while (p > 0 && file && vf->src[p - 1].dbg.file && !vf->src[p - 1].dbg.line) p--;
            if (p > 0 && at(&vf->src[p - 1], file, line)) continue;
            dbg_loc *nv = realloc(*out, (*n + 1) * sizeof **out);
            if (!nv) return -1;
            *out = nv;
            nv[(*n)++] = (dbg_loc){f, k};
        }
    }
    return 0;
}

/* -lineinfo: the start of each run of instructions inlined from a call at
 * FILE:LINE (`.loc ..., inlined_at FILE LINE COL`), where cuda-gdb stops for
 * a breakpoint on a line that has only inlined calls. */
static int collect_inlined(dbg *d, uint32_t file, uint32_t line, dbg_loc **out, uint32_t *n) {
    *n = 0;
    *out = NULL;
    for (uint32_t f = 0; f < d->prog->nfuncs; f++) {
        const vm_func *vf = &d->prog->funcs[f];
        const ir_func *F = vf->ir;
        const ir_stmt *last = NULL;
        bool prev = false;
        for (uint32_t k = 0, j = 0; k < vf->ncode; k++) {
            for (; j < F->nbody && F->body[j].loc.line <= vf->src[k].loc.line; j++)
                if (F->body[j].kind == IR_ST_LOC) last = &F->body[j];
            const char *text = dbg_loc_inlined(last, &vf->src[k]), *ia = text ? strstr(text, "inlined_at") : NULL;
            unsigned cf = 0, cl = 0;
            bool hit = ia && sscanf(ia + 10, "%u %u", &cf, &cl) == 2 && cf == file && cl == line;
            if (hit && !prev) {
                dbg_loc *nv = realloc(*out, (*n + 1) * sizeof **out);
                if (!nv) return -1;
                *out = nv;
                nv[(*n)++] = (dbg_loc){f, k};
            }
            prev = hit;
        }
    }
    return 0;
}

/* The first line at or after `line` that has code, for the lines `at` reads. */
static uint32_t line_with_code(dbg *d, bool cu, uint32_t file, uint32_t line) {
    uint32_t best = 0;
    for (uint32_t f = 0; f < d->prog->nfuncs; f++) {
        const vm_func *vf = &d->prog->funcs[f];
        for (uint32_t k = 0; k < vf->ncode; k++) {
            const vm_src *s = &vf->src[k];
            uint32_t l = cu ? (s->dbg.file == file ? s->dbg.line : 0) : s->loc.line;
            if (l >= line && (!best || l < best)) best = l;
        }
    }
    return best;
}

int dbg_resolve(dbg *d, const char *spec, dbg_loc **out, uint32_t *n, char *err, size_t errlen) {
    *out = NULL;
    *n = 0;
    if (!d->prog) {
        snprintf(err, errlen, "No PTX is loaded.");
        return -1;
    }
    const ir_module *m = d->prog->ir;
    const char *colon = strrchr(spec, ':');
    if (colon && all_digits(colon + 1)) {
        uint32_t line = (uint32_t)strtoul(colon + 1, NULL, 10);
        char file[256];
        snprintf(file, sizeof file, "%.*s", (int)(colon - spec), spec);
        if (!strcmp(dbg_base(file), dbg_base(d->path))) {
            uint32_t l = line_with_code(d, false, 0, line);
            if (!l) {
                snprintf(err, errlen, "Line %u of \"%s\" has no code after it.", line, file);
                return -1;
            }
            return collect(d, ptx_at, 0, l, out, n);
        }
        bool known = false;
        for (uint32_t k = 0; k < m->nfiles; k++)
            if (!strcmp(dbg_base(m->files[k].name), dbg_base(file))) {
                uint32_t l = line_with_code(d, true, m->files[k].index, line);
                known = true;
                if (!l) continue;
                if (l != line) { /* no code of its own: the calls inlined there, if any */
                    if (collect_inlined(d, m->files[k].index, line, out, n)) return -1;
                    if (*n) return 0;
                }
                return collect(d, cu_at, m->files[k].index, l, out, n);
            }
        if (known) snprintf(err, errlen, "Line %u of \"%s\" has no code after it.", line, file);
        else snprintf(err, errlen, "No source file named %s.", file);
        return -1;
    }
    if (all_digits(spec)) {
        uint32_t l = line_with_code(d, false, 0, (uint32_t)strtoul(spec, NULL, 10));
        if (!l) {
            snprintf(err, errlen, "Line %s of \"%s\" has no code after it.", spec, dbg_base(d->path));
            return -1;
        }
        return collect(d, ptx_at, 0, l, out, n);
    }
    *n = 0;
    *out = malloc(sizeof **out);
    if (!*out) return -1;
    for (uint32_t f = 0; f < d->prog->nfuncs; f++) {
        const vm_func *vf = &d->prog->funcs[f];
        if (vf->ncode && dbg_names_fn(d, vf->ir->name, spec)) {
            /* with DWARF (-G), past the prologue as gdb does: the first
             * instruction of a line after the function's opening line */
            uint32_t idx = 0;
            if (dbg_dwarf(d) && vf->src[0].dbg.line) {
                while (idx < vf->ncode && (!vf->src[idx].dbg.line || vf->src[idx].dbg.line == vf->src[0].dbg.line))
                    idx++;
                if (idx == vf->ncode) idx = 0;
            }
            **out = (dbg_loc){f, idx};
            *n = 1;
            return 0;
        }
        for (uint32_t k = 0; k < vf->ir->nlabels; k++)
            if (!strcmp(vf->ir->labels[k].name, spec)) {
                uint32_t line = vf->ir->labels[k].loc.line, idx = 0;
                while (idx < vf->ncode && vf->src[idx].loc.line < line) idx++;
                if (idx == vf->ncode) break;
                **out = (dbg_loc){f, idx};
                *n = 1;
                return 0;
            }
    }
    free(*out);
    *out = NULL;
    snprintf(err, errlen, "Function or label \"%s\" not defined.", spec);
    return -1;
}

void dbg_remark(dbg *d) {
    if (!d->mark) return;
    for (uint32_t f = 0; f < d->prog->nfuncs; f++)
        for (uint32_t k = 0; k <= d->prog->funcs[f].ncode; k++) d->mark[f][k] &= (uint8_t)~DBG_M_BREAK;
    for (int b = 0; b < d->nbp; b++)
        if (d->bp[b].enabled)
            for (uint32_t k = 0; k < d->bp[b].nlocs; k++)
                d->mark[d->bp[b].locs[k].fn][d->bp[b].locs[k].idx] |= DBG_M_BREAK;
}

static void describe_loc(dbg *d, const dbg_loc *l, char *buf, size_t len) {
    const vm_func *vf = &d->prog->funcs[l->fn];
    const vm_src *s = &vf->src[l->idx];
    int k = snprintf(buf, len, "%s at %s:%u", dbg_fn_name(d, vf->ir->name), dbg_base(d->path), s->loc.line);
    const char *cu = s->dbg.file ? dbg_file_name(d, s->dbg.file) : NULL;
    if (cu && k > 0 && (size_t)k < len) snprintf(buf + k, len - (size_t)k, " (%s:%u)", dbg_base(cu), s->dbg.line);
}

/* The name of another loaded module where spec has code (a breakpoint there
 * waits until that module is in use), or NULL. */
static const char *module_with(dbg *d, const char *spec) {
    uint32_t cur = d->cur, nbp = (uint32_t)d->nbp;
    const char *found = NULL;
    if (d->stop_w) return NULL; /* the module in use is the one stopped in */
    d->nbp = 0;                 /* switching modules resolves breakpoints: none meanwhile */
    for (uint32_t k = 0; k < d->nmods && !found; k++) {
        if (k == cur) continue;
        dbg_use_module(d, k);
        dbg_loc *locs = NULL;
        uint32_t n = 0;
        char err[300];
        if (!dbg_resolve(d, spec, &locs, &n, err, sizeof err) && n) found = d->mods[k].path;
        free(locs);
    }
    if (d->nmods > 1) dbg_use_module(d, cur);
    d->nbp = (int)nbp;
    return found;
}

int dbg_cmd_break(dbg *d, const char *args, bool temp) {
    char spec[256], cond[256] = "", err[300] = "";
    if (!*args) {
        if (!d->stop_w) {
            printf("No default breakpoint location now.\n");
            return -1;
        }
        const vm_func *f = dbg_func_of(d->stop_w, d->stop_i);
        snprintf(spec, sizeof spec, "%s:%u", dbg_base(d->path), f->src[d->stop_i - f->code].loc.line);
    } else {
        snprintf(spec, sizeof spec, "%s", args);
    }
    char *ifp = strstr(spec, " if ");
    if (ifp) {
        snprintf(cond, sizeof cond, "%s", ifp + 4);
        *ifp = 0;
    }
    if (d->nbp == DBG_MAX_BP) {
        printf("Too many breakpoints.\n");
        return -1;
    }
    dbg_bp *b = &d->bp[d->nbp];
    memset(b, 0, sizeof *b);
    const char *other = NULL;
    if (dbg_resolve(d, spec, &b->locs, &b->nlocs, err, sizeof err) || !b->nlocs) {
        free(b->locs);
        b->locs = NULL;
        b->nlocs = 0;
        if (!(other = module_with(d, spec))) {
            printf("%s\n", err[0] ? err : "No code at that location.");
            return -1;
        }
    }
    b->id = d->next_id++;
    b->enabled = true;
    b->temp = temp;
    snprintf(b->spec, sizeof b->spec, "%s", spec);
    snprintf(b->cond, sizeof b->cond, "%s", cond);
    d->nbp++;
    char where[400];
    if (other)
        snprintf(where, sizeof where, "%s (in %s, pending until one of its kernels runs)", spec, dbg_base(other));
    else describe_loc(d, &b->locs[0], where, sizeof where);
    printf("%s %d at %s", temp ? "Temporary breakpoint" : "Breakpoint", b->id, where);
    if (b->nlocs > 1) printf(" (%u locations)", b->nlocs);
    printf("\n");
    dbg_remark(d);
    return 0;
}

/* What a number names: a breakpoint, a watchpoint or a display (one numbering). */
typedef struct numbered {
    int kind, k;
} numbered; /* kind: 0 none, 1 breakpoint, 2 watchpoint, 3 display */

static numbered find_number(dbg *d, long id) {
    for (int k = 0; k < d->nbp; k++)
        if (d->bp[k].id == id) return (numbered){1, k};
    for (int k = 0; k < d->nwatch; k++)
        if (d->watch[k].id == id) return (numbered){2, k};
    for (int k = 0; k < d->ndisplay; k++)
        if (d->display[k].id == id) return (numbered){3, k};
    return (numbered){0, 0};
}

static void delete_number(dbg *d, numbered n) {
    if (n.kind == 1) {
        free(d->bp[n.k].locs);
        memmove(&d->bp[n.k], &d->bp[n.k + 1], (size_t)(d->nbp - n.k - 1) * sizeof d->bp[0]);
        d->nbp--;
    } else if (n.kind == 2) {
        memmove(&d->watch[n.k], &d->watch[n.k + 1], (size_t)(d->nwatch - n.k - 1) * sizeof d->watch[0]);
        d->nwatch--;
    } else if (n.kind == 3) {
        memmove(&d->display[n.k], &d->display[n.k + 1], (size_t)(d->ndisplay - n.k - 1) * sizeof d->display[0]);
        d->ndisplay--;
    }
}

static void enable_number(dbg *d, numbered n, bool on) {
    if (n.kind == 1) d->bp[n.k].enabled = on;
    else if (n.kind == 3) d->display[n.k].enabled = on;
    else if (n.kind == 2) {
        dbg_watch *wt = &d->watch[n.k];
        if (on && !wt->enabled && wt->host) memcpy(wt->old, wt->host, wt->len); /* changes from now on */
        wt->enabled = on;
    }
}

/* The numbers in args (kinds: a mask of the kinds they may name), each handed to fn. */
static int each_number(dbg *d, const char *args, unsigned kinds, const char *what, void (*fn)(dbg *, numbered, bool),
                       bool on) {
    for (const char *p = args; *p;) {
        char *end;
        long id = strtol(p, &end, 10);
        if (end == p || (*end && *end != ' ')) {
            printf("Bad %s number '%s'\n", what, p);
            return -1;
        }
        numbered n = find_number(d, id);
        if (!n.kind || !(kinds >> n.kind & 1)) printf("No %s number %ld.\n", what, id);
        else fn(d, n, on);
        p = end;
        while (*p == ' ') p++;
    }
    dbg_remark(d);
    return 0;
}

static void delete_fn(dbg *d, numbered n, bool on) {
    (void)on;
    delete_number(d, n);
}

int dbg_cmd_delete(dbg *d, const char *args) {
    if (!strncmp(args, "display", 7) && (!args[7] || args[7] == ' ')) return dbg_cmd_undisplay(d, args + 7 + !!args[7]);
    if (!strncmp(args, "breakpoints", 11)) args += 11 + !!args[11];
    if (!*args) { /* every breakpoint and watchpoint, as in gdb (displays stay) */
        for (int k = 0; k < d->nbp; k++) free(d->bp[k].locs);
        d->nbp = d->nwatch = 0;
        dbg_remark(d);
        return 0;
    }
    return each_number(d, args, 1u << 1 | 1u << 2 | 1u << 3, "breakpoint", delete_fn, false);
}

int dbg_cmd_undisplay(dbg *d, const char *args) {
    while (*args == ' ') args++;
    if (!*args) {
        d->ndisplay = 0;
        return 0;
    }
    return each_number(d, args, 1u << 3, "display", delete_fn, false);
}

int dbg_cmd_enable(dbg *d, const char *args, bool on) {
    bool display = !strncmp(args, "display", 7) && (!args[7] || args[7] == ' ');
    if (display) args += 7 + !!args[7];
    else if (!strncmp(args, "breakpoints", 11)) args += 11 + !!args[11];
    if (!*args) { /* all of them */
        if (!display) {
            for (int k = 0; k < d->nbp; k++) enable_number(d, (numbered){1, k}, on);
            for (int k = 0; k < d->nwatch; k++) enable_number(d, (numbered){2, k}, on);
        }
        for (int k = 0; display && k < d->ndisplay; k++) enable_number(d, (numbered){3, k}, on);
        dbg_remark(d);
        return 0;
    }
    return each_number(d, args, display ? 1u << 3 : 1u << 1 | 1u << 2 | 1u << 3, display ? "display" : "breakpoint",
                       enable_number, on);
}

/* condition N [COND]: sets or (without COND) removes a breakpoint's or watchpoint's condition. */
int dbg_cmd_condition(dbg *d, const char *args) {
    char *end;
    long id = strtol(args, &end, 10);
    if (end == args) {
        printf("Argument required (breakpoint number).\n");
        return -1;
    }
    while (*end == ' ') end++;
    numbered n = find_number(d, id);
    char *cond = n.kind == 1 ? d->bp[n.k].cond : n.kind == 2 ? d->watch[n.k].cond : NULL;
    if (!cond) {
        printf("No breakpoint number %ld.\n", id);
        return -1;
    }
    snprintf(cond, sizeof d->bp[0].cond, "%s", end);
    if (!*end) printf("Breakpoint %ld now unconditional.\n", id);
    return 0;
}

/* ignore N COUNT: the next COUNT hits of breakpoint or watchpoint N do not stop. */
int dbg_cmd_ignore(dbg *d, const char *args) {
    char *end;
    long id = strtol(args, &end, 10);
    uint64_t count;
    while (*end == ' ') end++;
    numbered n = find_number(d, id);
    if (end == args || !n.kind || n.kind == 3) {
        printf("No breakpoint number %s.\n", args);
        return -1;
    }
    if (!num_parse_u64(end, UINT32_MAX, &count)) {
        printf("Argument required (a number of crossings).\n");
        return -1;
    }
    if (n.kind == 1) d->bp[n.k].ignore = (unsigned)count;
    else d->watch[n.k].ignore = (unsigned)count;
    if (!count) printf("Will stop next time breakpoint %ld is reached.\n", id);
    else printf("Will ignore next %u crossing%s of breakpoint %ld.\n", (unsigned)count, count == 1 ? "" : "s", id);
    return 0;
}

void dbg_info_breakpoints(dbg *d) {
    if (!d->nbp && !d->nwatch) {
        printf("No breakpoints or watchpoints.\n");
        return;
    }
    printf("Num     Type            Disp Enb What\n");
    for (int k = 0; k < d->nbp; k++) {
        const dbg_bp *b = &d->bp[k];
        char where[400];
        if (b->nlocs) describe_loc(d, &b->locs[0], where, sizeof where);
        else snprintf(where, sizeof where, "<pending> %s", b->spec);
        printf("%-7d breakpoint      %-4s %-3s %s\n", b->id, b->temp ? "del" : "keep", b->enabled ? "y" : "n", where);
        if (b->cond[0]) printf("\tstop only if %s\n", b->cond);
        if (b->hits) printf("\tbreakpoint already hit %u time%s\n", b->hits, b->hits == 1 ? "" : "s");
        if (b->ignore) printf("\tWill ignore next %u crossings of breakpoint.\n", b->ignore);
    }
    for (int k = 0; k < d->nwatch; k++) {
        const dbg_watch *wt = &d->watch[k];
        printf("%-7d hw watchpoint   keep %-3s %s\n", wt->id, wt->enabled ? "y" : "n", wt->spec);
        if (wt->cond[0]) printf("\tstop only if %s\n", wt->cond);
        if (wt->hits) printf("\tbreakpoint already hit %u time%s\n", wt->hits, wt->hits == 1 ? "" : "s");
        if (wt->ignore) printf("\tWill ignore next %u crossings of breakpoint.\n", wt->ignore);
    }
}

uint32_t dbg_check_break(dbg *d, vm_warp *w, const vm_insn *i, dbg_bp **hit) {
    const vm_func *f = w->frames[w->depth - 1].fn;
    uint32_t fi = (uint32_t)(f - d->prog->funcs), idx = (uint32_t)(i - f->code);
    for (int b = 0; b < d->nbp; b++) {
        dbg_bp *bp = &d->bp[b];
        if (!bp->enabled) continue;
        uint32_t k = 0;
        while (k < bp->nlocs && (bp->locs[k].fn != fi || bp->locs[k].idx != idx)) k++;
        if (k == bp->nlocs) continue;
        uint32_t lanes = w->mask;
        if (bp->cond[0]) {
            /* the condition is evaluated for each lane of the group; it stops the
             * warp when it holds for at least one */
            uint32_t yes = 0;
            for (int l = 0; l < VM_LANES; l++) {
                bool v;
                char err[200];
                if (!(lanes >> l & 1)) continue;
                if (dbg_cond(d, w, l, bp->cond, &v, err, sizeof err)) {
                    printf("Error in testing condition for breakpoint %d: %s\n", bp->id, err);
                    yes = lanes;
                    break;
                }
                if (v) yes |= 1u << l;
            }
            lanes = yes;
        }
        if (lanes && bp->ignore) { /* a crossing passed over */
            bp->ignore--;
            bp->hits++;
            continue;
        }
        if (lanes) {
            *hit = bp;
            return lanes;
        }
    }
    return 0;
}

int dbg_cmd_watch(dbg *d, const char *args) {
    uint32_t len = 4;
    if (*args == '/') {
        char *end;
        len = (uint32_t)strtoul(args + 1, &end, 0);
        args = end;
        while (*args == ' ') args++;
    }
    if (!len || len > 8) {
        printf("A watchpoint covers 1 to 8 bytes.\n");
        return -1;
    }
    if (!d->stop_w) {
        printf("The program is not being run: watch an address once it is stopped.\n");
        return -1;
    }
    if (d->nwatch == DBG_MAX_WATCH) {
        printf("Too many watchpoints.\n");
        return -1;
    }
    char desc[200], err[300], err2[300];
    /* a C lvalue (with DWARF, or where an address does not parse): its bytes, shown in its type */
    uint8_t *p = NULL;
    const void *type = NULL;
    int sp;
    uint64_t a;
    uint32_t size;
    bool typed = false;
    if (*args != '@' && (dbg_dwarf(d) || !dbg_address(d, args, len, desc, sizeof desc, err, sizeof err)) &&
        !dbg_expr_address(d, args, &sp, &a, &size, desc, sizeof desc, err2, sizeof err2)) {
        p = dbg_host_of(d, dbg_fwarp(d), (int)d->flane, sp, a, size);
        if (!p) {
            printf("Cannot access memory at address 0x%llx\n", (unsigned long long)a);
            return -1;
        }
        len = size, type = d->watch_type, typed = true;
    }
    if (!p) p = dbg_address(d, args, len, desc, sizeof desc, err, sizeof err);
    if (!p) {
        printf("%s\n", *args != '@' && dbg_dwarf(d) ? err2 : err);
        return -1;
    }
    dbg_watch *wt = &d->watch[d->nwatch++];
    memset(wt, 0, sizeof *wt);
    wt->id = d->next_id++;
    wt->enabled = true;
    wt->host = p;
    wt->len = len;
    wt->type = type;
    memcpy(wt->old, p, len);
    /* shared memory of the block, or the device's memory: watched again in a new run */
    const vm_cta *cta = d->cta;
    if (cta && p >= cta->smem && p < cta->smem + cta->smem_full) wt->sp = VM_SP_SHARED, wt->addr = (uint64_t)(p - cta->smem);
    else if (vm_arena_ok(&d->ctx->arena, (uint64_t)(uintptr_t)p, len, false))
        wt->sp = VM_SP_GLOBAL, wt->addr = (uint64_t)(uintptr_t)p;
    else wt->sp = -1;
    wt->typed = typed;
    snprintf(wt->expr, sizeof wt->expr, "%s", args);
    if (typed) snprintf(wt->spec, sizeof wt->spec, "%s", desc);
    else snprintf(wt->spec, sizeof wt->spec, "%s (%u bytes)", desc, len);
    printf("Hardware watchpoint %d: %s\n", wt->id, wt->spec);
    return 0;
}

void dbg_new_run(dbg *d) {
    for (int k = 0; k < d->nbp; k++) d->bp[k].hits = 0; /* as gdb's run: hit counts start again */
    for (int k = 0; k < d->nwatch; k++) d->watch[k].hits = 0;
    dbg_unarm_watches(d);
}

void dbg_unarm_watches(dbg *d) {
    d->unarmed = 0;
    for (int k = 0; k < d->nwatch; k++) {
        dbg_watch *wt = &d->watch[k];
        wt->host = NULL;
        wt->type = NULL; /* the DWARF it pointed into may be gone: looked up again when shown */
        d->unarmed += wt->sp >= 0;
    }
}

void dbg_arm_watches(dbg *d, vm_warp *w) {
    d->unarmed = 0;
    for (int k = 0; k < d->nwatch; k++) {
        dbg_watch *wt = &d->watch[k];
        if (wt->host || wt->sp < 0) continue;
        if ((wt->host = dbg_host_of(d, w, 0, wt->sp, wt->addr, wt->len))) memcpy(wt->old, wt->host, wt->len);
        else d->unarmed++;
    }
}

static uint64_t bytes_value(const uint8_t *p, uint32_t n) {
    uint64_t v = 0;
    memcpy(&v, p, n);
    return v;
}

bool dbg_check_watch(dbg *d) {
    for (int k = 0; k < d->nwatch; k++) {
        dbg_watch *wt = &d->watch[k];
        if (!wt->host || !memcmp(wt->old, wt->host, wt->len)) continue;
        uint64_t o = bytes_value(wt->old, wt->len), nv = bytes_value(wt->host, wt->len);
        int l = d->prev_w ? dbg_writer_lane(d, wt->host, wt->len) : -1;
        bool pass = !wt->enabled;
        if (!pass && wt->cond[0] && d->prev_w) { /* the condition, for the writing lane */
            bool v = true;
            char err[200];
            if (dbg_cond(d, d->prev_w, l >= 0 ? l : 0, wt->cond, &v, err, sizeof err))
                printf("Error in testing condition for watchpoint %d: %s\n", wt->id, err);
            pass = !v;
        }
        if (!pass) wt->hits++;
        if (!pass && wt->ignore) wt->ignore--, pass = true;
        if (pass) {
            memcpy(wt->old, wt->host, wt->len);
            continue;
        }
        if (wt->typed && !wt->type && d->prev_w) /* watched again in a new run: the type where it was written */
            wt->type = dbg_expr_type_at(d, d->prev_w, l >= 0 ? l : 0, wt->expr);
        if (wt->type) { /* in the variable's type */
            char ob[256], nb[256];
            dbg_expr_format(wt->type, wt->old, ob, sizeof ob);
            dbg_expr_format(wt->type, wt->host, nb, sizeof nb);
            printf("\nHardware watchpoint %d: %s\n\nOld value = %s\nNew value = %s\n", wt->id, wt->spec, ob, nb);
        } else {
            printf("\nHardware watchpoint %d: %s\n\nOld value = %llu (0x%llx)\nNew value = %llu (0x%llx)\n", wt->id,
                   wt->spec, (unsigned long long)o, (unsigned long long)o, (unsigned long long)nv,
                   (unsigned long long)nv);
        }
        memcpy(wt->old, wt->host, wt->len);
        if (d->prev_w) {
            vm_warp *w = d->prev_w;
            char where[400];
            dbg_where(d, w, d->prev_i, where, sizeof where);
            if (l >= 0)
                printf("Written by block (%u,%u,%u) thread (%u,%u,%u) (warp %u lane %d) at %s\n", w->cta->ctaid[0],
                       w->cta->ctaid[1], w->cta->ctaid[2], w->tid[0][l], w->tid[1][l], w->tid[2][l], w->id, l, where);
            else
                printf("Written by block (%u,%u,%u) warp %u (lanes 0x%08x) at %s\n", w->cta->ctaid[0], w->cta->ctaid[1],
                       w->cta->ctaid[2], w->id, d->prev_m, where);
        }
        return true;
    }
    return false;
}

void dbg_reresolve(dbg *d) {
    for (int k = 0; k < d->nbp; k++) {
        dbg_bp *b = &d->bp[k];
        char err[300];
        free(b->locs);
        b->locs = NULL;
        b->nlocs = 0;
        if (dbg_resolve(d, b->spec, &b->locs, &b->nlocs, err, sizeof err)) b->nlocs = 0;
    }
    dbg_remark(d);
}

void dbg_free_breaks(dbg *d) {
    for (int k = 0; k < d->nbp; k++) free(d->bp[k].locs);
    d->nbp = 0;
}
