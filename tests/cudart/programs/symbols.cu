// symbols.cu — __constant__, __device__ and __managed__ variables: copies to and from
// symbols (offsets, async, device-to-device), symbol address and size, the host's own
// access to a managed variable, and the errors for a bad symbol or range.
#include "check.h"

__constant__ float coef[8];
__constant__ int offset_c = 40;
__device__ int counter;
__device__ int table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__managed__ int managed_total;
__managed__ int managed_init = 1234;
int not_a_symbol;

__global__ void use(float *out) {
    int i = threadIdx.x;
    out[i] = coef[i] * i + offset_c + table[i];
    atomicAdd(&counter, 1);
    atomicAdd(&managed_total, i);
}

int main() {
    float c[8] = {0.5f, 1, 2, 3, 4, 5, 6, 7};
    SHOW(cudaMemcpyToSymbol(coef, c, sizeof c));
    float two = 100;
    SHOW(cudaMemcpyToSymbol(coef, &two, sizeof two, 3 * sizeof(float)));
    int zero = 0;
    SHOW(cudaMemcpyToSymbolAsync(counter, &zero, sizeof zero, 0, cudaMemcpyHostToDevice, 0));
    printf("managed_init on host = %d\n", managed_init);
    managed_total = 5;
    float *out;
    CHECK(cudaMalloc(&out, 8 * sizeof(float)));
    use<<<1, 8>>>(out);
    SHOW(cudaDeviceSynchronize());
    float h[8];
    SHOW(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++) printf("%g ", h[i]);
    printf("\n");
    int cnt = -1, t[4];
    SHOW(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
    SHOW(cudaMemcpyFromSymbol(t, table, sizeof t, 6 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("counter=%d table[6..9]=%d %d %d %d managed_total=%d\n", cnt, t[0], t[1], t[2], t[3], managed_total);

    int *tp = nullptr;
    size_t sz = 0;
    SHOW(cudaGetSymbolAddress((void **)&tp, table));
    SHOW(cudaGetSymbolSize(&sz, table));
    printf("table size=%zu\n", sz);
    SHOW(cudaGetSymbolSize(&sz, coef));
    printf("coef size=%zu\n", sz);
    int back[16];
    SHOW(cudaMemcpy(back, tp, sizeof back, cudaMemcpyDeviceToHost));
    printf("through address: %d %d\n", back[0], back[15]);
    // device to device through a symbol
    SHOW(cudaMemcpyToSymbol(table, out, 2 * sizeof(int), 0, cudaMemcpyDeviceToDevice));
    SHOW(cudaMemcpyFromSymbolAsync(out, counter, sizeof(int), 0, cudaMemcpyDeviceToDevice, 0));
    SHOW(cudaMemcpy(&cnt, out, sizeof cnt, cudaMemcpyDeviceToHost));
    printf("counter through device copy=%d\n", cnt);

    // errors
    SHOW(cudaMemcpyToSymbol(not_a_symbol, c, 4));
    SHOW(cudaGetLastError());
    SHOW(cudaMemcpyToSymbol(coef, c, sizeof c, 4));
    SHOW(cudaGetLastError());
    SHOW(cudaMemcpyToSymbol(coef, c, 4, 0, cudaMemcpyDeviceToHost));
    SHOW(cudaGetLastError());
    SHOW(cudaGetSymbolAddress((void **)&tp, &not_a_symbol));
    SHOW(cudaGetLastError());
    SHOW(cudaFree(out));
    return 0;
}
