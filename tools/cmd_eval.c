/* cmd_eval.c — `ptxi eval`: runs a PTX snippet or a CUDA asm() statement on
 * given inputs (one lane or a warp and more) through the public API and prints
 * every register it writes; table and --emit-cuda modes. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "eval.h"
#include "numparse.h"
#include "eval_fmt.h"
#include "ptxi.h"

EV_FMT(EV_FMT_CODE)

static const char usage_text[] =
    "usage: ptxi eval 'SNIPPET' [NAME=VALUE]... [options]\n"
    "       ptxi eval --table TABLE.txt            replay an instruction table\n"
    "\n"
    "SNIPPET is PTX (several instructions, labels, predicates and { } blocks), or one\n"
    "CUDA statement asm(\"...\" : \"=r\"(out) : \"r\"(in)) pasted as is. Every register\n"
    "(or asm output) the snippet writes is printed: %r1 = 0x00000011 (17).\n"
    "\n"
    "  NAME=VALUE          an input: %r2=0x01020304, A=5 (asm operand), f32 regs take 1.5;\n"
    "                      a comma list gives one value per lane; an expression of\n"
    "                      `lane` (+ - * / % & | ^ << >> ( )) is evaluated per lane\n"
    "  --lanes N           run N lanes (threads of one block; default 1, or the\n"
    "                      longest comma list)\n"
    "  --reg .TYPE NAME    declare a register's type where the instruction does not say\n"
    "  --mem [shared:]NAME=FILE|zeros:BYTES\n"
    "                      bind [NAME] in the snippet to a device buffer (shared:\n"
    "                      in shared memory), and a register or asm operand NAME\n"
    "                      to its address; words the snippet changes are printed\n"
    "  --table FILE        with a snippet: FILE is CSV, a header naming the inputs, one\n"
    "                      row per lane; prints a header and one row per lane.\n"
    "                      Without: FILE is an instruction table\n"
    "                      (`MNEMONIC NOPNDS | SOURCES | DESTINATIONS`, tests/alu/README.md),\n"
    "                      printed again with the destinations ptxi computes\n"
    "  --emit-cuda FILE.cu write a CUDA program that evaluates the same on a GPU and\n"
    "                      prints the same text\n"
    "  --ptx               print the generated module instead of running it\n"
    "  --timeout S         stop a snippet running longer than S seconds (default 10;\n"
    "                      a table: 30; 0: no limit)\n"
    "\n"
    "exit status: 0 success, 1 the snippet is malformed or failed, 2 bad arguments\n";

static int usage_err(const char *fmt, const char *what) {
    fprintf(stderr, "ptxi eval: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\n(ptxi eval --help for usage)\n");
    return 2;
}

/* ------------------------------------------------------------ values */

typedef struct ex {
    const char *p;
    bool fl; /* float evaluation */
    long long lane;
    const char *err;
} ex;

typedef struct num {
    long long i;
    double d;
} num;

static num ex_or(ex *e);

static void ws(ex *e) {
    while (isspace((unsigned char)*e->p)) e->p++;
}

static num ex_atom(ex *e) {
    ws(e);
    num r = {0, 0};
    if (*e->p == '(') {
        e->p++;
        r = ex_or(e);
        ws(e);
        if (*e->p != ')') e->err = "expected ')'";
        else e->p++;
        return r;
    }
    if (*e->p == '-' || *e->p == '+' || *e->p == '~') {
        char c = *e->p++;
        r = ex_atom(e);
        if (c == '-') {
            r.i = -r.i;
            r.d = -r.d;
        }
        if (c == '~') {
            r.i = ~r.i;
            r.d = (double)r.i;
        }
        return r;
    }
    if (!strncmp(e->p, "lane", 4) && !isalnum((unsigned char)e->p[4])) {
        e->p += 4;
        return (num){e->lane, (double)e->lane};
    }
    char *end;
    if (e->fl) {
        r.d = strtod(e->p, &end);
        r.i = (long long)r.d;
    } else {
        errno = 0;
        r.i = (long long)strtoull(e->p, &end, 0);
        if (errno) e->err = "number out of range";
        while (end != e->p && strchr("uUlL", *end) && *end) end++; /* C suffixes: 4u, 1ull */
        if (end != e->p && (*end == '.' || *end == 'e' || *end == 'E') && strncmp(e->p, "0x", 2))
            e->err = "a float value for an integer register";
        r.d = (double)r.i;
    }
    if (end == e->p) e->err = "expected a number or `lane`";
    e->p = end;
    return r;
}

