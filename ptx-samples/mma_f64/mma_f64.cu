// mma_f64: the f64 forms of mma.sync that sm_90 adds (m16n8k4, m16n8k8,
// m16n8k16) next to m8n8k4; operands are random registers (gen_tensor.py).
// Block b is seed b: A[(b*NA + i)*32 + lane] is A register i of the lane.
#define LOAD(X, N, S) double X[N]; for (int i = 0; i < N; i++) X[i] = S[(blockIdx.x * N + i) * 32 + threadIdx.x];
#define STORE(N) for (int i = 0; i < N; i++) D[(blockIdx.x * N + i) * 32 + threadIdx.x] = d[i];

extern "C" __global__ void m8n8k4(const double *A, const double *B, const double *C, double *D)
{
    LOAD(a, 1, A) LOAD(b, 1, B) LOAD(c, 2, C) double d[2];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(d[0]), "=d"(d[1]) : "d"(a[0]), "d"(b[0]), "d"(c[0]), "d"(c[1]));
    STORE(2)
}

extern "C" __global__ void m16n8k4(const double *A, const double *B, const double *C, double *D)
{
    LOAD(a, 2, A) LOAD(b, 1, B) LOAD(c, 4, C) double d[4];
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(b[0]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
    STORE(4)
}

extern "C" __global__ void m16n8k8(const double *A, const double *B, const double *C, double *D)
{
    LOAD(a, 4, A) LOAD(b, 2, B) LOAD(c, 4, C) double d[4];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
    STORE(4)
}

extern "C" __global__ void m16n8k16(const double *A, const double *B, const double *C, double *D)
{
    LOAD(a, 8, A) LOAD(b, 4, B) LOAD(c, 4, C) double d[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%17,%18,%19};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                   "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
    STORE(4)
}
