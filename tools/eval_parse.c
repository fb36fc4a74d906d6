/* eval_parse.c — reads a `ptxi eval` snippet: PTX statements, or one CUDA asm()
 * statement whose template is substituted into PTX. Finds the registers, infers
 * their types from the instructions, and which ones are read before being
 * written (inputs) or written (outputs). Only what declaring and loading the
 * registers needs is read here; the front end checks everything else. */
#define _GNU_SOURCE /* vasprintf */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"

/* ------------------------------------------------------------ ev_text */

static void grow(ev_text *t, size_t more) {
    if (t->n + more + 1 <= t->cap) return;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->n + more + 1) cap *= 2;
    t->s = realloc(t->s, cap);
    t->origin = realloc(t->origin, cap * sizeof *t->origin);
    if (!t->s || !t->origin) abort();
    t->cap = cap;
}

void ev_put(ev_text *t, const char *s, size_t n, int origin) {
    grow(t, n);
    memcpy(t->s + t->n, s, n);
    for (size_t i = 0; i < n; i++) t->origin[t->n + i] = origin < 0 ? -1 : origin + (int)i;
    t->n += n;
    t->s[t->n] = 0;
}

void ev_printf(ev_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *buf = NULL;
    int n = vasprintf(&buf, fmt, ap);
    va_end(ap);
    if (n < 0) abort();
    ev_put(t, buf, (size_t)n, -1);
    free(buf);
}

