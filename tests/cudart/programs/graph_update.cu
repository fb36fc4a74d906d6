// graph_update.cu — changing graphs: node parameters read and set in a graph and in an
// executable graph (kernel, copy, memset, host nodes), nodes disabled and enabled,
// edges queried, added and removed, nodes destroyed, and cudaGraphExecUpdate with
// what it reports for an update it accepts and for ones it refuses.
#include "check.h"

__global__ void add(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}
__global__ void mul(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= v;
}

static int hostv;
static void CUDART_CB host_a(void *u) { hostv += *(int *)u; }
static void CUDART_CB host_b(void *u) { hostv -= *(int *)u; }

static const int n = 512;

// where a node is in one of the arrays of four nodes
static int at(cudaGraphNode_t x, const cudaGraphNode_t *in) {
    for (int k = 0; k < 4; k++)
        if (x == in[k]) return k;
    return x ? -2 : -1;
}
static int *d, *h, *d2;

static void show(const char *what, cudaStream_t s) {
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    printf("%s: h[0]=%d h[1]=%d h[255]=%d h[511]=%d hostv=%d\n", what, h[0], h[1], h[255], h[511], hostv);
}

static const char *result(cudaGraphExecUpdateResult r) {
    switch (r) {
    case cudaGraphExecUpdateSuccess: return "Success";
    case cudaGraphExecUpdateError: return "Error";
    case cudaGraphExecUpdateErrorTopologyChanged: return "TopologyChanged";
    case cudaGraphExecUpdateErrorNodeTypeChanged: return "NodeTypeChanged";
    case cudaGraphExecUpdateErrorFunctionChanged: return "FunctionChanged";
    case cudaGraphExecUpdateErrorParametersChanged: return "ParametersChanged";
    case cudaGraphExecUpdateErrorNotSupported: return "NotSupported";
    case cudaGraphExecUpdateErrorUnsupportedFunctionChange: return "UnsupportedFunctionChange";
    case cudaGraphExecUpdateErrorAttributesChanged: return "AttributesChanged";
    }
    return "?";
}

