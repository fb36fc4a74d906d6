/* tsan_criterion.c — linked into the test programs of a ThreadSanitizer build
 * (-DPTXI_TSAN=ON) only, to let Criterion start there. Criterion's allocator
 * (BoxFort's inheritable arena) maps a shared file at a random fixed address in
 * [0x2000'0000'0000, 0x6000'0000'0000), after asking mincore() whether those
 * pages are free; ThreadSanitizer reserves nearly all of that range for its
 * shadow and metadata, so three tries find no room and Criterion aborts with
 * "Could not initialize inheritable arena". Here the probe reports the range
 * free, and a fixed shared mapping aimed there is placed instead in the part of
 * it ThreadSanitizer leaves to programs (where position-independent
 * executables load: 0x5500'0000'0000 up to 0x5680'0000'0000), which also passes
 * BoxFort's own range check. Nothing of ptxi's maps there. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PROBED_LO 0x200000000000ull
#define PROBED_HI 0x600000000000ull
#define APP_LO 0x560000000000ull /* above the executable and its heap */
#define APP_HI 0x568000000000ull

static int in_probed(const void *addr) {
    return (uint64_t)(uintptr_t)addr >= PROBED_LO && (uint64_t)(uintptr_t)addr < PROBED_HI;
}

int mincore(void *addr, size_t len, unsigned char *vec) {
    if (in_probed(addr)) {
        errno = ENOMEM; /* "not mapped": BoxFort may try here */
        return -1;
    }
    return (int)syscall(SYS_mincore, addr, len, vec);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off) {
    static void *(*real)(void *, size_t, int, int, int, off64_t);
    if (!real) real = (void *(*)(void *, size_t, int, int, int, off64_t))dlsym(RTLD_NEXT, "mmap64");
    if (!(flags & MAP_FIXED) || !(flags & MAP_SHARED) || fd < 0 || !in_probed(addr))
        return real(addr, len, prot, flags, fd, off);
    /* the same offset within a 64 GiB stride of the program range, first free one */
    uint64_t at = APP_LO + ((uint64_t)(uintptr_t)addr & ((1ull << 36) - 1));
    for (; at + len <= APP_HI; at += 1ull << 36) {
        void *p = real((void *)(uintptr_t)at, len, prot, (flags & ~MAP_FIXED) | MAP_FIXED_NOREPLACE, fd, off);
        if (p == (void *)(uintptr_t)at) return p;
        if (p != MAP_FAILED) munmap(p, len);
    }
    errno = ENOMEM;
    return MAP_FAILED;
}
