// graph_cond.cu — conditional graph nodes: IF (with and without an else body), WHILE and
// SWITCH, their condition set from device code with cudaGraphSetConditional or by the
// handle's default value at each launch, nested conditionals, bodies captured with
// cudaStreamBeginCaptureToGraph, and the parameters the API refuses.
#include "check.h"

__global__ void setcond(cudaGraphConditionalHandle h, const int *v) {
    if (threadIdx.x == 0) cudaGraphSetConditional(h, *v);
}
// one WHILE iteration: log the counter, count it down, stop at zero
__global__ void step(cudaGraphConditionalHandle h, int *counter, int *log, int *nlog) {
    int c = *counter;
    log[(*nlog)++] = c;
    *counter = c - 1;
    cudaGraphSetConditional(h, c - 1 > 0);
}
__global__ void addk(int *p, int v) { *p += v; }

static cudaGraphNode_t kernel(cudaGraph_t g, const cudaGraphNode_t *dep, void *f, void **args) {
    cudaKernelNodeParams kp = {};
    kp.func = f;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = args;
    cudaGraphNode_t n;
    cudaError_t e = cudaGraphAddKernelNode(&n, g, dep, dep ? 1 : 0, &kp);
    if (e != cudaSuccess) printf("add kernel node -> %s\n", cudaGetErrorName(e));
    return n;
}

static cudaGraphNode_t cond(cudaGraph_t g, const cudaGraphNode_t *dep, cudaGraphConditionalHandle h,
                            cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t *bodies) {
    cudaGraphNodeParams np = {};
    np.type = cudaGraphNodeTypeConditional;
    np.conditional.handle = h;
    np.conditional.type = type;
    np.conditional.size = size;
    cudaGraphNode_t n = nullptr;
    cudaError_t e = cudaGraphAddNode(&n, g, dep, nullptr, dep ? 1 : 0, &np);
    printf("add conditional type %d size %u -> %s\n", (int)type, size, cudaGetErrorName(e));
    if (e == cudaSuccess)
        for (unsigned i = 0; i < size; i++) bodies[i] = np.conditional.phGraph_out[i];
    return n;
}

