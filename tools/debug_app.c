/* debug_app.c — the debugger inside a CUDA program run by `ptxi debug --
 * PROGRAM`: libcudart.so.13 attaches it to its context, tells it which modules
 * the program's fatbinaries gave and when each kernel launch starts and ends.
 * The program runs normally between launches; `kill` and `quit` end it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "debug_app.h"

static dbg D;
static bool prompted;
static int in_fd = -1, ack_fd = -1; /* where commands come from (or -1: the terminal), the report pipe */
static char **saved_argv;           /* the program's command line, to run it again */
/* one launch at a time under the debugger, whichever host thread issues it */
static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *program_name(void) {
    extern char *program_invocation_short_name;
    return program_invocation_short_name;
}

/* At a terminal the prompt edits lines with libedit when the system has it;
 * it is opened here rather than linked so that libcudart does not need it. */
static void load_line_editor(dbg *d) {
    void *h = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    FILE **in = dlsym(h, "rl_instream"), **out = dlsym(h, "rl_outstream");
    *(void **)&d->readline = dlsym(h, "readline");
    *(void **)&d->add_history = dlsym(h, "add_history");
    if (!in || !out || !d->readline) {
        d->readline = NULL;
        return;
    }
    *in = d->in;
    *out = stdout;
}

/* Tells `ptxi debug` that the program's end was reported here ('e') or that
 * it runs again ('x'). */
static void report(char what) {
    if (ack_fd >= 0 && write(ack_fd, &what, 1) != 1) {}
}

/* With no program running (it exited or was killed): commands until `run`
 * starts it again (which does not return) or they end. */
static void no_program(void) {
    D.running = false;
    D.cta = NULL;
    D.stop_w = NULL;
    D.dead = true;
    D.quit = false;
    fflush(stdout);
    while (!D.quit) {
        D.killing = false;
        dbg_command_loop(&D);
    }
}

/* `kill`, `quit`, or the end of the commands while the program lives: the
 * program ends at once, its kernel half run (the parent reports SIGKILL).
 * After `kill` the debugger stays for `run` and other commands. */
static void kill_program(dbg *d) {
    printf("[Program killed]\n");
    fflush(NULL);
    report('e');
    if (!d->quit) no_program();
    raise(SIGKILL);
    _exit(137);
}

/* The program's own end (exit or return from main): reported, then commands. */
static void program_exit(int status, void *arg) {
    (void)arg;
    if (!D.in) return;
    if (status) printf("[Program exited with code %d]\n", status);
    else printf("[Program exited normally]\n");
    report('e');
    if (!D.quit) no_program();
    fflush(NULL);
}

/* Breakpoints and displays, and the numbers of the next ones, for the same
 * debugger in the program run again: one record a line. */
static void save_state(void) {
    size_t cap = 1024, n = 0;
    char *s = malloc(cap);
    if (!s) return;
    s[0] = 0;
#define ADD(...)                                                    \
    do {                                                            \
        int k_ = snprintf(NULL, 0, __VA_ARGS__);                    \
        if (n + (size_t)k_ + 1 > cap) {                             \
            char *ns_ = realloc(s, cap = (n + (size_t)k_ + 1) * 2); \
            if (!ns_) {                                             \
                free(s);                                            \
                return;                                             \
            }                                                       \
            s = ns_;                                                \
        }                                                           \
        n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__);         \
    } while (0)
    ADD("N %d %u %d\n", D.next_id, D.nvalues, D.break_on_launch);
    for (int k = 0; k < D.nbp; k++) {
        const dbg_bp *b = &D.bp[k];
        ADD("B %d %d %d %u\t%s\t%s\n", b->id, b->enabled, b->temp, b->ignore, b->spec, b->cond);
    }
    for (int k = 0; k < D.nwatch; k++) {
        const dbg_watch *w = &D.watch[k];
        if (w->sp >= 0)
            ADD("W %d %d %u %d %llu %u %d\t%s\t%s\t%s\n", w->id, w->enabled, w->ignore, w->sp, (unsigned long long)w->addr,
                w->len, w->typed, w->cond, w->spec, w->expr);
    }
    for (int k = 0; k < D.ndisplay; k++) ADD("D %d %d\t%s\n", D.display[k].id, D.display[k].enabled, D.display[k].expr);
#undef ADD
    setenv("PTXI_DEBUG_STATE", s, 1);
    free(s);
}

