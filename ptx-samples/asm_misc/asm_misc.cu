// Inline PTX: carry chains (add.cc/addc/sub.cc/subc), mul.wide, mad.hi,
// mad24, sad, bfind, brev, popc, clz, dp4a/dp2a, mul24.hi, and
// testp/copysign on floats. A 128-bit add and subtract are built from the
// carry chain, as multi-precision code does.
extern "C" __global__ void asm_misc(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x;
    const unsigned *x = in + 8 * t;
    unsigned *o = out + 24 * t;
    unsigned s0, s1, s2, s3, d0, d1, d2, d3;
    asm("add.cc.u32 %0, %4, %8;\n\t"
        "addc.cc.u32 %1, %5, %9;\n\t"
        "addc.cc.u32 %2, %6, %10;\n\t"
        "addc.u32 %3, %7, %11;"
        : "=r"(s0), "=r"(s1), "=r"(s2), "=r"(s3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]));
    asm("sub.cc.u32 %0, %4, %8;\n\t"
        "subc.cc.u32 %1, %5, %9;\n\t"
        "subc.cc.u32 %2, %6, %10;\n\t"
        "subc.u32 %3, %7, %11;"
        : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]));
    o[0] = s0; o[1] = s1; o[2] = s2; o[3] = s3;
    o[4] = d0; o[5] = d1; o[6] = d2; o[7] = d3;
    unsigned a = x[0], b = x[5], r;
    unsigned long long w;
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(b));
    o[8] = (unsigned)w;
    o[9] = (unsigned)(w >> 32);
    asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(x[2]));
    o[10] = r;
    asm("mad24.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(x[3]));
    o[11] = r;
    asm("sad.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(x[4]));
    o[12] = r;
    asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a & x[6]));
    o[13] = r;
    asm("bfind.shiftamt.s32 %0, %1;" : "=r"(r) : "r"(b));
    o[14] = r;
    asm("brev.b32 %0, %1;" : "=r"(r) : "r"(a));
    o[15] = r;
    asm("popc.b64 %0, %1;" : "=r"(r) : "l"((unsigned long long)a << 32 | b));
    o[16] = r;
    asm("clz.b64 %0, %1;" : "=r"(r) : "l"((unsigned long long)(a & x[7]) << 7));
    o[17] = r;
    asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(x[1]));
    o[18] = r;
    asm("dp2a.lo.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(x[2]));
    o[19] = r;
    asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    o[20] = r;
    float f = __uint_as_float(x[3]), g = __uint_as_float(x[4]), h;
    asm("copysign.f32 %0, %1, %2;" : "=f"(h) : "f"(f), "f"(g));
    o[21] = __float_as_uint(h);
    asm("{ .reg .pred p, q; testp.normal.f32 p, %1; testp.subnormal.f32 q, %2;"
        " selp.u32 %0, 1, 0, p; @q add.u32 %0, %0, 2; }" : "=r"(r) : "f"(f), "f"(g));
    o[22] = r;
    asm("{ .reg .pred p; setp.ltu.f32 p, %1, %2; selp.u32 %0, 7, 9, p; }" : "=r"(r) : "f"(f), "f"(g));
    o[23] = r;
}