/* One precedence level per row, lowest first; binary operators only. */
static const char *const LEVELS[] = {"|", "^", "&", "<< >>", "+ -", "* / %"};

static num ex_level(ex *e, int lv) {
    if (lv == 6) return ex_atom(e);
    num a = ex_level(e, lv + 1);
    for (;;) {
        ws(e);
        const char *op = NULL;
        char buf[8];
        for (const char *l = LEVELS[lv]; *l;) {
            size_t n = strcspn(l, " ");
            snprintf(buf, sizeof buf, "%.*s", (int)n, l);
            if (!strncmp(e->p, buf, n) && !(n == 1 && (buf[0] == '|' || buf[0] == '&') && e->p[1] == buf[0])) {
                op = buf;
                break;
            }
            l += n + (l[n] == ' ');
        }
        if (!op || e->err) return a;
        e->p += strlen(op);
        num b = ex_level(e, lv + 1);
        if (e->fl && strchr("+-*/", op[0])) {
            a.d = op[0] == '+' ? a.d + b.d : op[0] == '-' ? a.d - b.d : op[0] == '*' ? a.d * b.d : a.d / b.d;
            continue;
        }
        if (e->fl) {
            e->err = "only + - * / on float values";
            return a;
        }
        unsigned long long x = (unsigned long long)a.i, y = (unsigned long long)b.i;
        if ((op[0] == '/' || op[0] == '%') && !y) {
            e->err = "division by zero";
            return a;
        }
        switch (op[0] + (op[1] == '<' || op[1] == '>' ? 256 : 0)) {
        case '|': x |= y; break;
        case '^': x ^= y; break;
        case '&': x &= y; break;
        case '<' + 256: x = y > 63 ? 0 : x << y; break;
        case '>' + 256: x = y > 63 ? 0 : x >> y; break;
        case '+': x += y; break;
        case '-': x -= y; break;
        case '*': x *= y; break;
        case '/': x = (unsigned long long)(a.i / b.i); break;
        case '%': x = (unsigned long long)(a.i % b.i); break;
        }
        a.i = (long long)x;
        a.d = (double)a.i;
    }
}

static num ex_or(ex *e) { return ex_level(e, 0); }

static uint16_t f32_to_f16(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t s = x >> 16 & 0x8000, e = x >> 23 & 255, m = x & 0x7fffff;
    if (e == 255) return (uint16_t)(s | 0x7c00 | (m ? 0x200 : 0));
    int ee = (int)e - 127 + 15;
    if (ee >= 31) return (uint16_t)(s | 0x7c00);
    if (ee <= 0) { /* subnormal: shift with rounding */
        if (ee < -10) return (uint16_t)s;
        m |= 0x800000;
        int sh = 14 - ee;
        uint32_t q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
        if (rem > half || (rem == half && (q & 1))) q++;
        return (uint16_t)(s | q);
    }
    uint32_t q = (uint32_t)ee << 10 | m >> 13, rem = m & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (q & 1))) q++;
    return (uint16_t)(s | q);
}

static uint16_t f32_to_bf16(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffff) > 0x7f800000) return (uint16_t)(x >> 16 | 0x40);
    x += 0x7fff + (x >> 16 & 1);
    return (uint16_t)(x >> 16);
}

