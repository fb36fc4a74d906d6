// surface.cu — surface objects over CUDA arrays: surf1D/2D/3D/2DLayered reads and
// writes of float, uchar4 and short2, with byte x-coordinates, and the clamp and zero
// boundary modes for coordinates outside the array.
#include <cstdint>
#include "check.h"

__global__ void wr2d(cudaSurfaceObject_t s, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) surf2Dwrite<float>(x * 1.25f + y * 100, s, x * 4, y);
}
__global__ void rd2d(cudaSurfaceObject_t s, float *out, int n) {
    int x = threadIdx.x - 2, y = threadIdx.y - 1;
    float a = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeClamp);
    float b = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeZero);
    int i = threadIdx.y * blockDim.x + threadIdx.x;
    out[2 * i] = a, out[2 * i + 1] = b;
}
__global__ void wrclamp(cudaSurfaceObject_t s) {
    // writes outside the array: clamped to the edge, or dropped (zero)
    surf2Dwrite<float>(-1.0f, s, 100 * 4, 1, cudaBoundaryModeClamp);
    surf2Dwrite<float>(-2.0f, s, -3 * 4, 2, cudaBoundaryModeClamp);
    surf2Dwrite<float>(-3.0f, s, 100 * 4, 3, cudaBoundaryModeZero);
}
__global__ void u4(cudaSurfaceObject_t s, uint32_t *out) {
    int x = threadIdx.x, y = threadIdx.y;
    uchar4 v = make_uchar4(x * 20, y * 30, x + y, 255 - x);
    surf2Dwrite(v, s, x * 4, y);
    __syncthreads();
    uchar4 r = surf2Dread<uchar4>(s, ((x + 1) % 8) * 4, y);
    out[y * 8 + x] = r.x | r.y << 8 | r.z << 16 | (uint32_t)r.w << 24;
}
__global__ void s3d(cudaSurfaceObject_t s, cudaSurfaceObject_t l, cudaSurfaceObject_t o, int *out) {
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    surf3Dwrite<short2>(make_short2(x - 100 * y, z * 1000 - x), s, x * 4, y, z);
    surf2DLayeredwrite<int>(x * 7 + y * 70 + z * 700, l, x * 4, y, z);
    if (y == 0 && z == 0) surf1Dwrite<int>(x * x, o, x * 4);
    __syncthreads();
    short2 r = surf3Dread<short2>(s, (3 - x) * 4, y, 2 - z);
    int i = (z * 4 + y) * 4 + x;
    out[3 * i] = r.x, out[3 * i + 1] = r.y;
    out[3 * i + 2] = surf2DLayeredread<int>(l, x * 4, 3 - y, z) + surf1Dread<int>(o, (3 - x) * 4);
}

static void print_words(const char *what, const void *p, int n) {
    const uint32_t *w = (const uint32_t *)p;
    printf("%s:", what);
    for (int i = 0; i < n; i++) printf("%s%08x", i % 16 ? " " : "\n  ", w[i]);
    printf("\n");
}
static cudaSurfaceObject_t surf(cudaArray_t a) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s = 0;
    SHOW(cudaCreateSurfaceObject(&s, &rd));
    return s;
}

int main() {
    const int W = 8, H = 6;
    cudaChannelFormatDesc c1 = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    SHOW(cudaMallocArray(&a, &c1, W, H, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s = surf(a);
    wr2d<<<1, dim3(W, H)>>>(s, W, H);
    wrclamp<<<1, 1>>>(s);
    float *out, h[512];
    CHECK(cudaMalloc(&out, sizeof h));
    rd2d<<<1, dim3(W + 4, H + 2)>>>(s, out, 0);
    CHECK(cudaMemcpy(h, out, (W + 4) * (H + 2) * 2 * 4, cudaMemcpyDeviceToHost));
    print_words("2d float clamp/zero reads", h, (W + 4) * (H + 2) * 2);
    float back[H][W];
    SHOW(cudaMemcpy2DFromArray(back, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    print_words("2d float array contents", back, W * H);

    cudaChannelFormatDesc cu = cudaCreateChannelDesc<uchar4>();
    cudaArray_t au;
    SHOW(cudaMallocArray(&au, &cu, 8, 4, cudaArraySurfaceLoadStore));
    u4<<<1, dim3(8, 4)>>>(surf(au), (uint32_t *)out);
    CHECK(cudaMemcpy(h, out, 32 * 4, cudaMemcpyDeviceToHost));
    print_words("uchar4 write then read", h, 32);

    cudaArray_t a3, al, a1;
    cudaChannelFormatDesc cs = cudaCreateChannelDesc<short2>(), ci = cudaCreateChannelDesc<int>();
    SHOW(cudaMalloc3DArray(&a3, &cs, make_cudaExtent(4, 4, 3), cudaArraySurfaceLoadStore));
    SHOW(cudaMalloc3DArray(&al, &ci, make_cudaExtent(4, 4, 3), cudaArraySurfaceLoadStore | cudaArrayLayered));
    SHOW(cudaMallocArray(&a1, &ci, 4, 0, cudaArraySurfaceLoadStore));
    s3d<<<1, dim3(4, 4, 3)>>>(surf(a3), surf(al), surf(a1), (int *)out);
    CHECK(cudaMemcpy(h, out, 48 * 3 * 4, cudaMemcpyDeviceToHost));
    print_words("3d short2, layered int, 1d int", h, 48 * 3);
    SHOW(cudaDeviceSynchronize());
    return 0;
}
