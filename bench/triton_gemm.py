"""triton_gemm.py — the same Triton fp16 GEMM (256 x 256 x 256, 128x128x64 tiles,
4 warps, fp32 accumulation) compiled for sm_80 (mma.sync) and for sm_90 (wgmma),
each launched on ptxi through its libcuda, timed per launch (after one warm-up
launch that compiles and loads it). Run it with the Python tests' environment:

    build/bin/ptxi exec build/venv/bin/python3 bench/triton_gemm.py [launches]
"""
import os
import sys
import time

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
import numpy as np
import triton
import triton.language as tl
from cuda.bindings import driver as cu


def ok(r):
    err, *rest = r if isinstance(r, tuple) else (r,)
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(err)
    return rest[0] if len(rest) == 1 else rest


class Buf:
    def __init__(self, host):
        self.host, self.ptr = host, ok(cu.cuMemAlloc(host.nbytes))
        ok(cu.cuMemcpyHtoD(self.ptr, host.ctypes.data, host.nbytes))
        self.dtype = host.dtype

    def data_ptr(self):
        return int(self.ptr)


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm, rn, rk = pm * BM + tl.arange(0, BM), pn * BN + tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


ok(cu.cuInit(0))
ok(cu.cuCtxSetCurrent(ok(cu.cuDevicePrimaryCtxRetain(ok(cu.cuDeviceGet(0))))))
n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
M = N = K = 256
rng = np.random.default_rng(1)
a, b = Buf(rng.standard_normal((M, K)).astype(np.float16)), Buf(rng.standard_normal((K, N)).astype(np.float16))
want = a.host.astype(np.float64) @ b.host.astype(np.float64)
for arch in ("sm80", "sm90"):
    c = Buf(np.zeros((M, N), np.float32))
    run = lambda: mm[(2, 2)](a, b, c, M, N, K, BM=128, BN=128, BK=64, num_warps=4, num_stages=3, arch=arch)
    k = run()
    ok(cu.cuCtxSynchronize())
    t0 = time.perf_counter()
    for _ in range(n):
        run()
    ok(cu.cuCtxSynchronize())
    dt = (time.perf_counter() - t0) / n
    out = np.empty((M, N), np.float32)
    ok(cu.cuMemcpyDtoH(out.ctypes.data, c.ptr, out.nbytes))
    ptx = k.asm["ptx"]
    form = "wgmma" if "wgmma.mma_async" in ptx else "mma.sync" if "mma.sync" in ptx else "?"
    print(f"{arch}: {form:8s} {dt * 1e3:8.1f} ms per launch   max |err| {np.abs(out - want).max():.2e}")
