/* vm_ops.h — the handler list (X-macro): the enum, the names and the
 * computed-goto table are all made from it, so a handler missing from exec.c
 * is a compile error. */
#ifndef PTXI_VM_OPS_H
#define PTXI_VM_OPS_H

#define VM_CMP_LIST(X, T) X(EQ_##T) X(NE_##T) X(LT_##T) X(LE_##T) X(GT_##T) X(GE_##T)

#define VM_OP_LIST(X)                                                                         \
    /* control */                                                                             \
    X(NOP) X(BRA) X(BRX) X(EXIT) X(RET) X(CALL) X(FALLOFF) X(TRAP) X(BRKPT)                   \
    X(BAR) X(BAR_RED) X(BAR_WARP) X(NANOSLEEP) X(PMEVENT)                                     \
    /* moves */                                                                               \
    X(MOV32) X(MOV64) X(MOVP) X(MOV_SREG) X(MOV_ADDR) X(MOV_PACK) X(MOV_UNPACK)             \
    X(CVTA_TO) X(CVTA_FROM) X(ISSPACEP) X(CVT_U64_U32) X(CVT_S64_S32) X(CVT_U32_U64)        \
    X(SELP32) X(SELP64)                                                                       \
    /* integer fast paths */                                                                  \
    X(ADD32) X(SUB32) X(MUL32) X(MAD32) X(AND32) X(OR32) X(XOR32) X(NOT32)                  \
    X(SHL32) X(SHRU32) X(SHRS32) X(MINS32) X(MAXS32) X(MINU32) X(MAXU32)                     \
    X(DIVU32) X(REMU32) X(DIVS32) X(REMS32)                                                   \
    X(ADD64) X(SUB64) X(MUL64) X(MAD64) X(AND64) X(OR64) X(XOR64) X(NOT64)                  \
    X(SHL64) X(SHRU64) X(SHRS64)                                                              \
    X(MULWS32) X(MULWU32) X(MADWS32) X(MADWU32) X(MULHIU32) X(MULHIS32)                      \
    X(SHFLW) X(SHFRW) X(SHFLC) X(SHFRC) X(LOP3) X(PRMT) X(BFEU32) X(BFES32)                   \
    X(CVTF32U32) X(CVTF32S32) X(CVTRZIS32F32)                                                 \
    /* float fast paths (round to nearest, no ftz) */                                         \
    X(ADDF32) X(SUBF32) X(MULF32) X(FMAF32) X(ADDF64) X(SUBF64) X(MULF64) X(FMAF64)          \
    X(MINF32) X(MAXF32) X(DIVF32) X(SQRTF32) X(DIVF64) X(SQRTF64) X(NEGF32) X(ABSF32)         \
    /* comparisons */                                                                         \
    VM_CMP_LIST(X, S32) VM_CMP_LIST(X, U32) VM_CMP_LIST(X, S64) VM_CMP_LIST(X, U64)           \
    VM_CMP_LIST(X, F32) VM_CMP_LIST(X, F64)                                                   \
    X(PAND) X(POR) X(PXOR) X(PNOT)                                                            \
    /* everything else the ALU tables know */                                                 \
    X(ALU)                                                                                    \
    /* memory */                                                                              \
    X(LD) X(ST) X(LDS4) X(STS4) X(LDG4) X(STG4) X(LDV) X(STV) X(LD_KPARAM) X(ATOM) X(FENCE) X(ALLOCA) X(STACKSAVE)          \
    X(STACKRESTORE)                                                                           \
    /* warp collectives */                                                                    \
    X(SHFL) X(VOTE) X(ACTIVEMASK) X(MATCH) X(REDUX)                                           \
    /* instructions lowered by an extension (lower_ext.h): mbarrier, cp.async, ... */         \
    X(EXT)                                                                                    \
    /* debugger trampoline: every record's handler when a debugger is attached */             \
    X(DBG)

/* Superinstructions: a handler that runs a fixed sequence of ordinary records
 * (chosen at lowering, lower.c) under one dispatch. Only the head record's
 * handler address changes; every record keeps its own op, so the debugger,
 * a branch into the middle and any fallback see the plain instructions. */
#define VM_FUSE_LIST(X)                                                                       \
    /* ld.shared.b32, ld.shared.b32, fma.rn.f32: the inner step of tiled matrix products */  \
    X(LDS4_LDS4_FMAF32)
/* LDS4_LDS4_FMAF32's head x: results no later record reads (lower.c), so they
 * may stay out of the frame: the first load's, the second's, the fma's. */
#define VM_DOT_DEAD0 1
#define VM_DOT_DEAD1 2
#define VM_DOT_DEADACC 4

/* A whole chain of LDS4_LDS4_FMAF32 triples, acc = fma(x_k, y_k, acc) with
 * x_k = [ra[0] + off[k][0]] and y_k = [ra[1] + off[k][1]], whose loaded
 * values and partial sums no later record reads (lower.c). Hung on the
 * chain's first head (its p): when each half-warp of both address registers
 * is one address or 16 consecutive words, the chain runs as a loop over k
 * with one range test per half (exec.c). */
typedef struct vm_dotplan {
    uint32_t n;                /* triples (records: 3n) */
    uint32_t ra[2];            /* address registers of each triple's first and second load */
    uint32_t acc_in, acc_out;  /* the first fma's c, the last fma's d */
    uint32_t last_d[2];        /* the last triple's load destinations; UINT32_MAX: dead */
    int32_t lo[2], hi[2];      /* offset range of the first and second loads */
    int32_t off[][2];
} vm_dotplan;

#endif
