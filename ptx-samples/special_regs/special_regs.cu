// Special registers over 3-D grids and blocks: %tid, %ntid, %ctaid, %nctaid
// in every dimension, %laneid, the %lanemask_* family and
// %dynamic_smem_size, written per thread at its linear position.
extern "C" __global__ void special_regs(unsigned *out)
{
    unsigned bl = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned tl = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
    unsigned *o = out + 16 * (bl * nthreads + tl);
    unsigned lane, lt, le, gt, ge, eq, dyn;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
    o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
    o[3] = blockIdx.x; o[4] = blockIdx.y; o[5] = blockIdx.z;
    o[6] = blockDim.x | blockDim.y << 10 | blockDim.z << 20;
    o[7] = gridDim.x | gridDim.y << 10 | gridDim.z << 20;
    o[8] = lane; o[9] = lt; o[10] = le; o[11] = gt; o[12] = ge; o[13] = eq;
    o[14] = dyn;
    o[15] = warpSize;
}
