/* debug_engine.c — the debugger's engine, shared by `ptxi debug FILE.ptx` and
 * the session inside a CUDA program: decides before each instruction whether to
 * stop (breakpoints, brkpt, watchpoints, stepping, launches), reads commands and
 * runs them. The command loop runs inside the hook while stopped. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "debug_dwarf.h"
#include "demangle.h"

#define PROMPT "(ptxi) "

static const char help_text[] =
    "run (r)                      start the kernel (a program: let it go on to its launches; again after it ended)\n"
    "continue (c)                 run until the next stop (a program: through launches and host code)\n"
    "stepi (si) [N]               one PTX instruction of the warp in focus\n"
    "nexti (ni) [N]               one PTX instruction, stepping over calls\n"
    "step (s) / next (n) [N]      one source line (.loc), else one instruction; next steps over calls\n"
    "finish                       run until the current function (or inlined call) returns; shows the value\n"
    "until (u) [LOCATION]         like next, but never stop going backwards; or run to LOCATION\n"
    "kill (k)                     stop the kernel (a program: end it)\n"
    "break (b) LOCATION [if COND] LOCATION: [FILE:]LINE (PTX, or .cu through .loc), function, label\n"
    "tbreak LOCATION [if COND]    a breakpoint that deletes itself when hit\n"
    "delete/disable/enable [N...] breakpoints, watchpoints, displays by number (all when none given)\n"
    "condition N [COND]           stop at N only when COND holds (none: always)\n"
    "ignore N COUNT               pass over the next COUNT hits of N\n"
    "watch[/N] ADDRESS | VARIABLE stop when the N (default 4) bytes at ADDRESS, or a C lvalue, change\n"
    "print (p)[/x|d|u|f|t|c|o] [-all] E  a C expression (variables of -G code, registers, symbols, threadIdx...,\n"
    "                             $N history, $pc); -all: every lane; output E: without $N\n"
    "ptype E|TYPE, whatis E|TYPE  the type of an expression, or a type spelled out\n"
    "x/NFU ADDRESS                memory: F in x d u f, U in b h w g; ADDRESS [@global|@shared|@local|@const|@param] "
    "BASE [+ OFF]\n"
    "set var %REG = V             set a register of the lane in focus\n"
    "set var {TYPE} ADDRESS = V   set memory (TYPE u8 u16 u32 u64 s32 s64 f32 f64)\n"
    "set cuda break_on_launch on|off\n"
    "display E / undisplay [N]    print E at every stop\n"
    "info registers|breakpoints|display|frame|locals|args|line|source\n"
    "info cuda kernels|warps|lanes|threads|blocks|barriers, info cuda mbarrier ADDRESS\n"
    "cuda block (X,Y,Z) thread (X,Y,Z) | cuda warp N lane M | cuda block|thread|warp|lane\n"
    "backtrace (bt)               the call stack of the warp in focus\n"
    "up/down [N], frame (f) [N]   select a caller's frame (registers are read there)\n"
    "list (l) [[FILE:]LINE]       PTX around the PC, and the .cu source when readable\n"
    "set confirm on|off, set pagination/print/width/height ...   gdb settings (accepted)\n"
    "quit (q)                     leave\n";

/* ---- input ---- */

/* Ctrl-C at a terminal while the kernel runs stops it before its next instruction. */
static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
}

void dbg_catch_interrupt(bool on) {
    static struct sigaction saved;
    static bool caught;
    if (on == caught) return;
    caught = on;
    if (!on) {
        sigaction(SIGINT, &saved, NULL);
        return;
    }
    struct sigaction sa = {.sa_handler = on_sigint, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &saved);
}

static char *read_command(dbg *d) {
    if (d->tty && d->readline) {
        char *s;
        /* Ctrl-C at the prompt abandons the line being typed, as in gdb */
        while (!(s = d->readline(PROMPT)) && interrupted) {
            interrupted = 0;
            clearerr(d->in);
            fputs("\n", stdout);
        }
        if (s && *s && d->add_history) d->add_history(s);
        return s;
    }
    static char buf[1024];
    if (d->tty) {
        fputs(PROMPT, stdout);
        fflush(stdout);
    }
    if (!fgets(buf, sizeof buf, d->in)) return NULL;
    buf[strcspn(buf, "\r\n")] = 0;
    if (d->echo) printf(PROMPT "%s\n", buf);
    return strdup(buf);
}

