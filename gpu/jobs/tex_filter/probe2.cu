// probe2.cu — (1) the trilinear weights: a 2x2x2 float texture with a single texel 1 and
// the others 0 returns that corner's weight / 256, over a grid of fractions (a, b, c);
// (2) the precision of normalized coordinates: a 65536-texel float texture holding its
// index, sampled (linear and point) near texel 1000 at offsets down to 2^-30.
#include <cstdio>
#include <cstdint>
#include <cstring>
__constant__ int FR[12] = {0, 1, 17, 51, 64, 97, 127, 128, 129, 164, 200, 255};
__global__ void k3(cudaTextureObject_t t, float *out) {
  int a = FR[threadIdx.x], b = FR[threadIdx.y], c = FR[blockIdx.x];
  out[(blockIdx.x * 12 + threadIdx.y) * 12 + threadIdx.x] =
      tex3D<float>(t, 0.5f + a / 256.0f, 0.5f + b / 256.0f, 0.5f + c / 256.0f);
}
__global__ void kn(cudaTextureObject_t lin, cudaTextureObject_t pt, float *out) {
  int k = threadIdx.x;   // offsets: k/256 texel plus 2^-(10+j) normalized, j = blockIdx.x
  float v = (1000.0f + 0.5f + k / 256.0f) / 65536.0f + (blockIdx.y ? -1.0f : 1.0f) * ldexpf(1.0f, -(10 + (int)blockIdx.x));
  out[(blockIdx.y * 21 + blockIdx.x) * 512 + k] = tex1D<float>(lin, v);
  out[(blockIdx.y * 21 + blockIdx.x) * 512 + 256 + k] = tex1D<float>(pt, v);
}
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static cudaTextureObject_t tex(cudaArray_t a, bool lin, bool norm) {
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
  cudaTextureDesc td = {}; td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint; td.normalizedCoords = norm;
  cudaTextureObject_t t; cudaCreateTextureObject(&t, &rd, &td, NULL); return t;
}
int main() {
  float *out; static float h[2 * 21 * 512];
  cudaMalloc(&out, sizeof h);
  cudaChannelFormatDesc c = cudaCreateChannelDesc<float>();
  for (int corner = 0; corner < 8; corner++) {
    float v[8] = {}; v[corner] = 1;   // index (z*2 + y)*2 + x
    cudaArray_t a; cudaMalloc3DArray(&a, &c, make_cudaExtent(2, 2, 2));
    cudaMemcpy3DParms p = {}; p.srcPtr = make_cudaPitchedPtr(v, 8, 2, 2); p.dstArray = a;
    p.extent = make_cudaExtent(2, 2, 2); p.kind = cudaMemcpyHostToDevice; cudaMemcpy3D(&p);
    k3<<<12, dim3(12, 12)>>>(tex(a, true, false), out);
    cudaMemcpy(h, out, 1728 * 4, cudaMemcpyDeviceToHost);
    printf("3dw %d :", corner);
    for (int i = 0; i < 1728; i++) printf(" %d", (int)(h[i] * 256.0f + 0.5f) | (h[i] * 256.0f != (int)(h[i] * 256.0f + 0.5f) ? 1 << 20 : 0));
    printf("\n");
  }
  static float ramp[65536];
  for (int i = 0; i < 65536; i++) ramp[i] = i;
  cudaArray_t r; cudaMallocArray(&r, &c, 65536);
  cudaMemcpy2DToArray(r, 0, 0, ramp, sizeof ramp, sizeof ramp, 1, cudaMemcpyHostToDevice);
  kn<<<dim3(21, 2), 256>>>(tex(r, true, true), tex(r, false, true), out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  for (int s = 0; s < 42; s++) {
    printf("norm %c2^-%d :", s / 21 ? '-' : '+', 10 + s % 21);
    for (int i = 0; i < 512; i++) printf(" %08x", bits(h[s * 512 + i]));
    printf("\n");
  }
  return 0;
}
