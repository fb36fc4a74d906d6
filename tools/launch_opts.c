/* launch_opts.c — the launch options of `ptxi run` and `ptxi debug`: parsing
 * them, turning --arg values into kernel parameters (scalars and device
 * buffers read from files), and writing --out buffers back to files. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch_opts.h"

int cli_bad(const cli_launch *l, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "ptxi %s: ", l->cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

void cli_launch_init(cli_launch *l, const char *cmd) {
    memset(l, 0, sizeof *l);
    l->cmd = cmd;
    l->grid = l->block = (ptxi_dim3){1, 1, 1};
}

static int parse_dim(const char *s, ptxi_dim3 *d) {
    unsigned long v[3] = {1, 1, 1};
    char *end;
    for (int i = 0; i < 3; i++) {
        errno = 0;
        v[i] = strtoul(s, &end, 0);
        if (end == s || errno || v[i] > 0xffffffffUL) return -1;
        if (!*end) break;
        if (*end != ',' || i == 2) return -1;
        s = end + 1;
    }
    *d = (ptxi_dim3){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
    return 0;
}

int cli_launch_opt(cli_launch *l, int c, const char *arg) {
    switch (c) {
    case 'k': l->kname = arg; return 0;
    case 'g': return parse_dim(arg, &l->grid) ? cli_bad(l, "bad --grid '%s'", arg) : 0;
    case 'b': return parse_dim(arg, &l->block) ? cli_bad(l, "bad --block '%s'", arg) : 0;
    case 's': l->shared = strtoul(arg, NULL, 0); return 0;
    case 'a':
        if (l->nargs == CLI_MAX_ARGS) return cli_bad(l, "too many --arg");
        l->args[l->nargs++] = arg;
        return 0;
    case 'o':
        if (l->nouts == CLI_MAX_ARGS) return cli_bad(l, "too many --out");
        l->outs[l->nouts++] = arg;
        return 0;
    case 't':
        l->co.threads = (unsigned)strtoul(arg, NULL, 0);
        if (!l->co.threads) l->co.threads = 1;
        return 0;
    case 'T': l->co.timeout_s = strtod(arg, NULL); return 0;
    default: return 1;
    }
}

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *b = malloc(cap);
    for (size_t r; b && (r = fread(b + n, 1, cap - n, f)) > 0;) {
        n += r;
        if (n == cap) {
            unsigned char *nb = realloc(b, cap *= 2);
            if (!nb) { free(b); b = NULL; }
            else b = nb;
        }
    }
    fclose(f);
    *len = n;
    return b;
}

/* One --arg: a scalar, or a buffer allocated on the device. */
static int parse_arg(const cli_launch *l, ptxi_ctx *ctx, const char *s, cli_arg *a) {
    static const struct { const char *p; size_t size; int kind; } kinds[] = {
        {"u8:", 1, 0}, {"u16:", 2, 0}, {"u32:", 4, 0}, {"u64:", 8, 0}, {"s8:", 1, 1}, {"s16:", 2, 1},
        {"s32:", 4, 1}, {"s64:", 8, 1}, {"f32:", 4, 2}, {"f64:", 8, 3}};
    memset(a, 0, sizeof *a);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t pl = strlen(kinds[k].p);
        if (strncmp(s, kinds[k].p, pl)) continue;
        const char *v = s + pl;
        char *end;
        errno = 0;
        a->size = kinds[k].size;
        if (kinds[k].kind >= 2 && !(v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))) {
            double d = strtod(v, &end);
            if (end == v || *end) return cli_bad(l, "bad floating-point value in --arg %s", s);
            if (kinds[k].kind == 2) { float f = (float)d; memcpy(a->bytes, &f, 4); }
            else memcpy(a->bytes, &d, 8);
            return 0;
        }
        uint64_t u = kinds[k].kind == 1 ? (uint64_t)strtoll(v, &end, 0) : strtoull(v, &end, 0);
        if (end == v || *end || errno) return cli_bad(l, "bad integer value in --arg %s", s);
        memcpy(a->bytes, &u, a->size);   /* little-endian: the low bytes */
        return 0;
    }
    a->size = 8;
    if (!strcmp(s, "null")) return 0;
    if (!strncmp(s, "zeros:", 6)) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(s + 6, &end, 0);
        if (end == s + 6 || *end || errno) return cli_bad(l, "bad size in --arg %s", s);
        if (ptxi_mem_alloc(ctx, n, &a->buf) || ptxi_memset_d8(ctx, a->buf, 0, n))
            return cli_bad(l, "cannot allocate device memory for --arg %s", s);
        a->buflen = n;
    } else if (!strncmp(s, "file:", 5)) {
        size_t n;
        unsigned char *data = read_file(s + 5, &n);
        if (!data) return cli_bad(l, "cannot read the file in --arg %s", s);
        int rc = ptxi_mem_alloc(ctx, n ? n : 1, &a->buf) || ptxi_memcpy_htod(ctx, a->buf, data, n);
        free(data);
        if (rc) return cli_bad(l, "cannot allocate device memory for --arg %s", s);
        a->buflen = n;
    } else {
        return cli_bad(l, "unknown argument kind in --arg %s (see ptxi run --help)", s);
    }
    memcpy(a->bytes, &a->buf, 8);
    return 0;
}

