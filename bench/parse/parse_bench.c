/* parse_bench.c — front-end throughput: concatenates renamed copies of the
 * ptx-samples kernels into one large module (>= 20 MB by default), then, in a
 * fresh child process, parses it to IR on one core and reports MB/s and the
 * child's peak RSS against the file size.
 *   ptxi-parse-bench [--size MB] [--keep FILE] [SAMPLE.ptx ...]
 *   ptxi-parse-bench --parse FILE   (the measuring child) */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"
#include "ir.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    buf[*len] = 0;
    fclose(f);
    return buf;
}

/* CPU time of this thread: the machine may be shared, and the figure is per core */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the measuring child: read, parse, report */
static int parse_only(const char *path)
{
    size_t len = 0;
    char *text = slurp(path, &len);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        return 2;
    }
    struct rusage ru0;
    getrusage(RUSAGE_SELF, &ru0);
    double best = 1e30;
    uint64_t ninsn = 0;
    int errors = 0;
    for (int rep = 0; rep < 3; rep++) {
        fe_diags d = {0};
        double t0 = now();
        ir_module *m = fe_parse(text, len, path, &d);
        double t = now() - t0;
        if (t < best) best = t;
        ninsn = 0;
        for (uint32_t i = 0; i < m->nfuncs; i++)
            for (uint32_t k = 0; k < m->funcs[i]->nbody; k++) ninsn += m->funcs[i]->body[k].kind == IR_ST_INSN;
        errors = (int)d.nerrors;
        if (rep == 0)
            printf("IR arena      %.1f MB (%.1f bytes per instruction)\n", (double)((fe_arena *)m->arena)->total / 1e6,
                   (double)((fe_arena *)m->arena)->total / (double)(ninsn ? ninsn : 1));
        if (d.nerrors) {
            fe_diags_print(&d, stderr);
            break;
        }
        fe_diags_free(&d);
        ir_module_free(m);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double mb = (double)len / 1e6, peak = (double)ru.ru_maxrss * 1024.0;
    printf("file          %.1f MB, %lu instructions\n", mb, (unsigned long)ninsn);
    printf("parse to IR   %.3f s CPU (best of 3) = %.1f MB/s, %.1f M instructions/s\n", best, mb / best,
           (double)ninsn / best / 1e6);
    double base = (double)ru0.ru_maxrss * 1024.0;
    printf("peak RSS      %.1f MB = %.2f x file size (process total, with the file buffer)\n", peak / 1e6,
           peak / (double)len);
    printf("parse memory  %.1f MB = %.2f x file size (peak RSS minus RSS once the file was read)\n",
           (peak - base) / 1e6, (peak - base) / (double)len);
    return errors ? 1 : 0;
}

/* ---- building the big file ---- */

typedef struct {
    char **v;
    size_t n, cap;
} strvec;
static strvec samples;

static int collect(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    size_t n = strlen(path);
    if (type == FTW_F && n > 4 && !strcmp(path + n - 4, ".ptx")) {
        if (samples.n == samples.cap)
            samples.v = realloc(samples.v, (samples.cap = samples.cap ? 2 * samples.cap : 64) * sizeof *samples.v);
        samples.v[samples.n++] = strdup(path);
    }
    return 0;
}

static int is_id(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* module-scope names of one sample; copies get a suffix on each of them */
static bool in_names(char **names, size_t n, const char *s, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) == len && !memcmp(names[i], s, len)) return true;
    return false;
}

static void emit_copy(FILE *out, const char *text, size_t len, char **names, size_t nn, unsigned copy, bool first)
{
    size_t i = 0;
    while (i < len) {
        /* skip the module header in all but the first copy */
        if (!first && (text[i] == '.' && (i == 0 || text[i - 1] == '\n')) &&
            (!strncmp(text + i, ".version", 8) || !strncmp(text + i, ".target", 7) ||
             !strncmp(text + i, ".address_size", 13))) {
            while (i < len && text[i] != '\n') i++;
            continue;
        }
        if (is_id((unsigned char)text[i]) && !(text[i] >= '0' && text[i] <= '9') &&
            (i == 0 || (!is_id((unsigned char)text[i - 1]) && text[i - 1] != '%' && text[i - 1] != '.'))) {
            size_t j = i;
            while (j < len && is_id((unsigned char)text[j])) j++;
            fwrite(text + i, 1, j - i, out);
            if (in_names(names, nn, text + i, j - i)) fprintf(out, "_c%u", copy);
            i = j;
            continue;
        }
        fputc(text[i], out);
        i++;
    }
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--parse")) return parse_only(argv[2]);
    double want_mb = 24;
    const char *keep = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) want_mb = atof(argv[++i]);
        else if (!strcmp(argv[i], "--keep") && i + 1 < argc) keep = argv[++i];
        else collect(argv[i], NULL, FTW_F, NULL);
    }
    if (!samples.n) nftw(PTXI_SOURCE_DIR "/ptx-samples", collect, 16, FTW_PHYS);
    if (!samples.n) {
        fprintf(stderr, "no sample .ptx files found\n");
        return 2;
    }
    char tmp[] = "/tmp/ptxi-parse-bench-XXXXXX";
    const char *path = keep;
    if (!path) {
        int fd = mkstemp(tmp);
        if (fd < 0) return 2;
        close(fd);
        path = tmp;
    }
    FILE *out = fopen(path, "w");
    size_t total = 0;
    unsigned copy = 0;
    bool first = true;
    while ((double)total < want_mb * 1e6) {
        for (size_t s = 0; s < samples.n && (double)total < want_mb * 1e6; s++) {
            size_t len = 0;
            char *text = slurp(samples.v[s], &len);
            if (!text) continue;
            fe_diags d = {0};
            ir_module *m = fe_parse(text, len, samples.v[s], &d);
            if (d.nerrors) { /* only clean samples make a clean big file */
                fe_diags_free(&d);
                ir_module_free(m);
                free(text);
                continue;
            }
            char **names = malloc((m->nglobals + m->nfuncs) * sizeof *names);
            size_t nn = 0;
            for (uint32_t i = 0; i < m->nglobals; i++) names[nn++] = strdup(m->globals[i]->name);
            for (uint32_t i = 0; i < m->nfuncs; i++)
                if (m->funcs[i]->has_body) names[nn++] = strdup(m->funcs[i]->name);
            long before = ftell(out);
            emit_copy(out, text, len, names, nn, copy++, first);
            first = false;
            total += (size_t)(ftell(out) - before);
            for (size_t i = 0; i < nn; i++) free(names[i]);
            free(names);
            fe_diags_free(&d);
            ir_module_free(m);
            free(text);
        }
        if (first) break;
    }
    fclose(out);
    printf("built %s from %zu samples, %u copies\n", path, samples.n, copy);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "--parse", path, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!keep) unlink(path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
