// approx.cu — records ex2.approx and tanh.approx on the half types for every one
// of the 65536 inputs, and checks them against the f32 instruction rounded to the
// half type (so the interpreter can know whether that construction is exact).
#include <cstdio>
#include <cuda_runtime.h>

#define FN(name, body) __device__ unsigned short name(unsigned short x) { unsigned short d; asm(body : "=h"(d) : "h"(x)); return d; }
FN(ex2_f16,  "ex2.approx.f16 %0, %1;")
FN(ex2_bf16, "ex2.approx.ftz.bf16 %0, %1;")
FN(tanh_f16, "tanh.approx.f16 %0, %1;")
FN(tanh_bf16,"tanh.approx.bf16 %0, %1;")
FN(ex2_f16_via,  "{ .reg .f32 f; cvt.f32.f16 f, %1; ex2.approx.ftz.f32 f, f; cvt.rn.f16.f32 %0, f; }")
FN(ex2_bf16_via, "{ .reg .f32 f; cvt.f32.bf16 f, %1; ex2.approx.ftz.f32 f, f; cvt.rn.bf16.f32 %0, f; }")
FN(tanh_f16_via, "{ .reg .f32 f; cvt.f32.f16 f, %1; tanh.approx.f32 f, f; cvt.rn.f16.f32 %0, f; }")
FN(tanh_bf16_via,"{ .reg .f32 f; cvt.f32.bf16 f, %1; tanh.approx.f32 f, f; cvt.rn.bf16.f32 %0, f; }")
FN(ex2_f16_viaz,  "{ .reg .f32 f; cvt.f32.f16 f, %1; ex2.approx.f32 f, f; cvt.rn.f16.f32 %0, f; }")

__global__ void run(unsigned short *out) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned short h = (unsigned short)x;
  unsigned short *o = out + x;
  o[0 << 16] = ex2_f16(h);   o[1 << 16] = ex2_bf16(h);
  o[2 << 16] = tanh_f16(h);  o[3 << 16] = tanh_bf16(h);
  o[4 << 16] = ex2_f16_via(h);  o[5 << 16] = ex2_bf16_via(h);
  o[6 << 16] = tanh_f16_via(h); o[7 << 16] = tanh_bf16_via(h);
  o[8 << 16] = ex2_f16_viaz(h);
}

int main() {
  unsigned short *out;
  cudaMallocManaged(&out, 9 << 17);
  run<<<256, 256>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
  const char *names[4] = {"ex2.approx.f16", "ex2.approx.ftz.bf16", "tanh.approx.f16", "tanh.approx.bf16"};
  for (int f = 0; f < 4; f++) {
    for (int x = 0; x < 65536; x += 16) {
      printf("%s 0x%04x:", names[f], x);
      for (int i = 0; i < 16; i++) printf(" %04x", out[(f << 16) + x + i]);
      printf("\n");
    }
  }
  for (int f = 0; f < 5; f++) {
    int ref = f < 4 ? f : 0, diff = 0;
    for (int x = 0; x < 65536; x++) diff += out[(ref << 16) + x] != out[((4 + f) << 16) + x];
    fprintf(stderr, "%s vs f32 construction %d: %d differences\n", names[ref], f, diff);
    int shown = 0;
    for (int x = 0; x < 65536 && shown < 40; x++)
      if (out[(ref << 16) + x] != out[((4 + f) << 16) + x]) {
        fprintf(stderr, "  x=%04x hw=%04x via=%04x\n", x, out[(ref << 16) + x], out[((4 + f) << 16) + x]);
        shown++;
      }
  }
  return 0;
}
