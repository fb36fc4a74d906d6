/* sanitize.c — the runtime's side of sanitize mode: PTXI_SANITIZE turns it on
 * for every context the process creates (ptxi sanitize sets it), API calls
 * that fail are recorded, and at exit the leak check runs and the number of
 * errors goes to the fd PTXI_SANITIZE_COUNT_FD names, for the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "initcheck.h"
#include "rt.h"
#include "sanitize.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static vm_san *san;
static vm_arena *first_arena; /* the first sanitized context's: the leak check's */
static bool leaks_checked;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct leaks {
    uint64_t bytes, count;
};

static void leaked(void *arg, const vm_alloc *r) {
    struct leaks *l = arg;
    char text[256], nb[32];
    if (r->kind == VM_SH_HEAP) /* a device-heap block: no host backtrace */
        snprintf(text, sizeof text, "Leaked %s bytes at 0x%llx on the device heap", vm_san_num(r->size, nb),
                 (unsigned long long)r->addr);
    else
        snprintf(text, sizeof text,
                 "Leaked %s bytes at 0x%llx\n    Saved host backtrace up to driver entry point at allocation time",
                 vm_san_num(r->size, nb), (unsigned long long)r->addr);
    vm_san_record(san, text);
    l->bytes += r->size;
    l->count++;
}

/* The leak check runs once, on the first sanitized context: when it is
 * destroyed, or at exit. */
static void leak_check(void) {
    pthread_mutex_lock(&lock);
    vm_arena *a = first_arena;
    first_arena = NULL;
    leaks_checked = true;
    pthread_mutex_unlock(&lock);
    if (a && san->leak_check) {
        struct leaks l = {0};
        vm_arena_each_program_alloc(a, leaked, &l);
        vm_arena_each_alloc(a, VM_KIND(VM_SH_HEAP), leaked, &l);
        char text[128];
        snprintf(text, sizeof text, "LEAK SUMMARY: %llu bytes leaked in %llu allocations", (unsigned long long)l.bytes,
                 (unsigned long long)l.count);
        vm_san_print(san, text);
    }
}

static void at_exit(void) {
    leak_check();
    const char *fd = getenv("PTXI_SANITIZE_COUNT_FD");
    if (fd && *fd) {
        char n[80]; /* errors, then racecheck's error and warning records */
        int len = snprintf(n, sizeof n, "%llu %llu %llu\n", (unsigned long long)atomic_load(&san->errors),
                           (unsigned long long)atomic_load(&san->hazards[0]),
                           (unsigned long long)atomic_load(&san->hazards[1]));
        if (write(atoi(fd), n, (size_t)len) < 0) return;
    }
}

static void create(void) {
    int fd = dup(STDOUT_FILENO); /* the program may redirect its own stdout later */
    san = vm_san_from_env(fd < 0 ? STDOUT_FILENO : fd);
    if (san) atexit(at_exit);
}

vm_san *ptxi_sanitizer(void) {
    pthread_once(&once, create);
    return san;
}

int ptxi_sanitize_tool(const char *name) {
    return vm_san_tool(name);
}

bool ptxi_sanitize_counts(ptxi_san_counts *c) {
    vm_san *s = ptxi_sanitizer();
    if (!s) return false;
    *c = (ptxi_san_counts){.tool = s->tool,
                           .errors = atomic_load(&s->errors),
                           .hazards = {atomic_load(&s->hazards[0]), atomic_load(&s->hazards[1])},
                           .print_limit = s->print_limit};
    return true;
}

