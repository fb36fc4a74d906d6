/* props.c — the properties of the virtual device and the defaults of its
 * limits. Numbers are an H100 80GB HBM3's under CUDA 13.0, as recorded by
 * gpu/jobs/rt_defaults (recorded/limits.txt, setlimits.txt). */
#include <stdint.h>
#include <string.h>

#include "ptxi.h"

size_t rt_default_limit(ptxi_limit which);
size_t rt_limit_granted(ptxi_limit which, size_t requested);

ptxi_status ptxi_device_get_props(ptxi_device_props *out)
{
    if (!out)
        return PTXI_INVALID_VALUE;
    *out = (ptxi_device_props){
        .name = "ptxi virtual sm_90 device",
        .major = 9,
        .minor = 0,
        /* The H100 has 85017493504 bytes; a ptxi context can hand out its
         * default address-space reserve, so that is what is reported. */
        .total_global_mem = (size_t)64 << 30,
        .shared_mem_per_block = 49152,
        .shared_mem_per_block_optin = 232448,
        .shared_mem_per_multiprocessor = 233472,
        .total_const_mem = 65536,
        .regs_per_block = 65536,
        .warp_size = 32,
        .max_threads_per_block = 1024,
        .max_threads_dim = {1024, 1024, 64},
        .max_grid_size = {2147483647, 65535, 65535},
        .multiprocessor_count = 132,
        .max_threads_per_multiprocessor = 2048,
        .max_blocks_per_multiprocessor = 32,
        .clock_rate_khz = 1980000,
        .memory_clock_rate_khz = 2619000,
        .memory_bus_width = 5120,
        .l2_cache_size = 52428800,
    };
    return PTXI_SUCCESS;
}

/* cudaDeviceGetLimit on a fresh context. The printf FIFO is 8.25 MiB on CUDA
 * 13, not the 1 MiB the guide states. */
size_t rt_default_limit(ptxi_limit which)
{
    switch (which) {
    case PTXI_LIMIT_STACK_SIZE: return 1024;
    case PTXI_LIMIT_PRINTF_FIFO_SIZE: return 8650752;
    case PTXI_LIMIT_MALLOC_HEAP_SIZE: return 8388608;
    }
    return 0;
}

/* What cudaDeviceGetLimit reports after cudaDeviceSetLimit(requested), which
 * succeeds for every value before the first launch: the stack rounds up to 16
 * bytes (0 stays 0), the FIFO is at least 512 KiB and the heap at least 4 MiB.
 * After a launch the GPU refuses new FIFO and heap sizes (cudaErrorInvalidValue)
 * but still accepts a stack size. */
size_t rt_limit_granted(ptxi_limit which, size_t requested)
{
    switch (which) {
    case PTXI_LIMIT_STACK_SIZE:
        return requested > SIZE_MAX - 15 ? requested : (requested + 15) & ~(size_t)15;
    case PTXI_LIMIT_PRINTF_FIFO_SIZE:
        return requested < 524288 ? 524288 : requested;
    case PTXI_LIMIT_MALLOC_HEAP_SIZE:
        return requested < 4194304 ? 4194304 : requested;
    }
    return requested;
}
