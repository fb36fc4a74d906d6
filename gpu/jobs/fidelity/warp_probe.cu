// warp_probe.cu — what a shfl reads from a lane that does not exist (a partial
// last warp) or has exited, and whether collectives whose member mask names
// exited lanes run. One mode per process (argv[1]) so a fault stays in its mode.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void missing(unsigned *out) {   // blockDim 120: lanes 24..31 of warp 3 do not exist
    unsigned v = 1000 + threadIdx.x;
    unsigned dn = __shfl_down_sync(0xffffffffu, v, 4);
    unsigned ix = __shfl_sync(0xffffffffu, v, 30);
    unsigned up = __shfl_up_sync(0xffffffffu, v, 1);
    unsigned bf = __shfl_xor_sync(0xffffffffu, v, 16);
    unsigned pred = 0;
    asm volatile("{ .reg .pred p; .reg .b32 r; shfl.sync.down.b32 r|p, %1, 4, 31, -1; selp.u32 %0, 1, 0, p; }"
                 : "=r"(pred) : "r"(v));
    if (threadIdx.x >= 96) {
        unsigned *o = out + 6 * (threadIdx.x - 96);
        o[0] = dn, o[1] = ix, o[2] = up, o[3] = bf, o[4] = pred, o[5] = __activemask();
    }
}

__global__ void exited(unsigned *out, int mode) {   // one warp; lanes 24..31 return first
    unsigned lane = threadIdx.x, v = 2000 + lane;
    out[lane] = 0xdeadbeef;
    if (lane >= 24) return;
    unsigned r = 0;
    if (mode == 0) r = __shfl_down_sync(0xffffffffu, v, 4);
    if (mode == 1) r = __ballot_sync(0xffffffffu, 1);
    if (mode == 2) { __syncwarp(0xffffffffu); r = 7; }
    if (mode == 3) r = __reduce_add_sync(0xffffffffu, 1);
    out[lane] = r;
}

int main(int argc, char **argv) {
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    unsigned *d, h[24 * 6];
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    if (mode == 0) {
        for (int rep = 0; rep < 2; rep++) {
            missing<<<1, 120>>>(d);
            cudaError_t e = cudaDeviceSynchronize();
            cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
            printf("missing rep %d: %s\n", rep, cudaGetErrorName(e));
            for (int t = 0; t < 24; t++)
                printf("  thread %d: down %u idx30 %u up %u xor16 %u downpred %u active %08x\n", 96 + t, h[6 * t],
                       h[6 * t + 1], h[6 * t + 2], h[6 * t + 3], h[6 * t + 4], h[6 * t + 5]);
        }
    } else {
        exited<<<1, 32>>>(d, mode - 1);
        cudaError_t e = cudaDeviceSynchronize();
        printf("exited mode %d: %s\n", mode - 1, cudaGetErrorName(e));
        if (cudaMemcpy(h, d, 32 * 4, cudaMemcpyDeviceToHost) == cudaSuccess)
            for (int t = 0; t < 32; t++) printf("  lane %d: %u (0x%08x)\n", t, h[t], h[t]);
    }
    return 0;
}