void ev_text_free(ev_text *t) {
    free(t->s);
    free(t->origin);
    memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------ registers */

ev_reg *ev_find(ev_snippet *sn, const char *name) {
    for (int i = 0; i < sn->nregs; i++)
        if (!strcmp(sn->regs[i].name, name)) return &sn->regs[i];
    return NULL;
}

ev_reg *ev_add_reg(ev_snippet *sn, const char *name) {
    ev_reg *r = ev_find(sn, name);
    if (r) return r;
    if (sn->nregs == EV_MAX_REGS) return NULL;
    r = &sn->regs[sn->nregs++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%.79s", name);
    snprintf(r->ptx, sizeof r->ptx, "%.79s", name);
    return r;
}

int ev_reg_bytes(const ev_snippet *sn, ev_type t) { return t.bytes == 1 ? sn->reg8 : t.bytes; }

const char *ev_decl_type(const ev_snippet *sn, const ev_reg *r, char *buf) {
    int b = ev_reg_bytes(sn, r->type);
    if (!b) return ".pred";
    /* bit types: every instruction takes them for its own types of that size,
     * where ptxas rejects .f32 registers in places (mma fragments) */
    sprintf(buf, ".b%d", b * 8);
    return buf;
}

static const char *const SPECIAL[] = {"tid",
                                      "ntid",
                                      "laneid",
                                      "warpid",
                                      "nwarpid",
                                      "ctaid",
                                      "nctaid",
                                      "smid",
                                      "nsmid",
                                      "gridid",
                                      "lanemask_eq",
                                      "lanemask_le",
                                      "lanemask_lt",
                                      "lanemask_ge",
                                      "lanemask_gt",
                                      "clock",
                                      "clock64",
                                      "clock_hi",
                                      "globaltimer",
                                      "globaltimer_lo",
                                      "globaltimer_hi",
                                      "total_smem_size",
                                      "dynamic_smem_size",
                                      "aggr_smem_size",
                                      "is_explicit_cluster",
                                      "clusterid",
                                      "nclusterid",
                                      "cluster_ctaid",
                                      "cluster_nctaid",
                                      "cluster_ctarank",
                                      "cluster_nctarank",
                                      "current_graph_exec",
                                      NULL};

bool ev_is_special(const char *id) { /* id without its '%' */
    for (const char *const *s = SPECIAL; *s; s++)
        if (!strcmp(id, *s)) return true;
    return !strncmp(id, "pm", 2) || !strncmp(id, "envreg", 6) || !strncmp(id, "reserved_smem", 13);
}

static bool idchar(int c) { return isalnum(c) || c == '_' || c == '$'; }

static ev_reg *by_ptx(ev_snippet *sn, const char *name) {
    for (int i = 0; i < sn->nregs; i++)
        if (!strcmp(sn->regs[i].ptx, name)) return &sn->regs[i];
    return ev_add_reg(sn, name);
}

/* Problem at byte `off` of the snippet body: remembered with its origin. */
static int fail(ev_snippet *sn, int off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(ev_snippet *sn, int off, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sn->err, sizeof sn->err, fmt, ap);
    va_end(ap);
    sn->err_off = off >= 0 && (size_t)off < sn->body.n ? sn->body.origin[off] : -1;
    return -1;
}

/* ------------------------------------------------------------ statements */

typedef struct use {
    int reg;
    int pos;
    bool in_vec;
    int vec_n;
    bool addr;
} use;

static void note_type(ev_snippet *sn, ev_reg *r, const char *mnemonic, const use *u, int nd) {
    ev_type t;
    if (u->addr) t = (ev_type){8, 'u'};
    else if (!ev_operand_type(mnemonic, u->pos, nd, u->in_vec, u->vec_n, &t)) return;
    if (r->fixed) { /* a constraint gives the width; the instruction may say how to show it */
        if (r->asm_op && !r->shown && t.bytes == r->type.bytes && r->type.kind != 'f') r->type.kind = t.kind;
        r->shown = true;
        return;
    }
    if (!r->typed || (r->type.kind == 'b' && t.kind != 'b' && ev_reg_bytes(sn, t) == ev_reg_bytes(sn, r->type))) {
        r->type = t;
        r->typed = true;
    }
}

/* Types from nvcc's register names, for instructions whose mnemonic says nothing. */
static void type_from_name(ev_reg *r) {
    const char *n = r->ptx + (r->ptx[0] == '%');
    static const struct {
        const char *p;
        ev_type t;
    } NAMES[] = {
        {"rd", {8, 'u'}}, {"rs", {2, 'u'}}, {"fd", {8, 'f'}}, {"f", {4, 'f'}},
        {"p", {0, 'p'}},  {"h", {2, 'h'}},  {"r", {4, 'u'}},
    };
    r->type = (ev_type){4, 'u'};
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        size_t k = strlen(NAMES[i].p);
        if (!strncmp(n, NAMES[i].p, k) && (isdigit((unsigned char)n[k]) || !n[k])) {
            r->type = NAMES[i].t;
            break;
        }
    }
    r->typed = true;
}

/* `.reg .b32 %t, %u<4>;` inside the snippet: those names are the snippet's own. */
static void local_decl(ev_snippet *sn, const char *s, size_t n) {
    size_t i = 4;
    while (i < n) {
        while (i < n && (isspace((unsigned char)s[i]) || s[i] == ',')) i++;
        if (i < n && s[i] == '.') { /* a type or .v2 */
            while (i < n && !isspace((unsigned char)s[i])) i++;
            continue;
        }
        size_t b = i;
        while (i < n && (idchar((unsigned char)s[i]) || s[i] == '%')) i++;
        if (i == b) {
            i++;
            continue;
        }
        char name[EV_NAME];
        snprintf(name, sizeof name, "%.*s", (int)(i - b), s + b);
        if (i < n && s[i] == '<') { /* %u<4>: %u0 .. %u3 */
            int cnt = atoi(s + i + 1);
            for (int k = 0; k < cnt && k < 64; k++) {
                char nn[EV_NAME + 16];
                snprintf(nn, sizeof nn, "%s%d", name, k);
                ev_reg *r = ev_add_reg(sn, nn);
                if (r) r->local = true;
            }
            while (i < n && s[i] != '>') i++;
        } else {
            ev_reg *r = ev_add_reg(sn, name);
            if (r) r->local = true;
        }
    }
}

/* One instruction: s[0..n) from the opcode to before ';'. */
static int instruction(ev_snippet *sn, size_t at, size_t n, const char *guard, int *order) {
    const char *s = sn->body.s + at;
    char mnemonic[128];
    size_t i = 0;
    while (i < n && !isspace((unsigned char)s[i])) i++;
    snprintf(mnemonic, sizeof mnemonic, "%.*s", (int)(i < 127 ? i : 127), s);
    use uses[64];
    int nu = 0, pos = 0, depth_sq = 0, depth_br = 0, vec_start = -1;
    bool first_pair = false;
    /* which operand is a `d|p` pair: only the first can be */
    for (size_t k = i; k < n && s[k] != ','; k++)
        if (s[k] == '|') first_pair = true;
    int nd = ev_dest_count(mnemonic, first_pair);
    for (size_t k = i; k < n; k++) {
        char c = s[k];
        if (c == '[') depth_sq++;
        else if (c == ']') depth_sq--;
        else if (c == '{') {
            depth_br++;
            vec_start = nu;
        } else if (c == '}') {
            depth_br--;
            for (int j = vec_start; j >= 0 && j < nu; j++) uses[j].vec_n = nu - vec_start;
        } else if ((c == ',' || c == '|') && !depth_sq && !depth_br) pos++;
        else if (c == '%' && k + 1 < n && (isalpha((unsigned char)s[k + 1]) || s[k + 1] == '_')) {
            size_t b = k;
            k++;
            while (k < n && idchar((unsigned char)s[k])) k++;
            char name[EV_NAME];
            snprintf(name, sizeof name, "%.*s", (int)(k - b), s + b);
            k--;
            if (ev_is_special(name + 1)) continue;
            ev_reg *r = by_ptx(sn, name);
            if (!r) return fail(sn, (int)(at + b), "too many registers");
            if (nu < 64) uses[nu++] = (use){(int)(r - sn->regs), pos, depth_br > 0, 1, depth_sq > 0};
        }
    }
    if (depth_sq || depth_br) return fail(sn, (int)at, "unbalanced brackets in '%s'", mnemonic);
    for (int j = 0; j < nu; j++) note_type(sn, &sn->regs[uses[j].reg], mnemonic, &uses[j], nd);
    /* reads first (a guard, sources, addresses), then writes */
    if (guard) {
        ev_reg *g = by_ptx(sn, guard);
        if (!g) return fail(sn, (int)at, "too many registers");
        if (!g->fixed && !g->typed) {
            g->type = (ev_type){0, 'p'};
            g->typed = true;
        }
        if (!g->output && !g->local && !g->asm_op) g->input = true;
    }
    for (int j = 0; j < nu; j++) {
        ev_reg *r = &sn->regs[uses[j].reg];
        bool is_dest = uses[j].pos < nd && !uses[j].addr;
        if (!is_dest && !r->output && !r->local && !r->asm_op) r->input = true;
    }
    for (int j = 0; j < nu; j++) {
        ev_reg *r = &sn->regs[uses[j].reg];
        if (uses[j].pos < nd && !uses[j].addr && !r->local && !r->output && !r->asm_op) {
            r->output = true;
            r->order_out = (*order)++;
        }
    }
    return 0;
}

static int statements(ev_snippet *sn) {
    const char *s = sn->body.s;
    size_t n = sn->body.n, i = 0;
    int order = 0;
    while (i < n) {
        char c = s[i];
        if (isspace((unsigned char)c) || c == '{' || c == '}' || c == ';') {
            i++;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') i++;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *e = strstr(s + i + 2, "*/");
            i = e ? (size_t)(e - s) + 2 : n;
            continue;
        }
        size_t end = i;
        while (end < n && s[end] != ';') end++; /* { } inside: vector operands */
        /* a label: ident ':' */
        size_t k = i;
        while (k < end && idchar((unsigned char)s[k])) k++;
        if (k > i && k < end && s[k] == ':') {
            i = k + 1;
            continue;
        }
        if (c == '.') {
            if (!strncmp(s + i, ".reg", 4)) local_decl(sn, s + i, end - i);
            i = end;
            continue;
        }
        char guard[EV_NAME] = "";
        if (c == '@') {
            size_t b = i + 1;
            if (b < end && s[b] == '!') b++;
            k = b;
            while (k < end && (idchar((unsigned char)s[k]) || s[k] == '%')) k++;
            if (k == b) return fail(sn, (int)i, "expected a predicate after '@'");
            snprintf(guard, sizeof guard, "%.*s", (int)(k - b), s + b);
            i = k;
            while (i < end && isspace((unsigned char)s[i])) i++;
        }
        if (end == n && i < n) return fail(sn, (int)end - 1, "expected ';' at the end of the instruction");
        if (i < end && instruction(sn, i, end - i, guard[0] ? guard : NULL, &order)) return -1;
        i = end;
    }
    return 0;
}

/* ------------------------------------------------------------ asm() statements */

typedef struct asm_opnd {
    char name[EV_NAME]; /* [name], or "" */
    char expr[EV_NAME]; /* the C expression */
    char cons;          /* h r l f d n */
    ev_type vtype;      /* the C type of a cast's variable, or {0} */
    bool out, inout;
    int origin;
} asm_opnd;

/* Skips white space and C comments. */
static const char *skip_ws(const char *p) {
    for (;;) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (p[0] == '/' && p[1] == '/') {
            p += strcspn(p, "\n");
        } else {
            return p;
        }
    }
}

