/* test_exec.c — `ptxi exec`'s environment for Triton, Numba and cuda.core (as the README
 * documents it), and its refusal of programs linked with NVIDIA's static runtime. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../read_file.h"

#define PTXI PTXI_BINARY_DIR "/bin/ptxi"
#define WORK PTXI_BINARY_DIR "/exec-tests"

static char *run(const char *cmd, int *rc) {
    char full[2048];
    snprintf(full, sizeof full, "mkdir -p " WORK " && %s > " WORK "/out.txt 2>&1", cmd);
    int r = system(full);
    *rc = WIFEXITED(r) ? WEXITSTATUS(r) : -1;
    char *out = slurp(WORK "/out.txt", NULL);
    return out ? out : strdup("");
}

/* A sanitized build's runtime, which must come first where instrumented libraries are
 * preloaded into an uninstrumented program (tests/CMakeLists.txt). */
#define CHILD_PRELOAD "${PTXI_CHILD_PRELOAD:+$PTXI_CHILD_PRELOAD:}"

/* The value of NAME in `env`'s output. */
static const char *var(const char *out, const char *name) {
    static char value[4096];
    char key[128];
    snprintf(key, sizeof key, "\n%s=", name);
    const char *p = strstr(out, key);
    if (!p) return NULL;
    p += strlen(key);
    snprintf(value, sizeof value, "%.*s", (int)strcspn(p, "\n"), p);
    return value;
}

Test(exec, sets_up_triton_numba_and_cuda_core) {
    char lib[PATH_MAX], bin[PATH_MAX];
    cr_assert(realpath(PTXI_BINARY_DIR "/lib", lib));
    cr_assert(realpath(PTXI_BINARY_DIR "/bin", bin));
    int rc;
    char *out = run(
        "env PTXI_CACHE_DIR=/tmp/ptxi-exec-cache LD_PRELOAD=${PTXI_CHILD_PRELOAD} LD_LIBRARY_PATH=/opt/x " PTXI
        " exec env",
        &rc);
    cr_assert_eq(rc, 0, "%s", out);
    char want[PATH_MAX + 64];
    const char *v = var(out, "LD_LIBRARY_PATH");
    snprintf(want, sizeof want, "%s:/opt/x", lib);
    cr_expect(v && !strcmp(v, want), "LD_LIBRARY_PATH=%s", v);
    snprintf(want, sizeof want, "%s/ptxi-ptxas", bin);
    v = var(out, "TRITON_PTXAS_PATH");
    cr_expect(v && !strcmp(v, want), "TRITON_PTXAS_PATH=%s", v);
    v = var(out, "TRITON_PTXAS_BLACKWELL_PATH"); /* Triton's ptxas from sm_90 on */
    cr_expect(v && !strcmp(v, want), "TRITON_PTXAS_BLACKWELL_PATH=%s", v);
    v = var(out, "TRITON_CACHE_DIR");
    cr_expect(v && !strcmp(v, "/tmp/ptxi-exec-cache/triton"), "TRITON_CACHE_DIR=%s", v);
    snprintf(want, sizeof want, "%s/libnvJitLink.so.13", lib);
    v = var(out, "LD_PRELOAD"); /* after a sanitizer's runtime, if any */
    if (access(want, R_OK) == 0)
        cr_expect(v && strlen(v) >= strlen(want) && !strcmp(v + strlen(v) - strlen(want), want), "LD_PRELOAD=%s", v);
    snprintf(want, sizeof want, "%s/libcuda.so.1", lib);
    v = var(out, "TRITON_LIBCUDA_PATH");
    if (access(want, R_OK) == 0) cr_expect(v && !strcmp(v, lib), "TRITON_LIBCUDA_PATH=%s", v);
    free(out);
}

Test(exec, a_preload_asked_for_stays_first) {
    int rc;
    char *out = run("env LD_PRELOAD=" CHILD_PRELOAD "/nonexistent/first.so " PTXI " exec env", &rc);
    const char *v = var(out, "LD_PRELOAD");
    const char *first = v ? strstr(v, "/nonexistent/first.so") : NULL;
    cr_expect(first && (first == v || first[-1] == ':') && strstr(first, "libnvJitLink.so.13"), "LD_PRELOAD=%s", v);
    free(out);
}

Test(exec, a_program_with_nvidias_static_runtime_is_named, .timeout = 300) {
    if (system("command -v nvcc >/dev/null 2>&1")) cr_skip_test("skipped: nvcc not found");
    int rc;
    char *out = run("cd " WORK " && printf '%s' 'int main() { void *p; return cudaMalloc(&p, 4) != 0; }' > st.cu"
                    " && nvcc -o static_app st.cu && " PTXI " exec ./static_app",
                    &rc);
    cr_expect_eq(rc, 1);
    cr_expect(strstr(out, "ptxi: static_app links NVIDIA's CUDA runtime statically; rebuild it with -cudart shared"),
              "%s", out);
    free(out);
}
