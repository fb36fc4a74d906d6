/* test_malformed.c — every file of tests/frontend/malformed/ is PTX that
 * ptxas 13 rejects. Its first lines record what each tool says:
 *     // ptxi: LINE:COL: MESSAGE      (positions counted in the file itself)
 *     // ptxas: line N: MESSAGE       (ptxas's own words; "line N: " may be absent)
 *     // ptxas-arch: sm_100a          (optional: the -arch ptxas needs, sm_90 by default)
 * ptxi must report exactly that diagnostic and nothing else, and `ptxi check`
 * must exit 1. Where ptxas is installed, it must still reject each file at
 * the recorded line with the recorded message. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ir.h"
#include "../read_file.h"
#include "ptx_files.h"

#define DIR PTXI_SOURCE_DIR "/tests/frontend/malformed"

static struct criterion_test_params all_files(void) {
    static const char *const dirs[] = {DIR, NULL};
    return ptx_files(dirs);
}

/* the text after "// key: " on one of the first lines, NULL if absent */
static char *header(const char *text, const char *key) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "// %s: ", key);
    for (const char *s = text; !strncmp(s, "//", 2);) {
        const char *e = strchr(s, '\n');
        if (!e) break;
        if (!strncmp(s, prefix, strlen(prefix))) return strndup(s + strlen(prefix), (size_t)(e - s) - strlen(prefix));
        s = e + 1;
    }
    return NULL;
}

ParameterizedTestParameters(malformed, ptxi_reports) { return all_files(); }

ParameterizedTest(sample *s, malformed, ptxi_reports) {
    size_t len = 0;
    char *text = slurp(s->path, &len);
    cr_assert(text, "cannot read %s", s->path);
    char *want = header(text, "ptxi");
    cr_assert(want, "%s: no '// ptxi:' line", s->path);
    cr_assert(header(text, "ptxas"), "%s: no '// ptxas:' line", s->path);
    unsigned line = 0, col = 0;
    int at = 0;
    cr_assert(sscanf(want, "%u:%u: %n", &line, &col, &at) == 2 && at > 0, "%s: malformed '// ptxi:' line", s->path);

    fe_diags d = {0};
    ir_module *m = fe_parse(text, len, s->path, &d);
    if (!d.nerrors) fe_validate(m, &d);
    bool hit = false;
    for (uint32_t i = 0; i < d.n; i++)
        hit |= d.v[i].loc.line == line && d.v[i].loc.col == col && !strcmp(d.v[i].msg, want + at);
    cr_assert(hit, "%s: expected %s\ngot:\n%s", s->path, want, diag_text(&d));
    /* one mistake, one error; a second directive after a missing one is the only cascade */
    cr_assert(d.nerrors == 1 || (d.nerrors == 2 && strstr(s->path, "header_decl_before_target")), "%s: %u errors:\n%s",
              s->path, d.nerrors, diag_text(&d));
    fe_diags_free(&d);
    ir_module_free(m);
    free(want);
    free(text);
}

/* the command line's verdict: exit status 1 */
ParameterizedTestParameters(malformed, check_exits_1) { return all_files(); }

ParameterizedTest(sample *s, malformed, check_exits_1) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "%s/bin/ptxi check -q '%s' >/dev/null 2>&1", PTXI_BINARY_DIR, s->path);
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s: ptxi check exited %d", s->path, WEXITSTATUS(st));
}

static bool have_ptxas(void) { return system("command -v ptxas >/dev/null 2>&1") == 0; }

ParameterizedTestParameters(malformed, ptxas_agrees) { return all_files(); }

ParameterizedTest(sample *s, malformed, ptxas_agrees, .timeout = 60) {
    if (!have_ptxas()) cr_skip_test("ptxas is not installed");
    char *text = slurp(s->path, NULL);
    char *want = header(text, "ptxas"), *arch = header(text, "ptxas-arch");
    cr_assert(want, "%s: no '// ptxas:' line", s->path);
    unsigned line = 0;
    int at = 0;
    const char *msg = want;
    if (sscanf(want, "line %u: %n", &line, &at) == 1 && at > 0) msg = want + at;
    /* ptxas names the file as it was given: run it from the corpus folder */
    char cmd[1200];
    const char *base = strrchr(s->path, '/') + 1;
    snprintf(cmd, sizeof cmd, "cd '%s' && ptxas -arch=%s '%s' -o /dev/null 2>&1", DIR, arch ? arch : "sm_90", base);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    char *out = NULL;
    size_t cap = 0, n = 0;
    FILE *mem = open_memstream(&out, &cap);
    char buf[4096];
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) fwrite(buf, 1, n, mem);
    fclose(mem);
    int st = pclose(p);
    cr_assert(st != 0 || strstr(out, "error") || strstr(out, "fatal"), "%s: ptxas accepts it:\n%s", s->path, out);
    cr_assert(strstr(out, msg), "%s: ptxas no longer says '%s':\n%s", s->path, msg, out);
    if (line) {
        char l1[64], l2[64];
        snprintf(l1, sizeof l1, ", line %u;", line);
        snprintf(l2, sizeof l2, "on line '%u'", line);
        cr_assert(strstr(out, l1) || strstr(out, l2), "%s: ptxas names another line than %u:\n%s", s->path, line, out);
    }
    free(out);
    free(want);
    free(arch);
    free(text);
}

/* `ptxi run` refuses them too, with the same exit status and the diagnostic */
Test(malformed, run_exits_1) {
    static const char *const picks[] = {"header_empty", "header_version_9_9", "neg_float_operand",
                                        "vector_mixed_sizes_ld", "round_fma_missing"};
    char out[] = "/tmp/ptxi-run-XXXXXX";
    int fd = mkstemp(out);
    cr_assert(fd >= 0);
    close(fd);
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "%s/bin/ptxi run '%s/%s.ptx' >'%s' 2>&1", PTXI_BINARY_DIR, DIR, picks[i], out);
        int st = system(cmd);
        char *text = slurp(out, NULL);
        cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s: ptxi run exited %d", picks[i], WEXITSTATUS(st));
        cr_expect(text && strstr(text, ": error: "), "%s: no diagnostic:\n%s", picks[i], text ? text : "");
        free(text);
    }
    unlink(out);
}
