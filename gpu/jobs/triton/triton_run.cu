// triton_run.cu — runs the Triton-compiled PTX of tests/interp/triton/ on the GPU
// through the driver API, launched as Triton's launcher launches it (128 threads,
// the kernel's dynamic shared memory, null scratch pointers), and writes the
// inputs and the GPU's outputs as raw little-endian files for `ptxi run`.
#include <cuda.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#define CK(x) do { CUresult e = (x); if (e) { const char *s; cuGetErrorName(e, &s); fprintf(stderr, "%s: %s\n", #x, s); exit(1); } } while (0)
enum { R = 64, C = 781, N = 5000 };
static float rnd(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return (float)((int32_t)(*s >> 8) - (1 << 23)) / (float)(1 << 21); }
static void put(const char *dir, const char *name, const void *p, size_t n) {
  char path[512]; snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb"); fwrite(p, 1, n, f); fclose(f);
}
static CUdeviceptr up(const void *p, size_t n) { CUdeviceptr d; CK(cuMemAlloc(&d, n)); if (p) CK(cuMemcpyHtoD(d, p, n)); else CK(cuMemsetD8(d, 0, n)); return d; }
static CUfunction fn(const char *cubin, const char *name) { CUmodule m; CUfunction f; CK(cuModuleLoad(&m, cubin)); CK(cuModuleGetFunction(&f, m, name)); return f; }
int main(int argc, char **argv) {
  const char *res = argv[1];
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuCtxCreate(&ctx, NULL, 0, dev));
  CUdeviceptr null = 0;
  { std::vector<float> x(N), y(N), o(N); uint32_t s = 1;
    for (int i = 0; i < N; i++) x[i] = rnd(&s), y[i] = rnd(&s);
    CUdeviceptr dx = up(x.data(), N * 4), dy = up(y.data(), N * 4), dout = up(NULL, N * 4); uint32_t n = N;
    void *args[] = {&dx, &dy, &dout, &n, &null, &null};
    CK(cuLaunchKernel(fn("add.cubin", "add_kernel"), (N + 1023) / 1024, 1, 1, 128, 1, 1, 0, 0, args, 0));
    CK(cuCtxSynchronize()); CK(cuMemcpyDtoH(o.data(), dout, N * 4));
    put(res, "add.x.bin", x.data(), N * 4); put(res, "add.y.bin", y.data(), N * 4); put(res, "add.out.bin", o.data(), N * 4); }
  { std::vector<float> a(R * C), o(R * C); uint32_t s = 2;
    for (auto &v : a) v = rnd(&s);
    CUdeviceptr din = up(a.data(), R * C * 4), dout = up(NULL, R * C * 4); int32_t cols = C;
    void *args[] = {&dout, &din, &cols, &cols, &cols, &null, &null};
    CK(cuLaunchKernel(fn("softmax.cubin", "softmax_kernel"), R, 1, 1, 128, 1, 1, 16, 0, args, 0));
    CK(cuCtxSynchronize()); CK(cuMemcpyDtoH(o.data(), dout, R * C * 4));
    put(res, "softmax.in.bin", a.data(), R * C * 4); put(res, "softmax.out.bin", o.data(), R * C * 4); }
  { std::vector<float> a(R * C), o(R * C), w(C), b(C); uint32_t s = 3;
    for (auto &v : a) v = rnd(&s);
    for (int i = 0; i < C; i++) w[i] = rnd(&s), b[i] = rnd(&s);
    CUdeviceptr dx = up(a.data(), R * C * 4), dy = up(NULL, R * C * 4), dw = up(w.data(), C * 4), db = up(b.data(), C * 4);
    int32_t stride = C, n = C; float eps = 1e-5f;
    void *args[] = {&dx, &dy, &dw, &db, &stride, &n, &eps, &null, &null};
    CK(cuLaunchKernel(fn("layernorm.cubin", "layernorm_kernel"), R, 1, 1, 128, 1, 1, 16, 0, args, 0));
    CK(cuCtxSynchronize()); CK(cuMemcpyDtoH(o.data(), dy, R * C * 4));
    put(res, "layernorm.x.bin", a.data(), R * C * 4); put(res, "layernorm.w.bin", w.data(), C * 4);
    put(res, "layernorm.b.bin", b.data(), C * 4); put(res, "layernorm.out.bin", o.data(), R * C * 4); }
  printf("ok\n");
  return 0;
}
