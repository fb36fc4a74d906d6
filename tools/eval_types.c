/* eval_types.c — what type each operand of a PTX instruction has, read from its
 * mnemonic alone (`ptxi eval` must declare the snippet's registers before the
 * front end sees them). One rule string per opcode family, one letter an operand. */
#include <string.h>

#include "eval.h"
#include "ir.h"

static const struct {
    const char *name;
    ev_type t;
} TYPES[] = {
    {"pred", {0, 'p'}},   {"b8", {1, 'b'}},     {"u8", {1, 'u'}},      {"s8", {1, 's'}},     {"b16", {2, 'b'}},
    {"u16", {2, 'u'}},    {"s16", {2, 's'}},    {"f16", {2, 'h'}},     {"bf16", {2, 'g'}},   {"b32", {4, 'b'}},
    {"u32", {4, 'u'}},    {"s32", {4, 's'}},    {"f32", {4, 'f'}},     {"f16x2", {4, 'b'}},  {"bf16x2", {4, 'b'}},
    {"tf32", {4, 'b'}},   {"s16x2", {4, 'b'}},  {"u16x2", {4, 'b'}},   {"b64", {8, 'b'}},    {"u64", {8, 'u'}},
    {"s64", {8, 's'}},    {"f64", {8, 'f'}},    {"e4m3x2", {2, 'b'}},  {"e5m2x2", {2, 'b'}}, {"e2m3x2", {2, 'b'}},
    {"e3m2x2", {2, 'b'}}, {"e2m1x2", {1, 'b'}}, {"ue8m0x2", {2, 'b'}}, {"s2", {1, 's'}},     {"u2", {1, 'u'}},
    {"s4", {1, 's'}},     {"u4", {1, 'u'}},
};

ev_type ev_type_named(const char *name, bool *ok) {
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
        if (!strcmp(TYPES[i].name, name)) {
            if (ok) *ok = true;
            return TYPES[i].t;
        }
    if (ok) *ok = false;
    return (ev_type){4, 'b'};
}

/* Operand letters: T last type, F first type, S second type, W last type at twice
 * its width, P predicate, U u32, I an immediate u32, A an address. A rule's last
 * letter repeats for further operands. Rules are for a single destination; the
 * second register of a `d|p` pair is always a predicate. An opcode without a
 * rule takes "T". */
static const char *const RULES[IR_OP__COUNT] = {
    [IR_OP_SETP] = "PTTP",
    [IR_OP_SET] = "FSSP",
    [IR_OP_SELP] = "TTTP",
    [IR_OP_SLCT] = "FFFS",
    [IR_OP_TESTP] = "PT",
    [IR_OP_ISSPACEP] = "PT",
    [IR_OP_POPC] = "UT",
    [IR_OP_CLZ] = "UT",
    [IR_OP_BFIND] = "UT",
    [IR_OP_BFE] = "TTUU",
    [IR_OP_BFI] = "TTTUU",
    [IR_OP_SHL] = "TTU",
    [IR_OP_SHR] = "TTU",
    [IR_OP_SHF] = "U",
    [IR_OP_PRMT] = "U",
    [IR_OP_LOP3] = "UUUUI",
    [IR_OP_FNS] = "U",
    [IR_OP_BMSK] = "U",
    [IR_OP_SZEXT] = "U",
    [IR_OP_DP4A] = "U",
    [IR_OP_DP2A] = "U",
    [IR_OP_SHFL] = "UUUUU",
    [IR_OP_MATCH] = "UTU",
    [IR_OP_REDUX] = "TTU",
    [IR_OP_ACTIVEMASK] = "U",
    [IR_OP_BAR] = "U",
    [IR_OP_BARRIER] = "U",
    [IR_OP_LD] = "TA",
    [IR_OP_LDU] = "TA",
    [IR_OP_ST] = "AT",
    [IR_OP_ATOM] = "TAT",
    [IR_OP_RED] = "AT",
    [IR_OP_ELECT] = "UU",
    [IR_OP_BREV] = "T",
    [IR_OP_NANOSLEEP] = "U",
    [IR_OP_CVTA] = "T",
    /* scalar video and every vset: a destination of the first type, u32 sources */
    [IR_OP_VADD] = "FUUU",
    [IR_OP_VSUB] = "FUUU",
    [IR_OP_VABSDIFF] = "FUUU",
    [IR_OP_VMIN] = "FUUU",
    [IR_OP_VMAX] = "FUUU",
    [IR_OP_VSHL] = "FUUU",
    [IR_OP_VSHR] = "FUUU",
    [IR_OP_VMAD] = "FUUU",
    [IR_OP_VSET] = "FUUU",
    [IR_OP_VSET2] = "FUUU",
    [IR_OP_VSET4] = "FUUU",
};

