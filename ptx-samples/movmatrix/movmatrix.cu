// movmatrix: each warp transposes the 8x8 b16 matrix its lanes hold (lane l:
// row l/4, columns 2(l%4) and 2(l%4)+1, low half first), into a fresh register
// and in place. Every element is distinct and tagged with its warp.
extern "C" __global__ void movm(unsigned seed, unsigned *out)
{
    unsigned t = threadIdx.x, lane = t & 31, warp = blockIdx.x * (blockDim.x / 32) + t / 32;
    unsigned lo = (warp << 12 | 2 * lane) ^ seed, hi = (warp << 12 | (2 * lane + 1)) ^ (seed >> 16);
    unsigned a = (lo & 0xffff) | hi << 16, d;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
    unsigned gid = blockIdx.x * blockDim.x + t;
    out[2 * gid] = d;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %0;" : "+r"(a));   // in place
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %0;" : "+r"(a));   // and back
    out[2 * gid + 1] = a;
}
