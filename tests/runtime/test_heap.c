/* test_heap.c — the device heap: alignment, malloc(0), exhaustion and reuse
 * through coalescing, bad frees, and 8 threads allocating at once. Expected
 * values come from the definition (16-byte granule, bookkeeping outside the
 * region) or from the H100 recording (gpu/jobs/rt_defaults/recorded/heap*.txt). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"

#define REGION (64 * 1024)
static _Alignas(4096) unsigned char region[REGION];
static rt_heap heap;

static void setup(void) { cr_assert_eq(rt_heap_init(&heap, region, REGION), 0); }
static void teardown(void) { rt_heap_fini(&heap); }

static int inside(const void *p, size_t n) {
    return (const unsigned char *)p >= region && (const unsigned char *)p + n <= region + REGION;
}

TestSuite(heap, .init = setup, .fini = teardown);

Test(heap, aligned_and_distinct) {
    void *p[6];
    size_t n[6] = {1, 1, 100, 17, 0, 0};
    for (int i = 0; i < 6; i++) {
        p[i] = rt_heap_malloc(&heap, n[i], 16);
        cr_assert(p[i] && inside(p[i], n[i] ? n[i] : 1));
        cr_expect_eq((uintptr_t)p[i] % 16, 0);
        for (int j = 0; j < i; j++)
            cr_expect_neq(p[i], p[j], "malloc(0) gives distinct pointers as on the GPU (heap0.txt)");
    }
    /* Rounded to 16 bytes: 16 + 16 + 112 + 32 + 16 + 16. */
    cr_expect_eq(rt_heap_in_use(&heap), 208);
    for (int i = 0; i < 6; i++) cr_expect_eq(rt_heap_free(&heap, p[i]), PTXI_SUCCESS);
    cr_expect_eq(rt_heap_in_use(&heap), 0);
}

Test(heap, requested_alignment) {
    for (size_t a = 16; a <= 4096; a *= 4) {
        void *p = rt_heap_malloc(&heap, 10, a);
        cr_assert(p && inside(p, 10));
        cr_expect_eq((uintptr_t)p % a, 0, "align %zu", a);
    }
    /* heap0.txt: align 3 and 0 give NULL, align 8 a 16-byte aligned pointer. */
    cr_expect_null(rt_heap_malloc(&heap, 10, 3));
    cr_expect_null(rt_heap_malloc(&heap, 10, 0));
    void *p = rt_heap_malloc(&heap, 10, 8);
    cr_expect(p && (uintptr_t)p % 16 == 0);
}

Test(heap, too_large) {
    cr_expect_null(rt_heap_malloc(&heap, (size_t)1 << 40, 16));
    /* The H100 returns a pointer for malloc(SIZE_MAX) (the size wraps); we do not. */
    cr_expect_null(rt_heap_malloc(&heap, SIZE_MAX, 16));
    cr_expect_null(rt_heap_malloc(&heap, REGION + 1, 16));
    void *all = rt_heap_malloc(&heap, REGION, 16);
    cr_expect_eq(all, (void *)region);
    cr_expect_null(rt_heap_malloc(&heap, 1, 16));
}

Test(heap, exhaustion_then_reuse) {
    static void *p[REGION / 16 + 1];
    int n = 0;
    while ((p[n] = rt_heap_malloc(&heap, 16, 16)) != NULL) n++;
    cr_expect_eq(n, REGION / 16);
    /* Free every other block: 32 bytes never fit, 16 bytes do. */
    for (int i = 0; i < n; i += 2) cr_assert_eq(rt_heap_free(&heap, p[i]), PTXI_SUCCESS);
    cr_expect_null(rt_heap_malloc(&heap, 32, 16));
    void *q = rt_heap_malloc(&heap, 16, 16);
    cr_expect_not_null(q);
    cr_assert_eq(rt_heap_free(&heap, q), PTXI_SUCCESS);
    for (int i = 1; i < n; i += 2) cr_assert_eq(rt_heap_free(&heap, p[i]), PTXI_SUCCESS);
    /* Everything coalesced back into one block. */
    void *all = rt_heap_malloc(&heap, REGION, 16);
    cr_expect_eq(all, (void *)region);
    cr_expect_eq(rt_heap_free(&heap, all), PTXI_SUCCESS);
    /* Variable sizes, freed in reverse, then the whole region again. */
    int m = 0;
    for (size_t s = 1; (p[m] = rt_heap_malloc(&heap, s, 16)) != NULL; s = s * 3 % 997 + 1) m++;
    cr_expect_gt(m, 100);
    while (m--) cr_assert_eq(rt_heap_free(&heap, p[m]), PTXI_SUCCESS);
    cr_expect_eq(rt_heap_malloc(&heap, REGION, 16), (void *)region);
}

