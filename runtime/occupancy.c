/* occupancy.c — the occupancy calculator both CUDA libraries answer with: how many
 * blocks of a kernel fit on one SM of the presented device (threads, registers in
 * per-warp units of 256, shared memory in 128-byte granules plus the 1 KiB each
 * block keeps for the system, and the per-SM block limit). */
#include "ptxi.h"

static int kattr(ptxi_kernel *k, ptxi_kernel_attr a, int dflt) {
    int v;
    return ptxi_kernel_get_attr(k, a, &v) == PTXI_SUCCESS ? v : dflt;
}

static int dev(int attr) {
    int v = 0;
    ptxi_device_attribute(attr, &v);
    return v;
}

/* Attribute numbers (CUdevice_attribute / cudaDeviceAttr). */
enum {
    MAX_THREADS_PER_SM = 39,
    REGS_PER_SM = 82,
    SMEM_PER_SM = 81,
    MAX_BLOCKS_PER_SM = 106,
    RESERVED_SMEM_PER_BLOCK = 111,
    SMEM_PER_BLOCK_OPTIN = 97,
};

int ptxi_kernel_max_active_blocks(ptxi_kernel *k, int block_size, size_t dyn_shared) {
    if (!k || block_size <= 0 || block_size > kattr(k, PTXI_KATTR_MAX_THREADS_PER_BLOCK, 1024)) return 0;
    int warps = (block_size + 31) / 32;
    int by_threads = dev(MAX_THREADS_PER_SM) / (warps * 32);
    int regs = kattr(k, PTXI_KATTR_NUM_REGS, 32);
    regs = regs < 1 ? 1 : regs > 255 ? 255 : regs;
    int warp_regs = (regs * 32 + 255) / 256 * 256;
    int by_regs = (dev(REGS_PER_SM) / warp_regs) / warps;
    size_t smem = (size_t)kattr(k, PTXI_KATTR_STATIC_SHARED_BYTES, 0) + dyn_shared +
                  (size_t)dev(RESERVED_SMEM_PER_BLOCK);
    smem = (smem + 127) / 128 * 128;
    int by_smem = (int)((size_t)dev(SMEM_PER_SM) / smem);
    int n = dev(MAX_BLOCKS_PER_SM);
    n = by_threads < n ? by_threads : n;
    n = by_regs < n ? by_regs : n;
    return by_smem < n ? by_smem : n;
}

size_t ptxi_kernel_available_dyn_shared(ptxi_kernel *k, int num_blocks) {
    if (!k || num_blocks <= 0) return 0;
    size_t per_block = (size_t)dev(SMEM_PER_SM) / (size_t)num_blocks / 128 * 128;
    size_t fixed = (size_t)kattr(k, PTXI_KATTR_STATIC_SHARED_BYTES, 0) + (size_t)dev(RESERVED_SMEM_PER_BLOCK);
    size_t avail = per_block > fixed ? per_block - fixed : 0;
    size_t optin = (size_t)dev(SMEM_PER_BLOCK_OPTIN);
    return avail < optin ? avail : optin;
}
