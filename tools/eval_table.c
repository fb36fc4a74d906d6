/* eval_table.c — `ptxi eval --table` on an instruction table
 * (`MNEMONIC NOPNDS | SOURCES | DESTINATIONS`, tests/alu/README.md): prints it
 * again with the destinations ptxi computes, so `diff` against a GPU recording
 * is the check. Rows of one form run as the lanes of one kernel; the forms of a
 * chunk share one module, so a 100,000-row table takes seconds, not minutes. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "ptxi.h"

#define CHUNK 96 /* forms per module; a form the front end refuses costs its chunk a retry */

typedef struct row {
    char *line; /* the input line (mnemonic..sources kept as written) */
    char *work; /* the split copy of line the operand pointers point into */
    int form;   /* -1: not a table row, echoed */
    char *src[8], *dst[4];
    int ns, nd;
    uint64_t out[4];
    bool ok;
} row;

typedef struct form {
    char key[192];
    char mn[128];
    int nopnds, ns, nd;
    bool cc_in, cc_out;
    ev_snippet *sn; /* while its chunk runs */
    ev_layout lay;
    int outb[4]; /* register bytes of each destination */
    bool padded;
    int *rows, nrows, cap;
    bool bad;
} form;

bool ev_table_looks_replay(const char *line) {
    char mn[128];
    int n, used = 0;
    return sscanf(line, "%127s %d |%n", mn, &n, &used) == 2 && used > 0;
}

static int split_row(row *r, char *text) {
    char *bar1 = strchr(text, '|');
    char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
    if (!bar2) return -1;
    *bar1 = *bar2 = 0;
    r->ns = r->nd = 0;
    for (char *t = strtok(bar1 + 1, " \t"); t; t = strtok(NULL, " \t"))
        if (r->ns < 8) r->src[r->ns++] = t;
    for (char *t = strtok(bar2 + 1, " \t\r\n"); t; t = strtok(NULL, " \t\r\n"))
        if (r->nd < 4) r->dst[r->nd++] = t;
    return 0;
}

static bool has_mod(const char *mn, const char *mod) {
    size_t k = strlen(mod);
    for (const char *p = strchr(mn, '.'); p; p = strchr(p + 1, '.'))
        if (!strncmp(p + 1, mod, k) && (p[1 + k] == '.' || p[1 + k] == 0 || p[1 + k] == '@')) return true;
    return false;
}

/* "%s0.h01" / "-%s1.b2" / "-%s2": an operand with the table's selector for slot c. */
static void operand(char *buf, size_t n, const char *name, const char *mn, char slot) {
    char key[4] = {'@', slot, '=', 0};
    const char *s = strstr(mn, key);
    if (!s) {
        snprintf(buf, n, "%s", name);
        return;
    }
    s += 3;
    bool neg = *s == '-';
    s += neg;
    size_t len = strcspn(s, "@");
    snprintf(buf, n, "%s%s%s%.*s", neg ? "-" : "", name, len ? "." : "", (int)len, s);
}

/* The snippet of one form: registers %d0 %d1 (destinations), %s0.. (sources),
 * the carry through local registers. */
static int form_snippet(form *f, const row *first, bool padded) {
    char text[1024], ops[512] = "", buf[64];
    int nd = f->nd - f->cc_out, ns = f->ns - f->cc_in;
    char base[128];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(f->mn, "@"), f->mn);
    if (nd + ns != f->nopnds || nd < 1 || nd > 2) return -1;
    static const char SLOT[] = "abc";
    operand(buf, sizeof buf, "%d0", f->mn, 'd');
    strcat(ops, buf);
    if (nd == 2) strcat(ops, "|%d1");
    for (int i = 0; i < ns; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "%%s%d", i);
        if (ev_operand_is_imm(base, nd + i)) snprintf(buf, sizeof buf, "%s", first->src[i]);
        else operand(buf, sizeof buf, nm, f->mn, i < 3 ? SLOT[i] : 'x');
        strcat(ops, ", ");
        strcat(ops, buf);
    }
    int n = snprintf(text, sizeof text, "%s", f->cc_in || f->cc_out ? ".reg .b32 %ct;\n" : "");
    if (f->cc_in) n += snprintf(text + n, sizeof text - (size_t)n, "add.cc.u32 %%ct, %%s%d, 0xffffffff;\n", ns);
    n += snprintf(text + n, sizeof text - (size_t)n, "%s %s;\n", base, ops);
    if (f->cc_out) snprintf(text + n, sizeof text - (size_t)n, "addc.u32 %%d%d, 0, 0;\n", nd);
    f->sn = calloc(1, sizeof *f->sn);
    if (ev_parse(f->sn, text)) return -1;
    /* 8-bit operands travel in 16- or 32-bit registers; a padded table shows which */
    if (padded)
        for (int i = 0; i < f->sn->nregs; i++) {
            ev_reg *r = &f->sn->regs[i];
            if (r->type.bytes != 1) continue;
            int k = atoi(r->name + 2);
            const char *tok = r->name[1] == 'd' && k < first->nd   ? first->dst[k]
                              : r->name[1] == 's' && k < first->ns ? first->src[k]
                                                                   : NULL;
            if (tok && strlen(tok) == 6) f->sn->reg8 = 2;
        }
    ev_layout_make(f->sn, &f->lay);
    for (int i = 0; i < f->sn->nregs; i++)
        if (f->lay.out_slot[i] >= 0 && f->lay.out_slot[i] < 4)
            f->outb[f->lay.out_slot[i]] = ev_reg_bytes(f->sn, f->sn->regs[i].type);
    return 0;
}

