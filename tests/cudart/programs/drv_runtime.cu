// drv_runtime.cu — the pattern of NVIDIA's simpleDrvRuntime sample: the driver creates
// a context and loads a module, the runtime allocates (device and page-locked host
// memory), makes a stream and copies in that context, and the driver's kernel runs on
// the runtime's stream over the runtime's memory.
#include <cuda.h>
#include <cstdlib>
#include "check.h"

// VecAdd_kernel, as `nvcc -arch=sm_90 -ptx` writes it (the sample loads it from a fatbin).
static const char *ptx = R"(
.version 9.0
.target sm_90
.address_size 64

.visible .entry VecAdd_kernel(
	.param .u64 VecAdd_kernel_param_0,
	.param .u64 VecAdd_kernel_param_1,
	.param .u64 VecAdd_kernel_param_2,
	.param .u32 VecAdd_kernel_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<4>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<11>;

	ld.param.u64 	%rd1, [VecAdd_kernel_param_0];
	ld.param.u64 	%rd2, [VecAdd_kernel_param_1];
	ld.param.u64 	%rd3, [VecAdd_kernel_param_2];
	ld.param.u32 	%r2, [VecAdd_kernel_param_3];
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %ctaid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd4, %rd1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	cvta.to.global.u64 	%rd7, %rd2;
	add.s64 	%rd8, %rd7, %rd5;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd6];
	add.f32 	%f3, %f2, %f1;
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd10, %rd9, %rd5;
	st.global.f32 	[%rd10], %f3;

$L__BB0_2:
	ret;
}
)";

// the program's own kernel, run by the runtime in the same context
__global__ void scale(float *c, int n, float f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] *= f;
}

int main() {
    int N = 50000;
    size_t size = N * sizeof(float);
    CUdevice dev;
    CUcontext ctx, owner = 0, cur = 0;
    CUmodule mod;
    CUfunction vec_add;
    CUctxCreateParams params = {};
    DRV(cuInit(0));
    DRV(cuDeviceGet(&dev, 0));
    DRV(cuCtxCreate(&ctx, &params, 0, dev));
    DRV(cuModuleLoadData(&mod, ptx));
    DRV(cuModuleGetFunction(&vec_add, mod, "VecAdd_kernel"));

    float *h_A, *h_B, *h_C, *d_A, *d_B, *d_C;
    CHECK(cudaMallocHost(&h_A, size));
    CHECK(cudaMallocHost(&h_B, size));
    CHECK(cudaMallocHost(&h_C, size));
    srand(1);
    for (int i = 0; i < N; i++) h_A[i] = rand() / (float)RAND_MAX, h_B[i] = rand() / (float)RAND_MAX;
    CHECK(cudaMalloc(&d_A, size));
    CHECK(cudaMalloc(&d_B, size));
    CHECK(cudaMalloc(&d_C, size));
    DRV(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)d_C));
    printf("device memory in the created context: %d\n", (int)(owner == ctx));
    owner = 0;
    DRV(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)h_A));
    printf("page-locked memory in the created context: %d\n", (int)(owner == ctx));

    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaMemcpyAsync(d_A, h_A, size, cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemcpyAsync(d_B, h_B, size, cudaMemcpyHostToDevice, stream));
    int threads = 256, blocks = (N + threads - 1) / threads;
    void *args[] = {&d_A, &d_B, &d_C, &N};
    DRV(cuLaunchKernel(vec_add, blocks, 1, 1, threads, 1, 1, 0, stream, args, NULL));
    CHECK(cudaMemcpyAsync(h_C, d_C, size, cudaMemcpyDeviceToHost, stream));
    SHOW(cudaStreamSynchronize(stream));
    int i;
    for (i = 0; i < N; i++)
        if (h_C[i] != h_A[i] + h_B[i]) break;
    printf("driver kernel on the runtime's stream: %s\n", i == N ? "PASS" : "FAIL");

    scale<<<blocks, threads, 0, stream>>>(d_C, N, 2.0f);
    SHOW(cudaGetLastError());
    DRV(cuMemcpyDtoH(h_C, (CUdeviceptr)d_C, size));
    for (i = 0; i < N; i++)
        if (h_C[i] != 2.0f * (h_A[i] + h_B[i])) break;
    printf("runtime kernel, driver copy: %s\n", i == N ? "PASS" : "FAIL");

    DRV(cuModuleUnload(mod));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_B));
    CHECK(cudaFree(d_C));
    CHECK(cudaFreeHost(h_A));
    CHECK(cudaFreeHost(h_B));
    CHECK(cudaFreeHost(h_C));
    DRV(cuCtxGetCurrent(&cur));
    printf("the created context is still current: %d\n", (int)(cur == ctx));
    DRV(cuCtxDestroy(ctx));
    return 0;
}
