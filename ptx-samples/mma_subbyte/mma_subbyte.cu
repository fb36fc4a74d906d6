// mma_subbyte: every sub-byte, b1, 8-bit m8n8k16 and fp8 form of mma.sync, one kernel
// each; the operands are random registers (gen_tensor.py writes this file).

extern "C" __global__ void m8n8k16_s8s8(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k16_s8s8_satfinite(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k16_u8s8(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.u8.s8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k16_u8s8_satfinite(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.s8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k32_s4s4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k32_s4s4_satfinite(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.satfinite.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_s4s4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[1], d[4];
    unsigned c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k64_s4s4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k32_u4u4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k32_u4u4_satfinite(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.u4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_u4u4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[1], d[4];
    unsigned c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k64_u4u4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k32_s4u4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.s4.u4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k32_s4u4_satfinite(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.satfinite.s32.s4.u4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_s4u4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[1], d[4];
    unsigned c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s4.u4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k64_s4u4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k32_u4s4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.u4.s4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k32_u4s4_satfinite(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.s4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_u4s4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[1], d[4];
    unsigned c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k64_u4s4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k64_s4s4_satfinite(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k128_b1_xor(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k128_b1_xor(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[1], d[4];
    unsigned c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k256_b1_xor(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m8n8k128_b1_and(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[1], b[1], d[2];
    unsigned c[2];
    for (int i = 0; i < 1; i++) a[i] = A[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k128_b1_and(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[1], d[4];
    unsigned c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 1; i++) b[i] = B[(s * 1 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k256_b1_and(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_e4m3e4m3_f32(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    float c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_e4m3e4m3_f16(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[2];
    unsigned c[2];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_e4m3e5m2_f32(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    float c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_e4m3e5m2_f16(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[2];
    unsigned c[2];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_e5m2e4m3_f32(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    float c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_e5m2e4m3_f16(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[2];
    unsigned c[2];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_e5m2e5m2_f32(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[4];
    float c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void m16n8k32_e5m2e5m2_f16(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[2], d[2];
    unsigned c[2];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}
