/* cmd_run.c — `ptxi run`: one kernel of a .ptx file, parameters from the
 * command line, buffers from and to files. Everything goes through ptxi.h. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "ptxi.h"

static const char usage_text[] =
    "usage: ptxi run FILE.ptx [--kernel NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
    "                [--shared BYTES] [--arg A]... [--out N=FILE]... [--threads N]\n"
    "                [--timeout SECONDS] [--stats]\n"
    "\n"
    "  -k, --kernel NAME    the .entry to run (may be omitted when there is one)\n"
    "  -g, --grid X,Y,Z     grid dimensions (default 1)\n"
    "  -b, --block X,Y,Z    block dimensions (default 1)\n"
    "  -s, --shared BYTES   dynamic shared memory\n"
    "  -a, --arg A          one kernel parameter, in order:\n"
    "                         u8: u16: u32: u64: s8: s16: s32: s64:VALUE  integers (decimal or 0x...)\n"
    "                         f32: f64:VALUE    floats (decimal, or 0x... raw bits)\n"
    "                         file:PATH         a device buffer holding PATH's bytes (its pointer is passed)\n"
    "                         zeros:BYTES       a zeroed device buffer\n"
    "                         null              a null pointer\n"
    "  -o, --out N=FILE     after the kernel, write the buffer of argument N (0-based) to FILE\n"
    "  -t, --threads N      host threads running CTAs (default: one per core)\n"
    "      --timeout S      stop the kernel after S seconds (watchdog)\n"
    "      --stats          print instructions executed, warp instructions, active lanes and time\n"
    "\n"
    "exit status: 0 success, 1 the kernel failed, 2 bad arguments or files\n";

typedef struct arg {
    uint8_t bytes[8];
    size_t size;
    ptxi_dptr buf;
    size_t buflen;
} arg;

static int bad(const char *fmt, const char *what) {
    fprintf(stderr, "ptxi run: ");
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    return 2;
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
static int parse_arg(ptxi_ctx *ctx, const char *s, arg *a) {
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
            if (end == v || *end) return bad("bad floating-point value in --arg %s", s);
            if (kinds[k].kind == 2) { float f = (float)d; memcpy(a->bytes, &f, 4); }
            else memcpy(a->bytes, &d, 8);
            return 0;
        }
        uint64_t u = kinds[k].kind == 1 ? (uint64_t)strtoll(v, &end, 0) : strtoull(v, &end, 0);
        if (end == v || *end || errno) return bad("bad integer value in --arg %s", s);
        memcpy(a->bytes, &u, a->size);   /* little-endian: the low bytes */
        return 0;
    }
    a->size = 8;
    if (!strcmp(s, "null")) return 0;
    if (!strncmp(s, "zeros:", 6)) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(s + 6, &end, 0);
        if (end == s + 6 || *end || errno) return bad("bad size in --arg %s", s);
        if (ptxi_mem_alloc(ctx, n, &a->buf) || ptxi_memset_d8(ctx, a->buf, 0, n))
            return bad("cannot allocate device memory for --arg %s", s);
        a->buflen = n;
    } else if (!strncmp(s, "file:", 5)) {
        size_t n;
        unsigned char *data = read_file(s + 5, &n);
        if (!data) return bad("cannot read the file in --arg %s", s);
        int rc = ptxi_mem_alloc(ctx, n ? n : 1, &a->buf) || ptxi_memcpy_htod(ctx, a->buf, data, n);
        free(data);
        if (rc) return bad("cannot allocate device memory for --arg %s", s);
        a->buflen = n;
    } else {
        return bad("unknown argument kind in --arg %s (see ptxi run --help)", s);
    }
    memcpy(a->bytes, &a->buf, 8);
    return 0;
}

