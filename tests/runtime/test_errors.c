/* test_errors.c — queries that need no context: error names, messages and
 * stickiness, the device description and the limit defaults, the latter two
 * against the H100 recording (gpu/jobs/rt_defaults/recorded/limits.txt). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ptxi.h"

size_t rt_default_limit(ptxi_limit which);
size_t rt_limit_granted(ptxi_limit which, size_t requested);

Test(errors, names_and_messages) {
    cr_expect_str_eq(ptxi_error_name(PTXI_SUCCESS), "PTXI_SUCCESS");
    cr_expect_str_eq(ptxi_error_name(PTXI_ILLEGAL_ADDRESS), "PTXI_ILLEGAL_ADDRESS");
    cr_expect_str_eq(ptxi_error_name(PTXI_INVALID_CONFIGURATION), "PTXI_INVALID_CONFIGURATION");
    cr_expect_str_eq(ptxi_error_string(PTXI_SUCCESS), "no error");
    cr_expect_str_eq(ptxi_error_string(PTXI_ILLEGAL_ADDRESS), "an illegal memory access was encountered");
    cr_expect_str_eq(ptxi_error_string(PTXI_ASSERT), "device-side assert triggered");
    cr_expect_str_eq(ptxi_error_string(PTXI_LAUNCH_FAILED), "unspecified launch failure");
    cr_expect_str_eq(ptxi_error_name((ptxi_status)9999), "PTXI_UNKNOWN_ERROR");
    cr_expect_str_eq(ptxi_error_string((ptxi_status)9999), "unknown error");
}

Test(errors, stickiness) {
    cr_expect(!ptxi_error_is_sticky(PTXI_SUCCESS));
    cr_expect(!ptxi_error_is_sticky(PTXI_INVALID_VALUE));
    cr_expect(!ptxi_error_is_sticky(PTXI_INVALID_CONFIGURATION));
    cr_expect(ptxi_error_is_sticky(PTXI_ILLEGAL_ADDRESS));
    cr_expect(ptxi_error_is_sticky(PTXI_ASSERT));
    cr_expect(ptxi_error_is_sticky(PTXI_LAUNCH_FAILED));
    cr_expect(!ptxi_error_is_sticky((ptxi_status)9999));
}

Test(errors, every_code_named) {
    static const ptxi_status all[] = {
#define X_(e, v, s, m) PTXI_##e,
        PTXI_ERROR_LIST(X_)
#undef X_
    };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        cr_expect_eq(strncmp(ptxi_error_name(all[i]), "PTXI_", 5), 0);
        cr_expect_str_neq(ptxi_error_name(all[i]), "PTXI_UNKNOWN_ERROR");
        cr_expect_str_neq(ptxi_error_string(all[i]), "unknown error");
        for (size_t j = 0; j < i; j++) cr_expect_str_neq(ptxi_error_name(all[i]), ptxi_error_name(all[j]));
    }
}

/* The value after `key` in the recording, or -1. */
static long long recorded(const char *key) {
    FILE *f = fopen(PTXI_SOURCE_DIR "/gpu/jobs/rt_defaults/recorded/limits.txt", "r");
    cr_assert_not_null(f);
    char line[256];
    long long v = -1;
    size_t n = strlen(key);
    while (v < 0 && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n) && line[n] == ' ') sscanf(line + n, "%lld", &v);
    fclose(f);
    cr_assert_geq(v, 0, "%s not in the recording", key);
    return v;
}

Test(device, props_match_the_h100) {
    ptxi_device_props p;
    cr_assert_eq(ptxi_device_get_props(&p), PTXI_SUCCESS);
    cr_expect(strstr(p.name, "ptxi") != NULL);
    cr_expect_eq(p.major, recorded("major"));
    cr_expect_eq(p.minor, recorded("minor"));
    cr_expect_eq(p.shared_mem_per_block, (size_t)recorded("sharedMemPerBlock"));
    cr_expect_eq(p.shared_mem_per_block_optin, (size_t)recorded("sharedMemPerBlockOptin"));
    cr_expect_eq(p.shared_mem_per_multiprocessor, (size_t)recorded("sharedMemPerMultiprocessor"));
    cr_expect_eq(p.total_const_mem, (size_t)recorded("totalConstMem"));
    cr_expect_eq(p.regs_per_block, recorded("regsPerBlock"));
    cr_expect_eq(p.warp_size, recorded("warpSize"));
    cr_expect_eq(p.max_threads_per_block, recorded("maxThreadsPerBlock"));
    cr_expect_eq(p.multiprocessor_count, recorded("multiProcessorCount"));
    cr_expect_eq(p.max_threads_per_multiprocessor, recorded("maxThreadsPerMultiProcessor"));
    cr_expect_eq(p.max_blocks_per_multiprocessor, recorded("maxBlocksPerMultiProcessor"));
    cr_expect_eq(p.clock_rate_khz, recorded("clockRate_khz"));
    cr_expect_eq(p.memory_clock_rate_khz, recorded("memoryClockRate_khz"));
    cr_expect_eq(p.memory_bus_width, recorded("memoryBusWidth"));
    cr_expect_eq(p.l2_cache_size, recorded("l2CacheSize"));
    cr_expect_eq(p.max_threads_dim[2], 64);
    cr_expect_eq(p.max_grid_size[0], 2147483647);
    cr_expect_eq(p.max_grid_size[1], 65535);
    cr_expect_eq(ptxi_device_get_props(NULL), PTXI_INVALID_VALUE);
}

Test(device, limit_defaults_and_rounding) {
    cr_expect_eq(rt_default_limit(PTXI_LIMIT_STACK_SIZE), (size_t)recorded("initial stack_size"));
    cr_expect_eq(rt_default_limit(PTXI_LIMIT_PRINTF_FIFO_SIZE), (size_t)recorded("initial printf_fifo_size"));
    cr_expect_eq(rt_default_limit(PTXI_LIMIT_MALLOC_HEAP_SIZE), (size_t)recorded("initial malloc_heap_size"));
    /* setlimits.txt */
    cr_expect_eq(rt_limit_granted(PTXI_LIMIT_STACK_SIZE, 1000), 1008);
    cr_expect_eq(rt_limit_granted(PTXI_LIMIT_STACK_SIZE, 1), 16);
    cr_expect_eq(rt_limit_granted(PTXI_LIMIT_STACK_SIZE, 0), 0);
    cr_expect_eq(rt_limit_granted(PTXI_LIMIT_PRINTF_FIFO_SIZE, 1000), 524288);
    cr_expect_eq(rt_limit_granted(PTXI_LIMIT_PRINTF_FIFO_SIZE, 0), 524288);
    cr_expect_eq(rt_limit_granted(PTXI_LIMIT_MALLOC_HEAP_SIZE, 1000), 4194304);
    cr_expect_eq(rt_limit_granted(PTXI_LIMIT_MALLOC_HEAP_SIZE, 0), 4194304);
    cr_expect_eq(rt_limit_granted(PTXI_LIMIT_MALLOC_HEAP_SIZE, 128 << 20), 128 << 20);
}
