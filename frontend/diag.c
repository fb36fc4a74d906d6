/* diag.c — diagnostics: collected while parsing/validating, printed as
 * `file:line:col: error: message`, the source line and a caret. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

#define MAX_DIAGS 1000

void fe_grow(void **v, uint32_t *cap, size_t elem) {
    uint32_t nc = *cap ? *cap * 2 : 16;
    void *nv = realloc(*v, nc * elem);
    if (!nv) {
        fprintf(stderr, "ptxi: out of memory\n");
        abort();
    }
    *v = nv;
    *cap = nc;
}

static void vadd(fe_diags *d, ir_loc loc, bool warning, const char *fmt, va_list ap) {
    if (!warning) d->nerrors++;
    if (d->n >= MAX_DIAGS) return;
    char buf[1024];
    if (d->n == MAX_DIAGS - 1) {
        snprintf(buf, sizeof buf, "too many errors; giving up on this file");
    } else {
        vsnprintf(buf, sizeof buf, fmt, ap);
    }
    if (d->n == d->cap) fe_grow((void **)&d->v, &d->cap, sizeof *d->v);
    d->v[d->n++] = (fe_diag){loc, warning, strdup(buf)};
}

void fe_diag_add(fe_diags *d, ir_loc loc, bool warning, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vadd(d, loc, warning, fmt, ap);
    va_end(ap);
}

void fe_error(fe_parser *p, ir_loc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vadd(p->d, loc, false, fmt, ap);
    va_end(ap);
}

ir_loc fe_loc(const fe_yyltype *l) { return (ir_loc){(uint32_t)l->first_line, (uint32_t)l->first_column}; }

/* Reports the first malformed UTF-8 sequence in s; true when s is valid. */
bool fe_utf8_check(fe_parser *p, const char *s, size_t n, uint32_t line, uint32_t col) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        if (c == '\n') {
            line++;
            col = 1;
            i++;
            continue;
        }
        if (c < 0x80) {
            i++;
            col++;
            continue;
        }
        size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
        bool ok = len > 0 && i + len <= n;
        for (size_t k = 1; ok && k < len; k++) ok = (u[i + k] & 0xC0) == 0x80;
        if (ok && len == 3) {
            unsigned cp = (c & 0x0F) << 12 | (u[i + 1] & 0x3F) << 6;
            ok = cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF);
        } else if (ok && len == 4) {
            unsigned cp = (c & 0x07) << 18 | (u[i + 1] & 0x3F) << 12;
            ok = cp >= 0x10000 && cp <= 0x10FFFF;
        }
        if (!ok) {
            fe_error(p, (ir_loc){line, col}, "invalid UTF-8 byte 0x%02x", c);
            return false;
        }
        i += len;
        col += (uint32_t)len;
    }
    return true;
}

static int cmp_diag(const void *a, const void *b) {
    const fe_diag *x = *(fe_diag *const *)a, *y = *(fe_diag *const *)b;
    if (x->loc.line != y->loc.line) return x->loc.line < y->loc.line ? -1 : 1;
    if (x->loc.col != y->loc.col) return x->loc.col < y->loc.col ? -1 : 1;
    return x < y ? -1 : x > y;
}

void fe_diags_print(const fe_diags *d, FILE *out) {
    if (!d->n) return;
    const fe_diag **order = malloc(d->n * sizeof *order);
    for (uint32_t i = 0; i < d->n; i++) order[i] = &d->v[i];
    qsort(order, d->n, sizeof *order, cmp_diag);
    /* walk the source once, in step with the sorted diagnostics */
    size_t off = 0;
    uint32_t line = 1;
    for (uint32_t i = 0; i < d->n; i++) {
        const fe_diag *g = order[i];
        fprintf(out, "%s:%u:%u: %s: %s\n", d->path ? d->path : "<input>", g->loc.line, g->loc.col,
                g->warning ? "warning" : "error", g->msg);
        if (!d->src || g->loc.line == 0) continue;
        while (line < g->loc.line && off < d->srclen) {
            const char *nl = memchr(d->src + off, '\n', d->srclen - off);
            if (!nl) {
                off = d->srclen;
                break;
            }
            off = (size_t)(nl - d->src) + 1;
            line++;
        }
        if (line != g->loc.line) continue;
        size_t end = off;
        while (end < d->srclen && d->src[end] != '\n' && end - off < 300) end++;
        char lbuf[320], cbuf[320];
        size_t k = 0;
        for (size_t j = off; j < end; j++, k++) {
            unsigned char c = (unsigned char)d->src[j];
            lbuf[k] = c == '\t' || (c >= 32 && c != 127) ? (char)c : '?';
            cbuf[k] = c == '\t' ? '\t' : ' ';
        }
        lbuf[k] = 0;
        size_t col = g->loc.col ? g->loc.col - 1 : 0;
        if (col > k) col = k;
        cbuf[col] = '^';
        cbuf[col + 1] = 0;
        fprintf(out, "%s\n%s\n", lbuf, cbuf);
    }
    free(order);
}

/* ptxas's layout, which tools that drive ptxas (Triton, nvJitLink's users) show as is:
 * `ptxas FILE, line N; error   : MSG`, then one fatal line when there were errors. */
void fe_diags_print_ptxas(const fe_diags *d, FILE *out) {
    const fe_diag **order = malloc(d->n * sizeof *order + 1);
    for (uint32_t i = 0; i < d->n; i++) order[i] = &d->v[i];
    qsort(order, d->n, sizeof *order, cmp_diag);
    for (uint32_t i = 0; i < d->n; i++)
        fprintf(out, "ptxas %s, line %u; %s : %s\n", d->path ? d->path : "<input>", order[i]->loc.line,
                order[i]->warning ? "warning" : "error  ", order[i]->msg);
    if (d->nerrors) fprintf(out, "ptxas fatal   : Ptx assembly aborted due to errors\n");
    free(order);
}

char *fe_diags_string(const fe_diags *d, bool ptxas_style) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    if (ptxas_style) fe_diags_print_ptxas(d, f);
    else fe_diags_print(d, f);
    fclose(f);
    return buf;
}

void fe_diags_free(fe_diags *d) {
    for (uint32_t i = 0; i < d->n; i++) free(d->v[i].msg);
    free(d->v);
    d->v = NULL;
    d->n = d->cap = d->nerrors = 0;
}
