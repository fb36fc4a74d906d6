/* cmd_exec.c — `ptxi exec PROGRAM [ARGS...]`: runs a program built with
 * `nvcc -cudart shared` on ptxi, by putting the directory of ptxi's libcudart.so.13
 * first on LD_LIBRARY_PATH and executing the program in place of this process. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"

static int usage(FILE *f) {
    fprintf(f, "usage: ptxi exec PROGRAM [ARGS...]\n"
               "Runs a CUDA program built with `nvcc -cudart shared` on ptxi's libcudart.so.13.\n"
               "Environment: PTXI_CUDART_DIR (where libcudart.so.13 is), PTXI_THREADS,\n"
               "PTXI_DETERMINISTIC, PTXI_TIMEOUT, PTXI_QUIET, PTXI_DUMP_PTX=DIR.\n");
    return f == stdout ? 0 : 2;
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
    execvp(argv[1], argv + 1);
    fprintf(stderr, "ptxi exec: cannot run %s: %s\n", argv[1], strerror(errno));
    return errno == ENOENT ? 127 : 126;
}
