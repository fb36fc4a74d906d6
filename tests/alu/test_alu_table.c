/* test_alu_table.c — replays the differential table recorded on the GPU
 * (tests/alu/alu_table.txt, format in tests/alu/README.md) through alu_lookup:
 * every form must match bit for bit, the .approx ones included (none is left
 * marked approximate). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alu.h"
#include "alu_core.h"

#define TABLE PTXI_SOURCE_DIR "/tests/alu/alu_table.txt"

typedef struct {
    char mn[64];
    unsigned nopnds, ns, nd;
    uint64_t s[8], d[4];
} row;

static int parse(const char *line, row *r) {
    int n = 0;
    memset(r, 0, sizeof *r);
    if (sscanf(line, "%63s %u |%n", r->mn, &r->nopnds, &n) != 2) return 0;
    const char *p = line + n;
    uint64_t *dst = r->s;
    unsigned *cnt = &r->ns;
    for (;;) {
        while (*p == ' ') p++;
        if (*p == '|') {
            dst = r->d;
            cnt = &r->nd;
            p++;
            continue;
        }
        if (*p == '\n' || !*p) break;
        char *e;
        uint64_t v = strtoull(p, &e, 16);
        if (e == p || *cnt >= (dst == r->s ? 8u : 4u)) return 0;
        dst[(*cnt)++] = v;
        p = e;
    }
    return 1;
}

static uint64_t reg_mask(uint8_t bytes) {
    return bytes == 0 ? 1 : bytes == 1 ? 0xffffffffu : bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

Test(alu_table, replay) {
    FILE *f = fopen(TABLE, "r");
    if (!f) cr_skip_test("no GPU recording at %s yet (run gpu/jobs/alu_table)", TABLE);
    char line[512], last_bad[64] = "";
    bool verbose = getenv("ALU_TABLE_VERBOSE") != NULL; /* every mismatch, not one per form */
    long rows = 0, exact = 0, approx = 0, bad = 0, unknown = 0, badforms = 0;
    while (fgets(line, sizeof line, f)) {
        row r;
        cr_assert(parse(line, &r), "unparsable table line: %s", line);
        rows++;
        alu_op op;
        if (!alu_lookup(r.mn, r.nopnds, &op)) {
            if (strcmp(last_bad, r.mn)) fprintf(stderr, "unknown form %s %u\n", r.mn, r.nopnds);
            snprintf(last_bad, sizeof last_bad, "%s", r.mn);
            unknown++;
            continue;
        }
        unsigned nsrc = op.ns + op.cc_in, ndst = op.nd + op.cc_out;
        cr_assert(r.ns == nsrc && r.nd == ndst, "%s: table has %u/%u values, op wants %u/%u", r.mn, r.ns, r.nd, nsrc,
                  ndst);
        uint64_t d[2] = {0, 0};
        uint32_t cc = op.cc_in ? (uint32_t)r.s[op.ns] : 0;
        op.fn(&op, d, r.s, &cc);
        int ok = 1;
        for (unsigned i = 0; i < op.nd; i++) {
            uint64_t m = reg_mask(op.dbytes[i]);
            if ((d[i] & m) != (r.d[i] & m)) ok = 0;
        }
        if (op.cc_out && cc != r.d[op.nd]) ok = 0;
        approx += op.approx;
        if (ok) {
            exact++;
            continue;
        }
        bad++;
        if (strcmp(last_bad, r.mn) || verbose) {
            badforms++;
            fprintf(stderr, "MISMATCH %s:", r.mn);
            for (unsigned i = 0; i < r.ns; i++) fprintf(stderr, " %#llx", (unsigned long long)r.s[i]);
            fprintf(stderr, " -> gpu");
            for (unsigned i = 0; i < r.nd; i++) fprintf(stderr, " %#llx", (unsigned long long)r.d[i]);
            fprintf(stderr, " ptxi");
            for (unsigned i = 0; i < op.nd; i++) fprintf(stderr, " %#llx", (unsigned long long)d[i]);
            if (op.cc_out) fprintf(stderr, " %u", cc);
            fprintf(stderr, "\n");
        }
        snprintf(last_bad, sizeof last_bad, "%s", r.mn);
    }
    fclose(f);
    fprintf(stderr,
            "alu table: %ld rows, %ld bit-exact, %ld mismatches (%ld forms), "
            "%ld rows of forms marked approximate, %ld rows of unknown forms\n",
            rows, exact, bad, badforms, approx, unknown);
    cr_expect(rows >= 10000, "table too small: %ld rows", rows);
    cr_expect(unknown == 0, "%ld rows name forms alu_lookup does not know", unknown);
    cr_expect(bad == 0, "%ld rows differ from the GPU", bad);
    cr_expect(approx == 0, "%ld rows are of forms still marked approximate", approx);
}

