// graph_capture.cu — stream capture in detail: what cudaStreamGetCaptureInfo reports,
// cudaStreamUpdateCaptureDependencies, a graph launched inside a capture, pitched copies
// and fills, calls a capture refuses and what they do to it, relaxed mode, and the
// errors of beginning and ending captures at the wrong time.
#include "check.h"

__global__ void add(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}

static void shape(cudaGraph_t g) {
    size_t n = 0, ne = 0, roots = 0;
    cudaGraphGetNodes(g, nullptr, &n);
    cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &ne);
    cudaGraphGetRootNodes(g, nullptr, &roots);
    cudaGraphNode_t nodes[16];
    size_t k = 16;
    cudaGraphGetNodes(g, nodes, &k);
    printf("graph: %zu nodes %zu edges %zu roots, types", n, ne, roots);
    for (size_t i = 0; i < k && i < n; i++) {
        cudaGraphNodeType t;
        cudaGraphNodeGetType(nodes[i], &t);
        printf(" %d", (int)t);
    }
    printf("\n");
}

int main() {
    const int n = 256;
    int *d, *h;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    // what a capture reports about itself
    cudaGraph_t g = nullptr, seen = nullptr;
    cudaStreamCaptureStatus st;
    unsigned long long id = 0, id2 = 0;
    const cudaGraphNode_t *deps = nullptr;
    size_t ndeps = 99;
    SHOW(cudaStreamGetCaptureInfo(s, &st, &id, &seen, &deps, nullptr, &ndeps));
    printf("before: status %d id %llu graph %d deps %zu\n", (int)st, id, seen != nullptr, ndeps);
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW(cudaStreamGetCaptureInfo(s, &st, &id, &seen, &deps, nullptr, &ndeps));
    printf("begun: status %d id>0 %d graph %d deps %zu\n", (int)st, id > 0, seen != nullptr, ndeps);
    SHOW(cudaMemsetAsync(d, 0, n * sizeof(int), s));
    add<<<1, n, 0, s>>>(d, 1, n);
    SHOW(cudaStreamGetCaptureInfo(s, &st, &id2, &seen, &deps, nullptr, &ndeps));
    cudaGraphNodeType t = cudaGraphNodeTypeCount;
    if (ndeps == 1) cudaGraphNodeGetType(deps[0], &t);
    printf("two nodes in: same id %d deps %zu, the last a type %d\n", id == id2, ndeps, (int)t);
    // the next work depends on nothing
    SHOW(cudaStreamUpdateCaptureDependencies(s, nullptr, nullptr, 0, cudaStreamSetCaptureDependencies));
    add<<<1, n, 0, s>>>(d, 10, n);
    SHOW(cudaStreamGetCaptureInfo(s, &st, &id2, &seen, &deps, nullptr, &ndeps));
    cudaGraphNode_t last = ndeps == 1 ? deps[0] : nullptr;
    add<<<1, n, 0, s>>>(d, 100, n);
    // and now on both kernels before it
    SHOW(cudaStreamUpdateCaptureDependencies(s, &last, nullptr, 1, cudaStreamAddCaptureDependencies));
    SHOW(cudaStreamGetCaptureInfo(s, &st, &id2, &seen, &deps, nullptr, &ndeps));
    printf("after adding: deps %zu\n", ndeps);
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamEndCapture(s, &g));
    printf("same graph %d\n", g == seen);
    shape(g);
    cudaGraphExec_t x;
    SHOW(cudaGraphInstantiate(&x, g, 0));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    printf("h[0]=%d h[255]=%d\n", h[0], h[255]);

    // a graph launched inside a capture becomes a child graph node
    cudaGraph_t outer;
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW(cudaGraphLaunch(x, s));
    add<<<1, n, 0, s>>>(d, 5, n);
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamEndCapture(s, &outer));
    shape(outer);
    cudaGraphExec_t ox;
    SHOW(cudaGraphInstantiate(&ox, outer, 0));
    SHOW(cudaGraphLaunch(ox, s));
    SHOW(cudaStreamSynchronize(s));
    printf("outer: h[0]=%d\n", h[0]);
    SHOW(cudaGraphExecDestroy(ox));
    SHOW(cudaGraphDestroy(outer));
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // pitched copies and fills
    int *p2;
    size_t pitch = 0;
    CHECK(cudaMallocPitch(&p2, &pitch, 16 * sizeof(int), 4));
    static int host2[4][16];
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW(cudaMemset2DAsync(p2, pitch, 0, 16 * sizeof(int), 4, s));
    SHOW(cudaMemset2DAsync(p2, pitch, 1, 8 * sizeof(int), 2, s));
    SHOW(cudaMemcpy2DAsync(host2, sizeof host2[0], p2, pitch, 16 * sizeof(int), 4, cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamEndCapture(s, &g));
    shape(g);
    SHOW(cudaGraphInstantiate(&x, g, 0));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    printf("pitched: %08x %08x %08x %08x\n", (unsigned)host2[0][0], (unsigned)host2[1][7], (unsigned)host2[1][8],
           (unsigned)host2[2][0]);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // a synchronizing call inside a capture
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    add<<<1, n, 0, s>>>(d, 1, n);
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaStreamIsCapturing(s, &st));
    printf("status %d\n", (int)st);
    add<<<1, n, 0, s>>>(d, 1, n);
    SHOW(cudaGetLastError());
    g = nullptr;
    SHOW(cudaStreamEndCapture(s, &g));
    printf("graph %d\n", g != nullptr);
    SHOW(cudaGetLastError());
    SHOW(cudaStreamIsCapturing(s, &st));
    printf("status %d\n", (int)st);

    // beginning twice, ending what was not begun
    SHOW(cudaStreamEndCapture(s, &g));
    SHOW(cudaGetLastError());
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    SHOW(cudaGetLastError());
    int *extra = nullptr;
    SHOW(cudaMalloc(&extra, 64));   // relaxed mode allows it
    SHOW(cudaFree(extra));
    SHOW(cudaStreamEndCapture(s, &g));
    shape(g);
    SHOW(cudaGraphDestroy(g));

    SHOW(cudaFree(p2));
    SHOW(cudaStreamDestroy(s));
    SHOW(cudaFree(d));
    SHOW(cudaFreeHost(h));
    return 0;
}
