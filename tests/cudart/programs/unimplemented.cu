// unimplemented.cu — calls an entry point ptxi does not implement, twice: it must say
// so once on stderr and return cudaErrorNotSupported (801) each time.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
    for (int i = 0; i < 2; i++) {
        cudaGraph_t g;
        printf("cudaGraphCreate -> %d\n", (int)cudaGraphCreate(&g, 0));
    }
    return 0;
}
