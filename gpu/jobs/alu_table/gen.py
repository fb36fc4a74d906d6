#!/usr/bin/env python3
"""gen.py -- emits alu_table.cu, a CUDA program with one kernel per PTX
instruction form that evaluates the form (inline asm) over edge and random
inputs and prints the differential table described in tests/alu/README.md.
`gen.py --ptx FILE` writes the asm bodies as one PTX module instead, so that
ptxas can check every form here without a GPU."""
import random
import sys

R = random.Random(4)

# Operand kinds: how a value travels (register type inside the asm block).
REG = {'pred': 'pred', 'b16': 'b16', 'b32': 'b32', 'b64': 'b64', 'f32': 'f32', 'f64': 'f64'}
CTY = {'pred': ('unsigned', 'r'), 'b16': ('unsigned short', 'h'), 'b32': ('unsigned', 'r'),
       'b64': ('unsigned long long', 'l'), 'f32': ('unsigned', 'r'), 'f64': ('unsigned long long', 'l')}
BITS = {'pred': 1, 'b16': 16, 'b32': 32, 'b64': 64, 'f32': 32, 'f64': 64}

# ---------------------------------------------------------------- inputs
def rbits(n):
    return R.getrandbits(n)

def edge_int(bits):
    m = (1 << bits) - 1
    h = 1 << (bits - 1)
    v = [0, 1, 2, 3, 7, m, m - 1, h, h - 1, h + 1, 0x55 & m, 0xaa & m, bits - 1, bits, bits + 1,
         (1 << (bits // 2)) & m, ((1 << (bits // 2)) - 1) & m]
    return v

def rand_int(bits):
    k = R.randrange(6)
    if k == 0:
        return R.randrange(64)
    if k == 1:
        return (-R.randrange(1, 64)) & ((1 << bits) - 1)
    if k == 2:
        return (1 << R.randrange(bits)) + R.choice([-1, 0, 1]) & ((1 << bits) - 1)
    return rbits(bits)

FMT = {'f32': (8, 23), 'f64': (11, 52), 'f16': (5, 10), 'bf16': (8, 7)}

def fedge(t):
    e, m = FMT[t]
    n = 1 + e + m
    s = 1 << (n - 1)
    inf = ((1 << e) - 1) << m
    one = ((1 << (e - 1)) - 1) << m
    v = [0, s, one, one | s, 1, s | 1, (1 << m) - 1, (1 << m), s | (1 << m), inf - 1, inf, inf | s,
         inf | (1 << (m - 1)), inf | 1, s | inf | (1 << (m - 1)) | 0x2d, inf | 0x15,
         one + (1 << m), one - (1 << m) + (1 << (m - 1)), one | (1 << (m - 1)), one + 1, one - 1,
         (one + (m + 1 << m)) | (1 << (m - 1)), one + ((m + 2) << m) | 1 << (m - 1) | 1,
         (one + (2 << m)) | ((1 << m) - 1)]
    return [x & ((1 << n) - 1) for x in v]

def frand(t, lo=None, hi=None):
    e, m = FMT[t]
    n = 1 + e + m
    bias = (1 << (e - 1)) - 1
    k = R.randrange(8)
    if k == 0:
        return rbits(n)
    sign = R.randrange(2) << (n - 1)
    if k == 1:
        ex = R.randrange(0, 3)                         # subnormal / tiny
    elif k == 2:
        ex = bias + R.randrange(-30, 64) if bias > 30 else R.randrange(1, (1 << e) - 1)
    else:
        ex = bias + R.randrange(-8, 9)
    ex = max(0, min(ex, (1 << e) - 2))
    kk = R.randrange(5)
    if kk == 0:
        man = rbits(m)
    elif kk == 1:
        man = (rbits(m) >> (m // 2)) << (m // 2)         # few bits: exact products, ties
    elif kk == 2:
        man = (rbits(6) << (m - 6)) | (1 << (m - 7 - R.randrange(min(m - 7, 24) + 1 if m > 7 else 1)) if m > 8 else 0)
    else:
        man = rbits(m) & ~((1 << R.randrange(m)) - 1)
    return sign | (ex << m) | (man & ((1 << m) - 1))

def fround_case(t):
    """f64 values close to rounding boundaries of the narrower format t."""
    e, m = FMT[t]
    k = R.randrange(4)
    bias = (1 << (e - 1)) - 1
    x = R.randrange(-(bias + m), bias + 1)
    man = rbits(m) | (1 << m)
    tail = [1 << 51 - m >> 1, (1 << 51 - m >> 1) + 1, (1 << 51 - m >> 1) - 1, rbits(52 - m)][k]
    v = ((man << (52 - m)) | tail) & ((1 << 52) - 1)
    ex = 1023 + x
    return (R.randrange(2) << 63) | (ex << 52) | v

CLS = {}
def cls(name, edges, rnd):
    CLS[name] = (edges, rnd)

for b in (16, 32, 64):
    cls('i%d' % b, edge_int(b), (lambda b: lambda: rand_int(b))(b))
cls('i8', edge_int(8) + [0x7f, 0x80, 0xff, 0x100, 0x17f, 0xffffff80], lambda: rand_int(32) if R.randrange(2) else rand_int(8))
cls('sh', [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 255, 256, 0x80000000, 0xffffffff],
    lambda: R.randrange(70) if R.randrange(4) else rbits(32))
cls('pos', [0, 1, 8, 15, 16, 31, 32, 33, 63, 64, 255, 256, 0x101, 0x120, 0x1000, 0xffffffff],
    lambda: R.randrange(70) if R.randrange(4) else rbits(8))
cls('pred', [0, 1], lambda: R.randrange(2))
for t in FMT:
    cls(t, fedge(t), (lambda t: lambda: frand(t))(t))
cls('f64n', fedge('f64') + [0x47efffffe0000000, 0x47efffffefffffff, 0x47efffff00000000, 0x36a0000000000000,
                            0x3690000000000000, 0x40f0000000000000, 0x40effe0000000000, 0x41dfffffffe00000,
                            0x41e0000000000000, 0xc1e0000000000000, 0xc1e0000000200000],
    lambda: fround_case(R.choice(['f32', 'f16', 'bf16'])) if R.randrange(2) else frand('f64'))
cls('f32n', fedge('f32') + [0x477fe000, 0x477ff000, 0x477fefff, 0x4f000000, 0xcf000000, 0x4effffff, 0x5f000000,
                            0xdf000000, 0x3f800fff, 0x3f801000, 0x3f803000, 0x33000000, 0x33800000, 0x387fc000,
                            0x3f000000, 0x3fc00000, 0x40200000, 0xbf000000, 0xc0200000, 0x4b000001, 0x4f800000],
    lambda: (lambda v: v & 0xffffffff)(R.choice([frand('f32'), rbits(32),
             (R.randrange(2) << 31) | (R.randrange(100, 190) << 23) | (rbits(10) << 13) | R.choice([0x1000, 0xfff, 0x1001, 0x0, 0x1fff, 0x3000])])))

NANS = {'f32': [0x7fc00000, 0x7f800001, 0xffc0002d], 'f64': [0x7ff8000000000000, 0x7ff0000000000001, 0xfff800000000002d]}
ONE = {'f32': 0x3f800000, 'f64': 0x3ff0000000000000}

def nan_pairs(classes):
    """Rows with two different NaNs (quiet/signalling, either order) in each pair
    of float operands: which one propagates."""
    base = [c[:3] for c in classes]
    if len(classes) < 2 or any(c not in NANS for c in base) or len(set(base)) != 1:
        return []
    t, rows = base[0], []
    for i in range(len(classes)):
        for j in range(i + 1, len(classes)):
            for x in NANS[t]:
                for y in NANS[t]:
                    if x != y:
                        r = [ONE[t]] * len(classes)
                        r[i], r[j] = x, y
                        rows.append(r)
    return rows

def gen_inputs(classes, n):
    rows = nan_pairs(classes)
    for i in range(n):
        row = []
        for c in classes:
            edges, rnd = CLS[c]
            if i < len(edges) and (i % len(classes) == classes.index(c) or len(classes) == 1):
                v = edges[i]
            elif R.randrange(3) == 0:
                v = R.choice(edges)
            else:
                v = rnd()
            row.append(v)
        rows.append(row)
    return rows

# ---------------------------------------------------------------- forms
FORMS = []   # (mnemonic, dst kinds, src kinds, src classes, imm, cc_in, cc_out, count)

def form(mn, dk, sk, sc, count=32, imm=None, cc_in=False, cc_out=False):
    FORMS.append((mn, dk, sk, sc, imm, cc_in, cc_out, count))

IK = {'s16': 'b16', 'u16': 'b16', 'b16': 'b16', 's32': 'b32', 'u32': 'b32', 'b32': 'b32',
      's64': 'b64', 'u64': 'b64', 'b64': 'b64', 's8': 'b32', 'u8': 'b32', 'b8': 'b32',
      's16x2': 'b32', 'u16x2': 'b32', 'f32': 'f32', 'f64': 'f64', 'f16': 'b16', 'bf16': 'b16',
      'tf32': 'b32', 'pred': 'pred', 'f16x2': 'b32', 'bf16x2': 'b32'}
IC = {'s16': 'i16', 'u16': 'i16', 'b16': 'i16', 's32': 'i32', 'u32': 'i32', 'b32': 'i32',
      's64': 'i64', 'u64': 'i64', 'b64': 'i64', 's8': 'i8', 'u8': 'i8', 's16x2': 'i32', 'u16x2': 'i32',
      'f32': 'f32', 'f64': 'f64', 'f16': 'f16', 'bf16': 'bf16', 'pred': 'pred'}
INTS = ['s16', 'u16', 's32', 'u32', 's64', 'u64']
RND = ['rn', 'rz', 'rm', 'rp']
CMPI = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'lo', 'ls', 'hi', 'hs']
CMPF = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num', 'nan']

def simple(mn, t, n, count=32, dt=None, sc=None):
    form(mn, [IK[dt or t]], [IK[t]] * n, sc or [IC[t]] * n, count)

def int_forms():
    for t in INTS:
        for op in ('add', 'sub', 'min', 'max', 'div', 'rem'):
            simple('%s.%s' % (op, t), t, 2, 40 if op in ('div', 'rem') else 24)
        for h in ('lo', 'hi') + (('wide',) if t[1:] != '64' else ()):
            wt = t[0] + str(int(t[1:]) * 2)
            dt = wt if h == 'wide' else t
            form('mul.%s.%s' % (h, t), [IK[dt]], [IK[t]] * 2, [IC[t]] * 2, 24)
            form('mad.%s.%s' % (h, t), [IK[dt]], [IK[t], IK[t], IK[dt]], [IC[t], IC[t], IC[dt]], 24)
        simple('sad.' + t, t, 3, 24)
        if t[0] == 's':
            simple('abs.' + t, t, 1, 20)
            simple('neg.' + t, t, 1, 20)
    for op in ('add.sat', 'sub.sat', 'min.relu', 'max.relu'):
        simple(op + '.s32', 's32', 2, 32)
    form('mad.hi.sat.s32', ['b32'], ['b32'] * 3, ['i32'] * 3, 32)
    for t in ('s16x2', 'u16x2'):
        for op in ('min', 'max', 'add'):
            simple('%s.%s' % (op, t), t, 2, 24)
    for op in ('min.relu', 'max.relu'):
        simple(op + '.s16x2', 's16x2', 2, 24)
    for t in ('s32', 'u32'):
        for h in ('lo', 'hi'):
            simple('mul24.%s.%s' % (h, t), t, 2, 24)
            simple('mad24.%s.%s' % (h, t), t, 3, 24)
    form('mad24.hi.sat.s32', ['b32'], ['b32'] * 3, ['i32'] * 3, 24)
    # carry chains: the table adds carry-in as the last source, carry-out as the last destination
    for t in ('u32', 's32', 'u64', 's64'):
        k, c = IK[t], IC[t]
        form('add.cc.' + t, [k], [k, k], [c, c], 24, cc_out=True)
        form('sub.cc.' + t, [k], [k, k], [c, c], 24, cc_out=True)
        form('addc.' + t, [k], [k, k], [c, c], 24, cc_in=True)
        form('subc.' + t, [k], [k, k], [c, c], 24, cc_in=True)
        form('addc.cc.' + t, [k], [k, k], [c, c], 32, cc_in=True, cc_out=True)
        form('subc.cc.' + t, [k], [k, k], [c, c], 32, cc_in=True, cc_out=True)
        for h in ('lo', 'hi'):
            form('mad.%s.cc.%s' % (h, t), [k], [k] * 3, [c] * 3, 24, cc_out=True)
            form('madc.%s.%s' % (h, t), [k], [k] * 3, [c] * 3, 24, cc_in=True)
            form('madc.%s.cc.%s' % (h, t), [k], [k] * 3, [c] * 3, 24, cc_in=True, cc_out=True)
    for b in ('b32', 'b64'):
        form('popc.' + b, ['b32'], [IK[b]], [IC[b]], 24)
        form('clz.' + b, ['b32'], [IK[b]], [IC[b]], 24)
        simple('brev.' + b, b, 1, 20)
        form('bfi.' + b, [IK[b]], [IK[b], IK[b], 'b32', 'b32'], [IC[b], IC[b], 'pos', 'pos'], 40)
    for t in ('u32', 's32', 'u64', 's64'):
        form('bfind.' + t, ['b32'], [IK[t]], [IC[t]], 24)
        form('bfind.shiftamt.' + t, ['b32'], [IK[t]], [IC[t]], 24)
        form('bfe.' + t, [IK[t]], [IK[t], 'b32', 'b32'], [IC[t], 'pos', 'pos'], 48)
    form('fns.b32', ['b32'], ['b32'] * 3, ['i32', 'i32', 'i32'], 40)
    for m in ('wrap', 'clamp'):
        for t in ('s32', 'u32'):
            form('szext.%s.%s' % (m, t), ['b32'], ['b32', 'b32'], ['i32', 'pos'], 32)
        form('bmsk.%s.b32' % m, ['b32'], ['b32', 'b32'], ['pos', 'pos'], 32)
    for a in ('u32', 's32'):
        for b in ('u32', 's32'):
            form('dp4a.%s.%s' % (a, b), ['b32'], ['b32'] * 3, ['i32'] * 3, 24)
            for h in ('lo', 'hi'):
                form('dp2a.%s.%s.%s' % (h, a, b), ['b32'], ['b32'] * 3, ['i32'] * 3, 24)
    for b in ('b16', 'b32', 'b64'):
        for op in ('and', 'or', 'xor'):
            simple('%s.%s' % (op, b), b, 2, 16)
        simple('not.' + b, b, 1, 12)
        simple('cnot.' + b, b, 1, 12)
        form('shl.' + b, [IK[b]], [IK[b], 'b32'], [IC[b], 'sh'], 24)
    for t in ('b16', 'u16', 's16', 'b32', 'u32', 's32', 'b64', 'u64', 's64'):
        form('shr.' + t, [IK[t]], [IK[t], 'b32'], [IC[t], 'sh'], 24)
    for op in ('and', 'or', 'xor'):
        form(op + '.pred', ['pred'], ['pred', 'pred'], ['pred', 'pred'], 4)
    form('not.pred', ['pred'], ['pred'], ['pred'], 2)
    for lut in (0x00, 0xff, 0x96, 0xe8, 0xca, 0xf0, 0xcc, 0xaa, 0x1e, 0x6a, 0x80, 0x01, 0x7f, 0xfe, 0x35, 0xb4):
        form('lop3.b32', ['b32'], ['b32'] * 3, ['i32'] * 3, 8, imm=lut)
    for d in ('l', 'r'):
        for m in ('wrap', 'clamp'):
            form('shf.%s.%s.b32' % (d, m), ['b32'], ['b32'] * 3, ['i32', 'i32', 'sh'], 32)
    for m in ('', '.f4e', '.b4e', '.rc8', '.ecl', '.ecr', '.rc16'):
        form('prmt.b32' + m, ['b32'], ['b32'] * 3, ['i32', 'i32', 'i32'], 32)
    for t in ('b16', 'b32', 'b64', 'f32', 'f64'):
        form('selp.' + t, [IK[t]], [IK[t], IK[t], 'pred'], [IC.get(t, 'i' + t[1:]), IC.get(t, 'i' + t[1:]), 'pred'], 8)
    for dt in ('b32', 's32', 'u32', 'f32'):
        for ct in ('s32', 'f32'):
            form('slct.%s.%s' % (dt, ct), [IK[dt]], [IK[dt], IK[dt], IK[ct]], [IC.get(dt, 'i32'), IC.get(dt, 'i32'), IC[ct]], 12)
    form('slct.ftz.f32.f32', ['f32'], ['f32'] * 3, ['f32'] * 3, 16)
    form('slct.b64.s32', ['b64'], ['b64', 'b64', 'b32'], ['i64', 'i64', 'i32'], 8)
    for t in ('b16', 'b32', 'b64', 'u32', 's64', 'f32', 'f64', 'pred'):
        form('mov.' + t, [IK[t]], [IK[t]], [IC.get(t, 'i' + t[1:])], 4)

def cmp_forms():
    for t in ('s16', 'u16', 's32', 'u32', 's64', 'u64', 'b32', 'b64'):
        cmps = CMPI if t[0] != 'b' else ['eq', 'ne']
        if t[0] == 'b':
            cmps = ['eq', 'ne']
        for c in cmps:
            if t[0] == 's' and c in ('lo', 'ls', 'hi', 'hs'):
                continue
            form('setp.%s.%s' % (c, t), ['pred'], [IK[t]] * 2, [IC[t]] * 2, 10)
    for t in ('f32', 'f64'):
        for c in CMPF:
            form('setp.%s.%s' % (c, t), ['pred'], [t, t], [t, t], 20)
        form('setp.lt.ftz.f32' if t == 'f32' else 'setp.ltu.f64', ['pred'], [t, t], [t, t], 20)
    for bo in ('and', 'or', 'xor'):
        form('setp.lt.%s.s32' % bo, ['pred'], ['b32', 'b32', 'pred'], ['i32', 'i32', 'pred'], 12)
        form('setp.gtu.%s.f32' % bo, ['pred', 'pred'], ['f32', 'f32', 'pred'], ['f32', 'f32', 'pred'], 16)
        form('setp.ne.%s.u64' % bo, ['pred', 'pred'], ['b64', 'b64', 'pred'], ['i64', 'i64', 'pred'], 12)
    form('setp.ge.f32', ['pred', 'pred'], ['f32', 'f32'], ['f32', 'f32'], 16)
    form('setp.eq.ftz.f32', ['pred'], ['f32', 'f32'], ['f32', 'f32'], 16)
    form('setp.hi.or.u16', ['pred', 'pred'], ['b16', 'b16', 'pred'], ['i16', 'i16', 'pred'], 12)
    form('setp.nan.xor.f64', ['pred', 'pred'], ['f64', 'f64', 'pred'], ['f64', 'f64', 'pred'], 12)
    form('setp.leu.ftz.and.f32', ['pred'], ['f32', 'f32', 'pred'], ['f32', 'f32', 'pred'], 16)
    for dt in ('u32', 's32', 'f32'):
        for st in ('s32', 'u32', 'f32', 'f64', 's64'):
            for c in (['lt', 'ne', 'lo'] if st[0] == 'u' else ['lt', 'ne', 'geu', 'nan'] if st[0] == 'f' else ['lt', 'ge']):
                form('set.%s.%s.%s' % (c, dt, st), [IK[dt]], [IK[st]] * 2, [IC[st]] * 2, 10)
        form('set.le.and.%s.f32' % dt, [IK[dt]], ['f32', 'f32', 'pred'], ['f32', 'f32', 'pred'], 12)
        form('set.lt.xor.ftz.%s.f32' % dt, [IK[dt]], ['f32', 'f32', 'pred'], ['f32', 'f32', 'pred'], 12)

def float_forms():
    for t in ('f32', 'f64'):
        ftz = ['', '.ftz'] if t == 'f32' else ['']
        for r in [''] + ['.' + x for x in RND]:
            for f in ftz:
                for s in (['', '.sat'] if t == 'f32' else ['']):
                    for op in ('add', 'sub', 'mul'):
                        form('%s%s%s%s.%s' % (op, r, f, s, t), [t], [t, t], [t, t], 80 if r else 24)
                    if r:
                        form('fma%s%s%s.%s' % (r, f, s, t), [t], [t] * 3, [t] * 3, 96)
                if r:
                    form('div%s%s.%s' % (r, f, t), [t], [t, t], [t, t], 80)
                    form('rcp%s%s.%s' % (r, f, t), [t], [t], [t], 32)
                    form('sqrt%s%s.%s' % (r, f, t), [t], [t], [t], 48)
        form('mad.rn.%s' % t, [t], [t] * 3, [t] * 3, 24)
        for f in ftz:
            for op in ('abs', 'neg'):
                form('%s%s.%s' % (op, f, t), [t], [t], [t], 24)
            for op in ('min', 'max'):
                for m in ('', '.NaN', '.xorsign.abs', '.NaN.xorsign.abs') if t == 'f32' else ('',):
                    form('%s%s%s.%s' % (op, f, m, t), [t], [t, t], [t, t], 40)
        for c in ('finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal'):
            form('testp.%s.%s' % (c, t), ['pred'], [t], [t], 24)
        form('copysign.' + t, [t], [t, t], [t, t], 16)
    for f in ('', '.ftz'):
        for op in ('sin', 'cos', 'lg2', 'ex2', 'rcp', 'sqrt', 'rsqrt'):
            form('%s.approx%s.f32' % (op, f), ['f32'], ['f32'], ['f32'], 96)
        form('div.approx%s.f32' % f, ['f32'], ['f32'] * 2, ['f32'] * 2, 96)
        form('div.full%s.f32' % f, ['f32'], ['f32'] * 2, ['f32'] * 2, 96)
    form('tanh.approx.f32', ['f32'], ['f32'], ['f32'], 96)
    form('rcp.approx.ftz.f64', ['f64'], ['f64'], ['f64'], 64)
    form('rsqrt.approx.f64', ['f64'], ['f64'], ['f64'], 64)
    form('rsqrt.approx.ftz.f64', ['f64'], ['f64'], ['f64'], 32)

def fits(s, d):
    """every value of integer type s is representable in integer type d"""
    bs, bd = int(s[1:]), int(d[1:])
    if s[0] == 'u':
        return bs < bd if d[0] == 's' else bs <= bd
    return d[0] == 's' and bs <= bd

CVTI = ['s8', 'u8', 's16', 'u16', 's32', 'u32', 's64', 'u64']
def cvt_forms():
    for d in CVTI:
        for s in CVTI:
            if d != s:
                form('cvt.%s.%s' % (d, s), [IK[d]], [IK[s]], [IC[s]], 8)
            if not fits(s, d):
                form('cvt.sat.%s.%s' % (d, s), [IK[d]], [IK[s]], [IC[s]], 12)
    for i in CVTI:
        for f in ('f16', 'bf16', 'f32', 'f64'):
            fc = {'f32': 'f32n', 'f64': 'f64n'}.get(f, f)
            for r in RND:
                if not (f == 'bf16' and i in ('s8', 'u8')):
                    form('cvt.%s.%s.%s' % (r, f, i), [IK[f]], [IK[i]], [IC[i]], 32)
                if not (f == 'bf16' and i in ('s8', 'u8')):
                    form('cvt.%si.%s.%s' % (r, i, f), [IK[i]], [IK[f]], [fc], 32)
            if f == 'f32':
                form('cvt.rzi.ftz.%s.f32' % i, [IK[i]], ['f32'], ['f32n'], 16)
                form('cvt.rni.sat.%s.f32' % i, [IK[i]], ['f32'], ['f32n'], 16)
    FF = ['f16', 'bf16', 'f32', 'f64']
    for d in FF:
        for s in FF:
            sc = {'f32': 'f32n', 'f64': 'f64n'}.get(s, s)
            wider = FF.index(d) > FF.index(s) or (d, s) == ('f32', 'bf16')
            if d == s:
                for r in ('rni', 'rzi', 'rmi', 'rpi'):
                    form('cvt.%s.%s.%s' % (r, d, s), [IK[d]], [IK[s]], [sc], 24)
                continue
            if wider:
                form('cvt.%s.%s' % (d, s), [IK[d]], [IK[s]], [sc], 32)
            else:
                for r in RND:
                    form('cvt.%s.%s.%s' % (r, d, s), [IK[d]], [IK[s]], [sc], 64)
    for r in ('rni', 'rzi', 'rmi', 'rpi', 'rn', 'rz', 'rm', 'rp'):
        for f in ('', '.ftz'):
            form('cvt.%s%s.sat.f32.f64' % (r, f) if r[-1] != 'i' else 'cvt.%s%s.f32.f32' % (r, f),
                 ['f32'], ['f64' if r[-1] != 'i' else 'f32'], ['f64n' if r[-1] != 'i' else 'f32n'], 24)
    form('cvt.ftz.f32.f32', ['f32'], ['f32'], ['f32'], 24)
    form('cvt.f32.f32', ['f32'], ['f32'], ['f32'], 16)
    form('cvt.f64.f64', ['f64'], ['f64'], ['f64'], 16)
    form('cvt.u32.u32', ['b32'], ['b32'], ['i32'], 4)
    form('cvt.s16.s16', ['b16'], ['b16'], ['i16'], 4)
    form('cvt.sat.f32.f32', ['f32'], ['f32'], ['f32'], 24)
    form('cvt.ftz.sat.f32.f32', ['f32'], ['f32'], ['f32'], 16)
    form('cvt.rn.sat.f16.f32', ['b16'], ['f32'], ['f32n'], 24)
    form('cvt.ftz.f64.f32', ['f64'], ['f32'], ['f32n'], 24)
    form('cvt.sat.f64.f32', ['f64'], ['f32'], ['f32n'], 16)
    form('cvt.rn.relu.f16.f32', ['b16'], ['f32'], ['f32n'], 24)
    form('cvt.rn.relu.bf16.f32', ['b16'], ['f32'], ['f32n'], 24)
    form('cvt.rna.tf32.f32', ['b32'], ['f32'], ['f32n'], 40)
    form('cvt.rna.satfinite.tf32.f32', ['b32'], ['f32'], ['f32n'], 24)
    for d in ('f16', 'bf16'):
        form('cvt.rn.satfinite.%s.f32' % d, ['b16'], ['f32'], ['f32n'], 32)
        form('cvt.rn.relu.satfinite.%sx2.f32' % d, ['b32'], ['f32', 'f32'], ['f32n', 'f32n'], 16)
    form('cvt.rn.tf32.f32', ['b32'], ['f32'], ['f32n'], 40)
    form('cvt.rz.tf32.f32', ['b32'], ['f32'], ['f32n'], 40)
    form('cvt.rn.relu.tf32.f32', ['b32'], ['f32'], ['f32n'], 24)
    for d in ('f16x2', 'bf16x2'):
        form('cvt.rn.%s.f32' % d, ['b32'], ['f32', 'f32'], ['f32n', 'f32n'], 24)
        form('cvt.rz.relu.%s.f32' % d, ['b32'], ['f32', 'f32'], ['f32n', 'f32n'], 16)
    for dt in ('u8', 's8', 'u16', 's16'):
        for st in ('s32',):
            if dt.endswith('16'):
                form('cvt.pack.sat.%s.%s' % (dt, st), ['b32'], ['b32', 'b32'], ['i32', 'i32'], 16)
            else:
                form('cvt.pack.sat.%s.%s.b32' % (dt, st), ['b32'], ['b32'] * 3, ['i32'] * 3, 16)

int_forms()
cmp_forms()
float_forms()
cvt_forms()

# ---------------------------------------------------------------- emission
def asm_body(f):
    mn, dk, sk, sc, imm, cc_in, cc_out, _ = f
    lines, decl = [], []
    nd, ns = len(dk), len(sk)
    for i, k in enumerate(dk):
        decl.append('.reg .%s y%d;' % (REG[k], i))
    for i, k in enumerate(sk):
        decl.append('.reg .%s x%d;' % (REG[k], i))
    if cc_in or cc_out:
        decl.append('.reg .b32 cct;')
    for i, k in enumerate(sk):
        a = '%%%d' % (nd + (1 if cc_out else 0) + i)
        lines.append('setp.ne.b32 x%d, %s, 0;' % (i, a) if k == 'pred' else 'mov.b%d x%d, %s;' % (BITS[k], i, a))
    if cc_in:
        lines.append('add.cc.u32 cct, %%%d, 0xffffffff;' % (nd + (1 if cc_out else 0) + ns))
    dst = ['y%d' % i for i in range(nd)]
    ops = ('|'.join(dst) if nd == 2 else dst[0]) + ''.join(', x%d' % i for i in range(ns))
    if imm is not None:
        ops += ', %d' % imm
    lines.append('%s %s;' % (mn, ops))
    if cc_out:
        lines.append('addc.u32 %%%d, 0, 0;' % nd)
    for i, k in enumerate(dk):
        lines.append('selp.u32 %%%d, 1, 0, y%d;' % (i, i) if k == 'pred' else 'mov.b%d %%%d, y%d;' % (BITS[k], i, i))
    return decl, lines

def table_row(f):
    """(printed mnemonic, nopnds, #sources printed, #dests printed)"""
    mn, dk, sk, sc, imm, cc_in, cc_out, _ = f
    return mn, len(dk) + len(sk) + (imm is not None), len(sk) + (imm is not None) + cc_in, len(dk) + cc_out

def emit_cu(out):
    w = out.write
    w('// Generated by gen.py: one kernel per PTX instruction form; prints the ALU differential table.\n')
    w('#include <cstdio>\n#include <cstdlib>\n#include <cuda_runtime.h>\n')
    w('typedef unsigned long long u64;\n')
    all_in = []
    meta = []
    for idx, f in enumerate(FORMS):
        mn, dk, sk, sc, imm, cc_in, cc_out, count = f
        cls_all = list(sc) + (['pred'] if cc_in else [])
        rows = gen_inputs(cls_all, count)
        count = len(rows)
        off = len(all_in)
        for r in rows:
            for v, k in zip(r, list(sk) + (['pred'] if cc_in else [])):
                all_in.append(v & ((1 << BITS[k]) - 1))
        meta.append((off, count, len(cls_all)))
        decl, lines = asm_body(f)
        nd, ns = len(dk), len(sk)
        w('__global__ void k%d(const u64 *in, u64 *out, int n) {\n' % idx)
        w('  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;\n')
        w('  const u64 *s = in + (size_t)i * %d; u64 *o = out + (size_t)i * %d;\n' % (len(cls_all), nd + cc_out))
        outs, ins = [], []
        for j, k in enumerate(dk + (['b32'] if cc_out else [])):
            ct, c = CTY[k]
            w('  %s o%d;\n' % (ct, j))
            outs.append('"=%s"(o%d)' % (c, j))
        for j, k in enumerate(sk + (['b32'] if cc_in else [])):
            ct, c = CTY[k]
            w('  %s a%d = (%s)s[%d];\n' % (ct, j, ct, j))
            ins.append('"%s"(a%d)' % (c, j))
        body = ' '.join(decl + lines)
        w('  asm volatile("{ %s }" : %s : %s);\n' % (body, ', '.join(outs), ', '.join(ins)))
        for j in range(nd + cc_out):
            w('  o[%d] = o%d;\n' % (j, j))
        w('}\n')
    w('static const u64 IN[] = {\n')
    for i in range(0, len(all_in), 8):
        w('  ' + ', '.join('0x%xull' % v for v in all_in[i:i + 8]) + ',\n')
    w('};\n')
    w('typedef void (*kfn)(const u64 *, u64 *, int);\n')
    w('struct form { const char *mn; int nopnds, ns, nd, off, n, nsrcb[8], ndstb[4]; kfn k; };\n')
    w('static const form F[] = {\n')
    for idx, f in enumerate(FORMS):
        mn, nop, nsp, ndp = table_row(f)
        off, cnt, ncls = meta[idx]
        mn_, dk, sk, sc, imm, cc_in, cc_out, _ = f
        sb = [BITS[k] for k in sk] + ([1] if cc_in else [])
        db = [BITS[k] for k in dk] + ([1] if cc_out else [])
        w('  {"%s", %d, %d, %d, %d, %d, {%s}, {%s}, k%d},\n' % (mn, nop, len(sk) + cc_in, len(dk) + cc_out, off, cnt,
          ','.join(map(str, sb)), ','.join(map(str, db)), idx))
        IMMS.append(imm)
    w('};\n')
    w('static const int IMM[] = {%s};\n' % ','.join(str(-1 if v is None else v) for v in IMMS))
    w(r'''
int main() {
  int nf = sizeof F / sizeof F[0];
  u64 *din, *dout; size_t nin = sizeof IN / sizeof IN[0];
  cudaMalloc(&din, sizeof IN); cudaMalloc(&dout, 8 * 4 * 4096);
  cudaMemcpy(din, IN, sizeof IN, cudaMemcpyHostToDevice);
  static u64 out[4 * 4096];
  long rows = 0;
  for (int f = 0; f < nf; f++) {
    const form &x = F[f];
    x.k<<<(x.n + 127) / 128, 128>>>(din + x.off, dout, x.n);
    cudaError_t e = cudaMemcpy(out, dout, 8 * (size_t)x.n * x.nd, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", x.mn, cudaGetErrorString(e)); return 1; }
    for (int i = 0; i < x.n; i++) {
      const u64 *s = IN + x.off + (size_t)i * x.ns;
      printf("%s %d |", x.mn, x.nopnds);
      for (int j = 0; j < x.ns; j++) printf(" 0x%llx", s[j]);
      if (IMM[f] >= 0) printf(" 0x%x", IMM[f]);
      printf(" |");
      for (int j = 0; j < x.nd; j++) printf(" 0x%llx", out[(size_t)i * x.nd + j]);
      printf("\n");
      rows++;
    }
  }
  fprintf(stderr, "%d forms, %ld rows, %zu input words\n", nf, rows, nin);
  return 0;
}
''')

IMMS = []

def emit_ptx(out):
    w = out.write
    w('.version 8.8\n.target sm_90\n.address_size 64\n')
    for idx, f in enumerate(FORMS):
        mn, dk, sk, sc, imm, cc_in, cc_out, _ = f
        decl, lines = asm_body(f)
        nd, ns = len(dk), len(sk)
        w('// FORM %s\n.visible .entry k%d() {\n' % (mn, idx))
        regs = []
        for j, k in enumerate(dk + (['b32'] if cc_out else []) + sk + (['b32'] if cc_in else [])):
            t = {'pred': 'b32', 'f32': 'b32', 'f64': 'b64'}.get(k, k)
            w('.reg .%s p%d;\n' % (t, j))
        body = '\n'.join(decl + lines)
        import re
        body = re.sub(r'%(\d+)', lambda m: 'p' + m.group(1), body)
        w('{\n' + body + '\n}\nret;\n}\n')

if __name__ == '__main__':
    if len(sys.argv) > 2 and sys.argv[1] == '--ptx':
        with open(sys.argv[2], 'w') as o:
            emit_ptx(o)
    else:
        with open(sys.argv[1] if len(sys.argv) > 1 else 'alu_table.cu', 'w') as o:
            emit_cu(o)
    sys.stderr.write('%d forms, %d cases\n' % (len(FORMS), sum(f[7] for f in FORMS)))
