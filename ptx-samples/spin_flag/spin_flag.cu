// Blocks that wait for each other through global memory: block b spins on a
// volatile flag until block b-1 has published its value, then publishes its
// own. The chain only completes if a spinning warp cannot starve the warp it
// waits for (on a GPU all blocks are resident; an interpreter must time-slice).
extern "C" __global__ void spin_flag(volatile int *flags, volatile int *values, int *out)
{
    unsigned b = blockIdx.x;
    if (threadIdx.x == 0) {
        int prev = 0;
        if (b > 0) {
            while (flags[b - 1] == 0)
                ;
            __threadfence();
            prev = values[b - 1];
        }
        values[b] = prev * 3 + (int)b + 1;
        __threadfence();
        flags[b] = 1;
        out[b] = prev;
    }
}
