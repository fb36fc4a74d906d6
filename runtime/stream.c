/* stream.c — streams, events and host functions of a context. Launches run to
 * completion when issued, so every stream is in order and always idle; what a
 * stream still holds is the host functions queued on it, which run (as on a GPU,
 * at their own time after the work before them) when the host next waits for
 * their stream, for an event recorded after them, or for the whole context. */
#include <stdlib.h>
#include <time.h>

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
    ptxi_stream_run_host_fns(ctx, s, UINT64_MAX);   /* its work still completes */
    pthread_mutex_lock(&lock);
    bool found = false;
    for (ptxi_stream **p = &ctx->streams; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            found = true;
            break;
        }
    pthread_mutex_unlock(&lock);
    if (!found) return PTXI_INVALID_HANDLE;   /* destroyed by another thread meanwhile */
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
    return s->ctx->sticky;
}

ptxi_ctx *ptxi_stream_ctx(ptxi_stream *s) { return s ? s->ctx : NULL; }
unsigned ptxi_stream_flags(ptxi_stream *s) { return s ? s->flags : 0; }
int ptxi_stream_priority(ptxi_stream *s) { return s ? s->priority : 0; }

/* ---- host functions ---- */

ptxi_status ptxi_stream_add_host_fn(ptxi_ctx *ctx, ptxi_stream *s, ptxi_host_call call, void *fn, void *user) {
    if (!ctx) return PTXI_INVALID_CONTEXT;
    if (!call || !fn) return rt_set_error(ctx, PTXI_INVALID_VALUE);
    if (s && !ptxi_stream_live(s)) return rt_set_error(ctx, PTXI_INVALID_HANDLE);
    rt_host_fn *h = calloc(1, sizeof *h);
    if (!h) return rt_set_error(ctx, PTXI_OUT_OF_MEMORY);
    *h = (rt_host_fn){call, fn, user, s, 0, NULL};
    pthread_mutex_lock(&lock);
    if (!ctx->host_fns_tail) ctx->host_fns_tail = &ctx->host_fns;
    h->seq = ctx->host_seq++;
    *ctx->host_fns_tail = h;
    ctx->host_fns_tail = &h->next;
    pthread_mutex_unlock(&lock);
    return PTXI_SUCCESS;
}

/* Each runs with the lock released: it may call the runtime (CUDA forbids that,
 * but a deadlock or a crash here would be worse). */
void ptxi_stream_run_host_fns(ptxi_ctx *ctx, ptxi_stream *s, uint64_t upto) {
    if (!ctx) return;
    for (;;) {
        pthread_mutex_lock(&lock);
        rt_host_fn **p = &ctx->host_fns;
        while (*p && !((!s || (*p)->stream == s) && (*p)->seq < upto)) p = &(*p)->next;
        rt_host_fn *h = *p;
        if (h) {
            *p = h->next;
            if (!*p) ctx->host_fns_tail = p;
        }
        pthread_mutex_unlock(&lock);
        if (!h) return;
        h->call(h->fn, h->user, h->stream, ctx->sticky);
        free(h);
    }
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
    if (recorded) ptxi_stream_run_host_fns(e->ctx, s, seq);
    return PTXI_SUCCESS;
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
    ptxi_stream_run_host_fns(ctx, NULL, UINT64_MAX);
    pthread_mutex_lock(&lock);
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
