// graph_handles.cu — handles used after they are gone or never were (graphs, nodes,
// executable graphs, conditional handles, also from device code) are refused, not a
// crash; host threads that build, update and launch their own graphs at once each get
// their own results; copy nodes to and from variables; cudaGraphDebugDotPrint writes
// a DOT file; kernel node attributes read back as set; user objects are destroyed when
// their last reference (the caller's, a graph's, an executable graph's) goes. Says "graph_handles: ok" when every check held.
#include <cstring>
#include <unistd.h>
#include <cstdint>
#include <thread>
#include <vector>
#include "check.h"

static int failures;
#define EXPECT(cond)                                                        \
    do {                                                                    \
        if (!(cond)) {                                                      \
            printf("failed at line %d: %s\n", __LINE__, #cond);             \
            failures++;                                                     \
        }                                                                   \
    } while (0)

__global__ void setcond(cudaGraphConditionalHandle h, unsigned v) { cudaGraphSetConditional(h, v); }
__global__ void add(int *p, int v) { atomicAdd(p, v); }
__device__ int table[8];
__global__ void twice() { table[threadIdx.x] *= 2; }

static int destroyed;
static void CUDART_CB destroy(void *p) { destroyed += *(int *)p; }

static void worker(int id, int *slot, bool *ok) {
    cudaStream_t s;
    *ok = cudaStreamCreate(&s) == cudaSuccess;
    for (int round = 0; round < 20 && *ok; round++) {
        cudaGraph_t g;
        cudaGraphExec_t x;
        *ok &= cudaMemsetAsync(slot, 0, sizeof(int), s) == cudaSuccess;
        *ok &= cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
        add<<<1, 4, 0, s>>>(slot, id);
        add<<<1, 4, 0, s>>>(slot, round);
        *ok &= cudaStreamEndCapture(s, &g) == cudaSuccess;
        *ok &= cudaGraphInstantiate(&x, g, 0) == cudaSuccess;
        *ok &= cudaGraphLaunch(x, s) == cudaSuccess;
        int v = -1;
        *ok &= cudaMemcpyAsync(&v, slot, sizeof v, cudaMemcpyDeviceToHost, s) == cudaSuccess;
        *ok &= cudaStreamSynchronize(s) == cudaSuccess;
        *ok &= v == 4 * id + 4 * round;
        *ok &= cudaGraphExecDestroy(x) == cudaSuccess;
        *ok &= cudaGraphDestroy(g) == cudaSuccess;
    }
    cudaStreamDestroy(s);
}

int main() {
    // gone: a graph, its node, an executable graph
    cudaGraph_t g;
    cudaGraphNode_t n;
    cudaGraphExec_t x;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddEmptyNode(&n, g, nullptr, 0));
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    cudaGraphNodeType t;
    size_t count = 0;
    EXPECT(cudaGraphNodeGetType(n, &t) == cudaErrorInvalidValue);
    EXPECT(cudaGraphGetNodes(g, nullptr, &count) == cudaErrorInvalidValue);
    EXPECT(cudaGraphLaunch(x, 0) == cudaErrorInvalidValue);
    EXPECT(cudaGraphExecDestroy(x) == cudaErrorInvalidValue);
    EXPECT(cudaGraphDestroy(g) == cudaErrorInvalidValue);
    // never were
    uintptr_t junk[8] = {0};
    EXPECT(cudaGraphNodeGetType((cudaGraphNode_t)junk, &t) == cudaErrorInvalidValue);
    EXPECT(cudaGraphDestroy((cudaGraph_t)junk) == cudaErrorInvalidValue);
    EXPECT(cudaGraphLaunch((cudaGraphExec_t)junk, 0) == cudaErrorInvalidValue);
    cudaGetLastError();

    // a conditional node with a made-up handle; device code setting one
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNodeParams np = {};
    np.type = cudaGraphNodeTypeConditional;
    np.conditional.handle = (cudaGraphConditionalHandle)(uintptr_t)junk;
    np.conditional.type = cudaGraphCondTypeIf;
    np.conditional.size = 1;
    EXPECT(cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &np) == cudaErrorInvalidValue);
    cudaGetLastError();
    setcond<<<1, 32>>>((cudaGraphConditionalHandle)(uintptr_t)junk, 1);
    setcond<<<1, 32>>>(0x1234, 1);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaGraphDestroy(g));

    // to a variable, a kernel, from it; then other bytes of it
    int in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {0};
    cudaGraphNode_t to, k, from;
    CHECK(cudaGraphCreate(&g, 0));
    EXPECT(cudaGraphAddMemcpyNodeToSymbol(&to, g, nullptr, 0, table, in, sizeof in, 0, cudaMemcpyHostToDevice) ==
           cudaSuccess);
    cudaKernelNodeParams kp = {};
    kp.func = (void *)twice;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(8);
    void *noargs[] = {nullptr};
    kp.kernelParams = noargs;
    EXPECT(cudaGraphAddKernelNode(&k, g, &to, 1, &kp) == cudaSuccess);
    EXPECT(cudaGraphAddMemcpyNodeFromSymbol(&from, g, &k, 1, out, table, sizeof out, 0, cudaMemcpyDeviceToHost) ==
           cudaSuccess);
    EXPECT(cudaGraphAddMemcpyNodeToSymbol(&n, g, nullptr, 0, table, in, sizeof in, 4, cudaMemcpyHostToDevice) ==
           cudaErrorInvalidValue);
    EXPECT(cudaGraphAddMemcpyNodeToSymbol(&n, g, nullptr, 0, in, in, 4, 0, cudaMemcpyHostToDevice) ==
           cudaErrorInvalidSymbol);
    cudaGetLastError();
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 8; i++) EXPECT(out[i] == 2 * in[i]);
    EXPECT(cudaGraphExecMemcpyNodeSetParamsFromSymbol(x, from, out, table, 2 * sizeof(int), 6 * sizeof(int),
                                                      cudaMemcpyDeviceToHost) == cudaSuccess);
    memset(out, 0, sizeof out);
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaDeviceSynchronize());
    EXPECT(out[0] == 14 && out[1] == 16 && out[2] == 0);
    cudaKernelNodeAttrValue av = {}, back = {};
    av.priority = 3;
    EXPECT(cudaGraphKernelNodeSetAttribute(k, cudaLaunchAttributePriority, &av) == cudaSuccess);
    back.priority = -1;
    EXPECT(cudaGraphKernelNodeGetAttribute(k, cudaLaunchAttributePriority, &back) == cudaSuccess && back.priority == 3);
    cudaGraphNode_t k2;
    EXPECT(cudaGraphAddKernelNode(&k2, g, nullptr, 0, &kp) == cudaSuccess);
    back.priority = -1;
    EXPECT(cudaGraphKernelNodeGetAttribute(k2, cudaLaunchAttributePriority, &back) == cudaSuccess && back.priority == 0);
    EXPECT(cudaGraphKernelNodeCopyAttributes(k2, k) == cudaSuccess);
    EXPECT(cudaGraphKernelNodeGetAttribute(k2, cudaLaunchAttributePriority, &back) == cudaSuccess && back.priority == 3);
    EXPECT(cudaGraphKernelNodeSetAttribute(to, cudaLaunchAttributePriority, &av) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaGraphDestroyNode(k2));
    char dot[64];
    snprintf(dot, sizeof dot, "/tmp/graph_handles.%d.dot", (int)getpid());
    EXPECT(cudaGraphDebugDotPrint(g, dot, 0) == cudaSuccess);
    FILE *f = fopen(dot, "r");
    char text[4096] = {0};
    if (f) {
        fread(text, 1, sizeof text - 1, f);
        fclose(f);
        remove(dot);
    }
    EXPECT(strstr(text, "digraph") && strstr(text, "KERNEL") && strstr(text, "->"));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));

    // a forked stream that joined back may be destroyed before the capture ends
    {
        cudaStream_t a, b;
        cudaEvent_t fork, join;
        CHECK(cudaStreamCreate(&a));
        CHECK(cudaStreamCreate(&b));
        CHECK(cudaEventCreate(&fork));
        CHECK(cudaEventCreate(&join));
        int *cell;
        CHECK(cudaMalloc(&cell, sizeof(int)));
        CHECK(cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal));
        CHECK(cudaEventRecord(fork, a));
        CHECK(cudaStreamWaitEvent(b, fork, 0));
        add<<<1, 1, 0, b>>>(cell, 1);
        CHECK(cudaEventRecord(join, b));
        CHECK(cudaStreamWaitEvent(a, join, 0));
        EXPECT(cudaStreamDestroy(b) == cudaSuccess);
        EXPECT(cudaEventDestroy(join) == cudaSuccess);
        cudaGraph_t cg = nullptr;
        EXPECT(cudaStreamEndCapture(a, &cg) == cudaSuccess && cg);
        size_t nodes = 0;
        if (cg) cudaGraphGetNodes(cg, nullptr, &nodes), cudaGraphDestroy(cg);
        EXPECT(nodes == 1);
        CHECK(cudaStreamDestroy(a));
        CHECK(cudaEventDestroy(fork));
        CHECK(cudaFree(cell));
    }

    // user objects
    int one = 1, ten = 10;
    cudaUserObject_t uo, moved;
    EXPECT(cudaUserObjectCreate(&uo, &one, destroy, 1, 0) == cudaErrorInvalidValue);
    cudaGetLastError();
    EXPECT(cudaUserObjectCreate(&uo, &one, destroy, 1, cudaUserObjectNoDestructorSync) == cudaSuccess);
    EXPECT(cudaUserObjectCreate(&moved, &ten, destroy, 1, cudaUserObjectNoDestructorSync) == cudaSuccess);
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddEmptyNode(&n, g, nullptr, 0));
    EXPECT(cudaGraphRetainUserObject(g, uo, 2, 0) == cudaSuccess);
    EXPECT(cudaGraphReleaseUserObject(g, uo, 1) == cudaSuccess);
    EXPECT(cudaGraphRetainUserObject(g, moved, 1, cudaGraphUserObjectMove) == cudaSuccess);
    EXPECT(cudaUserObjectRelease(uo, 1) == cudaSuccess);
    EXPECT(destroyed == 0);
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphDestroy(g));
    EXPECT(destroyed == 0);   // the executable graph holds them
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaDeviceSynchronize());
    EXPECT(destroyed == 11);
    EXPECT(cudaUserObjectRetain(uo, 1) == cudaErrorInvalidValue);
    cudaGetLastError();

    // host threads at once
    const int nthreads = 6;
    int *slots;
    CHECK(cudaMalloc(&slots, nthreads * sizeof(int)));
    bool ok[nthreads];
    std::vector<std::thread> threads;
    for (int i = 0; i < nthreads; i++) threads.emplace_back(worker, i + 1, slots + i, &ok[i]);
    for (auto &th : threads) th.join();
    for (int i = 0; i < nthreads; i++) EXPECT(ok[i]);
    CHECK(cudaFree(slots));
    if (!failures) printf("graph_handles: ok\n");
    return failures != 0;
}
