/* cmd_debug.c — `ptxi debug`: either loads one kernel of a PTX file with the
 * debugger's hook attached and launches it on `run`, or runs a CUDA program
 * (`ptxi debug -- PROGRAM ARGS`) on ptxi's libcudart.so.13, which attaches the
 * same debugger inside the program (debug_app.c). The engine is debug_engine.c. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "debug.h"

#ifdef PTXI_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

static const char usage_text[] =
    "usage: ptxi debug FILE.ptx [launch options] [-x SCRIPT]\n"
    "       ptxi debug [-x SCRIPT] -- PROGRAM [ARGS...]\n"
    "\n"
    "Runs one kernel under a step debugger (cuda-gdb's commands). The launch\n"
    "options are those of ptxi run; CTAs and warps run in a fixed order.\n"
    "With --, runs a CUDA program built with `nvcc -cudart shared` on ptxi's\n"
    "libcudart.so.13 and debugs its kernel launches; the debugger takes commands\n"
    "once the program's CUDA modules are loaded (its first CUDA call).\n"
    "\n" CLI_LAUNCH_USAGE "  -x, --script FILE    read commands from FILE (standard input when it is not a terminal;\n"
    "                       a debugged program then reads its standard input from /dev/null)\n"
    "\n"
    "Type 'help' at the prompt for the commands.\n";

static const char *ptx_file;

/* ---- the session: context, module, arguments ---- */

static char **read_lines(const char *path, uint32_t *n);

static void session_end(dbg *d) {
    if (!d->ctx) return;
    cli_launch_release(&d->prep);
    dbg_free_modules(d);
    ptxi_ctx_destroy(d->ctx);
    d->ctx = NULL;
}

static int session_start(dbg *d) {
    if (ptxi_ctx_create(&d->ctx, &d->lo.co)) return cli_bad(&d->lo, "cannot create a context");
    ptxi_ctx_set_output(d->ctx, stdout, stdout);
    ptxi_attach_debugger(d->ctx, dbg_hook, d);
    ptxi_attach_fault_hook(d->ctx, dbg_fault_hook);
    ptxi_module *m;
    ptxi_status st = ptxi_module_load_file(d->ctx, ptx_file, &m);
    if (st) {
        fprintf(stderr, "%s\n", ptxi_ctx_error_detail(d->ctx));
        ptxi_ctx_destroy(d->ctx);
        d->ctx = NULL;
        return st == PTXI_IO ? 2 : 1;
    }
    uint32_t n = 0;
    char **lines = read_lines(ptx_file, &n);
    if (dbg_add_module(d, m, ptx_file, lines, n)) return cli_bad(&d->lo, "out of memory");
    dbg_use_module(d, 0);
    return cli_launch_prepare(d->ctx, d->mod, d->path, &d->lo, &d->prep);
}

static void do_run(dbg *d) {
    if (d->started) {
        session_end(d);
        if (session_start(d)) {
            d->quit = true;
            return;
        }
    }
    d->started = d->running = true;
    d->killing = false;
    d->mode = DBG_RUN;
    d->prev_w = NULL;
    d->fwarp = d->flane = 0;
    d->fblock = 1;
    dbg_new_run(d); /* watchpoints watch again in the new context */
    const cli_launch *l = &d->lo;
    printf("Starting kernel %s<<<(%u,%u,%u),(%u,%u,%u)>>>\n", ptxi_kernel_name(d->prep.k), l->grid.x, l->grid.y,
           l->grid.z, l->block.x, l->block.y, l->block.z);
    fflush(stdout);
    ptxi_status st = cli_launch_start(l, &d->prep);
    ptxi_status sync = ptxi_ctx_synchronize(d->ctx);
    if (!st) st = sync;
    fflush(stdout);
    d->running = false;
    d->cta = NULL;
    if (d->killing) printf("[Kernel killed]\n");
    else if (st) printf("[Kernel terminated: %s: %s]\n", ptxi_error_name(st), ptxi_error_string(st));
    else {
        printf("[Kernel finished]\n");
        cli_launch_write_outs(d->ctx, l, &d->prep);
    }
    d->killing = false;
}

static char **read_lines(const char *path, uint32_t *n) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char **v = NULL, *line = NULL;
    size_t cap = 0, vc = 0;
    ssize_t len;
    *n = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (*n == vc) {
            char **nv = realloc(v, (vc = vc ? 2 * vc : 256) * sizeof *v);
            if (!nv) break;
            v = nv;
        }
        v[(*n)++] = strdup(line);
    }
    free(line);
    fclose(f);
    return v;
}

/* As gdb does for the programs it runs: without address-space randomization
 * the device arena lands at the same place every time, so addresses in a
 * transcript repeat too. Re-executes itself once with the flag set; where
 * that is not allowed, goes on as it is. */
static void no_aslr(int argc, char **argv) {
    int p = personality(0xffffffff);
    if (p == -1 || p & ADDR_NO_RANDOMIZE || personality((unsigned long)p | ADDR_NO_RANDOMIZE) == -1) return;
    char **v = calloc((size_t)argc + 2, sizeof *v);
    if (!v) return;
    v[0] = (char *)"ptxi";
    memcpy(v + 1, argv, (size_t)argc * sizeof *v);
    fflush(NULL);
    execv("/proc/self/exe", v);
    free(v);
}

/* ---- a CUDA program ---- */

static bool is_program(const char *path) {
    char magic[4] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t n = fread(magic, 1, 4, f);
    fclose(f);
    return n == 4 && !memcmp(magic, "\177ELF", 4);
}

