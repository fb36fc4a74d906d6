/* cmd_sanitize.c — `ptxi sanitize [OPTIONS] [--] PROGRAM [ARGS...]`: runs a program
 * as `ptxi exec` does, with the runtime's sanitize mode on, and prints what
 * compute-sanitizer prints around it: the banner, then (after the records the
 * runtime writes while the program runs) the error summary. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "ptxi_private.h"

static int usage(FILE *f) {
    fprintf(f, "usage: ptxi sanitize [OPTIONS] [--] PROGRAM [ARGS...]\n"
               "Runs a CUDA program on ptxi (as ptxi exec does) under a checker, printing what\n"
               "NVIDIA's compute-sanitizer prints.\n"
               "options:\n"
               "  --tool memcheck|racecheck|synccheck|initcheck  the checker (default memcheck)\n"
               "  --leak-check full        report device memory still allocated at exit\n"
               "  --error-exitcode N       exit with N when any error was found\n"
               "  --print-limit N          print at most N records (default 100; 0: all)\n");
    return f == stdout ? 0 : 2;
}

int cmd_sanitize(int argc, char **argv) {
    if (argc < 2) return usage(stderr);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) return usage(stdout);
    const char *tool = "memcheck", *leak = NULL, *limit = NULL;
    int exitcode = -1, i = 1;
    for (; i < argc && argv[i][0] == '-'; i += 2) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "ptxi sanitize: %s needs a value\n", argv[i]);
            return 2;
        }
        const char *v = argv[i + 1];
        if (!strcmp(argv[i], "--tool")) tool = v;
        else if (!strcmp(argv[i], "--leak-check")) leak = v;
        else if (!strcmp(argv[i], "--error-exitcode")) exitcode = atoi(v);
        else if (!strcmp(argv[i], "--print-limit")) limit = v;
        else {
            fprintf(stderr, "ptxi sanitize: unknown option %s\n", argv[i]);
            return usage(stderr);
        }
    }
    if (i >= argc) return usage(stderr);
    if (!ptxi_sanitize_tool(tool)) {
        fprintf(stderr,
                "ptxi sanitize: --tool %s is not supported yet (memcheck, racecheck, synccheck and initcheck are)\n",
                tool);
        return 2;
    }
    if (leak && strcmp(leak, "full") && strcmp(leak, "no")) {
        fprintf(stderr, "ptxi sanitize: --leak-check takes full or no\n");
        return 2;
    }
    if (!cmd_exec) {
        fprintf(stderr, "ptxi sanitize: this ptxi has no exec command\n");
        return 2;
    }
    setenv("PTXI_SANITIZE", tool, 1);
    setenv("PTXI_QUIET", "1", 1); /* the records replace ptxi's own fault reports */
    if (leak) setenv("PTXI_SANITIZE_LEAK_CHECK", leak, 1);
    if (limit) setenv("PTXI_SANITIZE_PRINT_LIMIT", limit, 1);
    int fds[2];
    if (pipe(fds)) {
        perror("ptxi sanitize: pipe");
        return 2;
    }
    char fd[16];
    snprintf(fd, sizeof fd, "%d", fds[1]);
    setenv("PTXI_SANITIZE_COUNT_FD", fd, 1);
    printf("========= COMPUTE-SANITIZER\n");
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("ptxi sanitize: fork");
        return 2;
    }
    if (pid == 0) {
        close(fds[0]);
        /* ptxi exec -- PROGRAM ARGS...: argv[i - 1] becomes "--" */
        argv[i - 1] = "--";
        argv[i - 2] = "exec";
        _exit(cmd_exec(argc - i + 2, argv + i - 2));
    }
    close(fds[1]);
    char buf[64];
    size_t got = 0;
    ssize_t k;
    while (got < sizeof buf - 1 &&
           ((k = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0 || (k < 0 && errno == EINTR)))
        if (k > 0) got += (size_t)k;
    buf[got] = 0;
    close(fds[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    char *e;
    ptxi_san_counts c = {.tool = ptxi_sanitize_tool(tool),
                         .print_limit = limit ? strtoull(limit, NULL, 10) : 100}; /* compute-sanitizer's default */
    c.errors = strtoull(buf, &e, 10);
    c.hazards[0] = strtoull(e, &e, 10);
    c.hazards[1] = strtoull(e, NULL, 10);
    ptxi_sanitize_close(stdout, &c, !WIFEXITED(st) || WEXITSTATUS(st));
    fflush(stdout);
    if ((c.errors || c.hazards[0]) && exitcode >= 0) return exitcode;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}
