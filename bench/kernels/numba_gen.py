# numba_gen.py — writes numba_axpy.ptx: a Numba CUDA elementwise kernel
# (out[i] = a * x[i] + y[i] over float32 arrays) as numba.cuda.compile_ptx
# emits it for sm_90. No GPU is needed. Run: python3 numba_gen.py (Numba 0.68.1
# made the committed file).
from numba import cuda, float32, int64

def numba_axpy(out, x, y, a):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]

ptx, _ = cuda.compile_ptx(numba_axpy, (float32[::1], float32[::1], float32[::1], float32), cc=(9, 0))
open("numba_axpy.ptx", "w").write(ptx)
