// graph_nodes.cu — child graph nodes, event record and wait nodes, nodes added with
// cudaGraphAddNode, a capture that forks into a second stream and joins back through
// events, and the captured graph's shape.
#include "check.h"

__global__ void add(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}
__global__ void mul(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= v;
}

static int order[16], norder;
static void CUDART_CB mark(void *u) { order[norder++] = (int)(size_t)u; }

int main() {
    const int n = 256;
    int *d, *h;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    cudaStream_t s, s2;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamCreate(&s2));
    int nn = n;

    // child: add 3, mul 2
    cudaGraph_t child;
    SHOW(cudaGraphCreate(&child, 0));
    cudaGraphNode_t c1, c2;
    int three = 3, two = 2;
    void *a3[] = {&d, &three, &nn}, *m2[] = {&d, &two, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(n);
    kp.kernelParams = a3;
    SHOW(cudaGraphAddKernelNode(&c1, child, nullptr, 0, &kp));
    kp.func = (void *)mul;
    kp.kernelParams = m2;
    SHOW(cudaGraphAddKernelNode(&c2, child, &c1, 1, &kp));

    // parent: memset 1 -> child -> child -> host
    cudaGraph_t g;
    SHOW(cudaGraphCreate(&g, 0));
    cudaMemsetParams mp = {};
    mp.dst = d;
    mp.value = 1;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    cudaGraphNode_t setn, ch1, ch2, hn;
    SHOW(cudaGraphAddMemsetNode(&setn, g, nullptr, 0, &mp));
    SHOW(cudaGraphAddChildGraphNode(&ch1, g, &setn, 1, child));
    SHOW(cudaGraphAddChildGraphNode(&ch2, g, &ch1, 1, child));
    cudaHostNodeParams hp = {mark, (void *)1};
    SHOW(cudaGraphAddHostNode(&hn, g, &ch2, 1, &hp));
    cudaGraphNodeType t;
    SHOW(cudaGraphNodeGetType(ch1, &t));
    printf("child node type %d\n", (int)t);
    cudaGraph_t inner;
    SHOW(cudaGraphChildGraphNodeGetGraph(ch1, &inner));
    size_t count = 0;
    SHOW(cudaGraphGetNodes(inner, nullptr, &count));
    printf("child graph is a copy %d with %zu nodes\n", inner != child, count);
    // changing the original child does not change the parent's copy
    int ten = 10;
    void *a10[] = {&d, &ten, &nn};
    kp.func = (void *)add;
    kp.kernelParams = a10;
    SHOW(cudaGraphKernelNodeSetParams(c1, &kp));
    cudaGraphExec_t x;
    SHOW(cudaGraphInstantiate(&x, g, 0));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("child graphs: h[0]=%d h[255]=%d marks %d\n", h[0], h[255], norder);
    // cudaGraphExecChildGraphNodeSetParams: the same shape, the new parameters
    SHOW(cudaGraphExecChildGraphNodeSetParams(x, ch1, child));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("first child updated: h[0]=%d\n", h[0]);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // event record and wait nodes
    cudaEvent_t ev, ev2;
    CHECK(cudaEventCreate(&ev));
    CHECK(cudaEventCreate(&ev2));
    SHOW(cudaGraphCreate(&g, 0));
    cudaGraphNode_t k1, rec, wt, k2;
    kp.func = (void *)add;
    kp.kernelParams = a3;
    SHOW(cudaGraphAddKernelNode(&k1, g, nullptr, 0, &kp));
    SHOW(cudaGraphAddEventRecordNode(&rec, g, &k1, 1, ev));
    SHOW(cudaGraphAddEventWaitNode(&wt, g, &rec, 1, ev2));
    kp.func = (void *)mul;
    kp.kernelParams = m2;
    SHOW(cudaGraphAddKernelNode(&k2, g, &wt, 1, &kp));
    SHOW(cudaGraphNodeGetType(rec, &t));
    printf("record type %d", (int)t);
    SHOW(cudaGraphNodeGetType(wt, &t));
    printf("wait type %d\n", (int)t);
    cudaEvent_t got;
    SHOW(cudaGraphEventRecordNodeGetEvent(rec, &got));
    printf("record event ok %d\n", got == ev);
    SHOW(cudaGraphEventWaitNodeGetEvent(wt, &got));
    printf("wait event ok %d\n", got == ev2);
    SHOW(cudaGraphEventRecordNodeSetEvent(rec, ev2));
    SHOW(cudaGraphEventRecordNodeGetEvent(rec, &got));
    printf("record event now ev2 %d\n", got == ev2);
    SHOW(cudaGraphEventRecordNodeSetEvent(rec, ev));
    SHOW(cudaMemset(d, 0, n * sizeof(int)));
    SHOW(cudaEventRecord(ev2, s2));
    SHOW(cudaGraphInstantiate(&x, g, 0));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaEventSynchronize(ev));
    SHOW(cudaEventQuery(ev));
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("event nodes: h[0]=%d\n", h[0]);
    SHOW(cudaGraphExecEventRecordNodeSetEvent(x, rec, ev2));
    SHOW(cudaGraphExecEventWaitNodeSetEvent(x, wt, ev));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaEventQuery(ev2));
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // cudaGraphAddNode with cudaGraphNodeParams
    SHOW(cudaGraphCreate(&g, 0));
    cudaGraphNodeParams np = {};
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = d;
    np.memset.value = 4;
    np.memset.elementSize = 4;
    np.memset.width = n;
    np.memset.height = 1;
    cudaGraphNode_t g1, g2, g3;
    SHOW(cudaGraphAddNode(&g1, g, nullptr, nullptr, 0, &np));
    np = {};
    np.type = cudaGraphNodeTypeKernel;
    np.kernel.func = (void *)mul;
    np.kernel.gridDim = dim3(1);
    np.kernel.blockDim = dim3(n);
    np.kernel.kernelParams = a3;
    SHOW(cudaGraphAddNode(&g2, g, &g1, nullptr, 1, &np));
    np = {};
    np.type = cudaGraphNodeTypeHost;
    np.host.fn = mark;
    np.host.userData = (void *)2;
    SHOW(cudaGraphAddNode(&g3, g, &g2, nullptr, 1, &np));
    np = {};
    np.type = cudaGraphNodeTypeKernel;
    np.kernel.func = (void *)mul;
    np.kernel.gridDim = dim3(1);
    np.kernel.blockDim = dim3(n);
    np.kernel.kernelParams = m2;
    SHOW(cudaGraphNodeSetParams(g2, &np));
    SHOW(cudaGraphInstantiate(&x, g, 0));
    np.kernel.kernelParams = a10;
    np.kernel.func = (void *)add;
    SHOW(cudaGraphExecNodeSetParams(x, g2, &np));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("cudaGraphAddNode: h[0]=%d marks %d\n", h[0], norder);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // capture forking into s2 and joining back
    cudaEvent_t fork, join;
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    int *e2 = d + n / 2, half = n / 2, seven = 7;
    void *lo[] = {&d, &seven, &half}, *hi[] = {&e2, &ten, &half};
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW(cudaMemsetAsync(d, 0, n * sizeof(int), s));
    SHOW(cudaEventRecord(fork, s));
    SHOW(cudaStreamWaitEvent(s2, fork, 0));
    cudaStreamCaptureStatus cs;
    SHOW(cudaStreamIsCapturing(s2, &cs));
    printf("s2 capturing %d\n", (int)cs);
    SHOW(cudaLaunchKernel((void *)add, dim3(1), dim3(half), lo, 0, s));
    SHOW(cudaLaunchKernel((void *)add, dim3(1), dim3(half), hi, 0, s2));
    SHOW(cudaLaunchHostFunc(s2, mark, (void *)3));
    SHOW(cudaEventRecord(join, s2));
    SHOW(cudaStreamWaitEvent(s, join, 0));
    SHOW(cudaLaunchHostFunc(s, mark, (void *)4));
    SHOW(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamEndCapture(s, &g));
    SHOW(cudaStreamIsCapturing(s2, &cs));
    printf("s2 capturing %d\n", (int)cs);
    cudaGraphNode_t nodes[16];
    count = 16;
    SHOW(cudaGraphGetNodes(g, nodes, &count));
    size_t ne = 0, roots = 0;
    SHOW(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &ne));
    SHOW(cudaGraphGetRootNodes(g, nullptr, &roots));
    printf("fork/join capture: %zu nodes %zu edges %zu roots\n", count, ne, roots);
    for (size_t i = 0; i < count; i++) {
        size_t nd = 0, nt = 0;
        cudaGraphNodeGetType(nodes[i], &t);
        cudaGraphNodeGetDependencies(nodes[i], nullptr, nullptr, &nd);
        cudaGraphNodeGetDependentNodes(nodes[i], nullptr, nullptr, &nt);
        printf("  type %d deps %zu dependents %zu\n", (int)t, nd, nt);
    }
    SHOW(cudaGraphInstantiate(&x, g, 0));
    norder = 0;
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    printf("fork/join: h[0]=%d h[127]=%d h[128]=%d h[255]=%d marks %d last %d\n", h[0], h[127], h[128], h[255],
           norder, order[norder - 1]);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // a capture that does not join back its fork
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW(cudaEventRecord(fork, s));
    SHOW(cudaStreamWaitEvent(s2, fork, 0));
    SHOW(cudaLaunchKernel((void *)add, dim3(1), dim3(half), hi, 0, s2));
    g = nullptr;
    SHOW(cudaStreamEndCapture(s, &g));
    printf("unjoined graph %d\n", g != nullptr);
    SHOW(cudaGetLastError());
    SHOW(cudaStreamIsCapturing(s2, &cs));
    printf("s2 capturing %d\n", (int)cs);
    SHOW(cudaStreamSynchronize(s2));
    SHOW(cudaGetLastError());

    SHOW(cudaGraphDestroy(child));
    SHOW(cudaStreamDestroy(s));
    SHOW(cudaStreamDestroy(s2));
    return 0;
}