/* gdb's query: true on y (or end of input); asked only at a terminal, unless `set confirm off`. */
static bool confirm(dbg *d, const char *question) {
    if (!d->tty || d->no_confirm) return true;
    char *s = NULL;
    const char *last = strrchr(question, '\n'); /* the prompt is the last line */
    if (last) {
        printf("%.*s", (int)(last + 1 - question), question);
        fflush(stdout);
        question = last + 1;
    }
    if (d->readline) s = d->readline(question);
    else {
        static char buf[256];
        fputs(question, stdout);
        fflush(stdout);
        if (fgets(buf, sizeof buf, d->in)) s = strdup(buf);
    }
    if (!s) {
        printf("EOF [answered Y; input not from terminal]\n");
        return true;
    }
    const char *p = s;
    while (*p == ' ') p++;
    bool yes = *p == 'y' || *p == 'Y';
    free(s);
    if (!yes) printf("Not confirmed.\n");
    return yes;
}

/* ---- stopping ---- */

static bool is_word(const char *cmd, const char *w, size_t n, const char *abbrev) {
    return (strlen(w) == n && !strncmp(cmd, w, n)) || (abbrev && strlen(abbrev) == n && !strncmp(cmd, abbrev, n));
}

/* Executing lanes of the group at i: the group filtered by the guard. */
static uint32_t exec_mask(const vm_warp *w, const vm_insn *i) {
    const uint8_t *fb = w->frames[w->depth - 1].fb;
    return w->mask & (*(const uint32_t *)(fb + i->g) ^ i->gx);
}

/* Focus moves to the stopping warp, on the first lane of `lanes` unless the
 * lane in focus is one of them; lanes = 0 (a step) keeps the lane in its warp. */
static void switch_focus(dbg *d, vm_warp *w, uint32_t lanes) {
    bool same = d->fblock == w->cta->linear + 1 && d->fwarp == w->id;
    if (!lanes && !same) lanes = w->mask;
    uint32_t lane = lanes ? (uint32_t)__builtin_ctz(lanes) : d->flane;
    bool changed = !same || (lanes && !(lanes >> d->flane & 1));
    d->cta = w->cta;
    d->fblock = w->cta->linear + 1;
    if (!changed) return;
    d->fwarp = w->id;
    d->flane = lane;
    char buf[160];
    dbg_focus_line(d, buf, sizeof buf);
    printf("[Switching focus to %s]\n", buf);
}

/* Where the step started: the warp in focus, its position and line. */
static void begin_step(dbg *d, dbg_mode mode) {
    vm_warp *w = dbg_fwarp(d);
    d->mode = mode;
    if (!w) return;
    d->step_cta = w->cta->linear;
    d->step_warp = w->id;
    d->step_depth = w->depth;
    d->step_pc = w->pc;
    const vm_func *f = dbg_func_of(w, w->pc);
    const vm_src *s = &f->src[w->pc - f->code];
    d->step_idx = (uint32_t)(w->pc - f->code);
    d->step_file = s->dbg.file;
    d->step_line = s->dbg.line;
    d->step_by_line = s->dbg.file && s->dbg.line;
}

