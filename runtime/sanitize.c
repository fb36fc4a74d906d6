/* sanitize.c — the runtime's side of sanitize mode: PTXI_SANITIZE turns it on
 * for every context the process creates (ptxi sanitize sets it), API calls
 * that fail are recorded, and at exit the leak check runs and the number of
 * errors goes to the fd PTXI_SANITIZE_COUNT_FD names, for the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"
#include "sanitize.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static vm_san *san;
static vm_arena *first_arena;   /* the first sanitized context's: the leak check's */
static bool leaks_checked;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct leaks {
    uint64_t bytes, count;
};

static void leaked(void *arg, const vm_alloc *r) {
    struct leaks *l = arg;
    char text[256], nb[32];
    snprintf(text, sizeof text, "Leaked %s bytes at 0x%llx\n    Saved host backtrace up to driver entry point at allocation time",
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
        char n[80];   /* errors, then racecheck's error and warning records */
        int len = snprintf(n, sizeof n, "%llu %llu %llu\n", (unsigned long long)atomic_load(&san->errors),
                           (unsigned long long)atomic_load(&san->hazards[0]),
                           (unsigned long long)atomic_load(&san->hazards[1]));
        if (write(atoi(fd), n, (size_t)len) < 0) return;
    }
}

static void create(void) {
    int fd = dup(STDOUT_FILENO);   /* the program may redirect its own stdout later */
    san = vm_san_from_env(fd < 0 ? STDOUT_FILENO : fd);
    if (san) atexit(at_exit);
}

vm_san *rt_sanitizer(void) {
    pthread_once(&once, create);
    return san;
}

void rt_sanitize_ctx(ptxi_ctx *ctx) {
    vm_san *s = rt_sanitizer();
    if (!s) return;
    vm_arena_set_exact(&ctx->arena);
    ctx->vmrt.san = s;
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

void rt_sanitize_api_error(const char *api, const char *err_name, int code, const char *msg) {
    vm_san *s = rt_sanitizer();
    /* racecheck and synccheck name no failed API call (a launch synccheck
     * stopped fails without a record on the GPU) */
    if (!s || s->tool == VM_SAN_RACECHECK || s->tool == VM_SAN_SYNCCHECK) return;
    char text[512];
    snprintf(text, sizeof text,
             "Program hit %s (error %d) due to \"%s\" on CUDA API call to %s.\n"
             "    Saved host backtrace up to driver entry point at error",
             err_name, code, msg, api);
    vm_san_record(s, text);
}
