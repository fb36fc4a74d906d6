// copies.cu MODE: initcheck and the copies and sets that write device memory. Each mode
// writes part of a buffer with one kind of copy or set, reads a word it wrote (no record)
// and then a word it left unwritten (one record), or copies unwritten memory to the host.
//  1  cudaMemcpy2D to pitched memory, 40 of each row's bytes: read the pitch padding
//  2  cudaMemset2D, 40 bytes of 4 rows: read past the width
//  3  cudaMemcpy3D, 32 of each row's 64 bytes: read past the copied width
//  4  cudaMemset3D of 2 of 4 slices: read the third slice
//  5  cuMemcpyHtoD of 64 bytes: read bytes 64..67
//  6  cuMemsetD8, cuMemsetD16, cuMemsetD32 of bytes 0..63: read bytes 64..67
//  7  cuMemsetD2D32 of 8 words in rows of 256 bytes: read past the width
//  8  cuMemcpy2D from the host, 48 bytes of 3 rows: read past the width
//  9  cuMemcpy3D from the host, 16 of each row's 64 bytes: read past the width
// 10  cuMemcpyDtoD of 32 written bytes: read past them
// 11  cudaMemcpyFromSymbol (device to device) of 16 bytes: read past them
// 12  cudaMemcpyToSymbol from device memory nothing wrote (the copy's source)
// 13  a graph with a 2-D memset node and a memcpy node: read past both
// 14  cudaMemcpy2DAsync captured into a graph: read the pitch padding
// 15  cudaMemcpy2D to the host from pitched memory whose last row nothing wrote
// 16  cuMemcpyDtoH from memory nothing wrote
// 17  cuMemcpyHtoDAsync and cuMemsetD8Async: read past them
// 18  clean: cudaMemcpyAsync and cudaMemsetAsync write all that is read
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ int sym[8];

__global__ void read_at(const char *base, size_t off, int *out) {
    out[0] = *(const int *)(base + off);
}

static int *out;

// The fields CUDA_MEMCPY2D and CUDA_MEMCPY3D share: rows of w bytes from the host to d.
template <class M> static void from_host(M &m, size_t spitch, CUdeviceptr d, size_t dpitch, size_t w, size_t h) {
    memset(&m, 0, sizeof m);
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcPitch = spitch;
    m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    m.dstDevice = d;
    m.dstPitch = dpitch;
    m.WidthInBytes = w;
    m.Height = h;
}

// one read the copy wrote, one it did not
static void reads(const void *base, size_t wrote, size_t unwritten) {
    read_at<<<1, 1>>>((const char *)base, wrote, out);
    read_at<<<1, 1>>>((const char *)base, unwritten, out);
}

