// The CUDA guide's mutex with exponential __nanosleep back-off. Every thread
// of every block takes the lock (so lanes of one warp contend with each other,
// which needs independent thread scheduling), does a non-atomic
// read-modify-write of shared state and releases it. Any lost update shows.
__device__ void mutex_lock(unsigned int *mutex)
{
    unsigned int ns = 8;
    while (atomicCAS(mutex, 0, 1) == 1) {
        __nanosleep(ns);
        if (ns < 256)
            ns *= 2;
    }
    __threadfence();
}

__device__ void mutex_unlock(unsigned int *mutex)
{
    __threadfence();
    atomicExch(mutex, 0);
}

// state[0]: the lock, state[1]: counter, state[2]: sum, state[3]: xor of values
extern "C" __global__ void nanosleep_mutex(unsigned *state)
{
    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    volatile unsigned *v = state;
    mutex_lock(&state[0]);
    unsigned c = v[1];
    v[1] = c + 1;
    v[2] = v[2] + id * 3;
    v[3] = v[3] ^ (id * 0x9e3779b9u);
    mutex_unlock(&state[0]);
}
