// Exhaustive probe of the f32 approximate instructions over one binade: compares
// each result with the correctly rounded value and prints error histograms and
// samples, to find out how the hardware computes them.
#include <cstdio>
#include <cstdint>
#include <cmath>
__device__ float rcp_a(float x) { float r; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float rsq_a(float x) { float r; asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float sqrt_a(float x) { float r; asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float ex2_a(float x) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float lg2_a(float x) { float r; asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float sin_a(float x) { float r; asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }

// which: 0 rcp over [1,2), 1 rsqrt over [1,4), 2 sqrt over [1,4), 3 ex2 over [0,1), 4 lg2 over [1,2)
__global__ void probe(int which, unsigned n, int *hist, unsigned *samples, unsigned *nsamp) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x; double ref; float hw;
  if (which == 0) { x = __uint_as_float(0x3f800000u + i); hw = rcp_a(x); ref = 1.0 / (double)x; }
  else if (which == 1) { x = __uint_as_float(0x3f800000u + i); hw = rsq_a(x); ref = 1.0 / sqrt((double)x); }
  else if (which == 2) { x = __uint_as_float(0x3f800000u + i); hw = sqrt_a(x); ref = sqrt((double)x); }
  else if (which == 3) { x = __uint_as_float(0x3f800000u + i) - 1.0f; hw = ex2_a(x); ref = exp2((double)x); }
  else { x = __uint_as_float(0x3f800000u + i); hw = lg2_a(x); ref = log2((double)x); }
  float rn = (float)ref;
  int d = (int)(__float_as_uint(hw) - __float_as_uint(rn));
  if (which == 4) d = (int)((double)hw * 16777216.0 - ref * 16777216.0);   // units of 2^-24 absolute
  int b = d < -8 ? 0 : d > 8 ? 16 : d + 8;
  atomicAdd(&hist[b], 1);
  if (d != 0) { unsigned k = atomicAdd(nsamp, 1); if (k < 64) { samples[3*k] = __float_as_uint(x); samples[3*k+1] = __float_as_uint(hw); samples[3*k+2] = __float_as_uint(rn); } }
}
int main() {
  const char *names[] = {"rcp [1,2)", "rsqrt [1,4)", "sqrt [1,4)", "ex2 [0,1)", "lg2 [1,2) abs 2^-24"};
  unsigned ns[] = {1u << 23, 1u << 24, 1u << 24, 1u << 23, 1u << 23};
  int *hist; unsigned *samp, *nsamp;
  cudaMallocManaged(&hist, 17 * 4); cudaMallocManaged(&samp, 64 * 3 * 4); cudaMallocManaged(&nsamp, 4);
  for (int w = 0; w < 5; w++) {
    for (int i = 0; i < 17; i++) hist[i] = 0;
    *nsamp = 0;
    probe<<<(ns[w] + 255) / 256, 256>>>(w, ns[w], hist, samp, nsamp);
    cudaDeviceSynchronize();
    printf("%s: ", names[w]);
    for (int i = 0; i < 17; i++) if (hist[i]) printf("%+d:%d ", i - 8, hist[i]);
    printf("\n");
    for (unsigned k = 0; k < 12 && k < *nsamp; k++) printf("  x=%08x hw=%08x rn=%08x\n", samp[3*k], samp[3*k+1], samp[3*k+2]);
  }
  return 0;
}
