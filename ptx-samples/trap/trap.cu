// trap: a thread executes the PTX trap instruction; the launch fails and the
// context is unusable afterwards. A second run line passes a flag that keeps
// every thread off the trap, so the kernel completes normally.
#include <cstdio>

extern "C" __global__ void trap_kernel(int *out, int trap_thread)
{
    unsigned t = threadIdx.x;
    out[t] = (int)t + 1;
    if ((int)t == trap_thread)
        __trap();
    out[t] += 100;
}