/* How a program's end reads in the transcript; the result is its exit status. */
static int program_ended(int status) {
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        if (code) printf("[Program exited with code %d]\n", code);
        else printf("[Program exited normally]\n");
        return code;
    }
    int sig = WTERMSIG(status);
    if (sig != SIGKILL) printf("[Program terminated with signal %s]\n", strsignal(sig));
    return 128 + sig;
}

/* The program runs in a child process on ptxi's libcudart.so.13 (through
 * `ptxi exec`), told by PTXI_DEBUG where its commands come from: the
 * terminal, or a descriptor it inherits (the script, or this process's
 * standard input, in which case the program's own standard input is
 * /dev/null). It reports on a pipe that the debugger is attached. */
static int debug_program(char **argv, int argc, const char *script) {
    int in = -1, ack[2];
    bool tty = !script && isatty(0);
    if (script && (in = open(script, O_RDONLY)) < 0) {
        fprintf(stderr, "ptxi debug: cannot read the script '%s': %s\n", script, strerror(errno));
        return 2;
    }
    if (!script && !tty && (in = dup(0)) < 0) return 2;
    if (pipe(ack)) return 2;
    fcntl(ack[0], F_SETFD, FD_CLOEXEC);
    char how[64];
    if (tty) snprintf(how, sizeof how, "in=tty,ack=%d", ack[1]);
    else snprintf(how, sizeof how, "in=%d,ack=%d", in, ack[1]);
    setenv("PTXI_DEBUG", how, 1);
    /* one host thread and a fixed order: the same commands give the same transcript */
    setenv("PTXI_THREADS", "1", 1);
    setenv("PTXI_DETERMINISTIC", "1", 1);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
        int p = personality(0xffffffff);
        if (p != -1) personality((unsigned long)p | ADDR_NO_RANDOMIZE); /* addresses repeat from run to run */
        if (!script && !tty) {
            int null = open("/dev/null", O_RDONLY);
            if (null >= 0) dup2(null, 0), close(null);
        }
        char **v = calloc((size_t)argc + 3, sizeof *v);
        if (!v || !cmd_exec) _exit(2);
        v[0] = (char *)"exec";
        v[1] = (char *)"--";
        memcpy(v + 2, argv, (size_t)argc * sizeof *v);
        _exit(cmd_exec(argc + 2, v));
    }
    close(ack[1]);
    if (in >= 0) close(in);
    /* Ctrl-C belongs to the program's debugger, which stops the kernel with it */
    signal(SIGINT, SIG_IGN);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    /* the child's reports: '1' attached, 'e' the end shown there, 'x' run again */
    char rep[256];
    bool attached = false, shown = false;
    for (ssize_t r; (r = read(ack[0], rep, sizeof rep)) > 0;)
        for (ssize_t k = 0; k < r; k++) attached |= rep[k] == '1', shown = rep[k] == 'e';
    close(ack[0]);
    if (!attached && WIFEXITED(status) && WEXITSTATUS(status) < 126)
        fprintf(stderr,
                "ptxi debug: %s never used ptxi's libcudart.so.13 (no CUDA call, or not built with "
                "`nvcc -cudart shared`): nothing was debugged\n",
                argv[0]);
    if (shown) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return program_ended(status);
}

int cmd_debug(int argc, char **argv) {
    static const struct option opts[] = {
        CLI_LAUNCH_LONGOPTS, {"script", required_argument, 0, 'x'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    static dbg d;
    bool program = false;
    for (int k = 1; k < argc && !program; k++) program = !strcmp(argv[k], "--");
    if (!program) no_aslr(argc, argv);
    memset(&d, 0, sizeof d);
    cli_launch_init(&d.lo, "debug");
    d.next_id = 1;
    d.run = do_run;
    const char *script = NULL;
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, CLI_LAUNCH_SHORTOPTS "x:h", opts, NULL)) != -1;) {
        if (program && c != 'x' && c != 'h') {
            fprintf(stderr, "ptxi debug: a program's launches come from the program: only -x goes before --\n");
            return 2;
        }
        int r = cli_launch_opt(&d.lo, c, optarg);
        if (r == 0) continue;
        if (r == 2) return 2;
        if (c == 'x') script = optarg;
        else if (c == 'h') {
            fputs(usage_text, stdout);
            return 0;
        } else {
            fputs(usage_text, stderr);
            return 2;
        }
    }
    if (program) {
        if (optind >= argc) {
            fputs(usage_text, stderr);
            return 2;
        }
        return debug_program(argv + optind, argc - optind, script);
    }
    if (optind != argc - 1) {
        fputs(usage_text, stderr);
        return 2;
    }
    /* one host thread and a fixed order: the same commands give the same transcript */
    d.lo.co.threads = 1;
    d.lo.co.deterministic = 1;
    ptx_file = argv[optind];
    if (is_program(ptx_file)) {
        fprintf(stderr, "ptxi debug: %s is a program, not PTX: debug it with `ptxi debug -- %s`\n", ptx_file, ptx_file);
        return 2;
    }
    d.in = stdin;
    if (script && !(d.in = fopen(script, "r"))) return cli_bad(&d.lo, "cannot read the script '%s'", script);
    d.tty = !script && isatty(0);
    d.echo = !d.tty;
#ifdef PTXI_HAVE_LIBEDIT
    d.readline = readline;
    d.add_history = add_history;
#endif
    if (d.tty) dbg_catch_interrupt(true);
    int rc = session_start(&d);
    if (!rc) {
        printf("Kernel %s from %s; 'run' starts it, 'help' lists the commands.\n", ptxi_kernel_name(d.prep.k),
               dbg_base(d.path));
        while (!d.quit && !dbg_command_loop(&d) && !d.quit) {}
    }
    session_end(&d);
    dbg_free_breaks(&d);
    if (script) fclose(d.in);
    if (d.devnull) fclose(d.devnull);
    return rc;
}
