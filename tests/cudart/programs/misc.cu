// misc.cu — smaller corners of the runtime API: kernel handles and names, parameter
// layout, stream-ordered allocation, capture status, peer copies on one device,
// channel descriptors, PCI id, symbols in constant memory reached by address.
#include <cstring>
#include "check.h"

struct Pair { int a; double b; };
__constant__ int table_c[4] = {3, 1, 4, 1};
__global__ void params(char c, Pair p, int *out, short s) { out[0] = c + p.a + (int)p.b + s; }
__global__ void read_const(int *out) { out[threadIdx.x] = table_c[threadIdx.x] * 100; }

int main() {
    cudaKernel_t kh = nullptr;
    SHOW(cudaGetKernel(&kh, params));
    printf("kernel handle %s\n", kh ? "set" : "null");
    cudaFunction_t fh = nullptr;
    SHOW(cudaGetFuncBySymbol(&fh, (const void *)params));
    const char *name = nullptr;
    SHOW(cudaFuncGetName(&name, (const void *)params));
    printf("name %s\n", name ? name : "(null)");
    for (size_t i = 0; i < 5; i++) {
        size_t off = 0, size = 0;
        cudaError_t e = cudaFuncGetParamInfo((const void *)params, i, &off, &size);
        printf("param %zu: %s offset %zu size %zu\n", i, cudaGetErrorName(e), off, size);
    }
    cudaGetLastError();

    int *d = nullptr, *e = nullptr;
    cudaStream_t s;
    SHOW(cudaStreamCreate(&s));
    cudaStreamCaptureStatus cs = cudaStreamCaptureStatusActive;
    SHOW(cudaStreamIsCapturing(s, &cs));
    printf("capturing: %d\n", (int)cs);
    SHOW(cudaMallocAsync((void **)&d, 64, s));
    SHOW(cudaMallocAsync((void **)&e, 64, s));
    Pair p = {7, 2.75};
    params<<<1, 1, 0, s>>>('A', p, d, -3);
    SHOW(cudaMemcpyPeerAsync(e, 0, d, 0, 4, s));
    int h = 0;
    SHOW(cudaMemcpyAsync(&h, e, 4, cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("params -> %d\n", h);
    SHOW(cudaMemcpyPeer(e, 1, d, 0, 4));

    int *tc = nullptr;
    SHOW(cudaGetSymbolAddress((void **)&tc, table_c));
    int four[4] = {9, 8, 7, 6};
    SHOW(cudaMemcpy(tc, four, sizeof four, cudaMemcpyHostToDevice));
    read_const<<<1, 4, 0, s>>>(d);
    int back[4];
    SHOW(cudaMemcpyAsync(back, d, sizeof back, cudaMemcpyDeviceToHost, s));
    SHOW(cudaStreamSynchronize(s));
    printf("constant through its address: %d %d %d %d\n", back[0], back[1], back[2], back[3]);
    cudaPointerAttributes a;
    SHOW(cudaPointerGetAttributes(&a, tc));
    printf("constant symbol memory type %d\n", (int)a.type);
    SHOW(cudaFreeAsync(d, s));
    SHOW(cudaFreeAsync(e, s));
    SHOW(cudaStreamDestroy(s));

    cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    printf("channel %d %d %d %d kind %d\n", cd.x, cd.y, cd.z, cd.w, (int)cd.f);
    char bus[32] = "";
    SHOW(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    printf("pci id has %zu characters\n", strlen(bus));
    cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    want.major = 9;
    int chosen = -1;
    SHOW(cudaChooseDevice(&chosen, &want));
    printf("chosen %d\n", chosen);
    return 0;
}
