/* test_samples.c — runs every ptx-samples/<name>/run.args line through
 * `ptxi run` on each committed PTX of the sample (sm_90 and the older target)
 * and compares exit status, stdout, the CUDA error named on a failure and every
 * output file with what a real GPU produced for the same PTX
 * (ptx-samples/<name>/expected/, recorded by gpu/jobs/samples). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../read_file.h"

#define SAMPLES PTXI_SOURCE_DIR "/ptx-samples"
#define PTXI PTXI_BINARY_DIR "/bin/ptxi"
#define MAX_TOKENS 64
#define RUN_SECONDS 60 /* a GPU runs each line in well under a second */

/* One test case: one run.args line of one sample on one PTX target. Plain
 * arrays only: Criterion copies parameters into the test's process. */
typedef struct {
    char sample[64];
    char arch[16]; /* "sm_90", "sm_75", ... from <name>.<arch>.ptx */
    int line;      /* index among the non-empty, non-comment lines */
    char args[2048];
} sample_case;

static int is_args_line(const char *s) {
    s += strspn(s, " \t\r\n");
    return *s && *s != '#';
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* The PTX targets a sample has, as "<name>.<arch>.ptx"; sm_90 sorts last
 * among sm_xx, so it is moved first for the reader of the log. */
static int sample_archs(const char *name, char archs[][16], int max) {
    char dir[512];
    snprintf(dir, sizeof dir, SAMPLES "/%s", name);
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name), count = 0;
    size_t len = strlen(name);
    for (int i = 0; i < n; i++) {
        const char *f = ents[i]->d_name;
        size_t fl = strlen(f);
        if (count < max && fl > len + 5 && !strncmp(f, name, len) && f[len] == '.' && !strcmp(f + fl - 4, ".ptx") &&
            fl - len - 5 < 16) {
            memcpy(archs[count], f + len + 1, fl - len - 5);
            archs[count][fl - len - 5] = 0;
            if (!strcmp(archs[count], "sm_90") && count > 0) {
                char tmp[16];
                memcpy(tmp, archs[0], 16);
                memcpy(archs[0], archs[count], 16);
                memcpy(archs[count], tmp, 16);
            }
            count++;
        }
        free(ents[i]);
    }
    if (n >= 0) free(ents);
    return count;
}

static void free_cases(struct criterion_test_params *p) { cr_free(p->params); }

ParameterizedTestParameters(samples, run) {
    struct dirent **ents;
    int n = scandir(SAMPLES, &ents, NULL, by_name);
    size_t cap = 256, count = 0;
    sample_case *cases = cr_malloc(cap * sizeof *cases);
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        char path[512], archs[8][16];
        snprintf(path, sizeof path, SAMPLES "/%s/run.args", name);
        char *text = name[0] != '.' ? slurp(path, NULL) : NULL;
        int narch = text ? sample_archs(name, archs, 8) : 0;
        int line = 0;
        for (char *save, *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
            if (!is_args_line(l)) continue;
            for (int a = 0; a < narch && count < cap; a++) {
                sample_case *c = &cases[count++];
                memset(c, 0, sizeof *c);
                snprintf(c->sample, sizeof c->sample, "%.63s", name);
                snprintf(c->arch, sizeof c->arch, "%.15s", archs[a]);
                snprintf(c->args, sizeof c->args, "%s", l);
                c->line = line;
            }
            line++;
        }
        free(text);
        free(ents[i]);
    }
    if (n >= 0) free(ents);
    if (count == 0) { /* an empty corpus is a failure, not a pass */
        memset(cases, 0, sizeof *cases);
        count = 1;
    }
    return cr_make_param_array(sample_case, cases, count, free_cases);
}

/* Failures of one case, collected so the report names all of them at once. */
typedef struct {
    char text[4096];
    size_t len;
} report;

static void fail(report *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (r->len < sizeof r->text) r->len += (size_t)vsnprintf(r->text + r->len, sizeof r->text - r->len, fmt, ap);
    va_end(ap);
}

/* Runs ptxi with argv in dir, stdout/stderr to files there; returns the exit
 * status, 128+signal when it was killed (the time limit included). */
