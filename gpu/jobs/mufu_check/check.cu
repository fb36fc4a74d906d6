// check.cu — compares ptxi's ALU (libptxi_static.a, the real alu_lookup path)
// with the GPU for the .approx instructions over every f32 operand (and every
// high word of the f64 forms); div.approx/div.full over random operand pairs.
// Prints per form: cases, mismatches, the first few. Exit status 1 on any.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <omp.h>
extern "C" {
#include "../../../interp/alu.h"
}
#define UNARY(X) \
  X("rcp.approx.ftz.f32") X("rcp.approx.f32") X("rsqrt.approx.ftz.f32") X("rsqrt.approx.f32") \
  X("sqrt.approx.ftz.f32") X("sqrt.approx.f32") X("ex2.approx.ftz.f32") X("ex2.approx.f32") \
  X("lg2.approx.ftz.f32") X("lg2.approx.f32") X("sin.approx.ftz.f32") X("sin.approx.f32") \
  X("cos.approx.ftz.f32") X("cos.approx.f32") X("tanh.approx.f32")
#define NAME(s) s,
static const char *unary[] = {UNARY(NAME)};
__device__ float apply(int op, float x) {
  float r = 0;
  int k = 0;
#define CASE(s) if (op == k++) asm volatile(s " %0, %1;" : "=f"(r) : "f"(x));
  UNARY(CASE)
  return r;
}
__global__ void run1(int op, uint32_t lo, uint32_t n, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float_as_uint(apply(op, __uint_as_float(lo + i)));
}
static const char *f64ops[] = {"rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64", "rsqrt.approx.f64"};
__device__ __host__ uint32_t mix(uint64_t i, uint32_t salt) {
  uint64_t z = i * 0x9e3779b97f4a7c15ull + salt;
  z ^= z >> 31; z *= 0xbf58476d1ce4e5b9ull; z ^= z >> 29; z *= 0x94d049bb133111ebull; z ^= z >> 32;
  return (uint32_t)z;
}
__global__ void run64(int op, uint32_t lo, uint32_t n, uint64_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = __longlong_as_double((long long)((uint64_t)(lo + i) << 32 | mix(lo + i, 7))), r;
  if (op == 0) asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  else if (op == 1) asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  else asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(x));
  out[i] = (uint64_t)__double_as_longlong(r);
}
static const char *divops[] = {"div.approx.f32", "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32"};
// operands: a quarter fully random bits, a half with exponents within +-40 of 1,
// a quarter near the scaling thresholds (|b| about 2^126 or subnormal)
__device__ __host__ void operands(uint64_t i, uint32_t *a, uint32_t *b) {
  uint32_t r = mix(i, 1), s = mix(i, 2), t = mix(i, 3);
  switch (t & 3) {
  case 0: *a = r; *b = s; break;
  case 1: case 2: *a = (r & 0x807fffffu) | ((87 + (t >> 8) % 80) << 23); *b = (s & 0x807fffffu) | ((87 + (t >> 16) % 80) << 23); break;
  default: *a = r; *b = (s & 0x807fffffu) | ((t >> 8) & 1 ? (250 + (t >> 9) % 5) << 23 : ((t >> 9) & 1) << 23); break;
  }
}
__global__ void rundiv(int op, uint64_t lo, uint32_t n, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t a, b; operands(lo + i, &a, &b);
  float x = __uint_as_float(a), y = __uint_as_float(b), r;
  if (op == 0) asm volatile("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  else if (op == 1) asm volatile("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  else if (op == 2) asm volatile("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  else asm volatile("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
  out[i] = __float_as_uint(r);
}

enum { CHUNK = 1 << 26 };
static int failed;
struct tally { long bad = 0; char first[6][160]; int nfirst = 0; };
static void note(tally &t, const char *mn, const char *in, unsigned long long gpu, unsigned long long got) {
#pragma omp critical
  {
    if (t.nfirst < 6) snprintf(t.first[t.nfirst++], 160, "  %s %s -> gpu %#llx ptxi %#llx", mn, in, gpu, got);
    t.bad++;
  }
}
static void report(const char *mn, unsigned long long n, tally &t) {
  printf("%-22s %llu cases, %ld mismatches\n", mn, n, t.bad);
  for (int i = 0; i < t.nfirst; i++) printf("%s\n", t.first[i]);
  fflush(stdout);
  if (t.bad) failed = 1;
}
// usage: check [parts] [div-cases]; parts: letters f (f32 unary forms; a or b:
// their first 8 or the other 7 only), d (f64), v (div)
int main(int argc, char **argv) {
  const char *parts = argc > 1 ? argv[1] : "fdv";
  unsigned long long ndiv = argc > 2 ? strtoull(argv[2], 0, 0) : 1ull << 30;
  void *dev; cudaMalloc(&dev, (size_t)CHUNK * 8);
  std::vector<uint64_t> host(CHUNK);
  uint32_t *h32 = (uint32_t *)host.data();
  for (int op = 0; op < (int)(sizeof unary / sizeof *unary); op++) {
    if (!strchr(parts, 'f') && !strchr(parts, op < 8 ? 'a' : 'b')) continue;
    alu_op a;
    if (!alu_lookup(unary[op], 2, &a)) { printf("%s: unknown to ptxi\n", unary[op]); failed = 1; continue; }
    tally t;
    for (uint64_t lo = 0; lo < 1ull << 32; lo += CHUNK) {
      run1<<<CHUNK / 256, 256>>>(op, (uint32_t)lo, CHUNK, (uint32_t *)dev);
      cudaMemcpy(h32, dev, (size_t)CHUNK * 4, cudaMemcpyDeviceToHost);
#pragma omp parallel for schedule(static)
      for (uint32_t i = 0; i < CHUNK; i++) {
        uint64_t s[3] = {lo + i, 0, 0}, d[2] = {0, 0}; uint32_t cc = 0;
        a.fn(&a, d, s, &cc);
        if ((uint32_t)d[0] != h32[i]) { char in[32]; snprintf(in, 32, "%#llx", (unsigned long long)(lo + i)); note(t, unary[op], in, h32[i], d[0]); }
      }
    }
    report(unary[op], 1ull << 32, t);
  }
  for (int op = 0; strchr(parts, 'd') && op < 3; op++) {
    alu_op a;
    if (!alu_lookup(f64ops[op], 2, &a)) { printf("%s: unknown to ptxi\n", f64ops[op]); failed = 1; continue; }
    tally t;
    for (uint64_t lo = 0; lo < 1ull << 32; lo += CHUNK) {
      run64<<<CHUNK / 256, 256>>>(op, (uint32_t)lo, CHUNK, (uint64_t *)dev);
      cudaMemcpy(host.data(), dev, (size_t)CHUNK * 8, cudaMemcpyDeviceToHost);
#pragma omp parallel for schedule(static)
      for (uint32_t i = 0; i < CHUNK; i++) {
        uint64_t x = (lo + i) << 32 | mix(lo + i, 7);
        uint64_t s[3] = {x, 0, 0}, d[2] = {0, 0}; uint32_t cc = 0;
        a.fn(&a, d, s, &cc);
        if (d[0] != host[i]) { char in[32]; snprintf(in, 32, "%#llx", (unsigned long long)x); note(t, f64ops[op], in, host[i], d[0]); }
      }
    }
    report(f64ops[op], 1ull << 32, t);
  }
  for (int op = 0; strchr(parts, 'v') && op < 4; op++) {
    alu_op a;
    if (!alu_lookup(divops[op], 3, &a)) { printf("%s: unknown to ptxi\n", divops[op]); failed = 1; continue; }
    tally t;
    for (uint64_t lo = 0; lo < ndiv; lo += CHUNK) {
      rundiv<<<CHUNK / 256, 256>>>(op, lo, CHUNK, (uint32_t *)dev);
      cudaMemcpy(h32, dev, (size_t)CHUNK * 4, cudaMemcpyDeviceToHost);
#pragma omp parallel for schedule(static)
      for (uint32_t i = 0; i < CHUNK; i++) {
        uint32_t x, y; operands(lo + i, &x, &y);
        uint64_t s[3] = {x, y, 0}, d[2] = {0, 0}; uint32_t cc = 0;
        a.fn(&a, d, s, &cc);
        if ((uint32_t)d[0] != h32[i]) { char in[48]; snprintf(in, 48, "%#x %#x", x, y); note(t, divops[op], in, h32[i], d[0]); }
      }
    }
    report(divops[op], ndiv, t);
  }
  return failed;
}