static bool only_hex(const char *s) {
    while (isspace((unsigned char)*s)) s++;
    if (strncmp(s, "0x", 2) && strncmp(s, "0X", 2)) return false;
    s += 2;
    while (isxdigit((unsigned char)*s)) s++;
    while (isspace((unsigned char)*s)) s++;
    return !*s;
}

bool ev_const_int(const char *text, long long *out) {
    if (strstr(text, "lane")) return false;
    ex e = {text, false, 0, NULL};
    num v = ex_or(&e);
    ws(&e);
    if (e.err || *e.p) return false;
    *out = v.i;
    return true;
}

/* One value (no commas) of register type t for `lane`: raw bits, or an error. */
static const char *value_of(const char *text, ev_type t, int bytes, long long lane, uint64_t *out) {
    bool fl = (t.kind == 'f' || t.kind == 'h' || t.kind == 'g') && !only_hex(text);
    ex e = {text, fl, lane, NULL};
    const char *s = text;
    while (isspace((unsigned char)*s)) s++;
    num v = {0, 0};
    if (fl && (!strncasecmp(s, "nan", 3) || !strncasecmp(s, "inf", 3) || !strncasecmp(s, "-inf", 4))) {
        v.d = strtod(s, (char **)&e.p);
    } else {
        v = ex_or(&e);
    }
    ws(&e);
    if (!e.err && *e.p) e.err = "unexpected text";
    if (e.err) return e.err;
    if (!fl) {
        if (bytes > 0 && bytes < 8 && (v.i >= (1ll << bytes * 8) || v.i < -(1ll << (bytes * 8 - 1))))
            return "number out of range for the register";
        *out = bytes == 0 ? v.i != 0 : bytes < 8 ? (uint64_t)v.i & ((1ull << bytes * 8) - 1) : (uint64_t)v.i;
        return NULL;
    }
    if (bytes == 8) {
        memcpy(out, &v.d, 8);
        return NULL;
    }
    float f = (float)v.d;
    uint32_t u;
    memcpy(&u, &f, 4);
    *out = t.kind == 'h' ? f32_to_f16(f) : t.kind == 'g' ? f32_to_bf16(f) : u;
    return NULL;
}

static unsigned count_list(const char *s) {
    unsigned n = 1;
    for (; *s; s++) n += *s == ',';
    return n;
}

/* Fills r->vals for every lane; returns an error message or NULL. */
static const char *lane_values(const ev_snippet *sn, ev_reg *r, unsigned lanes, char *msg, size_t msz) {
    r->vals = calloc(lanes, sizeof *r->vals);
    unsigned n = count_list(r->value);
    if (n > 1 && n != lanes) {
        snprintf(msg, msz, "%s has %u values for %u lanes", r->name, n, lanes);
        return msg;
    }
    const char *p = r->value;
    for (unsigned l = 0; l < lanes; l++) {
        char one[256];
        size_t k = n > 1 ? strcspn(p, ",") : strlen(p);
        snprintf(one, sizeof one, "%.*s", (int)k, p);
        ev_type vt = r->vtype.kind ? r->vtype : r->type;
        const char *err = value_of(one, vt, ev_reg_bytes(sn, vt), l, &r->vals[l]);
        if (err) {
            snprintf(msg, msz, "%s=%s: %s", r->name, one, err);
            return msg;
        }
        if (n > 1) p += k + 1;
    }
    return NULL;
}

/* ------------------------------------------------------------ diagnostics */

/* Where the user typed the byte at `off`: line, column, and that line's text. */
static void show_at(const char *src, int off, const char *msg) {
    int line = 1;
    const char *ls = src;
    if (off < 0) off = 0;
    if ((size_t)off > strlen(src)) off = (int)strlen(src);
    for (const char *p = src; p < src + off; p++)
        if (*p == '\n') {
            line++;
            ls = p + 1;
        }
    int col = (int)(src + off - ls) + 1;
    size_t ll = strcspn(ls, "\n");
    fprintf(stderr, "<snippet>:%d:%d: error: %s\n%.*s\n%*s^\n", line, col, msg, (int)ll, ls, col - 1, "");
}