void ptxi_sanitize_close(FILE *f, const ptxi_san_counts *c, bool failed) {
    if (failed) fprintf(f, "========= Target application returned an error\n");
    unsigned long long e = c->hazards[0], w = c->hazards[1], n = c->errors;
    if (c->tool == VM_SAN_RACECHECK)
        fprintf(f, "========= RACECHECK SUMMARY: %llu hazard%s displayed (%llu error%s, %llu warning%s)\n", e + w,
                e + w == 1 ? "" : "s", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s");
    else fprintf(f, "========= ERROR SUMMARY: %llu error%s\n", n, n == 1 ? "" : "s");
    if (c->tool != VM_SAN_RACECHECK && c->print_limit && n > c->print_limit)
        fprintf(f,
                "========= ERROR SUMMARY: %llu errors were not printed. Use --print-limit option to adjust the "
                "number of printed errors\n",
                n - (unsigned long long)c->print_limit);
}

void rt_sanitize_arena(ptxi_ctx *ctx) {
    vm_arena_set_exact(&ctx->arena);
    if (ctx->vmrt.san->tool == VM_SAN_INITCHECK && vm_init_enable(&ctx->arena) < 0)
        fprintf(stderr, "ptxi sanitize: no address space for initcheck's map: reads are not checked\n");
}

void rt_sanitize_ctx(ptxi_ctx *ctx) {
    vm_san *s = ptxi_sanitizer();
    if (!s) return;
    ctx->vmrt.san = s;
    rt_sanitize_arena(ctx);
    pthread_mutex_lock(&lock);
    if (!first_arena && !leaks_checked) first_arena = &ctx->arena;
    pthread_mutex_unlock(&lock);
}

void rt_sanitize_ctx_end(ptxi_ctx *ctx) {
    if (!ctx->vmrt.san) return;
    pthread_mutex_lock(&lock);
    bool first = first_arena == &ctx->arena;
    pthread_mutex_unlock(&lock);
    if (first) leak_check();
}

void ptxi_sanitize_api_error(const char *api, const char *err_name, int code, const char *msg) {
    vm_san *s = ptxi_sanitizer();
    if (!s || s->tool != VM_SAN_MEMCHECK) return; /* the other tools record no API errors */
    char text[512];
    snprintf(text, sizeof text,
             "Program hit %s (error %d) due to \"%s\" on CUDA API call to %s.\n"
             "    Saved host backtrace up to driver entry point at error",
             err_name, code, msg, api);
    vm_san_record(s, text);
}

/* The assert traps the first warp that fails and the grid with it: the
 * records are that warp's (the first line's block, its thread x / 32). */
void rt_sanitize_asserts(const char *lines) {
    vm_san *s = ptxi_sanitizer();
    unsigned first[4] = {0}, k = 0;
    for (const char *p = lines; s && p && *p; k++) {
        const char *e = strchr(p, '\n'), *b = strstr(p, "block: [");
        unsigned c[3], t[3];
        bool parsed = b && (!e || b < e) &&
                      sscanf(b, "block: [%u,%u,%u], thread: [%u,%u,%u]", &c[0], &c[1], &c[2], &t[0], &t[1], &t[2]) == 6;
        if (parsed && !k) first[0] = c[0], first[1] = c[1], first[2] = c[2], first[3] = t[0] / 32;
        if (parsed && c[0] == first[0] && c[1] == first[1] && c[2] == first[2] && t[0] / 32 == first[3]) {
            char text[256];
            snprintf(text, sizeof text,
                     "Warp assert\n    at __assertfail\n    by thread (%u,%u,%u) in block (%u,%u,%u)\n"
                     "    Saved host backtrace up to driver entry point at kernel launch time",
                     t[0], t[1], t[2], c[0], c[1], c[2]);
            vm_san_record(s, text);
        }
        p = e ? e + 1 : NULL;
    }
}

void rt_sanitize_dynpar(ptxi_ctx *ctx) {
    static atomic_bool warned;
    vm_san *s = ctx->vmrt.san;
    if (s && s->tool != VM_SAN_MEMCHECK && !atomic_exchange(&warned, true))
        vm_san_print(s, "Warning: CUDA Dynamic Parallelism is not supported by the selected tool");
}

void ptxi_mem_wrote(ptxi_ctx *ctx, ptxi_dptr p, size_t n) {
    if (ctx) vm_init_wrote(&ctx->arena, p, n);
}

void ptxi_mem_host_read(ptxi_ctx *ctx, ptxi_dptr p, size_t n) {
    if (ctx) vm_init_host_read(&ctx->arena, ctx->vmrt.san, p, n);
}

/* ---- the device heap in sanitize mode ---- */

#define HEAP_ALIGN 16

uint64_t rt_sanitize_malloc(ptxi_ctx *ctx, uint64_t size, uint64_t align) {
    /* as the heap: a power of two (0 and 3 give NULL on an H100); past the
     * arena's granule, a block of the heap itself (checked by its extent only) */
    if (!align || (align & (align - 1))) return 0;
    if (align > VM_GRANULE) return (uint64_t)(uintptr_t)rt_heap_malloc(&ctx->heap, size, align);
    uint64_t span = (size + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1);
    if (span < size || atomic_fetch_add(&ctx->san_heap, span) + span > ctx->heap_size) {
        atomic_fetch_sub(&ctx->san_heap, span);
        return 0;
    }
    uint64_t p = vm_arena_alloc(&ctx->arena, size, VM_SH_HEAP, NULL);
    if (!p) atomic_fetch_sub(&ctx->san_heap, span);
    return p;
}

int rt_sanitize_free(ptxi_ctx *ctx, uint64_t p) {
    vm_alloc r;
    if (vm_arena_find(&ctx->arena, p, &r) && r.addr == p && vm_alloc_program(&r) && r.kind == VM_SH_HEAP &&
        !vm_arena_free_kind(&ctx->arena, p, VM_KIND(VM_SH_HEAP))) {
        atomic_fetch_sub(&ctx->san_heap, (r.size + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1));
        return 0;
    }
    if (p - ctx->heap_base < ctx->heap_size) return rt_heap_free(&ctx->heap, (void *)(uintptr_t)p);
    /* what the H100 reports: a freed block, LAUNCH_FAILED; anything else, ILLEGAL_ADDRESS */
    return vm_arena_locate(&ctx->arena, p, &r) == 2 && r.kind == VM_SH_HEAP ? PTXI_LAUNCH_FAILED : PTXI_ILLEGAL_ADDRESS;
}
