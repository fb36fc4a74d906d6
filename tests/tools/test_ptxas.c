/* test_ptxas.c — bin/ptxi-ptxas as Triton drives it: `--version` in ptxas's words,
 * Triton's command line, ptxas-style diagnostics, and an output that ptxi loads. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../read_file.h"
#include "../run_kernel.h"

#define PTXAS PTXI_BINARY_DIR "/bin/ptxi-ptxas"

/* A kernel k(out) whose thread t has %rd3 = &out[t] and %r1 = t when BODY begins. */
#define KERNEL(body)                                                                         \
    ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n" \
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [out];\n"                 \
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n" body "  ret;\n}\n"

static const char good[] = KERNEL("  mul.lo.u32 %r2, %r1, 3;\n  st.global.u32 [%rd3], %r2;\n");

/* Runs `ptxi-ptxas ARGS 2> ERR > OUT` in a fresh directory; returns the exit status. */
static int ptxas(const char *dir, const char *args, char **out, char **err) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && " PTXAS " %s > stdout.txt 2> stderr.txt", dir, args);
    int r = system(cmd);
    snprintf(cmd, sizeof cmd, "%s/stdout.txt", dir);
    *out = slurp(cmd, NULL);
    snprintf(cmd, sizeof cmd, "%s/stderr.txt", dir);
    *err = slurp(cmd, NULL);
    return WIFEXITED(r) ? WEXITSTATUS(r) : -1;
}

static const char *workdir(const char *name, const char *ptx) {
    static char dir[512];
    snprintf(dir, sizeof dir, PTXI_BINARY_DIR "/ptxas-tests/%s", name);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    cr_assert_eq(system(cmd), 0);
    if (ptx) {
        snprintf(cmd, sizeof cmd, "%s/in.ptx", dir);
        FILE *f = fopen(cmd, "w");
        cr_assert(f);
        fputs(ptx, f);
        fclose(f);
    }
    return dir;
}

Test(ptxas, version_names_a_cuda_release) {
    char *out, *err;
    cr_assert_eq(ptxas(workdir("version", NULL), "--version", &out, &err), 0);
    /* Triton reads `release X.Y` (knobs.NvidiaTool) and maps 13.0 to PTX ISA 9.0 */
    cr_expect(strstr(out, "Cuda compilation tools, release 13.0, V13.0"), "%s", out);
    free(out), free(err);
}

Test(ptxas, tritons_command_line_gives_ptx_that_ptxi_runs) {
    const char *dir = workdir("good", good);
    char *out, *err;
    cr_assert_eq(ptxas(dir, "-lineinfo -v --regAllocOptLevel=2 --gpu-name=sm_90a in.ptx -o in.ptx.o", &out, &err), 0,
                 "%s", err);
    cr_expect(strstr(err, "ptxas info    : Compiling entry function 'k' for 'sm_90a'"), "%s", err);
    char path[600];
    snprintf(path, sizeof path, "%s/in.ptx.o", dir);
    size_t n;
    char *cubin = slurp(path, &n);
    cr_assert(cubin);
    /* the PTX as given, and the NUL that cuModuleLoadData needs to read it as a string */
    cr_assert_eq(n, sizeof good);
    cr_assert_eq(memcmp(cubin, good, sizeof good), 0);
    uint32_t got[32];
    char rep[512];
    cr_assert_eq(run_io(cubin, 32, NULL, 0, got, sizeof got, rep, sizeof rep), PTXI_SUCCESS, "%s", rep);
    for (uint32_t i = 0; i < 32; i++) cr_expect_eq(got[i], 3 * i);
    free(cubin), free(out), free(err);
}

/* Triton's LLVM writes a scalar load or store's register in braces; ptxas takes it. */
Test(ptxas, one_element_braces_are_a_scalar) {
    static const char braces[] = KERNEL("  ld.global.b32 { %r2 }, [ %rd3 + 0 ];\n  add.s32 %r2, %r2, %r1;\n"
                                        "  st.global.b32 [ %rd3 + 0 ], { %r2 };\n");
    const char *dir = workdir("braces", braces);
    char *out, *err;
    cr_assert_eq(ptxas(dir, "--gpu-name=sm_90a in.ptx -o in.o", &out, &err), 0, "%s", err);
    uint32_t got[32];
    char rep[512];
    cr_assert_eq(run_io(braces, 32, NULL, 0, got, sizeof got, rep, sizeof rep), PTXI_SUCCESS, "%s", rep);
    for (uint32_t i = 0; i < 32; i++) cr_expect_eq(got[i], i); /* 0 + tid */
    free(out), free(err);
}

Test(ptxas, options_with_values_and_default_output) {
    const char *dir = workdir("options", good);
    char *out, *err;
    cr_assert_eq(ptxas(dir, "-arch sm_80 -O3 --opt-level 0 --maxrregcount 64 --fmad=false -g in.ptx", &out, &err), 0,
                 "%s", err);
    char path[600];
    snprintf(path, sizeof path, "%s/elf.o", dir); /* ptxas's default output name */
    cr_expect_eq(access(path, R_OK), 0);
    free(out), free(err);
}

Test(ptxas, errors_in_ptxas_words_and_no_output) {
    static const char bad[] = ".version 8.0\n"
                              ".target sm_90\n"
                              ".address_size 64\n"
                              ".visible .entry k()\n"
                              "{\n"
                              "  .reg .b32 %r<3>;\n"
                              "  mov.u32 %r1, %tid.x;\n"
                              "  add.u32 %r2, %r1, %q9;\n"
                              "  frobnicate.u32 %r1, %r2;\n"
                              "  ret;\n"
                              "}\n";
    const char *dir = workdir("bad", bad);
    char *out, *err;
    cr_assert_eq(ptxas(dir, "--gpu-name=sm_90a in.ptx -o out.o", &out, &err), 1);
    cr_expect(strstr(err, "ptxas in.ptx, line 8; error   : "), "%s", err);
    cr_expect(strstr(err, "ptxas in.ptx, line 9; error   : "), "%s", err);
    cr_expect(strstr(err, "ptxas fatal   : Ptx assembly aborted due to errors"), "%s", err);
    char path[600];
    snprintf(path, sizeof path, "%s/out.o", dir);
    cr_expect_neq(access(path, F_OK), 0, "an output was written for bad PTX");
    free(out), free(err);
}

Test(ptxas, missing_input_and_missing_value) {
    const char *dir = workdir("missing", NULL);
    char *out, *err;
    cr_expect_eq(ptxas(dir, "nothere.ptx -o x.o", &out, &err), 1);
    cr_expect(strstr(err, "ptxas fatal   : ") && strstr(err, "nothere.ptx"), "%s", err);
    free(out), free(err);
    cr_expect_eq(ptxas(dir, "-o", &out, &err), 1);
    cr_expect(strstr(err, "ptxas fatal   : "), "%s", err);
    free(out), free(err);
    cr_expect_eq(ptxas(dir, "-v", &out, &err), 1);
    cr_expect(strstr(err, "No input files"), "%s", err);
    free(out), free(err);
}
