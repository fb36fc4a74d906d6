// plugin_lib.cu — device code in a shared object that plugin_host.cu opens with dlopen
// after it has used the runtime: its fatbinary is registered late and must still load.
#include <cstdio>

__global__ void plugin_kernel(int *p) { p[0] = 4242; }

extern "C" int plugin_run() {
    int *d, h = 0;
    cudaMalloc(&d, sizeof h);
    plugin_kernel<<<1, 1>>>(d);
    cudaError_t e = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("plugin: %d %s\n", h, cudaGetErrorName(e));
    return h;
}
