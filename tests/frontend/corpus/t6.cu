#include <cstdio>
#include <cassert>
#include <cuda_fp16.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct Base { __device__ virtual float f(float x) const { return x; } __device__ virtual ~Base() {} };
struct Der : Base { __device__ float f(float x) const override { return 2 * x; } };
extern __shared__ float dyn[];
__constant__ float ctab[256];
__device__ double math(double x) { return sin(x) + cos(x) + exp(x) + log(x + 2) + pow(x, 2.5) + erf(x) + tgamma(x + 1) + atan2(x, 1.0) + cbrt(x) + fmod(x, 0.3); }
__device__ float mathf(float x) { return sinf(x) + expf(x) + logf(x + 2) + powf(x, 1.5f) + erfcf(x) + lgammaf(x + 1) + tanhf(x) + asinhf(x) + __saturatef(x) + rintf(x); }
__global__ void __launch_bounds__(256, 2) kern(float *o, const float *__restrict__ in, long long *ll, __half *h, unsigned *u, const __grid_constant__ int4 cfg) {
  Base *b = (threadIdx.x & 1) ? new Der() : new Base();
  float v = b->f(in[threadIdx.x]); delete b;
  dyn[threadIdx.x] = v; __syncthreads();
  int cnt = __syncthreads_count(v > 0); int all = __syncthreads_and(v > 0); int any = __syncthreads_or(v > 0);
  float l = __ldg(in + 1) + __ldcs(in + 2) + __ldlu(in + 3) + __ldcv(in + 4); __stcs(o + 5, l); __stwt(o + 6, l);
  atomicAdd_system(u, 1u); atomicAdd_block(u + 1, 2u); atomicAdd(h, __float2half(1.0f)); atomicMin(ll, 5ll); atomicAnd(u + 2, 3u); atomicInc(u + 3, 10u);
  unsigned s = __funnelshift_l(u[0], u[1], 5) + __sad(u[0], u[1], 3) + __vabsdiffu4(u[0], u[1]) + __vadd2(u[0], u[1]) + __dp4a(u[0], u[1], 7u) + __fns(u[0], 0, 2) + __vcmpgtu4(u[0], u[1]);
  auto w = cg::tiled_partition<16>(cg::this_thread_block());
  int lab = cg::labeled_partition(w, (int)threadIdx.x & 3).thread_rank();
  int red = 0;
  long long q = ll[0] / (ll[1] | 1) + ll[2] % 7; unsigned long long uq = (unsigned long long)ll[3] / 13u;
  assert(cfg.x >= 0);
  printf("%d %d %d %f %lld %llu %u %s %c %p\n", cnt, all, any, (double)v, q, uq, s, "str", 'c', o);
  o[threadIdx.x] = dyn[255 - threadIdx.x] + (float)math(v) + mathf(v) + ctab[threadIdx.x & 255] + lab + red;
  if (v < -1e30f) __brkpt();
}
__global__ void pipe(float *g) {
  __shared__ float sh[2][128];
  auto block = cg::this_thread_block();
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
  auto pipe = cuda::make_pipeline(block, &st);
  for (int s = 0; s < 2; s++) { pipe.producer_acquire(); cuda::memcpy_async(block, sh[s], g + s * 128, sizeof(float) * 128, pipe); pipe.producer_commit(); }
  pipe.consumer_wait(); g[threadIdx.x] = sh[0][threadIdx.x] + sh[1][threadIdx.x]; pipe.consumer_release();
}
