/* test_memory_limit.c — a CUDA program asking for more device memory than the device
 * has gets cudaErrorMemoryAllocation (the documented answer of cudaMalloc) and lives on:
 * with the size given by PTXI_DEVICE_MEMORY, and inside a memory-limited cgroup, where a
 * device larger than the limit would get the program killed when it fills the memory. */
#include "harness.h"

#define DIR PTXI_SOURCE_DIR "/tests/cudart/programs"

/* Runs memory_limit.cu, built as `id` (its output files are named after it, so that
 * tests running at once keep theirs apart), asking for `ask` bytes, after ENV (and
 * COMMAND: see run_program). */
static run_result ask(const char *id, const char *ask, const char *env) {
    const char *bin = build(DIR, "memory_limit.cu", "-arch=sm_90", id);
    char e[1024];
    snprintf(e, sizeof e, "ASK=%s %s", ask, env);
    return run_program(DIR, bin, e);
}

/* The device is `total` bytes, the `ask` is refused and the program carries on. */
static void expect_refused(run_result r, const char *total, const char *ask) {
    char want[512];
    snprintf(want, sizeof want, "total %s, totalGlobalMem %s, free <= total 1\n", total, total);
    cr_expect(strstr(r.out, want), "%s\n%s", r.out, r.err);
    snprintf(want, sizeof want,
             "cudaMalloc(%s) -> cudaErrorMemoryAllocation\n"
             "cudaGetLastError -> cudaErrorMemoryAllocation\n",
             ask);
    cr_expect(strstr(r.out, want), "%s", r.out);
    cr_expect(strstr(r.out, "cudaMemset -> cudaSuccess\ncudaFree -> cudaSuccess\n"), "the half that fits: %s", r.out);
    cr_expect_eq(r.rc, 0, "exit status %d (137: killed): %s", r.rc, r.err);
}

Test(memory_limit, size_from_the_environment, .timeout = 300) {
    NEED_NVCC_AND_LIBRARY();
    expect_refused(ask("memory_limit_env", "268435712", "PTXI_DEVICE_MEMORY=256M"), "268435456", "268435712");
}

Test(memory_limit, inside_a_memory_limited_cgroup, .timeout = 300) {
    NEED_NVCC_AND_LIBRARY();
#ifdef __SANITIZE_THREAD__
    /* the program's libtsan keeps a shadow of the memory it fills: more than the limit */
    cr_skip_test("skipped: ThreadSanitizer's shadow memory does not fit the cgroup's limit");
#endif
    /* 1 GiB asked of a host limited to 512 MiB: filling it would bring the OOM killer */
    run_result r = ask("memory_limit_cgroup", "1073741824",
                       PTXI_SOURCE_DIR "/tests/cudart/in_memory_cgroup.sh 536870912");
    if (r.rc == 77) cr_skip_test("skipped: %s", r.err);
    expect_refused(r, "536870912", "1073741824");
}
