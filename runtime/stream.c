/* stream.c — streams, events and host functions of a context. Launches run to
 * completion when issued, so what a stream still holds is the host functions
 * and event waits queued on it, which a worker thread runs in stream order (see
 * "host functions" below). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgraph.h"
#include "rt.h"

/* One lock for every context's lists: they change only on create/destroy/record. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Contexts that have streams or events: a handle, which may be garbage, is compared
 * against their lists and read only once found. */
static ptxi_ctx **known;
static size_t nknown, capknown;

static bool remember(ptxi_ctx *ctx) {
    for (size_t i = 0; i < nknown; i++)
        if (known[i] == ctx) return true;
    if (nknown == capknown) {
        size_t cap = capknown ? 2 * capknown : 8;
        ptxi_ctx **k = realloc(known, cap * sizeof *k);
        if (!k) return false;
        known = k, capknown = cap;
    }
    known[nknown++] = ctx;
    return true;
}

static ptxi_stream *all_streams_find(const ptxi_stream *s) {
    for (size_t i = 0; i < nknown; i++)
        for (ptxi_stream *p = known[i]->streams; p; p = p->next)
            if (p == s) return p;
    return NULL;
}

static ptxi_event *all_events_find(const ptxi_event *e) {
    for (size_t i = 0; i < nknown; i++)
        for (ptxi_event *p = known[i]->events; p; p = p->next)
            if (p == e) return p;
    return NULL;
}

int ptxi_stream_live(ptxi_stream *s) {
    if (!s) return 1;
    pthread_mutex_lock(&lock);
    int live = all_streams_find(s) != NULL;
    pthread_mutex_unlock(&lock);
    return live;
}

ptxi_status ptxi_stream_create_ex(ptxi_ctx *ctx, unsigned flags, int priority, ptxi_stream **out) {
    RT_CHECK_STICKY(ctx);
    if (!out) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    ptxi_stream *s = calloc(1, sizeof *s);
    if (!s) return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    s->ctx = ctx;
    s->flags = flags;
    s->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
    pthread_mutex_lock(&lock);
    if (!remember(ctx)) {
        pthread_mutex_unlock(&lock);
        free(s);
        return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    }
    s->next = ctx->streams;
    ctx->streams = s;
    pthread_mutex_unlock(&lock);
    *out = s;
    return PTXI_SUCCESS;
}

ptxi_status ptxi_stream_create(ptxi_ctx *ctx, ptxi_stream **out) { return ptxi_stream_create_ex(ctx, 0, 0, out); }

ptxi_status ptxi_stream_destroy(ptxi_stream *s) {
    if (!s || !ptxi_stream_live(s)) return PTXI_INVALID_HANDLE;
    ptxi_ctx *ctx = s->ctx;
    ptxi_stream_run_host_fns(ctx, s, UINT64_MAX); /* its work still completes */
    pthread_mutex_lock(&lock);
    bool found = false;
    for (ptxi_stream **p = &ctx->streams; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            found = true;
            break;
        }
    pthread_mutex_unlock(&lock);
    if (!found) return PTXI_INVALID_HANDLE; /* destroyed by another thread meanwhile */
    pg_capture_forget_stream(s);
    free(s);
    return PTXI_SUCCESS;
}

ptxi_status ptxi_stream_synchronize(ptxi_stream *s) {
    if (!s || !ptxi_stream_live(s)) return PTXI_INVALID_HANDLE;
    rt_flush(s->ctx);
    ptxi_stream_run_host_fns(s->ctx, s, UINT64_MAX);
    return s->ctx->sticky;
}

ptxi_status ptxi_stream_query(ptxi_stream *s) {
    if (!s || !ptxi_stream_live(s)) return PTXI_INVALID_HANDLE;
    if (s->ctx->sticky) return s->ctx->sticky;
    return ptxi_stream_idle(s->ctx, s) ? PTXI_SUCCESS : PTXI_NOT_READY;
}

ptxi_ctx *ptxi_stream_ctx(ptxi_stream *s) { return s ? s->ctx : NULL; }
unsigned ptxi_stream_flags(ptxi_stream *s) { return s ? s->flags : 0; }
int ptxi_stream_priority(ptxi_stream *s) { return s ? s->priority : 0; }

