#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void child(int *p) { p[threadIdx.x] += 1; }
__global__ void parent(int *p) { if (threadIdx.x == 0) child<<<1, 32>>>(p); }
__global__ void gridsync(int *p) { cg::grid_group g = cg::this_grid(); p[g.thread_rank()] = 1; g.sync(); p[0] += __activemask(); }
__global__ void blocksort(int *d) {
  using BS = cub::BlockRadixSort<int, 128, 4>;
  __shared__ typename BS::TempStorage tmp;
  int k[4]; for (int i = 0; i < 4; i++) k[i] = d[threadIdx.x * 4 + i];
  BS(tmp).Sort(k);
  for (int i = 0; i < 4; i++) d[threadIdx.x * 4 + i] = k[i];
}
__global__ void va(int n, double *o) { double *buf = (double*)alloca(n * sizeof(double)); for (int i = 0; i < n; i++) buf[i] = i; o[0] = buf[n-1]; }
void host(int *p, int n) { thrust::device_ptr<int> d(p); thrust::sort(d, d + n); int s = thrust::reduce(d, d + n); (void)s; }
