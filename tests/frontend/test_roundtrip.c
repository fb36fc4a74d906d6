/* test_roundtrip.c — every .ptx under ptx-samples/ and tests/frontend/corpus/
 * must parse and validate without a diagnostic, and print back as PTX that
 * parses to an equal module. One parameterized test; a failure names the file. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "../read_file.h"
#include "ptx_files.h"

ParameterizedTestParameters(frontend, roundtrip) {
    static const char *const dirs[] = {PTXI_SOURCE_DIR "/ptx-samples", PTXI_SOURCE_DIR "/tests/frontend/corpus", NULL};
    return ptx_files(dirs);
}

ParameterizedTest(sample *s, frontend, roundtrip) {
    size_t len = 0;
    char *text = slurp(s->path, &len);
    cr_assert(text, "cannot read %s", s->path);
    fe_diags d = {0};
    ir_module *m = fe_parse(text, len, s->path, &d);
    if (!d.nerrors) fe_validate(m, &d);
    cr_assert_eq(d.nerrors, 0, "%s does not check clean:\n%s", s->path, diag_text(&d));
    cr_assert(m->nfuncs > 0 || m->nglobals > 0, "%s: empty module", s->path);

    char *out = NULL;
    size_t outlen = 0;
    FILE *mem = open_memstream(&out, &outlen);
    ir_print(mem, m);
    fclose(mem);
    fe_diags d2 = {0};
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
