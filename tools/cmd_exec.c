/* cmd_exec.c — `ptxi exec PROGRAM [ARGS...]`: runs a program on ptxi's CUDA libraries
 * by setting up its environment and executing it in place of this process: ptxi's lib
 * directory first on LD_LIBRARY_PATH (libcudart.so.13, libcuda.so.1), ptxi's nvJitLink
 * preloaded (Numba and cuda.core then link to PTX even where NVIDIA's is installed), and
 * Triton's knobs: ptxi-ptxas as its ptxas, ptxi's libcuda, a cache of its own. */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmds.h"

/* Each option sets the environment variable libcudart reads. */
static const struct {
    const char *option, *value, *env, *help;
} options[] = {
    {"--threads", "N", "PTXI_THREADS", "host threads running blocks (default: one per core)"},
    {"--deterministic", NULL, "PTXI_DETERMINISTIC", "fixed order of blocks and warps (one thread)"},
    {"--timeout", "SECONDS", "PTXI_TIMEOUT", "stop a launch that runs longer"},
    {"--contract", "0|1", "PTXI_CONTRACT", "0: run mul/add/sub as written (default 1: fma as ptxas contracts)"},
    {"--quiet", NULL, "PTXI_QUIET", "no fault reports on stderr"},
    {"--dump-ptx", "DIR", "PTXI_DUMP_PTX", "write the PTX taken from the program to DIR"},
};

static int usage(FILE *f) {
    fprintf(f, "usage: ptxi exec [OPTIONS] PROGRAM [ARGS...]\n"
               "Runs a program on ptxi's CUDA libraries: a CUDA program built with `nvcc -cudart shared`,\n"
               "or a Python program using Triton, Numba or cuda.core (e.g. ptxi exec python3 train.py).\n"
               "options:\n");
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        char both[64];
        snprintf(both, sizeof both, "%s %s", options[i].option, options[i].value ? options[i].value : "");
        fprintf(f, "  %-20s %s\n", both, options[i].help);
    }
    fprintf(f, "PTXI_CUDART_DIR names the directory of ptxi's libraries if it is not ../lib.\n"
               "Triton's cache: $PTXI_CACHE_DIR/triton (default ~/.cache/ptxi/triton).\n");
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

static bool has_file(const char *dir, const char *name) {
    char path[PATH_MAX];
    return snprintf(path, sizeof path, "%s/%s", dir, name) < (int)sizeof path && access(path, R_OK) == 0;
}

static int has_library(const char *dir) { return has_file(dir, "libcudart.so.13") || has_file(dir, "libcuda.so.1"); }

/* The directory of this executable, where ptxi-ptxas sits too. */
static bool find_bin_dir(char *dir, size_t size) {
    ssize_t n = readlink("/proc/self/exe", dir, size - 1);
    if (n <= 0) return false;
    dir[n] = 0;
    char *slash = strrchr(dir, '/');
    if (!slash) return false;
    *slash = 0;
    return true;
}

/* The libraries sit in ../lib next to bin/ptxi, both in an installed prefix and in
 * the build tree (build/bin/ptxi, build/lib/libcudart.so.13). */
static int find_library_dir(const char *bin, char *dir, size_t size) {
    const char *env = getenv("PTXI_CUDART_DIR");
    if (env && *env) {
        snprintf(dir, size, "%s", env);
        return has_library(dir);
    }
    snprintf(dir, size, "%s/../lib", bin);
    char real[PATH_MAX];
    if (realpath(dir, real)) snprintf(dir, size, "%s", real);
    return has_library(dir);
}

/* VAR=VALUE, or VALUE joined to VAR's value with a colon, before or after it. */
static bool add_to_list(const char *var, const char *value, bool first) {
    const char *old = getenv(var);
    if (!old) old = "";
    size_t len = strlen(value) + strlen(old) + 2;
    char *both = malloc(len);
    if (!both) return false;
    snprintf(both, len, "%s%s%s", first ? value : old, *old ? ":" : "", first ? old : value);
    setenv(var, both, 1);
    free(both);
    return true;
}

