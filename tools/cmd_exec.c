/* cmd_exec.c — `ptxi exec PROGRAM [ARGS...]`: runs a program built with
 * `nvcc -cudart shared` on ptxi, by putting the directory of ptxi's libcudart.so.13
 * first on LD_LIBRARY_PATH and executing the program in place of this process. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"

/* Each option sets the environment variable libcudart reads. */
static const struct { const char *option, *value, *env, *help; } options[] = {
    {"--threads", "N", "PTXI_THREADS", "host threads running blocks (default: one per core)"},
    {"--deterministic", NULL, "PTXI_DETERMINISTIC", "fixed order of blocks and warps (one thread)"},
    {"--timeout", "SECONDS", "PTXI_TIMEOUT", "stop a launch that runs longer"},
    {"--quiet", NULL, "PTXI_QUIET", "no fault reports on stderr"},
    {"--dump-ptx", "DIR", "PTXI_DUMP_PTX", "write the PTX taken from the program to DIR"},
};

static int usage(FILE *f) {
    fprintf(f, "usage: ptxi exec [OPTIONS] PROGRAM [ARGS...]\n"
               "Runs a CUDA program built with `nvcc -cudart shared` on ptxi's libcudart.so.13.\n"
               "options:\n");
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        char both[64];
        snprintf(both, sizeof both, "%s %s", options[i].option, options[i].value ? options[i].value : "");
        fprintf(f, "  %-20s %s\n", both, options[i].help);
    }
    fprintf(f, "PTXI_CUDART_DIR names the directory of libcudart.so.13 if it is not in ../lib.\n");
    return f == stdout ? 0 : 2;
}

/* Consumes leading options; returns the index of PROGRAM, or -1 after a usage error. */
static int parse_options(int argc, char **argv) {
    int i = 1;
    while (i < argc && argv[i][0] == '-') {
        if (!strcmp(argv[i], "--")) return i + 1;
        size_t k = 0;
        while (k < sizeof options / sizeof options[0] && strcmp(argv[i], options[k].option)) k++;
        if (k == sizeof options / sizeof options[0]) {
            fprintf(stderr, "ptxi exec: unknown option %s\n", argv[i]);
            return -1;
        }
        bool has_value = options[k].value != NULL;
        if (has_value && i + 1 >= argc) {
            fprintf(stderr, "ptxi exec: %s needs a value\n", argv[i]);
            return -1;
        }
        setenv(options[k].env, has_value ? argv[i + 1] : "1", 1);
        i += has_value ? 2 : 1;
    }
    return i;
}

static int has_library(const char *dir) {
    char path[PATH_MAX];
    return snprintf(path, sizeof path, "%s/libcudart.so.13", dir) < (int)sizeof path && access(path, R_OK) == 0;
}

/* The library sits in ../lib next to bin/ptxi, both in an installed prefix and in
 * the build tree (build/bin/ptxi, build/lib/libcudart.so.13). */
static int find_library_dir(char *dir, size_t size) {
    const char *env = getenv("PTXI_CUDART_DIR");
    if (env && *env) {
        snprintf(dir, size, "%s", env);
        return has_library(dir);
    }
    char exe[PATH_MAX - 16];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return 0;
    *slash = 0;
    snprintf(dir, size, "%s/../lib", exe);
    char real[PATH_MAX];
    if (realpath(dir, real)) snprintf(dir, size, "%s", real);
    return has_library(dir);
}

int cmd_exec(int argc, char **argv) {
    if (argc < 2) return usage(stderr);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) return usage(stdout);
    int prog = parse_options(argc, argv);
    if (prog < 0 || prog >= argc) return usage(stderr);
    char dir[PATH_MAX];
    if (!find_library_dir(dir, sizeof dir)) {
        fprintf(stderr, "ptxi exec: libcudart.so.13 not found in %s (was ptxi built with the CUDA headers?)\n",
                dir);
        return 2;
    }
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t len = strlen(dir) + (old ? strlen(old) + 1 : 0) + 1;
    char *path = malloc(len);
    if (!path) return 2;
    snprintf(path, len, "%s%s%s", dir, old && *old ? ":" : "", old ? old : "");
    setenv("LD_LIBRARY_PATH", path, 1);
    free(path);
    execvp(argv[prog], argv + prog);
    fprintf(stderr, "ptxi exec: cannot run %s: %s\n", argv[prog], strerror(errno));
    return errno == ENOENT ? 127 : 126;
}