/* The asm keyword at p (asm, __asm, __asm__): its length, or 0. */
static size_t asm_keyword(const char *p) {
    static const char *const KW[] = {"__asm__", "__asm", "asm"};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(KW[i]);
        if (!strncmp(p, KW[i], n) && !idchar((unsigned char)p[n])) return n;
    }
    return 0;
}

/* An operand written as a bit-cast intrinsic or a cast of a variable,
 * "r"(__float_as_uint(f)), "r"((int)x): the variable's name goes into expr and
 * its C type, which its value is read in, into *vt. */
static void operand_cast(char *expr, ev_type *vt) {
    static const struct {
        const char *fn;
        ev_type t;
    } FN[] = {{"__float_as_uint", {4, 'f'}},  {"__float_as_int", {4, 'f'}},       {"__uint_as_float", {4, 'u'}},
              {"__int_as_float", {4, 's'}},   {"__double_as_longlong", {8, 'f'}}, {"__longlong_as_double", {8, 's'}},
              {"__half_as_ushort", {2, 'h'}}, {"__half_as_short", {2, 'h'}},      {"__ushort_as_half", {2, 'u'}},
              {"__short_as_half", {2, 's'}},  {"__bfloat16_as_ushort", {2, 'g'}}, {"__ushort_as_bfloat16", {2, 'u'}}};
    static const struct {
        const char *c;
        char kind;
    } CASTS[] = {{"(int)", 's'},     {"(unsigned)", 'u'},  {"(unsigned int)", 'u'},       {"(uint32_t)", 'u'},
                 {"(int32_t)", 's'}, {"(long long)", 's'}, {"(unsigned long long)", 'u'}, {"(uint64_t)", 'u'},
                 {"(int64_t)", 's'}, {"(short)", 's'},     {"(unsigned short)", 'u'}};
    size_t n = strlen(expr);
    for (size_t i = 0; i < sizeof FN / sizeof FN[0]; i++) {
        size_t k = strlen(FN[i].fn);
        if (strncmp(expr, FN[i].fn, k) || n < k + 2 || expr[n - 1] != ')') continue;
        const char *b = skip_ws(expr + k);
        if (*b != '(') continue;
        b = skip_ws(b + 1);
        size_t m = (size_t)(expr + n - 1 - b);
        while (m && isspace((unsigned char)b[m - 1])) m--;
        memmove(expr, b, m);
        expr[m] = 0;
        *vt = FN[i].t;
        return;
    }
    for (size_t i = 0; i < sizeof CASTS / sizeof CASTS[0]; i++) {
        size_t k = strlen(CASTS[i].c);
        if (strncmp(expr, CASTS[i].c, k)) continue;
        const char *b = skip_ws(expr + k);
        memmove(expr, b, strlen(b) + 1);
        vt->kind = CASTS[i].kind;
        return;
    }
}

