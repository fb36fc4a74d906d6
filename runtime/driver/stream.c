/* stream.c — streams, events and host functions: libptxi's, which the runtime's
 * cudaStream_t and cudaEvent_t are too (include/ptxi.h says when host functions run). */
#include <string.h>

#include "driver.h"

static bool is_default(CUstream h) { return (uintptr_t)h <= (uintptr_t)CU_STREAM_PER_THREAD; }

bool cd_stream(CUstream h, ptxi_stream **out) {
    *out = is_default(h) ? NULL : STREAM(h);
    return ptxi_stream_live(*out);
}

#define CD_STREAM(h, s)                                          \
    ptxi_stream *s;                                              \
    do {                                                         \
        if (!cd_stream(h, &s)) return CUDA_ERROR_INVALID_HANDLE; \
    } while (0)

CD_EXPORT CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority) {
    CD_CTX(ctx);
    if (!phStream || flags & ~(unsigned)CU_STREAM_NON_BLOCKING) return CUDA_ERROR_INVALID_VALUE;
    ptxi_stream *s;
    ptxi_status st = ptxi_stream_create_ex(ctx, flags, priority, &s);
    if (st == PTXI_SUCCESS) *phStream = (CUstream)s;
    return cd_map(st);
}

CD_EXPORT CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
    return cuStreamCreateWithPriority(phStream, Flags, 0);
}

CD_EXPORT CUresult cuStreamDestroy_v2(CUstream hStream) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (is_default(hStream)) return CUDA_ERROR_INVALID_HANDLE;
    return cd_map(ptxi_stream_destroy(STREAM(hStream)));
}
CD_ALIAS(cuStreamDestroy, cuStreamDestroy_v2);

/* The default stream waits for everything in its context. */
CD_EXPORT CUresult cuStreamSynchronize(CUstream hStream) {
    CD_CTX(ctx);
    CD_STREAM(hStream, s);
    if (cd_capturing(s)) return cd_capture_refuse(s);
    return cd_map(s ? ptxi_stream_synchronize(s) : ptxi_ctx_synchronize(ctx));
}

CD_EXPORT CUresult cuStreamQuery(CUstream hStream) {
    CD_CTX(ctx);
    CD_STREAM(hStream, s);
    if (s) return cd_map(ptxi_stream_query(s));
    return ptxi_stream_idle(ctx, NULL) ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CD_EXPORT CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
    CD_CTX(ctx);
    CD_STREAM(hStream, s);
    if (Flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL) return CUDA_ERROR_INVALID_VALUE;
    if (!ptxi_event_live((ptxi_event *)hEvent)) return CUDA_ERROR_INVALID_HANDLE;
    int captured = cd_capture_wait(s, (ptxi_event *)hEvent);
    if (captured >= 0) return (CUresult)captured;
    return cd_map(ptxi_stream_wait_event(s ? ptxi_stream_ctx(s) : ctx, s, (ptxi_event *)hEvent));
}

CD_EXPORT CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags) {
    CD_STREAM(hStream, s);
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    *flags = ptxi_stream_flags(s);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuStreamGetPriority(CUstream hStream, int *priority) {
    CD_STREAM(hStream, s);
    if (!priority) return CUDA_ERROR_INVALID_VALUE;
    *priority = ptxi_stream_priority(s);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId) {
    CD_STREAM(hStream, s);
    if (!streamId) return CUDA_ERROR_INVALID_VALUE;
    *streamId = (unsigned long long)(uintptr_t)s;
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx) {
    CD_CTX(ctx);
    CD_STREAM(hStream, s);
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    *pctx = (CUcontext)(s ? ptxi_stream_ctx(s) : ctx);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device) {
    CD_STREAM(hStream, s);
    (void)s;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
}

/* Stream capture (graph.c, libptxi's runtime/pgraph.c) is shared with the runtime. */
CD_EXPORT CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus) {
    CD_STREAM(hStream, s);
    if (!captureStatus) return CUDA_ERROR_INVALID_VALUE;
    cd_capture_info(s, (int *)captureStatus, NULL, NULL, NULL, NULL);
    return CUDA_SUCCESS;
}

