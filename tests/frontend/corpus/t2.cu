#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <mma.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
using namespace nvcuda;
namespace cg = cooperative_groups;
__global__ void wm(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc); wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void mmak(unsigned *d, const unsigned *a) {
  unsigned r0, r1, r2, r3; float f0=0,f1=0,f2=0,f3=0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0),"=r"(r1),"=r"(r2),"=r"(r3) : "r"((unsigned)(size_t)a));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(f0),"+f"(f1),"+f"(f2),"+f"(f3) : "r"(r0),"r"(r1),"r"(r2),"r"(r3),"r"(r0),"r"(r1));
  d[threadIdx.x] = r0 + r1 + r2 + r3 + (unsigned)(f0+f1+f2+f3);
}
__global__ void conv(float *o, const float *i) {
  __nv_fp8_e4m3 e(i[0]); __nv_fp8_e5m2 f(i[1]);
  __half2 h2 = __floats2half2_rn(i[2], i[3]); __nv_bfloat162 b2 = __floats2bfloat162_rn(i[4], i[5]);
  h2 = __hfma2(h2, h2, h2); b2 = __hmul2(b2, b2);
  o[0] = (float)e + (float)f + __low2float(h2) + __high2float(b2) + __half2float(__habs(__float2half(i[6])));
  double dd = i[7]; o[1] = (float)(dd * dd / 3.0); o[2] = __fsqrt_rn(i[8]); o[3] = __frcp_rz(i[9]);
  long long ll = (long long)i[10]; o[4] = (float)(ll / 7 + ll % 5); o[5] = (float)__umul64hi(ll, ll); o[6] = __int_as_float(__byte_perm(ll, ll>>8, 0x3210));
}
__global__ void async(float *g) {
  __shared__ float sh[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, sh, g, sizeof(sh), bar);
  bar.arrive_and_wait();
  cg::memcpy_async(block, sh, g + 256, sizeof(float) * 256); cg::wait(block);
  g[threadIdx.x] = sh[threadIdx.x];
}
__global__ void tex3(cudaTextureObject_t t, float *o) { o[0] = tex3D<float>(t, 0.1f, 0.2f, 0.3f) + tex2DLayered<float>(t, 0.5f, 0.5f, 1); float4 v = tex2D<float4>(t, 1.f, 2.f); o[1] = v.x + v.w; }
__global__ void surf(cudaSurfaceObject_t s) { float v; surf2Dread(&v, s, 0, 0); surf2Dwrite(v * 2, s, 4, 0); surf1Dwrite(1.0f, s, 8); }
