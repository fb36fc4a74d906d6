// Records what the im2col forms of cp.async.bulk.tensor do on the GPU: for each
// case a tensor map is encoded with cuTensorMapEncodeIm2col, one thread loads
// pixelsPerColumn x channelsPerPixel elements into a 4096-byte shared buffer
// (filled with 0xee first) with the im2col offsets given, completing on an
// mbarrier, and the whole buffer is written to <case>.bin. The global tensor
// holds element i = i (u32, u16 mod 65536) or (float)i (f32). The "enc" case
// writes encode.txt: what cuTensorMapEncodeIm2col returns for argument sets
// that break (or just meet) its rules. Each case runs in its own process.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__device__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

extern "C" __global__ void im2col(const __grid_constant__ CUtensorMap tmap, int rank, int c0, int c1, int c2, int c3,
                                  int c4, unsigned short o0, unsigned short o1, unsigned short o2, unsigned nbytes,
                                  uint8_t *dump)
{
    __shared__ alignas(1024) uint8_t buf[4096];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x != 0)
        return;
    for (unsigned k = 0; k < sizeof buf; k++)
        buf[k] = 0xee;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)));
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bar)), "r"(nbytes));
    if (rank == 3)
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5], {%6};" ::"r"(smem(buf)), "l"(&tmap), "r"(c0), "r"(c1), "r"(c2),
                     "r"(smem(&bar)), "h"(o0)
                     : "memory");
    else if (rank == 4)
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(smem(buf)), "l"(&tmap), "r"(c0), "r"(c1),
                     "r"(c2), "r"(c3), "r"(smem(&bar)), "h"(o0), "h"(o1)
                     : "memory");
    else
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};" ::"r"(smem(buf)), "l"(&tmap), "r"(c0),
                     "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(smem(&bar)), "h"(o0), "h"(o1), "h"(o2)
                     : "memory");
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(&bar)) : "memory");
    for (unsigned k = 0; k < sizeof buf; k++)
        dump[k] = buf[k];
}

struct Case {
    const char *name;
    int rank;
    CUtensorMapDataType type;
    cuuint64_t dims[5];
    int lower[3], upper[3];
    cuuint32_t cpp, ppc, estr[5];
    CUtensorMapSwizzle swz;
    CUtensorMapFloatOOBfill oob;
    int c[5];
    short off[3];
};

#define U32 CU_TENSOR_MAP_DATA_TYPE_UINT32
#define U16 CU_TENSOR_MAP_DATA_TYPE_UINT16
#define F32 CU_TENSOR_MAP_DATA_TYPE_FLOAT32
#define SW0 CU_TENSOR_MAP_SWIZZLE_NONE
#define OOB0 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
#define OOBN CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
static const Case cases[] = {
    {"i2c_3d_basic", 3, U32, {8, 10, 3}, {0}, {0}, 8, 16, {1, 1, 1}, SW0, OOB0, {0, 0, 0}, {0}},
    {"i2c_3d_pad", 3, U32, {8, 10, 3}, {-1}, {-2}, 4, 24, {1, 1, 1}, SW0, OOB0, {4, -1, 0}, {2}},
    {"i2c_3d_mid", 3, U32, {8, 10, 3}, {-1}, {-2}, 4, 24, {1, 1, 1}, SW0, OOB0, {0, 5, 1}, {1}},
    {"i2c_3d_chan", 3, U32, {8, 10, 3}, {-2}, {1}, 16, 8, {1, 1, 1}, SW0, OOB0, {4, 6, 2}, {0}},
    {"i2c_3d_u16", 3, U16, {16, 6, 2}, {0}, {0}, 8, 16, {1, 1, 1}, SW0, OOB0, {8, 2, 0}, {3}},
    {"i2c_3d_negoff", 3, U32, {4, 12, 2}, {2}, {-1}, 4, 20, {1, 1, 1}, SW0, OOB0, {0, 2, 0}, {-3}},
    {"i2c_4d_basic", 4, U32, {4, 5, 4, 2}, {-1, -1}, {-1, -1}, 4, 32, {1, 1, 1, 1}, SW0, OOB0, {0, -1, -1, 0}, {0, 0}},
    {"i2c_4d_off", 4, U32, {4, 5, 4, 2}, {-1, -1}, {-1, -1}, 4, 32, {1, 1, 1, 1}, SW0, OOB0, {0, -1, -1, 0}, {2, 1}},
    {"i2c_4d_mid", 4, U32, {4, 5, 4, 2}, {-1, -2}, {0, -1}, 4, 48, {1, 1, 1, 1}, SW0, OOB0, {0, 2, 1, 0}, {1, 2}},
    {"i2c_4d_estride", 4, U32, {4, 8, 6, 2}, {0, 0}, {0, 0}, 4, 32, {1, 2, 2, 1}, SW0, OOB0, {0, 0, 0, 0}, {1, 0}},
    {"i2c_4d_estride2", 4, U32, {4, 8, 6, 2}, {-1, -1}, {-2, -1}, 4, 40, {1, 3, 2, 1}, SW0, OOB0, {0, 1, -1, 1}, {0, 1}},
    {"i2c_4d_sw128", 4, U32, {32, 4, 3, 1}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1}, CU_TENSOR_MAP_SWIZZLE_128B, OOB0,
     {0, 0, 0, 0}, {0, 0}},
    {"i2c_4d_sw64", 4, U32, {16, 4, 3, 1}, {-1, 0}, {0, 0}, 16, 16, {1, 1, 1, 1}, CU_TENSOR_MAP_SWIZZLE_64B, OOB0,
     {0, -1, 0, 0}, {0, 1}},
    {"i2c_4d_nan", 4, F32, {4, 5, 4, 1}, {-2, -2}, {0, 0}, 4, 32, {1, 1, 1, 1}, SW0, OOBN, {0, -2, -2, 0}, {1, 0}},
    {"i2c_4d_nbig", 4, U32, {4, 3, 3, 2}, {0, 0}, {0, 0}, 4, 24, {1, 1, 1, 1}, SW0, OOB0, {0, 1, 2, 1}, {0, 0}},
    {"i2c_5d", 5, U32, {4, 3, 3, 3, 2}, {-1, -1, -1}, {-1, -1, -1}, 4, 64, {1, 1, 1, 1, 1}, SW0, OOB0,
     {0, -1, -1, -1, 0}, {1, 1, 1}},
    {"i2c_5d_mid", 5, U32, {8, 4, 3, 2, 2}, {0, -1, 0}, {-1, 0, 0}, 8, 40, {1, 1, 1, 1, 1}, SW0, OOB0,
     {0, 1, 0, 1, 0}, {0, 1, 0}},
};