/* Sets what a program and the Python GPU libraries need to run on the libraries in LIB. */
static bool set_environment(const char *bin, const char *lib) {
    char path[PATH_MAX + 32];
    if (!add_to_list("LD_LIBRARY_PATH", lib, true)) return false;
    /* cuda-pathfinder (cuda.core, Numba) uses an nvJitLink already loaded before it
     * looks for NVIDIA's in wheels or the toolkit. After any preload already asked for
     * (a sanitizer's runtime must come first). */
    if (has_file(lib, "libnvJitLink.so.13")) {
        snprintf(path, sizeof path, "%s/libnvJitLink.so.13", lib);
        if (!add_to_list("LD_PRELOAD", path, false)) return false;
    }
    /* Triton assembles PTX itself: ptxas below sm_90, "ptxas-blackwell" from sm_90 on. */
    if (has_file(bin, "ptxi-ptxas")) {
        snprintf(path, sizeof path, "%s/ptxi-ptxas", bin);
        setenv("TRITON_PTXAS_PATH", path, 1);
        setenv("TRITON_PTXAS_BLACKWELL_PATH", path, 1);
    }
    /* Triton links its launcher with -lcuda from here and loads libcuda.so.1 from it. */
    if (has_file(lib, "libcuda.so.1")) setenv("TRITON_LIBCUDA_PATH", lib, 1);
    /* Triton's cache holds assembled kernels: ptxi's are PTX, a GPU's SASS. */
    const char *cache = getenv("PTXI_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (cache && *cache) snprintf(path, sizeof path, "%s/triton", cache);
    else if (xdg && *xdg) snprintf(path, sizeof path, "%s/ptxi/triton", xdg);
    else snprintf(path, sizeof path, "%s/.cache/ptxi/triton", home && *home ? home : "/tmp");
    setenv("TRITON_CACHE_DIR", path, 1);
    return true;
}

/* PROGRAM's file as execvp finds it: as given when it names a path, else the first
 * executable of that name on PATH. */
static bool find_program(const char *name, char *path, size_t size) {
    if (strchr(name, '/')) return snprintf(path, size, "%s", name) < (int)size;
    const char *dirs = getenv("PATH");
    for (const char *d = dirs ? dirs : "/usr/bin:/bin"; *d;) {
        size_t n = strcspn(d, ":");
        if (snprintf(path, size, "%.*s/%s", (int)n, n ? d : ".", name) < (int)size && access(path, X_OK) == 0)
            return true;
        d += n + (d[n] == ':');
    }
    return false;
}

/* An executable that carries NVIDIA's static CUDA runtime (nvcc's default, -cudart
 * static): that runtime refuses any driver it cannot verify, so it cannot run on ptxi.
 * Its names of the library's parts and of its shared-memory files survive stripping. */
static bool links_static_cudart(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return false;
    struct stat st;
    bool found = false;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 4) {
        const char *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            found = !memcmp(p, "\177ELF", 4) && (memmem(p, (size_t)st.st_size, "libcudart_static_", 17) ||
                                                 memmem(p, (size_t)st.st_size, "/cudart.shm.", 12));
            munmap((void *)p, (size_t)st.st_size);
        }
    }
    close(fd);
    return found;
}

int cmd_exec(int argc, char **argv) {
    if (argc < 2) return usage(stderr);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) return usage(stdout);
    int prog = parse_options(argc, argv);
    if (prog < 0 || prog >= argc) return usage(stderr);
    char bin[PATH_MAX - 64], dir[PATH_MAX];
    if (!find_bin_dir(bin, sizeof bin)) snprintf(bin, sizeof bin, ".");
    if (!find_library_dir(bin, dir, sizeof dir)) {
        fprintf(stderr, "ptxi exec: neither libcudart.so.13 nor libcuda.so.1 is in %s (were they built?)\n", dir);
        return 2;
    }
    char path[PATH_MAX];
    if (find_program(argv[prog], path, sizeof path) && links_static_cudart(path)) {
        const char *base = strrchr(argv[prog], '/');
        fprintf(stderr, "ptxi: %s links NVIDIA's CUDA runtime statically; rebuild it with -cudart shared\n",
                base ? base + 1 : argv[prog]);
        return 1;
    }
    if (!set_environment(bin, dir)) return 2;
    execvp(argv[prog], argv + prog);
    fprintf(stderr, "ptxi exec: cannot run %s: %s\n", argv[prog], strerror(errno));
    return errno == ENOENT ? 127 : 126;
}
