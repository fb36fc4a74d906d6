// tex_border.cu — border addressing of 8- and 16-bit integer textures (1, 2 and
// 4 channels, unsigned and signed) with unnormalized and normalized coordinates,
// element-type and normalized-float reads, for border colours inside and outside
// [0, 1]: every component read at texels inside and outside the texture, as bits.
#include <cstdint>
#include <cstring>
#include "check.h"

static const float XY[][2] = {{0.5f, 0.5f}, {3.5f, 1.5f}, {-0.5f, 0.5f}, {4.5f, 0.5f},
                              {1.5f, -0.25f}, {2.5f, 2.0f}, {-3.0f, -3.0f}, {100.0f, 1.0f}};
enum { NP = sizeof XY / sizeof *XY, W = 4, H = 2 };

template <typename T> __device__ void put(unsigned *o, T v);
template <> __device__ void put(unsigned *o, uchar1 v) { o[0] = v.x; }
template <> __device__ void put(unsigned *o, uchar2 v) { o[0] = v.x, o[1] = v.y; }
template <> __device__ void put(unsigned *o, uchar4 v) { o[0] = v.x, o[1] = v.y, o[2] = v.z, o[3] = v.w; }
template <> __device__ void put(unsigned *o, char4 v) { o[0] = (unsigned)v.x, o[1] = (unsigned)v.y, o[2] = (unsigned)v.z, o[3] = (unsigned)v.w; }
template <> __device__ void put(unsigned *o, ushort4 v) { o[0] = v.x, o[1] = v.y, o[2] = v.z, o[3] = v.w; }
template <> __device__ void put(unsigned *o, short4 v) { o[0] = (unsigned)v.x, o[1] = (unsigned)v.y, o[2] = (unsigned)v.z, o[3] = (unsigned)v.w; }
template <> __device__ void put(unsigned *o, float4 v) { o[0] = __float_as_uint(v.x), o[1] = __float_as_uint(v.y), o[2] = __float_as_uint(v.z), o[3] = __float_as_uint(v.w); }

template <typename T> __global__ void read(cudaTextureObject_t t, const float *xy, float sx, float sy, unsigned *out) {
    int i = threadIdx.x;
    put(out + 4 * i, tex2D<T>(t, xy[2 * i] * sx, xy[2 * i + 1] * sy));
}

struct Fmt {
    const char *name;
    cudaChannelFormatDesc desc;
    int bytes;   // per texel
};

template <typename T>
static void run(const Fmt &f, cudaArray_t a, cudaTextureReadMode rm, int norm, const float *border, const float *dxy,
                unsigned *dout) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
    td.filterMode = cudaFilterModePoint;
    td.readMode = rm;
    td.normalizedCoords = norm;
    memcpy(td.borderColor, border, sizeof td.borderColor);
    cudaTextureObject_t t = 0;
    cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, NULL);
    printf("%s %s %s border {%g %g %g %g}: %s", f.name, rm == cudaReadModeElementType ? "element" : "normalized",
           norm ? "normcoords" : "unnormcoords", border[0], border[1], border[2], border[3], cudaGetErrorName(e));
    if (e != cudaSuccess) { printf("\n"); return; }
    cudaMemset(dout, 0xee, NP * 16);
    read<T><<<1, NP>>>(t, dxy, norm ? 1.0f / W : 1.0f, norm ? 1.0f / H : 1.0f, dout);
    e = cudaDeviceSynchronize();
    unsigned h[NP * 4];
    cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
    printf(" %s", cudaGetErrorName(e));
    for (int i = 0; i < NP * 4; i++) printf("%s%x", i % 4 ? " " : (i % 16 ? " | " : "\n  "), h[i]);
    printf("\n");
    cudaDestroyTextureObject(t);
}

template <typename T, typename N>
static void format(const Fmt &f, const float *dxy, unsigned *dout) {
    uint8_t img[H][W][16];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int b = 0; b < f.bytes; b++) img[y][x][b] = (uint8_t)(17 * x + 71 * y + 29 * b + 3);
    uint8_t packed[H * W * 16];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) memcpy(packed + (y * W + x) * f.bytes, img[y][x], f.bytes);
    cudaArray_t a;
    if (cudaMallocArray(&a, &f.desc, W, H) != cudaSuccess) { printf("%s: cannot make the array\n", f.name); return; }
    if (cudaMemcpy2DToArray(a, 0, 0, packed, W * f.bytes, W * f.bytes, H, cudaMemcpyHostToDevice) != cudaSuccess) { printf("%s: cannot make the array\n", f.name); return; }
    static const float borders[][4] = {{0.25f, 0.5f, 0.75f, 1.0f}, {3.0f, 200.0f, -1.0f, 300.5f},
                                       {0.6f, 0.1f, 0.9f, 0.3f}};
    for (const auto &b : borders)
        for (int norm = 0; norm < 2; norm++) {
            run<T>(f, a, cudaReadModeElementType, norm, b, dxy, dout);
            run<N>(f, a, cudaReadModeNormalizedFloat, norm, b, dxy, dout);
        }
    cudaFreeArray(a);
}

int main() {
    float *dxy;
    unsigned *dout;
    CHECK(cudaMalloc(&dxy, sizeof XY));
    CHECK(cudaMalloc(&dout, NP * 16));
    CHECK(cudaMemcpy(dxy, XY, sizeof XY, cudaMemcpyHostToDevice));
    format<uchar4, float4>({"uchar4", cudaCreateChannelDesc<uchar4>(), 4}, dxy, dout);
    format<char4, float4>({"char4", cudaCreateChannelDesc<char4>(), 4}, dxy, dout);
    format<uchar2, float4>({"uchar2", cudaCreateChannelDesc<uchar2>(), 2}, dxy, dout);
    format<uchar1, float4>({"uchar1", cudaCreateChannelDesc<uchar1>(), 1}, dxy, dout);
    format<ushort4, float4>({"ushort4", cudaCreateChannelDesc<ushort4>(), 8}, dxy, dout);
    format<short4, float4>({"short4", cudaCreateChannelDesc<short4>(), 8}, dxy, dout);
    return 0;
}
