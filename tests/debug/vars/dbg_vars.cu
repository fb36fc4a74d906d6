// dbg_vars.cu — C variables, types and scopes for `ptxi debug` on PTX built
// with nvcc -G (DWARF) and -lineinfo: a struct, a typedef, a union, a
// __shared__ array inside the kernel, an inlined and a called function.
#include <cstdio>

struct Pt {
  int x;
  float y;
  short s[2];
};
typedef struct Pt pt_t;
union Bits {
  float f;
  unsigned u;
};
__device__ int counter;
__constant__ float coef[3] = {0.5f, 1.5f, 2.5f};

__device__ __forceinline__ int addk(int a, int k) {
  int r = a + k;
  return r;
}

__device__ __noinline__ float scalef(const pt_t *p, float f) {
  float r = p->y * f;
  return r + p->x;
}

extern "C" __global__ void kern(const int *in, float *out, pt_t *pts, int n) {
  __shared__ int tile[32];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0;
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 4; k++) {
    int v = tile[(t + k) % 32];
    acc = addk(acc, v);
  }
  pt_t p = pts[t % 4];
  union Bits b;
  b.f = coef[t % 3];
  float r = scalef(&p, (float)acc);
  if (i < n) out[i] = r + (b.u & 1);
  if (t == 0) atomicAdd(&counter, 1);
}

int main() {
  const int N = 32;
  int hin[N];
  pt_t hp[4];
  for (int k = 0; k < N; k++) hin[k] = 3 * k + 1;
  for (int k = 0; k < 4; k++) hp[k] = {k + 1, 0.5f * k, {(short)k, (short)-k}};
  int *in;
  float *out;
  pt_t *pts;
  cudaMalloc(&in, sizeof hin);
  cudaMalloc(&out, N * sizeof(float));
  cudaMalloc(&pts, sizeof hp);
  cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice);
  cudaMemcpy(pts, hp, sizeof hp, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, N * sizeof(float));
  kern<<<1, N>>>(in, out, pts, 20);
  float hout[N];
  cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost);
  printf("out[0] = %g, out[5] = %g, out[19] = %g\n", hout[0], hout[5], hout[19]);
  return 0;
}
