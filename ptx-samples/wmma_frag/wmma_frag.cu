// wmma_frag: where each element of a matrix lands in the fragments of a warp
// (the layout the CUDA guide leaves unspecified), for every fragment of the
// guide's table: A and B in both layouts, the accumulator loaded row- and
// column-major. Pass p writes bits [p*w, p*w+w) of each element's index
// (row*cols + col) as the element (w: the element width; elements of 16 bits
// or more hold the whole index in one pass), loads the fragment and writes its
// storage as it is, lane by lane: out[b * 1024 + (p * 32 + lane) * S + i] for
// fragment b of the kernel (S: 32-bit words of the fragment per lane).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>
using namespace nvcuda;
namespace wx = nvcuda::wmma::experimental;

template <typename Use, int M, int N, int K> struct Dims;
template <int M, int N, int K> struct Dims<wmma::matrix_a, M, N, K> { static const int r = M, c = K; };
template <int M, int N, int K> struct Dims<wmma::matrix_b, M, N, K> { static const int r = K, c = N; };
template <int M, int N, int K> struct Dims<wmma::accumulator, M, N, K> { static const int r = M, c = N; };

// element e (of `bits` bits) of a byte buffer
__device__ void put(unsigned char *m, int e, int bits, unsigned long long v)
{
    if (bits >= 8) {
        for (int b = 0; b < bits / 8; b++) m[e * bits / 8 + b] = (unsigned char)(v >> (8 * b));
    } else {
        int bit = e * bits, mask = (1 << bits) - 1;
        m[bit / 8] = (unsigned char)((m[bit / 8] & ~(mask << (bit % 8))) | ((v & mask) << (bit % 8)));
    }
}

template <typename Use, int M, int N, int K, typename T, typename L>
__device__ void dump(unsigned char *mat, unsigned *out, bool colmajor)
{
    wmma::fragment<Use, M, N, K, T, L> f;
    const int R = Dims<Use, M, N, K>::r, C = Dims<Use, M, N, K>::c;
    const int bits = 8 * sizeof(f.x) / f.num_elements;             // of one element
    const int passes = bits >= 16 ? 1 : (10 + bits - 1) / bits;   // indices below 1024
    const unsigned ld = colmajor ? R : C;
    const int S = sizeof(f.x) / 4;
    int lane = threadIdx.x;
    for (int p = 0; p < passes; p++) {
        __syncwarp();
        if (lane == 0)
            for (int r = 0; r < R; r++)
                for (int c = 0; c < C; c++) {
                    int idx = r * C + c;
                    put(mat, colmajor ? c * ld + r : r * ld + c, bits, bits >= 16 ? (unsigned)idx : (unsigned)idx >> (p * bits));
                }
        __syncwarp();
        if constexpr (std::is_same<Use, wmma::accumulator>::value)
            wmma::load_matrix_sync(f, (const T *)mat, ld, colmajor ? wmma::mem_col_major : wmma::mem_row_major);
        else if constexpr (8 * sizeof(f.x) / f.num_elements < 8)
            wmma::load_matrix_sync(f, (const void *)mat, ld);
        else if constexpr (std::is_same<T, wmma::precision::tf32>::value)
            wmma::load_matrix_sync(f, (const float *)mat, ld);
        else
            wmma::load_matrix_sync(f, (const T *)mat, ld);
        const unsigned *words = (const unsigned *)&f.x[0];
        for (int i = 0; i < S; i++) out[(p * 32 + lane) * S + i] = words[i];
    }
}

// One kernel per element type and shape: block b dumps fragment b of the list
// A row, A col, B row, B col, C row, C col (sub-byte, four blocks: A row, B col,
// C row, C col).
template <typename T, typename TC, int M, int N, int K>
__device__ void frags(unsigned char *scratch, unsigned *out)
{
    constexpr bool sub = std::is_same<T, wx::precision::s4>::value || std::is_same<T, wx::precision::u4>::value ||
                         std::is_same<T, wx::precision::b1>::value;
    unsigned char *mat = scratch + blockIdx.x * 8192;
    unsigned *o = out + blockIdx.x * 1024;
    switch (sub && blockIdx.x ? blockIdx.x + 2 : blockIdx.x) {
    case 0: dump<wmma::matrix_a, M, N, K, T, wmma::row_major>(mat, o, false); break;
    case 1: if constexpr (!sub) dump<wmma::matrix_a, M, N, K, T, wmma::col_major>(mat, o, true); break;
    case 2: if constexpr (!sub) dump<wmma::matrix_b, M, N, K, T, wmma::row_major>(mat, o, false); break;
    case 3: dump<wmma::matrix_b, M, N, K, T, wmma::col_major>(mat, o, true); break;
    case 4: dump<wmma::accumulator, M, N, K, TC, void>(mat, o, false); break;
    default: dump<wmma::accumulator, M, N, K, TC, void>(mat, o, true); break;
    }
}
#define FRAGS(NAME, T, TC, M, N, K) \
    extern "C" __global__ void NAME(unsigned char *scratch, unsigned *out) { frags<T, TC, M, N, K>(scratch, out); }

FRAGS(f16_m16n16k16, __half, float, 16, 16, 16)
FRAGS(f16_m32n8k16, __half, float, 32, 8, 16)
FRAGS(f16_m8n32k16, __half, float, 8, 32, 16)
FRAGS(f16acc_m16n16k16, __half, __half, 16, 16, 16)
FRAGS(f16acc_m32n8k16, __half, __half, 32, 8, 16)
FRAGS(f16acc_m8n32k16, __half, __half, 8, 32, 16)
FRAGS(bf16_m16n16k16, __nv_bfloat16, float, 16, 16, 16)
FRAGS(bf16_m32n8k16, __nv_bfloat16, float, 32, 8, 16)
FRAGS(bf16_m8n32k16, __nv_bfloat16, float, 8, 32, 16)
FRAGS(tf32_m16n16k8, wmma::precision::tf32, float, 16, 16, 8)
FRAGS(f64_m8n8k4, double, double, 8, 8, 4)
FRAGS(s8_m16n16k16, signed char, int, 16, 16, 16)
FRAGS(s8_m32n8k16, signed char, int, 32, 8, 16)
FRAGS(s8_m8n32k16, signed char, int, 8, 32, 16)
FRAGS(u8_m16n16k16, unsigned char, int, 16, 16, 16)
FRAGS(s4_m8n8k32, wx::precision::s4, int, 8, 8, 32)
FRAGS(u4_m8n8k32, wx::precision::u4, int, 8, 8, 32)
FRAGS(b1_m8n8k128, wx::precision::b1, int, 8, 8, 128)