static void load_state(const char *s) {
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char line[1100];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), s);
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        int id, en, tmp, bol;
        unsigned ign, nv;
        if (line[0] == 'N' && sscanf(line + 1, "%d %u %d", &id, &nv, &bol) == 3) {
            D.next_id = id, D.nvalues = nv, D.break_on_launch = bol;
        } else if (line[0] == 'B' && t1 && t2 && D.nbp < DBG_MAX_BP &&
                   sscanf(line + 1, "%d %d %d %u", &id, &en, &tmp, &ign) == 4) {
            *t2 = 0;
            dbg_bp *b = &D.bp[D.nbp++];
            memset(b, 0, sizeof *b);
            b->id = id, b->enabled = en, b->temp = tmp, b->ignore = ign;
            snprintf(b->spec, sizeof b->spec, "%s", t1 + 1);
            snprintf(b->cond, sizeof b->cond, "%s", t2 + 1);
        } else if (line[0] == 'W' && t2 && D.nwatch < DBG_MAX_WATCH) {
            char *t3 = strchr(t2 + 1, '\t');
            dbg_watch w = {0};
            unsigned long long a;
            int typed;
            if (t3 && sscanf(line + 1, "%d %d %u %d %llu %u %d", &w.id, &en, &w.ignore, &w.sp, &a, &w.len, &typed) == 7 &&
                w.len <= sizeof w.old) {
                *t2 = *t3 = 0;
                w.enabled = en, w.addr = a, w.typed = typed;
                snprintf(w.cond, sizeof w.cond, "%s", t1 + 1);
                snprintf(w.spec, sizeof w.spec, "%s", t2 + 1);
                snprintf(w.expr, sizeof w.expr, "%s", t3 + 1);
                D.watch[D.nwatch++] = w;
                dbg_unarm_watches(&D);
            }
        } else if (line[0] == 'D' && t1 && D.ndisplay < DBG_MAX_DISPLAY && sscanf(line + 1, "%d %d", &id, &en) == 2) {
            struct dbg_display *ds = &D.display[D.ndisplay++];
            ds->id = id, ds->enabled = en;
            snprintf(ds->expr, sizeof ds->expr, "%s", t1 + 1);
        }
        s = nl ? nl + 1 : NULL;
    }
}

/* `run` in a program: the same program from the start, in this process
 * (exec), with the breakpoints and displays. */
static void rerun_program(dbg *d) {
    (void)d;
    if (!saved_argv) {
        printf("The program cannot be started again.\n");
        return;
    }
    save_state();
    char how[64];
    if (in_fd < 0) snprintf(how, sizeof how, "in=tty,ack=%d,again", ack_fd);
    else snprintf(how, sizeof how, "in=%d,ack=%d,again", in_fd, ack_fd);
    setenv("PTXI_DEBUG", how, 1);
    if (in_fd >= 0) fcntl(in_fd, F_SETFD, 0);
    if (ack_fd >= 0) fcntl(ack_fd, F_SETFD, 0);
    printf("Starting program: %s\n", saved_argv[0]);
    report('x');
    fflush(NULL);
    execv("/proc/self/exe", saved_argv);
    printf("The program cannot be started again: %s\n", strerror(errno));
    if (in_fd >= 0) fcntl(in_fd, F_SETFD, FD_CLOEXEC);
    if (ack_fd >= 0) fcntl(ack_fd, F_SETFD, FD_CLOEXEC);
}

/* The program's arguments as the kernel has them. */
static char **read_cmdline(void) {
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (ssize_t r; buf && (r = read(fd, buf + n, cap - n - 1)) > 0;) {
        n += (size_t)r;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    close(fd);
    if (!buf || !n) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    size_t argc = 0;
    for (size_t k = 0; k < n; k++) argc += !buf[k];
    char **v = calloc(argc + 1, sizeof *v);
    if (!v) {
        free(buf);
        return NULL;
    }
    size_t a = 0;
    for (size_t k = 0; k < n && a < argc; k += strlen(buf + k) + 1) v[a++] = buf + k;
    return v;
}

void dbg_app_attach(ptxi_ctx *ctx, const char *how) {
    const char *in = strstr(how, "in="), *ack = strstr(how, "ack=");
    bool again = strstr(how, ",again") != NULL;
    D.app = true;
    D.ctx = ctx;
    D.next_id = 1;
    D.kill = kill_program;
    D.rerun = rerun_program;
    if (in && !strncmp(in + 3, "tty", 3)) {
        D.in = fopen("/dev/tty", "r");
        D.tty = D.in != NULL;
        if (D.tty) load_line_editor(&D);
    } else if (in) {
        int fd = atoi(in + 3);
        fcntl(fd, F_SETFD, FD_CLOEXEC); /* not for the program's own children */
        D.in = fdopen(fd, "r");
        /* read as needed, no further: the program run again reads on from here */
        if (D.in) setvbuf(D.in, NULL, _IONBF, 0);
        in_fd = fd;
        D.echo = true;
    }
    if (!D.in) {
        fprintf(stderr, "ptxi debug: no commands can be read (PTXI_DEBUG=%s)\n", how);
        return;
    }
    if (ack) { /* kept open (not for the program's children) to report the program's end */
        ack_fd = atoi(ack + 4);
        fcntl(ack_fd, F_SETFD, FD_CLOEXEC);
        if (!again) report('1');
    }
    saved_argv = read_cmdline();
    if (again) { /* run again: the breakpoints were set, the program goes on at once */
        load_state(getenv("PTXI_DEBUG_STATE"));
        unsetenv("PTXI_DEBUG_STATE");
        prompted = true;
        D.started = true;
    }
    on_exit(program_exit, NULL);
    ptxi_attach_debugger(ctx, dbg_hook, &D);
    ptxi_attach_fault_hook(ctx, dbg_fault_hook);
}

static char **split_lines(const char *text, size_t len, uint32_t *n) {
    char **v = NULL;
    *n = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len, k = end;
        while (k > at && text[k - 1] == '\r') k--;
        char **nv = realloc(v, (*n + 1) * sizeof *v);
        if (!nv) break;
        v = nv;
        v[(*n)++] = strndup(text + at, k - at);
        at = end + 1;
    }
    return v;
}

