// graph_clone.cu — cudaGraphClone and cudaGraphNodeFindInClone: a clone runs the
// nodes and dependencies of its original and keeps its own parameters when the
// original's change. Every value is checked against what the kernels define; the
// program prints "graph_clone: ok" when all matched.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(int *p, int v) { p[threadIdx.x] += v; }
__global__ void mul(int *p, int v) { p[threadIdx.x] *= v; }

#define CK(x)                                                               \
    do {                                                                    \
        cudaError_t e_ = (x);                                               \
        if (e_ != cudaSuccess) {                                            \
            printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); \
            return 1;                                                       \
        }                                                                   \
    } while (0)

static int check(const int *d, int want, const char *what) {
    int h[32];
    if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    for (int i = 0; i < 32; i++)
        if (h[i] != want) {
            printf("%s: element %d is %d, not %d\n", what, i, h[i], want);
            return 1;
        }
    return 0;
}

int main() {
    int *d;
    CK(cudaMalloc(&d, 32 * sizeof(int)));
    cudaGraph_t g, c;
    CK(cudaGraphCreate(&g, 0));
    cudaMemsetParams ms = {};
    ms.dst = d, ms.value = 0, ms.elementSize = 4, ms.width = 32, ms.height = 1;
    cudaGraphNode_t set, a, m;
    CK(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &ms));
    int one = 1, three = 3;
    void *aargs[] = {&d, &one}, *margs[] = {&d, &three};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add, kp.gridDim = dim3(1), kp.blockDim = dim3(32), kp.kernelParams = aargs;
    CK(cudaGraphAddKernelNode(&a, g, &set, 1, &kp));
    kp.func = (void *)mul, kp.kernelParams = margs;
    CK(cudaGraphAddKernelNode(&m, g, &a, 1, &kp));
    CK(cudaGraphClone(&c, g));
    size_t n = 0;
    CK(cudaGraphGetNodes(c, nullptr, &n));
    if (n != 3) { printf("clone has %zu nodes\n", n); return 1; }
    cudaGraphNode_t ca;
    CK(cudaGraphNodeFindInClone(&ca, a, c));
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(ca, &t));
    if (t != cudaGraphNodeTypeKernel || ca == a) { printf("found the wrong node\n"); return 1; }
    if (cudaGraphNodeFindInClone(&ca, a, g) != cudaErrorInvalidValue) { printf("found in a non-clone\n"); return 1; }
    cudaGetLastError();
    if (cudaGraphClone(nullptr, g) != cudaErrorInvalidValue) { printf("null clone accepted\n"); return 1; }
    cudaGetLastError();
    // the original changes after the clone was made: (0 + 5) * 3; the clone keeps (0 + 1) * 3
    int five = 5;
    void *a5[] = {&d, &five};
    kp.func = (void *)add, kp.kernelParams = a5;
    CK(cudaGraphKernelNodeSetParams(a, &kp));
    cudaGraphExec_t xg, xc;
    CK(cudaGraphInstantiate(&xg, g, 0));
    CK(cudaGraphInstantiate(&xc, c, 0));
    CK(cudaGraphLaunch(xc, 0));
    CK(cudaStreamSynchronize(0));
    if (check(d, 3, "clone")) return 1;
    CK(cudaGraphLaunch(xg, 0));
    CK(cudaStreamSynchronize(0));
    if (check(d, 15, "original")) return 1;
    // the clone outlives its original
    CK(cudaGraphExecDestroy(xc));
    CK(cudaGraphDestroy(g));
    CK(cudaGraphInstantiate(&xc, c, 0));
    CK(cudaGraphLaunch(xc, 0));
    CK(cudaStreamSynchronize(0));
    if (check(d, 3, "clone after the original is gone")) return 1;
    CK(cudaGraphExecDestroy(xc));
    CK(cudaGraphExecDestroy(xg));
    CK(cudaGraphDestroy(c));
    printf("graph_clone: ok\n");
    return 0;
}