CD_EXPORT CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                             cuuint64_t *id_out, CUgraph *graph_out,
                                             const CUgraphNode **dependencies_out, const CUgraphEdgeData **edgeData_out,
                                             size_t *numDependencies_out) {
    CD_STREAM(hStream, s);
    if (!captureStatus_out) return CUDA_ERROR_INVALID_VALUE;
    cd_capture_info(s, (int *)captureStatus_out, id_out, graph_out, dependencies_out, numDependencies_out);
    if (edgeData_out) *edgeData_out = NULL;
    return CUDA_SUCCESS;
}

/* The CUDA 10.1 and 11.3 forms of the same query. */
CUresult capture_info_v1(CUstream hStream, CUstreamCaptureStatus *status,
                         cuuint64_t *id) __asm__("cuStreamGetCaptureInfo");
CD_EXPORT CUresult capture_info_v1(CUstream hStream, CUstreamCaptureStatus *status, cuuint64_t *id) {
    return cuStreamGetCaptureInfo_v3(hStream, status, id, NULL, NULL, NULL, NULL);
}

CD_EXPORT CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *status, cuuint64_t *id,
                                             CUgraph *graph, const CUgraphNode **deps, size_t *ndeps) {
    return cuStreamGetCaptureInfo_v3(hStream, status, id, graph, deps, NULL, ndeps);
}

CD_EXPORT CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode) {
    static _Thread_local CUstreamCaptureMode current = CU_STREAM_CAPTURE_MODE_GLOBAL;
    if (!mode) return CUDA_ERROR_INVALID_VALUE;
    CUstreamCaptureMode old = current;
    current = *mode;
    *mode = old;
    return CUDA_SUCCESS;
}

/* ---- host functions ---- */

static void call_host_fn(void *fn, void *user, ptxi_stream *s, ptxi_status st) {
    (void)s, (void)st;
    ((CUhostFn)fn)(user);
}

static void call_callback(void *fn, void *user, ptxi_stream *s, ptxi_status st) {
    ((CUstreamCallback)fn)((CUstream)s, cd_map(st), user);
}

CD_EXPORT CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData) {
    CD_CTX(ctx);
    CD_STREAM(hStream, s);
    if (!fn) return CUDA_ERROR_INVALID_VALUE;
    if (cd_capturing(s)) return cd_capture_host(s, fn, userData);
    return cd_map(ptxi_stream_add_host_fn(s ? ptxi_stream_ctx(s) : ctx, s, call_host_fn, (void *)fn, userData));
}

CD_EXPORT CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
                                       unsigned int flags) {
    CD_CTX(ctx);
    CD_STREAM(hStream, s);
    if (!callback || flags) return CUDA_ERROR_INVALID_VALUE;
    return cd_map(ptxi_stream_add_host_fn(s ? ptxi_stream_ctx(s) : ctx, s, call_callback, (void *)callback, userData));
}

/* ---- events ---- */

#define EVENT(e) ((ptxi_event *)(e))

CD_EXPORT CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
    CD_CTX(ctx);
    if (!phEvent || Flags & ~(unsigned)(CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS))
        return CUDA_ERROR_INVALID_VALUE;
    if ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING)) return CUDA_ERROR_INVALID_VALUE;
    ptxi_event *e;
    ptxi_status st = ptxi_event_create(ctx, Flags, &e);
    if (st == PTXI_SUCCESS) *phEvent = (CUevent)e;
    return cd_map(st);
}

CD_EXPORT CUresult cuEventDestroy_v2(CUevent hEvent) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    return cd_map(ptxi_event_destroy(EVENT(hEvent)));
}
CD_ALIAS(cuEventDestroy, cuEventDestroy_v2);

CD_EXPORT CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
    CD_CTX(ctx);
    (void)ctx;
    CD_STREAM(hStream, s);
    int captured = cd_capture_record(EVENT(hEvent), s);
    if (captured >= 0) return (CUresult)captured;
    return cd_map(ptxi_event_record(EVENT(hEvent), s));
}

CD_EXPORT CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags) {
    if (flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL) return CUDA_ERROR_INVALID_VALUE;
    return cuEventRecord(hEvent, hStream);
}