/* Does the step in progress end before instruction i of warp w? */
static bool step_done(dbg *d, vm_warp *w, const vm_insn *i) {
    if (w->cta->linear != d->step_cta || w->id != d->step_warp) {
        /* the stepped warp finished: stop wherever execution goes on */
        vm_cta *c = w->cta;
        if (c->linear != d->step_cta) return true;
        vm_warp *s = &c->warps[d->step_warp];
        return s->state == VM_W_DONE;
    }
    const vm_func *f = dbg_func_of(w, i);
    const vm_src *s = &f->src[i - f->code];
    uint32_t depth = w->depth, idx = (uint32_t)(i - f->code);
    bool has_line = s->dbg.file && s->dbg.line; /* line 0: code the compiler made, no line of its own */
    bool moved = s->dbg.file != d->step_file || s->dbg.line != d->step_line || depth != d->step_depth;
    switch (d->mode) {
    case DBG_STEPI: return true;
    case DBG_NEXTI: return depth <= d->step_depth;
    case DBG_FINISH: /* out of the function, or out of the inlined call's lines */
        if (d->finish_hi && depth == d->step_depth) return s->loc.line < d->finish_lo || s->loc.line >= d->finish_hi;
        return depth < d->step_depth;
    case DBG_STEP:
        if (!d->step_by_line) return true;
        return has_line && moved;
    case DBG_NEXT:
        if (depth > d->step_depth) return false;
        if (!d->step_by_line) return true;
        return depth < d->step_depth || (has_line && moved);
    case DBG_UNTIL:
        if (depth > d->step_depth) return false;
        if (depth < d->step_depth) return true;
        if (idx <= d->step_idx) return false;
        return !d->step_by_line || (has_line && moved);
    default: return false;
    }
}

/* Shows why and where execution stopped, then reads commands. Returns -1 to kill. */
static int stop_here(dbg *d, vm_warp *w, const vm_insn *i, uint32_t lanes, const char *why) {
    bool finished = d->mode == DBG_FINISH && !why;
    d->stop_w = w;
    d->stop_i = i;
    d->sel_frame = 0;
    d->mode = DBG_RUN;
    d->repeat = 0;
    switch_focus(d, w, lanes);
    if (why) printf("\n%s", why);
    dbg_show_stop(d, w, i);
    if (finished && !d->finish_hi) dbg_show_returned(d, w, (int)d->flane, d->finish_call, d->finish_fn);
    d->finish_call = NULL, d->finish_fn = NULL, d->finish_hi = 0;
    dbg_run_displays(d);
    fflush(stdout);
    int r = dbg_command_loop(d);
    d->stop_w = NULL;
    return r;
}

/* The runtime's report of a kill, or of a fault already shown, is not news. */
static void mute_report(dbg *d) {
    if (!d->devnull) d->devnull = fopen("/dev/null", "w");
    if (d->devnull) ptxi_ctx_set_output(d->ctx, stdout, d->devnull);
}

static int kill_launch(dbg *d) {
    if (d->kill) d->kill(d);
    d->killing = true;
    mute_report(d);
    return -1;
}

int dbg_hook(void *p, vm_warp *w, const vm_insn *i) {
    dbg *d = p;
    if (d->killing) return -1;
    d->cta = w->cta;
    char why[400];
    why[0] = 0;
    uint32_t lanes = 0;
    bool stop = false;
    if (interrupted) {
        interrupted = 0;
        stop = true, lanes = w->mask;
        snprintf(why, sizeof why, "Program received signal SIGINT, Interrupt.\n");
    }
    if (d->unarmed) dbg_arm_watches(d, w);
    if (!stop && d->nwatch && dbg_check_watch(d)) stop = true, lanes = w->mask;
    const vm_func *f = w->frames[w->depth - 1].fn;
    uint32_t fi = (uint32_t)(f - d->prog->funcs), idx = (uint32_t)(i - f->code);
    uint8_t mark = idx < f->ncode ? d->mark[fi][idx] : 0;
    if (!stop && d->break_on_launch && w->depth == 1 && i == f->code && w->cta->linear == 0 && w->id == 0) {
        stop = true, lanes = w->mask;
        snprintf(why, sizeof why, "Kernel launch: %s\n", dbg_fn_name(d, f->ir->name));
    }
    if (!stop && mark & DBG_M_BREAK) {
        dbg_bp *b = NULL;
        lanes = dbg_check_break(d, w, i, &b);
        if (lanes) {
            stop = true;
            b->hits++;
            snprintf(why, sizeof why, "%s %d, ", b->temp ? "Temporary breakpoint" : "Breakpoint", b->id);
            if (b->temp) {
                char num[16];
                snprintf(num, sizeof num, "%d", b->id);
                dbg_cmd_delete(d, num);
            }
        }
    }
    if (!stop && mark & DBG_M_BRKPT && (lanes = exec_mask(w, i))) {
        stop = true;
        snprintf(why, sizeof why, "Program received signal SIGTRAP (brkpt instruction), ");
    }
    if (!stop && d->mode != DBG_RUN && step_done(d, w, i)) {
        if (d->repeat > 0) { /* stepi N: the next step starts where this one ends */
            d->repeat--;
            begin_step(d, d->mode);
        } else {
            stop = true, lanes = 0;
        }
    }
    if (stop && stop_here(d, w, i, lanes, why[0] ? why : NULL) < 0) return kill_launch(d);
    d->prev_w = w;
    d->prev_i = i;
    d->prev_m = exec_mask(w, i);
    return 0;
}

