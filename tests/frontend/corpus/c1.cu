#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
extern "C" __device__ int vprintf(const char*, void*);
__device__ float tbl[4] = {1,2,3,4};
__device__ float *ptrs[2] = {&tbl[1], &tbl[2]};
__device__ int helper(int x) { return x * x + (int)*ptrs[x & 1]; }
extern "C" __global__ void kern(float *o, int n) {
  __shared__ float s[128];
  int i;
  i = __nvvm_read_ptx_sreg_tid_x() + __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x();
  s[i & 127] = (float)helper(i);
  __syncthreads();
  if (i < n) o[i] = s[(i + 1) & 127] + tbl[i & 3];
  int args[2] = {i, n};
  if (i == 0) vprintf("%d %d\n", args);
}
