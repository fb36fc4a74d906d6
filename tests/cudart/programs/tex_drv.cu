// tex_drv.cu — CUDA arrays, texture and surface objects made with the driver API
// (cuArrayCreate, cuArray3DCreate, cuMemcpy2D/3D and the array copies,
// cuTexObjectCreate, cuSurfObjectCreate) and read by runtime kernels: descriptors
// read back, 2D linear filtering with normalized coordinates, 8-bit data read as
// normalized floats (the driver's default) and as integers (CU_TRSF_READ_AS_INTEGER),
// linear and pitched resources, a 3D and a layered array, a surface written by a
// kernel, and the calls' answers to bad arguments.
#include <cuda.h>
#include "check.h"
#include <cstring>

__global__ void sample2d(cudaTextureObject_t t, const float2 *at, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, at[i].x, at[i].y);
}

__global__ void sample2d4(cudaTextureObject_t t, const float2 *at, float4 *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, at[i].x, at[i].y);
}

__global__ void sample2du4(cudaTextureObject_t t, const float2 *at, uchar4 *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2D<uchar4>(t, at[i].x, at[i].y);
}

__global__ void fetch1d(cudaTextureObject_t t, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i - 2);
}

__global__ void sample3d(cudaTextureObject_t t, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, 0.5f + i % 4, 0.5f + (i / 4) % 3, 0.75f + i / 12);
}

__global__ void sampleLayered(cudaTextureObject_t t, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2DLayered<float>(t, 1.0f + 0.25f * i, 0.5f, i % 3);
}

__global__ void writeSurf(cudaSurfaceObject_t s, int w, int h) {
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) surf2Dwrite<unsigned>(x * 100u + y, s, x * 4, y);
}

static void print_desc(const char *what, const CUDA_ARRAY3D_DESCRIPTOR &d) {
    printf("%s: %zu x %zu x %zu format 0x%x channels %u flags 0x%x\n", what, d.Width, d.Height, d.Depth,
           (unsigned)d.Format, d.NumChannels, d.Flags);
}

