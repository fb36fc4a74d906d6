/* tables.c — the name tables declared in ir.h and the hash lookups the scanner
 * and builder use to classify opcodes, suffixes, directives and special
 * registers. Built once from the X-macro lists. */
#include <pthread.h>
#include <string.h>

#include "fe.h"
#include "ptx.tab.h"

const char *const ir_type_name[IR_T__COUNT] = {
#define X(e, s, b, c) s,
    IR_TYPE_LIST(X)
#undef X
};
const uint8_t ir_type_bytes[IR_T__COUNT] = {
#define X(e, s, b, c) b,
    IR_TYPE_LIST(X)
#undef X
};
const uint8_t ir_type_class_of[IR_T__COUNT] = {
#define X(e, s, b, c) IR_TC_##c,
    IR_TYPE_LIST(X)
#undef X
};
const char *const ir_space_name[IR_SPACE__COUNT] = {
#define X(e, s) s,
    IR_SPACE_LIST(X)
#undef X
};
const char *const ir_opcode_name[IR_OP__COUNT] = {
#define OP(e, s, f, v, t, o, y, r, p) s,
#include "opcodes.def"
#undef OP
};
const ir_opinfo ir_opcode_info[IR_OP__COUNT] = {
#define OP(e, s, f, v, t, o, y, r, p) {IR_FAM_##f, v, t, o, y, FE_RND_##r, p},
#include "opcodes.def"
#undef OP
};
const char *const ir_mod_name[IR_MOD__COUNT] = {
    "",
#define MOD(e, s) s,
#include "modifiers.def"
#undef MOD
};
const ir_shape ir_mod_shape[IR_MOD__COUNT] = {
#define MOD(e, s)
#define SHAPE(e, s, m, n, k) [IR_MOD_##e] = {m, n, k},
#include "modifiers.def"
#undef SHAPE
#undef MOD
};
const char *const ir_sreg_name[IR_SREG__COUNT] = {
#define X(e, s, c) s,
    IR_SREG_LIST(X)
#undef X
};
static const uint8_t sreg_comp[IR_SREG__COUNT] = {
#define X(e, s, c) c,
    IR_SREG_LIST(X)
#undef X
};

/* Directive words: the token the grammar sees and its value. */
static const struct {
    const char *name;
    int tok, val;
} directives[] = {
    {"version", VERSION, 0},
    {"target", TARGET, 0},
    {"address_size", ADDRESS_SIZE, 0},
    {"entry", ENTRY, 0},
    {"func", FUNC, 0},
    {"align", ALIGN, 0},
    {"attribute", ATTRIBUTE, 0},
    {"pragma", PRAGMA, 0},
    {"noreturn", NORETURN, 0},
    {"branchtargets", BRANCHTARGETS, 0},
    {"calltargets", CALLTARGETS, 0},
    {"callprototype", CALLPROTOTYPE, 0},
    {"alias", ALIAS, 0},
    {"maxntid", PERF, PERF_MAXNTID},
    {"reqntid", PERF, PERF_REQNTID},
    {"minnctapersm", PERF, PERF_MINNCTAPERSM},
    {"maxnctapersm", PERF, PERF_MAXNCTAPERSM},
    {"maxnreg", PERF, PERF_MAXNREG},
    {"explicitcluster", PERF, PERF_EXPLICITCLUSTER},
    {"reqnctapercluster", PERF, PERF_REQNCTAPERCLUSTER},
    {"maxclusterrank", PERF, PERF_MAXCLUSTERRANK},
    {"extern", DIR, DIRV_LINK + IR_LINK_EXTERN},
    {"visible", DIR, DIRV_LINK + IR_LINK_VISIBLE},
    {"weak", DIR, DIRV_LINK + IR_LINK_WEAK},
    {"common", DIR, DIRV_LINK + IR_LINK_COMMON},
    {"reg", DIR, DIRV_SPACE + IR_SPACE_REG},
    {"global", DIR, DIRV_SPACE + IR_SPACE_GLOBAL},
    {"const", DIR, DIRV_SPACE + IR_SPACE_CONST},
    {"shared", DIR, DIRV_SPACE + IR_SPACE_SHARED},
    {"local", DIR, DIRV_SPACE + IR_SPACE_LOCAL},
    {"param", DIR, DIRV_SPACE + IR_SPACE_PARAM},
    {"tex", DIR, DIRV_SPACE + IR_SPACE_TEX},
    {"v2", DIR, DIRV_VEC + 2},
    {"v4", DIR, DIRV_VEC + 4},
    {"v8", DIR, DIRV_VEC + 8},
    {"ptr", DIR, DIRV_PTR},
    {"managed", DIR, DIRV_ATTR_MANAGED},
    {"unified", DIR, DIRV_ATTR_UNIFIED},
};

