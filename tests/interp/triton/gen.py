# gen.py — compiles three Triton kernels (vector add, row softmax, layer norm) for
# sm_90 and writes their PTX. Needs only the triton package: no GPU is used.
# Run: python3 gen.py   (Triton 3.9 made the committed files)
import triton, triton.language as tl
from triton.backends.compiler import GPUTarget

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)

@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(in_ptr + row * in_stride + offs, mask=mask, other=-float('inf'))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + offs, num / den, mask=mask)

@triton.jit
def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, stride, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.).to(tl.float32)
    mean = tl.sum(x, axis=0) / n
    xc = tl.where(mask, x - mean, 0.)
    var = tl.sum(xc * xc, axis=0) / n
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(y_ptr + row * stride + offs, xc * rstd * w + b, mask=mask)

target = GPUTarget("cuda", 90, 32)
def emit(fn, sig, consts, name):
    src = triton.compiler.ASTSource(fn=fn, signature=sig, constexprs=consts)
    k = triton.compile(src, target=target)
    open(name + ".ptx", "w").write(k.asm["ptx"])
    print(name, k.metadata.num_warps, k.metadata.shared)
emit(add_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 1024}, "add")
emit(softmax_kernel, {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_stride": "i32", "out_stride": "i32", "n_cols": "i32", "BLOCK": "constexpr"}, {"BLOCK": 1024}, "softmax")
emit(layernorm_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "w_ptr": "*fp32", "b_ptr": "*fp32", "stride": "i32", "n": "i32", "eps": "fp32", "BLOCK": "constexpr"}, {"BLOCK": 1024}, "layernorm")