/* The front end's `<eval>:L:C: error: M` lines, pointed back into the snippet. */
static void map_diags(const ev_snippet *sn, const ev_text *mod, const char *detail) {
    int shown = 0;
    for (const char *p = detail; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        unsigned line, col;
        int used = 0;
        if (sscanf(p, "<eval>:%u:%u: %n", &line, &col, &used) == 2 && used) {
            const char *m = p + used;
            if (!strncmp(m, "error: ", 7)) m += 7;
            size_t off = 0;
            for (unsigned l = 1; l < line && off < mod->n; off++)
                if (mod->s[off] == '\n') l++;
            off += col - 1;
            int o = -1;
            for (size_t k = off < mod->n ? off : mod->n - 1; o < 0; k--) {
                o = mod->origin[k];
                if (!k || mod->s[k] == '\n') break;
            }
            char msg[512];
            snprintf(msg, sizeof msg, "%.*s", (int)(n - (size_t)(m - p)), m);
            if (o >= 0) show_at(sn->src, o, msg);
            else fprintf(stderr, "<snippet>: error: %s (in the generated code around it)\n", msg);
            shown++;
        }
        p = nl ? nl + 1 : NULL;
    }
    if (!shown) fprintf(stderr, "%s\n", detail);
}

/* ------------------------------------------------------------ running */

typedef struct run_cfg {
    unsigned lanes;
    bool print_ptx;
    FILE *emit;
    int csv;
    double timeout_s;
} run_cfg;

static int launch(const ev_snippet *sn, const ev_layout *lay, const run_cfg *c, const uint64_t *in, uint64_t *out,
                  uint8_t **mem_after) {
    ev_text mod = {0};
    ev_gen_header(&mod);
    ev_gen_entry(&mod, sn, lay, "ptxi_eval");
    if (c->print_ptx) {
        fputs(mod.s, stdout);
        ev_text_free(&mod);
        return 0;
    }
    ptxi_ctx_options opt = {.threads = 1, .deterministic = 1, .timeout_s = c->timeout_s};
    ptxi_ctx *ctx;
    ptxi_module *m;
    ptxi_kernel *k;
    int rc = 1;
    if (ptxi_ctx_create(&ctx, &opt)) {
        fprintf(stderr, "ptxi eval: cannot create a context\n");
        ev_text_free(&mod);
        return 1;
    }
    if (ptxi_module_load_data(ctx, mod.s, mod.n, "<eval>", &m)) {
        map_diags(sn, &mod, ptxi_ctx_error_detail(ctx));
        goto done;
    }
    ptxi_module_get_kernel(m, "ptxi_eval", &k);
    size_t inb = (size_t)c->lanes * (size_t)(lay->nin ? lay->nin : 1) * 8;
    size_t outb = (size_t)c->lanes * (size_t)(lay->nout ? lay->nout : 1) * 8;
    ptxi_dptr din, dout, dm[16];
    if (ptxi_mem_alloc(ctx, inb, &din) || ptxi_mem_alloc(ctx, outb, &dout)) goto fail;
    ptxi_memcpy_htod(ctx, din, in, (size_t)c->lanes * (size_t)lay->nin * 8);
    ptxi_memset_d8(ctx, dout, 0, outb);
    unsigned n = c->lanes;
    void *args[19] = {&din, &dout, &n};
    for (int i = 0; i < sn->nmem; i++) {
        /* The buffer ends where its allocation's guard begins, so that an
         * access past it faults as in `ptxi run` (16-byte aligned: up to 15
         * bytes of slack when its size is not a multiple of 16). */
        size_t b16 = (sn->mem[i].bytes + 15) & ~(size_t)15, span = (b16 + 255) & ~(size_t)255;
        if (!b16) b16 = span = 16;
        if (ptxi_mem_alloc(ctx, span, &dm[i])) goto fail;
        dm[i] += span - b16;
        ptxi_memcpy_htod(ctx, dm[i], sn->mem[i].init, sn->mem[i].bytes);
        args[3 + i] = &dm[i];
    }
    unsigned block = c->lanes <= 1024 ? c->lanes : 1024;
    ptxi_status st = ptxi_launch(k, (ptxi_dim3){(c->lanes + block - 1) / block, 1, 1}, (ptxi_dim3){block, 1, 1}, 0,
                                 NULL, args);
    if (!st) st = ptxi_ctx_synchronize(ctx);
    if (st) {
        fprintf(stderr, "ptxi eval: %s\n", ptxi_error_string(st));
        goto done;
    }
    ptxi_memcpy_dtoh(ctx, out, dout, (size_t)c->lanes * (size_t)lay->nout * 8);
    for (int i = 0; i < sn->nmem; i++) {
        mem_after[i] = malloc(sn->mem[i].bytes + 1);
        ptxi_memcpy_dtoh(ctx, mem_after[i], dm[i], sn->mem[i].bytes);
    }
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "ptxi eval: %s\n", ptxi_error_string(ptxi_ctx_get_last_error(ctx)));
done:
    ptxi_ctx_destroy(ctx);
    ev_text_free(&mod);
    return rc;
}

