/* harness.h — helpers for the cudart tests: build a CUDA program with nvcc, run it
 * on ptxi's libcudart.so.13 and capture its stdout, stderr and exit status. */
#ifndef CUDART_HARNESS_H
#define CUDART_HARNESS_H

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include "../read_file.h"

#define LIB_DIR PTXI_BINARY_DIR "/lib"
#define WORK_DIR PTXI_BINARY_DIR "/cudart-tests"

static inline int have_nvcc(void) { return system("command -v nvcc >/dev/null 2>&1") == 0; }

static inline int have_library(void) {
    struct stat st;
    return stat(LIB_DIR "/libcudart.so.13", &st) == 0;
}

/* Skips the test when it cannot run here, saying why. */
#define NEED_NVCC_AND_LIBRARY()                                                                        \
    do {                                                                                               \
        if (!have_nvcc()) cr_skip_test("skipped: nvcc not found");                                     \
        if (!have_library()) cr_skip_test("skipped: libcudart.so.13 was not built (no CUDA headers)"); \
    } while (0)

static inline time_t mtime(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mtime : 0;
}

static inline int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int sh(const char *fmt, ...) {
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int r = system(cmd);
    return WIFEXITED(r) ? WEXITSTATUS(r) : 128 + WTERMSIG(r);
}

/* Builds DIR/SRC (several files: "a.cu,b.cu") with `nvcc FLAGS -cudart shared`, in DIR
 * so that __FILE__ reads as on the GPU, into WORK_DIR/ID unless that is newer than every
 * source. Returns the binary's path. */
static inline const char *build(const char *dir, const char *src, const char *flags, const char *id) {
    static char bin[1024];
    char files[1024], path[2048];
    snprintf(bin, sizeof bin, WORK_DIR "/%s", id);
    snprintf(files, sizeof files, "%s", src);
    time_t newest = 0;
    for (char *save, *f = strtok_r(files, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        snprintf(path, sizeof path, "%s/%s", dir, f);
        if (mtime(path) > newest) newest = mtime(path);
    }
    snprintf(path, sizeof path, "%s/check.h", dir);
    if (mtime(path) > newest) newest = mtime(path);
    snprintf(files, sizeof files, "%s", src);
    for (char *c = files; *c; c++)
        if (*c == ',') *c = ' ';
    sh("mkdir -p " WORK_DIR);
    /* The flags it was built with are kept beside it: other flags, other binary. */
    snprintf(path, sizeof path, "%s.flags", bin);
    char *old = slurp(path, NULL);
    bool same = old && !strcmp(old, flags);
    free(old);
    if (same && mtime(bin) > newest) return bin;
    /* -lcuda finds ptxi's libcuda.so where no CUDA toolkit is installed */
    int rc = sh("cd '%s' && nvcc %s -cudart shared -o '%s' %s -L'" PTXI_BINARY_DIR "/lib' > '%s.build.log' 2>&1", dir,
                flags, bin, files, bin);
    cr_assert_eq(rc, 0, "nvcc failed for %s (%s); see %s.build.log", src, flags, bin);
    FILE *f = fopen(path, "w");
    if (f) fputs(flags, f), fclose(f);
    return bin;
}

typedef struct {
    char *out, *err;
    int rc;
} run_result;

/* Runs BIN in DIR with the replacement library and ENV (e.g. "PTXI_DUMP_PTX=/x"). */
static inline run_result run_program(const char *dir, const char *bin, const char *env) {
    run_result r;
    char out[1100], err[1100];
    snprintf(out, sizeof out, "%s.stdout", bin);
    snprintf(err, sizeof err, "%s.stderr", bin);
    /* ${PTXI_CHILD_PRELOAD:+...}: a sanitized build preloads its runtime into the program */
    r.rc = sh("cd '%s' && env LD_LIBRARY_PATH=" LIB_DIR " ${PTXI_CHILD_PRELOAD:+LD_PRELOAD=$PTXI_CHILD_PRELOAD} "
              "PTXI_QUIET=1 %s timeout 600 '%s' > '%s' 2> '%s' < /dev/null",
              dir, env ? env : "", bin, out, err);
    r.out = slurp(out, NULL);
    r.err = slurp(err, NULL);
    if (!r.out) r.out = strdup("");
    if (!r.err) r.err = strdup("");
    return r;
}

#endif
