/* test_triton_gpu.c — the Triton kernels of tests/interp/triton/ run through
 * `ptxi run` on the inputs an H200 ran them on (gpu/jobs/triton recorded inputs
 * and outputs in tests/interp/triton/recorded/), launched as Triton launches
 * them: 128 threads, the kernel's 16 bytes of dynamic shared memory, null
 * scratch pointers. Every output word is compared with the GPU's; `max_err`
 * is the allowed |ptxi - gpu| / (|gpu| + floor) for kernels whose results go
 * through approximate instructions (0 = bit-exact). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../read_file.h"

#define DIR PTXI_SOURCE_DIR "/tests/interp/triton/"
#define REC DIR "recorded/"
#define PTXI PTXI_BINARY_DIR "/bin/ptxi"

static float *load(const char *path, size_t *n) {
    size_t bytes = 0;
    float *p = (float *)slurp(path, &bytes);
    cr_assert(p, "cannot open %s", path);
    *n = bytes / sizeof(float);
    return p;
}

/* Runs `ptxi run` with argv (NULL-terminated, after "run"), its output buffer
 * written to `out`; then compares `out` with the recorded file. */
static void check(const char *const *argv, const char *out, const char *want, double max_err, double floor) {
    char *args[64];
    int n = 0;
    args[n++] = PTXI;
    args[n++] = "run";
    for (; *argv; argv++) args[n++] = (char *)*argv;
    args[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        execv(PTXI, args);
        _exit(127);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "ptxi run failed (status %d)", status);
    size_t ng, nw;
    float *got = load(out, &ng), *exp = load(want, &nw);
    cr_assert_eq(ng, nw);
    size_t bad = 0;
    for (size_t i = 0; i < nw; i++) {
        double err = fabs((double)got[i] - exp[i]) / (fabs(exp[i]) + floor);
        if (max_err == 0 ? memcmp(&got[i], &exp[i], 4) != 0 : !(err <= max_err)) {
            if (bad++ < 5) cr_log_error("word %zu: ptxi %a, gpu %a", i, got[i], exp[i]);
        }
    }
    cr_assert_eq(bad, 0, "%zu of %zu words differ from the GPU's", bad, nw);
    free(got), free(exp);
    unlink(out);
}

Test(triton_gpu, vector_add) {
    const char *argv[] = {DIR "add.ptx",
                          "-g",
                          "5",
                          "-b",
                          "128",
                          "-a",
                          "file:" REC "add.x.bin",
                          "-a",
                          "file:" REC "add.y.bin",
                          "-a",
                          "zeros:20000",
                          "-a",
                          "u32:5000",
                          "-a",
                          "null",
                          "-a",
                          "null",
                          "-o",
                          "2=triton_add.out",
                          NULL};
    check(argv, "triton_add.out", REC "add.out.bin", 0, 0);
}

/* exp via ex2.approx.f32, then div.full.f32: bit-exact */
Test(triton_gpu, row_softmax) {
    const char *argv[] = {DIR "softmax.ptx",
                          "-g",
                          "64",
                          "-b",
                          "128",
                          "-s",
                          "16",
                          "-a",
                          "zeros:199936",
                          "-a",
                          "file:" REC "softmax.in.bin",
                          "-a",
                          "s32:781",
                          "-a",
                          "s32:781",
                          "-a",
                          "s32:781",
                          "-a",
                          "null",
                          "-a",
                          "null",
                          "-o",
                          "0=triton_softmax.out",
                          NULL};
    check(argv, "triton_softmax.out", REC "softmax.out.bin", 0, 0);
}

/* mean and variance by div.full.f32, 1/sqrt by sqrt.approx.ftz.f32 + div.full:
 * bit-exact, with ptxas's contraction of the multiply that ends div.full's
 * expansion into the sub.f32 that follows (x - mean) and into the add of eps
 * (recorded/layernorm.sass.txt: FFMA R11, R8, -R5, R11 after MUFU.RCP). */
Test(triton_gpu, layer_norm) {
    const char *argv[] = {DIR "layernorm.ptx",
                          "-g",
                          "64",
                          "-b",
                          "128",
                          "-s",
                          "16",
                          "-a",
                          "file:" REC "layernorm.x.bin",
                          "-a",
                          "zeros:199936",
                          "-a",
                          "file:" REC "layernorm.w.bin",
                          "-a",
                          "file:" REC "layernorm.b.bin",
                          "-a",
                          "s32:781",
                          "-a",
                          "s32:781",
                          "-a",
                          "f32:1e-5",
                          "-a",
                          "null",
                          "-a",
                          "null",
                          "-o",
                          "1=triton_layernorm.out",
                          NULL};
    check(argv, "triton_layernorm.out", REC "layernorm.out.bin", 0, 0);
}

/* Triton 3.6's fp16 matmul for sm_90a (gpu/jobs/wgmma/triton_mm.py; H100):
 * 128x128x64 tiles, cp.async into swizzled shared memory, wgmma.mma_async
 * m64n128k16 with B M/N-major, wait_group 1 pipelining: bit-exact. */
Test(triton_gpu, matmul_wgmma) {
    const char *argv[] = {DIR "matmul_wgmma.ptx",
                          "-g",
                          "2,2",
                          "-b",
                          "128",
                          "-s",
                          "98304",
                          "-a",
                          "file:" REC "matmul.a.bin",
                          "-a",
                          "file:" REC "matmul.b.bin",
                          "-a",
                          "zeros:262144",
                          "-a",
                          "u32:256",
                          "-a",
                          "u32:256",
                          "-a",
                          "u32:256",
                          "-a",
                          "null",
                          "-a",
                          "null",
                          "-o",
                          "2=triton_matmul.out",
                          NULL};
    check(argv, "triton_matmul.out", REC "matmul.out.bin", 0, 0);
}

/* Triton 3.6's fused attention forward for sm_90a (gpu/jobs/attention/attn.py;
 * H100): two heads of 256 x 64 fp16, Q K^T and P V by wgmma.mma_async
 * m64n64k16, online softmax by ex2.approx.f32: bit-exact. */
Test(triton_gpu, attention_wgmma) {
    const char *argv[] = {DIR "attention_wgmma.ptx",
                          "-g",
                          "4,2",
                          "-b",
                          "128",
                          "-s",
                          "40960",
                          "-a",
                          "file:" REC "attention.q.bin",
                          "-a",
                          "file:" REC "attention.k.bin",
                          "-a",
                          "file:" REC "attention.v.bin",
                          "-a",
                          "zeros:131072",
                          "-a",
                          "f32:0.125",
                          "-a",
                          "s32:256",
                          "-a",
                          "null",
                          "-a",
                          "null",
                          "-o",
                          "3=triton_attention.out",
                          NULL};
    check(argv, "triton_attention.out", REC "attention.out.bin", 0, 0);
}
