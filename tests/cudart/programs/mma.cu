// mma.cu — warp-level matrix multiply-accumulate (mma.sync) in the shapes and types
// sm_80/sm_90 code uses, with ldmatrix/stmatrix: fragments are built from whole
// matrices by the layouts of the PTX ISA, so a wrong layout shows as a wrong
// product. Integer-valued inputs check the layouts (exact in any summation order);
// random inputs of mixed magnitude record the tensor cores' rounding. Results as bits.
#include <cstdint>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#include "check.h"

#define G (lane >> 2)
#define T (lane & 3)
// 16x16 (k16) or 16x8 (k8) f16/bf16 A, row-major, element i of a thread
__device__ int a16_row(int lane, int i) { return G + 8 * ((i >> 1) & 1); }
__device__ int a16_col(int lane, int i) { return T * 2 + (i & 1) + 8 * (i >> 2); }
__device__ int b16_row(int lane, int i) { return T * 2 + (i & 1) + 8 * (i >> 1); }
__device__ int c_row(int lane, int i) { return G + 8 * (i >> 1); }
__device__ int c_col(int lane, int i) { return T * 2 + (i & 1); }

template <typename H> __device__ uint32_t pack(H lo, H hi) {
    uint16_t a, b; memcpy(&a, &lo, 2); memcpy(&b, &hi, 2); return a | (uint32_t)b << 16;
}

// D(16x8,f32) = A(16xK) B(Kx8) + C; A row-major 16xK, B row-major Kx8 (read as col)
template <typename H, int K> __global__ void mma_h(const H *A, const H *B, const float *C, float *D, int bf) {
    int lane = threadIdx.x;
    uint32_t a[4], b[2];
    for (int r = 0; r < K / 4; r++) a[r] = pack(A[a16_row(lane, 2 * r) * K + a16_col(lane, 2 * r)], A[a16_row(lane, 2 * r + 1) * K + a16_col(lane, 2 * r + 1)]);
    for (int r = 0; r < K / 8; r++) b[r] = pack(B[b16_row(lane, 2 * r) * 8 + G], B[b16_row(lane, 2 * r + 1) * 8 + G]);
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[c_row(lane, i) * 8 + c_col(lane, i)];
    if (K == 16 && !bf)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    else if (K == 16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    else if (!bf)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[c_row(lane, i) * 8 + c_col(lane, i)] = d[i];
}

// f16 accumulator: D(16x8,f16) = A B + C, m16n8k16
__global__ void mma_hh(const __half *A, const __half *B, const __half *C, __half *D) {
    int lane = threadIdx.x;
    uint32_t a[4], b[2], c[2], d[2];
    for (int r = 0; r < 4; r++) a[r] = pack(A[a16_row(lane, 2 * r) * 16 + a16_col(lane, 2 * r)], A[a16_row(lane, 2 * r + 1) * 16 + a16_col(lane, 2 * r + 1)]);
    for (int r = 0; r < 2; r++) b[r] = pack(B[b16_row(lane, 2 * r) * 8 + G], B[b16_row(lane, 2 * r + 1) * 8 + G]);
    for (int r = 0; r < 2; r++) c[r] = pack(C[c_row(lane, 2 * r) * 8 + c_col(lane, 2 * r)], C[c_row(lane, 2 * r + 1) * 8 + c_col(lane, 2 * r + 1)]);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 4; i++) { uint16_t h = (uint16_t)(d[i >> 1] >> (16 * (i & 1))); memcpy(&D[c_row(lane, i) * 8 + c_col(lane, i)], &h, 2); }
}

// tf32: m16n8k8 (A 16x8, B 8x8) and m16n8k4
template <int K> __global__ void mma_tf32(const float *A, const float *B, const float *C, float *D) {
    int lane = threadIdx.x;
    uint32_t a[4], b[2];
    float c[4], d[4];
    for (int i = 0; i < K / 2; i++) { float v = A[(G + 8 * (i & 1)) * K + T + 4 * (i >> 1)]; memcpy(&a[i], &v, 4); }
    for (int i = 0; i < K / 4; i++) { float v = B[(T + 4 * i) * 8 + G]; memcpy(&b[i], &v, 4); }
    for (int i = 0; i < 4; i++) c[i] = C[c_row(lane, i) * 8 + c_col(lane, i)];
    if (K == 8)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[c_row(lane, i) * 8 + c_col(lane, i)] = d[i];
}

// s8 / u8: m16n8k32 (A 16x32, B 32x8) and m16n8k16, s32 accumulate (and .satfinite)
template <int K> __global__ void mma_i8(const int8_t *A, const int8_t *B, const int *C, int *D, int sat) {
    int lane = threadIdx.x;
    uint32_t a[4] = {}, b[2] = {};
    for (int i = 0; i < K / 2; i++) {
        int row = G + 8 * ((i >> 2) & 1), col = T * 4 + (i & 3) + 16 * (i >> 3);
        a[i >> 2] |= (uint32_t)(uint8_t)A[row * K + col] << (8 * (i & 3));
    }
    for (int i = 0; i < K / 4; i++) b[i >> 2] |= (uint32_t)(uint8_t)B[(T * 4 + (i & 3) + 16 * (i >> 2)) * 8 + G] << (8 * (i & 3));
    int c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[c_row(lane, i) * 8 + c_col(lane, i)];
    if (K == 32 && sat)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                       "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    else if (K == 32)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                       "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]),
                       "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[c_row(lane, i) * 8 + c_col(lane, i)] = d[i];
}

