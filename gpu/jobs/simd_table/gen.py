#!/usr/bin/env python3
"""gen.py — writes the CUDA program that records the SIMD video, half/bf16 and
fp8/packed-conversion differential table on a GPU (see run.sh).  Every form is
one kernel running one inline-asm instruction over a fixed set of inputs.

Usage: gen.py OUTDIR [--list]   (--list prints the forms and exits)
SIMD_TABLE_SALT=x draws different random inputs (edge values stay), to check
that what was learnt from one recording holds on fresh data.
Table row: <mnemonic> <nopnds> | <sources, 0x hex> | <destinations, 0x hex>
Operand selectors written on operands in PTX are appended to the mnemonic as
"@d=SEL", "@a=SEL", "@b=SEL", "@c=SEL" (a leading '-' on SEL is a negation)."""
import itertools, os, random, struct, sys, zlib

U, S = "u32", "s32"
TY2 = [U, S]

# ---------------------------------------------------------------- input pools
def f32b(x): return struct.unpack("<I", struct.pack("<f", x))[0]
def f64b(x): return struct.unpack("<Q", struct.pack("<d", x))[0]

I32_EDGE = [0, 1, 0x80808080, 0x7F7F7F7F, 0xFFFFFFFF, 0x80008000, 0x7FFF7FFF, 0x7FFFFFFF,
            0x80000000, 0x00FF00FF, 0xFF00FF00, 0x01020304, 0x04030201, 0x0000FFFF,
            0xFFFF0000, 0x00010001, 0xFEFEFEFE, 0x81818181, 0x7E7E7E7E, 0x00000080]
BYTES = [0, 1, 2, 0x7E, 0x7F, 0x80, 0x81, 0xFE, 0xFF, 0x40, 0xC0]
F16_EDGE = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x8400, 0x7BFF, 0xFBFF,
            0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x7FFF, 0x3C00, 0xBC00, 0x3C01, 0x3BFF,
            0x3800, 0x4000, 0xC000, 0x0200, 0x5BFF, 0x6400, 0x1400, 0x9400]
BF16_EDGE = [0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x0080, 0x8080, 0x7F7F, 0xFF7F, 0x7F80,
             0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0x7FFF, 0x3F80, 0xBF80, 0x3F81, 0x3F7F, 0x3F00,
             0x4000, 0xC000, 0x0040, 0x4B00, 0x4380, 0x3C00, 0xC380]
F32_EDGE = [0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
            0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FBFFFFF, 0x3F800000,
            0xBF800000, f32b(65504.0), f32b(65519.0), f32b(65520.0), f32b(-65520.0), f32b(448.0),
            f32b(464.0), f32b(480.0), f32b(57344.0), f32b(61440.0), f32b(2.0**-24), f32b(2.0**-25),
            f32b(3 * 2.0**-26), f32b(2.0**-14), f32b(2.0**-9), f32b(2.0**-10), f32b(2.0**-16),
            f32b(2.0**-17), f32b(0.5), f32b(-0.5), f32b(1.5), f32b(2.5), f32b(-2.5), f32b(3.5),
            0x3F808000, 0x3F818000, 0x3F807FFF, 0x3F808001, 0x3F801000, 0x3F803000, 0x3F800FFF,
            0x3F801001, f32b(6.0), f32b(7.0), f32b(0.25), f32b(2.0**127), f32b(2.0**-126), 0x4B000000,
            f32b(1e10), f32b(-1e10), f32b(3e38), f32b(2.0**-127), f32b(2.0**-133), f32b(2.0**-134)]
F64_EDGE = [f64b(x) for x in (0.0, -0.0, 1.0, -1.0, 65504.0, 65520.0, 65519.99999, 2.0**-24,
            2.0**-25, 2.0**-25 * 1.0000001, 1.0 + 2.0**-11, 1.0 + 2.0**-11 + 2.0**-40, 1e300,
            -1e300, 5e-324, float("inf"), float("-inf"), 3.0e38, 2.0**-133, 2.0**-134)] + \
           [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001]
I16_EDGE = [0, 1, 0x7FFF, 0x8000, 0xFFFF, 0x00FF, 0x0080, 0x7F, 0x81, 0xFF7F, 2048, 2049, 4097]
I64_EDGE = [0, 1, 0xFFFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 65504, 65520,
            0x1000001, 0x0020000000000001, 0xFFFFFFFF, 0x80000000, 0xFFFFFFFF80000000]
