/* alu_core.c — integer, f32/f64, conversion and comparison semantics (to be filled in). */
#include "alu.h"
int alu_lookup_core(const char *mnemonic, unsigned nopnds, alu_op *op) { (void)mnemonic; (void)nopnds; (void)op; return 0; }
