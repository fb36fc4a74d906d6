// Warp matrix multiply-accumulate (wmma): one warp computes D = A*B + C for
// 16x16x16 tiles, half inputs and float accumulators, with row- and
// column-major layouts. The inputs are multiples of 1/8 so every product and
// sum is exact in float: any correct order of accumulation gives these bits.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

extern "C" __global__ void wmma_kernel(const half *a, const half *b, const float *c, float *d, float *d2)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fbr;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);

    // Same A against B read row-major, zero accumulator, stored column-major.
    wmma::load_matrix_sync(fbr, b, 16);
    wmma::fill_fragment(acc, 0.0f);
    wmma::mma_sync(acc, fa, fbr, acc);
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] *= 2.0f;
    wmma::store_matrix_sync(d2, acc, 16, wmma::mem_col_major);
}
