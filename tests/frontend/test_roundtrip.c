/* test_roundtrip.c — every .ptx under ptx-samples/ and tests/frontend/corpus/
 * must parse and validate without a diagnostic, and print back as PTX that
 * parses to an equal module. One parameterized test; a failure names the file. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/alloc.h>
#include <criterion/parameterized.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "../read_file.h"

typedef struct { char path[512]; } sample;

static char (*found)[512];
static size_t nfound, capfound;

static int collect(const char *path, const struct stat *sb, int type, struct FTW *ftw) {
    (void)sb, (void)ftw;
    size_t n = strlen(path);
    if (type == FTW_F && n > 4 && n < 512 && !strcmp(path + n - 4, ".ptx")) {
        if (nfound == capfound)
            found = realloc(found, (capfound = capfound ? 2 * capfound : 64) * sizeof *found);
        strcpy(found[nfound++], path);
    }
    return 0;
}

static void free_params(struct criterion_test_params *crp) { cr_free(crp->params); }

ParameterizedTestParameters(frontend, roundtrip) {
    nftw(PTXI_SOURCE_DIR "/ptx-samples", collect, 16, FTW_PHYS);
    nftw(PTXI_SOURCE_DIR "/tests/frontend/corpus", collect, 16, FTW_PHYS);
    sample *v = cr_malloc(nfound * sizeof *v);
    for (size_t i = 0; i < nfound; i++)
        strcpy(v[i].path, found[i]);
    return cr_make_param_array(sample, v, nfound, free_params);
}


static char *diag_text(const fe_diags *d) {
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    fe_diags_print(d, f);
    fclose(f);
    return out;
}

ParameterizedTest(sample *s, frontend, roundtrip) {
    size_t len = 0;
    char *text = slurp(s->path, &len);
    cr_assert(text, "cannot read %s", s->path);
    fe_diags d = { 0 };
    ir_module *m = fe_parse(text, len, s->path, &d);
    if (!d.nerrors)
        fe_validate(m, &d);
    cr_assert_eq(d.nerrors, 0, "%s does not check clean:\n%s", s->path, diag_text(&d));
    cr_assert(m->nfuncs > 0 || m->nglobals > 0, "%s: empty module", s->path);

    char *out = NULL;
    size_t outlen = 0;
    FILE *mem = open_memstream(&out, &outlen);
    ir_print(mem, m);
    fclose(mem);
    fe_diags d2 = { 0 };
    ir_module *m2 = fe_parse(out, outlen, "printed.ptx", &d2);
    cr_assert_eq(d2.nerrors, 0, "%s: printed module does not parse:\n%s", s->path, diag_text(&d2));
    cr_assert(ir_equal(m, m2), "%s: printed module parses to a different module", s->path);

    /* and printing is a fixed point */
    char *out2 = NULL;
    size_t outlen2 = 0;
    mem = open_memstream(&out2, &outlen2);
    ir_print(mem, m2);
    fclose(mem);
    cr_assert(outlen == outlen2 && !memcmp(out, out2, outlen), "%s: second print differs", s->path);

    free(out);
    free(out2);
    fe_diags_free(&d);
    fe_diags_free(&d2);
    ir_module_free(m);
    ir_module_free(m2);
    free(text);
}