// memset 1 -> kernel add -> host -> copy d2 <- d
static cudaGraph_t build(int setv, void *kfunc, int kv, cudaHostFn_t hf, int *hu, cudaGraphNode_t *nodes) {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaMemsetParams mp = {};
    mp.dst = d;
    mp.value = setv;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    cudaGraphAddMemsetNode(&nodes[0], g, nullptr, 0, &mp);
    static int kvs[8];
    static int nn = n;
    static int slot;
    int *kvp = &kvs[slot++ % 8];
    *kvp = kv;
    void *args[] = {&d, kvp, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = kfunc;
    kp.gridDim = dim3(2);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    cudaGraphAddKernelNode(&nodes[1], g, &nodes[0], 1, &kp);
    cudaHostNodeParams hp = {hf, hu};
    cudaGraphAddHostNode(&nodes[2], g, &nodes[1], 1, &hp);
    cudaGraphAddMemcpyNode1D(&nodes[3], g, &nodes[2], 1, d2, d, n * sizeof(int), cudaMemcpyDeviceToDevice);
    return g;
}

int main() {
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMalloc(&d2, n * sizeof(int)));
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int one = 1, five = 5;
    cudaGraphNode_t a[4], b[4];
    cudaGraph_t g = build(1, (void *)add, 2, host_a, &one, a);
    cudaGraphExec_t x;
    SHOW(cudaGraphInstantiate(&x, g, 0));
    SHOW(cudaGraphLaunch(x, s));
    show("first", s);

    // reading parameters back
    cudaKernelNodeParams kp = {};
    SHOW(cudaGraphKernelNodeGetParams(a[1], &kp));
    printf("kernel: func ok %d grid %u block %u shared %u v=%d extra %p\n", kp.func == (void *)add, kp.gridDim.x,
           kp.blockDim.x, kp.sharedMemBytes, *(int *)kp.kernelParams[1], kp.extra);
    cudaMemsetParams mp = {};
    SHOW(cudaGraphMemsetNodeGetParams(a[0], &mp));
    printf("memset: dst ok %d value %u elementSize %u width %zu height %zu\n", mp.dst == d, mp.value, mp.elementSize,
           mp.width, mp.height);
    cudaHostNodeParams hp = {};
    SHOW(cudaGraphHostNodeGetParams(a[2], &hp));
    printf("host: fn ok %d user ok %d\n", hp.fn == host_a, hp.userData == &one);
    cudaMemcpy3DParms cp = {};
    SHOW(cudaGraphMemcpyNodeGetParams(a[3], &cp));
    printf("copy: src ok %d dst ok %d extent %zu %zu %zu kind %d\n", cp.srcPtr.ptr == d, cp.dstPtr.ptr == d2,
           cp.extent.width, cp.extent.height, cp.extent.depth, (int)cp.kind);
    SHOW(cudaGraphKernelNodeGetParams(a[0], &kp));
    SHOW(cudaGetLastError());

    // changing the graph's nodes does not change the executable graph
    int nn = n, seven = 7;
    void *args7[] = {&d, &seven, &nn};
    kp.func = (void *)add;
    kp.gridDim = dim3(2);
    kp.blockDim = dim3(256);
    kp.sharedMemBytes = 0;
    kp.kernelParams = args7;
    kp.extra = nullptr;
    SHOW(cudaGraphKernelNodeSetParams(a[1], &kp));
    mp.value = 3;
    SHOW(cudaGraphMemsetNodeSetParams(a[0], &mp));
    hp.userData = &five;
    SHOW(cudaGraphHostNodeSetParams(a[2], &hp));
    SHOW(cudaGraphLaunch(x, s));
    show("graph changed, exec not", s);
    SHOW(cudaGraphKernelNodeGetParams(a[1], &kp));
    printf("kernel v now %d\n", *(int *)kp.kernelParams[1]);

    // the executable graph's nodes
    int hundred = 100;
    void *args100[] = {&d, &hundred, &nn};
    kp.kernelParams = args100;
    SHOW(cudaGraphExecKernelNodeSetParams(x, a[1], &kp));
    mp.value = 9;
    SHOW(cudaGraphExecMemsetNodeSetParams(x, a[0], &mp));
    hp.fn = host_b;
    hp.userData = &five;
    SHOW(cudaGraphExecHostNodeSetParams(x, a[2], &hp));
    SHOW(cudaGraphExecMemcpyNodeSetParams1D(x, a[3], d2, d, 16 * sizeof(int), cudaMemcpyDeviceToDevice));
    SHOW(cudaGraphLaunch(x, s));
    show("exec nodes set", s);
    SHOW(cudaGraphExecMemcpyNodeSetParams1D(x, a[1], d2, d, 16, cudaMemcpyDeviceToDevice));
    SHOW(cudaGetLastError());
    kp.func = (void *)mul;
    SHOW(cudaGraphExecKernelNodeSetParams(x, a[1], &kp));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphLaunch(x, s));
    show("function changed in exec", s);

    // disabled nodes
    unsigned en = 7;
    SHOW(cudaGraphNodeGetEnabled(x, a[1], &en));
    printf("enabled %u\n", en);
    SHOW(cudaGraphNodeSetEnabled(x, a[1], 0));
    SHOW(cudaGraphNodeSetEnabled(x, a[2], 0));
    SHOW(cudaGraphNodeGetEnabled(x, a[1], &en));
    printf("enabled %u\n", en);
    SHOW(cudaGraphLaunch(x, s));
    show("kernel and host disabled", s);
    SHOW(cudaGraphNodeSetEnabled(x, a[1], 1));
    SHOW(cudaGraphNodeSetEnabled(x, a[2], 1));
    SHOW(cudaGraphLaunch(x, s));
    show("enabled again", s);

    // cudaGraphExecUpdate: same topology, new parameters
    cudaGraph_t g2 = build(4, (void *)add, 10, host_a, &five, b);
    cudaGraphExecUpdateResultInfo info = {};
    SHOW(cudaGraphExecUpdate(x, g2, &info));
    printf("update: %s errorNode %d errorFromNode %d\n", result(info.result), info.errorNode != nullptr,
           info.errorFromNode != nullptr);
    SHOW(cudaGraphLaunch(x, s));
    show("updated from g2", s);
    // another function
    cudaGraph_t g3 = build(4, (void *)mul, 10, host_a, &five, b);
    SHOW(cudaGraphExecUpdate(x, g3, &info));
    printf("update: %s errorNode at %d errorFromNode at %d\n", result(info.result), at(info.errorNode, b),
           at(info.errorFromNode, a));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphLaunch(x, s));
    show("updated from g3", s);
    // another topology: one node more
    cudaGraph_t g4 = build(4, (void *)add, 1, host_a, &five, b);
    cudaGraphNode_t extra;
    SHOW(cudaGraphAddEmptyNode(&extra, g4, &b[3], 1));
    SHOW(cudaGraphExecUpdate(x, g4, &info));
    printf("update: %s errorNode at %d errorFromNode at %d\n", result(info.result), at(info.errorNode, b),
           at(info.errorFromNode, a));
    SHOW(cudaGetLastError());
    // another node type in one place
    cudaGraph_t g5;
    SHOW(cudaGraphCreate(&g5, 0));
    cudaGraphNode_t c[4];
    SHOW(cudaGraphAddEmptyNode(&c[0], g5, nullptr, 0));
    SHOW(cudaGraphAddEmptyNode(&c[1], g5, &c[0], 1));
    SHOW(cudaGraphAddEmptyNode(&c[2], g5, &c[1], 1));
    SHOW(cudaGraphAddEmptyNode(&c[3], g5, &c[2], 1));
    SHOW(cudaGraphExecUpdate(x, g5, &info));
    printf("update: %s errorNode at %d errorFromNode at %d\n", result(info.result), at(info.errorNode, c),
           at(info.errorFromNode, a));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphLaunch(x, s));
    show("after refused updates", s);
    SHOW(cudaGraphExecUpdate(x, g5, nullptr));
    SHOW(cudaGetLastError());

    // edges
    size_t ne = 0;
    SHOW(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &ne));
    printf("edges %zu\n", ne);
    cudaGraphNode_t from[8], to[8];
    ne = 8;
    SHOW(cudaGraphGetEdges(g, from, to, nullptr, &ne));
    for (size_t i = 0; i < ne; i++) {
        int fi = -1, ti = -1;
        for (int k = 0; k < 4; k++) {
            if (from[i] == a[k]) fi = k;
            if (to[i] == a[k]) ti = k;
        }
        printf("  edge %d -> %d\n", fi, ti);
    }
    size_t nd = 0;
    SHOW(cudaGraphNodeGetDependencies(a[1], nullptr, nullptr, &nd));
    printf("a1 has %zu dependencies\n", nd);
    SHOW(cudaGraphNodeGetDependentNodes(a[1], nullptr, nullptr, &nd));
    printf("a1 has %zu dependents\n", nd);
    SHOW(cudaGraphRemoveDependencies(g, &a[1], &a[2], nullptr, 1));
    SHOW(cudaGraphRemoveDependencies(g, &a[1], &a[2], nullptr, 1));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphAddDependencies(g, &a[0], &a[2], nullptr, 1));
    SHOW(cudaGraphAddDependencies(g, &a[0], &a[2], nullptr, 1));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &ne));
    printf("edges %zu\n", ne);
    size_t roots = 0;
    SHOW(cudaGraphGetRootNodes(g, nullptr, &roots));
    printf("roots %zu\n", roots);
    SHOW(cudaGraphDestroyNode(a[3]));
    size_t count = 0;
    SHOW(cudaGraphGetNodes(g, nullptr, &count));
    SHOW(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &ne));
    printf("after destroying a node: %zu nodes %zu edges\n", count, ne);
    SHOW(cudaGraphAddDependencies(g, &a[2], &a[0], nullptr, 1));   // a cycle
    cudaGraphExec_t xc;
    cudaError_t e = cudaGraphInstantiate(&xc, g, 0);
    printf("instantiate a cycle -> %s\n", cudaGetErrorName(e));
    SHOW(cudaGetLastError());

    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));
    SHOW(cudaGraphDestroy(g2));
    SHOW(cudaGraphDestroy(g3));
    SHOW(cudaGraphDestroy(g4));
    SHOW(cudaGraphDestroy(g5));
    SHOW(cudaStreamDestroy(s));
    return 0;
}