Test(heap, bad_frees) {
    void *p = rt_heap_malloc(&heap, 64, 16), *q = rt_heap_malloc(&heap, 64, 16);
    cr_expect_eq(rt_heap_free(&heap, NULL), PTXI_SUCCESS);
    /* heap2_foreign.txt: a pointer outside the heap faults with an illegal address. */
    cr_expect_eq(rt_heap_free(&heap, (void *)0x1234), PTXI_ILLEGAL_ADDRESS);
    cr_expect_eq(rt_heap_free(&heap, region + REGION), PTXI_ILLEGAL_ADDRESS);
    /* Inside the heap but not an allocation: a pointer into a block. */
    cr_expect_eq(rt_heap_free(&heap, (char *)p + 16), PTXI_LAUNCH_FAILED);
    cr_expect_eq(rt_heap_free(&heap, p), PTXI_SUCCESS);
    /* heap3_double.txt: a double free is a launch failure. */
    cr_expect_eq(rt_heap_free(&heap, p), PTXI_LAUNCH_FAILED);
    /* None of that disturbed the heap. */
    cr_expect_eq(rt_heap_in_use(&heap), 64);
    cr_expect_eq(rt_heap_free(&heap, q), PTXI_SUCCESS);
    cr_expect_eq(rt_heap_malloc(&heap, REGION, 16), (void *)region);
}

Test(heap, empty_and_unaligned_regions) {
    rt_heap h;
    cr_assert_eq(rt_heap_init(&h, region + 3, 40), 0); /* [16, 43) after rounding the base: one granule */
    void *p = rt_heap_malloc(&h, 1, 16);
    cr_expect_eq(p, (void *)(region + 16));
    cr_expect_null(rt_heap_malloc(&h, 1, 16));
    rt_heap_fini(&h);
    cr_assert_eq(rt_heap_init(&h, region, 0), 0);
    cr_expect_null(rt_heap_malloc(&h, 1, 16));
    rt_heap_fini(&h);
}

/* 8 threads allocate, fill with their own byte, check and free, at random;
 * an overlap between two live blocks shows up as a wrong byte. */
static void *worker(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg;
    unsigned char tag = (unsigned char)(uintptr_t)arg;
    void *live[32] = {0};
    size_t len[32] = {0};
    long bad = 0;
    for (int it = 0; it < 20000; it++) {
        int k = (int)(rand_r(&seed) % 32);
        if (live[k]) {
            for (size_t i = 0; i < len[k]; i++) bad += ((unsigned char *)live[k])[i] != tag;
            bad += rt_heap_free(&heap, live[k]) != PTXI_SUCCESS;
            live[k] = NULL;
        } else {
            len[k] = rand_r(&seed) % 200;
            size_t align = (size_t)16 << (rand_r(&seed) % 4);
            live[k] = rt_heap_malloc(&heap, len[k], align);
            if (live[k]) {
                bad += (uintptr_t)live[k] % align != 0 || !inside(live[k], len[k]);
                memset(live[k], tag, len[k]);
            }
        }
    }
    for (int k = 0; k < 32; k++) bad += rt_heap_free(&heap, live[k]) != PTXI_SUCCESS;
    return (void *)bad;
}

Test(heap, eight_threads) {
    pthread_t th[8];
    for (uintptr_t i = 0; i < 8; i++) pthread_create(&th[i], NULL, worker, (void *)(i + 1));
    for (int i = 0; i < 8; i++) {
        void *bad;
        pthread_join(th[i], &bad);
        cr_expect_eq((long)bad, 0, "thread %d", i);
    }
    cr_expect_eq(rt_heap_in_use(&heap), 0);
    cr_expect_eq(rt_heap_malloc(&heap, REGION, 16), (void *)region);
}
