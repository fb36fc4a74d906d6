// memory3d.cu — pitched 3D memory: cudaMalloc3D, cudaMemset3D, cudaMemcpy3D between
// host and device boxes at offsets, a kernel walking the pitched volume.
#include <cstring>
#include "check.h"

__global__ void mark(cudaPitchedPtr p, int w, int h, int d) {
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    if (x < w && y < h && z < d) {
        char *row = (char *)p.ptr + (z * p.ysize + y) * p.pitch;
        ((int *)row)[x] += x + 10 * y + 100 * z;
    }
}

int main() {
    const int W = 20, H = 5, D = 3;
    cudaExtent ext = make_cudaExtent(W * sizeof(int), H, D);
    cudaPitchedPtr dp;
    SHOW(cudaMalloc3D(&dp, ext));
    printf("pitch %zu xsize %zu ysize %zu\n", dp.pitch, dp.xsize, dp.ysize);
    SHOW(cudaMemset3D(dp, 0, ext));
    SHOW(cudaMemset3D(dp, 1, make_cudaExtent(4, 1, 1)));
    mark<<<dim3(H, D), 32>>>(dp, W, H, D);
    static int host[D][H][W];
    memset(host, 0xff, sizeof host);
    cudaMemcpy3DParms p = {};
    p.srcPtr = dp;
    p.dstPtr = make_cudaPitchedPtr(host, W * sizeof(int), W, H);
    p.extent = ext;
    p.kind = cudaMemcpyDeviceToHost;
    SHOW(cudaMemcpy3D(&p));
    printf("host: %d %d %d %d\n", host[0][0][0], host[0][0][1], host[2][4][19], host[1][2][3]);
    // copy a 2x2x2 box of the host volume back to the device at an offset, and read it
    int box[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};
    cudaMemcpy3DParms q = {};
    q.srcPtr = make_cudaPitchedPtr(box, 2 * sizeof(int), 2, 2);
    q.dstPtr = dp;
    q.dstPos = make_cudaPos(3 * sizeof(int), 1, 1);
    q.extent = make_cudaExtent(2 * sizeof(int), 2, 2);
    q.kind = cudaMemcpyHostToDevice;
    SHOW(cudaMemcpy3DAsync(&q, 0));
    SHOW(cudaMemcpy3D(&p));
    printf("box: %d %d %d %d\n", host[1][1][3], host[1][1][4], host[2][2][3], host[2][2][4]);
    q.extent = make_cudaExtent(dp.pitch + 4, 1, 1);
    SHOW(cudaMemcpy3D(&q));
    SHOW(cudaGetLastError());
    SHOW(cudaFree(dp.ptr));
    return 0;
}
