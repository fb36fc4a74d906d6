// tex_filter.cu — how the texture unit's linear filter computes: 1D float textures of two
// texels (T0, T1) sampled at x = 0.5 + (k + f)/256 (k = 0..256, f = 0, 0.25, 0.5, 0.75),
// 2D 2x2 textures at a few (x, y), and the same for 8-bit normalized and half textures.
// Output lines: "<kind> <T0 bits> <T1 bits> ... : results".
#include <cstdio>
#include <cstdint>
#include <cstring>
__global__ void s1(cudaTextureObject_t t, float *out) {
  int k = threadIdx.x, f = blockIdx.x;
  out[f * 257 + k] = tex1D<float>(t, 0.5f + (k + f * 0.25f) / 256.0f);
}
__global__ void s2(cudaTextureObject_t t, float *out) {
  int k = threadIdx.x, f = threadIdx.y;   // x weight k*16/256, y weight f*16/256 (+ odd offsets)
  out[f * 17 + k] = tex2D<float>(t, 0.5f + k * 15.0f / 256.0f, 0.5f + f * 15.0f / 256.0f);
}
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static cudaTextureObject_t tex(cudaArray_t a, cudaTextureReadMode rm) {
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
  cudaTextureDesc td = {}; td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear; td.readMode = rm;
  cudaTextureObject_t t; cudaCreateTextureObject(&t, &rd, &td, NULL); return t;
}
// A 2x1 texture of the given texels, sampled by s1; prints the results.
static void sample1(const cudaChannelFormatDesc *c, const void *texels, size_t bytes, cudaTextureReadMode rm, float *out) {
  static float h[4 * 257];
  cudaArray_t a; cudaMallocArray(&a, c, 2, 1);
  cudaMemcpy2DToArray(a, 0, 0, texels, bytes, bytes, 1, cudaMemcpyHostToDevice);
  s1<<<4, 257>>>(tex(a, rm), out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4 * 257; i++) printf(" %08x", bits(h[i]));
  printf("\n");
}
int main() {
  float *out, h[4 * 257];
  cudaMalloc(&out, sizeof h);
  float pairs[][2] = {{0, 1}, {1, 0}, {0, 1.1f}, {0, 12.9f}, {5.8f, 12.9f}, {-3.5f, -2.4f}, {1, 1.00000012f},
                      {0.001f, 7}, {3.14159265f, -2.71828183f}, {1e-30f, 1e30f}, {100, 101}, {1, 3}, {0.1f, 0.2f},
                      {-1, 1}, {65504, -65504}, {1.17549435e-38f, 2.3509887e-38f}, {0, 0.33333334f}, {16777216.0f, 16777218.0f}};
  cudaChannelFormatDesc c = cudaCreateChannelDesc<float>();
  for (auto &p : pairs) {
    printf("f32 %08x %08x :", bits(p[0]), bits(p[1]));
    sample1(&c, p, 8, cudaReadModeElementType, out);
  }
  float quads[][4] = {{0, 1, 2, 3}, {5.8f, 12.9f, -3.5f, -2.4f}, {0.1f, 0.2f, 0.3f, 0.4f}, {1, 1.00000012f, 1.00000024f, 1}};
  for (auto &q : quads) {
    cudaArray_t a; cudaMallocArray(&a, &c, 2, 2);
    cudaMemcpy2DToArray(a, 0, 0, q, 8, 8, 2, cudaMemcpyHostToDevice);
    s2<<<1, dim3(17, 17)>>>(tex(a, cudaReadModeElementType), out);
    cudaMemcpy(h, out, 289 * 4, cudaMemcpyDeviceToHost);
    printf("f32x2 %08x %08x %08x %08x :", bits(q[0]), bits(q[1]), bits(q[2]), bits(q[3]));
    for (int i = 0; i < 289; i++) printf(" %08x", bits(h[i]));
    printf("\n");
  }
  unsigned char u8[][2] = {{0, 255}, {255, 0}, {1, 2}, {100, 200}, {17, 250}};
  cudaChannelFormatDesc cu = cudaCreateChannelDesc<unsigned char>();
  for (auto &p : u8) {
    printf("u8 %d %d :", p[0], p[1]);
    sample1(&cu, p, 2, cudaReadModeNormalizedFloat, out);
  }
  unsigned short f16[][2] = {{0x3c00, 0x4000}, {0x0000, 0x3c01}, {0x4a40, 0xc233}, {0x7bff, 0x0001}};
  cudaChannelFormatDesc ch = cudaCreateChannelDescHalf();
  for (auto &p : f16) {
    printf("f16 %04x %04x :", p[0], p[1]);
    sample1(&ch, p, 4, cudaReadModeElementType, out);
  }
  return 0;
}