int cli_launch_prepare(ptxi_ctx *ctx, ptxi_module *m, const char *path, const cli_launch *l, cli_prepared *p) {
    memset(p, 0, sizeof *p);
    if (l->kname) {
        if (ptxi_module_get_kernel(m, l->kname, &p->k)) return cli_bad(l, "no kernel named '%s'", l->kname);
    } else if (ptxi_module_kernel_count(m) == 1) {
        p->k = ptxi_module_kernel_at(m, 0);
    } else {
        return cli_bad(l, "%s has several kernels: name one with --kernel", path);
    }
    unsigned np = ptxi_kernel_param_count(p->k);
    if ((unsigned)l->nargs != np)
        return cli_bad(l, "kernel '%s' takes %u parameters, %d given", ptxi_kernel_name(p->k), np, l->nargs);
    p->av = calloc((size_t)l->nargs + 1, sizeof *p->av);
    if (!p->av) return cli_bad(l, "out of memory");
    for (int i = 0; i < l->nargs; i++) {
        if (parse_arg(l, ctx, l->args[i], &p->av[i])) return 2;
        size_t sz;
        ptxi_kernel_param_info(p->k, (unsigned)i, &sz, NULL, NULL);
        if (sz != p->av[i].size)
            return cli_bad(l, "parameter %d of '%s' is %zu bytes; --arg %s gives %zu", i, ptxi_kernel_name(p->k), sz,
                           l->args[i], p->av[i].size);
        p->pv[i] = p->av[i].bytes;
    }
    for (int i = 0; i < l->nouts; i++) {
        char *end;
        long n = strtol(l->outs[i], &end, 10);
        if (end == l->outs[i] || *end != '=' || n < 0 || n >= l->nargs || !p->av[n].buf)
            return cli_bad(l, "bad --out '%s' (N=FILE, N naming a buffer argument)", l->outs[i]);
    }
    return 0;
}

ptxi_status cli_launch_start(const cli_launch *l, cli_prepared *p) {
    /* Like a CUDA program that needs it, opt in to more than 48 KiB of dynamic shared memory. */
    if (l->shared > 48 * 1024) ptxi_kernel_set_attr(p->k, PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES, (int)l->shared);
    return ptxi_launch(p->k, l->grid, l->block, (unsigned)l->shared, NULL, p->pv);
}

int cli_launch_write_outs(ptxi_ctx *ctx, const cli_launch *l, const cli_prepared *p) {
    int rc = 0;
    for (int i = 0; i < l->nouts; i++) {
        long n = strtol(l->outs[i], NULL, 10);
        const char *file = strchr(l->outs[i], '=') + 1;
        unsigned char *data = malloc(p->av[n].buflen + 1);
        FILE *f = fopen(file, "wb");
        if (!data || !f || ptxi_memcpy_dtoh(ctx, data, p->av[n].buf, p->av[n].buflen) ||
            fwrite(data, 1, p->av[n].buflen, f) != p->av[n].buflen)
            rc = cli_bad(l, "cannot write '%s'", file);
        if (f) fclose(f);
        free(data);
    }
    return rc;
}

void cli_launch_release(cli_prepared *p) {
    free(p->av);
    p->av = NULL;
}
