/* fuzz_parse.c — libFuzzer target: any bytes go through fe_parse, fe_validate
 * and ir_print; a module that parsed clean must print to PTX that parses
 * clean and compares equal. Crashes, leaks and sanitizer reports are bugs. */
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    fe_diags d = {0};
    ir_module *m = fe_parse((const char *)data, size, "fuzz.ptx", &d);
    if (!d.nerrors) fe_validate(m, &d);
    FILE *devnull = fopen("/dev/null", "w");
    fe_diags_print(&d, devnull);
    if (!d.nerrors) {
        char *out = NULL;
        size_t outlen = 0;
        FILE *mem = open_memstream(&out, &outlen);
        ir_print(mem, m);
        fclose(mem);
        fe_diags d2 = {0};
        ir_module *m2 = fe_parse(out, outlen, "printed.ptx", &d2);
        if (d2.nerrors || !ir_equal(m, m2)) {
            fe_diags_print(&d2, stderr);
            fprintf(stderr, "round trip failed; printed module:\n%s\n", out);
            abort();
        }
        fe_diags_free(&d2);
        ir_module_free(m2);
        free(out);
    }
    fclose(devnull);
    fe_diags_free(&d);
    ir_module_free(m);
    return 0;
}