static int run_in(const char *dir, char *const argv[]) {
    pid_t pid = fork();
    if (pid == 0) {
        char out[600], err[600];
        snprintf(out, sizeof out, "%s/stdout", dir);
        snprintf(err, sizeof err, "%s/stderr", dir);
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0 || chdir(dir) || dup2(fo, 1) < 0 || dup2(fe, 2) < 0) _exit(126);
        alarm(RUN_SECONDS); /* survives exec: a hung kernel becomes a failure */
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Where the GPU's results for this case lie: expected/<arch>/ when the older
 * target gave different results, else expected/. */
static void expected_path(const sample_case *c, const char *what, char *buf, size_t size) {
    snprintf(buf, size, SAMPLES "/%s/expected/%s/%d.%s", c->sample, c->arch, c->line, what);
    if (!strcmp(c->arch, "sm_90") || access(buf, F_OK))
        snprintf(buf, size, SAMPLES "/%s/expected/%d.%s", c->sample, c->line, what);
}

static void compare_file(report *r, const char *what, const char *want_path, const char *got_path, int text) {
    size_t wn = 0, gn = 0;
    char *want = slurp(want_path, &wn), *got = slurp(got_path, &gn);
    if (!want) {
        fail(r, "  %s: cannot read %s\n", what, want_path);
    } else if (!got) {
        fail(r, "  %s: not written\n", what);
    } else if (wn != gn || memcmp(want, got, wn)) {
        size_t i = 0;
        while (i < wn && i < gn && want[i] == got[i]) i++;
        if (text) {
            size_t start = i;
            while (start > 0 && want[start - 1] != '\n') start--;
            int wl = (int)strcspn(want + start, "\n"), gl = (int)strcspn(got + start, "\n");
            fail(r, "  %s differs at byte %zu:\n    GPU:  %.*s\n    ptxi: %.*s\n", what, i, wl, want + start, gl,
                 got + start);
        } else {
            /* The aligned 8 bytes around the first difference, and how many differ. */
            size_t at = i & ~(size_t)7, ndiff = 0;
            for (size_t k = 0; k < wn && k < gn; k++) ndiff += want[k] != got[k];
            char hw[40] = "", hg[40] = "";
            for (size_t k = at; k < at + 8; k++) {
                if (k < wn) snprintf(hw + 3 * (k - at), 4, "%02x ", (unsigned char)want[k]);
                if (k < gn) snprintf(hg + 3 * (k - at), 4, "%02x ", (unsigned char)got[k]);
            }
            fail(r,
                 "  %s differs at byte %zu (GPU %zu bytes, ptxi %zu; %zu bytes differ)\n"
                 "    GPU  @%zu: %s\n    ptxi @%zu: %s\n",
                 what, i, wn, gn, ndiff, at, hw, at, hg);
        }
    }
    free(want);
    free(got);
}

static void remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2]))) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(dir);
}

/* ptx-samples/KNOWN_DIFFERENCES: "<sample> <reason>" lines for samples whose
 * output ptxi is known not to reproduce. Such a case still runs; a difference
 * is reported as a skip with the reason (not hidden as a pass), and a case
 * that has come to match passes and says the entry can go. */
static const char *known_difference(const char *sample) {
    static char line[512];
    FILE *f = fopen(SAMPLES "/KNOWN_DIFFERENCES", "r");
    const char *reason = NULL;
    size_t n = strlen(sample);
    while (f && !reason && fgets(line, sizeof line, f))
        if (!strncmp(line, sample, n) && line[n] == ' ') {
            line[strcspn(line, "\n")] = 0;
            reason = line + n + 1;
        }
    if (f) fclose(f);
    return reason;
}

ParameterizedTest(sample_case *c, samples, run, .timeout = RUN_SECONDS + 30) {
    cr_assert(c->sample[0], "no samples with run.args found under %s", SAMPLES);
    char rc_path[512];
    expected_path(c, "rc", rc_path, sizeof rc_path);
    if (access(rc_path, F_OK))
        cr_skip_test("%s[%d] %s: no GPU recording yet (%s)", c->sample, c->line, c->arch, rc_path);
    cr_assert(access(PTXI, X_OK) == 0, "%s[%d] %s: %s not built", c->sample, c->line, c->arch, PTXI);

    char tmp[] = "/tmp/ptxi-sample-XXXXXX";
    cr_assert(mkdtemp(tmp), "mkdtemp: %s", strerror(errno));

    /* ptxi run <ptx> <args>: inputs read from the sample dir, outputs go to tmp. */
    char sdir[512], ptx[600], storage[MAX_TOKENS][700], *argv[MAX_TOKENS + 4];
    const char *outs[MAX_TOKENS];
    int argc = 0, nouts = 0;
    snprintf(sdir, sizeof sdir, SAMPLES "/%s", c->sample);
    snprintf(ptx, sizeof ptx, "%s/%s.%s.ptx", sdir, c->sample, c->arch);
    argv[argc++] = PTXI;
    argv[argc++] = "run";
    argv[argc++] = ptx;
    char args[sizeof c->args], *save, *prev = "";
    memcpy(args, c->args, sizeof args);
    for (char *tok = strtok_r(args, " \t\r", &save); tok && argc < MAX_TOKENS; tok = strtok_r(NULL, " \t\r", &save)) {
        char *s = storage[argc];
        char *eq = strchr(tok, '=');
        if ((!strcmp(prev, "--out") || !strcmp(prev, "-o")) && eq) {
            const char *base = strrchr(eq + 1, '/') ? strrchr(eq + 1, '/') + 1 : eq + 1;
            snprintf(s, sizeof storage[0], "%.*s=%s/%s", (int)(eq - tok), tok, tmp, base);
            outs[nouts++] = base;
        } else if (!strncmp(tok, "file:", 5) && tok[5] != '/') {
            snprintf(s, sizeof storage[0], "file:%s/%s", sdir, tok + 5);
        } else {
            snprintf(s, sizeof storage[0], "%s", tok);
        }
        argv[argc++] = s;
        prev = tok;
    }
    argv[argc] = NULL;

    report r = {.len = 0};
    int rc = run_in(tmp, argv);
    char *want_rc = slurp(rc_path, NULL);
    if (rc != atoi(want_rc)) fail(&r, "  exit status %d, the GPU's was %d\n", rc, atoi(want_rc));
    free(want_rc);

    char want[600], got[700];
    expected_path(c, "stdout", want, sizeof want);
    snprintf(got, sizeof got, "%s/stdout", tmp);
    compare_file(&r, "stdout", want, got, 1);
    for (int i = 0; i < nouts; i++) {
        expected_path(c, outs[i], want, sizeof want);
        if (access(want, F_OK)) /* the GPU run failed before writing it */
            continue;
        snprintf(got, sizeof got, "%s/%s", tmp, outs[i]);
        compare_file(&r, outs[i], want, got, 0);
    }
    /* A failed run must fail for the GPU's reason: ptxi's stderr names the
     * error of the GPU's "error: CUDA_ERROR_X: message" line, as CUDA_ERROR_X
     * or under ptxi's own prefix (PTXI_X): X must appear. */
    expected_path(c, "stderr", want, sizeof want);
    char *gpu_err = slurp(want, NULL), *name = gpu_err ? strstr(gpu_err, "error: CUDA_ERROR_") : NULL;
    if (name) {
        name += strlen("error: CUDA_ERROR_");
        name[strcspn(name, ": \n")] = 0;
        snprintf(got, sizeof got, "%s/stderr", tmp);
        char *err = slurp(got, NULL);
        if (!err || !strstr(err, name))
            fail(&r, "  the GPU failed with CUDA_ERROR_%s; ptxi's stderr does not name %s\n", name, name);
        free(err);
    }
    free(gpu_err);
    if (r.len) {
        snprintf(got, sizeof got, "%s/stderr", tmp);
        char *err = slurp(got, NULL);
        fail(&r, "  ptxi stderr: %.300s", err ? err : "");
        free(err);
    }
    remove_dir(tmp);
    const char *known = known_difference(c->sample);
    if (known && r.len)
        cr_skip_test("%s[%d] %s: known difference (%s):\n%s", c->sample, c->line, c->arch, known, r.text);
    if (known)
        cr_log_warn("%s[%d] %s now matches the GPU: its KNOWN_DIFFERENCES entry can go", c->sample, c->line, c->arch);
    cr_expect(r.len == 0, "sample %s, run line %d, %s PTX:\n%s", c->sample, c->line, c->arch, r.text);
}