E8X2_EDGE = [0x0000, 0x8080, 0x7F7F, 0xFFFF, 0x7E7E, 0xFEFE, 0x7C7C, 0x7B7B, 0xFCFC, 0x0101,
             0x0307, 0x0408, 0x3C38, 0xB8BC, 0x7D7E, 0x0203, 0x0004, 0x8008]


def near_format(rng, mbits_keep, mant_total, bits):
    """An f32/f64 bit pattern whose dropped low bits sit on or next to a tie."""
    drop = mant_total - mbits_keep
    hi = rng.getrandbits(bits) >> drop << drop
    low = rng.choice([0, 1 << (drop - 1), (1 << (drop - 1)) - 1, (1 << (drop - 1)) + 1,
                      rng.getrandbits(drop), (1 << drop) - 1])
    return hi | low


def pool_value(kind, rng):
    """One random input of the given operand domain."""
    r = rng.random()
    if kind == "i32":
        if r < 0.5:
            return int.from_bytes(bytes(rng.choice(BYTES) for _ in range(4)), "little")
        return rng.getrandbits(32)
    if kind == "sh":       # shift amounts for vshl/vshr
        return rng.choice([0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 40, 255, 0xFFFFFFFF, 0x100,
                           rng.getrandbits(32), rng.getrandbits(6)])
    if kind == "i16": return rng.getrandbits(16)
    if kind == "i64": return rng.getrandbits(64) >> rng.choice([0, 8, 32, 40, 48, 52])
    if kind in ("f16", "bf16"):
        return rng.getrandbits(16) if r < 0.7 else rng.choice(F16_EDGE if kind == "f16" else BF16_EDGE)
    if kind in ("f16x2", "bf16x2"):
        e = F16_EDGE if kind == "f16x2" else BF16_EDGE
        lo = rng.choice(e) if r < 0.3 else rng.getrandbits(16)
        hi = rng.choice(e) if rng.random() < 0.3 else rng.getrandbits(16)
        return hi << 16 | lo
    if kind == "f32":
        if r < 0.25: return near_format(rng, 10, 23, 32)      # f16 rounding boundaries
        if r < 0.45: return near_format(rng, 7, 23, 32)       # bf16
        if r < 0.6: return near_format(rng, 3, 23, 32)        # e4m3
        if r < 0.7: return near_format(rng, 2, 23, 32)        # e5m2
        if r < 0.8:  # small magnitudes, where the narrow formats have their range
            e = rng.randint(100, 160)
            return rng.getrandbits(1) << 31 | e << 23 | near_format(rng, 3, 23, 23)
        return rng.getrandbits(32)
    if kind == "f64":
        if r < 0.5: return near_format(rng, 10, 52, 64)
        if r < 0.7:
            e = rng.randint(1023 - 30, 1023 + 20)
            return rng.getrandbits(1) << 63 | e << 52 | near_format(rng, 10, 52, 52)
        return rng.getrandbits(64)
    if kind == "e8x2": return rng.getrandbits(16)
    if kind == "pred": return rng.getrandbits(1)
    raise ValueError(kind)


EDGES = {"i32": I32_EDGE, "sh": [0, 1, 16, 31, 32, 33, 0xFFFFFFFF], "i16": I16_EDGE,
         "i64": I64_EDGE, "f16": F16_EDGE, "bf16": BF16_EDGE,
         "f16x2": [a << 16 | b for a, b in zip(F16_EDGE, F16_EDGE[3:] + F16_EDGE[:3])],
         "bf16x2": [a << 16 | b for a, b in zip(BF16_EDGE, BF16_EDGE[5:] + BF16_EDGE[:5])],
         "f32": F32_EDGE, "f64": F64_EDGE, "e8x2": E8X2_EDGE, "pred": [0, 1]}


def make_inputs(name, kinds, rows):
    """rows x len(kinds) values: edge values crossed first, then random ones."""
    rng = random.Random(zlib.crc32((name + os.environ.get("SIMD_TABLE_SALT", "")).encode()))
    out = []
    edges = [EDGES[k] for k in kinds]
    for i in range(rows):
        row = []
        for j, k in enumerate(kinds):
            e = edges[j]
            if i < 2 * len(edges[0]) and (j == 0 or rng.random() < 0.6):
                # walk the edge list so every edge meets several partners
                row.append(e[(i * (2 * j + 1) + j * 3) % len(e)])
            else:
                row.append(pool_value(k, rng))
        out.append(row)
    return out


