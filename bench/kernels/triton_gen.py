# triton_gen.py — makes triton_gen.ptx: real Triton output (Triton 3.9, sm_90,
# num_warps 4) of the computation that triton_fused.ptx imitates by hand,
# out = relu(x * alpha + y), with 16-byte-divisible pointers and n as Triton
# specializes them at launch. Needs only the triton package, no GPU.
# Run: TRITON_DEFAULT_FP_FUSION=1 python3 triton_gen.py
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget


@triton.jit
def triton_poi_fused_add_mul_relu_0(x_ptr, y_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x * alpha + y, 0.0), mask=mask)


sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "alpha": "fp32", "n": "i32", "BLOCK": "constexpr"}
div16 = [["tt.divisibility", 16]]
src = triton.compiler.ASTSource(fn=triton_poi_fused_add_mul_relu_0, signature=sig, constexprs={"BLOCK": 1024},
                                attrs={(0,): div16, (1,): div16, (2,): div16, (4,): div16})
k = triton.compile(src, target=GPUTarget("cuda", 90, 32))
open("triton_gen.ptx", "w").write(k.asm["ptx"])
print(k.metadata.name, "num_warps", k.metadata.num_warps, "shared", k.metadata.shared)