void dbg_fault_hook(void *p, vm_warp *w, const vm_insn *i, int lane, int status, const char *report) {
    dbg *d = p;
    (void)status;
    if (d->killing) return;
    d->faulted = true;
    d->cta = w->cta;
    char why[1200];
    snprintf(why, sizeof why, "CUDA Exception: %s\nThe kernel stopped at the faulting instruction, ", report);
    if (stop_here(d, w, i, lane >= 0 ? 1u << lane : 0, why) < 0) kill_launch(d);
    else mute_report(d);
    d->faulted = false;
}

/* ---- commands ---- */

enum { STAY, RESUME, KILL };

static int need_stopped(dbg *d) {
    if (d->stop_w) return 0;
    printf("The program is not being run.\n");
    return -1;
}

/* Execution commands: start or resume, with a repeat count for the steps. */
static int exec_cmd(dbg *d, dbg_mode mode, const char *args) {
    if (!d->run && !d->started && mode == DBG_RUN) return d->started = true, RESUME;
    if (need_stopped(d)) return STAY;
    if (d->faulted) { /* continue lets the launch end with the fault's error */
        if (mode == DBG_RUN) return RESUME;
        printf("The kernel faulted: it cannot go on ('continue' or 'kill' end it).\n");
        return STAY;
    }
    if (mode == DBG_FINISH) {
        vm_warp *w = dbg_fwarp(d);
        dbg_frame fr[64];
        int n = dbg_frames(d, w, (int)d->flane, fr, 64);
        bool inl = n > 1 && dbg_frame_inlined(&fr[0]);
        if (w->depth == 1 && !inl) {
            printf("\"finish\" not meaningful in the outermost frame.\n");
            return STAY;
        }
        printf("Run till exit from #0  ");
        dbg_cmd_backtrace_frame(d, 0);
        d->finish_hi = 0;
        if (inl && fr[0].named) {
            d->finish_lo = fr[0].named->lo, d->finish_hi = fr[0].named->hi;
        } else if (inl) { /* -lineinfo: no ranges, so on to the next line, as next does */
            begin_step(d, DBG_NEXT);
            return RESUME;
        }
        d->finish_call = w->frames[w->depth - 1].call;
        d->finish_fn = w->frames[w->depth - 1].fn;
    }
    if (mode == DBG_UNTIL && *args) {
        int before = d->nbp;
        if (dbg_cmd_break(d, args, true) || d->nbp == before) return STAY;
        mode = DBG_RUN;
    }
    begin_step(d, mode);
    return RESUME;
}

static int set_cmd(dbg *d, const char *a) {
    if (!strncmp(a, "var ", 4) || !strncmp(a, "variable ", 9)) return dbg_cmd_set_var(d, strchr(a, ' ') + 1);
    if (!strncmp(a, "cuda break_on_launch", 20)) {
        const char *v = a + 20;
        while (*v == ' ') v++;
        if (!strcmp(v, "on") || !strcmp(v, "application") || !strcmp(v, "all")) d->break_on_launch = true;
        else if (!strcmp(v, "off") || !strcmp(v, "none")) d->break_on_launch = false;
        else printf("break_on_launch: on or off\n");
        return 0;
    }
    if (*a == '%' || *a == '{') return dbg_cmd_set_var(d, a);
    /* the settings gdb scripts start with: a debugger without a pager or line
     * wrapping has nothing to change for them */
    static const char *const GDB_SETTINGS[] = {"pagination", "print",   "width", "height", "verbose",
                                               "listsize",   "logging", "style", NULL};
    size_t n = strcspn(a, " ");
    if (n == 7 && !strncmp(a, "confirm", 7)) {
        const char *v = a + 7;
        while (*v == ' ') v++;
        d->no_confirm = !strcmp(v, "off") || !strcmp(v, "0");
        return 0;
    }
    for (const char *const *g = GDB_SETTINGS; *g; g++)
        if (strlen(*g) == n && !strncmp(a, *g, n)) return 0;
    printf("Unknown set command: %s\n", a);
    return 0;
}

