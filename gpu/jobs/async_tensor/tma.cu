// Records what the tensor forms of the bulk asynchronous copies do on the GPU:
// for each case a tensor map is encoded with cuTensorMapEncodeTiled, one
// thread issues cp.async.bulk.tensor (load into shared memory, completing on
// an mbarrier), cp.async.bulk.tensor store, or cp.reduce.async.bulk.tensor add
// (shared to global), and the bytes that result are written to <case>.bin.
// The global tensor holds element i = i (u32) or (float)i (f32). Each case
// runs in its own process (run.sh), since a failure is sticky.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__device__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// mode 0: load, 1: store, 2: reduce add. rank 2..3. Shared bytes: nbytes.
extern "C" __global__ void tma(const __grid_constant__ CUtensorMap tmap, int mode, int rank, int c0, int c1, int c2,
                               unsigned nbytes, uint8_t *dump, const uint8_t *fill)
{
    __shared__ alignas(1024) uint8_t buf[4096];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x != 0)
        return;
    if (mode == 0) {
        for (unsigned k = 0; k < sizeof buf; k++)
            buf[k] = 0xee;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bar)), "r"(nbytes));
        if (rank == 2)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem(buf)), "l"(&tmap), "r"(c0), "r"(c1), "r"(smem(&bar))
                         : "memory");
        else
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(smem(buf)), "l"(&tmap), "r"(c0), "r"(c1), "r"(c2),
                         "r"(smem(&bar))
                         : "memory");
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(smem(&bar)) : "memory");
        for (unsigned k = 0; k < sizeof buf; k++)
            dump[k] = buf[k];
        return;
    }
    for (unsigned k = 0; k < nbytes; k++)
        buf[k] = fill[k];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (mode == 1)
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                     ::"l"(&tmap), "r"(c0), "r"(c1), "r"(smem(buf)) : "memory");
    else
        asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                     ::"l"(&tmap), "r"(c0), "r"(c1), "r"(smem(buf)) : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

struct Case {
    const char *name;
    int mode, rank;
    CUtensorMapDataType type;
    cuuint64_t dims[3];
    cuuint32_t box[3], estr[3];
    CUtensorMapSwizzle swz;
    CUtensorMapFloatOOBfill oob;
    int c[3];
};

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;   // one case per process: a failure is sticky
    static const Case cases[] = {
        {"load_2d_oob", 0, 2, CU_TENSOR_MAP_DATA_TYPE_UINT32, {40, 24, 1}, {16, 8, 1}, {1, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {-4, 20, 0}},
        {"load_2d_sw128", 0, 2, CU_TENSOR_MAP_DATA_TYPE_UINT32, {40, 24, 1}, {32, 8, 1}, {1, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {8, 3, 0}},
        {"load_2d_sw64", 0, 2, CU_TENSOR_MAP_DATA_TYPE_UINT32, {40, 24, 1}, {16, 8, 1}, {1, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {4, 1, 0}},
        {"load_2d_sw32", 0, 2, CU_TENSOR_MAP_DATA_TYPE_UINT32, {40, 24, 1}, {8, 8, 1}, {1, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, 0, 0}},
        {"store_2d_oob", 1, 2, CU_TENSOR_MAP_DATA_TYPE_UINT32, {40, 24, 1}, {16, 8, 1}, {1, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {30, 20, 0}},
        {"store_2d_in", 1, 2, CU_TENSOR_MAP_DATA_TYPE_UINT32, {40, 24, 1}, {16, 8, 1}, {1, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {8, 4, 0}},
        {"load_3d_plain", 0, 3, CU_TENSOR_MAP_DATA_TYPE_UINT32, {12, 6, 4}, {8, 4, 2}, {1, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, 0, 0}},
        {"reduce_2d_add", 2, 2, CU_TENSOR_MAP_DATA_TYPE_UINT32, {40, 24, 1}, {16, 8, 1}, {1, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {-8, 2, 0}},
        {"load_3d_nan", 0, 3, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, {12, 6, 4}, {8, 4, 2}, {1, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA, {6, -1, 3}},
        {"load_3d_estride", 0, 3, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, {12, 6, 4}, {8, 4, 2}, {2, 1, 1},
         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {2, 1, 1}},
    };
    cuInit(0);
    cudaFree(0);
    int bad = 0;
    for (const Case &c : cases) {
        if (only && strcmp(only, c.name))
            continue;
        size_t n = c.dims[0] * c.dims[1] * c.dims[2], esz = 4;
        uint32_t *h = (uint32_t *)malloc(n * esz);
        for (size_t i = 0; i < n; i++) {
            if (c.type == CU_TENSOR_MAP_DATA_TYPE_FLOAT32) { float f = (float)i; memcpy(&h[i], &f, 4); }
            else h[i] = (uint32_t)i;
        }
        void *g, *dump, *fill;
        cudaMalloc(&g, n * esz);
        cudaMalloc(&dump, 4096);
        cudaMalloc(&fill, 4096);
        cudaMemcpy(g, h, n * esz, cudaMemcpyHostToDevice);
        uint32_t f[1024];
        for (int k = 0; k < 1024; k++) f[k] = 0x10000u + (uint32_t)k;   // what store/reduce write
        cudaMemcpy(fill, f, 4096, cudaMemcpyHostToDevice);
        CUtensorMap tm;
        cuuint64_t strides[2] = {c.dims[0] * esz, c.dims[0] * c.dims[1] * esz};
        CUresult r = cuTensorMapEncodeTiled(&tm, c.type, c.rank, g, c.dims, strides, c.box, c.estr,
                                            CU_TENSOR_MAP_INTERLEAVE_NONE, c.swz, CU_TENSOR_MAP_L2_PROMOTION_NONE, c.oob);
        if (r != CUDA_SUCCESS) { printf("%s: encode failed %d\n", c.name, (int)r); bad = 1; continue; }
        unsigned nbytes = esz;
        for (int d = 0; d < c.rank; d++) nbytes *= (c.box[d] + c.estr[d] - 1) / c.estr[d];
        tma<<<1, 32>>>(tm, c.mode, c.rank, c.c[0], c.c[1], c.c[2], nbytes, (uint8_t *)dump, (const uint8_t *)fill);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("%s: %s\n", c.name, cudaGetErrorString(e)); bad = 1; cudaGetLastError(); continue; }
        char path[256];
        snprintf(path, sizeof path, "%s/%s.bin", getenv("RES") ? getenv("RES") : ".", c.name);
        FILE *o = fopen(path, "wb");
        if (c.mode == 0) {
            uint8_t d[4096];
            cudaMemcpy(d, dump, 4096, cudaMemcpyDeviceToHost);
            fwrite(d, 1, 4096, o);
        } else {
            cudaMemcpy(h, g, n * esz, cudaMemcpyDeviceToHost);
            fwrite(h, esz, n, o);
        }
        fclose(o);
        printf("%s: ok (%u box bytes)\n", c.name, nbytes);
        cudaFree(g); cudaFree(dump); cudaFree(fill);
        free(h);
    }
    return bad;
}
