/* test_eval_roundtrip.c — `ptxi eval` against a real GPU: the cases of
 * gpu/jobs/eval_roundtrip/cases.txt print exactly what their --emit-cuda
 * programs printed on an H200 (tests/eval/gpu/NAME.txt); the committed programs
 * are what ptxi emits today; and an emitted program compiles with nvcc. */
#include <criterion/criterion.h>

#include "eval_run.h"

#define JOB PTXI_SOURCE_DIR "/gpu/jobs/eval_roundtrip"

typedef struct ecase {
    char name[64];
    char *args[32];
    int nargs;
} ecase;

static int load_cases(ecase *cs, int max) {
    FILE *f = fopen(JOB "/cases.txt", "r");
    cr_assert(f, "cases.txt");
    static char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        ecase *c = &cs[n++];
        char *save, *tok = strtok_r(line, "\t", &save);
        snprintf(c->name, sizeof c->name, "%s", tok);
        c->nargs = 0;
        c->args[c->nargs++] = "eval";
        while ((tok = strtok_r(NULL, "\t", &save)) && c->nargs < 28) c->args[c->nargs++] = strdup(tok);
    }
    fclose(f);
    return n;
}

static ev_result run_case(ecase *c, const char *emit) {
    const char *argv[40];
    int n = 0;
    for (int i = 0; i < c->nargs; i++) argv[n++] = c->args[i];
    if (emit) {
        argv[n++] = "--emit-cuda";
        argv[n++] = emit;
    }
    argv[n] = NULL;
    return ptxi_run(argv);
}

Test(eval_gpu, matches_recording) {
    ecase cs[32];
    int n = load_cases(cs, 32), compared = 0;
    cr_assert_gt(n, 0);
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/eval/gpu/%.63s.txt", PTXI_SOURCE_DIR, cs[i].name);
        char *gpu = slurp(path, NULL);
        cr_expect(gpu, "no GPU recording %s (run gpu/jobs/eval_roundtrip)", path);
        if (!gpu) continue;
        ev_result r = run_case(&cs[i], NULL);
        cr_expect_eq(r.rc, 0, "%s: %s", cs[i].name, r.err);
        cr_expect_str_eq(r.out, gpu, "%s differs from the GPU", cs[i].name);
        compared++;
        free(gpu);
    }
    cr_log_info("%d cases compared with the GPU recording", compared);
}

/* The committed .cu files are what ptxi emits now, so the recording belongs to them. */
Test(eval_gpu, committed_programs_current) {
    ecase cs[32];
    int n = load_cases(cs, 32);
    for (int i = 0; i < n; i++) {
        char tmp[256], committed[512];
        snprintf(tmp, sizeof tmp, "/tmp/ptxi_eval_emit_%d_%.63s.cu", (int)getpid(), cs[i].name);
        snprintf(committed, sizeof committed, "%s/%.63s.cu", JOB, cs[i].name);
        ev_result r = run_case(&cs[i], tmp);
        cr_expect_eq(r.rc, 0, "%s: %s", cs[i].name, r.err);
        char *a = slurp(tmp, NULL), *b = slurp(committed, NULL);
        cr_expect(a && b && !strcmp(a, b), "%s: the committed program is not what ptxi emits (run gen.sh)", cs[i].name);
        free(a);
        free(b);
        unlink(tmp);
    }
}

Test(eval_gpu, emitted_program_compiles) {
    if (system("command -v nvcc > /dev/null 2>&1")) cr_skip_test("skipped: nvcc not found");
    char cu[256], bin[256], cmd[1024];
    snprintf(cu, sizeof cu, "/tmp/ptxi_eval_nvcc_%d.cu", (int)getpid());
    snprintf(bin, sizeof bin, "/tmp/ptxi_eval_nvcc_%d", (int)getpid());
    ev_result r = PTXI("eval", "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 0x1f, 0xffffffff; @%p1 add.f32 %f1, %f2, 1.0;",
                       "--lanes", "32", "%r2=lane", "%f2=lane*2", "--emit-cuda", cu);
    cr_assert_eq(r.rc, 0, "%s", r.err);
    snprintf(cmd, sizeof cmd, "nvcc -arch=sm_90 -o %s %s > %s.log 2>&1", bin, cu, bin);
    int rc = system(cmd);
    char logp[300];
    snprintf(logp, sizeof logp, "%s.log", bin);
    char *log = slurp(logp, NULL);
    cr_expect_eq(rc, 0, "nvcc failed:\n%s", log ? log : "");
    free(log);
    unlink(cu);
    unlink(bin);
    unlink(logp);
}

/* An mma asm() with "f" fragments: the harness declares them .b32, which ptxas
 * takes where it rejects .f32 registers. Ones times ones over k = 8, plus 1: 9.
 * Then harnesses with pointer operands, which nvcc must compile too. */
Test(eval_gpu, mma_and_pointer_harnesses_compile) {
    static const char snippet[] =
        "asm(\"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\""
        " : \"=f\"(d0), \"=f\"(d1), \"=f\"(d2), \"=f\"(d3) : \"r\"(a0), \"r\"(a1), \"r\"(b0),"
        " \"f\"(c0), \"f\"(c1), \"f\"(c2), \"f\"(c3));";
    ev_result r = PTXI("eval", snippet, "--lanes", "32", "a0=0x3c003c00", "a1=0x3c003c00", "b0=0x3c003c00", "c0=1",
                       "c1=1", "c2=1", "c3=1");
    cr_assert_eq(r.rc, 0, "%s", r.err);
    cr_expect(!strncmp(r.out, "lane 0: d0 = 0x41100000 (9)\n", 28), "%s", r.out);
    if (system("command -v nvcc > /dev/null 2>&1")) cr_skip_test("skipped: nvcc not found");
    char cu[256], obj[256], cmd[1024];
    snprintf(cu, sizeof cu, "/tmp/ptxi_eval_mma_%d.cu", (int)getpid());
    snprintf(obj, sizeof obj, "/tmp/ptxi_eval_mma_%d.o", (int)getpid());
    r = PTXI("eval", snippet, "--lanes", "32", "a0=0x3c003c00", "a1=0x3c003c00", "b0=0x3c003c00", "c0=1", "c1=1",
             "c2=1", "c3=1", "--emit-cuda", cu);
    cr_assert_eq(r.rc, 0, "%s", r.err);
    snprintf(cmd, sizeof cmd, "nvcc -arch=sm_90 -c -o %s %s > /dev/null 2>&1", obj, cu);
    cr_expect_eq(system(cmd), 0, "nvcc rejects the mma harness %s", cu);
    /* pointer operands into global and shared --mem buffers, and a bit-cast operand */
    r = PTXI("eval", "asm volatile(\"atom.global.add.u32 %0, [%1], 5;\" : \"=r\"(old) : \"l\"(p));", "--mem",
             "p=zeros:8", "--emit-cuda", cu);
    cr_assert_eq(r.rc, 0, "%s", r.err);
    cr_expect_eq(system(cmd), 0, "nvcc rejects the global pointer harness %s", cu);
    r = PTXI("eval",
             "asm volatile(\"atom.shared.add.u32 %0, [%1+4], %2;\" : \"=r\"(old) : \"r\"(p), "
             "\"r\"(__float_as_uint(f)));",
             "--lanes", "4", "--mem", "shared:p=zeros:8", "f=1.5", "--emit-cuda", cu);
    cr_assert_eq(r.rc, 0, "%s", r.err);
    cr_expect_eq(system(cmd), 0, "nvcc rejects the shared pointer harness %s", cu);
    unlink(cu);
    unlink(obj);
}
