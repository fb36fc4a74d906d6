/* stream.c — streams, events and host callbacks: the runtime's names for libptxi's
 * streams and events (include/ptxi.h says when host functions run). */
#include "cudart_internal.h"

/* A cudaStream_t is a ptxi_stream and a cudaEvent_t a ptxi_event: the objects of the
 * process-wide device, so that libcuda.so.1 accepts them as CUstream and CUevent. */
#define PS(s) ((ptxi_stream *)(s))
#define PE(e) ((ptxi_event *)(e))

/* 0, cudaStreamLegacy and cudaStreamPerThread all name the default stream. */
static bool is_default(cudaStream_t s) { return (uintptr_t)s <= 2; }

bool cr_stream_valid(cudaStream_t s) { return is_default(s) || ptxi_stream_live(PS(s)); }

ptxi_stream *cr_stream(cudaStream_t s) { return is_default(s) ? NULL : PS(s); }

void cr_run_callbacks(cudaStream_t stream, unsigned long upto) {
    ptxi_stream_run_host_fns(cr_ctx(), cr_stream(stream), upto == ~0ul ? UINT64_MAX : upto);
}

/* The two callback forms, called back by libptxi with the context's sticky status. */
static void call_callback(void *fn, void *user, ptxi_stream *s, ptxi_status st) {
    ((cudaStreamCallback_t)fn)((cudaStream_t)s, cr_map(st), user);
}

static void call_host_fn(void *fn, void *user, ptxi_stream *s, ptxi_status st) {
    (void)s, (void)st;
    ((cudaHostFn_t)fn)(user);
}

static cudaError_t enqueue(cudaStream_t stream, ptxi_host_call call, void *fn, void *user) {
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    return cr_st(ptxi_stream_add_host_fn(cr_ctx(), cr_stream(stream), call, fn, user));
}

static cudaError_t create_stream(cudaStream_t *out, unsigned flags, int priority) {
    CR_ENTER();
    if (!out) return cr_ret(cudaErrorInvalidValue);
    ptxi_stream *s;
    ptxi_status st = ptxi_stream_create_ex(cr_ctx(), flags, priority, &s);
    if (st == PTXI_SUCCESS) *out = (cudaStream_t)s;
    return cr_st(st);
}

CR_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
    CR_NAME();
    return create_stream(pStream, 0, 0);
}

CR_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
    CR_NAME();
    return create_stream(pStream, flags, 0);
}

CR_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority) {
    CR_NAME();
    return create_stream(pStream, flags, priority);
}

CR_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    CR_ENTER();
    if (is_default(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    return cr_st(ptxi_stream_destroy(PS(stream)));
}

/* Waits for the stream's work and runs its host callbacks; the legacy default
 * stream waits for every stream. */
static cudaError_t drain(cudaStream_t stream) {
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    if (cr_capturing(stream)) return cr_capture_refuse(stream);
    return cr_st(is_default(stream) ? ptxi_ctx_synchronize(cr_ctx()) : ptxi_stream_synchronize(PS(stream)));
}

CR_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    CR_ENTER();
    return drain(stream);
}

CR_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream) {
    CR_ENTER();
    if (!cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    ptxi_status s = is_default(stream) ? ptxi_ctx_peek_last_error(cr_ctx()) : ptxi_stream_query(PS(stream));
    if (s != PTXI_SUCCESS && s != PTXI_NOT_READY && !ptxi_error_is_sticky(s))
        s = PTXI_SUCCESS; /* an old non-sticky error */
    if (s == PTXI_SUCCESS && is_default(stream) && !ptxi_stream_idle(cr_ctx(), NULL)) s = PTXI_NOT_READY;
    return s == PTXI_NOT_READY ? cudaErrorNotReady : cr_st(s);
}

CR_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    (void)flags;
    CR_ENTER();
    if (!cr_stream_valid(stream) || !ptxi_event_live(PE(event))) return cr_ret(cudaErrorInvalidResourceHandle);
    int captured = cr_capture_wait(stream, event);
    if (captured >= 0) return captured ? cr_ret((cudaError_t)captured) : cudaSuccess;
    return cr_st(ptxi_stream_wait_event(cr_ctx(), cr_stream(stream), PE(event)));
}