/* Launch attributes: kept under `lock`, as the stream may be destroyed meanwhile
 * (then it is no longer found). The default stream's are its context's. */
enum { ATTR_WINDOW = 1, ATTR_SYNC_POLICY = 3, ATTR_PRIORITY = 8, ATTR_DOMAIN_MAP = 9, ATTR_DOMAIN = 10 };

typedef struct { /* CUaccessPolicyWindow */
    void *base_ptr;
    size_t num_bytes;
    float hit_ratio;
    int hit_prop, miss_prop;
} attr_window;

static bool stream_attr(unsigned id) {
    return id == ATTR_WINDOW || id == ATTR_SYNC_POLICY || id == ATTR_PRIORITY || id == ATTR_DOMAIN_MAP ||
           id == ATTR_DOMAIN;
}

static rt_stream_attrs *attrs_of(ptxi_ctx *ctx, ptxi_stream *s) {
    if (!s) return ctx ? &ctx->null_stream.attrs : NULL;
    ptxi_stream *found = all_streams_find(s);
    return found ? &found->attrs : NULL;
}

ptxi_status ptxi_stream_set_attr(ptxi_ctx *ctx, ptxi_stream *s, unsigned id, const void *val) {
    if (!val || !stream_attr(id)) return PTXI_INVALID_VALUE;
    if (id == ATTR_WINDOW) {
        attr_window w;
        memcpy(&w, val, sizeof w);
        int max = 0;
        ptxi_device_attribute(109 /* MAX_ACCESS_POLICY_WINDOW_SIZE */, &max);
        if (!(w.hit_ratio >= 0.0f && w.hit_ratio <= 1.0f) || w.num_bytes > (size_t)max) return PTXI_INVALID_VALUE;
    }
    pthread_mutex_lock(&lock);
    rt_stream_attrs *a = attrs_of(ctx, s);
    if (a && id == ATTR_PRIORITY && s) { /* the stream's own, in the device's range */
        int prio;
        memcpy(&prio, val, sizeof prio);
        s->priority = prio < -5 ? -5 : prio > 0 ? 0 : prio;
    } else if (a) {
        memcpy(a->value[id], val, PTXI_STREAM_ATTR_SIZE);
        a->set |= 1u << id;
    }
    pthread_mutex_unlock(&lock);
    return a ? PTXI_SUCCESS : PTXI_INVALID_HANDLE;
}

ptxi_status ptxi_stream_get_attr(ptxi_ctx *ctx, ptxi_stream *s, unsigned id, void *val) {
    if (!val || !stream_attr(id)) return PTXI_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    rt_stream_attrs *a = attrs_of(ctx, s);
    if (a) {
        memset(val, 0, PTXI_STREAM_ATTR_SIZE);
        if (id == ATTR_PRIORITY && s) {
            int prio = s->priority;
            memcpy(val, &prio, sizeof prio);
        } else if (a->set & (1u << id)) {
            memcpy(val, a->value[id], PTXI_STREAM_ATTR_SIZE);
        } else if (id == ATTR_SYNC_POLICY) {
            int unset = -1; /* an H100 reads a policy never set as -1 */
            memcpy(val, &unset, sizeof unset);
        }
    }
    pthread_mutex_unlock(&lock);
    return a ? PTXI_SUCCESS : PTXI_INVALID_HANDLE;
}

void ptxi_stream_set_capture(ptxi_stream *s, uint64_t id, void *graph) {
    if (!s) return;
    if (id) s->capture_graph = graph;
    atomic_store_explicit(&s->capture, id, memory_order_release);
}

uint64_t ptxi_stream_capture(ptxi_stream *s, void **graph) {
    uint64_t id = s ? atomic_load_explicit(&s->capture, memory_order_acquire) : 0;
    if (graph) *graph = id ? s->capture_graph : NULL;
    return id;
}