/* The static inline helpers of alu_core.h that specialised handlers use, checked
 * against the same recording. */
static int helper(const row *r, uint64_t *out) {
    static const char *const rnd[] = {"rn", "rz", "rm", "rp"};
    char m[64];
    snprintf(m, sizeof m, "%s", r->mn);
    bool ftz = strstr(m, ".ftz") != NULL;
    const uint64_t *s = r->s;
    if (!strcmp(m, "add.f32") || !strcmp(m, "add.rn.f32") || !strcmp(m, "add.ftz.f32") || !strcmp(m, "add.rn.ftz.f32"))
        *out = alu_add_f32((uint32_t)s[0], (uint32_t)s[1], ftz);
    else if (!strcmp(m, "sub.f32") || !strcmp(m, "sub.rn.f32") || !strcmp(m, "sub.ftz.f32") ||
             !strcmp(m, "sub.rn.ftz.f32"))
        *out = alu_sub_f32((uint32_t)s[0], (uint32_t)s[1], ftz);
    else if (!strcmp(m, "mul.f32") || !strcmp(m, "mul.rn.f32") || !strcmp(m, "mul.ftz.f32") ||
             !strcmp(m, "mul.rn.ftz.f32"))
        *out = alu_mul_f32((uint32_t)s[0], (uint32_t)s[1], ftz);
    else if (!strcmp(m, "fma.rn.f32") || !strcmp(m, "fma.rn.ftz.f32") || !strcmp(m, "mad.rn.f32"))
        *out = alu_fma_f32((uint32_t)s[0], (uint32_t)s[1], (uint32_t)s[2], ftz);
    else if (!strcmp(m, "add.f64") || !strcmp(m, "add.rn.f64")) *out = alu_add_f64(s[0], s[1]);
    else if (!strcmp(m, "mul.f64") || !strcmp(m, "mul.rn.f64")) *out = alu_mul_f64(s[0], s[1]);
    else if (!strcmp(m, "fma.rn.f64") || !strcmp(m, "mad.rn.f64")) *out = alu_fma_f64(s[0], s[1], s[2]);
    else if (!strcmp(m, "min.f32") || !strcmp(m, "max.f32") || !strcmp(m, "min.NaN.f32") || !strcmp(m, "max.NaN.f32"))
        *out = alu_minmax_f32((uint32_t)s[0], (uint32_t)s[1], m[1] == 'a', strstr(m, "NaN") != NULL);
    else {
        for (int k = 0; k < 4; k++) {
            char f[40];
            snprintf(f, sizeof f, "cvt.%si%s.s32.f32", rnd[k], ftz ? ".ftz" : "");
            if (!strcmp(m, f)) {
                *out = alu_f32_to_s32((uint32_t)s[0], k, ftz);
                return 1;
            }
        }
        return 0;
    }
    return 1;
}

Test(alu_table, inline_helpers) {
    FILE *f = fopen(TABLE, "r");
    if (!f) cr_skip_test("no GPU recording at %s yet (run gpu/jobs/alu_table)", TABLE);
    char line[512];
    long n = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        row r;
        uint64_t got;
        if (!parse(line, &r) || !helper(&r, &got)) continue;
        n++;
        if (got != r.d[0]) {
            if (bad++ < 10) fprintf(stderr, "helper mismatch %s", line);
        }
    }
    fclose(f);
    cr_expect(n > 1000, "only %ld rows for the helpers", n);
    cr_expect(bad == 0, "%ld of %ld rows differ", bad, n);
    fprintf(stderr, "inline helpers: %ld rows checked\n", n);
}
