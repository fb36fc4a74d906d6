// dynpar_spin.cu — a parent grid that waits, spinning on memory, for what the child grids
// it launched write: one thread launching one child, every block launching its own child
// into a per-block stream, and a chain parent -> child -> grandchild where each level waits.
#include "check.h"

__device__ volatile int flag[64];

__global__ void child(int slot, int v) {
    if (threadIdx.x == 0) flag[slot] = v;
}

__device__ bool wait_for(int slot, int v) {
    for (long long i = 0; i < (1LL << 40); i++) {
        if (flag[slot] == v) return true;
        __nanosleep(100);
    }
    return false;
}

__global__ void parent(int *seen) {
    if (threadIdx.x == 0) {
        child<<<1, 32>>>(0, 42);
        seen[0] = wait_for(0, 42);
        seen[1] = flag[0];
    }
}

__global__ void blocks(int *seen) {
    if (threadIdx.x == 0) {
        cudaStream_t st;
        cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
        child<<<1, 32, 0, st>>>(1 + blockIdx.x, 100 + blockIdx.x);
        seen[blockIdx.x] = wait_for(1 + blockIdx.x, 100 + blockIdx.x);
        cudaStreamDestroy(st);
    }
    __syncthreads();
}

__global__ void middle(int depth) {
    if (threadIdx.x == 0) {
        if (depth > 0) {
            middle<<<1, 1>>>(depth - 1);
            wait_for(40 + depth - 1, 1);
        }
        flag[40 + depth] = 1;
    }
}

__global__ void top(int *seen) {
    middle<<<1, 1>>>(3);
    seen[0] = wait_for(43, 1);
}

int main() {
    int *seen;
    CHECK(cudaMallocManaged(&seen, 16 * sizeof(int)));
    parent<<<1, 64>>>(seen);
    SHOW(cudaDeviceSynchronize());
    printf("one child: seen %d value %d\n", seen[0], seen[1]);
    blocks<<<8, 64>>>(seen);
    SHOW(cudaDeviceSynchronize());
    printf("per-block children:");
    for (int i = 0; i < 8; i++) printf(" %d", seen[i]);
    printf("\n");
    top<<<1, 1>>>(seen);
    SHOW(cudaDeviceSynchronize());
    printf("chain: seen %d\n", seen[0]);
    SHOW(cudaGetLastError());
    return 0;
}
