// SIMD video intrinsics on packed bytes and halfwords, the Hopper DPX
// functions, and the video instructions themselves through inline PTX
// (vabsdiff4 with an accumulating .add, as in the PTX ISA's example).
// Every function is applied to every (a, b) input pair.
#define UNARY(X) X(__vabs2) X(__vabs4) X(__vabsss2) X(__vabsss4) X(__vneg2) X(__vneg4) X(__vnegss2) X(__vnegss4)

#define BINARY(X)                                                                                                  \
    X(__vabsdiffs2) X(__vabsdiffs4) X(__vabsdiffu2) X(__vabsdiffu4) X(__vadd2) X(__vadd4) X(__vaddss2)            \
    X(__vaddss4) X(__vaddus2) X(__vaddus4) X(__vavgs2) X(__vavgs4) X(__vavgu2) X(__vavgu4) X(__vcmpeq2)           \
    X(__vcmpeq4) X(__vcmpges2) X(__vcmpges4) X(__vcmpgeu2) X(__vcmpgeu4) X(__vcmpgts2) X(__vcmpgts4)              \
    X(__vcmpgtu2) X(__vcmpgtu4) X(__vcmples2) X(__vcmples4) X(__vcmpleu2) X(__vcmpleu4) X(__vcmplts2)             \
    X(__vcmplts4) X(__vcmpltu2) X(__vcmpltu4) X(__vcmpne2) X(__vcmpne4) X(__vhaddu2) X(__vhaddu4) X(__vmaxs2)     \
    X(__vmaxs4) X(__vmaxu2) X(__vmaxu4) X(__vmins2) X(__vmins4) X(__vminu2) X(__vminu4) X(__vsads2) X(__vsads4)    \
    X(__vsadu2) X(__vsadu4) X(__vseteq2) X(__vseteq4) X(__vsetges2) X(__vsetges4) X(__vsetgeu2) X(__vsetgeu4)     \
    X(__vsetgts2) X(__vsetgts4) X(__vsetgtu2) X(__vsetgtu4) X(__vsetles2) X(__vsetles4) X(__vsetleu2)             \
    X(__vsetleu4) X(__vsetlts2) X(__vsetlts4) X(__vsetltu2) X(__vsetltu4) X(__vsetne2) X(__vsetne4) X(__vsub2)    \
    X(__vsub4) X(__vsubss2) X(__vsubss4) X(__vsubus2) X(__vsubus4)

#define COUNT(f) +1
#define NFUNCS (0 UNARY(COUNT) BINARY(COUNT) + 8)

extern "C" __global__ void simd_video(const unsigned *a, const unsigned *b, unsigned *out)
{
    unsigned t = threadIdx.x;
    unsigned x = a[t], y = b[t];
    unsigned *o = out + t * NFUNCS;
    int k = 0;
#define U(f) o[k++] = f(x);
#define B(f) o[k++] = f(x, y);
    UNARY(U)
    BINARY(B)
    // The video instructions with a third operand and merge/accumulate modes.
    unsigned r;
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(t));
    o[k++] = r;
    asm("vabsdiff2.s32.s32.s32.add %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(1000u));
    o[k++] = r;
    asm("vmax4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(0u));
    o[k++] = r;
    // DPX (hardware on sm_90, emulated on older targets).
    o[k++] = (unsigned)__vimax3_s32((int)x, (int)y, (int)(x ^ y));
    o[k++] = (unsigned)__viaddmax_s32((int)x, (int)y, (int)t * 1000);
    o[k++] = (unsigned)__vimin_s16x2_relu(x, y);
    bool pred;
    o[k++] = (unsigned)__vibmax_s32((int)x, (int)y, &pred);
    o[k++] = pred;
}

// The guide's list of SIMD video instructions (vadd, vsub, vavrg, vabsdiff,
// vmin, vmax, vset on 2 and 4 lanes) in inline PTX with saturation,
// accumulation (.add) and merge, plus scalar video instructions with byte and
// halfword selectors.
#define VIDEO(X)                                                                                  \
    X("vadd2.u32.u32.u32.sat %0, %1, %2, %3;") X("vadd4.s32.s32.s32.sat %0, %1, %2, %3;")         \
    X("vadd2.s32.s32.s32.add %0, %1, %2, %3;") X("vsub2.s32.s32.s32 %0, %1, %2, %3;")             \
    X("vsub4.u32.u32.u32.add %0, %1, %2, %3;") X("vsub4.s32.s32.s32.sat %0, %1, %2, %3;")         \
    X("vavrg2.u32.u32.u32 %0, %1, %2, %3;") X("vavrg4.s32.s32.s32.add %0, %1, %2, %3;")           \
    X("vabsdiff2.u32.u32.u32 %0, %1, %2, %3;") X("vabsdiff4.s32.s32.s32.sat %0, %1, %2, %3;")     \
    X("vmin2.s32.s32.s32 %0, %1, %2, %3;") X("vmin4.u32.u32.u32.add %0, %1, %2, %3;")             \
    X("vmax2.u32.u32.u32.add %0, %1, %2, %3;") X("vmax4.s32.s32.s32 %0, %1, %2, %3;")             \
    X("vset2.u32.u32.ne %0, %1, %2, %3;") X("vset4.s32.s32.lt %0, %1, %2, %3;")                   \
    X("vset4.u32.u32.gt.add %0, %1, %2, %3;") X("vset2.s32.u32.ge.add %0, %1, %2, %3;")           \
    X("vadd.s32.u32.s32.sat %0, %1.b1, %2.h0;") X("vsub.u32.s32.s32.sat.add %0, %1.b3, %2.b0, %3;") \
    X("vabsdiff.u32.u32.u32.max %0, %1.h1, %2.h0, %3;") X("vmin.s32.s32.s32.min %0, %1, %2.b2, %3;") \
    X("vmax.s32.u32.s32 %0, %1.h0, %2.h1;") X("vshl.u32.u32.u32.clamp.add %0, %1, %2.b0, %3;")    \
    X("vshr.s32.s32.u32.wrap %0, %1, %2.b0;") X("vmad.s32.s32.u32.sat %0, %1.h0, %2.b1, %3;")     \
    X("vset.s32.u32.lt.add %0, %1.b2, %2.b2, %3;") X("vadd.u32.u32.u32.sat %0.h1, %1, %2, %3;")

extern "C" __global__ void video_asm(const unsigned *a, const unsigned *b, unsigned *out)
{
    unsigned t = threadIdx.x;
    unsigned x = a[t], y = b[t], z = a[63 - t] ^ b[(t * 5) & 63];
    unsigned *o = out + t * 32;
    int k = 0;
    unsigned r;
#define V(text) asm(text : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[k++] = r;
    VIDEO(V)
}