/* ---- host functions ----
 *
 * Launches and copies run to completion on the host thread that issues them,
 * but a host function must not run there: on a GPU it runs as soon as the work
 * before it on its stream is done, whether or not the host ever waits for that
 * stream (a program may queue callbacks and never synchronize), and a host
 * function may block until another host thread does something. So one worker
 * thread per process runs them, one at a time in the order they become ready,
 * as CUDA's own callback thread does: an entry is ready when no earlier entry
 * of its stream (or of the legacy default stream it is ordered with) is left,
 * and a stream's wait for an event (an entry without a function) when the
 * entries before that event are done. Whoever waits for a stream, an event or
 * the context waits on `done` until the entries before that point are gone;
 * work issued on a stream first waits for its stream's entries (ptxi launches
 * do), which keeps a kernel after a host function after it. */

enum { NON_BLOCKING = 1 }; /* cudaStreamNonBlocking, CU_STREAM_NON_BLOCKING */

static pthread_cond_t work = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static pthread_once_t worker_once = PTHREAD_ONCE_INIT;
static bool worker_ok;
static _Thread_local bool in_worker;

/* Whether work on stream s (non-blocking: nb) comes after entry b (of the same context). */
static bool ordered(const ptxi_stream *s, bool nb, const rt_host_fn *b) {
    if (b->stream == s) return true;
    if (!s) return !b->nonblocking;
    return !b->stream && !nb;
}

/* Whether an entry of ctx queued before upto that s (every stream when all) comes after is left. */
static bool pending(const ptxi_ctx *ctx, const ptxi_stream *s, bool all, uint64_t upto) {
    bool nb = s && all_streams_find(s) && (s->flags & NON_BLOCKING);
    for (rt_host_fn *h = ctx->host_fns; h && h->seq < upto; h = h->next)
        if (all || ordered(s, nb, h)) return true;
    return false;
}

static bool known_ctx(const ptxi_ctx *ctx) {
    for (size_t i = 0; i < nknown; i++)
        if (known[i] == ctx) return true;
    return false;
}

static bool ready(const ptxi_ctx *ctx, const rt_host_fn *h) {
    for (const rt_host_fn *b = ctx->host_fns; b != h; b = b->next)
        if (ordered(h->stream, h->nonblocking, b)) return false;
    return h->call || !known_ctx(h->wait_ctx) || !pending(h->wait_ctx, h->wait_stream, !h->wait_stream, h->wait_seq);
}

static void unlink_entry(ptxi_ctx *ctx, rt_host_fn *h) {
    for (rt_host_fn **p = &ctx->host_fns; *p; p = &(*p)->next)
        if (*p == h) {
            *p = h->next;
            if (!*p) ctx->host_fns_tail = p;
            return;
        }
}

static void *worker(void *arg) {
    (void)arg;
    in_worker = true;
    pthread_mutex_lock(&lock);
    for (;;) {
        ptxi_ctx *ctx = NULL;
        rt_host_fn *h = NULL;
        for (size_t i = 0; i < nknown && !h; i++)
            for (rt_host_fn *p = known[i]->host_fns; p && !h; p = p->next)
                if (ready(known[i], p)) h = p, ctx = known[i];
        if (!h) {
            pthread_cond_wait(&work, &lock);
            continue;
        }
        if (h->call) {
            /* with the lock released: it may call the runtime (CUDA forbids that,
             * but a deadlock or a crash here would be worse) */
            h->running = true;
            pthread_mutex_unlock(&lock);
            h->call(h->fn, h->user, h->stream, ctx->sticky);
            pthread_mutex_lock(&lock);
        }
        unlink_entry(ctx, h);
        free(h);
        pthread_cond_broadcast(&done);
    }
    return NULL;
}

/* A child of fork() has no worker: it starts one of its own when it needs one. */
static void worker_after_fork(void) {
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&work, NULL);
    pthread_cond_init(&done, NULL);
    worker_once = (pthread_once_t)PTHREAD_ONCE_INIT;
    worker_ok = in_worker = false;
    for (size_t i = 0; i < nknown; i++) /* the parent's worker was running it: not here */
        for (rt_host_fn *h = known[i]->host_fns; h; h = h->next)
            if (h->running) {
                unlink_entry(known[i], h);
                free(h);
                break;
            }
}

