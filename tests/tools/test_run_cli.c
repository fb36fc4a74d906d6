/* test_run_cli.c — `ptxi run`'s choice of kernel (PTX name, demangled name,
 * unique prefix, the list when none or several match) and its strict number
 * parsing of options, --arg values and the environment (exit status 2). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../read_file.h"
#include "numparse.h"

#define PTXI PTXI_BINARY_DIR "/bin/ptxi"
#define WORK PTXI_BINARY_DIR "/run-cli-tests"
#define SIX PTXI_SOURCE_DIR "/tests/frontend/corpus/t2.sm_80.ptx" /* six kernels, C++ names */
#define TWO PTXI_SOURCE_DIR "/tests/frontend/corpus/t1.sm_90.ptx" /* k(int*, ...), kc(float*) */

static char *run(const char *cmd, int *rc) {
    char full[2048], file[256];
    snprintf(file, sizeof file, WORK "/out.%d.txt", (int)getpid()); /* the tests run in parallel */
    snprintf(full, sizeof full, "mkdir -p " WORK " && %s > %s 2>&1", cmd, file);
    int r = system(full);
    *rc = WIFEXITED(r) ? WEXITSTATUS(r) : -1;
    char *out = slurp(file, NULL);
    remove(file);
    return out ? out : strdup("");
}

static void expect_refused(const char *cmd, const char *msg) {
    int rc;
    char *out = run(cmd, &rc);
    cr_expect_eq(rc, 2, "%s: rc %d\n%s", cmd, rc, out);
    cr_expect(strstr(out, msg), "%s: wanted '%s' in\n%s", cmd, msg, out);
    free(out);
}

Test(run_cli, several_kernels_are_listed) {
    int rc;
    char *out = run(PTXI " run " SIX, &rc);
    cr_expect_eq(rc, 2);
    cr_expect(strstr(out, "has several kernels"), "%s", out);
    cr_expect(strstr(out, "  _Z4mmakPjPKj  (mmak(unsigned int*, unsigned int const*))\n"), "%s", out);
    cr_expect(strstr(out, "  _Z4surfy  (surf(unsigned long long))\n"), "%s", out);
    free(out);
    out = run(PTXI " run " SIX " --kernel nope", &rc);
    cr_expect_eq(rc, 2);
    cr_expect(strstr(out, "has no kernel named 'nope'; its kernels:\n  _Z2wmPK6__halfS1_Pf"), "%s", out);
    free(out);
}

/* The kernel is found by each spelling: the parameter count check names it. */
Test(run_cli, kernel_by_demangled_name_or_prefix) {
    static const char *spell[] = {"_Z2kcPf", "kc", "kc(float*)", "_Z2kc"};
    for (size_t i = 0; i < sizeof spell / sizeof spell[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, PTXI " run " TWO " --kernel '%s' -a null -a null", spell[i]);
        expect_refused(cmd, "kernel '_Z2kcPf' takes 1 parameters, 2 given");
    }
    /* "k" is the whole name of k(int*, ...), so not a prefix of kc */
    expect_refused(PTXI " run " TWO " --kernel k", "kernel '_Z1kPiyyi' takes 4 parameters, 0 given");
    /* "_Z" is a prefix of both */
    expect_refused(PTXI " run " TWO " --kernel _Z", "'_Z' names several kernels");
}

Test(run_cli, numbers_are_parsed_strictly) {
    expect_refused(PTXI " run " TWO " -k kc -a null --timeout abc", "bad --timeout 'abc'");
    expect_refused(PTXI " run " TWO " -k kc -a null --timeout 1x", "bad --timeout '1x'");
    expect_refused(PTXI " run " TWO " -k kc -a null --threads abc", "bad --threads 'abc'");
    expect_refused(PTXI " run " TWO " -k kc -a null --threads -1", "bad --threads '-1'");
    expect_refused(PTXI " run " TWO " -k kc -a null --shared 12k", "bad --shared '12k'");
    expect_refused(PTXI " run " TWO " -k kc -a null --grid 2,x", "bad --grid '2,x'");
    expect_refused(PTXI " run " TWO " -k kc -a null --block 99999999999", "bad --block '99999999999'");
    expect_refused(PTXI " run " TWO " -k k -a null -a u32:99999999999 -a u64:0 -a s32:0",
                   "bad value in --arg u32:99999999999");
    expect_refused(PTXI " run " TWO " -k k -a null -a u8:256 -a u64:0 -a s32:0", "bad value in --arg u8:256");
    expect_refused(PTXI " run " TWO " -k k -a null -a s8:-129 -a u64:0 -a s32:0", "bad value in --arg s8:-129");
    expect_refused(PTXI " run " TWO " -k k -a null -a u32:-1 -a u64:0 -a s32:0", "bad value in --arg u32:-1");
    expect_refused(PTXI " run " TWO " -k k -a null -a f32:1.5q -a u64:0 -a s32:0",
                   "bad floating-point value in --arg f32:1.5q");
    expect_refused("PTXI_THREADS=abc " PTXI " run " TWO " -k kc -a null", "PTXI_THREADS=abc: expected a whole number");
}

Test(numparse, ranges_and_junk) {
    uint64_t u;
    int64_t s;
    double d;
    cr_expect(num_parse_u64("0xff", 255, &u) && u == 255);
    cr_expect(!num_parse_u64("256", 255, &u));
    cr_expect(!num_parse_u64(" 1", 255, &u));
    cr_expect(!num_parse_u64("+1", 255, &u));
    cr_expect(!num_parse_u64("18446744073709551616", UINT64_MAX, &u));
    cr_expect(num_parse_u64("18446744073709551615", UINT64_MAX, &u) && u == UINT64_MAX);
    cr_expect(num_parse_s64("-128", -128, 127, &s) && s == -128);
    cr_expect(!num_parse_s64("-129", -128, 127, &s));
    cr_expect(!num_parse_s64("128", -128, 127, &s));
    cr_expect(num_parse_s64("-9223372036854775808", INT64_MIN, INT64_MAX, &s) && s == INT64_MIN);
    cr_expect(!num_parse_s64("--1", INT64_MIN, INT64_MAX, &s));
    cr_expect(num_parse_double("2.5e-1", &d) && d == 0.25);
    cr_expect(!num_parse_double("", &d));
    cr_expect(!num_parse_double("inf", &d));
    cr_expect(!num_parse_double("1.0f", &d));
}
