// matmul — C = A*B for n x n floats, 16x16 tiles staged through shared memory,
// two bar.sync per tile. Each output is one fma chain over k = 0..n-1 in order,
// which is what the native reference computes too.
#define TILE 16

extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc = __fmaf_rn(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    C[row * n + col] = acc;
}
