// dump.cu — every result of the f32 approximate instructions over the binades
// that determine them, plus random operands over the whole range, so their
// hardware algorithm can be studied off the GPU. Each dump <name>.d32 holds the
// differences between consecutive results' bits (int32 little-endian; the
// first entry is the first result), inputs counting up bit pattern by pattern
// from <lo>; random.bin holds (op, input, result) triples of uint32.
// With arguments `dump <op> <lo-hex> <hi-hex> ...` it dumps only those ranges
// (bit patterns lo..hi-1; ops by name as in ops.txt) and skips random.bin.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#define OPS(X) \
  X(rcp_ftz, "rcp.approx.ftz.f32") X(rcp, "rcp.approx.f32") X(rsqrt_ftz, "rsqrt.approx.ftz.f32") \
  X(rsqrt, "rsqrt.approx.f32") X(sqrt_ftz, "sqrt.approx.ftz.f32") X(sqrt, "sqrt.approx.f32") \
  X(ex2_ftz, "ex2.approx.ftz.f32") X(ex2, "ex2.approx.f32") X(lg2_ftz, "lg2.approx.ftz.f32") \
  X(lg2, "lg2.approx.f32") X(sin_ftz, "sin.approx.ftz.f32") X(sin, "sin.approx.f32") \
  X(cos_ftz, "cos.approx.ftz.f32") X(cos, "cos.approx.f32") X(tanh, "tanh.approx.f32")
#define ENUM(n, s) OP_##n,
enum { OPS(ENUM) NOPS };
#define NAME(n, s) #n,
static const char *names[] = {OPS(NAME)};
__device__ float apply(int op, float x) {
  float r = 0;
  switch (op) {
#define CASE(n, s) case OP_##n: asm volatile(s " %0, %1;" : "=f"(r) : "f"(x)); break;
    OPS(CASE)
  }
  return r;
}
__global__ void run(int op, uint32_t lo, uint32_t n, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float_as_uint(apply(op, __uint_as_float(lo + i)));
}
__global__ void run_list(int op, const uint32_t *in, uint32_t n, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float_as_uint(apply(op, __uint_as_float(in[i])));
}
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
int main(int argc, char **argv) {
  struct { int op; float lo, hi; const char *tag; } d[] = {
    {OP_rcp_ftz, 1, 2, "1_2"}, {OP_rsqrt_ftz, 1, 4, "1_4"}, {OP_sqrt_ftz, 1, 4, "1_4"},
    {OP_ex2_ftz, 0.5f, 1, "0.5_1"}, {OP_ex2_ftz, 0.25f, 0.5f, "0.25_0.5"}, {OP_ex2_ftz, 1, 2, "1_2"},
    {OP_ex2_ftz, -1, -0.5f, "-1_-0.5"}, {OP_lg2_ftz, 1, 2, "1_2"}, {OP_lg2_ftz, 2, 4, "2_4"},
    {OP_tanh, 0.5f, 1, "0.5_1"}, {OP_tanh, 1, 2, "1_2"}, {OP_sin_ftz, 1, 2, "1_2"}, {OP_cos_ftz, 1, 2, "1_2"},
  };
  uint32_t *dev, *host = (uint32_t *)malloc(sizeof(uint32_t) << 24);
  int32_t *diff = (int32_t *)malloc(sizeof(int32_t) << 24);
  cudaMalloc(&dev, sizeof(uint32_t) << 24);
  if (argc > 1) {
    for (int a = 1; a + 2 < argc; a += 3) {
      int op = 0;
      while (op < NOPS && strcmp(names[op], argv[a])) op++;
      uint32_t lo = (uint32_t)strtoul(argv[a + 1], 0, 16), hi = (uint32_t)strtoul(argv[a + 2], 0, 16);
      if (op == NOPS || hi <= lo || hi - lo > (1u << 24)) { fprintf(stderr, "bad range %s\n", argv[a]); return 1; }
      uint32_t n = hi - lo;
      run<<<(n + 255) / 256, 256>>>(op, lo, n, dev);
      cudaMemcpy(host, dev, n * 4, cudaMemcpyDeviceToHost);
      for (uint32_t i = 0; i < n; i++) diff[i] = (int32_t)(host[i] - (i ? host[i - 1] : 0));
      char path[128]; snprintf(path, sizeof path, "%s.%08x_%08x.%08x.d32", names[op], lo, hi, lo);
      FILE *f = fopen(path, "wb"); fwrite(diff, 4, n, f); fclose(f);
      printf("%s n=%u\n", path, n);
    }
    return 0;
  }
  for (auto &e : d) {
    uint32_t lo = bits(e.lo), hi = bits(e.hi), n;
    if (e.lo < 0) { lo = bits(e.hi) ; hi = bits(e.lo); }  // negative: count up the magnitude from -0.5 to -1
    n = hi - lo;
    run<<<(n + 255) / 256, 256>>>(e.op, lo, n, dev);
    cudaMemcpy(host, dev, n * 4, cudaMemcpyDeviceToHost);
    for (uint32_t i = 0; i < n; i++) diff[i] = (int32_t)(host[i] - (i ? host[i - 1] : 0));
    char path[128]; snprintf(path, sizeof path, "%s.%s.%08x.d32", names[e.op], e.tag, lo);
    FILE *f = fopen(path, "wb"); fwrite(diff, 4, n, f); fclose(f);
    printf("%s n=%u\n", path, n);
  }
  enum { M = 1 << 16 };
  uint32_t *in = (uint32_t *)malloc(M * 4), *din; cudaMalloc(&din, M * 4);
  FILE *f = fopen("random.bin", "wb");
  uint64_t s = 88172645463325252ull;
  for (int op = 0; op < NOPS; op++) {
    for (int i = 0; i < M; i++) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      uint32_t r = (uint32_t)s;
      if (i & 1) { int e = 127 - 40 + (int)((s >> 32) % 80); r = (r & 0x807fffffu) | ((uint32_t)e << 23); }
      else if ((i & 3) == 2) r &= 0x807fffffu;          // subnormals and zeros
      in[i] = r;
    }
    cudaMemcpy(din, in, M * 4, cudaMemcpyHostToDevice);
    run_list<<<M / 256, 256>>>(op, din, M, dev);
    cudaMemcpy(host, dev, M * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < M; i++) { uint32_t t[3] = {(uint32_t)op, in[i], host[i]}; fwrite(t, 4, 3, f); }
  }
  fclose(f);
  FILE *o = fopen("ops.txt", "w");
  for (int op = 0; op < NOPS; op++) fprintf(o, "%d %s\n", op, names[op]);
  fclose(o);
  printf("done\n");
  return 0;
}
