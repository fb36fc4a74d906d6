/* test_graph_clone.c — programs/graph_clone.cu: cudaGraphClone and
 * cudaGraphNodeFindInClone through ptxi's libcudart.so.13; the program checks
 * every value against what its kernels define and says "ok" only when all matched. */
#include <criterion/criterion.h>

#include "harness.h"

Test(cudart, graph_clone, .timeout = 300) {
    NEED_NVCC_AND_LIBRARY();
    const char *bin = build(PTXI_SOURCE_DIR "/tests/cudart/programs", "graph_clone.cu", "-arch=sm_90", "graph_clone");
    run_result r = run_program(PTXI_SOURCE_DIR "/tests/cudart/programs", bin, NULL);
    cr_expect_str_eq(r.err, "");
    cr_expect_str_eq(r.out, "graph_clone: ok\n");
    cr_expect_eq(r.rc, 0);
}

/* programs/graph_handles.cu: stale and made-up graph handles are refused, concurrent
 * host threads capture and launch their own graphs. */
Test(cudart, graph_handles, .timeout = 300) {
    NEED_NVCC_AND_LIBRARY();
    const char *bin = build(PTXI_SOURCE_DIR "/tests/cudart/programs", "graph_handles.cu", "-arch=sm_90",
                            "graph_handles");
    run_result r = run_program(PTXI_SOURCE_DIR "/tests/cudart/programs", bin, NULL);
    cr_expect_str_eq(r.err, "");
    cr_expect_str_eq(r.out, "graph_handles: ok\n");
    cr_expect_eq(r.rc, 0);
}
