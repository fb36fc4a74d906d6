// managed_sym.cu — a __managed__ array used as a symbol (copies to and from it, its size)
// and host functions whose results the next kernel on the stream reads.
#include "check.h"

__managed__ int mv[4];
__managed__ int flag;
__device__ int seen;

__global__ void bump() { mv[threadIdx.x] += 1; }
__global__ void read_flag() { seen = flag * 2; }

static void CUDART_CB set_flag(void *v) { flag = *(int *)v; }

int main() {
    int h[4] = {10, 20, 30, 40};
    SHOW(cudaMemcpyToSymbol(mv, h, sizeof h));
    bump<<<1, 4>>>();
    SHOW(cudaDeviceSynchronize());
    int b[4] = {0};
    SHOW(cudaMemcpyFromSymbol(b, mv, sizeof b));
    size_t sz = 0;
    SHOW(cudaGetSymbolSize(&sz, mv));
    printf("size %zu: %d %d host view %d\n", sz, b[0], b[3], mv[2]);

    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int five = 5, seven = 7, got = 0;
    SHOW(cudaLaunchHostFunc(s, set_flag, &five));
    read_flag<<<1, 1, 0, s>>>();
    SHOW(cudaMemcpyFromSymbolAsync(&got, seen, sizeof got, 0, cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("kernel after host function saw %d\n", got);
    SHOW(cudaLaunchHostFunc(s, set_flag, &seven));
    read_flag<<<1, 1, 0, s>>>();
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaMemcpyFromSymbol(&got, seen, sizeof got));
    printf("and then %d\n", got);
    SHOW(cudaStreamDestroy(s));
    return 0;
}