static void start_worker(void) {
    static bool atfork;
    if (!atfork) atfork = pthread_atfork(NULL, NULL, worker_after_fork) == 0;
    pthread_t t;
    pthread_attr_t a;
    if (pthread_attr_init(&a)) return;
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    worker_ok = pthread_create(&t, &a, worker, NULL) == 0;
    pthread_attr_destroy(&a);
}

/* Queues h on s of ctx; the lock is held. */
static bool enqueue(ptxi_ctx *ctx, ptxi_stream *s, rt_host_fn *h) {
    if (!remember(ctx)) return false;
    if (!ctx->host_fns_tail) ctx->host_fns_tail = &ctx->host_fns;
    h->stream = s;
    h->nonblocking = s && (s->flags & NON_BLOCKING);
    h->seq = ctx->host_seq++;
    *ctx->host_fns_tail = h;
    ctx->host_fns_tail = &h->next;
    pthread_cond_signal(&work);
    return true;
}

ptxi_status ptxi_stream_add_host_fn(ptxi_ctx *ctx, ptxi_stream *s, ptxi_host_call call, void *fn, void *user) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    if (!call || !fn) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    if (s && !ptxi_stream_live(s)) return rt_set_error(ctx, PTXI_INVALID_HANDLE);
    pthread_once(&worker_once, start_worker);
    rt_host_fn *h = worker_ok ? calloc(1, sizeof *h) : NULL;
    if (!h) return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    h->call = call, h->fn = fn, h->user = user;
    pthread_mutex_lock(&lock);
    bool ok = enqueue(ctx, s, h);
    pthread_mutex_unlock(&lock);
    if (!ok) {
        free(h);
        return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    }
    return PTXI_SUCCESS;
}

/* Waits until the entries of ctx before upto that s comes after (all when all) are done.
 * A host function that calls the runtime does not wait: it would wait for itself. */
static void wait_for(ptxi_ctx *ctx, const ptxi_stream *s, bool all, uint64_t upto) {
    if (!ctx || in_worker) return;
    pthread_mutex_lock(&lock);
    while (pending(ctx, s, all, upto)) pthread_cond_wait(&done, &lock);
    pthread_mutex_unlock(&lock);
}

void ptxi_stream_run_host_fns(ptxi_ctx *ctx, ptxi_stream *s, uint64_t upto) { wait_for(ctx, s, !s, upto); }

int ptxi_stream_idle(ptxi_ctx *ctx, ptxi_stream *s) {
    if (!ctx) return 1;
    pthread_mutex_lock(&lock);
    bool busy = pending(ctx, s, !s, UINT64_MAX);
    pthread_mutex_unlock(&lock);
    return !busy;
}

ptxi_status ptxi_stream_wait_event(ptxi_ctx *ctx, ptxi_stream *s, ptxi_event *e) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    if (!ptxi_event_live(e) || !ptxi_stream_live(s)) return PTXI_INVALID_HANDLE;
    rt_host_fn *h = calloc(1, sizeof *h);
    if (!h) return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    pthread_mutex_lock(&lock);
    /* the event's last record: once its work is done, later records do not matter */
    bool wait = e->recorded && pending(e->ctx, e->stream, !e->stream, e->seq), ok = true;
    if (wait) {
        h->wait_ctx = e->ctx, h->wait_stream = e->stream, h->wait_seq = e->seq;
        ok = enqueue(ctx, s, h);
    }
    pthread_mutex_unlock(&lock);
    if (!wait || !ok) free(h);
    return ok ? PTXI_SUCCESS : rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
}

