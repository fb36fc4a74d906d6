// graph_mem.cu — graph-owned memory: allocation and free nodes added by hand and captured
// from cudaMallocAsync/cudaFreeAsync, their parameters, the device's graph memory
// attributes and cudaDeviceGraphMemTrim, a graph that frees what another graph
// allocated, relaunching a graph whose allocation is still live (and with
// cudaGraphInstantiateFlagAutoFreeOnLaunch), and the calls graphs with memory nodes refuse.
#include "check.h"

__global__ void fill(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}
__global__ void sum(const int *p, int n, long long *out) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long s = 0;
        for (int i = 0; i < n; i++) s += p[i];
        *out = s;
    }
}

static void attrs(const char *when) {
    size_t used = 0, high = 0, res = 0, reshigh = 0;
    SHOW(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    SHOW(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    SHOW(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &res));
    SHOW(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &reshigh));
    printf("%s: used>0 %d high>0 %d reserved>0 %d reservedHigh>0 %d used<=reserved %d\n", when, used > 0,
           high > 0, res > 0, reshigh > 0, used <= res);
}

int main() {
    const int n = 4096;
    long long *out, *hout;
    CHECK(cudaMalloc(&out, sizeof *out));
    CHECK(cudaMallocHost(&hout, sizeof *hout));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    attrs("start");

    // by hand: alloc -> fill -> sum -> free
    cudaGraph_t g;
    SHOW(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = n * sizeof(int);
    cudaGraphNode_t an, fn, sn, frn;
    SHOW(cudaGraphAddMemAllocNode(&an, g, nullptr, 0, &ap));
    printf("alloc node gave a pointer: %d\n", ap.dptr != nullptr);
    int *buf = (int *)ap.dptr;
    int v = 10, nn = n;
    void *fargs[] = {&buf, &v, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)fill;
    kp.gridDim = dim3(n / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = fargs;
    SHOW(cudaGraphAddKernelNode(&fn, g, &an, 1, &kp));
    void *sargs[] = {&buf, &nn, &out};
    kp.func = (void *)sum;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = sargs;
    SHOW(cudaGraphAddKernelNode(&sn, g, &fn, 1, &kp));
    SHOW(cudaGraphAddMemFreeNode(&frn, g, &sn, 1, buf));
    cudaGraphNodeType t;
    SHOW(cudaGraphNodeGetType(an, &t));
    printf("types: alloc %d", (int)t);
    SHOW(cudaGraphNodeGetType(frn, &t));
    printf("free %d\n", (int)t);
    cudaMemAllocNodeParams back = {};
    SHOW(cudaGraphMemAllocNodeGetParams(an, &back));
    printf("alloc params: bytes %zu same pointer %d type %d location %d/%d\n", back.bytesize, back.dptr == ap.dptr,
           (int)back.poolProps.allocType, (int)back.poolProps.location.type, back.poolProps.location.id);
    void *freed = nullptr;
    SHOW(cudaGraphMemFreeNodeGetParams(frn, &freed));
    printf("free params: same pointer %d\n", freed == ap.dptr);
    cudaGraph_t cl;
    SHOW(cudaGraphClone(&cl, g));
    cudaGraphExec_t x;
    SHOW(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 3; r++) SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaMemcpyAsync(hout, out, sizeof *out, cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("sum %lld\n", *hout);
    attrs("after alloc/free graph");
    SHOW(cudaGraphExecDestroy(x));
    attrs("after its executable graph is destroyed");
    SHOW(cudaGraphDestroy(g));
    attrs("after the graph is destroyed");
    SHOW(cudaDeviceGraphMemTrim(0));
    attrs("after trim");
    size_t zero = 0;
    SHOW(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
    SHOW(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
    SHOW(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero));
    attrs("after reset of highs");

    // captured: cudaMallocAsync ... cudaFreeAsync in one graph
    int *p = nullptr;
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW(cudaMallocAsync((void **)&p, n * sizeof(int), s));
    printf("captured allocation gave a pointer: %d\n", p != nullptr);
    fill<<<n / 256, 256, 0, s>>>(p, 3, n);
    sum<<<1, 32, 0, s>>>(p, n, out);
    SHOW(cudaFreeAsync(p, s));
    SHOW(cudaStreamEndCapture(s, &g));
    size_t count = 0;
    SHOW(cudaGraphGetNodes(g, nullptr, &count));
    cudaGraphNode_t nodes[8];
    if (count > 8) count = 8;
    SHOW(cudaGraphGetNodes(g, nodes, &count));
    printf("captured %zu nodes:", count);
    for (size_t i = 0; i < count; i++) {
        cudaGraphNodeGetType(nodes[i], &t);
        printf(" %d", (int)t);
    }
    printf("\n");
    SHOW(cudaGraphInstantiate(&x, g, 0));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaMemcpyAsync(hout, out, sizeof *out, cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("captured sum %lld\n", *hout);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // one graph allocates (the memory outlives it), a stream frees it
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW(cudaMallocAsync((void **)&p, n * sizeof(int), s));
    fill<<<n / 256, 256, 0, s>>>(p, 1, n);
    SHOW(cudaStreamEndCapture(s, &g));
    SHOW(cudaGraphInstantiate(&x, g, 0));
    SHOW(cudaGraphLaunch(x, s));
    sum<<<1, 32, 0, s>>>(p, n, out);
    SHOW(cudaMemcpyAsync(hout, out, sizeof *out, cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("live after the graph: sum %lld\n", *hout);
    attrs("allocation live");
    SHOW(cudaGraphLaunch(x, s));   // relaunch while the allocation is live
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaGetLastError());
    SHOW(cudaFreeAsync(p, s));
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaGraphLaunch(x, s));   // after the free
    SHOW(cudaStreamSynchronize(s));
    // a second graph frees it
    cudaGraph_t fg;
    cudaGraphNode_t fnode;
    SHOW(cudaGraphCreate(&fg, 0));
    SHOW(cudaGraphAddMemFreeNode(&fnode, fg, nullptr, 0, p));
    cudaGraphExec_t fx;
    SHOW(cudaGraphInstantiate(&fx, fg, 0));
    SHOW(cudaGraphLaunch(fx, s));
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaGraphExecDestroy(fx));
    SHOW(cudaGraphDestroy(fg));
    SHOW(cudaGraphExecDestroy(x));

    // auto free on launch: relaunching frees the last launch's allocation first
    SHOW(cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    for (int r = 0; r < 3; r++) SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    sum<<<1, 32, 0, s>>>(p, n, out);
    SHOW(cudaMemcpyAsync(hout, out, sizeof *out, cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("auto free: sum %lld\n", *hout);
    SHOW(cudaFree(p));
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaGraphExecDestroy(x));

    // a graph with memory nodes is instantiated once at a time, and has no child graph node
    cudaGraphExec_t x2;
    SHOW(cudaGraphInstantiate(&x, g, 0));
    SHOW(cudaGraphInstantiate(&x2, g, 0));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphExecDestroy(x));
    cudaGraph_t parent;
    cudaGraphNode_t child;
    SHOW(cudaGraphCreate(&parent, 0));
    SHOW(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, g));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphDestroy(parent));
    SHOW(cudaGraphDestroy(g));
    SHOW(cudaGraphDestroy(cl));

    // bad parameters
    SHOW(cudaGraphCreate(&g, 0));
    ap.bytesize = 0;
    SHOW(cudaGraphAddMemAllocNode(&an, g, nullptr, 0, &ap));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphAddMemFreeNode(&frn, g, nullptr, 0, nullptr));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphDestroy(g));
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaDeviceGraphMemTrim(0));
    attrs("end");
    SHOW(cudaStreamDestroy(s));
    return 0;
}
