// debug_demo.cu — kernels to walk through with `ptxi debug` (tools/DEBUGGER.md):
// divergence, a call, shared and local memory, a brkpt instruction.
__constant__ int scale[4] = {2, 3, 5, 7};
__device__ int hits;

__device__ __noinline__ int square_plus(int x, int k) {
  int r = x * x;
  return r + k;
}

extern "C" __global__ void demo(const int *in, int *out, int n) {
  __shared__ int tile[64];
  int local[4];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  tile[t] = v;
  __syncthreads();
  for (int k = 0; k < 4; k++) local[k] = tile[(t + k) % blockDim.x];
  int acc;
  if (t % 2 == 0) {
    acc = square_plus(v, local[1]);
  } else {
    acc = v - local[t % 4] * scale[t % 4];
  }
  if (i < n) out[i] = acc;
}

extern "C" __global__ void stop_here(int *out) {
  out[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 6) atomicAdd(&hits, 1);
  if (threadIdx.x == 3) asm volatile("brkpt;");
  out[threadIdx.x] += 1;
}

// The first warp waits at barrier 1 for 64 threads; the second never comes.
extern "C" __global__ void deadlock(int *out) {
  if (threadIdx.x < 32) asm volatile("bar.sync 1, 64;");
  out[threadIdx.x] = 1;
}

// Spins until *flag is set: stopped with Ctrl-C in the debugger.
extern "C" __global__ void spin(int *flag) {
  while (atomicAdd(flag, 0) == 0) {
  }
}
