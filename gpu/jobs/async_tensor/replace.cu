// Records what tensormap.replace does to a tensor map: a 2-D u32 map of the
// 40 x 24 tensor (element i = i), box 16 x 8, is copied to global memory, one
// field is replaced (field, ordinal, value per case), and a box is loaded
// with the modified map. <case>.bin: 4 bytes saying whether the load's
// mbarrier phase completed within a bounded wait, then the 4096-byte shared
// buffer (0xee where nothing was written).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__device__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

enum { F_BOX, F_GDIM, F_GSTRIDE, F_ESTRIDE, F_ADDR, F_SWIZZLE, F_FILL, F_ELEMTYPE, F_RANK };

extern "C" __global__ void probe(CUtensorMap *gmap, int field, int ord, unsigned long long value, int c0, int c1,
                                 unsigned nbytes, uint32_t *dump)
{
    __shared__ alignas(1024) uint8_t buf[4096];
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x != 0)
        return;
    unsigned v32 = (unsigned)value;
    switch (field) {
    case F_BOX:
        if (ord == 0) asm volatile("tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 0, %1;" ::"l"(gmap), "r"(v32) : "memory");
        else asm volatile("tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 1, %1;" ::"l"(gmap), "r"(v32) : "memory");
        break;
    case F_GDIM:
        if (ord == 0) asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 0, %1;" ::"l"(gmap), "r"(v32) : "memory");
        else asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 1, %1;" ::"l"(gmap), "r"(v32) : "memory");
        break;
    case F_GSTRIDE:
        asm volatile("tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 0, %1;" ::"l"(gmap), "l"(value) : "memory");
        break;
    case F_ESTRIDE:
        asm volatile("tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 0, %1;" ::"l"(gmap), "r"(v32) : "memory");
        break;
    case F_ADDR:
        asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(gmap), "l"(value) : "memory");
        break;
    // these fields take immediates
    case F_SWIZZLE:
        if (v32 == 2) asm volatile("tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%0], 2;" ::"l"(gmap) : "memory");
        else asm volatile("tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%0], 3;" ::"l"(gmap) : "memory");
        break;
    case F_FILL:
        asm volatile("tensormap.replace.tile.fill_mode.global.b1024.b32 [%0], 1;" ::"l"(gmap) : "memory");
        break;
    case F_ELEMTYPE:
        asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 7;" ::"l"(gmap) : "memory");
        break;
    case F_RANK:
        asm volatile("tensormap.replace.tile.rank.global.b1024.b32 [%0], %1;" ::"l"(gmap), "r"(v32) : "memory");
        break;
    }
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
    for (unsigned k = 0; k < sizeof buf; k++)
        buf[k] = 0xee;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)));
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bar)), "r"(nbytes));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem(buf)), "l"(gmap), "r"(c0), "r"(c1), "r"(smem(&bar))
                 : "memory");
    unsigned done = 0;
    for (int spin = 0; spin < 2000000 && !done; spin++)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(&bar)) : "memory");
    dump[0] = done;
    for (unsigned k = 0; k < sizeof buf / 4; k++)
        dump[1 + k] = ((const uint32_t *)buf)[k];
}

struct Case {
    const char *name;
    int field, ord;
    unsigned long long value;   // F_ADDR: added to the tensor's address
    int c0, c1;
    unsigned nbytes;            // what the load is expected to deliver
    cuuint32_t box0;            // inner box of the map before the replacement
    CUtensorMapDataType type;
};

int main(int argc, char **argv)
{
    static const Case cases[] = {
        {"replace_box0_8", F_BOX, 0, 8, 0, 0, 256, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_box1_4", F_BOX, 1, 4, 0, 0, 256, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_gdim0_20", F_GDIM, 0, 20, 12, 0, 512, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_gdim1_10", F_GDIM, 1, 10, 0, 6, 512, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_gstride0_320", F_GSTRIDE, 0, 320, 0, 0, 512, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_estride0_2", F_ESTRIDE, 0, 2, 0, 0, 256, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_addr_2rows", F_ADDR, 0, 320, 0, 0, 512, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_swizzle_2", F_SWIZZLE, 0, 2, 4, 1, 512, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_swizzle_3", F_SWIZZLE, 0, 3, 8, 3, 1024, 32, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_fill_1", F_FILL, 0, 1, -4, 20, 512, 16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
        {"replace_elemtype_7", F_ELEMTYPE, 0, 7, -4, 20, 512, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
        {"replace_rank_1", F_RANK, 0, 1, 0, 0, 512, 16, CU_TENSOR_MAP_DATA_TYPE_UINT32},
    };
    const char *only = argc > 1 ? argv[1] : NULL;   // one case per process: a failure is sticky
    cuInit(0);
    cudaFree(0);
    int bad = 0;
    for (const Case &c : cases) {
        if (only && strcmp(only, c.name))
            continue;
        cuuint64_t dims[2] = {40, 24}, strides[1] = {160};
        cuuint32_t box[2] = {c.box0, 8}, estr[2] = {1, 1};
        uint32_t h[960];
        for (int i = 0; i < 960; i++) {
            if (c.type == CU_TENSOR_MAP_DATA_TYPE_FLOAT32) { float f = (float)i; memcpy(&h[i], &f, 4); }
            else h[i] = (uint32_t)i;
        }
        void *g, *dump, *gm;
        cudaMalloc(&g, sizeof h);
        cudaMalloc(&dump, 4100);
        cudaMalloc(&gm, 128);
        cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice);
        CUtensorMap tm;
        CUresult r = cuTensorMapEncodeTiled(&tm, c.type, 2, g, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                            CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (r != CUDA_SUCCESS) { printf("%s: encode failed %d\n", c.name, (int)r); bad = 1; continue; }
        cudaMemcpy(gm, &tm, 128, cudaMemcpyHostToDevice);
        unsigned long long value = c.field == F_ADDR ? (unsigned long long)(uintptr_t)g + c.value : c.value;
        probe<<<1, 32>>>((CUtensorMap *)gm, c.field, c.ord, value, c.c0, c.c1, c.nbytes, (uint32_t *)dump);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("%s: %s\n", c.name, cudaGetErrorString(e)); bad = 1; continue; }
        uint8_t d[4100];
        cudaMemcpy(d, dump, 4100, cudaMemcpyDeviceToHost);
        char path[256];
        snprintf(path, sizeof path, "%s/%s.bin", getenv("RES") ? getenv("RES") : ".", c.name);
        FILE *o = fopen(path, "wb");
        fwrite(d, 1, 4100, o);
        fclose(o);
        printf("%s: ok (completed %u)\n", c.name, d[0]);
    }
    return bad;
}
