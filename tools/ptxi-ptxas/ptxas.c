/* ptxas.c — `ptxi-ptxas`: stands in for NVIDIA's ptxas where a tool (Triton) assembles
 * PTX itself before loading it with cuModuleLoadData. It takes ptxas's command line,
 * checks the PTX with ptxi's front end (diagnostics worded as ptxas words them) and
 * writes the PTX text, NUL-terminated, as the output "cubin": cuModuleLoadData takes
 * PTX text on a GPU as in ptxi's libcuda.so.1, so the file needs no other wrapping. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* The CUDA release whose ptxas this one stands for. Triton reads it from --version
 * (`release X.Y`) and picks the PTX ISA from it: 13.0 -> PTX 9.0. */
#define PTXAS_RELEASE "13.0"

/* ptxas options that take a value as the next argument (or after `=`); others are flags.
 * Options that only steer code generation (optimisation, registers, caching) change
 * nothing here and are accepted as ptxas accepts them. */
static const char *const with_value[] = {
    "-o",
    "--output-file",
    "-arch",
    "--gpu-name",
    "-O",
    "--opt-level",
    "--maxrregcount",
    "-maxrregcount",
    "--regAllocOptLevel",
    "-def-load-cache",
    "--def-load-cache",
    "-def-store-cache",
    "--def-store-cache",
    "-dlcm",
    "-dscm",
    "--machine",
    "-m",
    "--entry",
    "-e",
    "--options-file",
    "-optf",
    "-fmad",
    "--fmad",
};

static bool takes_value(const char *opt) {
    for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; i++)
        if (!strcmp(opt, with_value[i])) return true;
    return false;
}

/* `ptxas fatal   : MSG 'ARG'`; returns ptxas's exit status for it. */
static int fatal(const char *msg, const char *arg) {
    fprintf(stderr, "ptxas fatal   : %s%s%s%s\n", msg, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    return 1;
}

static void print_version(void) {
    printf("ptxi-ptxas: ptxi's stand-in for ptxas (checks PTX and keeps it as PTX for ptxi's libcuda.so.1)\n"
           "Cuda compilation tools, release " PTXAS_RELEASE ", V" PTXAS_RELEASE ".0 (ptxi)\n");
}

static void usage(void) {
    printf("usage: ptxi-ptxas [ptxas options] FILE.ptx [-o OUTPUT]\n"
           "Checks FILE.ptx with ptxi's front end and writes it to OUTPUT (default elf.o) as the\n"
           "\"cubin\" ptxi's cuModuleLoadData loads. Accepts ptxas's options; those that steer\n"
           "code generation change nothing. --version answers like ptxas " PTXAS_RELEASE ".\n");
}

int main(int argc, char **argv) {
    const char *input = NULL, *output = "elf.o", *arch = "sm_90";
    bool verbose = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
            print_version();
            return 0;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            return 0;
        }
        if (a[0] != '-' || !a[1]) {
            if (input) return fatal("Only one input file is allowed, got another:", a);
            input = a;
            continue;
        }
        /* --name=value, -name=value, or -name value */
        char name[64];
        const char *eq = strchr(a, '='), *value = NULL;
        snprintf(name, sizeof name, "%.*s", (int)(eq ? (size_t)(eq - a) : strlen(a)), a);
        if (eq) {
            value = eq + 1;
        } else if (takes_value(name)) {
            if (i + 1 >= argc) return fatal("Missing value for option", a);
            value = argv[++i];
        }
        if (!strcmp(name, "-o") || !strcmp(name, "--output-file")) output = value;
        else if (!strcmp(name, "-arch") || !strcmp(name, "--gpu-name")) arch = value;
        else if (!strcmp(name, "-v") || !strcmp(name, "--verbose")) verbose = true;
    }
    if (!input) return fatal("No input files specified", NULL);
    size_t len;
    char *text = fe_read_file(input, &len);
    if (!text) {
        char why[300];
        snprintf(why, sizeof why, "%s (%s)", input, strerror(errno));
        return fatal("Could not open input file", why);
    }
    fe_diags d = {0};
    ir_module *m = fe_parse(text, len, input, &d);
    if (!d.nerrors) fe_validate(m, &d);
    fe_diags_print_ptxas(&d, stderr);
    int rc = d.nerrors ? 1 : 0;
    if (!rc && verbose)
        for (uint32_t i = 0; i < m->nfuncs; i++)
            if (m->funcs[i]->has_body)
                fprintf(stderr, "ptxas info    : Compiling %s function '%s' for '%s'\n",
                        m->funcs[i]->is_entry ? "entry" : "device", m->funcs[i]->name, arch);
    if (!rc) {
        FILE *f = fopen(output, "wb");
        /* with the NUL a loader needs to read the PTX as a C string */
        if (!f || fwrite(text, 1, len, f) != len || fputc(0, f) == EOF) {
            fprintf(stderr, "ptxas fatal   : Could not open output file '%s'\n", output);
            rc = 1;
        }
        if (f && fclose(f)) rc = 1;
    }
    fe_diags_free(&d);
    ir_module_free(m);
    free(text);
    return rc;
}
