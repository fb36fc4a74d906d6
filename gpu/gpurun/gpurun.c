/* gpurun: runs one kernel of a .ptx file on a real GPU through the CUDA driver
 * API, with exactly the command line of `ptxi run`, so the expected results of
 * ptx-samples/ are recorded from the very PTX that is committed.
 * Build: nvcc -o gpurun gpurun.c -lcuda */
#include <cuda.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64
#define MAX_OUTS 64

struct arg {
    unsigned char val[8]; /* the parameter's bytes (scalar or device pointer) */
    CUdeviceptr buf;      /* device buffer behind file:/zeros:, else 0 */
    size_t buf_size;
};

struct outspec {
    int index;
    const char *path;
};

static void die(const char *fmt, const char *what) {
    fprintf(stderr, "gpurun: ");
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    exit(2);
}

/* A CUDA failure is reported the way `ptxi run` reports it: name and string. */
static void check(CUresult r, const char *where) {
    if (r == CUDA_SUCCESS) return;
    const char *name = "?", *str = "?";
    cuGetErrorName(r, &name);
    cuGetErrorString(r, &str);
    fflush(stdout);
    fprintf(stderr, "error: %s: %s\n", name, str);
    fprintf(stderr, "gpurun: (at %s)\n", where);
    exit(1);
}

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open %s", path);
    size_t cap = 1 << 16, n = 0;
    unsigned char *p = malloc(cap + 1);
    size_t got;
    while ((got = fread(p + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) p = realloc(p, (cap *= 2) + 1);
    }
    fclose(f);
    p[n] = 0;
    *size = n;
    return p;
}

static void parse_dim(const char *s, unsigned d[3]) {
    d[0] = d[1] = d[2] = 1;
    char *end;
    for (int i = 0; i < 3; i++) {
        unsigned long v = strtoul(s, &end, 0);
        if (end == s) die("bad dimension '%s'", s);
        d[i] = (unsigned)v;
        if (*end == 0) return;
        if (*end != ',' && *end != 'x') die("bad dimension '%s'", s);
        s = end + 1;
    }
    die("too many dimensions in '%s'", s);
}

static uint64_t parse_int(const char *s, int is_signed) {
    char *end;
    errno = 0;
    uint64_t v = is_signed ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
    if (end == s || *end || errno) die("bad integer '%s'", s);
    return v;
}

/* Floats: decimal text, or 0x... giving the raw bits. */
static void parse_float(const char *s, int bytes, unsigned char *out) {
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        uint64_t bits = parse_int(s, 0);
        memcpy(out, &bits, 8);
        return;
    }
    char *end;
    if (bytes == 4) { /* strtof: one rounding, straight to float */
        float f = strtof(s, &end);
        memcpy(out, &f, 4);
    } else {
        double d = strtod(s, &end);
        memcpy(out, &d, 8);
    }
    if (end == s || *end) die("bad float '%s'", s);
}

static const struct {
    const char *prefix;
    int bytes, is_signed, is_float;
} scalar_kinds[] = {
    {"u8:", 1, 0, 0},  {"u16:", 2, 0, 0}, {"u32:", 4, 0, 0}, {"u64:", 8, 0, 0}, {"s8:", 1, 1, 0},
    {"s16:", 2, 1, 0}, {"s32:", 4, 1, 0}, {"s64:", 8, 1, 0}, {"b8:", 1, 0, 0},  {"b16:", 2, 0, 0},
    {"b32:", 4, 0, 0}, {"b64:", 8, 0, 0}, {"f32:", 4, 0, 1}, {"f64:", 8, 0, 1},
};

static void parse_arg(const char *s, struct arg *a) {
    memset(a, 0, sizeof *a);
    for (size_t i = 0; i < sizeof scalar_kinds / sizeof scalar_kinds[0]; i++) {
        size_t n = strlen(scalar_kinds[i].prefix);
        if (strncmp(s, scalar_kinds[i].prefix, n)) continue;
        if (scalar_kinds[i].is_float) {
            parse_float(s + n, scalar_kinds[i].bytes, a->val);
        } else {
            uint64_t v = parse_int(s + n, scalar_kinds[i].is_signed);
            memcpy(a->val, &v, 8);
        }
        return;
    }
    if (!strncmp(s, "file:", 5)) {
        size_t size;
        unsigned char *data = read_file(s + 5, &size);
        check(cuMemAlloc(&a->buf, size ? size : 1), "cuMemAlloc");
        if (size) check(cuMemcpyHtoD(a->buf, data, size), "cuMemcpyHtoD");
        free(data);
        a->buf_size = size;
    } else if (!strncmp(s, "zeros:", 6)) {
        size_t size = (size_t)parse_int(s + 6, 0);
        check(cuMemAlloc(&a->buf, size ? size : 1), "cuMemAlloc");
        check(cuMemsetD8(a->buf, 0, size ? size : 1), "cuMemsetD8");
        a->buf_size = size;
    } else if (strcmp(s, "null")) {
        die("bad argument '%s'", s);
    }
    memcpy(a->val, &a->buf, sizeof a->buf);
}

