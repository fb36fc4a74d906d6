"""test_triton.py — unmodified Triton on ptxi: an elementwise kernel, softmax, row
reductions, a prefix scan and tl.dot matmuls of several tile sizes and dtypes, on memory
from the driver API (no torch), each checked against numpy.

The matmuls are compiled for sm_80 (Triton's mma.sync code) and for sm_90 (its wgmma code);
PTXI_TRITON_DOT_ARCHS (e.g. "sm80") picks the targets."""
import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")   # a*b+c is one fma, as the references assume

import numpy as np
import triton
import triton.language as tl
from cuda.bindings import driver as cu

import harness as h


def check(result):
    err, *rest = result if isinstance(result, tuple) else (result,)
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"CUDA driver call failed: {err}")
    return rest[0] if len(rest) == 1 else rest


check(cu.cuInit(0))
device = check(cu.cuDeviceGet(0))
check(cu.cuCtxSetCurrent(check(cu.cuDevicePrimaryCtxRetain(device))))


class DeviceArray:
    """Device memory holding a copy of a numpy array; Triton takes it as a pointer
    through data_ptr() and reads its element type from dtype."""

    def __init__(self, host, dtype=None):
        host = np.ascontiguousarray(host)
        self.shape, self.host_dtype, self.nbytes = host.shape, host.dtype, host.nbytes
        self.dtype = dtype or host.dtype
        self.ptr = check(cu.cuMemAlloc(max(host.nbytes, 1)))
        check(cu.cuMemcpyHtoD(self.ptr, host.ctypes.data, host.nbytes))

    @classmethod
    def empty(cls, shape, dtype):
        return cls(np.zeros(shape, dtype))

    def data_ptr(self):
        return int(self.ptr)

    def numpy(self):
        check(cu.cuCtxSynchronize())
        out = np.empty(self.shape, self.host_dtype)
        check(cu.cuMemcpyDtoH(out.ctypes.data, self.ptr, self.nbytes))
        return out


rng = np.random.default_rng(90)


@triton.jit
def elementwise_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * y + tl.abs(x) - tl.maximum(y, 0.25) / 3.0, mask=mask)


@h.kernel
def elementwise():
    n = 10_000
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = DeviceArray.empty(n, np.float32)
    elementwise_kernel[(triton.cdiv(n, 1024),)](DeviceArray(x), DeviceArray(y), out, n, BLOCK=1024)
    # x*y+|x| is one fma on the GPU; the division by 3.0 is IEEE (div.rn.f32)
    want = (x.astype(np.float64) * y + np.abs(x)).astype(np.float32) - np.maximum(y, np.float32(0.25)) / np.float32(3.0)
    h.close("x*y+|x|-max(y,.25)/3", out.numpy(), want, rtol=1e-6, atol=2e-6)


@triton.jit
def softmax_kernel(x_ptr, out_ptr, ncols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < ncols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < ncols)


@h.kernel
def softmax():
    x = (rng.standard_normal((64, 100)) * 3).astype(np.float32)
    out = DeviceArray.empty(x.shape, np.float32)
    softmax_kernel[(64,)](DeviceArray(x), out, 100, 100, BLOCK=128)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    # tl.exp is ex2.approx.f32 of x*log2(e): a few ulp
    h.close("softmax", out.numpy(), e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


@triton.jit
def reduce_kernel(x_ptr, sum_ptr, max_ptr, argmax_ptr, ncols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * ncols + cols, mask=cols < ncols, other=0)
    tl.store(sum_ptr + row, tl.sum(x, axis=0))
    m = tl.where(cols < ncols, x, -2147483647)
    tl.store(max_ptr + row, tl.max(m, axis=0))
    tl.store(argmax_ptr + row, tl.argmax(m, axis=0))


@h.kernel
def reductions():
    x = rng.integers(-10**6, 10**6, (37, 300), dtype=np.int32)
    sums, maxes, where = (DeviceArray.empty(37, np.int32) for _ in range(3))
    reduce_kernel[(37,)](DeviceArray(x), sums, maxes, where, 300, BLOCK=512)
    h.equal("row sums", sums.numpy(), x.sum(axis=1))
    h.equal("row maxima", maxes.numpy(), x.max(axis=1))
    h.equal("row argmax", where.numpy(), x.argmax(axis=1))


@triton.jit
def scan_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + cols)
    tl.store(out_ptr + row * BLOCK + cols, tl.cumsum(x, axis=0))


@h.kernel
def prefix_scan():
    x = rng.integers(-1000, 1000, (16, 256), dtype=np.int32)
    out = DeviceArray.empty(x.shape, np.int32)
    scan_kernel[(16,)](DeviceArray(x), out, BLOCK=256)
    h.equal("cumsum", out.numpy(), np.cumsum(x, axis=1))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  PRECISION: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def bf16_bits(x):
    """float32 -> bfloat16 bits, rounded to nearest even, and the value they hold."""
    u = x.astype(np.float32).view(np.uint32)
    bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


DOT_ARCHS = os.environ.get("PTXI_TRITON_DOT_ARCHS", "sm80 sm90").split()


def matmul(M, N, K, BM, BN, BK, dtype, precision="ieee", warps=4):
    for arch in DOT_ARCHS:
        matmul_on(arch, M, N, K, BM, BN, BK, dtype, precision, warps)


def matmul_on(arch, M, N, K, BM, BN, BK, dtype, precision, warps):
    a = rng.standard_normal((M, K)).astype(np.float32)
    b = rng.standard_normal((K, N)).astype(np.float32)
    if dtype == "bfloat16":
        (abits, a), (bbits, b) = bf16_bits(a), bf16_bits(b)
        da, db = DeviceArray(abits, dtype="bfloat16"), DeviceArray(bbits, dtype="bfloat16")
    else:
        a, b = a.astype(dtype), b.astype(dtype)
        da, db = DeviceArray(a), DeviceArray(b)
    c = DeviceArray.empty((M, N), np.float32)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    matmul_kernel[grid](da, db, c, M, N, K, BM=BM, BN=BN, BK=BK, PRECISION=precision, num_warps=warps, arch=arch)
    # the products of 16-bit inputs are exact in float32; only the float32 sums round
    want = a.astype(np.float64) @ b.astype(np.float64)
    h.close(f"{dtype} {BM}x{BN}x{BK} {arch}", c.numpy(), want, rtol=1e-5, atol=1e-4 * np.sqrt(K))


@h.kernel
def dot_fp16_64x64x32():
    matmul(192, 128, 160, 64, 64, 32, np.float16)


@h.kernel
def dot_bf16_128x64x64():
    matmul(128, 192, 128, 128, 64, 64, "bfloat16", warps=8)


@h.kernel
def dot_fp32_ieee_32x32x16():
    matmul(96, 80, 72, 32, 32, 16, np.float32, precision="ieee")


@h.kernel
def dot_fp16_16x32x16_one_warp():
    matmul(48, 64, 40, 16, 32, 16, np.float16, warps=1)


h.finish()
