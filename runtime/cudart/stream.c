/* stream.c — streams, events and host callbacks. ptxi runs each stream's work in
 * order, so an event is recorded once the work before it is done (its time is taken
 * then). A host callback runs, as on a GPU, on its own time after the work before it:
 * here, when the host next waits for its stream (or for an event recorded after it). */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "cudart_internal.h"

struct CUstream_st {
    ptxi_stream *s;
    unsigned flags;
    int priority;
    struct CUstream_st *next;
};

struct CUevent_st {
    double t;                       /* seconds, CLOCK_MONOTONIC, when recorded */
    bool recorded;
    unsigned flags;
    cudaStream_t stream;            /* where it was last recorded */
    unsigned long seq;              /* callbacks queued before it have a smaller seq */
    struct CUevent_st *next;
};

/* A host callback waiting for the host to wait on its stream. */
typedef struct callback {
    cudaStreamCallback_t cb;        /* cudaStreamAddCallback's form, or */
    cudaHostFn_t fn;                /* cudaLaunchHostFunc's */
    void *user;
    cudaStream_t stream;
    unsigned long seq;
    struct callback *next;
} callback;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUstream_st *streams;
static struct CUevent_st *events;
static callback *callbacks, **callbacks_tail = &callbacks;
static unsigned long callback_seq;

/* 0, cudaStreamLegacy and cudaStreamPerThread all name the default stream. */
static bool is_default(cudaStream_t s) { return (uintptr_t)s <= 2; }

#define LIVE(list, type, h)                                          \
    static bool live_##type(const struct type *h) {                  \
        pthread_mutex_lock(&lock);                                   \
        const struct type *p = list;                                 \
        while (p && p != h) p = p->next;                             \
        pthread_mutex_unlock(&lock);                                 \
        return p != NULL;                                            \
    }
LIVE(streams, CUstream_st, h)
LIVE(events, CUevent_st, h)

bool cr_stream_valid(cudaStream_t s) { return is_default(s) || live_CUstream_st(s); }

/* Runs, in order, the queued callbacks of `stream` (of every stream when it is the
 * default one) queued before `upto`. Each runs with the lock released: it may call
 * the runtime (CUDA forbids that, but a crash here would be worse). */
void cr_run_callbacks(cudaStream_t stream, unsigned long upto) {
    for (;;) {
        pthread_mutex_lock(&lock);
        callback **p = &callbacks;
        while (*p && !((is_default(stream) || (*p)->stream == stream) && (*p)->seq < upto)) p = &(*p)->next;
        callback *c = *p;
        if (c) {
            *p = c->next;
            if (!*p) callbacks_tail = p;
        }
        pthread_mutex_unlock(&lock);
        if (!c) return;
        if (c->cb) c->cb(c->stream, cr_sticky(), c->user);
        else c->fn(c->user);
        free(c);
    }
}

static cudaError_t enqueue(cudaStream_t stream, cudaStreamCallback_t cb, cudaHostFn_t fn, void *user) {
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    callback *c = calloc(1, sizeof *c);
    if (!c) return cr_ret(cudaErrorMemoryAllocation);
    *c = (callback){cb, fn, user, stream, 0, NULL};
    pthread_mutex_lock(&lock);
    c->seq = callback_seq++;
    *callbacks_tail = c;
    callbacks_tail = &c->next;
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

ptxi_stream *cr_stream(cudaStream_t s) { return is_default(s) ? NULL : s->s; }

void cr_streams_forget(void) {
    cr_run_callbacks(NULL, ~0ul);
    pthread_mutex_lock(&lock);
    streams = NULL;   /* ptxi_ctx_reset destroyed them; the old handles are now invalid */
    events = NULL;
    pthread_mutex_unlock(&lock);
}

static cudaError_t create_stream(cudaStream_t *out, unsigned flags, int priority) {
    CR_ENTER();
    if (!out) return cr_ret(cudaErrorInvalidValue);
    struct CUstream_st *st = calloc(1, sizeof *st);
    if (!st) return cr_ret(cudaErrorMemoryAllocation);
    ptxi_status s = ptxi_stream_create(cr_ctx, &st->s);
    if (s != PTXI_SUCCESS) {
        free(st);
        return cr_st(s);
    }
    st->flags = flags;
    st->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
    pthread_mutex_lock(&lock);
    st->next = streams;
    streams = st;
    pthread_mutex_unlock(&lock);
    *out = st;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *pStream) { return create_stream(pStream, 0, 0); }

CR_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
    return create_stream(pStream, flags, 0);
}

CR_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority) {
    return create_stream(pStream, flags, priority);
}

CR_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    CR_ENTER();
    if (is_default(stream) || !live_CUstream_st(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    cr_run_callbacks(stream, ~0ul);   /* its work still completes */
    pthread_mutex_lock(&lock);
    for (struct CUstream_st **p = &streams; *p; p = &(*p)->next)
        if (*p == stream) {
            *p = stream->next;
            break;
        }
    pthread_mutex_unlock(&lock);
    ptxi_status s = ptxi_stream_destroy(stream->s);
    free(stream);
    return cr_st(s);
}

/* Waits for the stream's work; the legacy default stream waits for every stream. */
static cudaError_t drain(cudaStream_t stream) {
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    return cr_st(is_default(stream) ? ptxi_ctx_synchronize(cr_ctx) : ptxi_stream_synchronize(stream->s));
}

CR_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    CR_ENTER();
    cudaError_t e = drain(stream);
    if (e == cudaSuccess || cr_sticky()) cr_run_callbacks(stream, ~0ul);
    return e;
}

