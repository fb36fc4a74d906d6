// vadd.cu — vector addition end to end: cudaMalloc, cudaMemcpy, <<<>>>, checking the
// result on the host. Also built with the default -arch and for compute_80 only.
#include <cstdlib>
#include "check.h"

__global__ void vadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 100000;
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) {
        a[i] = i * 0.5f;
        b[i] = (n - i) * 0.25f;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    vadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        if (c[i] != a[i] + b[i]) bad++;
        sum += c[i];
    }
    printf("c[0]=%g c[1]=%g c[%d]=%g\n", c[0], c[1], n - 1, c[n - 1]);
    printf("sum=%.1f mismatches=%d\n", sum, bad);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    free(a), free(b), free(c);
    return bad != 0;
}