static int find_module(const ptxi_module *m) {
    for (uint32_t k = 0; k < D.nmods; k++)
        if (D.mods[k].mod == m) return (int)k;
    return -1;
}

/* Forgets the modules a device reset freed. */
static void forget_dead_modules(void) {
    for (uint32_t k = D.nmods; k-- > 0;) {
        ptxi_module *m = D.ctx->modules;
        while (m && m != D.mods[k].mod) m = m->next;
        if (!m) dbg_drop_module(&D, k);
    }
}

static void add_module(ptxi_module *m, const char *ptx, size_t len) {
    forget_dead_modules();
    int old = find_module(m);
    if (old >= 0) dbg_drop_module(&D, (uint32_t)old);
    uint32_t n = 0;
    char **lines = split_lines(ptx, len, &n);
    /* each .cu file of a program has its own fatbinary, all named after the
     * program: the second and later become <program>.compute_XX.2.ptx... */
    char name[600];
    size_t base = strlen(m->path);
    if (base > 4 && !strcmp(m->path + base - 4, ".ptx")) base -= 4;
    snprintf(name, sizeof name, "%s", m->path);
    for (unsigned k = 2; k < 1000; k++) {
        uint32_t j = 0;
        while (j < D.nmods && strcmp(D.mods[j].path, name)) j++;
        if (j == D.nmods) break;
        snprintf(name, sizeof name, "%.*s.%u.ptx", (int)base, m->path, k);
    }
    dbg_add_module(&D, m, name, lines, n);
}

static void list_kernels(void) {
    for (uint32_t k = 0; k < D.nmods; k++) {
        ptxi_module *m = D.mods[k].mod;
        printf("  %s:", dbg_base(D.mods[k].path));
        for (unsigned j = 0; j < m->nkernels; j++)
            printf("%s %s", j ? "," : "", dbg_fn_name(&D, ptxi_kernel_name(&m->kernels[j])));
        printf("\n");
    }
}

/* After a (re)load: the first time, the commands before the program goes on. */
static void loaded(void) {
    forget_dead_modules();
    if (D.nmods) dbg_use_module(&D, 0);
    if (prompted) return;
    prompted = true;
    printf("Program %s: its CUDA modules are loaded, with the kernels\n", program_name());
    list_kernels();
    printf("'run' lets the program go on, 'help' lists the commands.\n");
    fflush(stdout);
    if (D.tty) dbg_catch_interrupt(true);
    dbg_command_loop(&D);
    if (D.tty) dbg_catch_interrupt(false);
    if (D.quit) kill_program(&D);
    D.started = true;
}

/* The module table changes only between launches. */
void dbg_app_module(ptxi_module *m, const char *ptx, size_t len) {
    if (!D.in) return;
    pthread_mutex_lock(&launch_lock);
    add_module(m, ptx, len);
    pthread_mutex_unlock(&launch_lock);
}

void dbg_app_loaded(void) {
    if (!D.in) return;
    pthread_mutex_lock(&launch_lock);
    loaded();
    pthread_mutex_unlock(&launch_lock);
}

void dbg_app_launch(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block) {
    if (!D.in) return;
    pthread_mutex_lock(&launch_lock);
    int m = find_module(k->mod);
    if (m < 0) { /* loaded by the program itself (cuModuleLoadData...): no PTX text kept */
        dbg_add_module(&D, k->mod, k->mod->path, NULL, 0);
        m = (int)D.nmods - 1;
    }
    if ((uint32_t)m != D.cur || D.mod != k->mod) dbg_use_module(&D, (uint32_t)m);
    D.running = true;
    D.killing = false;
    D.mode = DBG_RUN;
    D.prev_w = NULL;
    D.cta = NULL;
    D.fwarp = D.flane = 0;
    D.fblock = 1;
    /* what the host wrote between launches is not a kernel's store */
    for (int w = 0; w < D.nwatch; w++)
        if (D.watch[w].host) memcpy(D.watch[w].old, D.watch[w].host, D.watch[w].len);
    printf("[Launch of CUDA kernel %u %s<<<(%u,%u,%u),(%u,%u,%u)>>>]\n", D.kernel_no,
           dbg_fn_name(&D, ptxi_kernel_name(k)), grid.x, grid.y, grid.z, block.x, block.y, block.z);
    fflush(stdout);
    if (D.tty) dbg_catch_interrupt(true);
}

void dbg_app_launch_end(void) {
    if (!D.in) return;
    if (D.tty) dbg_catch_interrupt(false);
    D.running = false;
    D.cta = NULL;
    D.stop_w = NULL;
    D.kernel_no++;
    fflush(stdout);
    pthread_mutex_unlock(&launch_lock);
}
