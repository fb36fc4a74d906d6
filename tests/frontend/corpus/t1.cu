#include <cstdio>
#include <cassert>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__managed__ int mval;
__device__ int arr2d[3][4] = {{1,2,3,4},{5,6,7,8}};
__device__ float farr[3] = {1.5f, -2.0f};
__device__ double darr[2] = {3.25, 1e300};
__device__ const char *strs[2] = {"ab", "cd"};
__device__ int (*fptrs[2])(int);
__device__ int f1(int x) { return x + 1; }
__device__ int f2(int x) { return x * 2; }
__device__ int rec(int n) { return n <= 1 ? 1 : n * rec(n - 1); }
__global__ void __launch_bounds__(128, 4) k(int *o, cudaTextureObject_t t, cudaSurfaceObject_t s, int sel) {
  cg::thread_block b = cg::this_thread_block();
  auto w = cg::tiled_partition<32>(b);
  int v = cg::reduce(w, (int)threadIdx.x, cg::plus<int>());
  __half h = __float2half(1.5f); __nv_bfloat16 bf = __float2bfloat16(2.5f);
  float f = tex1D<float>(t, 0.5f);
  surf2Dwrite(v, s, 4, 1);
  int (*fp)(int) = sel ? f1 : f2;
  assert(v >= 0);
  o[threadIdx.x] = v + fp(sel) + rec(sel) + (int)__half2float(h) + (int)__bfloat162float(bf) + (int)f + arr2d[sel][1] + mval + __popc(v) + __clz(v) + __brev(v) + __ffs(v);
  long long c = clock64(); unsigned lm; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lm));
  o[1] += (int)c + lm + __shfl_xor_sync(0xffffffff, v, 1) + __any_sync(~0u, v) + __match_any_sync(~0u, v) + __reduce_add_sync(~0u, v);
  atomicCAS((unsigned long long*)o, 1ull, 2ull); atomicExch((float*)o, 1.0f); atomicAdd((double*)o, 1.0); atomicMax(o, 3);
  __nanosleep(100); __threadfence(); __threadfence_block(); __syncwarp();
  switch (sel) { case 0: o[2]=1; break; case 1: o[2]=5; break; case 2: o[2]=7; break; case 3: o[2]=11; break; case 4: o[2]=13; break; case 5: o[2]=17; break; default: o[2]=0; }
  if (sel == 99) __trap();
  int *m = (int*)malloc(16); m[0] = 1; free(m);
  printf("%s %d %f\n", strs[sel&1], v, farr[0]);
}
__global__ void __cluster_dims__(2,1,1) kc(float *o) { __shared__ float sh[32]; sh[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = sqrtf(sh[31-threadIdx.x]) + __sinf(sh[0]) + rsqrtf(sh[1]) + exp2f(sh[2]) + __fdividef(sh[3], sh[4]) + fmaf(sh[5], sh[6], sh[7]); }
