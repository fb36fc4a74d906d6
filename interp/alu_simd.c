/* alu_simd.c — SIMD video, half/bf16 and fp8 semantics (to be filled in). */
#include "alu.h"
int alu_lookup_simd(const char *mnemonic, unsigned nopnds, alu_op *op) { (void)mnemonic; (void)nopnds; (void)op; return 0; }
