/* test_stress.c — programs/stress.cu: eight host threads with four streams each
 * copying, launching, allocating and waiting on events through ptxi's
 * libcudart.so.13 at once; the program checks every value against what its
 * kernels define and says "ok" only when all matched. .ci/tsan runs it with
 * ThreadSanitizer preloaded into the program. */
#include <criterion/criterion.h>

#include "harness.h"

Test(cudart, stress_threads_streams, .timeout = 900) {
    NEED_NVCC_AND_LIBRARY();
    const char *bin = build(PTXI_SOURCE_DIR "/tests/cudart/programs", "stress.cu", "-arch=sm_90", "stress");
    run_result r = run_program(PTXI_SOURCE_DIR "/tests/cudart/programs", bin, NULL);
    cr_expect_str_eq(r.err, "");
    cr_expect_str_eq(r.out, "stress: 8 threads x 4 streams x 24 rounds: ok\n");
    cr_expect_eq(r.rc, 0);
}
