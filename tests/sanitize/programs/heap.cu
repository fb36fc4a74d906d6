// heap.cu MODE: bad accesses to device-heap blocks (device malloc) and bad frees.
//  1  a write one byte past a 100-byte block (int at offset 97)
//  2  a read 4 bytes before a block
//  3  a char write at index 37 of a 37-byte block
//  4  a read of a block after its free
//  5  free of a pointer 4 bytes inside a block
//  6  a block freed twice
//  7  free of a cudaMalloc'd pointer
//  8  two threads each leave a 48-byte block behind (--leak-check full)
//  9  clean: malloc, use, free
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void heap(int mode, int *dev, int *out) {
    int t = threadIdx.x;
    switch (mode) {
    case 1: {
        char *p = (char *)malloc(100);
        *(volatile int *)(p + 96 + (t == 0)) = 7;
        free(p);
        break;
    }
    case 2: {
        volatile int *p = (int *)malloc(64);
        out[t] = p[t - 1];
        free((void *)p);
        break;
    }
    case 3: {
        volatile char *p = (char *)malloc(37);
        p[36 + (t == 1)] = 1;
        free((void *)p);
        break;
    }
    case 4: {
        volatile int *p = (int *)malloc(32);
        p[t] = t;
        free((void *)p);
        out[t] = p[t];
        break;
    }
    case 5: {
        char *p = (char *)malloc(16);
        free(p + 4);
        break;
    }
    case 6: {
        int *p = (int *)malloc(16);
        free(p);
        free(p);
        break;
    }
    case 7: free(dev); break;
    case 8: {
        volatile int *p = (int *)malloc(48);
        p[0] = t;
        out[t] = p[0];
        break;
    }
    case 9: {
        volatile int *p = (int *)malloc(40);
        for (int k = 0; k < 10; k++) p[k] = k;
        out[t] = p[9];
        free((void *)p);
        break;
    }
    }
}

int main(int argc, char **argv) {
    int mode = argc > 1 ? atoi(argv[1]) : 9;
    int *dev, *out;
    cudaMalloc(&dev, 256);
    cudaMalloc(&out, 256);
    heap<<<1, mode == 8 ? 2 : 1 + (mode == 3)>>>(mode, dev, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(dev);
    cudaFree(out);
    return 0;
}