static void drop_snippet(form *f) {
    if (!f->sn) return;
    ev_text_free(&f->sn->body);
    free(f->sn);
    f->sn = NULL;
}

static int chunk(ptxi_ctx *ctx, form *forms, int lo, int hi, row *rows, const char *path);

/* The form's rows as the lanes' input slots (source %sK is the row's K-th value). */
static uint64_t *inputs(const form *f, const row *rows) {
    uint64_t *in = calloc((size_t)f->nrows * (size_t)(f->lay.nin ? f->lay.nin : 1), 8);
    for (int j = 0; j < f->nrows; j++) {
        const row *r = &rows[f->rows[j]];
        for (int s = 0; s < f->sn->nregs; s++) {
            const ev_reg *g = &f->sn->regs[s];
            int slot = f->lay.in_slot[s];
            if (slot < 0 || g->name[1] != 's') continue;
            int idx = atoi(g->name + 2);
            in[(size_t)j * (size_t)f->lay.nin + (size_t)slot] = idx < r->ns ? strtoull(r->src[idx], NULL, 16) : 0;
        }
    }
    return in;
}

static void c_str(FILE *o, const char *s) {
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', o);
        fputc(*s, o);
    }
    fputc('"', o);
}

/* --emit-cuda with a table: one kernel per form, the rows as lanes, and a main
 * printing the table with the GPU's destinations (a diff against the recording
 * checks the PTX ptxi generates, not ptxi). */
