/* ptx_files.h — for the front-end tests that run over a corpus: the .ptx
 * files under some folders as Criterion parameters, diagnostics as text. */
#ifndef PTXI_TEST_PTX_FILES_H
#define PTXI_TEST_PTX_FILES_H

#include <criterion/alloc.h>
#include <criterion/parameterized.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

typedef struct {
    char path[512];
} sample;

static char (*ptx_found)[512];
static size_t ptx_nfound, ptx_capfound;

static int ptx_collect(const char *path, const struct stat *sb, int type, struct FTW *ftw) {
    (void)sb, (void)ftw;
    size_t n = strlen(path);
    if (type == FTW_F && n > 4 && n < 512 && !strcmp(path + n - 4, ".ptx")) {
        if (ptx_nfound == ptx_capfound)
            ptx_found = realloc(ptx_found, (ptx_capfound = ptx_capfound ? 2 * ptx_capfound : 64) * sizeof *ptx_found);
        strcpy(ptx_found[ptx_nfound++], path);
    }
    return 0;
}

static void ptx_free_params(struct criterion_test_params *crp) { cr_free(crp->params); }

/* every .ptx under the NULL-terminated list of folders, one parameter each */
static struct criterion_test_params ptx_files(const char *const *dirs) {
    ptx_nfound = 0;
    for (; *dirs; dirs++) nftw(*dirs, ptx_collect, 16, FTW_PHYS);
    sample *v = cr_malloc((ptx_nfound ? ptx_nfound : 1) * sizeof *v);
    for (size_t i = 0; i < ptx_nfound; i++) strcpy(v[i].path, ptx_found[i]);
    return cr_make_param_array(sample, v, ptx_nfound, ptx_free_params);
}

/* the diagnostics as fe_diags_print writes them (malloc'd) */
static char *diag_text(const fe_diags *d) {
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    fe_diags_print(d, f);
    fclose(f);
    return out;
}

#endif
