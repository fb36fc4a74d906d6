// plugin_host.cu — runs a kernel of its own, then opens libplugin.so (plugin_lib.cu,
// in the current directory) and runs the plugin's kernel.
#include <cstdio>
#include <dlfcn.h>

__global__ void host_kernel(int *p) { p[0] = 1; }

int main() {
    int *d;
    cudaMalloc(&d, sizeof(int));
    host_kernel<<<1, 1>>>(d);
    printf("host: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    void *lib = dlopen("./libplugin.so", RTLD_NOW);
    if (!lib) {
        printf("dlopen: %s\n", dlerror());
        return 1;
    }
    int (*run)() = (int (*)())dlsym(lib, "plugin_run");
    return run && run() == 4242 ? 0 : 2;
}