// f64 m8n8k4
__global__ void mma_f64(const double *A, const double *B, const double *C, double *D) {
    int lane = threadIdx.x;
    double a = A[G * 4 + T], b = B[T * 8 + G], c0 = C[G * 8 + T * 2], c1 = C[G * 8 + T * 2 + 1], d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(d0), "=d"(d1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
    D[G * 8 + T * 2] = d0, D[G * 8 + T * 2 + 1] = d1;
}

// ldmatrix x1/x2/x4 (and .trans) from a 32x8 b16 tile in shared memory, stmatrix back
__global__ void ldst(const uint16_t *in, uint32_t *out, uint16_t *back) {
    __shared__ uint16_t s[32 * 8], t[32 * 8];
    int lane = threadIdx.x;
    for (int i = lane; i < 256; i += 32) s[i] = in[i], t[i] = 0;
    __syncwarp();
    uint32_t row = (uint32_t)__cvta_generic_to_shared(&s[lane * 8]);
    uint32_t r[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(row));
    out[lane] = r[0];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(row));
    out[32 + lane] = r[0], out[64 + lane] = r[1];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(row));
    for (int i = 0; i < 4; i++) out[96 + 32 * i + lane] = r[i];
    uint32_t trow = (uint32_t)__cvta_generic_to_shared(&t[lane * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(trow), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
    __syncwarp();
    for (int i = lane; i < 256; i += 32) back[i] = t[i];
}

// wmma m16n16k16 f16 -> f32 on the same inputs (row-major A, row-major B)
__global__ void wmma16(const __half *A, const __half *B, const float *C, float *D) {
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, A, 16);
    wmma::load_matrix_sync(fb, B, 16);
    wmma::load_matrix_sync(acc, C, 16, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(D, acc, 16, wmma::mem_row_major);
}

static uint64_t rs = 88172645463325252ull;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)rs; }
static float real(int spread) {   // random sign, mantissa, exponent in [-spread, spread]
    float m = 1.0f + (rnd() & 0x7fffff) / 8388608.0f;
    int e = spread ? (int)(rnd() % (2 * spread + 1)) - spread : 0;
    return (rnd() & 1 ? -1 : 1) * ldexpf(m, e);
}
static void print_words(const char *what, const void *p, int n, int size) {
    printf("%s:", what);
    for (int i = 0; i < n; i++) {
        if (size == 2) printf("%s%04x", i % 16 ? " " : "\n  ", ((const uint16_t *)p)[i]);
        else if (size == 8) printf("%s%016llx", i % 8 ? " " : "\n  ", (unsigned long long)((const uint64_t *)p)[i]);
        else printf("%s%08x", i % 16 ? " " : "\n  ", ((const uint32_t *)p)[i]);
    }
    printf("\n");
}
template <typename X> static X *dev(const X *h, int n) { X *d; cudaMalloc(&d, n * sizeof(X)); cudaMemcpy(d, h, n * sizeof(X), cudaMemcpyHostToDevice); return d; }

