"""test_cuda_core.py — cuda.core compiles a templated C++ kernel with NVRTC to PTX, loads
it and launches it on ptxi for float and double; the results are checked against numpy."""
import ctypes

import numpy as np
from cuda.core import Device, LaunchConfig, LegacyPinnedMemoryResource, Program, ProgramOptions, launch

import harness as h

CODE = r"""
template <typename T>
__global__ void saxpy(const T a, const T *x, const T *y, T *out, size_t n) {
    for (size_t i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = a * x[i] + y[i];
}
"""

dev = Device(0)
dev.set_current()
stream = dev.create_stream()
pinned = LegacyPinnedMemoryResource()
prog = Program(CODE, code_type="c++", options=ProgramOptions(std="c++17", arch=f"sm_{dev.arch}"))
module = prog.compile("ptx", name_expressions=("saxpy<float>", "saxpy<double>"))


def host_view(buf, dtype, n):
    return np.frombuffer((ctypes.c_char * buf.size).from_address(int(buf.handle)), dtype=dtype, count=n)


def saxpy(dtype, name):
    n = 100_000
    rng = np.random.default_rng(7)
    a = dtype(2.5)
    x, y = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
    size = x.nbytes
    bufs = [dev.allocate(size, stream=stream) for _ in range(3)]
    hosts = [pinned.allocate(size, stream=stream) for _ in range(3)]
    host_view(hosts[0], dtype, n)[:] = x
    host_view(hosts[1], dtype, n)[:] = y
    bufs[0].copy_from(hosts[0], stream=stream)
    bufs[1].copy_from(hosts[1], stream=stream)
    kernel = module.get_kernel(name)
    launch(stream, LaunchConfig(grid=64, block=256), kernel, a, bufs[0], bufs[1], bufs[2], np.uint64(n))
    bufs[2].copy_to(hosts[2], stream=stream)
    stream.sync()
    got = host_view(hosts[2], dtype, n).copy()
    for b in bufs + hosts:
        b.close()
    # NVRTC contracts a*x+y into one fma, rounded once: float64 holds a*x of floats
    # exactly, so float reproduces it bit for bit; for double, float64's own two roundings
    # are off by at most an ulp of the larger term
    want = (np.float64(a) * x.astype(np.float64) + y.astype(np.float64)).astype(dtype)
    if dtype == np.float32:
        h.equal(name, got, want)
    else:
        h.close(name, got, want, rtol=0, atol=2.3e-16 * (np.abs(a * x) + np.abs(y)))


@h.kernel
def nvrtc_saxpy_float():
    saxpy(np.float32, "saxpy<float>")


@h.kernel
def nvrtc_saxpy_double():
    saxpy(np.float64, "saxpy<double>")


h.finish()