/* Focus: cuda block (x,y,z) thread (x,y,z) | cuda warp N lane M | bare forms print. */
static int parse_triple(const char **s, uint32_t v[3]) {
    const char *p = *s;
    while (*p == ' ') p++;
    bool paren = *p == '(';
    if (paren) p++;
    for (int k = 0; k < 3; k++) {
        char *end;
        unsigned long x = strtoul(p, &end, 0);
        if (end == p) {
            if (k == 0) return -1;
            break;
        }
        v[k] = (uint32_t)x;
        p = end;
        while (*p == ' ') p++;
        if (*p != ',') break;
        p++;
    }
    if (paren) {
        if (*p != ')') return -1;
        p++;
    }
    *s = p;
    return 0;
}

static int cuda_cmd(dbg *d, const char *a) {
    vm_warp *w = dbg_fwarp(d);
    if (!w) {
        printf("Focus not set on any active CUDA kernel.\n");
        return 0;
    }
    const vm_launch_cfg *cfg = d->cta->grid->cfg;
    uint32_t blk[3] = {d->cta->ctaid[0], d->cta->ctaid[1], d->cta->ctaid[2]};
    uint32_t thr[3] = {w->tid[0][d->flane], w->tid[1][d->flane], w->tid[2][d->flane]};
    uint32_t warp = d->fwarp, lane = d->flane;
    bool any = false, by_thread = false;
    const char *p = a;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        uint32_t *tgt = NULL, one[3] = {0, 0, 0};
        const char *kw = p;
        size_t n = strcspn(p, " (");
        p += n;
        if (is_word(kw, "block", n, NULL)) tgt = blk;
        else if (is_word(kw, "thread", n, NULL)) tgt = thr, by_thread = true;
        else if (is_word(kw, "warp", n, NULL) || is_word(kw, "lane", n, NULL)) tgt = one;
        else if (is_word(kw, "kernel", n, NULL) || is_word(kw, "device", n, NULL) || is_word(kw, "sm", n, NULL) ||
                 is_word(kw, "grid", n, NULL)) {
            const char *q = p;
            while (*q == ' ') q++;
            if (*q >= '0' && *q <= '9') {
                char *end;
                if (strtoul(q, &end, 0) != 0 && !is_word(kw, "grid", n, NULL)) {
                    printf("Invalid coordinates.\n");
                    return 0;
                }
                p = end;
                any = true;
            } else {
                printf("%.*s %u\n", (int)n, kw, is_word(kw, "grid", n, NULL) ? 1u : 0u);
            }
            continue;
        } else {
            printf("Unknown CUDA focus '%.*s'.\n", (int)n, kw);
            return 0;
        }
        const char *q = p;
        while (*q == ' ') q++;
        if (!*q || (*q != '(' && (*q < '0' || *q > '9'))) { /* bare form: print it */
            if (tgt == blk) printf("block (%u,%u,%u)\n", blk[0], blk[1], blk[2]);
            else if (tgt == thr) printf("thread (%u,%u,%u)\n", thr[0], thr[1], thr[2]);
            else printf("%.*s %u\n", (int)n, kw, kw[0] == 'w' ? warp : lane);
            continue;
        }
        if (parse_triple(&p, tgt)) {
            printf("Invalid coordinates.\n");
            return 0;
        }
        if (tgt == one) {
            if (kw[0] == 'w') warp = one[0], by_thread = false;
            else lane = one[0], by_thread = false;
        }
        any = true;
    }
    if (!any) return 0;
    if (blk[0] != d->cta->ctaid[0] || blk[1] != d->cta->ctaid[1] || blk[2] != d->cta->ctaid[2]) {
        printf("Block (%u,%u,%u) is not running: the running block is (%u,%u,%u).\n", blk[0], blk[1], blk[2],
               d->cta->ctaid[0], d->cta->ctaid[1], d->cta->ctaid[2]);
        return 0;
    }
    if (by_thread) {
        if (thr[0] >= cfg->block[0] || thr[1] >= cfg->block[1] || thr[2] >= cfg->block[2]) {
            printf("Invalid thread (%u,%u,%u).\n", thr[0], thr[1], thr[2]);
            return 0;
        }
        uint32_t t = thr[0] + cfg->block[0] * (thr[1] + cfg->block[1] * thr[2]);
        warp = t / VM_LANES, lane = t % VM_LANES;
    }
    if (warp >= d->cta->nwarps || lane >= VM_LANES || !(d->cta->warps[warp].present >> lane & 1)) {
        printf("Invalid warp %u lane %u.\n", warp, lane);
        return 0;
    }
    if (warp == d->fwarp && lane == d->flane) {
        char buf[160];
        dbg_focus_line(d, buf, sizeof buf);
        printf("[Current focus set to %s]\n", buf);
        return 0;
    }
    d->fwarp = warp;
    d->flane = lane;
    d->sel_frame = 0;
    char buf[160];
    dbg_focus_line(d, buf, sizeof buf);
    printf("[Switching focus to %s]\n", buf);
    vm_warp *nw = dbg_fwarp(d);
    dbg_show_stop(d, nw, nw->state == VM_W_DONE ? NULL : (nw->mask >> lane & 1) ? nw->pc : nw->lpc[lane]);
    dbg_run_displays(d);
    return 0;
}

