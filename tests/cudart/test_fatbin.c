/* test_fatbin.c — the PTX that libcudart.so.13 takes out of a program's fatbinary must be
 * the PTX nvcc generated (kept with --keep), for every way of building: default arch,
 * sm_90, compute_80 only, several PTX archs (the best for sm_90 is chosen), zstd, LZ4
 * and no compression, debug (-G) and line information. A SASS-only build is refused with advice on how to rebuild. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <ctype.h>

#include "harness.h"

#define PROGRAMS PTXI_SOURCE_DIR "/tests/cudart/programs"

typedef struct {
    char id[32];
    char flags[200];
    unsigned arch; /* the compute_XX whose PTX must be chosen */
    int single;    /* nvcc keeps probe.ptx (one PTX) rather than probe.compute_XX.ptx */
} variant;

ParameterizedTestParameters(fatbin, extracts_nvcc_ptx) {
    static variant v[] = {
        {"default", "", 75, 1},
        {"sm90", "-arch=sm_90", 90, 1},
        {"compute80", "-gencode arch=compute_80,code=compute_80", 80, 1},
        {"zstd_all", "-arch=sm_90 -Xfatbin=-compress-all", 90, 1},
        {"size", "-arch=sm_90 -compress-mode=size", 90, 1},
        {"lz4", "-arch=sm_90 -compress-mode=speed", 90, 1},
        {"none", "-arch=sm_90 -no-compress", 90, 1},
        {"debug", "-arch=sm_90 -G", 90, 1},
        {"lineinfo", "-arch=sm_90 -lineinfo", 90, 1},
        {"multi",
         "-gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=compute_90 "
         "-gencode arch=compute_100,code=compute_100",
         90, 0},
        {"above_only", "-gencode arch=compute_100,code=compute_100 -gencode arch=compute_120,code=compute_120", 100, 0},
        {"with_sass",
         "-gencode arch=compute_80,code=sm_80 -gencode arch=compute_80,code=compute_80 "
         "-gencode arch=compute_90,code=sm_90",
         80, 0},
    };
    return cr_make_param_array(variant, v, sizeof v / sizeof v[0]);
}

/* PTX with comments dropped and every run of white space made one blank: the
 * fatbinary holds the text that way. */
static char *normalize(const char *s) {
    char *out = malloc(strlen(s) + 1), *o = out;
    int blank = 0;
    while (*s) {
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n') s++;
            continue;
        }
        if (isspace((unsigned char)*s)) {
            blank = 1;
            s++;
            continue;
        }
        if (blank && o != out) *o++ = ' ';
        blank = 0;
        *o++ = *s++;
    }
    *o = 0;
    return out;
}

ParameterizedTest(variant *v, fatbin, extracts_nvcc_ptx, .timeout = 300) {
    NEED_NVCC_AND_LIBRARY();
    char dir[512], bin[600];
    snprintf(dir, sizeof dir, WORK_DIR "/fatbin-%s", v->id);
    snprintf(bin, sizeof bin, "%s/probe", dir);
    cr_assert_eq(sh("rm -rf '%s' && mkdir -p '%s/dump' && cd '%s' && nvcc --keep %s -cudart shared -o probe " PROGRAMS
                    "/probe.cu > build.log 2>&1",
                    dir, dir, dir, v->flags),
                 0, "nvcc failed: %s/build.log", dir);
    char env[600];
    snprintf(env, sizeof env, "PTXI_DUMP_PTX='%s/dump'", dir);
    run_result r = run_program(dir, bin, env);
    cr_assert_eq(r.rc, 0, "probe failed: %s", r.err);

    char path[700];
    snprintf(path, sizeof path, "%s/dump/probe.0.compute_%u.ptx", dir, v->arch);
    char *got = slurp(path, NULL);
    cr_assert(got, "no PTX for compute_%u was extracted (expected %s)", v->arch, path);
    if (v->single) snprintf(path, sizeof path, "%s/probe.ptx", dir);
    else snprintf(path, sizeof path, "%s/probe.compute_%u.ptx", dir, v->arch);
    char *want = slurp(path, NULL);
    cr_assert(want, "nvcc kept no %s", path);
    cr_expect_str_eq(normalize(got), normalize(want), "extracted PTX differs from %s", path);
}

Test(fatbin, sass_only_is_refused_with_advice, .timeout = 300) {
    NEED_NVCC_AND_LIBRARY();
    const char *bin = build(PROGRAMS, "vadd.cu", "-gencode arch=compute_90,code=sm_90", "vadd.sass_only");
    run_result r = run_program(PROGRAMS, bin, NULL);
    cr_expect_str_eq(r.out, "");
    cr_expect(strstr(r.err, "holds no PTX"), "stderr: %s", r.err);
    cr_expect(strstr(r.err, "-arch=compute_90"), "stderr: %s", r.err);
    cr_expect(strstr(r.err, "no kernel image is available for execution on the device"), "stderr: %s", r.err);
    cr_expect_eq(r.rc, 1);
}
