/* test_simd_table.c — replays the GPU-recorded differential table of the SIMD
 * video, half/bf16 and fp8/packed-conversion forms (tests/simd/simd_table.txt,
 * written by gpu/jobs/simd_table on an H100) through alu_lookup_simd, bit for
 * bit, plus the exhaustive ex2/tanh recording on half types and the forms of
 * this family in the integer/f32 ALU's recording (tests/alu/alu_table.txt). */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alu.h"

#define TABLE PTXI_SOURCE_DIR "/tests/simd/simd_table.txt"
#define APPROX PTXI_SOURCE_DIR "/tests/simd/half_approx.txt.gz"
#define KNOWN PTXI_SOURCE_DIR "/tests/simd/known_deviations.txt"
#define ALU_TABLE PTXI_SOURCE_DIR "/tests/alu/alu_table.txt"

/* Forms whose GPU results the interpreter does not reproduce yet; they are
 * reported, and the test fails if one of them starts to match (so the list
 * shrinks) or if any other form differs. */
static char known[256][96];
static int nknown;

static void load_known(void) {
    FILE *f = fopen(KNOWN, "r");
    char line[256];
    nknown = 0;
    while (f && fgets(line, sizeof line, f) && nknown < 256)
        if (line[0] != '#' && sscanf(line, "%95s", known[nknown]) == 1) nknown++;
    if (f) fclose(f);
}

static int is_known(const char *mn) {
    for (int i = 0; i < nknown; i++)
        if (!strcmp(known[i], mn)) return i;
    return -1;
}

static uint64_t width_mask(unsigned bytes) { return bytes == 0 ? 1 : bytes >= 8 ? ~0ull : (1ull << 8 * bytes) - 1; }

/* Replays one table; forms alu_simd does not know are errors when `all`, else
 * skipped (a table of other families). Returns the number of forms replayed. */
static long replay(const char *path, bool all) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    load_known();
    static int known_bad[256];
    memset(known_bad, 0, sizeof known_bad);
    char line[512], cur[160] = "";
    alu_op op;
    int ok = 0, rows_in_form = 0, logged = 0;
    long rows = 0, forms = 0, bad_rows = 0, unknown = 0, short_forms = 0, bad_forms = 0, skipped = 0;
    bool form_bad = false;
    for (;;) {
        char mn[160];
        unsigned n;
        int pos = 0;
        bool eof = !fgets(line, sizeof line, f);
        if (eof || sscanf(line, "%159s %u |%n", mn, &n, &pos) != 2 || strcmp(mn, cur)) {
            if (cur[0] && ok) { /* close the previous form */
                if (all && rows_in_form < 64) short_forms++, cr_log_error("%s: only %d rows", cur, rows_in_form);
                int k = is_known(cur);
                if (k >= 0) known_bad[k] = form_bad ? 1 : -1;
                else if (form_bad) bad_forms++;
            }
            if (eof) break;
            if (pos == 0) continue;
            snprintf(cur, sizeof cur, "%s", mn);
            rows_in_form = 0, form_bad = false;
            ok = alu_lookup_simd(mn, n, &op);
            forms += ok;
            if (!ok && all) unknown++, cr_log_error("form not known: %s (%u operands)", mn, n);
        }
        rows_in_form++;
        if (!ok) continue;
        uint64_t s[6] = {0}, d[2] = {0}, e[2] = {0};
        uint32_t cc = 0;
        char *p = line + pos;
        for (int i = 0; i < op.ns; i++) s[i] = strtoull(p, &p, 16);
        p = strchr(p, '|');
        cr_assert(p, "malformed row: %s", line);
        p++;
        /* each destination is compared at the width it was recorded with (its
         * hex digits): an s8 result fills a .b16 or a .b32 register alike */
        unsigned digits[2] = {0, 0};
        for (int i = 0; i < op.nd; i++) {
            while (*p == ' ') p++;
            char *q = p;
            e[i] = strtoull(p, &p, 16);
            digits[i] = (unsigned)(p - q) - 2;
        }
        op.fn(&op, d, s, &cc);
        rows++;
        bool mism = false;
        for (int i = 0; i < op.nd; i++)
            mism |= (d[i] & width_mask(digits[i] == 1 && !op.dbytes[i] ? 0 : (digits[i] + 1) / 2)) != e[i];
        if (!mism) continue;
        form_bad = true;
        if (is_known(mn) >= 0) {
            skipped++;
            continue;
        }
        bad_rows++;
        if (logged++ < 40)
            cr_log_error("%s: got 0x%llx 0x%llx", strtok(line, "\n"), (unsigned long long)d[0],
                         (unsigned long long)d[1]);
    }
    fclose(f);
    int stale = 0;
    for (int i = 0; i < nknown && all; i++)
        if (known_bad[i] != 1)
            stale++, cr_log_error("listed as a known deviation but %s: %s",
                                  known_bad[i] ? "matches now" : "not in the table", known[i]);
    cr_log_info("%s: %ld forms, %ld rows replayed, %d known deviations (%ld rows)", path, forms, rows, nknown, skipped);
    cr_expect_eq(unknown, 0, "%ld forms not recognised", unknown);
    cr_expect_eq(short_forms, 0, "%ld forms with fewer than 64 rows", short_forms);
    cr_expect_eq(stale, 0, "known_deviations.txt is stale");
    cr_expect_eq(bad_rows, 0, "%s: %ld rows in %ld forms differ from the GPU", path, bad_rows, bad_forms);
    return forms;
}

Test(simd_table, gpu_recording_replays_bit_exact, .timeout = 300) {
    long forms = replay(TABLE, true);
    if (forms < 0) cr_skip_test("no GPU recording yet: run gpu/jobs/simd_table and copy simd_table.txt to tests/simd/");
    cr_expect_gt(forms, 1000);
}

/* The integer/f32 ALU's recording holds some half and packed forms too. */
Test(simd_table, alu_table_forms_of_this_family, .timeout = 300) {
    long forms = replay(ALU_TABLE, false);
    if (forms < 0) cr_skip_test("no tests/alu/alu_table.txt");
    cr_expect_gt(forms, 0);
}

Test(simd_table, half_approx_exhaustive, .timeout = 120) {
    FILE *f = popen("gzip -dc " APPROX " 2>/dev/null", "r");
    char line[256];
    if (!f || !fgets(line, sizeof line, f)) {
        if (f) pclose(f);
        cr_skip_test("no exhaustive ex2/tanh recording (tests/simd/half_approx.txt.gz)");
    }
    long checked = 0, bad = 0;
    char cur[64] = "";
    alu_op op;
    do {
        char name[64];
        unsigned start, v[16];
        if (sscanf(line, "%63s 0x%x: %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x", name, &start, &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12], &v[13], &v[14],
                   &v[15]) != 18)
            continue;
        if (strcmp(name, cur)) {
            snprintf(cur, sizeof cur, "%s", name);
            cr_assert(alu_lookup_simd(name, 2, &op), "%s not known", name);
        }
        for (unsigned i = 0; i < 16; i++) {
            uint64_t s[1] = {start + i}, d[1] = {0};
            uint32_t cc = 0;
            op.fn(&op, d, s, &cc);
            checked++;
            if (d[0] != v[i] && bad++ < 20)
                cr_log_error("%s 0x%04x: got 0x%04llx, GPU 0x%04x", name, start + i, (unsigned long long)d[0], v[i]);
        }
    } while (fgets(line, sizeof line, f));
    pclose(f);
    cr_expect_eq(checked, 4 * 65536);
    cr_expect_eq(bad, 0, "%ld of %ld approximations differ from the GPU", bad, checked);
}