# ---------------------------------------------------------------- forms
class Form:
    """mn: table mnemonic; asm: PTX text with %d0.. %s0.. operand slots;
    dst/src: list of (reg-kind, bytes); kinds: input pool per source."""
    def __init__(self, mn, nopnds, asm, dst, src, kinds, rows=64):
        self.mn, self.nopnds, self.asm, self.dst, self.src = mn, nopnds, asm, dst, src
        self.kinds, self.rows = kinds, rows


FORMS = []
R, H, L, P = ("r", 4), ("h", 2), ("l", 8), ("p", 0)


def add(mn, nopnds, asm, dst, src, kinds, rows=64):
    FORMS.append(Form(mn, nopnds, asm, dst, src, kinds, rows))


def sel_suffix(sels):
    return "".join("@%s=%s" % (k, v) for k, v in sels if v)


def video_operands(sels, names=("d", "a", "b", "c")):
    """Operand text with selectors: ('-' prefix means negate)."""
    m = dict(sels)
    slots = {"d": "%d0", "a": "%s0", "b": "%s1", "c": "%s2"}
    out = []
    for n in names:
        v = m.get(n, "")
        neg = v.startswith("-")
        v = v.lstrip("-")
        out.append(("-" if neg else "") + slots[n] + ("." + v if v else ""))
    return ", ".join(out)


def video_simd():
    for n in (2, 4):
        ops = ["vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"]
        sels = ([("d", "h0")], [("d", "h1")], [("a", "h01"), ("b", "h11")], [("a", "h32"), ("b", "h10")],
                [("d", "h1"), ("a", "h23"), ("b", "h02")]) if n == 2 else \
               ([("d", "b0")], [("d", "b31")], [("d", "b210")], [("a", "b0123"), ("b", "b4567")],
                [("a", "b7654"), ("b", "b3210")], [("d", "b20"), ("a", "b1357"), ("b", "b0246")])
        for op in ops:
            for dt, at, bt in itertools.product(TY2, TY2, TY2):
                for mod in ("", ".sat", ".add"):
                    mn = "%s%d.%s.%s.%s%s" % (op, n, dt, at, bt, mod)
                    add(mn, 4, mn + " " + video_operands([]) + ";", [R], [R, R, R], ["i32"] * 3)
            for i, s in enumerate(sels):
                for mod in (".u32.u32.u32", ".s32.s32.s32.sat", ".s32.u32.s32.add"):
                    if (i + len(mod)) % 2 and mod.endswith("sat"):
                        continue
                    mn = "%s%d%s" % (op, n, mod)
                    add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32"] * 3)
        for at, bt in itertools.product(TY2, TY2):
            for cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
                for mod in ("", ".add"):
                    mn = "vset%d.%s.%s.%s%s" % (n, at, bt, cmp, mod)
                    add(mn, 4, mn + " " + video_operands([]) + ";", [R], [R, R, R], ["i32"] * 3)
        for s in sels[:4]:
            for mn in ("vset%d.u32.u32.lt" % n, "vset%d.s32.s32.ge.add" % n):
                add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32"] * 3)


SCALAR_SELS = ([("a", "b1"), ("b", "b2")], [("a", "b3"), ("b", "h1")], [("a", "h0"), ("b", "b0")],
               [("a", "h1"), ("b", "h0")], [("a", "b0"), ("b", "b3")], [("a", "h1"), ("b", "h1")])
DSELS = ("b0", "b1", "b2", "b3", "h0", "h1")
TYPES_MIX = [(U, U, U), (S, S, S), (S, U, S), (U, S, U)]