static int emit_table(FILE *o, form *forms, int nforms, row *rows, size_t n, bool padded, const char *path) {
    ev_gen_cuda_prelude(o);
    for (int i = 0; i < nforms; i++) {
        form *f = &forms[i];
        if (f->bad || form_snippet(f, &rows[f->rows[0]], f->padded)) {
            fprintf(stderr, "%s: %s: cannot make a snippet for this form\n", path, f->mn);
            f->bad = true;
            drop_snippet(f);
            continue;
        }
        char kname[32];
        snprintf(kname, sizeof kname, "ev_f%d", i);
        ev_gen_cuda_kernel(o, f->sn, &f->lay, kname);
        uint64_t *in = inputs(f, rows);
        size_t nin = (size_t)f->nrows * (size_t)(f->lay.nin ? f->lay.nin : 1);
        fprintf(o, "static const unsigned long long IN%d[] = {", i);
        for (size_t k = 0; k < nin; k++)
            fprintf(o, "%s0x%llxull", !k ? "\n  " : k % 6 ? ", " : ",\n  ", (unsigned long long)in[k]);
        fprintf(o, "};\n\n");
        free(in);
        drop_snippet(f);
    }
    fprintf(o, "typedef void (*kfn)(const unsigned long long *, unsigned long long *, unsigned);\n"
               "struct form { kfn k; unsigned n, nin, nout; const unsigned long long *in; int outb[4]; };\n"
               "static const form F[] = {\n");
    for (int i = 0; i < nforms; i++) {
        form *f = &forms[i];
        if (f->bad) fprintf(o, "  {0, 0, 0, 0, 0, {0}},\n");
        else
            fprintf(o, "  {ev_f%d, %d, %d, %d, IN%d, {%d, %d, %d, %d}},\n", i, f->nrows, f->lay.nin ? f->lay.nin : 1,
                    f->lay.nout ? f->lay.nout : 1, i, f->outb[0], f->outb[1], f->outb[2], f->outb[3]);
    }
    fprintf(o, "};\nstatic const char *const LINES[] = {\n");
    for (size_t i = 0; i < n; i++) {
        char *l = rows[i].line;
        char pre[4096];
        if (rows[i].form >= 0) {
            int len = (int)strcspn(l, "|");
            int k = snprintf(pre, sizeof pre, "%.*s|", len, l);
            for (int s2 = 0; s2 < rows[i].ns && k < (int)sizeof pre - 40; s2++)
                k += snprintf(pre + k, sizeof pre - (size_t)k, " %s", rows[i].src[s2]);
            snprintf(pre + k, sizeof pre - (size_t)k, " |");
            l = pre;
        }
        fprintf(o, "  ");
        c_str(o, l);
        fprintf(o, ",\n");
    }
    fprintf(o, "};\nstatic const int ROWF[] = {");
    int *pos = calloc(n + 1, sizeof *pos);
    for (int i = 0; i < nforms; i++)
        for (int j = 0; j < forms[i].nrows; j++) pos[forms[i].rows[j]] = j;
    for (size_t i = 0; i < n; i++) fprintf(o, "%s%d", !i ? "\n  " : i % 20 ? "," : ",\n  ", rows[i].form);
    fprintf(o, "};\nstatic const int ROWJ[] = {");
    for (size_t i = 0; i < n; i++) fprintf(o, "%s%d", !i ? "\n  " : i % 20 ? "," : ",\n  ", pos[i]);
    free(pos);
    fprintf(o,
            "};\n\nint main() {\n"
            "  const int nf = %d, padded = %d;\n  const size_t nl = %zu;\n"
            "  static unsigned long long *outs[%d];\n"
            "  for (int i = 0; i < nf; i++) {\n"
            "    const form &x = F[i];\n    if (!x.k) continue;\n"
            "    unsigned long long *din, *dout;\n"
            "    size_t ib = 8 * (size_t)x.n * x.nin, ob = 8 * (size_t)x.n * x.nout;\n"
            "    cudaMalloc(&din, ib); cudaMalloc(&dout, ob);\n"
            "    cudaMemcpy(din, x.in, ib, cudaMemcpyHostToDevice); cudaMemset(dout, 0, ob);\n"
            "    unsigned b = x.n < 256 ? x.n : 256;\n"
            "    x.k<<<(x.n + b - 1) / b, b>>>(din, dout, x.n);\n"
            "    outs[i] = (unsigned long long *)malloc(ob);\n"
            "    cudaError_t e = cudaMemcpy(outs[i], dout, ob, cudaMemcpyDeviceToHost);\n"
            "    if (e != cudaSuccess) { fprintf(stderr, \"form %%d: %%s\\n\", i, cudaGetErrorString(e)); return 1; }\n"
            "    cudaFree(din); cudaFree(dout);\n"
            "  }\n"
            "  for (size_t l = 0; l < nl; l++) {\n"
            "    int f = ROWF[l];\n"
            "    if (f < 0) { printf(\"%%s\\n\", LINES[l]); continue; }\n"
            "    printf(\"%%s\", LINES[l]);\n"
            "    for (unsigned d = 0; d < F[f].nout; d++) {\n"
            "      if (!outs[f]) { printf(\" ?\"); continue; }\n"
            "      unsigned long long v = outs[f][(size_t)ROWJ[l] * F[f].nout + d];\n"
            "      int b = F[f].outb[d < 4 ? d : 3];\n"
            "      if (padded && b) printf(\" 0x%%0*llx\", b * 2, v); else printf(\" 0x%%llx\", v);\n"
            "    }\n"
            "    printf(\"\\n\");\n"
            "  }\n  return 0;\n}\n",
            nforms, padded, n, nforms ? nforms : 1);
    return ferror(o) ? 2 : 0;
}

static int run_chunk(ptxi_ctx *ctx, form *forms, int lo, int hi, row *rows, const char *path) {
    for (int i = lo; i < hi; i++)
        if (!forms[i].bad && !forms[i].sn && form_snippet(&forms[i], &rows[forms[i].rows[0]], forms[i].padded)) {
            fprintf(stderr, "%s: %s: cannot make a snippet for this form\n", path, forms[i].mn);
            forms[i].bad = true;
        }
    int rc = chunk(ctx, forms, lo, hi, rows, path);
    for (int i = lo; i < hi; i++) drop_snippet(&forms[i]);
    return rc;
}