/* A C string literal at p (after its quote); appends its characters to t with
 * their origins. Returns the position after the closing quote, or NULL. */
static const char *c_string(ev_text *t, const char *src, const char *p) {
    for (; *p && *p != '"'; p++) {
        int o = (int)(p - src);
        if (*p == '\\' && p[1]) {
            p++;
            char c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'r' ? ' ' : *p;
            ev_put(t, &c, 1, o);
        } else {
            ev_put(t, p, 1, o);
        }
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *asm_operands(ev_snippet *sn, const char *src, const char *p, asm_opnd *ops, int *nops, bool out) {
    p = skip_ws(p);
    while (*p && *p != ':' && *p != ')') {
        if (*nops == 64) return NULL;
        asm_opnd *o = &ops[(*nops)++];
        memset(o, 0, sizeof *o);
        o->origin = (int)(p - src);
        if (*p == '[') {
            const char *e = strchr(p, ']');
            if (!e) return NULL;
            snprintf(o->name, sizeof o->name, "%.*s", (int)(e - p - 1), p + 1);
            p = skip_ws(e + 1);
        }
        if (*p != '"') return NULL;
        for (p++; *p && *p != '"'; p++) {
            if (*p == '=') o->out = true;
            else if (*p == '+') o->out = o->inout = true;
            else if (strchr("hrlfdn", *p)) o->cons = *p;
            else if (*p != '&') {
                sn->err_off = (int)(p - src);
                return NULL;
            }
        }
        if (*p != '"' || !o->cons) return NULL;
        p = skip_ws(p + 1);
        if (*p != '(') return NULL;
        int depth = 0;
        const char *b = p + 1;
        for (; *p; p++) {
            if (*p == '(') depth++;
            else if (*p == ')' && --depth == 0) break;
        }
        if (!*p) return NULL;
        const char *e = p;
        b = skip_ws(b);
        while (e > b && isspace((unsigned char)e[-1])) e--;
        snprintf(o->expr, sizeof o->expr, "%.*s", (int)(e - b), b);
        if (o->cons != 'n') operand_cast(o->expr, &o->vtype);
        if (out && !o->out) return NULL;
        p = skip_ws(p + 1);
        if (*p == ',') p = skip_ws(p + 1);
    }
    return p;
}

static int parse_asm(ev_snippet *sn, const char *src, const char *at) {
    const char *p = skip_ws(at + asm_keyword(at));
    static const char *const QUAL[] = {"volatile", "__volatile__", "goto", "inline", NULL};
    for (bool more = true; more;) {
        more = false;
        for (const char *const *q = QUAL; *q; q++)
            if (!strncmp(p, *q, strlen(*q)) && !idchar((unsigned char)p[strlen(*q)])) {
                p = skip_ws(p + strlen(*q));
                more = true;
            }
    }
    if (*p != '(') {
        sn->err_off = (int)(p - src);
        snprintf(sn->err, sizeof sn->err, "expected '(' after asm");
        return -1;
    }
    p = skip_ws(p + 1);
    ev_text tmpl = {0};
    while (*p == '"') {
        p = c_string(&tmpl, src, p + 1);
        if (!p) {
            ev_text_free(&tmpl);
            sn->err_off = (int)strlen(src);
            snprintf(sn->err, sizeof sn->err, "unterminated string");
            return -1;
        }
        p = skip_ws(p);
    }
    if (!tmpl.n) {
        sn->err_off = (int)(p - src);
        snprintf(sn->err, sizeof sn->err, "expected the asm template string");
        return -1;
    }
    asm_opnd ops[64];
    int nops = 0;
    for (int part = 0; part < 3 && *p == ':'; part++) {
        if (part == 2) { /* clobbers: ignored */
            while (*p && *p != ')') p++;
            break;
        }
        const char *q = asm_operands(sn, src, p + 1, ops, &nops, part == 0);
        if (!q) {
            ev_text_free(&tmpl);
            if (sn->err_off < 0) sn->err_off = (int)(p - src);
            snprintf(sn->err, sizeof sn->err,
                     "malformed asm operand (expected [name] \"constraint\"(expression); constraints h r l f d n)");
            return -1;
        }
        p = q;
    }
    p = skip_ws(p);
    if (*p != ')') {
        ev_text_free(&tmpl);
        sn->err_off = (int)(p - src);
        snprintf(sn->err, sizeof sn->err, "expected ')' closing asm");
        return -1;
    }
    /* operands become registers %_o0.. (immediates: their value, filled in later) */
    for (int i = 0; i < nops; i++) {
        ev_reg *r = ev_add_reg(sn, ops[i].expr);
        if (!r) return -1;
        r->asm_op = true;
        for (int v = 0; v < sn->nvalues; v++)
            if (!strcmp(sn->value_name[v], r->name)) r->value = sn->value_text[v];
        if (!ops[i].out || ops[i].inout) r->input = true;
        if (ops[i].out && !r->output) {
            r->output = true;
            r->order_out = i;
        }
        r->is_imm = ops[i].cons == 'n';
        snprintf(r->ptx, sizeof r->ptx, "%%_%.*s", (int)sizeof r->ptx - 3, ops[i].expr);
        for (char *c = r->ptx + 2; *c; c++)
            if (!idchar((unsigned char)*c)) *c = '_';
        static const struct {
            char c;
            ev_type t;
        } CONS[] = {{'h', {2, 'u'}}, {'r', {4, 'u'}}, {'l', {8, 'u'}},
                    {'f', {4, 'f'}}, {'d', {8, 'f'}}, {'n', {4, 's'}}};
        for (size_t k = 0; k < sizeof CONS / sizeof CONS[0]; k++)
            if (CONS[k].c == ops[i].cons) r->type = CONS[k].t;
        r->typed = r->fixed = true;
        if (ops[i].vtype.kind) {
            r->vtype = ops[i].vtype;
            if (!r->vtype.bytes) r->vtype.bytes = r->type.bytes;
        }
    }
    /* substitute %N, %[name], %% */
    for (size_t i = 0; i < tmpl.n; i++) {
        char c = tmpl.s[i];
        int o = tmpl.origin[i];
        if (c != '%') {
            ev_put(&sn->body, &c, 1, o);
            continue;
        }
        if (i + 1 < tmpl.n && tmpl.s[i + 1] == '%') {
            ev_put(&sn->body, "%", 1, o);
            i++;
            continue;
        }
        int idx = -1;
        size_t j = i + 1;
        if (j < tmpl.n && isdigit((unsigned char)tmpl.s[j])) {
            idx = 0;
            while (j < tmpl.n && isdigit((unsigned char)tmpl.s[j])) idx = idx * 10 + tmpl.s[j++] - '0';
        } else if (j < tmpl.n && tmpl.s[j] == '[') {
            size_t e = j;
            while (e < tmpl.n && tmpl.s[e] != ']') e++;
            for (int k = 0; k < nops; k++)
                if (strlen(ops[k].name) == e - j - 1 && !strncmp(ops[k].name, tmpl.s + j + 1, e - j - 1)) idx = k;
            j = e + 1;
        } else { /* a lone %: PTX would see it as is */
            ev_put(&sn->body, "%", 1, o);
            continue;
        }
        if (idx < 0 || idx >= nops) {
            sn->err_off = o;
            snprintf(sn->err, sizeof sn->err, "asm operand %.*s does not exist (%d operand%s)", (int)(j - i),
                     tmpl.s + i, nops, nops == 1 ? "" : "s");
            ev_text_free(&tmpl);
            return -1;
        }
        ev_reg *r = ev_find(sn, ops[idx].expr);
        if (r->is_imm) { /* "n": the value itself */
            long long v;
            if (!r->value && ev_const_int(r->name, &v)) { /* "n"(4), "n"(1 << 3) */
                snprintf(r->imm, sizeof r->imm, "%lld", v);
                r->value = r->imm;
            }
            if (!r->value) {
                sn->err_off = o;
                snprintf(sn->err, sizeof sn->err, "asm operand %d (%s) has no value (give %s=VALUE)", idx, r->name,
                         r->name);
                ev_text_free(&tmpl);
                return -1;
            }
            ev_put(&sn->body, r->value, strlen(r->value), o);
        } else {
            ev_put(&sn->body, r->ptx, strlen(r->ptx), o);
        }
        i = j - 1;
    }
    ev_text_free(&tmpl);
    return 0;
}

int ev_parse(ev_snippet *sn, const char *text) {
    sn->src = text;
    sn->err_off = -1;
    sn->err[0] = 0;
    if (!sn->reg8) sn->reg8 = 4;
    const char *p = skip_ws(text);
    if (asm_keyword(p)) {
        sn->is_asm = true;
        if (parse_asm(sn, text, p)) return -1;
    } else {
        ev_put(&sn->body, text, strlen(text), 0);
    }
    /* asm operands are typed by their constraints; the scan finds any other register */
    if (statements(sn)) return -1;
    for (int i = 0; i < sn->nregs; i++) {
        ev_reg *r = &sn->regs[i];
        if (!r->typed) type_from_name(r);
    }
    /* a register or asm operand named by --mem holds the buffer's address */
    for (int i = 0; i < sn->nregs; i++)
        for (int m = 0; m < sn->nmem; m++)
            if (!sn->regs[i].local && !strcmp(sn->regs[i].name, sn->mem[m].name)) {
                sn->regs[i].mem = m + 1;
                sn->regs[i].input = false;
            }
    sn->nout = 0;
    for (int i = 0; i < sn->nregs; i++) sn->nout += sn->regs[i].output;
    return 0;
}
