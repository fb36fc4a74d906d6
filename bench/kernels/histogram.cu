// histogram — 256-bin byte histogram: atomicAdd on per-block bins in shared
// memory (four per input word), then one atomicAdd per bin to the global bins.
extern "C" __global__ void histogram(const unsigned *data, int n, unsigned *bins)
{
    __shared__ unsigned local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned v = data[i];
        atomicAdd(&local[v & 0xff], 1u);
        atomicAdd(&local[(v >> 8) & 0xff], 1u);
        atomicAdd(&local[(v >> 16) & 0xff], 1u);
        atomicAdd(&local[v >> 24], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        atomicAdd(&bins[i], local[i]);
}