/* One command line. Returns STAY, RESUME or KILL. */
static int execute(dbg *d, char *line) {
    char *c = line;
    while (*c == ' ' || *c == '\t') c++;
    size_t n = strcspn(c, " \t/");
    char fmt[16] = "";
    char *a = c + n;
    if (*a == '/') {
        size_t fl = strcspn(a + 1, " \t");
        snprintf(fmt, sizeof fmt, "%.*s", (int)(fl < 15 ? fl : 15), a + 1);
        a += 1 + fl;
    }
    while (*a == ' ' || *a == '\t') a++;
    for (char *e = a + strlen(a); e > a && (e[-1] == ' ' || e[-1] == '\t'); e--) e[-1] = 0;
#define IS(w, ab) is_word(c, w, n, ab)
    if (!n || c[0] == '#') return STAY;
    if (IS("run", "r")) {
        if (d->rerun && d->started) { /* a program: from the start, breakpoints kept */
            if (!d->dead && !confirm(d, "The program being debugged has been started already.\n"
                                        "Start it from the beginning? (y or n) "))
                return STAY;
            d->rerun(d);
            return STAY;
        }
        if (d->stop_w && d->run) { /* a PTX file: this launch killed, a new one */
            if (!confirm(d, "The program being debugged has been started already.\n"
                            "Start it from the beginning? (y or n) "))
                return STAY;
            d->restart = true;
            return KILL;
        }
        if (d->stop_w || (!d->run && d->started)) {
            printf("The program being debugged has been started already.\n");
            return STAY;
        }
        if (!d->run) return d->started = true, RESUME; /* a program waiting for its first go */
        do {
            d->restart = false;
            d->run(d);
        } while (d->restart && !d->quit);
        return STAY;
    }
    if (IS("continue", "c")) return exec_cmd(d, DBG_RUN, a);
    static const struct {
        const char *name, *abbrev;
        dbg_mode mode;
    } steps[] = {
        {"stepi", "si", DBG_STEPI}, {"nexti", "ni", DBG_NEXTI}, {"step", "s", DBG_STEP}, {"next", "n", DBG_NEXT}};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++)
        if (IS(steps[k].name, steps[k].abbrev)) {
            int r = exec_cmd(d, steps[k].mode, "");
            if (r == RESUME && *a) d->repeat = atoi(a) > 1 ? atoi(a) - 1 : 0;
            return r;
        }
    if (IS("finish", "fin")) return exec_cmd(d, DBG_FINISH, a);
    if (IS("until", "u") || IS("advance", NULL)) return exec_cmd(d, DBG_UNTIL, a);
    if (IS("kill", "k")) {
        if (need_stopped(d) || !confirm(d, "Kill the program being debugged? (y or n) ")) return STAY;
        return KILL;
    }
    if (IS("quit", "q")) {
        if (d->stop_w && !confirm(d, "A debugging session is active.\n\n\tThe kernel being debugged will be killed.\n\n"
                                     "Quit anyway? (y or n) "))
            return STAY;
        d->quit = true;
        return d->stop_w ? KILL : STAY;
    }
    if (IS("break", "b") || IS("tbreak", "tb")) {
        dbg_cmd_break(d, a, c[0] == 't');
        return STAY;
    }
    if (IS("delete", "d")) {
        dbg_cmd_delete(d, a);
        return STAY;
    }
    if (IS("disable", NULL) || IS("enable", NULL)) {
        dbg_cmd_enable(d, a, c[0] == 'e');
        return STAY;
    }
    if (IS("watch", NULL)) {
        char spec[600];
        snprintf(spec, sizeof spec, "%s%s%s", fmt[0] ? "/" : "", fmt, a);
        dbg_cmd_watch(d, spec);
        return STAY;
    }
    if (IS("print", "p") || IS("inspect", NULL) || IS("call", NULL)) {
        dbg_cmd_print(d, fmt, a, false);
        return STAY;
    }
    if (IS("output", NULL)) {
        dbg_cmd_print(d, fmt, a, true);
        return STAY;
    }
    if (IS("ptype", NULL) || IS("whatis", NULL)) {
        dbg_cmd_ptype(d, a, c[0] == 'w');
        return STAY;
    }
    if (IS("x", NULL)) {
        dbg_cmd_x(d, fmt, a);
        return STAY;
    }
    if (IS("set", NULL)) {
        set_cmd(d, a);
        return STAY;
    }
    if (IS("display", NULL)) {
        if (!*a) {
            dbg_run_displays(d);
            return STAY;
        }
        if (d->ndisplay == DBG_MAX_DISPLAY) {
            printf("Too many displays.\n");
            return STAY;
        }
        struct dbg_display *ds = &d->display[d->ndisplay++];
        ds->id = d->next_id++;
        ds->enabled = true;
        snprintf(ds->expr, sizeof ds->expr, "%s%s%s%s", fmt[0] ? "/" : "", fmt, fmt[0] ? " " : "", a);
        if (d->stop_w) dbg_show_display(d, ds);
        return STAY;
    }
    if (IS("undisplay", NULL)) {
        dbg_cmd_undisplay(d, a);
        return STAY;
    }
    if (IS("condition", "cond")) {
        dbg_cmd_condition(d, a);
        return STAY;
    }
    if (IS("ignore", NULL)) {
        dbg_cmd_ignore(d, a);
        return STAY;
    }
    if (IS("info", "i")) {
        dbg_cmd_info(d, a);
        return STAY;
    }
    if (IS("backtrace", "bt") || IS("where", NULL)) {
        dbg_cmd_backtrace(d);
        return STAY;
    }
    if (IS("frame", "f")) {
        dbg_cmd_frame(d, 0, a);
        return STAY;
    }
    if (IS("up", NULL)) {
        dbg_cmd_frame(d, 1, a);
        return STAY;
    }
    if (IS("down", "do")) {
        dbg_cmd_frame(d, -1, a);
        return STAY;
    }
    if (IS("list", "l")) {
        dbg_cmd_list(d, a);
        return STAY;
    }
    if (IS("cuda", NULL)) {
        cuda_cmd(d, a);
        return STAY;
    }
    if (IS("help", "h")) {
        fputs(help_text, stdout);
        return STAY;
    }
    if (IS("echo", NULL)) {
        printf("%s\n", a);
        return STAY;
    }
