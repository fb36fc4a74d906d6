// graphs.cu — CUDA graphs: a stream captured into a graph (memset, kernels, a host
// function, a copy back), instantiated and launched several times; a graph built node
// by node with a fork and a join; a kernel node's parameters changed in the
// executable graph; capture status and the errors of capturing the legacy stream.
#include "check.h"

__global__ void add(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}
__global__ void scale(int *p, int k, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= k;
}

static int launches;
static void CUDART_CB count(void *) { launches++; }

int main() {
    const int n = 1000;
    int *d, *h;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));

    cudaGraph_t g;
    cudaStreamCaptureStatus st;
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW(cudaStreamIsCapturing(s, &st));
    printf("capturing: %d\n", (int)st);
    SHOW(cudaMemsetAsync(d, 0, n * sizeof(int), s));
    add<<<4, 256, 0, s>>>(d, 5, n);
    scale<<<4, 256, 0, s>>>(d, 3, n);
    SHOW(cudaLaunchHostFunc(s, count, nullptr));
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamEndCapture(s, &g));
    SHOW(cudaStreamIsCapturing(s, &st));
    printf("capturing: %d, host function ran %d times during capture\n", (int)st, launches);
    size_t nodes = 0;
    SHOW(cudaGraphGetNodes(g, nullptr, &nodes));
    printf("captured nodes: %zu\n", nodes);
    cudaGraphExec_t x;
    SHOW(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 3; r++) SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    printf("after 3 launches: h[0]=%d h[999]=%d host function ran %d times\n", h[0], h[999], launches);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // built by hand: set -> (add 1, add 2 on halves) -> scale by 10
    cudaGraph_t hg;
    SHOW(cudaGraphCreate(&hg, 0));
    cudaGraphNode_t setn, a1, a2, sc;
    cudaMemsetParams mp = {};
    mp.dst = d;
    mp.value = 7;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    SHOW(cudaGraphAddMemsetNode(&setn, hg, nullptr, 0, &mp));
    int half = n / 2, one = 1, two = 2, ten = 10, *second = d + half;
    void *a1args[] = {&d, &one, &half}, *a2args[] = {&second, &two, &half};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add;
    kp.gridDim = dim3(2);
    kp.blockDim = dim3(256);
    kp.kernelParams = a1args;
    SHOW(cudaGraphAddKernelNode(&a1, hg, &setn, 1, &kp));
    kp.kernelParams = a2args;
    SHOW(cudaGraphAddKernelNode(&a2, hg, &setn, 1, &kp));
    int nn = n;
    void *scargs[] = {&d, &ten, &nn};
    kp.func = (void *)scale;
    kp.gridDim = dim3(4);
    kp.kernelParams = scargs;
    cudaGraphNode_t joins[] = {a1, a2};
    SHOW(cudaGraphAddKernelNode(&sc, hg, joins, 2, &kp));
    cudaGraphNodeType type;
    SHOW(cudaGraphNodeGetType(sc, &type));
    printf("node type %d\n", (int)type);
    SHOW(cudaGraphInstantiate(&x, hg, 0));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("by hand: h[0]=%d h[499]=%d h[500]=%d h[999]=%d\n", h[0], h[499], h[500], h[999]);
    int hundred = 100;
    void *scargs2[] = {&d, &hundred, &nn};
    kp.kernelParams = scargs2;
    SHOW(cudaGraphExecKernelNodeSetParams(x, sc, &kp));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("updated: h[0]=%d h[999]=%d\n", h[0], h[999]);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(hg));

    SHOW(cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal));
    SHOW(cudaGetLastError());
    SHOW(cudaStreamDestroy(s));
    SHOW(cudaFreeHost(h));
    SHOW(cudaFree(d));
    return 0;
}
