/* async.c — asynchronous barriers (mbarrier) and asynchronous copies
 * (cp.async, cp.async.bulk, cp.reduce.async.bulk), lowered through lower_ext.h. */
#include "lower_ext.h"

bool vm_lower_ext(lctx *lc, const ir_insn *in) {
    (void)lc;
    (void)in;
    return false;
}
