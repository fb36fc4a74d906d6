/* props.c — the properties of the virtual device and the defaults of its
 * limits. Numbers are an H100 80GB HBM3's under CUDA 13.0, as recorded by
 * gpu/jobs/rt_defaults (recorded/limits.txt, setlimits.txt), except the size
 * of its memory, which is what this host can really back. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptxi.h"

size_t rt_default_limit(ptxi_limit which);
size_t rt_limit_granted(ptxi_limit which, size_t requested);
uint64_t rt_device_memory(void);

/* ---- the size of device memory ---- */

/* A byte count: decimal digits and an optional binary unit K, M, G or T (KiB
 * ... TiB); nothing else, not zero, no overflow. */
static bool parse_bytes(const char *s, uint64_t *out) {
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (p == s) return false;
    const char *units = "KMGT", *u = *p ? strchr(units, *p) : NULL;
    if (u) {
        unsigned shift = 10 * (unsigned)(u - units + 1);
        if (v > UINT64_MAX >> shift) return false;
        v <<= shift;
        p++;
    }
    if (*p || !v) return false;
    *out = v;
    return true;
}

/* The value in the file, UINT64_MAX when it says "max" or cannot be read. */
static uint64_t read_limit(const char *path) {
    FILE *f = fopen(path, "r");
    char buf[64] = "";
    uint64_t v = UINT64_MAX;
    if (!f) return v;
    if (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = 0;
        if (!parse_bytes(buf, &v)) v = UINT64_MAX;
    }
    fclose(f);
    return v;
}

/* The smallest `file` from the cgroup directory mount+path up to the mount
 * point: a cgroup is held to its ancestors' limits too. */
static uint64_t hierarchy_limit(const char *mount, const char *root, const char *path, const char *file) {
    size_t nroot = strcmp(root, "/") ? strlen(root) : 0;
    if (nroot && strncmp(path, root, nroot)) return UINT64_MAX; /* outside what is mounted */
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s%s", mount, path + nroot) >= (int)sizeof dir) return UINT64_MAX;
    size_t keep = strlen(mount);
    uint64_t lim = UINT64_MAX;
    for (;;) {
        size_t n = strlen(dir);
        while (n > keep && dir[n - 1] == '/') dir[--n] = 0;
        char at[4200];
        snprintf(at, sizeof at, "%s/%s", dir, file);
        uint64_t v = read_limit(at);
        if (v < lim) lim = v;
        char *slash = strrchr(dir, '/');
        if (n <= keep || !slash || (size_t)(slash - dir) < keep) break;
        *slash = 0;
    }
    return lim;
}

/* The memory limit of this process's cgroup (v2 memory.max, v1
 * memory.limit_in_bytes), UINT64_MAX when there is none. */
static uint64_t cgroup_limit(void) {
    char v2_mount[1024] = "", v2_root[1024] = "", v1_mount[1024] = "", v1_root[1024] = "";
    char line[4096];
    FILE *f = fopen("/proc/self/mountinfo", "r");
    while (f && fgets(line, sizeof line, f)) {
        /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE SUPEROPTIONS */
        char root[1024], mount[1024], type[64], super[1024] = "";
        const char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %1023s %1023s", root, mount) != 2 ||
            sscanf(dash + 3, "%63s %*s %1023s", type, super) < 1)
            continue;
        if (!strcmp(type, "cgroup2")) {
            snprintf(v2_mount, sizeof v2_mount, "%s", mount);
            snprintf(v2_root, sizeof v2_root, "%s", root);
        } else if (!strcmp(type, "cgroup")) {
            for (char *save, *o = strtok_r(super, ",", &save); o; o = strtok_r(NULL, ",", &save))
                if (!strcmp(o, "memory")) {
                    snprintf(v1_mount, sizeof v1_mount, "%s", mount);
                    snprintf(v1_root, sizeof v1_root, "%s", root);
                }
        }
    }
    if (f) fclose(f);
    uint64_t lim = UINT64_MAX;
    f = fopen("/proc/self/cgroup", "r");
    while (f && fgets(line, sizeof line, f)) {
        /* HIERARCHY:CONTROLLERS:PATH; v2 is 0::PATH */
        line[strcspn(line, "\n")] = 0;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        *c2 = 0;
        const char *ctrls = c1 + 1, *path = c2 + 1;
        uint64_t v = UINT64_MAX;
        if (!*ctrls && !strcmp(line, "0") && *v2_mount) {
            v = hierarchy_limit(v2_mount, v2_root, path, "memory.max");
        } else if (*v1_mount) {
            char list[256];
            snprintf(list, sizeof list, "%s", ctrls);
            for (char *save, *o = strtok_r(list, ",", &save); o; o = strtok_r(NULL, ",", &save))
                if (!strcmp(o, "memory")) v = hierarchy_limit(v1_mount, v1_root, path, "memory.limit_in_bytes");
        }
        if (v < lim) lim = v;
    }
    if (f) fclose(f);
    return lim;
}

/* Bytes of device memory: $PTXI_DEVICE_MEMORY when set (a byte count, e.g.
 * 85017493504 or 80G), else the host's physical memory or its cgroup's limit,
 * whichever is smaller. Allocations beyond it fail as on a full GPU instead of
 * getting the process killed when its pages are touched. */
uint64_t rt_device_memory(void) {
    const char *env = getenv("PTXI_DEVICE_MEMORY");
    uint64_t v;
    if (env && !*env) env = NULL; /* set empty: as if unset */
    if (env && parse_bytes(env, &v)) return v;
    static int warned;
    if (env && !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "ptxi: PTXI_DEVICE_MEMORY='%s' is not a byte count (such as 8589934592 or 8G); ignored\n", env);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t phys = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
    uint64_t cg = cgroup_limit();
    return cg < phys ? cg : phys;
}

ptxi_status ptxi_device_get_props(ptxi_device_props *out) {
    if (!out) return PTXI_INVALID_VALUE;
    *out = (ptxi_device_props){
        .name = "ptxi virtual sm_90 device",
        .major = 9,
        .minor = 0,
        .total_global_mem = (size_t)rt_device_memory(),
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
size_t rt_default_limit(ptxi_limit which) {
    switch (which) {
    case PTXI_LIMIT_STACK_SIZE: return 1024;
    case PTXI_LIMIT_PRINTF_FIFO_SIZE: return 8650752;
    case PTXI_LIMIT_MALLOC_HEAP_SIZE: return 8388608;
    case PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: return 2048;
    }
    return 0;
}

/* What cudaDeviceGetLimit reports after cudaDeviceSetLimit(requested), which
 * succeeds for every value before the first launch: the stack rounds up to 16
 * bytes (0 stays 0), the FIFO is at least 512 KiB and the heap at least 4 MiB.
 * After a launch the GPU refuses new FIFO and heap sizes (cudaErrorInvalidValue)
 * but still accepts a stack size. */
size_t rt_limit_granted(ptxi_limit which, size_t requested) {
    switch (which) {
    case PTXI_LIMIT_STACK_SIZE: return requested > SIZE_MAX - 15 ? requested : (requested + 15) & ~(size_t)15;
    case PTXI_LIMIT_PRINTF_FIFO_SIZE: return requested < 524288 ? 524288 : requested;
    case PTXI_LIMIT_MALLOC_HEAP_SIZE: return requested < 4194304 ? 4194304 : requested;
    case PTXI_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: break;
    }
    return requested;
}
