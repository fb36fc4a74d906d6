// Inline PTX: prmt in every mode, bfe (signed and unsigned, with positions
// and lengths at and past 32) and bfi. Operands come from a file so the
// instructions survive to the PTX unchanged.
#define PRMT(X) X("") X(".f4e") X(".b4e") X(".rc8") X(".ecl") X(".ecr") X(".rc16")

extern "C" __global__ void prmt_bfe(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x;
    unsigned a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    unsigned *o = out + 16 * t;
    int k = 0;
    unsigned r;
#define P(mode) asm("prmt.b32" mode " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[k++] = r;
    PRMT(P)
    unsigned pos = c & 63, len = (c >> 8) & 63;      // both may exceed 32
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
    o[k++] = r;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
    o[k++] = r;
    unsigned long long w = (unsigned long long)a << 32 | b, rw;
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(rw) : "l"(w), "r"(c & 127), "r"((c >> 8) & 127));
    o[k++] = (unsigned)rw;
    o[k++] = (unsigned)(rw >> 32);
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(pos), "r"(len));
    o[k++] = r;
    asm("bfe.u32 %0, %1, 8, 12;" : "=r"(r) : "r"(a));       // immediate position and length
    o[k++] = r;
    asm("bfe.s32 %0, %1, 28, 8;" : "=r"(r) : "r"(b));
    o[k++] = r;
    asm("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(r) : "r"(b), "r"(a));
    o[k++] = r;
    asm("prmt.b32 %0, %1, %2, 0x98ba;" : "=r"(r) : "r"(b), "r"(a));   // sign-replicate selectors
    o[k++] = r;
}
