/* primary.c — the process-wide device: the primary context that libcudart.so.13
 * and libcuda.so.1 share (one per process, so it lives here, in the library both
 * link), the hooks that run when it is reset, each thread's stack of current
 * contexts, and the device's attributes. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"
#include "rt.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(ptxi_ctx *) primary;
static ptxi_status create_error;

typedef struct hook {
    void (*fn)(void *);
    void *arg;
    struct hook *next;
} hook;
static hook *hooks;

/* The environment plays the part of a program's command line: PTXI_THREADS,
 * PTXI_DETERMINISTIC, PTXI_TIMEOUT (seconds), PTXI_QUIET (stderr holds only what
 * the program prints). */
static ptxi_status create(ptxi_ctx **out) {
    ptxi_ctx_options o = {0};
    uint64_t det = 0;
    if (!num_env_u64("PTXI_DETERMINISTIC", 1, &det) || !num_env_seconds("PTXI_TIMEOUT", &o.timeout_s))
        return PTXI_INVALID_VALUE;
    o.deterministic = det != 0; /* PTXI_THREADS: ptxi_ctx_create reads it */
    ptxi_status s = ptxi_ctx_create(out, &o);
    if (s != PTXI_SUCCESS) {
        fprintf(stderr, "ptxi: cannot create a context: %s\n", ptxi_error_string(s));
        return s;
    }
    const char *quiet = getenv("PTXI_QUIET");
    if (quiet && *quiet && strcmp(quiet, "0")) ptxi_ctx_set_fault_reports(*out, 0);
    return PTXI_SUCCESS;
}

ptxi_status ptxi_primary_ctx(ptxi_ctx **out) {
    if (!out) return PTXI_INVALID_VALUE;
    ptxi_ctx *c = atomic_load_explicit(&primary, memory_order_acquire);
    if (!c) {
        pthread_mutex_lock(&lock);
        c = atomic_load_explicit(&primary, memory_order_relaxed);
        if (!c && !create_error) {
            create_error = create(&c);
            if (!create_error) atomic_store_explicit(&primary, c, memory_order_release);
        }
        pthread_mutex_unlock(&lock);
        if (!c) return create_error;
    }
    *out = c;
    return PTXI_SUCCESS;
}

ptxi_ctx *ptxi_primary_peek(void) { return atomic_load_explicit(&primary, memory_order_acquire); }

ptxi_status ptxi_primary_reset(void) {
    ptxi_ctx *c = ptxi_primary_peek();
    ptxi_status s = c ? ptxi_ctx_reset(c) : PTXI_SUCCESS;
    pthread_mutex_lock(&lock);
    hook *h = hooks;
    pthread_mutex_unlock(&lock);
    for (; h; h = h->next) h->fn(h->arg); /* hooks are only ever prepended */
    return s;
}

ptxi_status ptxi_primary_on_reset(void (*fn)(void *), void *arg) {
    if (!fn) return PTXI_INVALID_VALUE;
    hook *h = malloc(sizeof *h);
    if (!h) return PTXI_OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    *h = (hook){fn, arg, hooks};
    hooks = h;
    pthread_mutex_unlock(&lock);
    return PTXI_SUCCESS;
}

/* ---- the calling thread's current context ---- */

#define STACK_MAX 64

static _Thread_local ptxi_ctx *stack[STACK_MAX];
static _Thread_local int depth;

ptxi_ctx *ptxi_current_top(void) { return depth ? stack[depth - 1] : NULL; }

int ptxi_current_push(ptxi_ctx *c) {
    if (depth == STACK_MAX) return -1;
    stack[depth++] = c;
    return 0;
}

ptxi_ctx *ptxi_current_pop(void) { return depth ? stack[--depth] : NULL; }

void ptxi_current_set(ptxi_ctx *c) {
    if (!c) {
        if (depth) depth--;
        return;
    }
    if (!depth) depth = 1;
    stack[depth - 1] = c;
}

void ptxi_current_remove(ptxi_ctx *c) {
    int w = 0;
    for (int r = 0; r < depth; r++)
        if (stack[r] != c) stack[w++] = stack[r];
    depth = w;
}

/* ---- attributes ---- */

static const int h100[] = {
#define X(a, v) [a] = v,
#include "cudart/device_attrs.def"
#undef X
};
#define NUM_ATTRS ((int)(sizeof h100 / sizeof h100[0]))

/* What differs on an A100 SXM4 (compute capability 8.0), from the CUDA C++
 * Programming Guide's table of per-capability limits and the A100 datasheet:
 * 108 SMs, 164 KiB of shared memory per SM of which 163 KiB per block, no
 * thread-block clusters. Attributes numbered as CUdevice_attribute. */
static const struct {
    int attr, value;
} a100[] = {
    {75, 8},       {76, 0}, /* compute capability */
    {16, 108},              /* multiprocessors */
    {13, 1410000},          /* clock rate, kHz */
    {81, 167936},           /* shared memory per multiprocessor */
    {97, 166912},           /* shared memory per block, opt-in */
    {120, 0},               /* cluster launch */
};

static bool sm80(void) {
    const char *v = getenv("PTXI_DEVICE_SM");
    return v && atoi(v) == 80;
}

ptxi_status ptxi_device_attribute(int attr, int *value) {
    if (!value || attr <= 0 || attr >= NUM_ATTRS) return PTXI_INVALID_VALUE;
    *value = h100[attr];
    if (sm80())
        for (size_t i = 0; i < sizeof a100 / sizeof a100[0]; i++)
            if (a100[i].attr == attr) *value = a100[i].value;
    return PTXI_SUCCESS;
}

const char *ptxi_device_name(void) { return sm80() ? "NVIDIA A100-SXM4-80GB" : "NVIDIA H100 80GB HBM3"; }