int cmd_run(int argc, char **argv) {
    static const struct option opts[] = {
        {"kernel", required_argument, 0, 'k'}, {"grid", required_argument, 0, 'g'},
        {"block", required_argument, 0, 'b'}, {"shared", required_argument, 0, 's'},
        {"arg", required_argument, 0, 'a'}, {"out", required_argument, 0, 'o'},
        {"threads", required_argument, 0, 't'}, {"timeout", required_argument, 0, 'T'},
        {"stats", no_argument, 0, 'S'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *kname = NULL, *args[256], *outs[256];
    int nargs = 0, nouts = 0;
    ptxi_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    unsigned long shared = 0;
    ptxi_ctx_options co = {0};
    bool stats = false;
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, "k:g:b:s:a:o:t:h", opts, NULL)) != -1;) {
        switch (c) {
        case 'k': kname = optarg; break;
        case 'g': if (parse_dim(optarg, &grid)) return bad("bad --grid '%s'", optarg); break;
        case 'b': if (parse_dim(optarg, &block)) return bad("bad --block '%s'", optarg); break;
        case 's': shared = strtoul(optarg, NULL, 0); break;
        case 'a': if (nargs == 256) return bad("%s", "too many --arg"); args[nargs++] = optarg; break;
        case 'o': if (nouts == 256) return bad("%s", "too many --out"); outs[nouts++] = optarg; break;
        case 't': co.threads = (unsigned)strtoul(optarg, NULL, 0); if (!co.threads) co.threads = 1; break;
        case 'T': co.timeout_s = strtod(optarg, NULL); break;
        case 'S': stats = true; break;
        case 'h': fputs(usage_text, stdout); return 0;
        default: fputs(usage_text, stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fputs(usage_text, stderr);
        return 2;
    }
    const char *path = argv[optind];
    ptxi_ctx *ctx;
    if (ptxi_ctx_create(&ctx, &co)) return bad("%s", "cannot create a context");
    int rc = 2;
    ptxi_module *m;
    arg *av = calloc((size_t)nargs + 1, sizeof *av);
    ptxi_kernel *k = NULL;
    ptxi_status st = ptxi_module_load_file(ctx, path, &m);
    if (st) {
        fprintf(stderr, "%s", ptxi_ctx_error_detail(ctx));
        if (st != PTXI_IO) rc = 1;
        else fprintf(stderr, "\n");
        goto done;
    }
    if (kname) {
        if (ptxi_module_get_kernel(m, kname, &k)) { bad("no kernel named '%s'", kname); goto done; }
    } else if (ptxi_module_kernel_count(m) == 1) {
        k = ptxi_module_kernel_at(m, 0);
    } else {
        bad("%s has several kernels: name one with --kernel", path);
        goto done;
    }
    unsigned np = ptxi_kernel_param_count(k);
    if ((unsigned)nargs != np) {
        fprintf(stderr, "ptxi run: kernel '%s' takes %u parameters, %d given\n", ptxi_kernel_name(k), np, nargs);
        goto done;
    }
    void *pv[256];
    for (int i = 0; i < nargs; i++) {
        if (parse_arg(ctx, args[i], &av[i])) goto done;
        size_t sz;
        ptxi_kernel_param_info(k, (unsigned)i, &sz, NULL, NULL);
        if (sz != av[i].size) {
            fprintf(stderr, "ptxi run: parameter %d of '%s' is %zu bytes; --arg %s gives %zu\n", i,
                    ptxi_kernel_name(k), sz, args[i], av[i].size);
            goto done;
        }
        pv[i] = av[i].bytes;
    }
    for (int i = 0; i < nouts; i++) {
        char *end;
        long n = strtol(outs[i], &end, 10);
        if (end == outs[i] || *end != '=' || n < 0 || n >= nargs || !av[n].buf) {
            bad("bad --out '%s' (N=FILE, N naming a buffer argument)", outs[i]);
            goto done;
        }
    }
    /* Like a CUDA program that needs it, opt in to more than 48 KiB of dynamic shared memory. */
    if (shared > 48 * 1024) ptxi_kernel_set_attr(k, PTXI_KATTR_MAX_DYNAMIC_SHARED_BYTES, (int)shared);
    st = ptxi_launch(k, grid, block, shared, NULL, pv);
    ptxi_status sync = ptxi_ctx_synchronize(ctx);
    if (!st) st = sync;
    if (st) {
        if (st != PTXI_ASSERT && !ptxi_error_is_sticky(st)) fprintf(stderr, "ptxi run: %s\n", ptxi_ctx_error_detail(ctx));
        fprintf(stderr, "ptxi run: %s: %s\n", ptxi_error_name(st), ptxi_error_string(st));
        rc = 1;
        goto done;
    }
    rc = 0;
    for (int i = 0; i < nouts; i++) {
        long n = strtol(outs[i], NULL, 10);
        const char *file = strchr(outs[i], '=') + 1;
        unsigned char *data = malloc(av[n].buflen + 1);
        FILE *f = fopen(file, "wb");
        if (!data || !f || ptxi_memcpy_dtoh(ctx, data, av[n].buf, av[n].buflen) ||
            fwrite(data, 1, av[n].buflen, f) != av[n].buflen) {
            bad("cannot write '%s'", file);
            rc = 2;
        }
        if (f) fclose(f);
        free(data);
    }
    if (stats) {
        ptxi_launch_stats ls;
        ptxi_ctx_last_launch_stats(ctx, &ls);
        fprintf(stderr, "instructions executed (thread): %llu\nwarp instructions: %llu\naverage active lanes: %.2f\n"
                        "time: %.6f s\nthread-instructions/s: %.3g\n",
                (unsigned long long)ls.thread_insns, (unsigned long long)ls.warp_insns,
                ls.warp_insns ? (double)ls.thread_insns / (double)ls.warp_insns : 0.0, ls.seconds,
                ls.seconds > 0 ? (double)ls.thread_insns / ls.seconds : 0.0);
    }
done:
    free(av);
    ptxi_ctx_destroy(ctx);
    return rc;
}
