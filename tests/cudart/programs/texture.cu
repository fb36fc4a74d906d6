// texture.cu — texture objects over CUDA arrays, linear and pitched memory: point and
// linear filtering, every address mode, normalized and unnormalized coordinates,
// element and normalized-float read modes, 1D/2D/3D/layered/cubemap, gather (tld4),
// lod on a texture without mipmaps, and half-float and signed-normalized formats. Every result is printed as bits.
#include <cstring>
#include <cstdint>
#include "check.h"

static const float X[] = {-1.3f, -0.5f, 0.0f, 0.25f, 0.499f, 0.5f, 0.5001f, 0.75f, 0.99999994f, 1.0f, 1.37f,
                          2.5f, 3.7f, 5.998f, 6.5f, 7.5f, 7.99f, 8.0f, 8.5f, 9.2f, 17.1f};
enum { NX = sizeof X / sizeof *X };

__global__ void k2d(cudaTextureObject_t t, const float *xs, int n, float sx, float sy, float4 *out) {
    int i = threadIdx.x, j = threadIdx.y;
    if (i < n && j < n) out[j * n + i] = tex2D<float4>(t, xs[i] * sx, xs[j] * sy);
}
__global__ void k2d1(cudaTextureObject_t t, const float *xs, int n, float sx, float sy, float *out) {
    int i = threadIdx.x, j = threadIdx.y;
    if (i < n && j < n) out[j * n + i] = tex2D<float>(t, xs[i] * sx, xs[j] * sy);
}
__global__ void k2du(cudaTextureObject_t t, const float *xs, int n, uchar4 *out) {
    int i = threadIdx.x, j = threadIdx.y;
    if (i < n && j < n) out[j * n + i] = tex2D<uchar4>(t, xs[i], xs[j]);
}
__global__ void k1d(cudaTextureObject_t t, const float *xs, int n, float s, float *out) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, xs[i] * s);
}
__global__ void kfetch(cudaTextureObject_t ti, cudaTextureObject_t tf, int *oi, float *of) {
    int i = threadIdx.x - 4;
    oi[threadIdx.x] = tex1Dfetch<int>(ti, i);
    of[threadIdx.x] = tex1Dfetch<float>(tf, i);
}
__global__ void k3d(cudaTextureObject_t t, float *out) {
    float x = threadIdx.x * 0.37f - 0.6f, y = threadIdx.y * 0.61f - 0.3f, z = threadIdx.z * 0.45f - 0.2f;
    out[(threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = tex3D<float>(t, x, y, z);
}
__global__ void klayer(cudaTextureObject_t t, float *out) {
    float x = threadIdx.x * 0.7f - 0.4f;
    int layer = threadIdx.y;
    out[threadIdx.y * blockDim.x + threadIdx.x] = tex2DLayered<float>(t, x, 1.3f, layer);
}
__global__ void kgather(cudaTextureObject_t t, float4 *out) {
    float x = threadIdx.x * 0.6f - 0.7f, y = threadIdx.y * 0.8f - 0.5f;
    int c = threadIdx.z;
    float4 r = c == 0 ? tex2Dgather<float4>(t, x, y, 0) : c == 1 ? tex2Dgather<float4>(t, x, y, 1)
             : c == 2 ? tex2Dgather<float4>(t, x, y, 2) : tex2Dgather<float4>(t, x, y, 3);
    out[(threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = r;
}
__global__ void kcube(cudaTextureObject_t t, float *out) {
    int i = threadIdx.x;
    float d[][3] = {{1, 0.2f, -0.3f}, {-1, 0.5f, 0.5f}, {0.1f, 1, 0.7f}, {0.3f, -1, -0.2f}, {0.2f, 0.3f, 1},
                    {-0.6f, 0.1f, -1}, {2, 1.9f, 0.3f}, {0.5f, 0.5f, 0.5f}};
    out[i] = texCubemap<float>(t, d[i][0], d[i][1], d[i][2]);
}
__global__ void klod(cudaTextureObject_t t, float *out) {
    out[threadIdx.x] = tex2DLod<float>(t, 1.3f + threadIdx.x, 2.6f, threadIdx.x * 0.5f);
}

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static void print_words(const char *what, const void *p, int n) {
    const uint32_t *w = (const uint32_t *)p;
    printf("%s:", what);
    for (int i = 0; i < n; i++) printf("%s%08x", i % 16 ? " " : "\n  ", w[i]);
    printf("\n");
}

static cudaTextureObject_t make(cudaArray_t a, cudaTextureAddressMode am, cudaTextureFilterMode fm,
                                cudaTextureReadMode rm, int norm) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
    td.filterMode = fm;
    td.readMode = rm;
    td.normalizedCoords = norm;
    td.borderColor[0] = 0.25f, td.borderColor[1] = 0.5f, td.borderColor[2] = 0.75f, td.borderColor[3] = 1.0f;
    cudaTextureObject_t t = 0;
    SHOW(cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

int main() {
    const int W = 8, H = 6;
    float *xs;
    CHECK(cudaMalloc(&xs, sizeof X));
    CHECK(cudaMemcpy(xs, X, sizeof X, cudaMemcpyHostToDevice));
    float4 *out4;
    float *out1;
    CHECK(cudaMalloc(&out4, 4096 * sizeof(float4)));
    CHECK(cudaMalloc(&out1, 4096 * sizeof(float)));
    static float4 h4[4096];
    static float h1[4096];

    // 2D float4 and float arrays
    float4 img4[H][W];
    float img1[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            img4[y][x] = make_float4(x + 10 * y, x * 0.3f - y, 1.0f / (1 + x + y), (x ^ y) * 0.125f);
            img1[y][x] = (float)(x * x) - 3.5f * y + 0.1f * x * y;
        }
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<float4>(), c1 = cudaCreateChannelDesc<float>();
    printf("channel desc float4: %d %d %d %d kind %d\n", c4.x, c4.y, c4.z, c4.w, (int)c4.f);
    cudaArray_t a4, a1;
    SHOW(cudaMallocArray(&a4, &c4, W, H));
    SHOW(cudaMallocArray(&a1, &c1, W, H));
    SHOW(cudaMemcpy2DToArray(a4, 0, 0, img4, W * sizeof(float4), W * sizeof(float4), H, cudaMemcpyHostToDevice));
    SHOW(cudaMemcpy2DToArray(a1, 0, 0, img1, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaTextureAddressMode modes[] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
                                      cudaAddressModeBorder};
    const char *mname[] = {"wrap", "clamp", "mirror", "border"};
    for (int f = 0; f < 2; f++)
        for (int m = 0; m < 4; m++)
            for (int norm = 0; norm < 2; norm++) {
                cudaTextureFilterMode fm = f ? cudaFilterModeLinear : cudaFilterModePoint;
                cudaTextureObject_t t4 = make(a4, modes[m], fm, cudaReadModeElementType, norm);
                cudaTextureObject_t t1 = make(a1, modes[m], fm, cudaReadModeElementType, norm);
                float sx = norm ? 1.0f / W : 1, sy = norm ? 1.0f / H : 1;
                k2d<<<1, dim3(NX, NX)>>>(t4, xs, NX, sx, sy, out4);
                k2d1<<<1, dim3(NX, NX)>>>(t1, xs, NX, sx, sy, out1);
                CHECK(cudaMemcpy(h4, out4, NX * NX * sizeof(float4), cudaMemcpyDeviceToHost));
                CHECK(cudaMemcpy(h1, out1, NX * NX * sizeof(float), cudaMemcpyDeviceToHost));
                char what[96];
                snprintf(what, sizeof what, "2d float4 %s %s norm=%d", f ? "linear" : "point", mname[m], norm);
                print_words(what, h4, NX * NX * 4);
                snprintf(what, sizeof what, "2d float %s %s norm=%d", f ? "linear" : "point", mname[m], norm);
                print_words(what, h1, NX * NX);
                cudaDestroyTextureObject(t4);
                cudaDestroyTextureObject(t1);
            }

    // uchar4: element type (point) and normalized float (point and linear)
    uchar4 imgu[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) imgu[y][x] = make_uchar4(x * 37 + y, 255 - 17 * y, (x * y * 29) & 255, 128 + x - y);
    cudaChannelFormatDesc cu = cudaCreateChannelDesc<uchar4>();
    cudaArray_t au;
    SHOW(cudaMallocArray(&au, &cu, W, H));
    SHOW(cudaMemcpy2DToArray(au, 0, 0, imgu, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    {
        cudaTextureObject_t t = make(au, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        uchar4 *ou = (uchar4 *)out1;
        k2du<<<1, dim3(NX, NX)>>>(t, xs, NX, ou);
        CHECK(cudaMemcpy(h1, ou, NX * NX * 4, cudaMemcpyDeviceToHost));
        print_words("2d uchar4 element point clamp", h1, NX * NX);
        for (int f = 0; f < 2; f++) {
            cudaTextureObject_t tn = make(au, cudaAddressModeBorder, f ? cudaFilterModeLinear : cudaFilterModePoint,
                                          cudaReadModeNormalizedFloat, 0);
            k2d<<<1, dim3(NX, NX)>>>(tn, xs, NX, 1, 1, out4);
            CHECK(cudaMemcpy(h4, out4, NX * NX * sizeof(float4), cudaMemcpyDeviceToHost));
            print_words(f ? "2d uchar4 normalized linear border" : "2d uchar4 normalized point border", h4, NX * NX * 4);
        }
    }
    // signed short2 normalized, half float
    {
        short2 imgs[H][W];
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) imgs[y][x] = make_short2((short)(x * 9000 - 32768 + y), (short)(y * 13000 - 30000));
        cudaChannelFormatDesc cs = cudaCreateChannelDesc<short2>();
        cudaArray_t as;
        SHOW(cudaMallocArray(&as, &cs, W, H));
        SHOW(cudaMemcpy2DToArray(as, 0, 0, imgs, W * 4, W * 4, H, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make(as, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0);
        k2d<<<1, dim3(NX, NX)>>>(t, xs, NX, 1, 1, out4);
        CHECK(cudaMemcpy(h4, out4, NX * NX * sizeof(float4), cudaMemcpyDeviceToHost));
        print_words("2d short2 normalized linear clamp", h4, NX * NX * 4);

        unsigned short imgh[H][W];
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) imgh[y][x] = (unsigned short)(0x3c00 + x * 0x155 - y * 0x333);
        cudaChannelFormatDesc ch = cudaCreateChannelDescHalf();
        cudaArray_t ah;
        SHOW(cudaMallocArray(&ah, &ch, W, H));
        SHOW(cudaMemcpy2DToArray(ah, 0, 0, imgh, W * 2, W * 2, H, cudaMemcpyHostToDevice));
        cudaTextureObject_t th = make(ah, cudaAddressModeMirror, cudaFilterModeLinear, cudaReadModeElementType, 1);
        k2d1<<<1, dim3(NX, NX)>>>(th, xs, NX, 1.0f / W, 1.0f / H, out1);
        CHECK(cudaMemcpy(h1, out1, NX * NX * sizeof(float), cudaMemcpyDeviceToHost));
        print_words("2d half linear mirror norm", h1, NX * NX);
    }
    // 1D array, linear memory (tex1Dfetch), pitched 2D memory
    {
        float line[W];
        for (int x = 0; x < W; x++) line[x] = x * 1.5f - 2;
        cudaArray_t al;
        SHOW(cudaMallocArray(&al, &c1, W));
        SHOW(cudaMemcpyToArray(al, 0, 0, line, sizeof line, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make(al, cudaAddressModeWrap, cudaFilterModeLinear, cudaReadModeElementType, 1);
        k1d<<<1, NX>>>(t, xs, NX, 1.0f / W, out1);
        CHECK(cudaMemcpy(h1, out1, NX * sizeof(float), cudaMemcpyDeviceToHost));
        print_words("1d float linear wrap norm", h1, NX);

        int *di;
        float *df;
        CHECK(cudaMalloc(&di, 16 * sizeof(int)));
        CHECK(cudaMalloc(&df, 16 * sizeof(float)));
        int hi[16];
        float hf[16];
        for (int i = 0; i < 16; i++) hi[i] = i * i - 7, hf[i] = i * 0.75f;
        CHECK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = di;
        rd.res.linear.desc = cudaCreateChannelDesc<int>();
        rd.res.linear.sizeInBytes = 12 * sizeof(int);
        cudaTextureDesc td = {};
        td.readMode = cudaReadModeElementType;
        cudaTextureObject_t ti, tf;
        SHOW(cudaCreateTextureObject(&ti, &rd, &td, NULL));
        rd.res.linear.devPtr = df;
        rd.res.linear.desc = cudaCreateChannelDesc<float>();
        SHOW(cudaCreateTextureObject(&tf, &rd, &td, NULL));
        int *oi = (int *)out4;
        kfetch<<<1, 20>>>(ti, tf, oi, out1);
        CHECK(cudaMemcpy(hi, oi, 16 * sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(h1, out1, 20 * sizeof(float), cudaMemcpyDeviceToHost));
        print_words("fetch int", hi, 16);
        print_words("fetch float", h1, 20);

        float *pm;
        size_t pitch;
        CHECK(cudaMallocPitch(&pm, &pitch, W * sizeof(float), H));
        CHECK(cudaMemcpy2D(pm, pitch, img1, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
        cudaResourceDesc rp = {};
        rp.resType = cudaResourceTypePitch2D;
        rp.res.pitch2D.devPtr = pm;
        rp.res.pitch2D.desc = c1;
        rp.res.pitch2D.width = W;
        rp.res.pitch2D.height = H;
        rp.res.pitch2D.pitchInBytes = pitch;
        cudaTextureDesc tp = {};
        tp.addressMode[0] = tp.addressMode[1] = cudaAddressModeClamp;
        tp.filterMode = cudaFilterModeLinear;
        cudaTextureObject_t tpo;
        SHOW(cudaCreateTextureObject(&tpo, &rp, &tp, NULL));
        k2d1<<<1, dim3(NX, NX)>>>(tpo, xs, NX, 1, 1, out1);
        CHECK(cudaMemcpy(h1, out1, NX * NX * sizeof(float), cudaMemcpyDeviceToHost));
        print_words("pitch2d float linear clamp", h1, NX * NX);
        klod<<<1, 4>>>(tpo, out1);
        CHECK(cudaMemcpy(h1, out1, 4 * sizeof(float), cudaMemcpyDeviceToHost));
        print_words("lod on a texture without mipmaps", h1, 4);
    }
    // 3D, layered, gather, cubemap
    {
        const int D = 4;
        static float vol[D][H][W];
        for (int z = 0; z < D; z++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) vol[z][y][x] = x + 0.5f * y * y - 3.0f * z + 0.01f * x * z;
        cudaArray_t a3;
        SHOW(cudaMalloc3DArray(&a3, &c1, make_cudaExtent(W, H, D)));
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(vol, W * sizeof(float), W, H);
        p.dstArray = a3;
        p.extent = make_cudaExtent(W, H, D);
        p.kind = cudaMemcpyHostToDevice;
        SHOW(cudaMemcpy3D(&p));
        // point sampling: trilinear weights are not reproduced exactly (gpu/jobs/tex_filter/recorded/probe2.txt)
        cudaTextureObject_t t3 = make(a3, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        k3d<<<1, dim3(8, 8, 8)>>>(t3, out1);
        CHECK(cudaMemcpy(h1, out1, 512 * sizeof(float), cudaMemcpyDeviceToHost));
        print_words("3d float point clamp", h1, 512);

        cudaArray_t al;
        SHOW(cudaMalloc3DArray(&al, &c1, make_cudaExtent(W, H, 3), cudaArrayLayered));
        p.dstArray = al;
        p.extent = make_cudaExtent(W, H, 3);
        SHOW(cudaMemcpy3D(&p));
        cudaTextureObject_t tl = make(al, cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeElementType, 0);
        klayer<<<1, dim3(16, 3)>>>(tl, out1);
        CHECK(cudaMemcpy(h1, out1, 48 * sizeof(float), cudaMemcpyDeviceToHost));
        print_words("2d layered float linear border", h1, 48);

        cudaTextureObject_t tg = make(a4, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        kgather<<<1, dim3(16, 10, 4)>>>(tg, out4);
        CHECK(cudaMemcpy(h4, out4, 640 * sizeof(float4), cudaMemcpyDeviceToHost));
        print_words("gather float4 clamp", h4, 640 * 4);

        const int S = 4;
        static float cube[6][S][S];
        for (int f = 0; f < 6; f++)
            for (int y = 0; y < S; y++)
                for (int x = 0; x < S; x++) cube[f][y][x] = 100 * f + 10 * y + x;
        cudaArray_t ac;
        SHOW(cudaMalloc3DArray(&ac, &c1, make_cudaExtent(S, S, 6), cudaArrayCubemap));
        p.srcPtr = make_cudaPitchedPtr(cube, S * sizeof(float), S, S);
        p.dstArray = ac;
        p.extent = make_cudaExtent(S, S, 6);
        SHOW(cudaMemcpy3D(&p));
        cudaTextureObject_t tc = make(ac, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 1);
        kcube<<<1, 8>>>(tc, out1);
        CHECK(cudaMemcpy(h1, out1, 8 * sizeof(float), cudaMemcpyDeviceToHost));
        print_words("cubemap float point", h1, 8);
    }
    SHOW(cudaDeviceSynchronize());
    printf("bits of 0.5f %08x\n", bits(0.5f));
    return 0;
}