/* With no --kernel, the module must declare exactly one .entry. */
static char *only_entry(const char *ptx) {
    char *name = NULL;
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 6, ".entry")) {
        const char *q = p + 6;
        if (*q != ' ' && *q != '\t') continue;
        while (*q == ' ' || *q == '\t') q++;
        size_t n = strcspn(q, " \t\r\n(");
        if (name) die("%s: several kernels; name one with --kernel", "module");
        name = strndup(q, n);
    }
    if (!name) die("%s: no kernel", "module");
    return name;
}

static void usage(void) {
    fprintf(stderr, "usage: gpurun FILE.ptx [--kernel NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]]"
                    " [--shared BYTES] [--arg A]... [--out N=FILE]...\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *ptx_path = NULL, *kernel = NULL;
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    unsigned shared = 0;
    const char *argtext[MAX_ARGS];
    struct outspec outs[MAX_OUTS];
    int nargs = 0, nouts = 0;

    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(l, s) (!strcmp(o, l) || !strcmp(o, s))
        if (OPT("--kernel", "-k") && v) kernel = argv[++i];
        else if (OPT("--grid", "-g") && v) parse_dim(argv[++i], grid);
        else if (OPT("--block", "-b") && v) parse_dim(argv[++i], block);
        else if (OPT("--shared", "-s") && v) shared = (unsigned)parse_int(argv[++i], 0);
        else if (OPT("--arg", "-a") && v) {
            if (nargs == MAX_ARGS) die("%s", "too many --arg");
            argtext[nargs++] = argv[++i];
        } else if (OPT("--out", "-o") && v) {
            char *eq = strchr(argv[++i], '=');
            if (!eq || nouts == MAX_OUTS) die("bad --out '%s'", argv[i]);
            outs[nouts].index = (int)parse_int(strndup(argv[i], (size_t)(eq - argv[i])), 0);
            outs[nouts++].path = eq + 1;
        } else if (o[0] != '-' && !ptx_path) ptx_path = o;
        else usage();
#undef OPT
    }
    if (!ptx_path) usage();

    size_t ptx_size;
    char *ptx = (char *)read_file(ptx_path, &ptx_size);
    if (!kernel) kernel = only_entry(ptx);

    CUdevice dev;
    CUcontext ctx;
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");

    char log[16384] = "", info[4096] = "";
    CUjit_option jo[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *jv[] = {log, (void *)(uintptr_t)sizeof log, info, (void *)(uintptr_t)sizeof info};
    CUmodule mod;
    CUresult r = cuModuleLoadDataEx(&mod, ptx, 4, jo, jv);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "%s", log);
        check(r, "cuModuleLoadDataEx");
    }
    CUfunction fn;
    check(cuModuleGetFunction(&fn, mod, kernel), "cuModuleGetFunction");

    struct arg args[MAX_ARGS];
    void *params[MAX_ARGS];
    for (int i = 0; i < nargs; i++) {
        parse_arg(argtext[i], &args[i]);
        params[i] = args[i].val;
    }
#if CUDA_VERSION >= 12040
    /* A wrong argument count would make the driver read past params[]. */
    size_t off, psize;
    int nparams = 0;
    while (cuFuncGetParamInfo(fn, (size_t)nparams, &off, &psize) == CUDA_SUCCESS) {
        if (nparams < nargs && psize > 8) die("parameter of more than 8 bytes: %s", argtext[nparams]);
        nparams++;
    }
    if (nparams != nargs) {
        fprintf(stderr, "gpurun: kernel %s takes %d parameters, %d given\n", kernel, nparams, nargs);
        return 2;
    }
#endif
    for (int i = 0; i < nouts; i++)
        if (outs[i].index < 0 || outs[i].index >= nargs || !args[outs[i].index].buf)
            die("--out %s: not a buffer argument", outs[i].path);

    if (shared > 48 * 1024)
        check(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)shared),
              "cuFuncSetAttribute");
    fflush(stdout);
    check(cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared, NULL, params, NULL),
          "cuLaunchKernel");
    check(cuCtxSynchronize(), "cuCtxSynchronize");
    fflush(stdout);

    for (int i = 0; i < nouts; i++) {
        struct arg *a = &args[outs[i].index];
        unsigned char *host = malloc(a->buf_size + 1);
        check(cuMemcpyDtoH(host, a->buf, a->buf_size), "cuMemcpyDtoH");
        FILE *f = fopen(outs[i].path, "wb");
        if (!f || fwrite(host, 1, a->buf_size, f) != a->buf_size || fclose(f)) die("cannot write %s", outs[i].path);
        free(host);
    }
    cuDevicePrimaryCtxRelease(dev);
    return 0;
}