CD_EXPORT CUresult cuEventSynchronize(CUevent hEvent) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    return cd_map(ptxi_event_synchronize(EVENT(hEvent)));
}

CD_EXPORT CUresult cuEventQuery(CUevent hEvent) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    return cd_map(ptxi_event_query(EVENT(hEvent)));
}

CD_EXPORT CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    return cd_map(ptxi_event_elapsed(pMilliseconds, EVENT(hStart), EVENT(hEnd)));
}
CD_ALIAS(cuEventElapsedTime, cuEventElapsedTime_v2);

CD_ALIAS(cuStreamSynchronize_ptsz, cuStreamSynchronize);
CD_ALIAS(cuStreamQuery_ptsz, cuStreamQuery);
CD_ALIAS(cuStreamWaitEvent_ptsz, cuStreamWaitEvent);
CD_ALIAS(cuStreamGetFlags_ptsz, cuStreamGetFlags);
CD_ALIAS(cuStreamGetPriority_ptsz, cuStreamGetPriority);
CD_ALIAS(cuStreamGetId_ptsz, cuStreamGetId);
CD_ALIAS(cuStreamGetCtx_ptsz, cuStreamGetCtx);
CD_ALIAS(cuStreamGetDevice_ptsz, cuStreamGetDevice);
CD_ALIAS(cuStreamIsCapturing_ptsz, cuStreamIsCapturing);
CD_ALIAS(cuStreamGetCaptureInfo_v3_ptsz, cuStreamGetCaptureInfo_v3);
CD_ALIAS(cuStreamGetCaptureInfo_v2_ptsz, cuStreamGetCaptureInfo_v2);
extern __typeof__(capture_info_v1) capture_info_v1_ptsz __asm__("cuStreamGetCaptureInfo_ptsz")
    __attribute__((alias("cuStreamGetCaptureInfo"), visibility("default")));
CD_ALIAS(cuLaunchHostFunc_ptsz, cuLaunchHostFunc);
CD_ALIAS(cuStreamAddCallback_ptsz, cuStreamAddCallback);
CD_ALIAS(cuEventRecord_ptsz, cuEventRecord);
CD_ALIAS(cuEventRecordWithFlags_ptsz, cuEventRecordWithFlags);

/* Stream attributes: libptxi keeps them (ptxi.h says which a stream takes); the
 * default stream's are the current context's. */
_Static_assert(sizeof(CUstreamAttrValue) == PTXI_STREAM_ATTR_SIZE, "attribute value size");

CD_EXPORT CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out) {
    CD_CTX(ctx);
    CD_STREAM(hStream, s);
    return cd_map(ptxi_stream_get_attr(ctx, s, (unsigned)attr, value_out));
}

CD_EXPORT CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value) {
    CD_CTX(ctx);
    CD_STREAM(hStream, s);
    return cd_map(ptxi_stream_set_attr(ctx, s, (unsigned)attr, value));
}

/* Managed memory is the host's own: attaching it to a stream changes nothing. */
CD_EXPORT CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags) {
    (void)dptr, (void)length;
    CD_STREAM(hStream, s);
    (void)s;
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST && flags != CU_MEM_ATTACH_SINGLE)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* An event after all the context's work so far; waiting on one is already done. */
CD_EXPORT CUresult cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!cd_ctx_valid(CTX(hCtx))) return CUDA_ERROR_INVALID_CONTEXT;
    return cd_map(ptxi_event_record(EVENT(hEvent), NULL));
}

CD_EXPORT CUresult cuCtxWaitEvent(CUcontext hCtx, CUevent hEvent) {
    if (!cd_ready()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!cd_ctx_valid(CTX(hCtx))) return CUDA_ERROR_INVALID_CONTEXT;
    return ptxi_event_live(EVENT(hEvent)) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CD_ALIAS(cuStreamGetAttribute_ptsz, cuStreamGetAttribute);
CD_ALIAS(cuStreamSetAttribute_ptsz, cuStreamSetAttribute);
CD_ALIAS(cuStreamAttachMemAsync_ptsz, cuStreamAttachMemAsync);