static void encode_rules(void *g)
{
    // Base: a valid 4-D map; each line changes one thing and prints the result.
    char path[256];
    snprintf(path, sizeof path, "%s/encode.txt", getenv("RES") ? getenv("RES") : ".");
    FILE *o = fopen(path, "w");
    alignas(64) CUtensorMap tm;
    struct E {
        const char *what;
        int rank;
        CUtensorMapDataType type;
        cuuint64_t d0;
        int lo0, up0;
        cuuint32_t cpp, ppc, e1;
        CUtensorMapInterleave il;
        CUtensorMapSwizzle swz;
        int misalign;
    };
    const E es[] = {
        {"valid", 4, U32, 64, -1, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"rank2", 2, U32, 64, -1, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"rank6", 6, U32, 64, -1, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"cpp0", 4, U32, 64, -1, -1, 0, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"cpp256", 4, U32, 512, -1, -1, 256, 1, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"cpp257", 4, CU_TENSOR_MAP_DATA_TYPE_UINT8, 512, -1, -1, 257, 1, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"cpp3", 4, U32, 64, -1, -1, 3, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"ppc0", 4, U32, 64, -1, -1, 4, 0, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"ppc1024", 4, U32, 64, -1, -1, 4, 1024, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"ppc1025", 4, U32, 64, -1, -1, 4, 1025, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"ppc257", 4, U32, 64, -1, -1, 4, 257, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"lower_m128", 4, U32, 64, -128, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"lower_m129", 4, U32, 64, -129, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"lower_127", 4, U32, 64, 127, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"lower_128", 4, U32, 64, 128, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"upper_m129", 4, U32, 64, -1, -129, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"upper_128", 4, U32, 64, -1, 128, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"r3_lower_m32768", 3, U32, 64, -32768, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"r3_lower_m32769", 3, U32, 64, -32769, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"r3_upper_32767", 3, U32, 64, -1, 32767, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"r3_upper_32768", 3, U32, 64, -1, 32768, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"r5_lower_m16", 5, U32, 64, -16, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"r5_lower_m17", 5, U32, 64, -17, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"r5_upper_15", 5, U32, 64, -1, 15, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"r5_upper_16", 5, U32, 64, -1, 16, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"estride0", 4, U32, 64, -1, -1, 4, 32, 0, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"estride8", 4, U32, 64, -1, -1, 4, 32, 8, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"estride9", 4, U32, 64, -1, -1, 4, 32, 9, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"sw128_cpp32", 4, U32, 64, -1, -1, 32, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, 0},
        {"sw128_cpp64", 4, U32, 64, -1, -1, 64, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, 0},
        {"sw32_cpp16", 4, U32, 64, -1, -1, 16, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, 0},
        {"il16", 4, U32, 64, -1, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_16B, SW0, 0},
        {"il32_sw32", 4, U32, 64, -1, -1, 8, 32, 1, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B, 0},
        {"misaligned", 4, U32, 64, -1, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 1},
        {"dim0_0", 4, U32, 0, -1, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
        {"f32_cpp4", 4, F32, 64, -1, -1, 4, 32, 1, CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, 0},
    };
    for (const E &e : es) {
        cuuint64_t dims[6] = {e.d0, 8, 8, 8, 2, 2};
        cuuint64_t strides[5];
        strides[0] = e.d0 * 4;
        if (!strides[0]) strides[0] = 16;
        for (int d = 1; d < 5; d++) strides[d] = strides[d - 1] * dims[d];
        int lo[3] = {e.lo0, -1, -1}, up[3] = {e.up0, -1, -1};
        cuuint32_t es6[6] = {1, e.e1, 1, 1, 1, 1};
        CUresult r = cuTensorMapEncodeIm2col(&tm, e.type, e.rank, (char *)g + (e.misalign ? 8 : 0), dims, strides,
                                             lo, up, e.cpp, e.ppc, es6, e.il, e.swz,
                                             CU_TENSOR_MAP_L2_PROMOTION_NONE, OOB0);
        fprintf(o, "%s %d\n", e.what, (int)r);
    }
    // null arguments
    cuuint64_t dims[4] = {64, 8, 8, 2}, strides[3] = {256, 2048, 16384};
    int lo[2] = {-1, -1}, up[2] = {-1, -1};
    cuuint32_t es4[4] = {1, 1, 1, 1};
    fprintf(o, "null_map %d\n", (int)cuTensorMapEncodeIm2col(NULL, U32, 4, g, dims, strides, lo, up, 4, 32, es4,
        CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, CU_TENSOR_MAP_L2_PROMOTION_NONE, OOB0));
    fprintf(o, "null_lower %d\n", (int)cuTensorMapEncodeIm2col(&tm, U32, 4, g, dims, strides, NULL, up, 4, 32, es4,
        CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, CU_TENSOR_MAP_L2_PROMOTION_NONE, OOB0));
    fprintf(o, "null_estr %d\n", (int)cuTensorMapEncodeIm2col(&tm, U32, 4, g, dims, strides, lo, up, 4, 32, NULL,
        CU_TENSOR_MAP_INTERLEAVE_NONE, SW0, CU_TENSOR_MAP_L2_PROMOTION_NONE, OOB0));
    fclose(o);
    printf("enc: written\n");
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    cuInit(0);
    cudaFree(0);
    if (only && !strcmp(only, "enc")) {
        void *g;
        cudaMalloc(&g, 1 << 20);
        encode_rules(g);
        return 0;
    }
    int bad = 0;
    for (const Case &c : cases) {
        if (only && strcmp(only, c.name))
            continue;
        size_t esz = c.type == U16 ? 2 : 4, n = 1;
        for (int d = 0; d < c.rank; d++) n *= c.dims[d];
        uint8_t *h = (uint8_t *)malloc(n * esz);
        for (size_t i = 0; i < n; i++) {
            if (c.type == F32) { float f = (float)i; memcpy(h + 4 * i, &f, 4); }
            else if (esz == 4) { uint32_t v = (uint32_t)i; memcpy(h + 4 * i, &v, 4); }
            else { uint16_t v = (uint16_t)i; memcpy(h + 2 * i, &v, 2); }
        }
        void *g, *dump;
        cudaMalloc(&g, n * esz);
        cudaMalloc(&dump, 4096);
        cudaMemcpy(g, h, n * esz, cudaMemcpyHostToDevice);
        alignas(64) CUtensorMap tm;
        cuuint64_t strides[4];
        strides[0] = c.dims[0] * esz;
        for (int d = 1; d < c.rank - 1; d++) strides[d] = strides[d - 1] * c.dims[d];
        CUresult r = cuTensorMapEncodeIm2col(&tm, c.type, c.rank, g, c.dims, strides, c.lower, c.upper, c.cpp, c.ppc,
                                             c.estr, CU_TENSOR_MAP_INTERLEAVE_NONE, c.swz,
                                             CU_TENSOR_MAP_L2_PROMOTION_NONE, c.oob);
        if (r != CUDA_SUCCESS) { printf("%s: encode failed %d\n", c.name, (int)r); bad = 1; continue; }
        unsigned nbytes = (unsigned)(c.cpp * c.ppc * esz);
        im2col<<<1, 32>>>(tm, c.rank, c.c[0], c.c[1], c.c[2], c.c[3], c.c[4], (unsigned short)c.off[0],
                          (unsigned short)c.off[1], (unsigned short)c.off[2], nbytes, (uint8_t *)dump);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("%s: %s\n", c.name, cudaGetErrorString(e)); bad = 1; continue; }
        char path[256];
        snprintf(path, sizeof path, "%s/%s.bin", getenv("RES") ? getenv("RES") : ".", c.name);
        FILE *o = fopen(path, "wb");
        uint8_t d[4096];
        cudaMemcpy(d, dump, 4096, cudaMemcpyDeviceToHost);
        fwrite(d, 1, 4096, o);
        fclose(o);
        printf("%s: ok (%u bytes)\n", c.name, nbytes);
        cudaFree(g); cudaFree(dump);
        free(h);
    }
    return bad;
}
