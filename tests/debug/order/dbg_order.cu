// dbg_order.cu — locals for `info locals` in blocks of 1 to 12 variables,
// variables read before their first assignment, and variables in every
// address space (__shared__, __device__, __constant__, local, registers).
#include <cstdio>

__device__ int g_dev[4];
__constant__ int c_tab[4] = {7, 11, 13, 17};

__device__ __noinline__ int four(int first, int second) {
  int aa = first + 1;
  int bb = second + 2;
  int cc = aa * bb;
  int dd = cc - first;
  return dd;
}

__global__ void order(int *out, int n) {
  __shared__ float sh[8];
  int alpha = threadIdx.x;
  int beta = alpha + 1;
  int gamma = beta * 2;
  float delta = gamma * 0.5f;
  int x = 3, y = 4, z = 5;
  int idx = blockIdx.x * blockDim.x + alpha;
  int count = 0;
  int total = 0;
  char c = 'a' + alpha;
  unsigned mask = 0xffu >> alpha;
  sh[alpha % 8] = delta;
  for (int j = 0; j < 2; j++) {
    int u1 = j + x, u2 = j + y, u3 = j + z;
    total += u1 + u2 + u3;
    {
      int w1 = total, w2 = w1 + 1, w3 = w2 + 1;
      int w4 = w3 + 1, w5 = w4 + 1;
      count += w1 + w2 + w3 + w4 + w5;
    }
  }
  int local_arr[3] = {alpha, beta, gamma};
  int f = four(alpha, local_arr[idx % 3]);
  if (idx < n) out[idx] = total + count + f + c + (int)mask + (int)sh[0] + c_tab[alpha % 4];
  if (alpha < 4) g_dev[alpha] = idx;
}

int main() {
  int *out;
  cudaMalloc(&out, 8 * sizeof(int));
  order<<<1, 8>>>(out, 8);
  int h[8];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("out[0] = %d, out[3] = %d, out[7] = %d\n", h[0], h[3], h[7]);
  return 0;
}
