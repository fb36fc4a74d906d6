/* test_eval_table.c — `ptxi eval --table` replays the GPU-recorded ALU and SIMD
 * differential tables through the whole pipeline (generated PTX, front end,
 * lowering, interpreter) and must print them back unchanged: every row of a
 * non-approximate form bit for bit, except the forms listed, with their
 * reason, in known_exceptions.txt. */
#include <criterion/criterion.h>
#include <time.h>

#include "eval_run.h"

/* How long a table may take: ThreadSanitizer's instrumentation makes the run
 * several times slower. */
#ifdef __SANITIZE_THREAD__
#define TABLE_SECONDS 300
#else
#define TABLE_SECONDS 60
#endif

#define MAXK 512
static char known[MAXK][128];
static int nknown;
static int known_hit[MAXK], known_seen[MAXK];

static void load_known(void) {
    FILE *f = fopen(PTXI_SOURCE_DIR "/tests/eval/known_exceptions.txt", "r");
    cr_assert(f, "known_exceptions.txt");
    char line[256];
    nknown = 0;
    while (fgets(line, sizeof line, f) && nknown < MAXK) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] && line[0] != '#') snprintf(known[nknown++], sizeof known[0], "%.127s", line);
    }
    fclose(f);
}

static int known_index(const char *mn) {
    for (int i = 0; i < nknown; i++)
        if (!strcmp(known[i], mn)) return i;
    return -1;
}

/* Approximate instructions: the PTX ISA states error bounds, not bits
 * (tests/alu checks those bounds); here they are only counted. */
static bool approximate(const char *mn) { return strstr(mn, ".approx") || !strncmp(mn, "div.full", 8); }

static char *next_line(char **p) {
    if (!**p) return NULL;
    char *l = *p, *nl = strchr(l, '\n');
    if (nl) {
        *nl = 0;
        *p = nl + 1;
    } else *p += strlen(l);
    return l;
}

static void replay(const char *rel) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", PTXI_SOURCE_DIR, rel);
    load_known();
    memset(known_hit, 0, sizeof known_hit);
    memset(known_seen, 0, sizeof known_seen);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ev_result r = PTXI("eval", "--table", path);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    char *want = slurp(path, NULL);
    cr_assert(want, "%s", path);
    char *pw = want, *pg = r.out, *lw, *lg;
    long rows = 0, approx = 0, in_known = 0, unexpected = 0;
    char last_bad[128] = "";
    while ((lw = next_line(&pw))) {
        lg = next_line(&pg);
        rows++;
        char mn[128] = "";
        sscanf(lw, "%127s", mn);
        int k = known_index(mn);
        if (k >= 0) known_seen[k] = 1;
        if (lg && !strcmp(lw, lg)) continue;
        if (approximate(mn)) approx++;
        else if (k >= 0) {
            in_known++;
            known_hit[k] = 1;
        } else {
            if (unexpected < 20 && strcmp(last_bad, mn))
                cr_log_error("%s\n  GPU:  %s\n  ptxi: %s", rel, lw, lg ? lg : "(missing)");
            snprintf(last_bad, sizeof last_bad, "%s", mn);
            unexpected++;
        }
    }
    cr_log_info("%s: %ld rows in %.2f s; differing rows: %ld approximate, %ld in known exceptions, %ld unexpected", rel,
                rows, secs, approx, in_known, unexpected);
    for (int k = 0; k < nknown; k++)
        if (known_seen[k] && !known_hit[k])
            cr_log_warn("%s is reproduced now: remove it from known_exceptions.txt", known[k]);
    cr_expect_eq(unexpected, 0, "%s: %ld rows of non-approximate forms differ from the GPU", rel, unexpected);
    cr_expect(next_line(&pg) == NULL, "ptxi printed more lines than %s has", rel);
    cr_expect(secs < TABLE_SECONDS, "%s took %.1f s", rel, secs);
    free(want);
}

Test(eval_table, alu_table, .timeout = 300) { replay("tests/alu/alu_table.txt"); }

Test(eval_table, simd_table, .timeout = 300) { replay("tests/simd/simd_table.txt"); }

/* A row whose destinations differ from what the table says is marked, and the
 * exit status is 1: 2 + 3 = 5, so the second row's 0x6 is wrong. */
Test(eval_table, mismatch_marked_exit_1) {
    char path[128];
    snprintf(path, sizeof path, "/tmp/ptxi_eval_mismatch_%d.txt", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("add.u32 3 | 0x2 0x3 | 0x5\nadd.u32 3 | 0x2 0x3 | 0x6\n", f);
    fclose(f);
    ev_result r = PTXI("eval", "--table", path);
    cr_expect_eq(r.rc, 1, "%s", r.err);
    cr_expect_str_eq(r.out, "add.u32 3 | 0x2 0x3 | 0x5\nadd.u32 3 | 0x2 0x3 | 0x5   # differs, table: 0x6\n");
    f = fopen(path, "w");
    cr_assert(f);
    fputs("add.u32 3 | 0x2 0x3 | 0x5\n", f);
    fclose(f);
    r = PTXI("eval", "--table", path);
    cr_expect_eq(r.rc, 0, "%s", r.err);
    remove(path);
}
