# A Triton fused attention forward (the tutorial's structure: online softmax
# with exp2, two tl.dot per block) compiled for this GPU: writes attn.ptx, the
# inputs q/k/v.bin (fp16, [heads, seq, d] row-major), the GPU's o.bin (fp32)
# and meta.txt (grid, warps, shared bytes). Committed as
# tests/interp/triton/attention_wgmma.ptx and recorded/attention.*.
import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def attn(q_ptr, k_ptr, v_ptr, o_ptr, scale, SEQ, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    pm = tl.program_id(0)
    h = tl.program_id(1)
    base = h * SEQ * D
    rm = pm * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + base + rm[:, None] * D + rd[None, :])
    m_i = tl.zeros((BM,), dtype=tl.float32) - float('inf')
    l_i = tl.zeros((BM,), dtype=tl.float32)
    acc = tl.zeros((BM, D), dtype=tl.float32)
    qk_scale = scale * 1.44269504
    for start in range(0, SEQ, BN):
        rn = start + tl.arange(0, BN)
        k = tl.load(k_ptr + base + rn[None, :] * D + rd[:, None])
        qk = tl.dot(q, k) * qk_scale
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + base + rn[:, None] * D + rd[None, :])
        acc += tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * D + rd[None, :], acc)


H, SEQ, D = 2, 256, 64
g = torch.Generator().manual_seed(7)
q = torch.randn(H, SEQ, D, generator=g).half().cuda()
k = torch.randn(H, SEQ, D, generator=g).half().cuda()
v = torch.randn(H, SEQ, D, generator=g).half().cuda()
o = torch.empty(H, SEQ, D, dtype=torch.float32).cuda()
grid = (SEQ // 64, H)
kern = attn[grid](q, k, v, o, 0.125, SEQ, BM=64, BN=64, D=D, num_warps=4, num_stages=2)
torch.cuda.synchronize()
open('attn.ptx', 'w').write(kern.asm['ptx'])
for n, t in (('q', q), ('k', k), ('v', v), ('o', o)):
    t.cpu().numpy().tofile(n + '.bin')
ref = torch.softmax((q.float() @ k.float().transpose(1, 2)) * 0.125, -1) @ v.float()
md = kern.metadata
with open('meta.txt', 'w') as f:
    f.write('grid %d %d\nname %s\nnum_warps %s\nshared %s\ntriton %s\ntorch %s\nmax_abs_err_vs_fp32 %g\n'
            % (grid[0], grid[1], md.name, md.num_warps, md.shared, triton.__version__, torch.__version__,
               (ref - o).abs().max().item()))
ptx = kern.asm['ptx']
print('wgmma' in ptx, 'mma.sync' in ptx, open('meta.txt').read())
