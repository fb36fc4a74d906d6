# A Triton fp16 matmul (the tutorial's structure) compiled for this GPU: writes
# mm.ptx, the inputs a.bin/b.bin (fp16, row-major), the GPU's c.bin (fp32) and
# meta.txt (grid, warps, shared bytes, parameters). Committed as
# tests/interp/triton/matmul_wgmma.ptx and recorded/matmul.*.
import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


M = N = K = 256
g = torch.Generator().manual_seed(5)
a = torch.randn(M, K, generator=g).half().cuda()
b = torch.randn(K, N, generator=g).half().cuda()
c = torch.empty(M, N, dtype=torch.float32).cuda()
grid = (M // 128, N // 128)
k = mm[grid](a, b, c, M, N, K, BM=128, BN=128, BK=64, num_warps=4, num_stages=3)
torch.cuda.synchronize()
open('mm.ptx', 'w').write(k.asm['ptx'])
a.cpu().numpy().tofile('a.bin')
b.cpu().numpy().tofile('b.bin')
c.cpu().numpy().tofile('c.bin')
md = k.metadata
with open('meta.txt', 'w') as f:
    f.write('grid %d %d\nname %s\nnum_warps %s\nshared %s\ntriton %s\ntorch %s\n'
            % (grid[0], grid[1], md.name, md.num_warps, md.shared, triton.__version__, torch.__version__))
print('wgmma' in k.asm['ptx'], open('meta.txt').read())
