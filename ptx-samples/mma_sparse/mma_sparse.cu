// mma_sparse: mma.sp and mma.sp::ordered_metadata in every shape and type, every
// sparsity selector; operands and metadata are random registers (the metadata
// holds valid sorted index pairs); gen_tensor.py writes this file.

extern "C" __global__ void sp_m16n8k16_f16_f32(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[2], d[4];
    float c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 2: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 2;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 3: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 3;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 6: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 2;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 7: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 3;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k16_f16_f16(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[2], d[2];
    unsigned c[2];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4, %5}, {%6, %7}, %8, 0;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4, %5}, {%6, %7}, %8, 1;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 2: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4, %5}, {%6, %7}, %8, 2;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 3: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4, %5}, {%6, %7}, %8, 3;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4, %5}, {%6, %7}, %8, 0;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4, %5}, {%6, %7}, %8, 1;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 6: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4, %5}, {%6, %7}, %8, 2;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 7: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4, %5}, {%6, %7}, %8, 3;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k32_f16_f32(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[4], d[4];
    float c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) b[i] = B[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k32_f16_f16(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[4], d[2];
    unsigned c[2];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) b[i] = B[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 2; i++) c[i] = C[(s * 2 + i) * 32 + l];
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7, %8, %9}, {%10, %11}, %12, 0;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7, %8, %9}, {%10, %11}, %12, 1;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7, %8, %9}, {%10, %11}, %12, 0;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7, %8, %9}, {%10, %11}, %12, 1;" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 2; i++) D[(o * 2 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k16_bf16(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[2], d[4];
    float c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 2: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 2;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 3: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 3;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 6: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 2;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 7: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 3;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k32_bf16(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[4], d[4];
    float c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) b[i] = B[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k8_tf32(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[2], d[4];
    float c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 2: asm volatile("mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 2;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 3: asm volatile("mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 3;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 6: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 2;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 7: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 3;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k16_tf32(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[4], d[4];
    float c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) b[i] = B[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 1;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k32_s8(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k32_u8s8_satfinite(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k64_u8(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[4], d[4];
    unsigned c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) b[i] = B[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k64.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k64_s4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[2], b[2], d[4];
    unsigned c[4];
    for (int i = 0; i < 2; i++) a[i] = A[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 2; i++) b[i] = B[(s * 2 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 1: asm volatile("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 5: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k128_u4s4(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[4], d[4];
    unsigned c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) b[i] = B[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = C[(s * 4 + i) * 32 + l];
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k128.row.col.s32.u4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.s32.u4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k64_e4m3(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[4], d[4];
    float c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) b[i] = B[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}

extern "C" __global__ void sp_m16n8k64_e5m2e4m3(const unsigned *A, const unsigned *B, const unsigned *C, const unsigned *E, unsigned *D)
{
    int l = threadIdx.x, s = blockIdx.x, o = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + s;
    unsigned a[4], b[4], d[4];
    float c[4];
    for (int i = 0; i < 4; i++) a[i] = A[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) b[i] = B[(s * 4 + i) * 32 + l];
    for (int i = 0; i < 4; i++) c[i] = __uint_as_float(C[(s * 4 + i) * 32 + l]);
    unsigned e = E[s * 32 + l];
    switch (blockIdx.z * 4 + blockIdx.y) {
    case 0: asm volatile("mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    case 4: asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;" : "=f"(*(float *)&d[0]), "=f"(*(float *)&d[1]), "=f"(*(float *)&d[2]), "=f"(*(float *)&d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e)); break;
    default: return;
    }
    for (int i = 0; i < 4; i++) D[(o * 4 + i) * 32 + l] = d[i];
}
