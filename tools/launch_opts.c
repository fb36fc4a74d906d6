/* launch_opts.c — the launch options of `ptxi run` and `ptxi debug`: parsing
 * them, turning --arg values into kernel parameters (scalars and device
 * buffers read from files), and writing --out buffers back to files. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "launch_opts.h"
#include "numparse.h"

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
    uint64_t v[3] = {1, 1, 1};
    char part[32];
    for (int i = 0; i < 3; i++) {
        size_t n = strcspn(s, ",");
        if (n >= sizeof part) return -1;
        memcpy(part, s, n);
        part[n] = 0;
        if (!num_parse_u64(part, 0xffffffffu, &v[i])) return -1;
        if (!s[n]) break;
        if (i == 2) return -1;
        s += n + 1;
    }
    *d = (ptxi_dim3){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
    return 0;
}

int cli_launch_opt(cli_launch *l, int c, const char *arg) {
    uint64_t u;
    switch (c) {
    case 'k': l->kname = arg; return 0;
    case 'g': return parse_dim(arg, &l->grid) ? cli_bad(l, "bad --grid '%s' (X[,Y[,Z]])", arg) : 0;
    case 'b': return parse_dim(arg, &l->block) ? cli_bad(l, "bad --block '%s' (X[,Y[,Z]])", arg) : 0;
    case 's':
        if (!num_parse_u64(arg, 0x7fffffff, &u)) return cli_bad(l, "bad --shared '%s' (a number of bytes)", arg);
        l->shared = (unsigned long)u;
        return 0;
    case 'a':
        if (l->nargs == CLI_MAX_ARGS) return cli_bad(l, "too many --arg");
        l->args[l->nargs++] = arg;
        return 0;
    case 'o':
        if (l->nouts == CLI_MAX_ARGS) return cli_bad(l, "too many --out");
        l->outs[l->nouts++] = arg;
        return 0;
    case 't':
        if (!num_parse_u64(arg, 65536, &u) || !u)
            return cli_bad(l, "bad --threads '%s' (a number from 1 to 65536)", arg);
        l->co.threads = (unsigned)u;
        return 0;
    case 'T':
        if (!num_parse_double(arg, &l->co.timeout_s) || l->co.timeout_s < 0)
            return cli_bad(l, "bad --timeout '%s' (a number of seconds)", arg);
        return 0;
    case 'C': l->co.no_contract = 1; return 0;
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
            if (!nb) {
                free(b);
                b = NULL;
            } else b = nb;
        }
    }
    fclose(f);
    *len = n;
    return b;
}

/* One --arg: a scalar, or a buffer allocated on the device. */
static int parse_arg(const cli_launch *l, ptxi_ctx *ctx, const char *s, cli_arg *a) {
    static const struct {
        const char *p;
        size_t size;
        int kind;
    } kinds[] = {{"u8:", 1, 0},  {"u16:", 2, 0}, {"u32:", 4, 0}, {"u64:", 8, 0}, {"s8:", 1, 1},
                 {"s16:", 2, 1}, {"s32:", 4, 1}, {"s64:", 8, 1}, {"f32:", 4, 2}, {"f64:", 8, 3}};
    memset(a, 0, sizeof *a);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t pl = strlen(kinds[k].p);
        if (strncmp(s, kinds[k].p, pl)) continue;
        const char *v = s + pl;
        a->size = kinds[k].size;
        if (kinds[k].kind >= 2 && !(v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))) {
            double d;
            if (!num_parse_double(v, &d)) return cli_bad(l, "bad floating-point value in --arg %s", s);
            if (kinds[k].kind == 2) {
                float f = (float)d;
                memcpy(a->bytes, &f, 4);
            } else memcpy(a->bytes, &d, 8);
            return 0;
        }
        unsigned bits = (unsigned)a->size * 8;
        uint64_t u;
        int64_t i;
        bool ok = kinds[k].kind == 1 ? num_parse_s64(v, bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1)),
                                                     bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1, &i)
                                     : num_parse_u64(v, bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1, &u);
        if (!ok) return cli_bad(l, "bad value in --arg %s (not a number, or out of range for %u bits)", s, bits);
        if (kinds[k].kind == 1) u = (uint64_t)i;
        memcpy(a->bytes, &u, a->size); /* little-endian: the low bytes */
        return 0;
    }
    a->size = 8;
    if (!strcmp(s, "null")) return 0;
    if (!strncmp(s, "zeros:", 6)) {
        uint64_t n;
        if (!num_parse_u64(s + 6, SIZE_MAX, &n)) return cli_bad(l, "bad size in --arg %s", s);
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

/* Lists the kernels of m (those whose name starts with prefix, when given) on stderr; returns 2. */
static int list_kernels(ptxi_module *m, const char *prefix) {
    char shown[1024];
    for (unsigned i = 0; i < ptxi_module_kernel_count(m); i++) {
        const char *name = ptxi_kernel_name(ptxi_module_kernel_at(m, i));
        bool dm = ptx_demangle(name, shown, sizeof shown);
        if (prefix && strncmp(name, prefix, strlen(prefix)) && !(dm && !strncmp(shown, prefix, strlen(prefix))))
            continue;
        fprintf(stderr, "  %s", name);
        if (dm) fprintf(stderr, "  (%s)", shown);
        fputc('\n', stderr);
    }
    return 2;
}

/* --kernel NAME: the PTX name, the demangled name with or without its
 * parameters, or a prefix of either that only one kernel has. */
static int pick_kernel(const cli_launch *l, ptxi_module *m, const char *path, ptxi_kernel **out) {
    unsigned n = ptxi_module_kernel_count(m), hits = 0;
    size_t len = strlen(l->kname);
    char shown[1024];
    if (!ptxi_module_get_kernel(m, l->kname, out)) return 0;
    for (int pass = 0; pass < 2; pass++) { /* whole names first, then prefixes */
        hits = 0;
        for (unsigned i = 0; i < n; i++) {
            ptxi_kernel *k = ptxi_module_kernel_at(m, i);
            const char *name = ptxi_kernel_name(k);
            bool hit = pass == 0 ? ptx_name_matches(name, l->kname)
                                 : !strncmp(name, l->kname, len) ||
                                       (ptx_demangle(name, shown, sizeof shown) && !strncmp(shown, l->kname, len));
            if (hit && !hits++) *out = k;
        }
        if (hits == 1) return 0;
        if (hits > 1) {
            cli_bad(l, "'%s' names several kernels of %s:", l->kname, path);
            return pass == 0 ? list_kernels(m, NULL) : list_kernels(m, l->kname);
        }
    }
    cli_bad(l, "%s has no kernel named '%s'; its kernels:", path, l->kname);
    return list_kernels(m, NULL);
}

int cli_launch_prepare(ptxi_ctx *ctx, ptxi_module *m, const char *path, const cli_launch *l, cli_prepared *p) {
    memset(p, 0, sizeof *p);
    if (l->kname) {
        if (pick_kernel(l, m, path, &p->k)) return 2;
    } else if (ptxi_module_kernel_count(m) == 1) {
        p->k = ptxi_module_kernel_at(m, 0);
    } else {
        cli_bad(l, "%s has several kernels: name one with --kernel", path);
        return list_kernels(m, NULL);
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