/* The corpus itself: every sample has its source, both PTX targets (only sm_90
 * where alt_arch says none), a way to
 * run it, and the input files its run lines name; PTX that must show a
 * construct (ptx.grep) shows it. */
Test(samples, corpus_is_complete) {
    struct dirent **ents;
    int n = scandir(SAMPLES, &ents, NULL, by_name), checked = 0;
    cr_assert(n > 0, "cannot list %s", SAMPLES);
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        char path[1024], archs[8][16];
        struct stat st;
        snprintf(path, sizeof path, SAMPLES "/%s", name);
        if (name[0] == '.' || stat(path, &st) || !S_ISDIR(st.st_mode)) {
            free(ents[i]);
            continue;
        }
        snprintf(path, sizeof path, SAMPLES "/%s/main.cu", name);
        int has_main = access(path, F_OK) == 0;
        snprintf(path, sizeof path, SAMPLES "/%s/run.args", name);
        char *args = slurp(path, NULL);
        cr_expect(args || has_main, "%s: neither run.args nor main.cu", name);
        if (args) {
            snprintf(path, sizeof path, SAMPLES "/%s/%s.cu", name, name);
            cr_expect(access(path, F_OK) == 0, "%s: no %s.cu", name, name);
            int narch = sample_archs(name, archs, 8);
            snprintf(path, sizeof path, SAMPLES "/%s/alt_arch", name);
            char *alt = slurp(path, NULL);
            int sm90_only = alt && !strncmp(alt, "none", 4);
            free(alt);
            cr_expect(narch >= (sm90_only ? 1 : 2) && !strcmp(archs[0], "sm_90"),
                      "%s: needs sm_90 PTX and an older target", name);
            char *save;
            for (char *tok = strtok_r(args, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
                if (strncmp(tok, "file:", 5)) continue;
                snprintf(path, sizeof path, SAMPLES "/%s/%s", name, tok + 5);
                cr_expect(access(path, R_OK) == 0, "%s: input %s missing", name, tok + 5);
            }
            free(args);
        }
        snprintf(path, sizeof path, SAMPLES "/%s/ptx.grep", name);
        char *pats = slurp(path, NULL);
        if (pats) {
            snprintf(path, sizeof path, SAMPLES "/%s/%s.sm_90.ptx", name, name);
            char *ptx = slurp(path, NULL);
            char *save;
            for (char *p = strtok_r(pats, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
                cr_expect(ptx && strstr(ptx, p), "%s: sm_90 PTX lacks '%s'", name, p);
            free(ptx);
            free(pats);
        }
        checked++;
        free(ents[i]);
    }
    free(ents);
    cr_expect(checked >= 20, "only %d samples", checked);
}
