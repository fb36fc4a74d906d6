// Inline PTX: lop3.b32 with a spread of lookup tables, shf.l/shf.r in .wrap
// and .clamp modes, and plain shifts, all with shift counts past 32.
#define LUTS(X) X(0x00) X(0xff) X(0x80) X(0xfe) X(0x96) X(0xe8) X(0xca) X(0x1e) X(0x3c) X(0x5a) X(0xf0) X(0x6a)

extern "C" __global__ void lop3_shf(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x;
    unsigned a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2], n = in[4 * t + 3] & 127;
    unsigned *o = out + 20 * t;
    int k = 0;
    unsigned r;
#define L(lut) asm("lop3.b32 %0, %1, %2, %3, " #lut ";" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r;
    LUTS(L)
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(n));
    o[k++] = r;
    asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(n));
    o[k++] = r;
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(n));
    o[k++] = r;
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(n));
    o[k++] = r;
    asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n));        // counts past 31 give 0
    o[k++] = r;
    asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n));        // ... or all sign bits
    o[k++] = r;
    unsigned long long w;
    asm("shr.u64 %0, %1, %2;" : "=l"(w) : "l"((unsigned long long)a << 32 | b), "r"(n));
    o[k++] = (unsigned)w;
    o[k++] = (unsigned)(w >> 32);
}