/* Instructions that write no register. */
static const bool NODEST[IR_OP__COUNT] = {
    [IR_OP_ST] = 1,
    [IR_OP_RED] = 1,
    [IR_OP_BAR] = 1,
    [IR_OP_BARRIER] = 1,
    [IR_OP_BRA] = 1,
    [IR_OP_RET] = 1,
    [IR_OP_EXIT] = 1,
    [IR_OP_MEMBAR] = 1,
    [IR_OP_FENCE] = 1,
    [IR_OP_TRAP] = 1,
    [IR_OP_BRKPT] = 1,
    [IR_OP_NANOSLEEP] = 1,
    [IR_OP_PREFETCH] = 1,
    [IR_OP_PREFETCHU] = 1,
    [IR_OP_PMEVENT] = 1,
    [IR_OP_CALL] = 1,
    [IR_OP_GRIDDEPCONTROL] = 1,
    [IR_OP_SETMAXNREG] = 1,
    [IR_OP_CP] = 1,
};

typedef struct mn {
    char buf[128];
    int op; /* ir_opcode, -1 when unknown */
    const char *ty[8];
    int nty;
    bool wide, pack, vote_ballot, ab_pred;
} mn;

static void split(mn *m, const char *mnemonic) {
    memset(m, 0, sizeof *m);
    strncpy(m->buf, mnemonic, sizeof m->buf - 1);
    char *at = strchr(m->buf, '@'); /* table mnemonics carry operand selectors */
    if (at) *at = 0;
    m->op = ir_opcode_lookup(m->buf, strcspn(m->buf, "."));
    const char *mods[16];
    int nm = 0;
    for (char *p = m->buf; (p = strchr(p, '.')) && nm < 16;) {
        *p++ = 0;
        mods[nm++] = p;
    }
    for (int i = 0; i < nm; i++) {
        const char *mod = mods[i];
        bool ok;
        ev_type_named(mod, &ok);
        if (ok && m->nty < 8) m->ty[m->nty++] = mod;
        int k = ir_mod_lookup(mod, strlen(mod));
        if (k == IR_MOD_WIDE) m->wide = true;
        if (k == IR_MOD_PACK) m->pack = true;
        if (k == IR_MOD_BALLOT) m->vote_ballot = true;
    }
}

int ev_dest_count(const char *mnemonic, bool first_is_pair) {
    mn m;
    split(&m, mnemonic);
    if (m.op >= 0 && NODEST[m.op]) return 0;
    return first_is_pair ? 2 : 1;
}

static const char *rule_of(const mn *m) {
    if (m->op == IR_OP_VOTE) return m->vote_ballot ? "UPU" : "PPU";
    if (m->op == IR_OP_CVT) return m->pack ? "USSU" : "FS";
    if (m->wide && m->op == IR_OP_MUL) return "WTT";
    if (m->wide && m->op == IR_OP_MAD) return "WTTW";
    return m->op >= 0 && RULES[m->op] ? RULES[m->op] : "T";
}

static char letter(const mn *m, int pos, int nd) {
    if (nd == 2 && pos == 1) return 'P';
    int p = nd == 2 && pos > 1 ? pos - 1 : pos;
    const char *r = rule_of(m);
    size_t n = strlen(r);
    return r[(size_t)p < n ? (size_t)p : n - 1];
}

bool ev_operand_is_imm(const char *mnemonic, int pos) {
    mn m;
    split(&m, mnemonic);
    return letter(&m, pos, 1) == 'I';
}

bool ev_operand_type(const char *mnemonic, int pos, int nd, bool in_vec, int vec_n, ev_type *t) {
    mn m;
    split(&m, mnemonic);
    char c = letter(&m, pos, nd);
    bool ok = true;
    switch (c) {
    case 'P': *t = (ev_type){0, 'p'}; return true;
    case 'U':
    case 'I': *t = (ev_type){4, 'u'}; return true;
    case 'A': *t = (ev_type){8, 'u'}; return true;
    case 'F':
        if (!m.nty) return false;
        *t = ev_type_named(m.ty[0], &ok);
        break;
    case 'S':
        if (!m.nty) return false;
        *t = ev_type_named(m.ty[m.nty > 1 ? 1 : 0], &ok);
        break;
    default:
        if (!m.nty) return false;
        *t = ev_type_named(m.ty[m.nty - 1], &ok);
        if (c == 'W' && t->bytes >= 2 && t->bytes <= 4) t->bytes *= 2;
        break;
    }
    /* mov.b64 %rd, {%r1, %r2}: the vector's elements split the width */
    if (in_vec && m.op == IR_OP_MOV && vec_n > 1 && t->bytes >= 2) {
        t->bytes = (uint8_t)(t->bytes / vec_n);
        t->kind = 'b';
    }
    return ok;
}