CR_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags) {
    if (!flags) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(hStream)) return cr_ret(cudaErrorInvalidResourceHandle);
    *flags = ptxi_stream_flags(cr_stream(hStream));
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority) {
    if (!priority) return cr_ret(cudaErrorInvalidValue);
    if (!cr_stream_valid(hStream)) return cr_ret(cudaErrorInvalidResourceHandle);
    *priority = ptxi_stream_priority(cr_stream(hStream));
    return cudaSuccess;
}

/* Stream attributes: libptxi keeps them, shared with the driver's
 * cuStreamSetAttribute (include/ptxi.h says which a stream takes). */
_Static_assert(sizeof(cudaLaunchAttributeValue) == PTXI_STREAM_ATTR_SIZE, "attribute value size");

CR_EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                             cudaLaunchAttributeValue *value_out) {
    CR_ENTER();
    if (!cr_stream_valid(hStream)) return cr_ret(cudaErrorInvalidResourceHandle);
    return cr_st(ptxi_stream_get_attr(cr_ctx(), cr_stream(hStream), (unsigned)attr, value_out));
}

CR_EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
                                             const cudaLaunchAttributeValue *value) {
    CR_ENTER();
    if (!cr_stream_valid(hStream)) return cr_ret(cudaErrorInvalidResourceHandle);
    return cr_st(ptxi_stream_set_attr(cr_ctx(), cr_stream(hStream), (unsigned)attr, value));
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
    *pCaptureStatus = cr_capture_status(stream);
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
    return enqueue(stream, call_callback, (void *)callback, userData);
}

CR_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
    CR_ENTER();
    if (!fn) return cr_ret(cudaErrorInvalidValue);
    if (cr_capturing(stream)) return cr_capture_host(fn, userData, stream);
    return enqueue(stream, call_host_fn, (void *)fn, userData);
}

/* ---- events ---- */

CR_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
    CR_ENTER();
    if (!event || flags & ~(unsigned)(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess))
        return cr_ret(cudaErrorInvalidValue);
    ptxi_event *e;
    ptxi_status st = ptxi_event_create(cr_ctx(), flags, &e);
    if (st == PTXI_SUCCESS) *event = (cudaEvent_t)e;
    return cr_st(st);
}

CR_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

CR_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event) {
    CR_ENTER();
    return cr_st(ptxi_event_destroy(PE(event)));
}

CR_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    CR_ENTER();
    if (!ptxi_event_live(PE(event)) || !cr_stream_valid(stream)) return cr_ret(cudaErrorInvalidResourceHandle);
    if (cr_capturing(stream)) return cr_capture_record(event, stream);
    return cr_st(ptxi_event_record(PE(event), cr_stream(stream)));
}

CR_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
    (void)flags;
    return cudaEventRecord(event, stream);
}

/* Work before a recorded event is done once the host callbacks before it are. */
CR_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event) {
    CR_ENTER();
    ptxi_status st = ptxi_event_query(PE(event));
    return st == PTXI_NOT_READY ? cudaErrorNotReady : cr_st(st);
}

CR_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    CR_ENTER();
    return cr_st(ptxi_event_synchronize(PE(event)));
}

CR_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    CR_ENTER();
    return cr_st(ptxi_event_elapsed(ms, PE(start), PE(end)));
}

CR_ALIAS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize);
CR_ALIAS(cudaStreamQuery_ptsz, cudaStreamQuery);
CR_ALIAS(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent);
CR_ALIAS(cudaStreamGetFlags_ptsz, cudaStreamGetFlags);
CR_ALIAS(cudaStreamGetPriority_ptsz, cudaStreamGetPriority);
CR_ALIAS(cudaStreamGetDevice_ptsz, cudaStreamGetDevice);
CR_ALIAS(cudaStreamGetAttribute_ptsz, cudaStreamGetAttribute);
CR_ALIAS(cudaStreamSetAttribute_ptsz, cudaStreamSetAttribute);
CR_ALIAS(cudaStreamAddCallback_ptsz, cudaStreamAddCallback);
CR_ALIAS(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc);
CR_ALIAS(cudaEventRecord_ptsz, cudaEventRecord);
CR_ALIAS(cudaStreamIsCapturing_ptsz, cudaStreamIsCapturing);
CR_ALIAS(cudaStreamGetId_ptsz, cudaStreamGetId);
CR_ALIAS(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags);