/* Open-addressing table of (name -> kind, value), shared by every lookup. */
enum { K_OPC = 1, K_MOD, K_TYPE, K_DIR, K_SREG };
typedef struct {
    const char *name;
    uint16_t len;
    uint8_t kind;
    int16_t tok;
    int32_t val;
} entry;
#define TBITS 12
static entry table[1 << TBITS];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static uint32_t hash(const char *s, size_t n, int kind) {
    uint32_t h = 2166136261u ^ (uint32_t)kind;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void put(const char *name, int kind, int tok, int val) {
    size_t n = strlen(name);
    uint32_t i = hash(name, n, kind) & ((1 << TBITS) - 1);
    while (table[i].name) i = (i + 1) & ((1 << TBITS) - 1);
    table[i] = (entry){name, (uint16_t)n, (uint8_t)kind, (int16_t)tok, val};
}

static const entry *get(const char *s, size_t n, int kind) {
    uint32_t i = hash(s, n, kind) & ((1 << TBITS) - 1);
    for (;; i = (i + 1) & ((1 << TBITS) - 1)) {
        const entry *e = &table[i];
        if (!e->name) return NULL;
        if (e->kind == kind && e->len == n && memcmp(e->name, s, n) == 0) return e;
    }
}

static void build(void) {
    for (int i = 0; i < IR_OP__COUNT; i++) put(ir_opcode_name[i], K_OPC, 0, i);
    for (int i = 1; i < IR_MOD__COUNT; i++) put(ir_mod_name[i], K_MOD, 0, i);
    for (int i = 1; i < IR_T__COUNT; i++) put(ir_type_name[i], K_TYPE, 0, i);
    for (size_t i = 0; i < sizeof directives / sizeof *directives; i++)
        put(directives[i].name, K_DIR, directives[i].tok, directives[i].val);
    for (int i = 0; i < IR_SREG__COUNT; i++) put(ir_sreg_name[i], K_SREG, 0, i);
}

void fe_tables_init(void) { pthread_once(&once, build); }

int fe_lookup_opcode(const char *s, size_t n) {
    const entry *e = get(s, n, K_OPC);
    return e ? e->val : -1;
}
int ir_opcode_lookup(const char *s, size_t n) {
    fe_tables_init();
    return fe_lookup_opcode(s, n);
}
int ir_mod_lookup(const char *s, size_t n) {
    fe_tables_init();
    return fe_lookup_mod(s, n);
}
int ir_type_lookup(const char *s, size_t n) {
    fe_tables_init();
    return fe_lookup_type(s, n);
}
int fe_lookup_mod(const char *s, size_t n) {
    const entry *e = get(s, n, K_MOD);
    return e ? e->val : -1;
}
int fe_lookup_type(const char *s, size_t n) {
    const entry *e = get(s, n, K_TYPE);
    return e ? e->val : -1;
}
/* s includes the leading dot. Unknown words are DIR tokens with value 0. */
int fe_lookup_directive(const char *s, size_t n, int *value) {
    const entry *e = get(s + 1, n - 1, K_DIR);
    if (e) {
        *value = e->val;
        return e->tok;
    }
    e = get(s + 1, n - 1, K_TYPE);
    *value = e ? DIRV_TYPE + e->val : DIRV_UNKNOWN;
    return DIR;
}
/* s includes the '%' and any .x/.y/.z; returns sreg << 8 | comp, or -1. */
int fe_lookup_sreg(const char *s, size_t n) {
    s++, n--;
    size_t base = n;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '.') {
            base = i;
            break;
        }
    const entry *e = get(s, base, K_SREG);
    if (e) {
        if (sreg_comp[e->val] == 1) {
            if (base + 2 != n || s[base + 1] < 'x' || s[base + 1] > 'z') return -1;
            return e->val << 8 | (s[base + 1] - 'x');
        }
        return base == n ? e->val << 8 : -1;
    }
    if (base != n) return -1;
    /* %envregN, %pmN, %pmN_64: name followed by a decimal index */
    size_t d = 0;
    while (d < n && !(s[d] >= '0' && s[d] <= '9')) d++;
    if (d == n || d == 0) return -1;
    size_t end = d;
    unsigned idx = 0;
    while (end < n && s[end] >= '0' && s[end] <= '9' && idx < 1000) idx = idx * 10 + (unsigned)(s[end++] - '0');
    if (idx > 255) return -1;
    if (end == n) {
        e = get(s, d, K_SREG);
        if (e && sreg_comp[e->val] == 2 && e->val != IR_SREG_PM64) return e->val << 8 | (int)idx;
    } else if (n - end == 3 && memcmp(s + end, "_64", 3) == 0 && d == 2 && memcmp(s, "pm", 2) == 0) {
        return IR_SREG_PM64 << 8 | (int)idx;
    }
    return -1;
}
