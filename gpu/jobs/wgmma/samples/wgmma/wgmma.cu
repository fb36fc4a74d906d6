// wgmma: one kernel per form of wgmma.mma_async (sm_90a); gen_wgmma.py writes
// this file. Operands are random elements made from a hash of (seed, index).
#include <stdint.h>

__device__ unsigned mix(unsigned x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

// One random element of type t (0 f16, 1 bf16, 2 tf32, 3 e4m3, 4 e5m2, 5 raw byte).
__device__ unsigned elem(int t, unsigned h) {
    unsigned s = h & 1, z = (h >> 24) % 25 == 0;
    switch (t) {
    case 0: return z ? s << 15 : (h >> 24) % 25 == 1 ? s << 15 | (h >> 1 & 0x3FF)
                                : s << 15 | ((h >> 1) % 17 + 7) << 10 | (h >> 8 & 0x3FF);
    case 1: return z ? s << 15 : s << 15 | ((h >> 1) % 41 + 107) << 7 | (h >> 8 & 0x7F);
    case 2: return z ? s << 31 : s << 31 | ((h >> 1) % 41 + 107) << 23 | (mix(h) & 0x7FFFFF);
    case 3: { unsigned b = h >> 8 & 0xFF; return (b & 0x7F) == 0x7F ? b ^ 1 : b; }
    case 4: { unsigned b = h >> 8 & 0xFF; return (b & 0x7C) == 0x7C ? b ^ 0x40 : b; }
    default: return h >> 8 & 0xFF;
    }
}

// Fills n bytes of shared memory from byte `from` with elements of type t.
__device__ void fill(unsigned char *sm, unsigned from, unsigned n, int t, unsigned seed) {
    for (unsigned w = threadIdx.x; w < n / 4; w += blockDim.x) {
        unsigned i = from / 4 + w, v = 0;
        if (t == 2) v = elem(2, mix(seed * 0x9E3779B9u + i));
        else if (t <= 1) v = elem(t, mix(seed * 0x9E3779B9u + 2 * i)) | elem(t, mix(seed * 0x9E3779B9u + 2 * i + 1)) << 16;
        else for (int b = 0; b < 4; b++) v |= elem(t, mix(seed * 0x9E3779B9u + 4 * i + b)) << 8 * b;
        ((unsigned *)sm)[i] = v;
    }
}

// Accumulator register r of this thread: f32 (0), two f16 (1) or s32 (2).
__device__ unsigned acc(int t, unsigned seed, int r) {
    unsigned h = mix(seed * 0x85EBCA6Bu + r * 128 + threadIdx.x + 0x1234567u);
    if (t == 0) return (h >> 24) % 25 == 0 ? (h & 1) << 31 : (h & 1) << 31 | ((h >> 1) % 25 + 115) << 23 | (mix(h) & 0x7FFFFF);
    if (t == 1) return elem(0, h) | elem(0, mix(h)) << 16;
    return h % 3 == 0 ? 0x7FFFFFFFu - (h >> 12) : h % 3 == 1 ? 0x80000000u + (h >> 12) : mix(h);
}

extern __shared__ __align__(1024) unsigned char smem[];

extern "C" __global__ void __launch_bounds__(128) f16_ss_n8(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %6, 0; wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 4; i++) D[(blockIdx.x * 4 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16_ss_n24(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[12];
    for (int i = 0; i < 12; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %14, 0; wgmma.mma_async.sync.aligned.m64n24k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11}, %12, %13, p, 1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 12; i++) D[(blockIdx.x * 12 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16_ss_n64(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[32];
    for (int i = 0; i < 32; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %34, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 32; i++) D[(blockIdx.x * 32 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16_ss_n256(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[128];
    for (int i = 0; i < 128; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %130, 0; wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]), "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]), "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]), "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]), "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]), "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95]), "+r"(d[96]), "+r"(d[97]), "+r"(d[98]), "+r"(d[99]), "+r"(d[100]), "+r"(d[101]), "+r"(d[102]), "+r"(d[103]), "+r"(d[104]), "+r"(d[105]), "+r"(d[106]), "+r"(d[107]), "+r"(d[108]), "+r"(d[109]), "+r"(d[110]), "+r"(d[111]), "+r"(d[112]), "+r"(d[113]), "+r"(d[114]), "+r"(d[115]), "+r"(d[116]), "+r"(d[117]), "+r"(d[118]), "+r"(d[119]), "+r"(d[120]), "+r"(d[121]), "+r"(d[122]), "+r"(d[123]), "+r"(d[124]), "+r"(d[125]), "+r"(d[126]), "+r"(d[127]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 128; i++) D[(blockIdx.x * 128 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16_rs_n16(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[8];
    for (int i = 0; i < 8; i++) d[i] = acc(0, cseed + seed, i);
    unsigned a[4];
    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %13, 0; wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 8; i++) D[(blockIdx.x * 8 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16_rs_n64(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[32];
    for (int i = 0; i < 32; i++) d[i] = acc(0, cseed + seed, i);
    unsigned a[4];
    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %37, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 32; i++) D[(blockIdx.x * 32 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) bf16_ss_n8(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 1, seed);
    fill(smem, 32768, 65536, 1, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %6, 0; wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 4; i++) D[(blockIdx.x * 4 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) bf16_ss_n64(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 1, seed);
    fill(smem, 32768, 65536, 1, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[32];
    for (int i = 0; i < 32; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %34, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 32; i++) D[(blockIdx.x * 32 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) bf16_ss_n256(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 1, seed);
    fill(smem, 32768, 65536, 1, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[128];
    for (int i = 0; i < 128; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %130, 0; wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]), "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]), "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]), "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]), "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]), "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95]), "+r"(d[96]), "+r"(d[97]), "+r"(d[98]), "+r"(d[99]), "+r"(d[100]), "+r"(d[101]), "+r"(d[102]), "+r"(d[103]), "+r"(d[104]), "+r"(d[105]), "+r"(d[106]), "+r"(d[107]), "+r"(d[108]), "+r"(d[109]), "+r"(d[110]), "+r"(d[111]), "+r"(d[112]), "+r"(d[113]), "+r"(d[114]), "+r"(d[115]), "+r"(d[116]), "+r"(d[117]), "+r"(d[118]), "+r"(d[119]), "+r"(d[120]), "+r"(d[121]), "+r"(d[122]), "+r"(d[123]), "+r"(d[124]), "+r"(d[125]), "+r"(d[126]), "+r"(d[127]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 128; i++) D[(blockIdx.x * 128 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) bf16_rs_n32(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 1, seed);
    fill(smem, 32768, 65536, 1, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[16];
    for (int i = 0; i < 16; i++) d[i] = acc(0, cseed + seed, i);
    unsigned a[4];
    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %21, 0; wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19}, %20, p, 1, 1, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 16; i++) D[(blockIdx.x * 16 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) tf32_ss_n8(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 2, seed);
    fill(smem, 32768, 65536, 2, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %6, 0; wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0, %1, %2, %3}, %4, %5, p, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 4; i++) D[(blockIdx.x * 4 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) tf32_ss_n64(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 2, seed);
    fill(smem, 32768, 65536, 2, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[32];
    for (int i = 0; i < 32; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %34, 0; wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 32; i++) D[(blockIdx.x * 32 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) tf32_rs_n16(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 2, seed);
    fill(smem, 32768, 65536, 2, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[8];
    for (int i = 0; i < 8; i++) d[i] = acc(0, cseed + seed, i);
    unsigned a[4];
    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %13, 0; wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 8; i++) D[(blockIdx.x * 8 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) e4m3_ss_n8(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 3, seed);
    fill(smem, 32768, 65536, 3, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %6, 0; wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0, %1, %2, %3}, %4, %5, p, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 4; i++) D[(blockIdx.x * 4 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) e4m3_ss_n64(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 3, seed);
    fill(smem, 32768, 65536, 3, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[32];
    for (int i = 0; i < 32; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %34, 0; wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 32; i++) D[(blockIdx.x * 32 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) e5m2e4m3_ss_n16(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 4, seed);
    fill(smem, 32768, 65536, 3, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[8];
    for (int i = 0; i < 8; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %10, 0; wgmma.mma_async.sync.aligned.m64n16k32.f32.e5m2.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 8; i++) D[(blockIdx.x * 8 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) e4m3e5m2_rs_n32(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 3, seed);
    fill(smem, 32768, 65536, 4, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[16];
    for (int i = 0; i < 16; i++) d[i] = acc(0, cseed + seed, i);
    unsigned a[4];
    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %21, 0; wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e5m2 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19}, %20, p, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 16; i++) D[(blockIdx.x * 16 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) e5m2h_ss_n16(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 4, seed);
    fill(smem, 32768, 65536, 4, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = acc(1, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %6, 0; wgmma.mma_async.sync.aligned.m64n16k32.f16.e5m2.e5m2 {%0, %1, %2, %3}, %4, %5, p, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 4; i++) D[(blockIdx.x * 4 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) s8_ss_n8(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 5, seed);
    fill(smem, 32768, 65536, 5, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = acc(2, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %6, 0; wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%0, %1, %2, %3}, %4, %5, p; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 4; i++) D[(blockIdx.x * 4 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) s8_ss_n64(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 5, seed);
    fill(smem, 32768, 65536, 5, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[32];
    for (int i = 0; i < 32; i++) d[i] = acc(2, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %34, 0; wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 32; i++) D[(blockIdx.x * 32 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) u8s8_rs_n16(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 5, seed);
    fill(smem, 32768, 65536, 5, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[8];
    for (int i = 0; i < 8; i++) d[i] = acc(2, cseed + seed, i);
    unsigned a[4];
    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %13, 0; wgmma.mma_async.sync.aligned.m64n16k32.s32.u8.s8 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 8; i++) D[(blockIdx.x * 8 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) s8u8sat_ss_n24(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 5, seed);
    fill(smem, 32768, 65536, 5, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[12];
    for (int i = 0; i < 12; i++) d[i] = acc(2, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %14, 0; wgmma.mma_async.sync.aligned.m64n24k32.satfinite.s32.s8.u8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11}, %12, %13, p; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 12; i++) D[(blockIdx.x * 12 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) u8_ss_n8(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 5, seed);
    fill(smem, 32768, 65536, 5, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = acc(2, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %6, 0; wgmma.mma_async.sync.aligned.m64n8k32.s32.u8.u8 {%0, %1, %2, %3}, %4, %5, p; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 4; i++) D[(blockIdx.x * 4 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16tt_ss_n64(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[32];
    for (int i = 0; i < 32; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %34, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 32; i++) D[(blockIdx.x * 32 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) bf16tb_ss_n16(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 1, seed);
    fill(smem, 32768, 65536, 1, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[8];
    for (int i = 0; i < 8; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %10, 0; wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 8; i++) D[(blockIdx.x * 8 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16rtb_rs_n32(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[16];
    for (int i = 0; i < 16; i++) d[i] = acc(0, cseed + seed, i);
    unsigned a[4];
    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %21, 0; wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19}, %20, p, 1, 1, 1; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 16; i++) D[(blockIdx.x * 16 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16neg_ss_n16(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[8];
    for (int i = 0; i < 8; i++) d[i] = acc(0, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %10, 0; wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, -1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 8; i++) D[(blockIdx.x * 8 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) bf16rneg_rs_n16(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 1, seed);
    fill(smem, 32768, 65536, 1, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[8];
    for (int i = 0; i < 8; i++) d[i] = acc(0, cseed + seed, i);
    unsigned a[4];
    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %13, 0; wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, -1, -1, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 8; i++) D[(blockIdx.x * 8 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16h_ss_n8(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[2];
    for (int i = 0; i < 2; i++) d[i] = acc(1, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %4, 0; wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0, %1}, %2, %3, p, 1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 2; i++) D[(blockIdx.x * 2 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16h_ss_n64(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[16];
    for (int i = 0; i < 16; i++) d[i] = acc(1, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %18, 0; wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, p, 1, 1, 0, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 16; i++) D[(blockIdx.x * 16 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) f16hr_rs_n16(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 0, seed);
    fill(smem, 32768, 65536, 0, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = acc(1, cseed + seed, i);
    unsigned a[4];
    for (int i = 0; i < 4; i++) a[i] = ((unsigned *)smem)[i * 128 + threadIdx.x];
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %9, 0; wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, 1, 1, 0; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 4; i++) D[(blockIdx.x * 4 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) b1_ss_n8(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 5, seed);
    fill(smem, 32768, 65536, 5, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = acc(2, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %6, 0; wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%0, %1, %2, %3}, %4, %5, p; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 4; i++) D[(blockIdx.x * 4 + i) * 128 + threadIdx.x] = d[i];
}

extern "C" __global__ void __launch_bounds__(128) b1_ss_n64(unsigned cseed, uint64_t da, uint64_t db, unsigned scale_d, unsigned reps, unsigned step, unsigned *D)
{
    unsigned seed = blockIdx.x + 1;
    fill(smem, 0, 32768, 5, seed);
    fill(smem, 32768, 65536, 5, seed + 100);
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    uint64_t base = (uint64_t)(__cvta_generic_to_shared(smem) >> 4);
    uint64_t dA = da + base, dB = db + base;
    unsigned d[32];
    for (int i = 0; i < 32; i++) d[i] = acc(2, cseed + seed, i);
    for (unsigned r = 0; r < reps; r++) {
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %34, 0; wgmma.mma_async.sync.aligned.m64n64k256.s32.b1.b1.and.popc {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p; }" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]) : "l"(dA), "l"(dB), "r"(scale_d) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        dA += step, dB += step;
    }
    for (int i = 0; i < 32; i++) D[(blockIdx.x * 32 + i) * 128 + threadIdx.x] = d[i];
}
