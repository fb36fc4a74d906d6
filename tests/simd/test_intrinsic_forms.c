/* test_intrinsic_forms.c — every SIMD/half/bf16/fp8 instruction form nvcc emits
 * for the CUDA intrinsics (listed in tests/simd/intrinsic_forms.txt from the PTX
 * of intrinsics_simd.cu and intrinsics_fp.cu) has a semantics in alu_simd. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "alu.h"

Test(intrinsics, every_emitted_form_is_known) {
    FILE *f = fopen(PTXI_SOURCE_DIR "/tests/simd/intrinsic_forms.txt", "r");
    cr_assert(f, "tests/simd/intrinsic_forms.txt missing");
    char line[256], mn[160];
    unsigned n;
    int forms = 0, missing = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || sscanf(line, "%159s %u", mn, &n) != 2) continue;
        alu_op op;
        forms++;
        if (!alu_lookup_simd(mn, n, &op)) missing++, cr_log_error("no semantics for %s (%u operands)", mn, n);
    }
    fclose(f);
    cr_expect_gt(forms, 150);
    cr_expect_eq(missing, 0);
}