CR_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream) {
    CR_ENTER();
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    ptxi_status s = is_default(stream) ? ptxi_ctx_peek_last_error(cr_ctx) : ptxi_stream_query(stream->s);
    if (s != PTXI_SUCCESS && !ptxi_error_is_sticky(s)) s = PTXI_SUCCESS;   /* an old non-sticky error */
    if (s == PTXI_SUCCESS) cr_run_callbacks(stream, ~0ul);
    return s == PTXI_NOT_READY ? cudaErrorNotReady : cr_st(s);
}

CR_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    (void)flags;
    CR_ENTER();
    if (!cr_stream_valid(stream) || !live_CUevent_st(event)) return cr_ret(cudaErrorInvalidResourceHandle);
    return cudaSuccess;   /* the event's work is already done when it is recorded */
}

CR_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags) {
    if (!flags) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(hStream)) return cr_ret(cudaErrorInvalidResourceHandle);
    *flags = is_default(hStream) ? 0 : hStream->flags;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority) {
    if (!priority) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(hStream)) return cr_ret(cudaErrorInvalidResourceHandle);
    *priority = is_default(hStream) ? 0 : hStream->priority;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device) {
    if (!device) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(hStream)) return cr_ret(cudaErrorInvalidResourceHandle);
    *device = 0;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus) {
    if (!pCaptureStatus) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    *pCaptureStatus = cr_capturing(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
    static _Thread_local enum cudaStreamCaptureMode current = cudaStreamCaptureModeGlobal;
    if (!mode) return cr_ret(cudaErrorInvalidValue);
    enum cudaStreamCaptureMode old = current;
    current = *mode;
    *mode = old;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId) {
    if (!streamId) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(hStream)) return cr_ret(cudaErrorInvalidResourceHandle);
    *streamId = is_default(hStream) ? 0 : (unsigned long long)(uintptr_t)hStream;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                            unsigned int flags) {
    CR_ENTER();
    if (!callback || flags) return cr_ret(cudaErrorInvalidValue);
    return enqueue(stream, callback, NULL, userData);
}

CR_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
    CR_ENTER();
    if (!fn) return cr_ret(cudaErrorInvalidValue);
    if (cr_capturing(stream)) return cr_capture_host(fn, userData, stream);
    return enqueue(stream, NULL, fn, userData);
}

/* ---- events ---- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

CR_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
    CR_ENTER();
    if (!event || flags & ~(unsigned)(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess))
        return cr_ret(cudaErrorInvalidValue);
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e) return cr_ret(cudaErrorMemoryAllocation);
    e->flags = flags;
    pthread_mutex_lock(&lock);
    e->next = events;
    events = e;
    pthread_mutex_unlock(&lock);
    *event = e;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

CR_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event) {
    CR_ENTER();
    if (!live_CUevent_st(event)) return cr_ret(cudaErrorInvalidResourceHandle);
    pthread_mutex_lock(&lock);
    for (struct CUevent_st **p = &events; *p; p = &(*p)->next)
        if (*p == event) {
            *p = event->next;
            break;
        }
    pthread_mutex_unlock(&lock);
    free(event);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    CR_ENTER();
    if (!live_CUevent_st(event)) return cr_ret(cudaErrorInvalidResourceHandle);
    if (cr_capturing(stream)) return cudaSuccess;   /* events inside a capture order nothing here */
    cudaError_t e = drain(stream);
    if (e != cudaSuccess) return e;
    double t = now();
    pthread_mutex_lock(&lock);   /* other threads may wait on the event meanwhile */
    event->t = t;
    event->recorded = true;
    event->stream = stream;
    event->seq = callback_seq;
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
    (void)flags;
    return cudaEventRecord(event, stream);
}

/* Work before a recorded event is done; the callbacks before it run now. */
static cudaError_t reach(cudaEvent_t event) {
    CR_ENTER();
    if (!live_CUevent_st(event)) return cr_ret(cudaErrorInvalidResourceHandle);
    pthread_mutex_lock(&lock);
    bool recorded = event->recorded;
    cudaStream_t stream = event->stream;
    unsigned long seq = event->seq;
    pthread_mutex_unlock(&lock);
    if (recorded) cr_run_callbacks(stream, seq);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event) { return reach(event); }
CR_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event) { return reach(event); }

CR_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    CR_ENTER();
    if (!ms) return cr_ret(cudaErrorInvalidValue);
    if (!live_CUevent_st(start) || !live_CUevent_st(end)) return cr_ret(cudaErrorInvalidResourceHandle);
    if ((start->flags | end->flags) & cudaEventDisableTiming) return cr_ret(cudaErrorInvalidResourceHandle);
    pthread_mutex_lock(&lock);
    bool recorded = start->recorded && end->recorded;
    double t = end->t - start->t;
    pthread_mutex_unlock(&lock);
    if (!recorded) return cr_ret(cudaErrorInvalidResourceHandle);
    *ms = (float)(t * 1e3);
    return cudaSuccess;
}

CR_ALIAS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize);
CR_ALIAS(cudaStreamQuery_ptsz, cudaStreamQuery);
CR_ALIAS(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent);
CR_ALIAS(cudaStreamGetFlags_ptsz, cudaStreamGetFlags);
CR_ALIAS(cudaStreamGetPriority_ptsz, cudaStreamGetPriority);
CR_ALIAS(cudaStreamGetDevice_ptsz, cudaStreamGetDevice);
CR_ALIAS(cudaStreamAddCallback_ptsz, cudaStreamAddCallback);
CR_ALIAS(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc);
CR_ALIAS(cudaEventRecord_ptsz, cudaEventRecord);
CR_ALIAS(cudaStreamIsCapturing_ptsz, cudaStreamIsCapturing);
CR_ALIAS(cudaStreamGetId_ptsz, cudaStreamGetId);
CR_ALIAS(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags);
