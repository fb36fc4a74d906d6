/* cmd_check.c — `ptxi check FILE.ptx...`: parse and validate each file and
 * print every diagnostic; exit 0 when all are clean, 1 otherwise.
 * --print writes the parsed module back as PTX; --roundtrip also re-parses
 * that output and compares it with the first parse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static bool roundtrip(const ir_module *m, const char *path) {
    char *out = NULL;
    size_t outlen = 0;
    FILE *mem = open_memstream(&out, &outlen);
    ir_print(mem, m);
    fclose(mem);
    fe_diags d = {0};
    ir_module *m2 = fe_parse(out, outlen, path, &d);
    bool ok = d.nerrors == 0 && ir_equal(m, m2);
    if (d.nerrors) {
        fprintf(stderr, "%s: printed module does not parse:\n", path);
        fe_diags_print(&d, stderr);
    } else if (!ok) {
        fprintf(stderr, "%s: printed module parses to a different module\n", path);
    }
    fe_diags_free(&d);
    ir_module_free(m2);
    free(out);
    return ok;
}

int cmd_check(int argc, char **argv) {
    bool print = false, rt = false, quiet = false;
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--print")) {
            print = true;
            continue;
        }
        if (!strcmp(a, "--roundtrip")) {
            rt = true;
            continue;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: ptxi check [--print] [--roundtrip] [-q] FILE.ptx...\n");
            return 0;
        }
        files++;
        size_t len;
        char *text = fe_read_file(a, &len);
        if (!text) {
            fprintf(stderr, "ptxi: cannot read '%s'\n", a);
            bad++;
            continue;
        }
        fe_diags d = {0};
        ir_module *m = fe_parse(text, len, a, &d);
        if (!d.nerrors) fe_validate(m, &d);
        fe_diags_print(&d, stderr);
        if (d.nerrors) bad++;
        else if (rt && !roundtrip(m, a)) bad++;
        if (print && !d.nerrors) ir_print(stdout, m);
        if (!quiet && !d.nerrors) fprintf(stderr, "%s: ok\n", a);
        fe_diags_free(&d);
        ir_module_free(m);
        free(text);
    }
    if (!files) {
        fprintf(stderr, "usage: ptxi check FILE.ptx...\n");
        return 2;
    }
    return bad ? 1 : 0;
}
