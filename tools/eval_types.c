/* eval_types.c — what type each operand of a PTX instruction has, read from its
 * mnemonic alone (`ptxi eval` must declare the snippet's registers before the
 * front end sees them). One rule string per opcode family, one letter an operand. */
#include <string.h>

#include "eval.h"

static const struct { const char *name; ev_type t; } TYPES[] = {
    {"pred", {0, 'p'}},  {"b8", {1, 'b'}},    {"u8", {1, 'u'}},     {"s8", {1, 's'}},
    {"b16", {2, 'b'}},   {"u16", {2, 'u'}},   {"s16", {2, 's'}},    {"f16", {2, 'h'}},
    {"bf16", {2, 'g'}},  {"b32", {4, 'b'}},   {"u32", {4, 'u'}},    {"s32", {4, 's'}},
    {"f32", {4, 'f'}},   {"f16x2", {4, 'b'}}, {"bf16x2", {4, 'b'}}, {"tf32", {4, 'b'}},
    {"s16x2", {4, 'b'}}, {"u16x2", {4, 'b'}}, {"b64", {8, 'b'}},    {"u64", {8, 'u'}},
    {"s64", {8, 's'}},   {"f64", {8, 'f'}},   {"e4m3x2", {2, 'b'}}, {"e5m2x2", {2, 'b'}},
    {"e2m3x2", {2, 'b'}}, {"e3m2x2", {2, 'b'}}, {"e2m1x2", {1, 'b'}}, {"ue8m0x2", {2, 'b'}},
    {"s2", {1, 's'}}, {"u2", {1, 'u'}}, {"s4", {1, 's'}}, {"u4", {1, 'u'}},
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
 * second register of a `d|p` pair is always a predicate. */
static const struct { const char *op; const char *rule; } RULES[] = {
    {"setp", "PTTP"},   {"set", "FSSP"},    {"selp", "TTTP"},   {"slct", "FFFS"},
    {"testp", "PT"},    {"isspacep", "PT"}, {"popc", "UT"},     {"clz", "UT"},
    {"bfind", "UT"},    {"bfe", "TTUU"},    {"bfi", "TTTUU"},   {"shl", "TTU"},
    {"shr", "TTU"},     {"shf", "U"},       {"prmt", "U"},      {"lop3", "UUUUI"},
    {"fns", "U"},       {"bmsk", "U"},      {"szext", "U"},     {"dp4a", "U"},
    {"dp2a", "U"},      {"shfl", "UUUUU"},  {"match", "UTU"},   {"redux", "TTU"},
    {"activemask", "U"}, {"bar", "U"},      {"barrier", "U"},   {"ld", "TA"},
    {"ldu", "TA"},      {"st", "AT"},       {"atom", "TAT"},    {"red", "AT"},
    {"vset", "U"},      {"vset2", "U"},     {"vset4", "U"},     {"elect", "UU"},
    {"brev", "T"},      {"nanosleep", "U"}, {"cvta", "T"},
};

static const char *const VIDEO[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr",
                                    "vmad", "vavrg", NULL};

static const char *const NODEST[] = {"st", "red", "bar", "barrier", "bra", "ret", "exit", "membar",
                                     "fence", "trap", "brkpt", "nanosleep", "prefetch", "prefetchu",
                                     "pmevent", "call", "griddepcontrol", "setmaxnreg", "cp", NULL};

typedef struct mn {
    char buf[128];
    const char *op;
    const char *ty[8];
    int nty;
    bool wide, pack, vote_ballot, ab_pred;
} mn;

static bool in_list(const char *s, const char *const *l) {
    for (; *l; l++)
        if (!strcmp(s, *l)) return true;
    return false;
}

static void split(mn *m, const char *mnemonic) {
    memset(m, 0, sizeof *m);
    strncpy(m->buf, mnemonic, sizeof m->buf - 1);
    char *at = strchr(m->buf, '@');   /* table mnemonics carry operand selectors */
    if (at) *at = 0;
    m->op = m->buf;
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
        if (!strcmp(mod, "wide")) m->wide = true;
        if (!strcmp(mod, "pack")) m->pack = true;
        if (!strcmp(mod, "ballot")) m->vote_ballot = true;
    }
}

int ev_dest_count(const char *mnemonic, bool first_is_pair) {
    mn m;
    split(&m, mnemonic);
    if (in_list(m.op, NODEST)) return 0;
    return first_is_pair ? 2 : 1;
}

static const char *rule_of(const mn *m) {
    if (in_list(m->op, VIDEO) || !strncmp(m->op, "vset", 4)) return "FUUU";
    if (!strcmp(m->op, "vote")) return m->vote_ballot ? "UPU" : "PPU";
    if (!strcmp(m->op, "cvt")) return m->pack ? "USSU" : "FS";
    if (m->wide && !strcmp(m->op, "mul")) return "WTT";
    if (m->wide && !strcmp(m->op, "mad")) return "WTTW";
    for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
        if (!strcmp(RULES[i].op, m->op)) return RULES[i].rule;
    return "T";
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
    case 'U': case 'I': *t = (ev_type){4, 'u'}; return true;
    case 'A': *t = (ev_type){8, 'u'}; return true;
    case 'F': if (!m.nty) return false; *t = ev_type_named(m.ty[0], &ok); break;
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
    if (in_vec && !strcmp(m.op, "mov") && vec_n > 1 && t->bytes >= 2) {
        t->bytes = (uint8_t)(t->bytes / vec_n);
        t->kind = 'b';
    }
    return ok;
}
