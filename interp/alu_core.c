/* alu_core.c — turns a dotted mnemonic ("cvt.rni.ftz.sat.f32.f64") into an alu_op
 * for the integer, f32/f64, conversion and comparison instructions: splits it into
 * opcode, modifiers and types and hands it to the family builders. */
#include "alu_core_impl.h"

#include <string.h>

static const struct { const char *name; uint8_t bits; char kind; } types[T_COUNT] = {
#define X(n, b, k) {#n, b, k},
    ALU_TYPES(X)
#undef X
};

unsigned alu_tbits(int t) { return types[t].bits; }
char alu_tkind(int t) { return types[t].kind; }
uint8_t alu_tbytes(int t) { return types[t].bits == 1 ? 0 : types[t].bits / 8; }

void alu_shape(alu_op *op, int nd, int dt, int ns, int st) {
    op->nd = nd;
    op->ns = ns;
    for (int i = 0; i < nd; i++) op->dbytes[i] = alu_tbytes(dt);
    for (int i = 0; i < ns; i++) op->sbytes[i] = alu_tbytes(st);
}

static bool tok_is(const alu_mn *m, int i, const char *w) {
    return strlen(w) == m->toklen[i] && !memcmp(m->tok[i], w, m->toklen[i]);
}

bool alu_take(alu_mn *m, const char *w) {
    for (int i = 0; i < m->ntok; i++)
        if (!(m->used >> i & 1) && tok_is(m, i, w)) {
            m->used |= 1u << i;
            return true;
        }
    return false;
}

int alu_take_any(alu_mn *m, const char *const *list) {
    for (int k = 0; list[k]; k++)
        if (alu_take(m, list[k])) return k;
    return -1;
}

int alu_take_rnd(alu_mn *m) {
    static const char *const r[] = {"rn", "rz", "rm", "rp", "rna", NULL};
    return alu_take_any(m, r);
}

static int find_type(const char *s, size_t n) {
    for (int t = 0; t < T_COUNT; t++)
        if (strlen(types[t].name) == n && !memcmp(types[t].name, s, n)) return t;
    return -1;
}

int alu_lookup_core(const char *mnemonic, unsigned nopnds, alu_op *op) {
    char opc[16];
    const char *dot = strchr(mnemonic, '.');
    size_t n = dot ? (size_t)(dot - mnemonic) : strlen(mnemonic);
    if (n == 0 || n >= sizeof opc) return 0;
    memcpy(opc, mnemonic, n);
    opc[n] = 0;

    alu_mn m = {.nopnds = nopnds};
    while (dot) {
        const char *s = dot + 1;
        dot = strchr(s, '.');
        size_t len = dot ? (size_t)(dot - s) : strlen(s);
        int t = find_type(s, len);
        if (t >= 0) {
            if (m.nty == 4) return 0;
            m.ty[m.nty++] = t;
        } else {
            if (m.ntok == 16 || len == 0) return 0;
            m.tok[m.ntok] = s;
            m.toklen[m.ntok++] = len;
        }
    }

    static int (*const build[])(const char *, alu_mn *, alu_op *) = {
        alu_build_int, alu_build_fp, alu_build_cvt, alu_build_cmp};
    for (unsigned i = 0; i < sizeof build / sizeof build[0]; i++) {
        alu_op o;
        memset(&o, 0, sizeof o);
        m.used = 0;
        if (!build[i](opc, &m, &o)) continue;
        if (m.used != (1u << m.ntok) - 1 || (unsigned)o.nd + o.ns != nopnds) return 0;
        *op = o;
        return 1;
    }
    return 0;
}