/* The front end's verdict on the generated module, before asking for values:
 * a malformed snippet is reported as such even when inputs are missing too. */
static int check_module(const ev_snippet *sn, const ev_layout *lay) {
    ev_text mod = {0};
    ev_gen_header(&mod);
    ev_gen_entry(&mod, sn, lay, "ptxi_eval");
    ptxi_ctx_options opt = {.threads = 1};
    ptxi_ctx *ctx;
    ptxi_module *m;
    int rc = 0;
    if (!ptxi_ctx_create(&ctx, &opt)) {
        if (ptxi_module_load_data(ctx, mod.s, mod.n, "<eval>", &m)) {
            map_diags(sn, &mod, ptxi_ctx_error_detail(ctx));
            rc = 1;
        }
        ptxi_ctx_destroy(ctx);
    }
    ev_text_free(&mod);
    return rc;
}

static int run_snippet(ev_snippet *sn, run_cfg *c) {
    ev_layout lay;
    ev_layout_make(sn, &lay);
    char msg[512];
    if (!c->print_ptx && check_module(sn, &lay)) return 1;
    for (int i = 0; i < sn->nregs; i++) {
        ev_reg *r = &sn->regs[i];
        if (lay.in_slot[i] < 0) continue;
        if (!r->value) {
            fprintf(stderr, "ptxi eval: error: operand %s has no value (give %s=VALUE)\n", r->name, r->name);
            return 1;
        }
        if (lane_values(sn, r, c->lanes, msg, sizeof msg)) return usage_err("%s", msg);
    }
    uint64_t *in = calloc((size_t)c->lanes * (size_t)(lay.nin + 1), 8);
    uint64_t *out = calloc((size_t)c->lanes * (size_t)(lay.nout + 1), 8);
    for (int i = 0; i < sn->nregs; i++)
        if (lay.in_slot[i] >= 0)
            for (unsigned l = 0; l < c->lanes; l++)
                in[(size_t)l * (size_t)lay.nin + (size_t)lay.in_slot[i]] = sn->regs[i].vals[l];
    int rc = 0;
    if (c->emit) {
        rc = ev_gen_cuda(c->emit, sn, &lay, c->lanes, in, c->csv) ? 2 : 0;
    } else {
        uint8_t *after[16] = {0};
        rc = launch(sn, &lay, c, in, out, after);
        if (!rc && !c->print_ptx) {
            const char *names[EV_MAX_REGS];
            int bytes[EV_MAX_REGS];
            char kinds[EV_MAX_REGS + 1] = "";
            for (int i = 0; i < sn->nregs; i++)
                if (lay.out_slot[i] >= 0) {
                    names[lay.out_slot[i]] = sn->regs[i].name;
                    bytes[lay.out_slot[i]] = ev_reg_bytes(sn, sn->regs[i].type);
                    kinds[lay.out_slot[i]] = sn->regs[i].type.kind;
                }
            ev_print(stdout, lay.nout, names, bytes, kinds, c->lanes, (const unsigned long long *)out, c->csv);
            for (int i = 0; i < sn->nmem; i++)
                ev_print_mem(stdout, sn->mem[i].name, sn->mem[i].init, after[i], sn->mem[i].bytes);
        }
        for (int i = 0; i < 16; i++) free(after[i]);
    }
    free(in);
    free(out);
    return rc;
}

