// unimplemented.cu — calls an entry point ptxi does not implement (interprocess memory
// handles), twice: it must say so once on stderr and return cudaErrorNotSupported (801).
#include <cstdio>
#include <cuda_runtime.h>

int main() {
    for (int i = 0; i < 2; i++) {
        cudaIpcMemHandle_t h;
        printf("cudaIpcGetMemHandle -> %d\n", (int)cudaIpcGetMemHandle(&h, nullptr));
    }
    return 0;
}