int main() {
    static float fa[16 * 32], fb[32 * 8], fc[128], fd[128];
    static __half ha[16 * 16], hb[16 * 8], hc[128], hd[128];
    static __nv_bfloat16 ba[16 * 16], bb[16 * 8];
    char what[80];
    float *dd; cudaMalloc(&dd, 128 * 8);
    for (int trial = 0; trial < 20; trial++) {
        int spread = trial < 2 ? -1 : trial < 8 ? 2 : trial < 14 ? 8 : 20;   // -1: small integers
        for (int i = 0; i < 16 * 32; i++) fa[i] = spread < 0 ? (float)((int)(rnd() % 9) - 4) : real(spread);
        for (int i = 0; i < 32 * 8; i++) fb[i] = spread < 0 ? (float)((int)(rnd() % 9) - 4) : real(spread);
        for (int i = 0; i < 128; i++) fc[i] = spread < 0 ? (float)((int)(rnd() % 41) - 20) : real(spread + 4);
        for (int i = 0; i < 256; i++) ha[i] = __float2half(fa[i]), ba[i] = __float2bfloat16(fa[i]);
        for (int i = 0; i < 128; i++) hb[i] = __float2half(fb[i]), bb[i] = __float2bfloat16(fb[i]), hc[i] = __float2half(fc[i] / 64);
        float *C = dev(fc, 128);
        for (int form = 0; form < 4; form++) {
            int bf = form & 1, k = form & 2 ? 8 : 16;
            if (bf) (k == 16 ? mma_h<__nv_bfloat16, 16> : mma_h<__nv_bfloat16, 8>)<<<1, 32>>>(dev(ba, 256), dev(bb, 128), C, dd, 1);
            else (k == 16 ? mma_h<__half, 16> : mma_h<__half, 8>)<<<1, 32>>>(dev(ha, 256), dev(hb, 128), C, dd, 0);
            CHECK(cudaMemcpy(fd, dd, 512, cudaMemcpyDeviceToHost));
            snprintf(what, sizeof what, "trial %d m16n8k%d f32.%s", trial, k, bf ? "bf16" : "f16");
            print_words(what, fd, 128, 4);
        }
        __half *hdd; cudaMalloc(&hdd, 256);
        mma_hh<<<1, 32>>>(dev(ha, 256), dev(hb, 128), dev(hc, 128), hdd);
        CHECK(cudaMemcpy(hd, hdd, 256, cudaMemcpyDeviceToHost));
        snprintf(what, sizeof what, "trial %d m16n8k16 f16.f16", trial);
        print_words(what, hd, 128, 2);
        for (int k = 4; k <= 8; k += 4) {
            (k == 8 ? mma_tf32<8> : mma_tf32<4>)<<<1, 32>>>(dev(fa, 16 * k), dev(fb, k * 8), C, dd);
            CHECK(cudaMemcpy(fd, dd, 512, cudaMemcpyDeviceToHost));
            snprintf(what, sizeof what, "trial %d m16n8k%d tf32", trial, k);
            print_words(what, fd, 128, 4);
        }
        if (trial < 6) {
            static int8_t ia[16 * 32], ib[32 * 8];
            static int ic[128], id[128];
            for (int i = 0; i < 512; i++) ia[i] = (int8_t)rnd();
            for (int i = 0; i < 256; i++) ib[i] = (int8_t)rnd();
            for (int i = 0; i < 128; i++) ic[i] = trial == 5 ? 0x7ffff000 + (int)(rnd() % 8192) - 4096 : (int)(rnd() % 100000) - 50000;
            int *idd; cudaMalloc(&idd, 512);
            for (int form = 0; form < 3; form++) {
                (form < 2 ? mma_i8<32> : mma_i8<16>)<<<1, 32>>>(dev(ia, 512), dev(ib, 256), dev(ic, 128), idd, form == 0);
                CHECK(cudaMemcpy(id, idd, 512, cudaMemcpyDeviceToHost));
                snprintf(what, sizeof what, "trial %d %s", trial, form == 0 ? "m16n8k32 s8 satfinite" : form == 1 ? "m16n8k32 s8.u8" : "m16n8k16 s8");
                print_words(what, id, 128, 4);
            }
            static double da[32], db[32], dc[64], ddh[64];
            for (int i = 0; i < 32; i++) da[i] = real(trial ? 30 : 0), db[i] = real(trial ? 30 : 0);
            for (int i = 0; i < 64; i++) dc[i] = real(trial ? 30 : 0);
            double *dd64; cudaMalloc(&dd64, 512);
            mma_f64<<<1, 32>>>(dev(da, 32), dev(db, 32), dev(dc, 64), dd64);
            CHECK(cudaMemcpy(ddh, dd64, 512, cudaMemcpyDeviceToHost));
            snprintf(what, sizeof what, "trial %d m8n8k4 f64", trial);
            print_words(what, ddh, 64, 8);
        }
    }
    {   // wmma with random inputs of mixed magnitude (a separate generator: the trials above keep theirs)
        static __half wa[256], wb[256];
        static float wc[256], wd[256];
        uint64_t keep = rs;
        for (int i = 0; i < 256; i++) wa[i] = __float2half(real(6)), wb[i] = __float2half(real(6)), wc[i] = real(10);
        rs = keep;
        float *wdd; cudaMalloc(&wdd, 1024);
        wmma16<<<1, 32>>>(dev(wa, 256), dev(wb, 256), dev(wc, 256), wdd);
        CHECK(cudaMemcpy(wd, wdd, 1024, cudaMemcpyDeviceToHost));
        print_words("wmma m16n16k16 f32.f16", wd, 256, 4);
    }
    static uint16_t tile[256], back[256];
    static uint32_t lo[224];
    for (int i = 0; i < 256; i++) tile[i] = (uint16_t)(i * 7 + 1);
    uint32_t *dl; uint16_t *db2; cudaMalloc(&dl, sizeof lo); cudaMalloc(&db2, 512);
    ldst<<<1, 32>>>(dev(tile, 256), dl, db2);
    CHECK(cudaMemcpy(lo, dl, sizeof lo, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(back, db2, 512, cudaMemcpyDeviceToHost));
    print_words("ldmatrix x1, x2.trans, x4", lo, 224, 4);
    print_words("stmatrix x4.trans", back, 256, 2);
    SHOW(cudaDeviceSynchronize());
    return 0;
}
