// wmma_types: one warp-matrix GEMM per type and shape of the CUDA guide's
// table (f16 with f32 and f16 accumulators, bf16, tf32, double, s8/u8, the
// experimental s4/u4 and b1), in the guide's style: load A, B and C, one or
// two mma_sync steps along K, store D. Block b of a launch is seed b (its own
// slice of the random inputs); warp w of the block reads A column-major when
// w&1 and B column-major when w&2; seed b loads C column-major when b&1,
// stores D column-major when b&2, and pads every leading dimension by
// (b%3) x 16 bytes. Sub-byte fragments exist only as A row-major, B
// column-major. Every warp writes its D into its own slice.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;
namespace wx = nvcuda::wmma::experimental;

template <typename T> struct Bits { static const int v = 8 * sizeof(T); };
template <> struct Bits<wx::precision::s4> { static const int v = 4; };
template <> struct Bits<wx::precision::u4> { static const int v = 4; };
template <> struct Bits<wx::precision::b1> { static const int v = 1; };
template <> struct Bits<wmma::precision::tf32> { static const int v = 32; };

// Memory element type of a fragment type.
template <typename T> struct Mem { typedef T t; };
template <> struct Mem<wmma::precision::tf32> { typedef float t; };
template <> struct Mem<wx::precision::s4> { typedef void t; };
template <> struct Mem<wx::precision::u4> { typedef void t; };
template <> struct Mem<wx::precision::b1> { typedef void t; };

__host__ __device__ constexpr int imax(int a, int b) { return a > b ? a : b; }
// Elements of one seed's slice of a rows x cols matrix with a leading
// dimension padded by up to 2 x 16 bytes, rounded to 1024 elements.
__host__ __device__ constexpr int slice(int rows, int cols, int bits)
{
    return (rows * cols + 2 * (128 / bits) * imax(rows, cols) + 1023) / 1024 * 1024;
}

template <typename P> __device__ P *at(P *base, long idx, int bits)
{
    return (P *)((char *)base + idx * bits / 8);
}

template <typename TA, typename TC, int M, int N, int K, int KS, typename LA, typename LB>
__device__ void gemm(const void *A0, const void *B0, const TC *C0, TC *D0, int flag)
{
    typedef typename Mem<TA>::t E;
    const int ba = Bits<TA>::v, bc = Bits<TC>::v, KT = K * KS;
    const int s = blockIdx.x, w = threadIdx.x / 32;
    const bool arow = std::is_same<LA, wmma::row_major>::value, brow = std::is_same<LB, wmma::row_major>::value;
    const bool crow = !(s & 1), drow = !(s & 2);
    const int pad = s % 3, ala = 128 / ba, alc = 128 / bc;
    const unsigned lda = (arow ? KT : M) + pad * ala, ldb = (brow ? N : KT) + pad * ala;
    const unsigned ldc = (crow ? N : M) + pad * alc, ldd = (drow ? N : M) + pad * alc;
    const E *A = at((const E *)A0, (long)s * slice(M, KT, ba), ba);
    const E *B = at((const E *)B0, (long)s * slice(KT, N, ba), ba);
    const TC *C = C0 + (long)s * slice(M, N, bc);
    TC *D = D0 + (long)(s * 4 + w) * slice(M, N, bc);

    wmma::fragment<wmma::accumulator, M, N, K, TC> acc;
    wmma::load_matrix_sync(acc, C, ldc, crow ? wmma::mem_row_major : wmma::mem_col_major);
    for (int kk = 0; kk < KS; kk++) {
        wmma::fragment<wmma::matrix_a, M, N, K, TA, LA> fa;
        wmma::fragment<wmma::matrix_b, M, N, K, TA, LB> fb;
        wmma::load_matrix_sync(fa, at(A, arow ? kk * K : (long)kk * K * lda, ba), lda);
        wmma::load_matrix_sync(fb, at(B, brow ? (long)kk * K * ldb : kk * K, ba), ldb);
        if constexpr (std::is_same<TA, wmma::precision::tf32>::value) {
            if (flag) {   // the guide's conversion, element by element
                for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
                for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
            }
        }
        if constexpr (std::is_same<TA, wx::precision::b1>::value) {
            if (flag) wmma::bmma_sync(acc, fa, fb, acc, wx::bmmaBitOpAND, wx::bmmaAccumulateOpPOPC);
            else wmma::bmma_sync(acc, fa, fb, acc, wx::bmmaBitOpXOR, wx::bmmaAccumulateOpPOPC);
        } else if constexpr (std::is_same<TC, int>::value) {
            wmma::mma_sync(acc, fa, fb, acc, flag != 0);   // flag: saturate to finite
        } else {
            wmma::mma_sync(acc, fa, fb, acc);
        }
    }
    wmma::store_matrix_sync(D, acc, ldd, drow ? wmma::mem_row_major : wmma::mem_col_major);
}

