"""test_numba.py — six Numba CUDA kernels on ptxi (elementwise math, a shared-memory
reduction, atomics, device functions with local arrays, a 2D grid, warp shuffles), each
checked against numpy; and that Numba linked them with ptxi's nvJitLink."""
import math
import os

os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")   # small grids on purpose

import numpy as np
from numba import cuda, float64, int32, int64

import harness as h

rng = np.random.default_rng(2026)


@h.kernel
def elementwise_math():
    @cuda.jit
    def k(x, y, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = math.sin(x[i]) * math.exp(y[i] * 0.5) + math.sqrt(abs(x[i])) - math.log1p(y[i] * y[i])

    n = 10_000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = cuda.device_array_like(x)
    k[(n + 255) // 256, 256](cuda.to_device(x), cuda.to_device(y), out)
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    want = (np.sin(xd) * np.exp(yd * 0.5) + np.sqrt(np.abs(xd)) - np.log1p(yd * yd)).astype(np.float32)
    # sin, sqrt and log1p of float32 are libdevice's float functions (within 2 ulp)
    h.close("elementwise", out.copy_to_host(), want, rtol=1e-5, atol=1e-5)


@h.kernel
def shared_memory_reduction():
    @cuda.jit
    def k(a, partial):
        s = cuda.shared.array(256, int64)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        s[t] = a[i] if i < a.size else 0
        cuda.syncthreads()
        stride = 128
        while stride > 0:
            if t < stride:
                s[t] += s[t + stride]
            cuda.syncthreads()
            stride //= 2
        if t == 0:
            partial[cuda.blockIdx.x] = s[0]

    n, blocks = 50_000, (50_000 + 255) // 256
    a = rng.integers(-10**9, 10**9, n, dtype=np.int64)
    partial = cuda.device_array(blocks, np.int64)
    k[blocks, 256](cuda.to_device(a), partial)
    want = np.concatenate([a, np.zeros(blocks * 256 - n, np.int64)]).reshape(blocks, 256).sum(axis=1)
    h.equal("block sums", partial.copy_to_host(), want)


@h.kernel
def atomics():
    @cuda.jit
    def k(v, bins, extremes):
        i = cuda.grid(1)
        if i < v.size:
            cuda.atomic.add(bins, v[i] % 64, 1)
            cuda.atomic.max(extremes, 0, v[i])
            cuda.atomic.min(extremes, 1, v[i])

    v = rng.integers(0, 1 << 30, 100_000, dtype=np.int32)
    bins = cuda.to_device(np.zeros(64, np.int32))
    extremes = cuda.to_device(np.array([-1, np.iinfo(np.int32).max], np.int32))
    k[(v.size + 127) // 128, 128](cuda.to_device(v), bins, extremes)
    h.equal("histogram", bins.copy_to_host(), np.bincount(v % 64, minlength=64))
    h.equal("max and min", extremes.copy_to_host(), [v.max(), v.min()])


@cuda.jit(device=True)
def horner(c, x):
    r = 0.0
    for j in range(c.shape[0] - 1, -1, -1):
        r = r * x + c[j]
    return r


@cuda.jit(device=True)
def insertion_sort(v):
    for j in range(1, v.shape[0]):
        key = v[j]
        m = j - 1
        while m >= 0 and v[m] > key:
            v[m + 1] = v[m]
            m -= 1
        v[m + 1] = key


@h.kernel
def device_functions_and_local_arrays():
    @cuda.jit
    def k(x, keys, poly, ordered):
        i = cuda.grid(1)
        if i < x.size:
            c = cuda.local.array(6, float64)
            for j in range(6):
                c[j] = (j + 1) * x[i]
            poly[i] = horner(c, 0.5)
            v = cuda.local.array(8, int32)
            for j in range(8):
                v[j] = keys[i, j]
            insertion_sort(v)
            for j in range(8):
                ordered[i, j] = v[j]

    n = 3000
    x = rng.standard_normal(n)
    keys = rng.integers(-1000, 1000, (n, 8), dtype=np.int32)
    poly = cuda.device_array(n, np.float64)
    ordered = cuda.device_array((n, 8), np.int32)
    k[(n + 63) // 64, 64](cuda.to_device(x), cuda.to_device(keys), poly, ordered)
    want = sum((j + 1) * x * 0.5**j for j in range(6))
    h.close("horner", poly.copy_to_host(), want, rtol=1e-14)
    h.equal("sorted", ordered.copy_to_host(), np.sort(keys, axis=1))


@h.kernel
def grid_2d():
    @cuda.jit
    def k(a, out):
        x, y = cuda.grid(2)
        if y < a.shape[0] and x < a.shape[1]:
            out[x, y] = a[y, x] * 2.0 + y - x

    a = rng.standard_normal((45, 70)).astype(np.float32)
    out = cuda.device_array((70, 45), np.float32)
    k[(5, 3), (16, 16)](cuda.to_device(a), out)
    yy, xx = np.meshgrid(np.arange(45), np.arange(70), indexing="ij")
    want = (a * np.float32(2.0) + (yy - xx).astype(np.float32)).T
    h.equal("transposed", out.copy_to_host(), want)


@h.kernel
def warp_shuffles():
    @cuda.jit
    def k(a, sums, maxes):
        i = cuda.grid(1)
        v = a[i]
        off = 16
        while off > 0:
            v += cuda.shfl_down_sync(0xFFFFFFFF, v, off)
            off //= 2
        if cuda.laneid == 0:
            sums[i // 32] = v
        m = a[i]
        off = 1
        while off < 32:
            m = max(m, cuda.shfl_xor_sync(0xFFFFFFFF, m, off))
            off *= 2
        maxes[i] = m

    a = rng.integers(-10**6, 10**6, 32 * 64, dtype=np.int32)
    sums = cuda.device_array(64, np.int32)
    maxes = cuda.device_array(a.size, np.int32)
    k[8, 256](cuda.to_device(a), sums, maxes)
    warps = a.reshape(64, 32)
    h.equal("warp sums", sums.copy_to_host(), warps.sum(axis=1))
    h.equal("warp maxima", maxes.copy_to_host(), np.repeat(warps.max(axis=1), 32))


@h.kernel
def linked_with_ptxi_nvjitlink():
    # cuda-pathfinder takes the nvJitLink `ptxi exec` preloaded, even where NVIDIA's is installed
    from cuda.pathfinder import load_nvidia_dynamic_lib
    lib = os.environ["LD_LIBRARY_PATH"].split(":")[0]
    got = os.path.realpath(load_nvidia_dynamic_lib("nvJitLink").abs_path)
    want = os.path.realpath(os.path.join(lib, "libnvJitLink.so.13"))
    if got != want:
        raise AssertionError(f"nvJitLink loaded from {got}, expected {want}")


h.finish()
