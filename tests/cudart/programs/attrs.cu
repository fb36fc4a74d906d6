// attrs.cu — every device attribute an H100 answers (1..150), and the limits that
// cudaDeviceGetLimit reports before anything has run.
#include "check.h"

int main() {
    for (int a = 1; a <= 150; a++) {
        int v = -1;
        cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a, 0);
        if (e == cudaSuccess) printf("attr %d = %d\n", a, v);
        else printf("attr %d: %s\n", a, cudaGetErrorName(e));
    }
    cudaGetLastError();
    for (int l = 0; l <= 6; l++) {
        size_t v = 0;
        cudaError_t e = cudaDeviceGetLimit(&v, (cudaLimit)l);
        printf("limit %d = %zu (%s)\n", l, v, cudaGetErrorName(e));
    }
    return 0;
}