static int chunk(ptxi_ctx *ctx, form *forms, int lo, int hi, row *rows, const char *path) {
    ev_text mod = {0};
    ev_gen_header(&mod);
    char kname[32];
    for (int i = lo; i < hi; i++)
        if (!forms[i].bad) {
            snprintf(kname, sizeof kname, "ev_f%d", i);
            ev_gen_entry(&mod, forms[i].sn, &forms[i].lay, kname);
        }
    ptxi_module *m;
    if (ptxi_module_load_data(ctx, mod.s, mod.n, "<eval>", &m)) {
        ev_text_free(&mod);
        if (hi - lo == 1) {
            fprintf(stderr, "%s: %s: the front end refuses the form:\n%s\n", path, forms[lo].mn,
                    ptxi_ctx_error_detail(ctx));
            forms[lo].bad = true;
            return 1;
        }
        int rc = 0;
        for (int i = lo; i < hi; i++) rc |= chunk(ctx, forms, i, i + 1, rows, path);
        return rc;
    }
    ev_text_free(&mod);
    int rc = 0;
    for (int i = lo; i < hi; i++) {
        form *f = &forms[i];
        if (f->bad) continue;
        ptxi_kernel *k;
        snprintf(kname, sizeof kname, "ev_f%d", i);
        if (ptxi_module_get_kernel(m, kname, &k)) {
            f->bad = true;
            rc = 1;
            continue;
        }
        size_t nin = (size_t)f->nrows * (size_t)(f->lay.nin ? f->lay.nin : 1);
        size_t nout = (size_t)f->nrows * (size_t)(f->lay.nout ? f->lay.nout : 1);
        uint64_t *in = inputs(f, rows), *out = calloc(nout, 8);
        ptxi_dptr din, dout;
        ptxi_status st = ptxi_mem_alloc(ctx, nin * 8, &din);
        if (!st) st = ptxi_mem_alloc(ctx, nout * 8, &dout);
        if (!st) st = ptxi_memcpy_htod(ctx, din, in, nin * 8);
        if (!st) st = ptxi_memset_d8(ctx, dout, 0, nout * 8);
        unsigned n = (unsigned)f->nrows, block = n < 256 ? n : 256;
        void *args[] = {&din, &dout, &n};
        if (!st)
            st = ptxi_launch(k, (ptxi_dim3){(n + block - 1) / block, 1, 1}, (ptxi_dim3){block, 1, 1}, 0, NULL, args);
        if (!st) st = ptxi_memcpy_dtoh(ctx, out, dout, nout * 8);
        if (st) {
            fprintf(stderr, "%s: %s: %s\n%s\n", path, f->mn, ptxi_error_string(st), ptxi_ctx_error_detail(ctx));
            f->bad = true;
            rc = 1;
            if (ptxi_error_is_sticky(st)) { /* the reset frees the module: load the rest again */
                free(in);
                free(out);
                ptxi_ctx_reset(ctx);
                return rc | (i + 1 < hi ? chunk(ctx, forms, i + 1, hi, rows, path) : 0);
            }
        } else {
            ptxi_mem_free(ctx, din);
            ptxi_mem_free(ctx, dout);
            for (int j = 0; j < f->nrows; j++) {
                row *r = &rows[f->rows[j]];
                for (int d = 0; d < f->lay.nout && d < 4; d++)
                    r->out[d] = out[(size_t)j * (size_t)f->lay.nout + (size_t)d];
                r->ok = true;
            }
        }
        free(in);
        free(out);
    }
    ptxi_module_unload(m);
    return rc;
}