int main(int argc, char **argv) {
    int mode = argc > 1 ? atoi(argv[1]) : 18;
    static char host[1 << 16];
    for (size_t i = 0; i < sizeof host; i++) host[i] = (char)i;
    char *a;
    cudaMalloc(&a, 1 << 16);
    cudaMalloc(&out, 64);
    cudaMemset(out, 0, 64);
    CUdeviceptr d = (CUdeviceptr)a;
    switch (mode) {
    case 1: {
        char *p;
        size_t pitch;
        cudaMallocPitch((void **)&p, &pitch, 40, 4);
        cudaMemcpy2D(p, pitch, host, 40, 40, 4, cudaMemcpyHostToDevice);
        reads(p, 3 * pitch + 36, pitch + 40);
        cudaDeviceSynchronize();
        cudaFree(p);
        break;
    }
    case 2: {
        char *p;
        size_t pitch;
        cudaMallocPitch((void **)&p, &pitch, 64, 4);
        cudaMemset2D(p, pitch, 0, 40, 4);
        reads(p, 3 * pitch + 36, 2 * pitch + 40);
        cudaDeviceSynchronize();
        cudaFree(p);
        break;
    }
    case 3: {
        cudaPitchedPtr pp;
        cudaMalloc3D(&pp, make_cudaExtent(64, 4, 4));
        cudaMemcpy3DParms m = {};
        m.srcPtr = make_cudaPitchedPtr(host, 64, 64, 4);
        m.dstPtr = pp;
        m.extent = make_cudaExtent(32, 4, 4);
        m.kind = cudaMemcpyHostToDevice;
        cudaMemcpy3D(&m);
        size_t slice = pp.pitch * 4;
        reads(pp.ptr, 3 * slice + 3 * pp.pitch + 28, 2 * slice + pp.pitch + 32);
        cudaDeviceSynchronize();
        cudaFree(pp.ptr);
        break;
    }
    case 4: {
        cudaPitchedPtr pp;
        cudaMalloc3D(&pp, make_cudaExtent(64, 4, 4));
        cudaMemset3D(pp, 7, make_cudaExtent(64, 4, 2));
        size_t slice = pp.pitch * 4;
        reads(pp.ptr, slice + 3 * pp.pitch + 60, 2 * slice);
        cudaDeviceSynchronize();
        cudaFree(pp.ptr);
        break;
    }
    case 5:
        cuMemcpyHtoD(d, host, 64);
        reads(a, 60, 64);
        break;
    case 6:
        cuMemsetD8(d, 1, 16);
        cuMemsetD16(d + 16, 2, 8);
        cuMemsetD32(d + 32, 3, 8);
        reads(a, 60, 64);
        break;
    case 7:
        cuMemsetD2D32(d, 256, 5, 8, 4);
        reads(a, 3 * 256 + 28, 256 + 32);
        break;
    case 8: {
        CUDA_MEMCPY2D m;
        from_host(m, 48, d, 128, 48, 3);
        m.srcHost = host;
        cuMemcpy2D(&m);
        reads(a, 2 * 128 + 44, 48);
        break;
    }
    case 9: {
        CUDA_MEMCPY3D m;
        from_host(m, 16, d, 64, 16, 4);
        m.srcHost = host;
        m.srcHeight = 4;
        m.dstHeight = 4;
        m.Depth = 2;
        cuMemcpy3D(&m);
        reads(a, 256 + 3 * 64 + 12, 256 + 64 + 16);
        break;
    }
    case 10:
        cudaMemset(a, 9, 32);
        cuMemcpyDtoD(d + 1024, d, 32);
        reads(a + 1024, 28, 32);
        break;
    case 11:
        cudaMemcpyFromSymbol(a, sym, 16, 0, cudaMemcpyDeviceToDevice);
        reads(a, 12, 16);
        break;
    case 12:
        cudaMemcpyToSymbol(sym, a, 8, 0, cudaMemcpyDeviceToDevice);
        break;
    case 13: {
        cudaGraph_t g;
        cudaGraphExec_t ge;
        cudaGraphCreate(&g, 0);
        cudaMemsetParams ms = {};
        ms.dst = a;
        ms.pitch = 128;
        ms.value = 3;
        ms.elementSize = 4;
        ms.width = 8;
        ms.height = 2;
        cudaGraphNode_t n1, n2;
        cudaGraphAddMemsetNode(&n1, g, nullptr, 0, &ms);
        cudaGraphAddMemcpyNode1D(&n2, g, &n1, 1, a + 256, host, 32, cudaMemcpyHostToDevice);
        cudaGraphInstantiate(&ge, g, 0);
        cudaGraphLaunch(ge, 0);
        cudaStreamSynchronize(0);
        read_at<<<1, 1>>>(a, 256 + 28, out);
        reads(a, 128 + 28, 128 + 32);
        cudaDeviceSynchronize();
        cudaGraphExecDestroy(ge);
        cudaGraphDestroy(g);
        break;
    }
    case 14: {
        cudaStream_t s;
        cudaGraph_t g;
        cudaGraphExec_t ge;
        cudaStreamCreate(&s);
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        cudaMemcpy2DAsync(a, 512, host, 40, 40, 4, cudaMemcpyHostToDevice, s);
        cudaStreamEndCapture(s, &g);
        cudaGraphInstantiate(&ge, g, 0);
        cudaGraphLaunch(ge, s);
        cudaStreamSynchronize(s);
        reads(a, 3 * 512 + 36, 512 + 40);
        cudaDeviceSynchronize();
        cudaGraphExecDestroy(ge);
        cudaGraphDestroy(g);
        cudaStreamDestroy(s);
        break;
    }
    case 15: {
        char *p;
        size_t pitch;
        cudaMallocPitch((void **)&p, &pitch, 40, 4);
        cudaMemset2D(p, pitch, 0, 40, 3);
        cudaMemcpy2D(host, 40, p, pitch, 40, 4, cudaMemcpyDeviceToHost);
        cudaFree(p);
        break;
    }
    case 16:
        cuMemcpyDtoH(host, d + 64, 40);
        break;
    case 17:
        cuMemcpyHtoDAsync(d, host, 32, 0);
        cuMemsetD8Async(d + 32, 4, 32, 0);
        reads(a, 60, 64);
        break;
    case 18: {
        cudaMemcpyAsync(a, host, 32, cudaMemcpyHostToDevice, 0);
        cudaMemsetAsync(a + 32, 0, 32, 0);
        reads(a, 28, 60);
        break;
    }
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(a);
    cudaFree(out);
    return 0;
}
