// driver_graph.cu — graphs through the driver API, mixed with the runtime's: nodes added
// with cuGraphAdd*Node and cuGraphAddNode (kernel, memset, memory allocation and free,
// conditional), a capture begun with cuStreamBeginCapture, cuGraphExecUpdate, and graphs
// made by one API launched through the other.
#include <cuda.h>
#include "check.h"

#define DRV(call)                                                           \
    do {                                                                    \
        CUresult r_ = (call);                                               \
        const char *n_ = nullptr;                                           \
        cuGetErrorName(r_, &n_);                                            \
        printf("%-40.40s -> %s\n", #call, n_ ? n_ : "?");                   \
    } while (0)

__global__ void add(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}
__global__ void setcond(cudaGraphConditionalHandle h, const int *v) { cudaGraphSetConditional(h, *v); }

int main() {
    const int n = 256;
    CHECK(cudaFree(0));
    CUcontext ctx;
    DRV(cuCtxGetCurrent(&ctx));
    CUfunction fadd, fset;
    CHECK(cudaGetFuncBySymbol(&fadd, (const void *)add));
    CHECK(cudaGetFuncBySymbol(&fset, (const void *)setcond));
    int *d, *h;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    CUstream s;
    DRV(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    int nn = n;

    // memset 2 -> add 5 (-> copied back by the runtime)
    CUgraph g;
    DRV(cuGraphCreate(&g, 0));
    CUDA_MEMSET_NODE_PARAMS mp = {};
    mp.dst = (CUdeviceptr)d;
    mp.value = 2;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    CUgraphNode setn, kn;
    DRV(cuGraphAddMemsetNode(&setn, g, nullptr, 0, &mp, ctx));
    int five = 5;
    void *args[] = {&d, &five, &nn};
    CUDA_KERNEL_NODE_PARAMS kp = {};
    kp.func = fadd;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = n;
    kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = args;
    DRV(cuGraphAddKernelNode(&kn, g, &setn, 1, &kp));
    CUgraphNodeType t;
    DRV(cuGraphNodeGetType(kn, &t));
    printf("kernel node type %d\n", (int)t);
    size_t count = 0;
    DRV(cuGraphGetNodes(g, nullptr, &count));
    printf("%zu nodes\n", count);
    CUgraphExec x;
    DRV(cuGraphInstantiate(&x, g, 0));
    DRV(cuGraphLaunch(x, s));
    DRV(cuStreamSynchronize(s));
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("driver graph: h[0]=%d h[255]=%d\n", h[0], h[255]);
    // the runtime launches the driver's executable graph
    SHOW(cudaGraphLaunch((cudaGraphExec_t)x, (cudaStream_t)s));
    SHOW(cudaStreamSynchronize((cudaStream_t)s));
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("runtime launch of it: h[0]=%d\n", h[0]);
    // kernel node parameters and an update
    CUDA_KERNEL_NODE_PARAMS back = {};
    DRV(cuGraphKernelNodeGetParams(kn, &back));
    printf("params: func ok %d block %u v=%d\n", back.func == fadd, back.blockDimX, *(int *)back.kernelParams[1]);
    int nine = 9;
    void *args9[] = {&d, &nine, &nn};
    kp.kernelParams = args9;
    DRV(cuGraphExecKernelNodeSetParams(x, kn, &kp));
    DRV(cuGraphLaunch(x, s));
    DRV(cuStreamSynchronize(s));
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("exec kernel params set: h[0]=%d\n", h[0]);
    DRV(cuGraphKernelNodeSetParams(kn, &kp));
    mp.value = 1;
    DRV(cuGraphMemsetNodeSetParams(setn, &mp));
    CUgraphExecUpdateResultInfo info = {};
    DRV(cuGraphExecUpdate(x, g, &info));
    printf("update result %d\n", (int)info.result);
    DRV(cuGraphLaunch(x, s));
    DRV(cuStreamSynchronize(s));
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("after update: h[0]=%d\n", h[0]);
    DRV(cuGraphExecDestroy(x));
    DRV(cuGraphDestroy(g));

    // capture through the driver, launched by the runtime
    DRV(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUstreamCaptureStatus cs;
    DRV(cuStreamIsCapturing(s, &cs));
    printf("capturing %d\n", (int)cs);
    DRV(cuMemsetD32Async((CUdeviceptr)d, 3, n, s));
    void *args1[] = {&d, &five, &nn};
    DRV(cuLaunchKernel(fadd, 1, 1, 1, n, 1, 1, 0, s, args1, nullptr));
    CUdeviceptr buf = 0;
    DRV(cuMemAllocAsync(&buf, 1024, s));
    DRV(cuMemsetD8Async(buf, 1, 1024, s));
    DRV(cuMemcpyDtoHAsync(h, (CUdeviceptr)d, n * sizeof(int), s));
    DRV(cuMemFreeAsync(buf, s));
    DRV(cuStreamEndCapture(s, &g));
    DRV(cuGraphGetNodes(g, nullptr, &count));
    printf("captured %zu nodes\n", count);
    cudaGraphExec_t rx;
    SHOW(cudaGraphInstantiate(&rx, (cudaGraph_t)g, 0));
    h[0] = 0;
    SHOW(cudaGraphLaunch(rx, (cudaStream_t)s));
    SHOW(cudaStreamSynchronize((cudaStream_t)s));
    printf("captured by the driver: h[0]=%d\n", h[0]);
    SHOW(cudaGraphExecDestroy(rx));
    DRV(cuGraphDestroy(g));

    // memory nodes and a conditional node
    DRV(cuGraphCreate(&g, 0));
    CUDA_MEM_ALLOC_NODE_PARAMS ap = {};
    ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    ap.poolProps.location.id = 0;
    ap.bytesize = sizeof(int);
    CUgraphNode an, cn, fn;
    DRV(cuGraphAddMemAllocNode(&an, g, nullptr, 0, &ap));
    printf("allocated %d\n", ap.dptr != 0);
    CUgraphConditionalHandle ch;
    DRV(cuGraphConditionalHandleCreate(&ch, g, ctx, 0, 0));
    int *cv = (int *)ap.dptr;
    CUgraphNode c1;
    CUDA_MEMSET_NODE_PARAMS one = {};
    one.dst = ap.dptr;
    one.value = 1;
    one.elementSize = 4;
    one.width = 1;
    one.height = 1;
    DRV(cuGraphAddMemsetNode(&c1, g, &an, 1, &one, ctx));
    void *sargs[] = {&ch, &cv};
    CUDA_KERNEL_NODE_PARAMS sp = {};
    sp.func = fset;
    sp.gridDimX = sp.gridDimY = sp.gridDimZ = 1;
    sp.blockDimX = sp.blockDimY = sp.blockDimZ = 1;
    sp.kernelParams = sargs;
    CUgraphNode sn;
    DRV(cuGraphAddKernelNode(&sn, g, &c1, 1, &sp));
    CUgraphNodeParams np = {};
    np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    np.conditional.handle = ch;
    np.conditional.type = CU_GRAPH_COND_TYPE_IF;
    np.conditional.size = 1;
    np.conditional.ctx = ctx;
    DRV(cuGraphAddNode(&cn, g, &sn, nullptr, 1, &np));
    CUgraph body = np.conditional.phGraph_out[0];
    CUgraphNode bk;
    int seventy = 70;
    void *args70[] = {&d, &seventy, &nn};
    kp.kernelParams = args70;
    DRV(cuGraphAddKernelNode(&bk, body, nullptr, 0, &kp));
    DRV(cuGraphAddMemFreeNode(&fn, g, &cn, 1, ap.dptr));
    DRV(cuGraphInstantiate(&x, g, 0));
    CHECK(cudaMemset(d, 0, n * sizeof(int)));
    DRV(cuGraphLaunch(x, s));
    DRV(cuGraphLaunch(x, s));
    DRV(cuStreamSynchronize(s));
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("conditional: h[0]=%d\n", h[0]);
    cuuint64_t used = 0;
    DRV(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &used));
    printf("graph memory used %d\n", used > 0);
    DRV(cuDeviceGraphMemTrim(0));
    DRV(cuGraphExecDestroy(x));
    DRV(cuGraphDestroy(g));
    DRV(cuStreamDestroy(s));
    return 0;
}