/* --table with a snippet: CSV, a header of input names, one row of values per lane. */
static int csv_inputs(ev_snippet *sn, const char *path, run_cfg *c) {
    FILE *f = fopen(path, "r");
    if (!f) return usage_err("cannot read %s", path);
    char line[65536];
    char *cols[EV_MAX_REGS];
    int ncol = 0;
    static char *lists[EV_MAX_REGS];
    size_t len[EV_MAX_REGS] = {0};
    unsigned rows = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        int k = 0;
        for (char *tok = strtok(line, ","); tok && k < EV_MAX_REGS; tok = strtok(NULL, ","), k++) {
            while (isspace((unsigned char)*tok)) tok++;
            if (!ncol || k >= ncol) {
                if (rows) break;
                cols[k] = strdup(tok);
                continue;
            }
            size_t n = strlen(tok);
            lists[k] = realloc(lists[k], len[k] + n + 2);
            if (len[k]) lists[k][len[k]++] = ',';
            memcpy(lists[k] + len[k], tok, n + 1);
            len[k] += n;
        }
        if (!ncol) ncol = k;
        else if (k != ncol) {
            fclose(f);
            return usage_err("%s: a row has the wrong number of values", path);
        } else rows++;
    }
    fclose(f);
    if (!rows) return usage_err("%s: no rows", path);
    int rc = 0;
    for (int k = 0; k < ncol && !rc; k++) {
        ev_reg *r = ev_find(sn, cols[k]);
        if (!r) rc = usage_err("--table: the snippet has no register %s", cols[k]);
        else r->value = lists[k];
    }
    for (int k = 0; k < ncol; k++) free(cols[k]); /* the header names; the value lists live on */
    if (rc) return rc;
    c->lanes = rows;
    c->csv = 1;
    return 0;
}

static int load_mem(ev_mem *m, const char *spec) {
    m->shared = !strncmp(spec, "shared:", 7);
    if (m->shared) spec += 7;
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec) return -1;
    snprintf(m->name, sizeof m->name, "%.*s", (int)(eq - spec), spec);
    m->spec = eq + 1;
    if (!strncmp(m->spec, "zeros:", 6)) {
        uint64_t n;
        if (!num_parse_u64(m->spec + 6, m->shared ? 227u << 10 : 1u << 30, &n)) return -1;
        m->bytes = (size_t)n;
        m->init = calloc(m->bytes + 1, 1);
        return 0;
    }
    FILE *f = fopen(m->spec, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    m->bytes = n > 0 ? (size_t)n : 0;
    m->init = calloc(m->bytes + 1, 1);
    size_t got = fread(m->init, 1, m->bytes, f);
    fclose(f);
    return got == m->bytes ? 0 : -1;
}