// All four A/B layouts, one per warp.
#define GEMM4(NAME, TA, TC, M, N, K, KS)                                                            \
    extern "C" __global__ void NAME(const void *A, const void *B, const TC *C, TC *D, int flag)     \
    {                                                                                               \
        switch (threadIdx.x / 32) {                                                                 \
        case 0: gemm<TA, TC, M, N, K, KS, wmma::row_major, wmma::row_major>(A, B, C, D, flag); break; \
        case 1: gemm<TA, TC, M, N, K, KS, wmma::col_major, wmma::row_major>(A, B, C, D, flag); break; \
        case 2: gemm<TA, TC, M, N, K, KS, wmma::row_major, wmma::col_major>(A, B, C, D, flag); break; \
        default: gemm<TA, TC, M, N, K, KS, wmma::col_major, wmma::col_major>(A, B, C, D, flag); break; \
        }                                                                                           \
    }
// Sub-byte: A row-major, B column-major only (every warp the same layouts).
#define GEMM1(NAME, TA, M, N, K)                                                                    \
    extern "C" __global__ void NAME(const void *A, const void *B, const int *C, int *D, int flag)   \
    {                                                                                               \
        gemm<TA, int, M, N, K, 1, wmma::row_major, wmma::col_major>(A, B, C, D, flag);              \
    }

GEMM4(f16_f32_m16n16k16, __half, float, 16, 16, 16, 2)
GEMM4(f16_f32_m32n8k16, __half, float, 32, 8, 16, 2)
GEMM4(f16_f32_m8n32k16, __half, float, 8, 32, 16, 2)
GEMM4(f16_f16_m16n16k16, __half, __half, 16, 16, 16, 2)
GEMM4(f16_f16_m32n8k16, __half, __half, 32, 8, 16, 2)
GEMM4(f16_f16_m8n32k16, __half, __half, 8, 32, 16, 2)
GEMM4(bf16_m16n16k16, __nv_bfloat16, float, 16, 16, 16, 2)
GEMM4(bf16_m32n8k16, __nv_bfloat16, float, 32, 8, 16, 2)
GEMM4(bf16_m8n32k16, __nv_bfloat16, float, 8, 32, 16, 2)
GEMM4(tf32_m16n16k8, wmma::precision::tf32, float, 16, 16, 8, 2)
GEMM4(f64_m8n8k4, double, double, 8, 8, 4, 2)
GEMM4(s8_m16n16k16, signed char, int, 16, 16, 16, 1)
GEMM4(s8_m32n8k16, signed char, int, 32, 8, 16, 1)
GEMM4(s8_m8n32k16, signed char, int, 8, 32, 16, 1)
GEMM4(u8_m16n16k16, unsigned char, int, 16, 16, 16, 1)
GEMM4(u8_m32n8k16, unsigned char, int, 32, 8, 16, 1)
GEMM4(u8_m8n32k16, unsigned char, int, 8, 32, 16, 1)
GEMM1(s4_m8n8k32, wx::precision::s4, 8, 8, 32)
GEMM1(u4_m8n8k32, wx::precision::u4, 8, 8, 32)
GEMM1(b1_m8n8k128, wx::precision::b1, 8, 8, 128)