int main() {
    int *v, *acc, *counter, *log, *nlog;
    CHECK(cudaMallocManaged(&v, sizeof(int)));
    CHECK(cudaMallocManaged(&acc, sizeof(int)));
    CHECK(cudaMallocManaged(&counter, sizeof(int)));
    CHECK(cudaMallocManaged(&log, 64 * sizeof(int)));
    CHECK(cudaMallocManaged(&nlog, sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int one = 1, ten = 10, hundred = 100, thousand = 1000;

    // IF with an else body: set -> if (acc += 1 / else acc += 10) -> acc += 1000
    cudaGraph_t g;
    SHOW(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    SHOW(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    void *sargs[] = {&h, &v};
    cudaGraphNode_t sn = kernel(g, nullptr, (void *)setcond, sargs);
    cudaGraph_t b[4];
    cudaGraphNode_t cn = cond(g, &sn, h, cudaGraphCondTypeIf, 2, b);
    void *a1[] = {&acc, &one}, *a10[] = {&acc, &ten}, *a100[] = {&acc, &hundred}, *a1000[] = {&acc, &thousand};
    kernel(b[0], nullptr, (void *)addk, a1);
    kernel(b[1], nullptr, (void *)addk, a10);
    kernel(g, &cn, (void *)addk, a1000);
    cudaGraphNodeType t;
    SHOW(cudaGraphNodeGetType(cn, &t));
    printf("conditional node type %d\n", (int)t);
    cudaGraphExec_t x;
    SHOW(cudaGraphInstantiate(&x, g, 0));
    for (int val = 0; val < 3; val++) {
        *v = val;
        *acc = 0;
        SHOW(cudaGraphLaunch(x, s));
        SHOW(cudaStreamSynchronize(s));
        printf("if/else with %d: acc=%d\n", val, *acc);
    }
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // IF without else, condition from the handle's default, assigned at each launch
    SHOW(cudaGraphCreate(&g, 0));
    SHOW(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cn = cond(g, nullptr, h, cudaGraphCondTypeIf, 1, b);
    kernel(b[0], nullptr, (void *)addk, a100);
    SHOW(cudaGraphInstantiate(&x, g, 0));
    *acc = 0;
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    printf("if by default value: acc=%d\n", *acc);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // WHILE: counter 5 -> 0
    SHOW(cudaGraphCreate(&g, 0));
    SHOW(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cn = cond(g, nullptr, h, cudaGraphCondTypeWhile, 1, b);
    void *stargs[] = {&h, &counter, &log, &nlog};
    kernel(b[0], nullptr, (void *)step, stargs);
    SHOW(cudaGraphInstantiate(&x, g, 0));
    for (int start = 5; start >= 0; start -= 5) {
        *counter = start;
        *nlog = 0;
        SHOW(cudaGraphLaunch(x, s));
        SHOW(cudaStreamSynchronize(s));
        printf("while from %d: %d iterations, counter %d, log:", start, *nlog, *counter);
        for (int i = 0; i < *nlog; i++) printf(" %d", log[i]);
        printf("\n");
    }
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // WHILE with a default of 0 never runs its body
    SHOW(cudaGraphCreate(&g, 0));
    SHOW(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
    cn = cond(g, nullptr, h, cudaGraphCondTypeWhile, 1, b);
    kernel(b[0], nullptr, (void *)addk, a1);
    SHOW(cudaGraphInstantiate(&x, g, 0));
    *acc = 0;
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    printf("while with 0: acc=%d\n", *acc);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // SWITCH of 3: values 0..3
    SHOW(cudaGraphCreate(&g, 0));
    SHOW(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    sn = kernel(g, nullptr, (void *)setcond, sargs);
    cn = cond(g, &sn, h, cudaGraphCondTypeSwitch, 3, b);
    kernel(b[0], nullptr, (void *)addk, a1);
    kernel(b[1], nullptr, (void *)addk, a10);
    cudaGraphNode_t b2 = kernel(b[2], nullptr, (void *)addk, a100);
    kernel(b[2], &b2, (void *)addk, a100);
    SHOW(cudaGraphInstantiate(&x, g, 0));
    for (int val = 0; val < 4; val++) {
        *v = val;
        *acc = 0;
        SHOW(cudaGraphLaunch(x, s));
        SHOW(cudaStreamSynchronize(s));
        printf("switch %d: acc=%d\n", val, *acc);
    }
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // nested: WHILE counter, body: IF (counter odd) acc += 1, via a second handle
    SHOW(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hw, hi;
    SHOW(cudaGraphConditionalHandleCreate(&hw, g, 1, cudaGraphCondAssignDefault));
    cn = cond(g, nullptr, hw, cudaGraphCondTypeWhile, 1, b);
    cudaGraph_t body = b[0];
    SHOW(cudaGraphConditionalHandleCreate(&hi, body, 0, cudaGraphCondAssignDefault));
    int *odd;
    CHECK(cudaMallocManaged(&odd, sizeof(int)));
    void *oargs[] = {&hi, &odd};
    // body: step (writes log) -> setcond(hi, odd) -> if acc += 1
    void *stargs2[] = {&hw, &counter, &log, &nlog};
    cudaGraphNode_t st = kernel(body, nullptr, (void *)step, stargs2);
    cudaGraphNode_t so = kernel(body, &st, (void *)setcond, oargs);
    cudaGraph_t ib[1];
    cond(body, &so, hi, cudaGraphCondTypeIf, 1, ib);
    kernel(ib[0], nullptr, (void *)addk, a1);
    SHOW(cudaGraphInstantiate(&x, g, 0));
    *counter = 4;
    *nlog = 0;
    *acc = 0;
    *odd = 1;
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    printf("nested: %d iterations acc=%d\n", *nlog, *acc);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // a body captured into with cudaStreamBeginCaptureToGraph
    SHOW(cudaGraphCreate(&g, 0));
    SHOW(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cn = cond(g, nullptr, h, cudaGraphCondTypeIf, 1, b);
    SHOW(cudaStreamBeginCaptureToGraph(s, b[0], nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
    addk<<<1, 1, 0, s>>>(acc, 7);
    addk<<<1, 1, 0, s>>>(acc, 70);
    cudaGraph_t same = nullptr;
    SHOW(cudaStreamEndCapture(s, &same));
    printf("capture into the body gave it back %d\n", same == b[0]);
    SHOW(cudaGraphInstantiate(&x, g, 0));
    *acc = 0;
    SHOW(cudaGraphLaunch(x, s));
    SHOW(cudaStreamSynchronize(s));
    printf("captured body: acc=%d\n", *acc);
    SHOW(cudaGraphExecDestroy(x));
    SHOW(cudaGraphDestroy(g));

    // refused
    SHOW(cudaGraphCreate(&g, 0));
    SHOW(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    cond(g, nullptr, h, cudaGraphCondTypeWhile, 2, b);
    SHOW(cudaGetLastError());
    cond(g, nullptr, h, cudaGraphCondTypeIf, 3, b);
    SHOW(cudaGetLastError());
    cond(g, nullptr, h, cudaGraphCondTypeSwitch, 0, b);
    SHOW(cudaGetLastError());
    SHOW(cudaGraphConditionalHandleCreate(nullptr, g, 0, 0));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphConditionalHandleCreate(&h, nullptr, 0, 0));
    SHOW(cudaGetLastError());
    SHOW(cudaGraphDestroy(g));
    SHOW(cudaStreamDestroy(s));
    return 0;
}