#undef IS
    printf("Undefined command: \"%.*s\".  Try \"help\".\n", (int)n, c);
    return STAY;
}

/* Reads and runs commands until one resumes the kernel. An empty line repeats
 * the last command, as in gdb. Returns -1 when the kernel must be killed. */
int dbg_command_loop(dbg *d) {
    for (;;) {
        if (d->quit) return d->stop_w ? -1 : 0;
        char *line = read_command(d);
        if (!line) {
            d->quit = true;
            return d->stop_w ? -1 : 0;
        }
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s && d->last[0]) snprintf(line = realloc(line, sizeof d->last), sizeof d->last, "%s", d->last);
        else if (*s) snprintf(d->last, sizeof d->last, "%s", s);
        interrupted = 0; /* a Ctrl-C at the prompt is not for the kernel */
        int r = execute(d, line);
        free(line);
        fflush(stdout);
        if (r == RESUME) return 0;
        if (r == KILL) return -1;
        if (!d->stop_w && !d->running && d->quit) return 0;
    }
}

/* ---- modules and names ---- */

int dbg_add_module(dbg *d, ptxi_module *m, const char *path, char **ptx, uint32_t nptx) {
    dbg_mod *nv = realloc(d->mods, (d->nmods + 1) * sizeof *nv);
    if (!nv) return -1;
    d->mods = nv;
    dbg_mod *dm = &nv[d->nmods];
    vm_program *prog = &m->prog;
    *dm = (dbg_mod){m, strdup(path), ptx, nptx, NULL, prog->nfuncs, NULL, false};
    dm->mark = calloc(prog->nfuncs + 1, sizeof *dm->mark);
    if (!dm->path || !dm->mark) return -1;
    d->nmods++;
    for (uint32_t f = 0; f < prog->nfuncs; f++) {
        vm_func *vf = &prog->funcs[f];
        if (!(dm->mark[f] = calloc(vf->ncode + 1, 1))) return -1;
        for (uint32_t k = 0; k < vf->ncode; k++)
            if (vf->code[k].op == VM_BRKPT) {
                vf->code[k].op = VM_NOP;
                dm->mark[f][k] = DBG_M_BRKPT;
            }
    }
    return 0;
}

