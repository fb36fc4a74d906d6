// launch_overhead.cu — µs per empty launch through the runtime (cudaLaunchKernel, as
// <<<>>> does) and through the driver (cuLaunchKernel) of the same kernel, on one
// device: ptxi's libcudart.so.13 and libcuda.so.1 (or NVIDIA's, on a GPU).
//   nvcc -cudart shared -o launch-overhead launch_overhead.cu -lcuda
//   LD_LIBRARY_PATH=build/lib ./launch-overhead [launches]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>

extern "C" __global__ void empty() {}

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    if (cudaFree(0) != cudaSuccess) return 1;
    CUfunction f;
    CUmodule m;
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry empty() { ret; }\n";
    if (cuModuleLoadData(&m, ptx) != CUDA_SUCCESS || cuModuleGetFunction(&f, m, "empty") != CUDA_SUCCESS) return 1;
    for (int round = 0; round < 2; round++) {   // the first round warms up
        double t0 = now();
        for (int i = 0; i < n; i++) cudaLaunchKernel((const void *)empty, dim3(1), dim3(1), nullptr, 0, 0);
        cudaDeviceSynchronize();
        double t1 = now();
        for (int i = 0; i < n; i++) cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, nullptr, nullptr);
        cuCtxSynchronize();
        double t2 = now();
        if (round)
            printf("cudaLaunchKernel %.2f us per empty launch\ncuLaunchKernel   %.2f us per empty launch\n",
                   (t1 - t0) / n * 1e6, (t2 - t1) / n * 1e6);
    }
    return cudaGetLastError() != cudaSuccess;
}