/* ---- events ---- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int ptxi_event_live(ptxi_event *e) {
    if (!e) return 0;
    pthread_mutex_lock(&lock);
    int live = all_events_find(e) != NULL;
    pthread_mutex_unlock(&lock);
    return live;
}

ptxi_status ptxi_event_create(ptxi_ctx *ctx, unsigned flags, ptxi_event **out) {
    RT_CHECK_STICKY(ctx);
    if (!out) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    ptxi_event *e = calloc(1, sizeof *e);
    if (!e) return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    e->ctx = ctx;
    e->flags = flags;
    pthread_mutex_lock(&lock);
    if (!remember(ctx)) {
        pthread_mutex_unlock(&lock);
        free(e);
        return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    }
    e->next = ctx->events;
    ctx->events = e;
    pthread_mutex_unlock(&lock);
    *out = e;
    return PTXI_SUCCESS;
}

ptxi_status ptxi_event_destroy(ptxi_event *e) {
    pthread_mutex_lock(&lock);
    bool found = false;
    if (e && all_events_find(e))
        for (ptxi_event **p = &e->ctx->events; *p; p = &(*p)->next)
            if (*p == e) {
                *p = e->next;
                found = true;
                break;
            }
    pthread_mutex_unlock(&lock);
    if (!found) return PTXI_INVALID_HANDLE;
    pg_capture_forget_event(e);
    free(e);
    return PTXI_SUCCESS;
}

ptxi_status ptxi_event_record(ptxi_event *e, ptxi_stream *s) {
    if (!ptxi_event_live(e) || !ptxi_stream_live(s)) return PTXI_INVALID_HANDLE;
    if (s && s->ctx != e->ctx) return rt_set_error(e->ctx, PTXI_INVALID_HANDLE);
    RT_CHECK_STICKY(e->ctx);
    rt_flush(e->ctx);
    double t = now();
    pthread_mutex_lock(&lock);
    e->t = t;
    e->recorded = true;
    e->stream = s;
    e->seq = e->ctx->host_seq;
    pthread_mutex_unlock(&lock);
    return PTXI_SUCCESS;
}

/* Other threads may record the event meanwhile: its fields are read under the lock. */
ptxi_status ptxi_event_synchronize(ptxi_event *e) {
    if (!ptxi_event_live(e)) return PTXI_INVALID_HANDLE;
    pthread_mutex_lock(&lock);
    bool recorded = e->recorded;
    ptxi_stream *s = e->stream;
    uint64_t seq = e->seq;
    pthread_mutex_unlock(&lock);
    if (recorded) wait_for(e->ctx, s, !s, seq);
    return PTXI_SUCCESS;
}

ptxi_status ptxi_event_query(ptxi_event *e) {
    if (!ptxi_event_live(e)) return PTXI_INVALID_HANDLE;
    pthread_mutex_lock(&lock);
    bool busy = e->recorded && pending(e->ctx, e->stream, !e->stream, e->seq);
    pthread_mutex_unlock(&lock);
    return busy ? PTXI_NOT_READY : PTXI_SUCCESS;
}

ptxi_status ptxi_event_elapsed(float *ms, ptxi_event *a, ptxi_event *b) {
    if (!ms) return PTXI_INVALID_VALUE;
    if (!ptxi_event_live(a) || !ptxi_event_live(b)) return PTXI_INVALID_HANDLE;
    pthread_mutex_lock(&lock);
    bool ok = !((a->flags | b->flags) & PTXI_EVENT_DISABLE_TIMING) && a->recorded && b->recorded;
    double t = b->t - a->t;
    pthread_mutex_unlock(&lock);
    if (!ok) return PTXI_INVALID_HANDLE;
    *ms = (float)(t * 1e3);
    return PTXI_SUCCESS;
}

void rt_streams_release(ptxi_ctx *ctx) {
    wait_for(ctx, NULL, true, UINT64_MAX);
    pthread_mutex_lock(&lock);
    /* left only when a host function resets its own context: dropped, but not the one running */
    for (rt_host_fn **p = &ctx->host_fns; *p;) {
        rt_host_fn *h = *p;
        if (h->running) {
            p = &h->next;
            continue;
        }
        *p = h->next;
        free(h);
    }
    ctx->host_fns_tail = NULL;
    for (rt_host_fn **p = &ctx->host_fns; *p; p = &(*p)->next) ctx->host_fns_tail = &(*p)->next;
    pthread_cond_signal(&work);
    ptxi_stream *s = ctx->streams;
    ptxi_event *e = ctx->events;
    ctx->streams = NULL;
    ctx->events = NULL;
    for (size_t i = 0; i < nknown; i++)
        if (known[i] == ctx) known[i] = known[--nknown];
    pthread_mutex_unlock(&lock);
    while (s) {
        ptxi_stream *n = s->next;
        free(s);
        s = n;
    }
    while (e) {
        ptxi_event *n = e->next;
        free(e);
        e = n;
    }
}