void dbg_use_module(dbg *d, uint32_t k) {
    dbg_mod *dm = &d->mods[k];
    d->cur = k;
    d->mod = dm->mod;
    d->prog = &dm->mod->prog;
    d->mark = dm->mark;
    d->path = dm->path;
    d->ptx = dm->ptx;
    d->nptx = dm->nptx;
    d->list_next = 0;
    dbg_reresolve(d);
}

struct dw_info *dbg_dwarf(dbg *d) {
    if (!d->nmods || d->cur >= d->nmods || !d->prog) return NULL;
    dbg_mod *dm = &d->mods[d->cur];
    if (!dm->dwarf_read) {
        char err[200];
        dm->dwarf_read = true;
        dm->dwarf = dw_read(d->prog->ir, err, sizeof err);
    }
    return dm->dwarf;
}

void dbg_drop_module(dbg *d, uint32_t k) {
    dbg_mod *dm = &d->mods[k];
    dw_free(dm->dwarf);
    if (dm->mark)
        for (uint32_t f = 0; f < dm->nfuncs; f++) free(dm->mark[f]);
    free(dm->mark);
    for (uint32_t l = 0; l < dm->nptx; l++) free(dm->ptx[l]);
    free(dm->ptx);
    free(dm->path);
    memmove(dm, dm + 1, (d->nmods - k - 1) * sizeof *dm);
    d->nmods--;
    d->cur = 0;
    d->mod = NULL;
    d->prog = NULL;
    d->mark = NULL;
    d->ptx = NULL;
    d->nptx = 0;
}

void dbg_free_modules(dbg *d) {
    while (d->nmods) dbg_drop_module(d, d->nmods - 1);
    free(d->mods);
    d->mods = NULL;
}

/* Names are demangled only inside a CUDA program; `ptxi debug FILE.ptx` shows the PTX names. */
const char *dbg_fn_name(dbg *d, const char *ptx_name) {
    static char buf[1024];
    return d->app && ptx_demangle(ptx_name, buf, sizeof buf) ? buf : ptx_name;
}

bool dbg_names_fn(dbg *d, const char *ptx_name, const char *spec) {
    (void)d; /* a C++ name, demangled or not, names its kernel in a PTX file too */
    return !strcmp(ptx_name, spec) || ptx_name_matches(ptx_name, spec);
}