int main() {
    CHECK(cudaFree(0));
    float2 *d_at;
    float *d_out;
    float4 *d_out4;
    uchar4 *d_outu4;
    CHECK(cudaMalloc(&d_at, 64 * sizeof(float2)));
    CHECK(cudaMalloc(&d_out, 64 * sizeof(float)));
    CHECK(cudaMalloc(&d_out4, 64 * sizeof(float4)));
    CHECK(cudaMalloc(&d_outu4, 64 * sizeof(uchar4)));
    float out[64];

    // ---- a 2D float array ----
    const int W = 16, H = 8;
    CUDA_ARRAY_DESCRIPTOR ad;
    memset(&ad, 0, sizeof ad);
    ad.Width = W, ad.Height = H, ad.Format = CU_AD_FORMAT_FLOAT, ad.NumChannels = 1;
    CUarray arr = 0;
    DRV(cuArrayCreate(&arr, &ad));
    CUDA_ARRAY_DESCRIPTOR ad2;
    memset(&ad2, 0x5a, sizeof ad2);
    DRV(cuArrayGetDescriptor(&ad2, arr));
    printf("2D descriptor: %zu x %zu format 0x%x channels %u\n", ad2.Width, ad2.Height, (unsigned)ad2.Format,
           ad2.NumChannels);
    CUDA_ARRAY3D_DESCRIPTOR d3;
    memset(&d3, 0x5a, sizeof d3);
    DRV(cuArray3DGetDescriptor(&d3, arr));
    print_desc("its 3D descriptor", d3);

    float host[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) host[y][x] = (float)(y * W + x);
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = host, c.srcPitch = sizeof host[0];
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = arr;
    c.WidthInBytes = sizeof host[0], c.Height = H;
    DRV(cuMemcpy2D(&c));
    // a 4x3 window at (2, 1) back to the host
    float win[3][4];
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = arr, c.srcXInBytes = 2 * sizeof(float), c.srcY = 1;
    c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = win, c.dstPitch = sizeof win[0];
    c.WidthInBytes = sizeof win[0], c.Height = 3;
    DRV(cuMemcpy2D(&c));
    printf("window: %g %g %g %g / %g %g %g %g / %g ... %g\n", win[0][0], win[0][1], win[0][2], win[0][3], win[1][0],
           win[1][1], win[1][2], win[1][3], win[2][0], win[2][3]);
    // a copy past the array's end
    c.srcY = H - 1;
    DRV(cuMemcpy2D(&c));

    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY, rd.res.array.hArray = arr;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.flags = CU_TRSF_NORMALIZED_COORDINATES;
    CUtexObject tex = 0;
    DRV(cuTexObjectCreate(&tex, &rd, &td, NULL));
    float2 at[8] = {{0.0f, 0.0f}, {0.5f, 0.5f}, {0.25f, 0.75f}, {1.0f, 1.0f},
                    {0.03125f, 0.0625f}, {0.1f, 0.3f}, {-0.5f, 0.2f}, {0.97f, 0.51f}};
    CHECK(cudaMemcpy(d_at, at, sizeof at, cudaMemcpyHostToDevice));
    sample2d<<<1, 8>>>(tex, d_at, d_out, 8);
    CHECK(cudaMemcpy(out, d_out, 8 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("linear, normalized:");
    for (int i = 0; i < 8; i++) printf(" %.6f", out[i]);
    printf("\n");
    CUDA_RESOURCE_DESC rd2;
    memset(&rd2, 0x5a, sizeof rd2);
    DRV(cuTexObjectGetResourceDesc(&rd2, tex));
    printf("resource desc: type %d array is ours %d\n", (int)rd2.resType, (int)(rd2.res.array.hArray == arr));
    CUDA_TEXTURE_DESC td2;
    memset(&td2, 0x5a, sizeof td2);
    DRV(cuTexObjectGetTextureDesc(&td2, tex));
    printf("texture desc: address %d %d filter %d flags 0x%x\n", (int)td2.addressMode[0], (int)td2.addressMode[1],
           (int)td2.filterMode, td2.flags);
    DRV(cuTexObjectDestroy(tex));

    // ---- 8-bit RGBA: normalized floats by default, integers with READ_AS_INTEGER ----
    CUDA_ARRAY_DESCRIPTOR ub;
    memset(&ub, 0, sizeof ub);
    ub.Width = 4, ub.Height = 2, ub.Format = CU_AD_FORMAT_UNSIGNED_INT8, ub.NumChannels = 4;
    CUarray arr8 = 0;
    DRV(cuArrayCreate(&arr8, &ub));
    unsigned char px[2][4][4];
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++)
            for (int k = 0; k < 4; k++) px[y][x][k] = (unsigned char)(y * 128 + x * 40 + k * 5 + 3);
    DRV(cuMemcpyHtoA(arr8, 0, px, sizeof px));
    unsigned char back[2][4][4];
    memset(back, 0, sizeof back);
    DRV(cuMemcpyAtoH(back, arr8, 0, sizeof back));
    printf("8-bit round trip equal: %d\n", (int)(memcmp(px, back, sizeof px) == 0));
    // the linear copies see only the first row: the whole image goes in with cuMemcpy2D
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = px, c.srcPitch = sizeof px[0];
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = arr8;
    c.WidthInBytes = sizeof px[0], c.Height = 2;
    DRV(cuMemcpy2D(&c));
    memset(back, 0, sizeof back);
    DRV(cuMemcpyAtoH(back, arr8, 4, sizeof back[0] - 4));
    printf("first row from byte 4 equal: %d\n", (int)(memcmp(&px[0][1], back, sizeof back[0] - 4) == 0));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY, rd.res.array.hArray = arr8;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_WRAP;
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    DRV(cuTexObjectCreate(&tex, &rd, &td, NULL));
    float2 pts[4] = {{0.5f, 0.5f}, {2.5f, 1.5f}, {3.5f, 0.5f}, {5.5f, 1.5f}};
    CHECK(cudaMemcpy(d_at, pts, sizeof pts, cudaMemcpyHostToDevice));
    sample2d4<<<1, 4>>>(tex, d_at, d_out4, 4);
    float4 o4[4];
    CHECK(cudaMemcpy(o4, d_out4, sizeof o4, cudaMemcpyDeviceToHost));
    printf("8-bit as float:");
    for (int i = 0; i < 4; i++) printf(" (%.6f %.6f %.6f %.6f)", o4[i].x, o4[i].y, o4[i].z, o4[i].w);
    printf("\n");
    DRV(cuTexObjectDestroy(tex));
    td.flags = CU_TRSF_READ_AS_INTEGER;
    DRV(cuTexObjectCreate(&tex, &rd, &td, NULL));
    sample2du4<<<1, 4>>>(tex, d_at, d_outu4, 4);
    uchar4 u4[4];
    CHECK(cudaMemcpy(u4, d_outu4, sizeof u4, cudaMemcpyDeviceToHost));
    printf("8-bit as integer:");
    for (int i = 0; i < 4; i++) printf(" (%d %d %d %d)", u4[i].x, u4[i].y, u4[i].z, u4[i].w);
    printf("\n");
    DRV(cuTexObjectDestroy(tex));

    // ---- linear memory and pitched 2D memory ----
    CUdeviceptr lin;
    DRV(cuMemAlloc(&lin, 16 * sizeof(float)));
    float ramp[16];
    for (int i = 0; i < 16; i++) ramp[i] = 1.5f * i;
    DRV(cuMemcpyHtoD(lin, ramp, sizeof ramp));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_LINEAR, rd.res.linear.devPtr = lin;
    rd.res.linear.format = CU_AD_FORMAT_FLOAT, rd.res.linear.numChannels = 1;
    rd.res.linear.sizeInBytes = sizeof ramp;
    memset(&td, 0, sizeof td);
    DRV(cuTexObjectCreate(&tex, &rd, &td, NULL));
    fetch1d<<<1, 20>>>(tex, d_out, 20);
    CHECK(cudaMemcpy(out, d_out, 20 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("tex1Dfetch:");
    for (int i = 0; i < 20; i++) printf(" %g", out[i]);
    printf("\n");
    DRV(cuTexObjectDestroy(tex));

    CUdeviceptr pitched;
    size_t pitch = 0;
    DRV(cuMemAllocPitch(&pitched, &pitch, W * sizeof(float), H, 4));
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = arr;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE, c.dstDevice = pitched, c.dstPitch = pitch;
    c.WidthInBytes = W * sizeof(float), c.Height = H;
    DRV(cuMemcpy2D(&c));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_PITCH2D, rd.res.pitch2D.devPtr = pitched;
    rd.res.pitch2D.format = CU_AD_FORMAT_FLOAT, rd.res.pitch2D.numChannels = 1;
    rd.res.pitch2D.width = W, rd.res.pitch2D.height = H, rd.res.pitch2D.pitchInBytes = pitch;
    memset(&td, 0, sizeof td);
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    DRV(cuTexObjectCreate(&tex, &rd, &td, NULL));
    float2 pp[4] = {{1.0f, 1.0f}, {3.25f, 2.5f}, {15.5f, 7.5f}, {8.0f, 4.75f}};
    CHECK(cudaMemcpy(d_at, pp, sizeof pp, cudaMemcpyHostToDevice));
    sample2d<<<1, 4>>>(tex, d_at, d_out, 4);
    CHECK(cudaMemcpy(out, d_out, 4 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("pitch2D linear: %.6f %.6f %.6f %.6f\n", out[0], out[1], out[2], out[3]);
    DRV(cuTexObjectDestroy(tex));

    // ---- a 3D array ----
    CUDA_ARRAY3D_DESCRIPTOR a3;
    memset(&a3, 0, sizeof a3);
    a3.Width = 4, a3.Height = 3, a3.Depth = 2, a3.Format = CU_AD_FORMAT_FLOAT, a3.NumChannels = 1;
    CUarray arr3 = 0;
    DRV(cuArray3DCreate(&arr3, &a3));
    memset(&d3, 0x5a, sizeof d3);
    DRV(cuArray3DGetDescriptor(&d3, arr3));
    print_desc("3D descriptor", d3);
    float vol[2][3][4];
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 4; x++) vol[z][y][x] = 100.0f * z + 10.0f * y + x;
    CUDA_MEMCPY3D m3;
    memset(&m3, 0, sizeof m3);
    m3.srcMemoryType = CU_MEMORYTYPE_HOST, m3.srcHost = vol, m3.srcPitch = 4 * sizeof(float), m3.srcHeight = 3;
    m3.dstMemoryType = CU_MEMORYTYPE_ARRAY, m3.dstArray = arr3;
    m3.WidthInBytes = 4 * sizeof(float), m3.Height = 3, m3.Depth = 2;
    DRV(cuMemcpy3D(&m3));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY, rd.res.array.hArray = arr3;
    memset(&td, 0, sizeof td);
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = CU_TR_ADDRESS_MODE_CLAMP;
    DRV(cuTexObjectCreate(&tex, &rd, &td, NULL));
    sample3d<<<1, 24>>>(tex, d_out, 24);
    CHECK(cudaMemcpy(out, d_out, 24 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("tex3D:");
    for (int i = 0; i < 24; i++) printf(" %g", out[i]);
    printf("\n");
    DRV(cuTexObjectDestroy(tex));

    // ---- a layered 2D array ----
    memset(&a3, 0, sizeof a3);
    a3.Width = 4, a3.Height = 2, a3.Depth = 3, a3.Format = CU_AD_FORMAT_FLOAT, a3.NumChannels = 1;
    a3.Flags = CUDA_ARRAY3D_LAYERED;
    CUarray arrL = 0;
    DRV(cuArray3DCreate(&arrL, &a3));
    float layers[3][2][4];
    for (int l = 0; l < 3; l++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++) layers[l][y][x] = 1000.0f * l + 10.0f * y + x;
    memset(&m3, 0, sizeof m3);
    m3.srcMemoryType = CU_MEMORYTYPE_HOST, m3.srcHost = layers, m3.srcPitch = 4 * sizeof(float), m3.srcHeight = 2;
    m3.dstMemoryType = CU_MEMORYTYPE_ARRAY, m3.dstArray = arrL;
    m3.WidthInBytes = 4 * sizeof(float), m3.Height = 2, m3.Depth = 3;
    DRV(cuMemcpy3D(&m3));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY, rd.res.array.hArray = arrL;
    memset(&td, 0, sizeof td);
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    DRV(cuTexObjectCreate(&tex, &rd, &td, NULL));
    sampleLayered<<<1, 9>>>(tex, d_out, 9);
    CHECK(cudaMemcpy(out, d_out, 9 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("tex2DLayered:");
    for (int i = 0; i < 9; i++) printf(" %g", out[i]);
    printf("\n");
    DRV(cuTexObjectDestroy(tex));

    // ---- a surface written by a kernel ----
    memset(&a3, 0, sizeof a3);
    a3.Width = 8, a3.Height = 4, a3.Format = CU_AD_FORMAT_UNSIGNED_INT32, a3.NumChannels = 1;
    CUarray arrS = 0;
    DRV(cuArray3DCreate(&arrS, &a3));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY, rd.res.array.hArray = arrS;
    CUsurfObject surf = 0;
    DRV(cuSurfObjectCreate(&surf, &rd));
    DRV(cuArrayDestroy(arrS));
    a3.Flags = CUDA_ARRAY3D_SURFACE_LDST;
    DRV(cuArray3DCreate(&arrS, &a3));
    rd.res.array.hArray = arrS;
    DRV(cuSurfObjectCreate(&surf, &rd));
    writeSurf<<<4, 8>>>(surf, 8, 4);
    CHECK(cudaDeviceSynchronize());
    unsigned sv[4][8];
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = arrS;
    c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = sv, c.dstPitch = sizeof sv[0];
    c.WidthInBytes = sizeof sv[0], c.Height = 4;
    DRV(cuMemcpy2D(&c));
    printf("surface: %u %u %u %u %u\n", sv[0][0], sv[0][7], sv[1][3], sv[3][0], sv[3][7]);
    CUDA_RESOURCE_DESC srd;
    memset(&srd, 0x5a, sizeof srd);
    DRV(cuSurfObjectGetResourceDesc(&srd, surf));
    printf("surface resource: type %d array is ours %d\n", (int)srd.resType, (int)(srd.res.array.hArray == arrS));
    DRV(cuSurfObjectDestroy(surf));

    // ---- array to array, array to device ----
    CUarray arr2 = 0;
    memset(&ad, 0, sizeof ad);
    ad.Width = W, ad.Height = H, ad.Format = CU_AD_FORMAT_FLOAT, ad.NumChannels = 1;
    DRV(cuArrayCreate(&arr2, &ad));
    DRV(cuMemcpyAtoA(arr2, 0, arr, 0, W * H * sizeof(float)));
    DRV(cuMemcpyAtoA(arr2, 0, arr, W * sizeof(float), W * sizeof(float)));
    DRV(cuMemcpyAtoA(arr2, 0, arr, 4 * sizeof(float), W * sizeof(float) - 4 * sizeof(float)));
    CUdeviceptr dflat;
    DRV(cuMemAlloc(&dflat, W * H * sizeof(float)));
    DRV(cuMemcpyAtoD(dflat, arr2, 4 * sizeof(float), 8 * sizeof(float)));
    float flat[8];
    DRV(cuMemcpyDtoH(flat, dflat, sizeof flat));
    printf("AtoA then AtoD: %g %g ... %g\n", flat[0], flat[1], flat[7]);
    DRV(cuMemcpyDtoA(arr2, 0, dflat, 2 * sizeof(float)));
    float first2[2];
    DRV(cuMemcpyAtoH(first2, arr2, 0, sizeof first2));
    printf("DtoA: %g %g\n", first2[0], first2[1]);
    DRV(cuMemcpyAtoH(first2, arr2, W * H * sizeof(float) - 4, sizeof first2));

    // ---- bad arguments ----
    CUarray bad = 0;
    memset(&ad, 0, sizeof ad);
    ad.Width = 4, ad.Height = 4, ad.Format = CU_AD_FORMAT_FLOAT, ad.NumChannels = 3;
    DRV(cuArrayCreate(&bad, &ad));
    ad.NumChannels = 1, ad.Format = (CUarray_format)0x77;
    DRV(cuArrayCreate(&bad, &ad));
    ad.Format = CU_AD_FORMAT_FLOAT, ad.Width = 0;
    DRV(cuArrayCreate(&bad, &ad));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_LINEAR, rd.res.linear.devPtr = 0;
    rd.res.linear.format = CU_AD_FORMAT_FLOAT, rd.res.linear.numChannels = 1, rd.res.linear.sizeInBytes = 64;
    memset(&td, 0, sizeof td);
    DRV(cuTexObjectCreate(&tex, &rd, &td, NULL));
    DRV(cuTexObjectCreate(&tex, NULL, &td, NULL));

    DRV(cuArrayDestroy(arr));
    DRV(cuArrayDestroy(arr8));
    DRV(cuArrayDestroy(arr2));
    DRV(cuArrayDestroy(arr3));
    DRV(cuArrayDestroy(arrL));
    DRV(cuArrayDestroy(arrS));
    DRV(cuMemFree(lin));
    DRV(cuMemFree(pitched));
    DRV(cuMemFree(dflat));
    printf("done\n");
    return 0;
}