def video_scalar():
    for op in ("vadd", "vsub", "vabsdiff", "vmin", "vmax"):
        for dt, at, bt in itertools.product(TY2, TY2, TY2):
            for sat in ("", ".sat"):
                mn = "%s.%s.%s.%s%s" % (op, dt, at, bt, sat)
                add(mn, 3, mn + " " + video_operands([], "dab") + ";", [R], [R, R], ["i32"] * 2)
        for (dt, at, bt), op2, sat in itertools.product(TYPES_MIX, (".add", ".min", ".max"), ("", ".sat")):
            mn = "%s.%s.%s.%s%s%s" % (op, dt, at, bt, sat, op2)
            add(mn, 4, mn + " " + video_operands([]) + ";", [R], [R, R, R], ["i32"] * 3)
        for i, ds in enumerate(DSELS):
            for dt, sat in ((U, ""), (S, ".sat"), (U, ".sat")):
                mn = "%s.%s.%s.%s%s" % (op, dt, TY2[i % 2], TY2[(i // 2) % 2], sat)
                s = [("d", ds)]
                add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32"] * 3)
        for i, s in enumerate(SCALAR_SELS):
            mn = "%s.%s.%s.%s" % (op, TY2[i % 2], TY2[(i + 1) % 2], TY2[(i // 2) % 2])
            add(mn + sel_suffix(s), 3, mn + " " + video_operands(s, "dab") + ";", [R], [R, R], ["i32"] * 2)
            add(mn + ".add" + sel_suffix(s), 4, mn + ".add " + video_operands(s) + ";", [R], [R, R, R], ["i32"] * 3)
        for (dt, at, bt), ds in itertools.product(itertools.product(TY2, TY2, TY2), ("b1", "h1")):
            mn = "%s.%s.%s.%s.sat" % (op, dt, at, bt)
            s = [("d", ds), ("b", "b2" if ds == "h1" else "")]
            add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32"] * 3)
        for i, s in enumerate(SCALAR_SELS[:3]):
            mn = "%s.%s.%s.%s.sat.%s" % (op, TY2[i % 2], TY2[(i + 1) % 2], TY2[(i // 2) % 2], ("min", "max", "add")[i])
            add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32"] * 3)
    for op in ("vshl", "vshr"):
        for dt, at, mode, sat in itertools.product(TY2, TY2, (".clamp", ".wrap"), ("", ".sat")):
            mn = "%s.%s.%s.u32%s%s" % (op, dt, at, sat, mode)
            add(mn, 3, mn + " " + video_operands([], "dab") + ";", [R], [R, R], ["i32", "sh"])
        for dt, op2 in itertools.product(TY2, (".add", ".min", ".max")):
            mn = "%s.%s.%s.u32.clamp%s" % (op, dt, dt, op2)
            add(mn, 4, mn + " " + video_operands([]) + ";", [R], [R, R, R], ["i32", "sh", "i32"])
        for i, ds in enumerate(DSELS):
            mn = "%s.%s.%s.u32%s" % (op, TY2[i % 2], TY2[(i // 2) % 2], ".wrap" if i % 3 else ".sat.clamp")
            s = [("d", ds), ("a", ("b3", "h1", "b0", "h0", "b2", "b1")[i])]
            add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32", "sh", "i32"])
    for op in ("vshl", "vshr"):
        for (dt, at), ds in itertools.product(itertools.product(TY2, TY2), ("h1", "b2")):
            mn = "%s.%s.%s.u32.sat.wrap" % (op, dt, at)
            s = [("d", ds), ("a", "h0" if ds == "b2" else "")]
            add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32", "sh", "i32"])
    for dt, at, bt in itertools.product(TY2, TY2, TY2):
        for mod in ("", ".sat", ".shr7", ".sat.shr15"):
            mn = "vmad.%s.%s.%s%s" % (dt, at, bt, mod)
            add(mn, 4, mn + " " + video_operands([]) + ";", [R], [R, R, R], ["i32"] * 3)
    for (dt, at, bt), mod in itertools.product(TYPES_MIX, (".po", ".po.sat", ".po.shr15")):
        mn = "vmad.%s.%s.%s%s" % (dt, at, bt, mod)
        add(mn, 4, mn + " " + video_operands([]) + ";", [R], [R, R, R], ["i32"] * 3)
    negs = ([("a", "-")], [("b", "-")], [("c", "-")], [("a", "-"), ("b", "-")], [("a", "-"), ("c", "-")],
            [("a", "-h1"), ("b", "b2")], [("a", "b3"), ("b", "-h0"), ("c", "-")], [("a", "h0"), ("b", "h1")])
    for (dt, at, bt), s in itertools.product(TYPES_MIX, ([("a", "b1"), ("b", "h1")], [("a", "-h0"), ("b", "b3")])):
        mn = "vmad.%s.%s.%s.sat.shr7" % (dt, at, bt)
        add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32"] * 3)
    for i, s in enumerate(negs):
        for dt, at, bt in TYPES_MIX:
            for sat in ("", ".sat"):
                mn = "vmad.%s.%s.%s%s" % (dt, at, bt, sat)
                add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32"] * 3)
    for at, bt in itertools.product(TY2, TY2):
        for cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
            mn = "vset.%s.%s.%s" % (at, bt, cmp)
            add(mn, 3, mn + " " + video_operands([], "dab") + ";", [R], [R, R], ["i32"] * 2)
        for op2 in (".add", ".min", ".max"):
            mn = "vset.%s.%s.lt%s" % (at, bt, op2)
            add(mn, 4, mn + " " + video_operands([]) + ";", [R], [R, R, R], ["i32"] * 3)
    for i, ds in enumerate(DSELS):
        mn = "vset.%s.%s.%s" % (TY2[i % 2], TY2[(i // 2) % 2], ("gt", "le", "ne")[i % 3])
        s = [("d", ds), ("a", ("b1", "h1", "b3", "h0", "b2", "b0")[i]), ("b", ("h0", "b2", "b1", "h1", "b3", "b0")[i])]
        add(mn + sel_suffix(s), 4, mn + " " + video_operands(s) + ";", [R], [R, R, R], ["i32"] * 3)


def packed_int16():
    for op in ("add", "sub", "min", "max"):
        for t in ("u16x2", "s16x2"):
            mods = ["", ".sat"] if op in ("add", "sub") else ["", ".relu"]
            for m in mods:
                mn = "%s%s.%s" % (op, m, t)
                add(mn, 3, mn + " %d0, %s0, %s1;", [R], [R, R], ["i32"] * 2)


HT = {"f16": (H, "f16"), "f16x2": (R, "f16x2"), "bf16": (H, "bf16"), "bf16x2": (R, "bf16x2")}


def half_arith():
    for t, (reg, kind) in HT.items():
        isf = t.startswith("f16")
        for op in ("add", "sub", "mul"):
            mods = ["", ".rn", ".ftz", ".sat", ".ftz.sat", ".rn.ftz.sat"] if isf else ["", ".rn"]
            for m in mods:
                mn = "%s%s.%s" % (op, m, t)
                add(mn, 3, mn + " %d0, %s0, %s1;", [reg], [reg, reg], [kind] * 2, 128)
        for m in ([".rn", ".rn.ftz", ".rn.sat", ".rn.ftz.sat", ".rn.relu", ".rn.ftz.relu"] if isf else [".rn", ".rn.relu"]):
            mn = "fma%s.%s" % (m, t)
            add(mn, 4, mn + " %d0, %s0, %s1, %s2;", [reg], [reg] * 3, [kind] * 3, 128)
        for m in (".rn.oob", ".rn.oob.relu"):
            mn = "fma%s.%s" % (m, t)
            add(mn, 4, mn + " %d0, %s0, %s1, %s2;", [reg], [reg] * 3, [kind] * 3)
        for op in ("neg", "abs"):
            for m in (["", ".ftz"] if isf else [""]):
                mn = "%s%s.%s" % (op, m, t)
                add(mn, 2, mn + " %d0, %s0;", [reg], [reg], [kind])
        for op in ("min", "max"):
            mods = ["", ".NaN", ".xorsign.abs", ".NaN.xorsign.abs"]
            if isf:
                mods += [".ftz", ".ftz.NaN", ".ftz.xorsign.abs", ".ftz.NaN.xorsign.abs"]
            for m in mods:
                mn = "%s%s.%s" % (op, m, t)
                add(mn, 3, mn + " %d0, %s0, %s1;", [reg], [reg, reg], [kind] * 2, 96)
        mn = ("ex2.approx.%s" if isf else "ex2.approx.ftz.%s") % t
        add(mn, 2, mn + " %d0, %s0;", [reg], [reg], [kind], 128)
        mn = "tanh.approx.%s" % t
        add(mn, 2, mn + " %d0, %s0;", [reg], [reg], [kind], 128)


CMPS = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]


def half_compare():
    for t, (reg, kind) in HT.items():
        isf = t.startswith("f16")
        x2 = t.endswith("x2")
        for c in CMPS:
            for ftz in (["", ".ftz"] if isf else [""]):
                mn = "setp.%s%s.%s" % (c, ftz, t)
                if x2:
                    add(mn, 4, mn + " %d0|%d1, %s0, %s1;", [P, P], [reg, reg], [kind] * 2)
                else:
                    add(mn, 3, mn + " %d0, %s0, %s1;", [P], [reg, reg], [kind] * 2)
        for c, bop in (("lt", "and"), ("equ", "or"), ("ne", "xor")):
            mn = "setp.%s.%s.%s" % (c, bop, t)
            if x2:
                add(mn, 5, mn + " %d0|%d1, %s0, %s1, %s2;", [P, P], [reg, reg, P], [kind] * 2 + ["pred"])
            else:
                add(mn, 4, mn + " %d0, %s0, %s1, %s2;", [P], [reg, reg, P], [kind] * 2 + ["pred"])
        for c, bop in (("gt", "and"), ("nan", "or"), ("leu", "xor")):
            dt = t if x2 else "u32"
            mn = "set.%s.%s.%s.%s" % (c, bop, dt, t)
            add(mn, 4, mn + " %d0, %s0, %s1, %s2;", [R if x2 or dt == "u32" else H], [reg, reg, P], [kind] * 2 + ["pred"])
        dtypes = [t, "u32"] + (["s32", "f32"] if not x2 else [])
        for dt in dtypes:
            for i, c in enumerate(CMPS):
                if dt not in (t, "u32") and i % 3:
                    continue
                for ftz in (["", ".ftz"] if isf and i % 4 == 0 else [""]):
                    mn = "set.%s%s.%s.%s" % (c, ftz, dt, t)
                    dreg = H if dt in ("f16", "bf16") else R
                    add(mn, 3, mn + " %d0, %s0, %s1;", [dreg], [reg, reg], [kind] * 2)


INTS = {"s8": H, "u8": H, "s16": H, "u16": H, "s32": R, "u32": R, "s64": L, "u64": L}
IKIND = {"s8": "i16", "u8": "i16", "s16": "i16", "u16": "i16", "s32": "i32", "u32": "i32", "s64": "i64", "u64": "i64"}


def conversions():
    one = lambda mn, d, s, k, rows=96: add(mn, 2, mn + " %d0, %s0;", [d], [s], [k], rows)
    two = lambda mn, d, rows=96: add(mn, 3, mn + " %d0, %s0, %s1;", [d], [R, R], ["f32", "f32"], rows)
    for r in ("rn", "rz", "rm", "rp"):
        for m in ("", ".ftz", ".sat", ".ftz.sat"):
            one("cvt.%s%s.f16.f32" % (r, m), H, R, "f32", 128)
        one("cvt.%s.f16.f64" % r, H, L, "f64")
        one("cvt.%s.bf16.f32" % r, H, R, "f32", 128)
        one("cvt.%s.bf16.f64" % r, H, L, "f64")
        one("cvt.%s.bf16.f16" % r, H, H, "f16")
        one("cvt.%s.f16.bf16" % r, H, H, "bf16")
    for m in (".relu", ".satfinite", ".relu.satfinite"):
        for r in ("rn", "rz"):
            one("cvt.%s%s.f16.f32" % (r, m), H, R, "f32")
            one("cvt.%s%s.bf16.f32" % (r, m), H, R, "f32")
            two("cvt.%s%s.f16x2.f32" % (r, m), R)
            two("cvt.%s%s.bf16x2.f32" % (r, m), R)
    for r in ("rn", "rz"):
        two("cvt.%s.f16x2.f32" % r, R, 128)
        two("cvt.%s.bf16x2.f32" % r, R, 128)
    for m in ("", ".ftz", ".sat"):
        one("cvt%s.f32.f16" % m, R, H, "f16")
        one("cvt%s.f32.bf16" % m, R, H, "bf16")
    one("cvt.f64.f16", L, H, "f16")
    one("cvt.f64.bf16", L, H, "bf16")
    for r in ("rni", "rzi", "rmi", "rpi"):
        one("cvt.%s.f16.f16" % r, H, H, "f16")
        one("cvt.%s.bf16.bf16" % r, H, H, "bf16")
        for it, reg in INTS.items():
            one("cvt.%s.%s.f16" % (r, it), reg, H, "f16")
            if r in ("rni", "rzi"):
                one("cvt.%s.%s.bf16" % (r, it), reg, H, "bf16")
    for r in ("rn", "rz", "rm", "rp"):
        for it, reg in INTS.items():
            one("cvt.%s.f16.%s" % (r, it), H, reg, IKIND[it])
            if r in ("rn", "rz"):
                one("cvt.%s.bf16.%s" % (r, it), H, reg, IKIND[it])
    for m in ("rna", "rna.satfinite", "rn", "rz", "rn.satfinite", "rn.relu", "rz.relu.satfinite"):
        one("cvt.%s.tf32.f32" % m, R, R, "f32", 128)
    for f8 in ("e4m3x2", "e5m2x2"):
        for relu in ("", ".relu"):
            two("cvt.rn.satfinite%s.%s.f32" % (relu, f8), H, 128)
            one("cvt.rn.satfinite%s.%s.f16x2" % (relu, f8), H, R, "f16x2", 128)
            one("cvt.rn%s.f16x2.%s" % (relu, f8), R, H, "e8x2", 128)
            one("cvt.rn.satfinite%s.%s.bf16x2" % (relu, f8), H, R, "bf16x2")
        two("cvt.rn.%s.f32" % f8, H)   # without .satfinite, if the target accepts it
    for f6 in ("e2m3x2", "e3m2x2"):
        for relu in ("", ".relu"):
            two("cvt.rn.satfinite%s.%s.f32" % (relu, f6), H)
            one("cvt.rn%s.f16x2.%s" % (relu, f6), R, H, "e8x2")
    for relu in ("", ".relu"):
        add("cvt.rn.satfinite%s.e2m1x2.f32" % relu, 3,
            "{ .reg .b8 t; cvt.rn.satfinite%s.e2m1x2.f32 t, %%s0, %%s1; cvt.u16.u8 %%d0, t; }" % relu,
            [H], [R, R], ["f32", "f32"])
        add("cvt.rn%s.f16x2.e2m1x2" % relu, 2,
            "{ .reg .b8 t; cvt.u8.u16 t, %%s0; cvt.rn%s.f16x2.e2m1x2 %%d0, t; }" % relu, [R], [H], ["i16"])
    for r in ("rz", "rp"):
        for sf in ("", ".satfinite"):
            two("cvt.%s%s.ue8m0x2.f32" % (r, sf), H)
            one("cvt.%s%s.ue8m0x2.bf16x2" % (r, sf), H, R, "bf16x2")
    one("cvt.rn.bf16x2.ue8m0x2", R, H, "e8x2")
    for ct, reg in (("u16", R), ("s16", R)):
        mn = "cvt.pack.sat.%s.s32" % ct
        add(mn, 3, mn + " %d0, %s0, %s1;", [reg], [R, R], ["i32", "i32"])
    for ct in ("u8", "s8", "u4", "s4", "u2", "s2"):
        mn = "cvt.pack.sat.%s.s32.b32" % ct
        add(mn, 4, mn + " %d0, %s0, %s1, %s2;", [R], [R, R, R], ["i32", "i32", "i32"])


video_simd(); video_scalar(); packed_int16(); half_arith(); half_compare(); conversions()

# Forms that ptxas for sm_90 rejects are listed in skip.txt (one mnemonic per line)
# so the recording only holds what the hardware can run.
HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = set()
if os.path.exists(os.path.join(HERE, "skip.txt")):
    SKIP = {l.split()[0] for l in open(os.path.join(HERE, "skip.txt")) if l.strip() and not l.startswith("#")}
FORMS = [f for f in FORMS if f.mn not in SKIP]


# ---------------------------------------------------------------- CUDA output
def kernel_src(idx, f):
    ns, nd = len(f.src), len(f.dst)
    body, ins, outs, pre, post = [], [], [], [], []
    ctype = {"r": "unsigned", "h": "unsigned short", "l": "unsigned long long"}
    asm = f.asm
    for j, (k, _) in enumerate(f.src):
        if k == "p":
            # predicate sources travel as 0/1 in a b32 register
            pre.append("setp.ne.u32 ps%d, %%%d, 0;" % (j, nd_regs(f) + j))
            asm = asm.replace("%%s%d" % j, "ps%d" % j)
            ins.append('"r"((unsigned)in[i*%d+%d])' % (ns, j))
        else:
            asm = asm.replace("%%s%d" % j, "%%%d" % (nd_regs(f) + j))
            ins.append('"%s"((%s)in[i*%d+%d])' % (k, ctype[k], ns, j))
    for j, (k, _) in enumerate(f.dst):
        if k == "p":
            asm = asm.replace("%%d%d" % j, "pd%d" % j)
            post.append("selp.u32 %%%d, 1, 0, pd%d;" % (j, j))
            outs.append('"=r"(d%d)' % j)
            body.append("unsigned d%d;" % j)
        else:
            asm = asm.replace("%%d%d" % j, "%%%d" % j)
            outs.append('"=%s"(d%d)' % (k, j))
            body.append("%s d%d;" % (ctype[k], j))
    preds = ["ps%d" % j for j, (k, _) in enumerate(f.src) if k == "p"] + \
            ["pd%d" % j for j, (k, _) in enumerate(f.dst) if k == "p"]
    text = asm
    if preds:
        text = "{ .reg .pred %s; %s %s %s }" % (", ".join(preds), " ".join(pre), asm, " ".join(post))
    text = text.replace('"', '\\"')
    store = " ".join("out[i*%d+%d]=d%d;" % (nd, j, j) for j in range(nd))
    return ("__global__ void k%d(const unsigned long long *in, unsigned long long *out) {\n"
            "  int i = threadIdx.x; %s\n  asm volatile(\"%s\" : %s : %s);\n  %s\n}\n"
            % (idx, " ".join(body), text, ", ".join(outs), ", ".join(ins), store))


def nd_regs(f):
    return len(f.dst)


def write(outdir, nparts=8):
    os.makedirs(outdir, exist_ok=True)
    parts = [[] for _ in range(nparts)]
    for i, f in enumerate(FORMS):
        parts[i % nparts].append(kernel_src(i, f))
    for p in range(nparts):
        with open(os.path.join(outdir, "k%d.cu" % p), "w") as fh:
            fh.write("// generated by gen.py\n" + "".join(parts[p]))
    inputs, meta = [], []
    for i, f in enumerate(FORMS):
        rows = make_inputs(f.mn, f.kinds, f.rows)
        mask = lambda v, b: v & ((1 << (8 * b)) - 1) if b else v & 1
        meta.append((f, len(inputs)))
        for row in rows:
            inputs.extend(mask(v, b) for v, (_, b) in zip(row, f.src))
    with open(os.path.join(outdir, "main.cu"), "w") as fh:
        fh.write("// generated by gen.py\n#include <cstdio>\n#include <cuda_runtime.h>\n")
        fh.write("typedef void (*kfn)(const unsigned long long *, unsigned long long *);\n")
        for i, _ in enumerate(FORMS):
            fh.write("__global__ void k%d(const unsigned long long *, unsigned long long *);\n" % i)
        fh.write("static const unsigned long long IN[] = {\n")
        for i in range(0, len(inputs), 8):
            fh.write(",".join("0x%xull" % v for v in inputs[i:i + 8]) + ",\n")
        fh.write("0};\nstruct form { const char *mn; int nopnds, rows, ns, nd; const char *sb, *db; long off; kfn k; };\n")
        fh.write("static const form F[] = {\n")
        for i, (f, off) in enumerate(meta):
            sb = "".join(str(b) for _, b in f.src)
            db = "".join(str(b) for _, b in f.dst)
            fh.write('{"%s",%d,%d,%d,%d,"%s","%s",%d,k%d},\n' % (f.mn, f.nopnds, f.rows, len(f.src), len(f.dst), sb, db, off, i))
        fh.write("};\n")
        fh.write(r'''
static void hex(int bytes, unsigned long long v) { printf(" 0x%0*llx", bytes ? 2 * bytes : 1, v); }
int main() {
  unsigned long long *in, *out;
  size_t nin = sizeof IN / sizeof IN[0];
  if (cudaMallocManaged(&in, nin * 8) != cudaSuccess || cudaMallocManaged(&out, 4096 * 8) != cudaSuccess) {
    fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  for (size_t i = 0; i < nin; i++) in[i] = IN[i];
  for (const form &f : F) {
    for (int i = 0; i < f.rows * f.nd; i++) out[i] = 0;
    f.k<<<1, f.rows>>>(in + f.off, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", f.mn, cudaGetErrorString(e)); return 1; }
    for (int r = 0; r < f.rows; r++) {
      printf("%s %d |", f.mn, f.nopnds);
      for (int j = 0; j < f.ns; j++) hex(f.sb[j] - '0', in[f.off + r * f.ns + j]);
      printf(" |");
      for (int j = 0; j < f.nd; j++) hex(f.db[j] - '0', out[r * f.nd + j]);
      printf("\n");
    }
  }
  return 0;
}
''')


if __name__ == "__main__":
    if "--list" in sys.argv:
        for f in FORMS:
            print(f.mn, f.nopnds, f.asm)
        sys.exit(0)
    write(sys.argv[1])