int ev_table_replay(FILE *in, FILE *out, const char *path, FILE *emit_cuda, double timeout_s) {
    size_t cap = 1024, n = 0;
    row *rows = malloc(cap * sizeof *rows);
    char line[4096];
    bool padded = false;
    while (fgets(line, sizeof line, in)) {
        if (n == cap) rows = realloc(rows, (cap *= 2) * sizeof *rows);
        row *r = &rows[n++];
        memset(r, 0, sizeof *r);
        line[strcspn(line, "\r\n")] = 0;
        r->line = strdup(line);
        r->form = -1;
        if (!ev_table_looks_replay(line)) continue;
        char *work = r->work = strdup(line);
        if (split_row(r, work)) continue;
        r->form = -2;
        for (int i = 0; i < r->nd && !padded; i++)
            if (strlen(r->dst[i]) > 3 && r->dst[i][2] == '0') padded = true;
    }
    /* forms: same mnemonic, operand counts, and immediates */
    form *forms = NULL;
    int nforms = 0, fcap = 0;
    for (size_t i = 0; i < n; i++) {
        row *r = &rows[i];
        if (r->form != -2) continue;
        char mn[128], key[192];
        int nop;
        sscanf(r->line, "%127s %d", mn, &nop);
        int k = snprintf(key, sizeof key, "%s %d %d %d", mn, nop, r->ns, r->nd);
        char base[128];
        snprintf(base, sizeof base, "%.*s", (int)strcspn(mn, "@"), mn);
        for (int s = 0; s < r->ns; s++)
            if (ev_operand_is_imm(base, 1 + s) && k < (int)sizeof key - 20)
                k += snprintf(key + k, sizeof key - (size_t)k, " %s", r->src[s]);
        int f = nforms - 1;
        if (f < 0 || strcmp(forms[f].key, key)) {
            for (f = 0; f < nforms && strcmp(forms[f].key, key); f++) {}
            if (f == nforms) {
                if (nforms == fcap) forms = realloc(forms, (size_t)(fcap = fcap ? fcap * 2 : 256) * sizeof *forms);
                form *nf = &forms[nforms++];
                memset(nf, 0, sizeof *nf);
                snprintf(nf->key, sizeof nf->key, "%s", key);
                snprintf(nf->mn, sizeof nf->mn, "%s", mn);
                nf->nopnds = nop;
                nf->ns = r->ns;
                nf->nd = r->nd;
                const char *op = mn;
                nf->cc_in = !strncmp(op, "addc.", 5) || !strncmp(op, "subc.", 5) || !strncmp(op, "madc.", 5);
                nf->cc_out = has_mod(mn, "cc");
                nf->padded = padded;
            }
        }
        r->form = f;
        form *ff = &forms[f];
        if (ff->nrows == ff->cap)
            ff->rows = realloc(ff->rows, (size_t)(ff->cap = ff->cap ? ff->cap * 2 : 64) * sizeof *ff->rows);
        ff->rows[ff->nrows++] = (int)i;
    }
    if (emit_cuda) {
        int rc = emit_table(emit_cuda, forms, nforms, rows, n, padded, path);
        for (int f = 0; f < nforms; f++) free(forms[f].rows);
        free(forms);
        for (size_t i = 0; i < n; i++) free(rows[i].line), free(rows[i].work);
        free(rows);
        return rc;
    }
    ptxi_ctx_options opt = {.threads = 1, .deterministic = 1, .timeout_s = timeout_s};
    ptxi_ctx *ctx;
    if (ptxi_ctx_create(&ctx, &opt)) return 1;
    int rc = 0;
    for (int lo = 0; lo < nforms; lo += CHUNK)
        rc |= run_chunk(ctx, forms, lo, lo + CHUNK < nforms ? lo + CHUNK : nforms, rows, path);
    ptxi_ctx_destroy(ctx);
    /* print, and count rows that differ from the file's destinations */
    long differ = 0, total = 0;
    int forms_differ = 0, last_form = -1;
    for (size_t i = 0; i < n; i++) {
        row *r = &rows[i];
        if (r->form < 0) {
            fprintf(out, "%s\n", r->line);
            continue;
        }
        form *f = &forms[r->form];
        int len = (int)strcspn(r->line, "|");
        fprintf(out, "%.*s|", len, r->line);
        for (int s = 0; s < r->ns; s++) fprintf(out, " %s", r->src[s]);
        fprintf(out, " |");
        bool same = r->ok;
        for (int d = 0; d < r->nd; d++) {
            char tok[40];
            int b = r->ok && d < 4 ? f->outb[d] : 0;
            if (!r->ok) snprintf(tok, sizeof tok, "?");
            else if (padded && b) snprintf(tok, sizeof tok, "0x%0*llx", b * 2, (unsigned long long)r->out[d]);
            else snprintf(tok, sizeof tok, "0x%llx", (unsigned long long)r->out[d]);
            fprintf(out, " %s", tok);
            if (strcmp(tok, r->dst[d])) same = false;
        }
        if (!same) { /* marked with what the table says */
            fprintf(out, "   # differs, table:");
            for (int d = 0; d < r->nd; d++) fprintf(out, " %s", r->dst[d]);
        }
        fprintf(out, "\n");
        total++;
        if (!same) {
            differ++;
            if (r->form != last_form) forms_differ++;
            last_form = r->form;
        }
    }
    fprintf(stderr, "ptxi eval: %ld rows, %d forms: %ld rows (%d forms) differ from %s\n", total, nforms, differ,
            forms_differ, path);
    for (int f = 0; f < nforms; f++) free(forms[f].rows);
    free(forms);
    for (size_t i = 0; i < n; i++) free(rows[i].line), free(rows[i].work);
    free(rows);
    return rc || differ ? 1 : 0;
}