int cmd_eval(int argc, char **argv) {
    static ev_snippet sn;
    run_cfg c = {1, false, NULL, 0, 10};
    const char *snippet = NULL, *table = NULL, *emit = NULL;
    const char *reg_type[EV_MAX_REGS], *reg_name[EV_MAX_REGS];
    int nreg_decl = 0;
    bool lanes_given = false, timeout_given = false;
    memset(&sn, 0, sizeof sn);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "--lanes") && more) {
            uint64_t v;
            if (!num_parse_u64(argv[++i], 1 << 20, &v) || !v) return usage_err("bad --lanes %s", argv[i]);
            c.lanes = (unsigned)v;
            lanes_given = true;
        } else if (!strcmp(a, "--timeout") && more) {
            if (!num_parse_double(argv[++i], &c.timeout_s) || c.timeout_s < 0)
                return usage_err("bad --timeout %s", argv[i]);
            timeout_given = true;
        } else if (!strcmp(a, "--reg") && i + 2 < argc && nreg_decl < EV_MAX_REGS) {
            reg_type[nreg_decl] = argv[++i];
            reg_name[nreg_decl++] = argv[++i];
        } else if (!strcmp(a, "--mem") && more) {
            if (sn.nmem == 16 || load_mem(&sn.mem[sn.nmem++], argv[++i])) return usage_err("bad --mem %s", argv[i]);
        } else if (!strcmp(a, "--table") && more) table = argv[++i];
        else if (!strcmp(a, "--emit-cuda") && more) emit = argv[++i];
        else if (!strcmp(a, "--ptx")) c.print_ptx = true;
        else if (a[0] == '-' && a[1] == '-') return usage_err("unknown option %s", a);
        else if (!snippet) snippet = a;
        else if (strchr(a, '=') && sn.nvalues < EV_MAX_REGS) {
            char *eq = strchr(a, '=');
            sn.value_name[sn.nvalues] = strndup(a, (size_t)(eq - a));
            sn.value_text[sn.nvalues++] = eq + 1;
        } else return usage_err("unexpected argument %s (inputs are NAME=VALUE)", a);
    }
    FILE *ef = NULL;
    if (emit && !(ef = fopen(emit, "w"))) return usage_err("cannot write %s", emit);
    c.emit = ef;
    if (!snippet) {
        if (!table) return usage_err("%s", "no snippet");
        FILE *tf = fopen(table, "r");
        if (!tf) return usage_err("cannot read %s", table);
        int rc = ev_table_replay(tf, stdout, table, ef, timeout_given ? c.timeout_s : 30);
        fclose(tf);
        if (ef) fclose(ef);
        return rc;
    }
    /* --reg first, so the scan does not retype those registers */
    for (int k = 0; k < nreg_decl; k++) {
        bool ok;
        ev_type t = ev_type_named(reg_type[k] + (reg_type[k][0] == '.'), &ok);
        if (!ok) return usage_err("--reg: unknown type %s", reg_type[k]);
        ev_reg *r = ev_add_reg(&sn, reg_name[k]);
        r->type = t;
        r->typed = r->fixed = true;
    }
    if (ev_parse(&sn, snippet)) {
        if (sn.err_off >= 0) show_at(snippet, sn.err_off, sn.err);
        else fprintf(stderr, "<snippet>: error: %s\n", sn.err);
        return 1;
    }
    for (int v = 0; v < sn.nvalues; v++) {
        ev_reg *r = ev_find(&sn, sn.value_name[v]);
        if (!r)
            for (int i = 0; i < sn.nregs; i++) /* asm operands may also be named by their register */
                if (!strcmp(sn.regs[i].ptx, sn.value_name[v])) r = &sn.regs[i];
        if (!r) return usage_err("%s: the snippet has no such operand", sn.value_name[v]);
        r->value = sn.value_text[v];
        if (!r->local && !r->is_imm) r->input = true; /* a conditional write keeps it otherwise */
        if (!lanes_given && count_list(r->value) > c.lanes) c.lanes = count_list(r->value);
    }
    if (table) {
        int rc = csv_inputs(&sn, table, &c);
        if (rc) return rc;
    }
    int rc = run_snippet(&sn, &c);
    if (ef && fclose(ef)) return usage_err("cannot write %s", emit);
    return rc;
}
