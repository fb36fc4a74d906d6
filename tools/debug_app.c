/* debug_app.c — the debugger inside a CUDA program run by `ptxi debug --
 * PROGRAM`: libcudart.so.13 attaches it to its context, tells it which modules
 * the program's fatbinaries gave and when each kernel launch starts and ends.
 * The program runs normally between launches; `kill` and `quit` end it. */
#define _GNU_SOURCE
#include <dlfcn.h>
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

/* `kill`, `quit`, or the end of the commands while the program lives: the
 * program ends at once, its kernel half run (the parent reports SIGKILL). */
static void kill_program(dbg *d) {
    (void)d;
    printf("[Program killed]\n");
    fflush(NULL);
    raise(SIGKILL);
    _exit(137);
}

void dbg_app_attach(ptxi_ctx *ctx, const char *how) {
    const char *in = strstr(how, "in="), *ack = strstr(how, "ack=");
    D.app = true;
    D.ctx = ctx;
    D.next_id = 1;
    D.kill = kill_program;
    if (in && !strncmp(in + 3, "tty", 3)) {
        D.in = fopen("/dev/tty", "r");
        D.tty = D.in != NULL;
        if (D.tty) load_line_editor(&D);
    } else if (in) {
        int fd = atoi(in + 3);
        fcntl(fd, F_SETFD, FD_CLOEXEC);   /* not for the program's own children */
        D.in = fdopen(fd, "r");
        D.echo = true;
    }
    if (!D.in) {
        fprintf(stderr, "ptxi debug: no commands can be read (PTXI_DEBUG=%s)\n", how);
        return;
    }
    if (ack) {
        int fd = atoi(ack + 4);
        if (write(fd, "1", 1) != 1) {}
        close(fd);
    }
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
    if (m < 0) {   /* loaded by the program itself (cuModuleLoadData...): no PTX text kept */
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
