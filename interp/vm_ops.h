/* vm_ops.h — the handler list (X-macro): the enum, the names and the
 * computed-goto table are all made from it, so a handler missing from exec.c
 * is a compile error. */
#ifndef PTXI_VM_OPS_H
#define PTXI_VM_OPS_H

/* Each entry: X(NAME, d, a, b, c), the kinds of the four operand fields,
 * then what the handler does (exec.c). Kinds: N unused (or not a frame
 * offset), R32 / R64 a 32- / 64-bit lane array, PR a predicate word, RX R64
 * when VM_F_D64 is set else R32, AX R64 when VM_F_BASE_REG64 is set else R32,
 * AB the address base (R64 with VM_F_BASE_REG64, R32 with VM_F_BASE_REG32,
 * else none), ANY a frame offset whose kind the record's own fields decide.
 * Register operands are byte offsets into the frame; debug builds check every
 * record against these kinds (vm_check_records, check.c). */
#define VM_CMP_LIST(X, T, K)                                                                     \
    X(EQ_##T, PR, K, K, N)                                                                       \
    X(NE_##T, PR, K, K, N) /* d := a == b, a != b (float ne: ordered) */                         \
    X(LT_##T, PR, K, K, N)                                                                       \
    X(LE_##T, PR, K, K, N)                        /* d := a < b, a <= b  (lanes of the group) */ \
    X(GT_##T, PR, K, K, N) X(GE_##T, PR, K, K, N) /* d := a > b, a >= b */

#define VM_OP_LIST(X)                                                                                                                       \
    /* control */                                                                                                                           \
    X(NOP, N, N, N, N)            /* nothing */                                                                                             \
    X(BRA, N, N, N, N)            /* pc := target (VM_F_BACK: counts against the slice) */                                                  \
    X(BRX, N, R32, N, N)          /* pc := p[a], a < imm targets, else a fault */                                                           \
    X(EXIT, N, N, N, N)           /* the lanes end */                                                                                       \
    X(RET, N, N, N, N)            /* the lanes leave the frame (the kernel's: they end) */                                                  \
    X(CALL, N, N, N, N)           /* call p (vm_callinfo): its callee or function pointer */                                                \
    X(FALLOFF, N, N, N, N)        /* the end of a body: as ret */                                                                           \
    X(TRAP, N, N, N, N)           /* fault; x = 1: the unsupported instruction named by p */                                                \
    X(BRKPT, N, N, N, N)          /* a debugger's stop, else a fault */                                                                     \
    X(BAR, N, R32, R32, N)        /* barrier a; b threads if x & VM_BAR_COUNTED (barrier.c) */                                              \
    X(BAR_RED, ANY, R32, R32, PR) /* as BAR, d := sz-op over c ^ imm (R32 popc, else PR) */                                                 \
    X(BAR_WARP, N, ANY, N, N)     /* bar.warp.sync on member mask a (R32; 0: all lanes) */                                                  \
    X(NANOSLEEP, N, ANY, N, N)    /* sleep a ns (R32; 0: none), the other groups run */                                                     \
    X(PMEVENT, N, N, N, N)        /* count event imm & 15 */                                                                                \
    /* moves */                                                                                                                             \
    X(MOV32, R32, R32, N, N)       /* d := a */                                                                                             \
    X(MOV64, R64, R64, N, N)       /* d := a */                                                                                             \
    X(MOVP, PR, PR, N, N)          /* d := a ^ imm */                                                                                       \
    X(MOV_SREG, RX, N, N, N)       /* d := special register x, component sz */                                                              \
    X(MOV_ADDR, RX, N, N, N)       /* d := imm + kernel parameters (sp KPARAM) or frame locals */                                           \
    X(MOV_PACK, RX, N, N, N)       /* d := {p.e[0], p.e[1]}, halves of sz bytes */                                                          \
    X(MOV_UNPACK, N, AX, N, N)     /* {p.e[0], p.e[1]} := a, halves of sz bytes */                                                          \
    X(CVTA_TO, RX, AX, N, N)       /* d := a - imm (the window of space sp) */                                                              \
    X(CVTA_FROM, RX, AX, N, N)     /* d := a + imm */                                                                                       \
    X(ISSPACEP, PR, AX, N, N)      /* d := a is in space sp (x: or a cluster CTA's shared) */                                               \
    X(CVT_U64_U32, R64, R32, N, N) /* d := zero-extended a */                                                                               \
    X(CVT_S64_S32, R64, R32, N, N) /* d := sign-extended a */                                                                               \
    X(CVT_U32_U64, R32, R64, N, N) /* d := low half of a */                                                                                 \
    X(SELP32, R32, R32, R32, PR)   /* d := (c ^ imm) ? a : b */                                                                             \
    X(SELP64, R64, R64, R64, PR)   /* d := (c ^ imm) ? a : b */                                                                             \
    /* integer fast paths (wrapping; division by 0 and INT_MIN / -1 as sm_90) */                                                            \
    X(ADD32, R32, R32, R32, N)      /* d := a + b */                                                                                        \
    X(SUB32, R32, R32, R32, N)      /* d := a - b */                                                                                        \
    X(MUL32, R32, R32, R32, N)      /* d := a * b (low half) */                                                                             \
    X(MAD32, R32, R32, R32, R32)    /* d := a * b + c */                                                                                    \
    X(AND32, R32, R32, R32, N)      /* d := a & b */                                                                                        \
    X(OR32, R32, R32, R32, N)       /* d := a | b */                                                                                        \
    X(XOR32, R32, R32, R32, N)      /* d := a ^ b */                                                                                        \
    X(NOT32, R32, R32, N, N)        /* d := ~a */                                                                                           \
    X(SHL32, R32, R32, R32, N)      /* d := a << b (0 past 31) */                                                                           \
    X(SHRU32, R32, R32, R32, N)     /* d := a >> b, logical */                                                                              \
    X(SHRS32, R32, R32, R32, N)     /* d := a >> b, arithmetic */                                                                           \
    X(MINS32, R32, R32, R32, N)     /* d := min(a, b), signed */                                                                            \
    X(MAXS32, R32, R32, R32, N)     /* d := max(a, b), signed */                                                                            \
    X(MINU32, R32, R32, R32, N)     /* d := min(a, b) */                                                                                    \
    X(MAXU32, R32, R32, R32, N)     /* d := max(a, b) */                                                                                    \
    X(DIVU32, R32, R32, R32, N)     /* d := a / b */                                                                                        \
    X(REMU32, R32, R32, R32, N)     /* d := a % b */                                                                                        \
    X(DIVS32, R32, R32, R32, N)     /* d := a / b, signed */                                                                                \
    X(REMS32, R32, R32, R32, N)     /* d := a % b, signed */                                                                                \
    X(ADD64, R64, R64, R64, N)      /* d := a + b */                                                                                        \
    X(SUB64, R64, R64, R64, N)      /* d := a - b */                                                                                        \
    X(MUL64, R64, R64, R64, N)      /* d := a * b (low half) */                                                                             \
    X(MAD64, R64, R64, R64, R64)    /* d := a * b + c */                                                                                    \
    X(AND64, R64, R64, R64, N)      /* d := a & b */                                                                                        \
    X(OR64, R64, R64, R64, N)       /* d := a | b */                                                                                        \
    X(XOR64, R64, R64, R64, N)      /* d := a ^ b */                                                                                        \
    X(NOT64, R64, R64, N, N)        /* d := ~a */                                                                                           \
    X(SHL64, R64, R64, R32, N)      /* d := a << b (0 past 63) */                                                                           \
    X(SHRU64, R64, R64, R32, N)     /* d := a >> b, logical */                                                                              \
    X(SHRS64, R64, R64, R32, N)     /* d := a >> b, arithmetic */                                                                           \
    X(MULWS32, R64, R32, R32, N)    /* d := a * b, signed, all 64 bits */                                                                   \
    X(MULWU32, R64, R32, R32, N)    /* d := a * b, all 64 bits */                                                                           \
    X(MADWS32, R64, R32, R32, R64)  /* d := a * b + c, signed, 64 bits */                                                                   \
    X(MADWU32, R64, R32, R32, R64)  /* d := a * b + c, 64 bits */                                                                           \
    X(MULHIU32, R32, R32, R32, N)   /* d := high half of a * b */                                                                           \
    X(MULHIS32, R32, R32, R32, N)   /* d := high half of a * b, signed */                                                                   \
    X(SHFLW, R32, R32, R32, R32)    /* d := shf.l.wrap a, b by c */                                                                         \
    X(SHFRW, R32, R32, R32, R32)    /* d := shf.r.wrap a, b by c */                                                                         \
    X(SHFLC, R32, R32, R32, R32)    /* d := shf.l.clamp a, b by c */                                                                        \
    X(SHFRC, R32, R32, R32, R32)    /* d := shf.r.clamp a, b by c */                                                                        \
    X(LOP3, R32, R32, R32, R32)     /* d := lop3(a, b, c) with truth table imm */                                                           \
    X(PRMT, R32, R32, R32, R32)     /* d := bytes of {b, a} selected by c */                                                                \
    X(BFEU32, R32, R32, R32, R32)   /* d := c bits of a from bit b */                                                                       \
    X(BFES32, R32, R32, R32, R32)   /* d := c bits of a from bit b, sign-extended */                                                        \
    X(CVTF32U32, R32, R32, N, N)    /* d := (f32) a, nearest even */                                                                        \
    X(CVTF32S32, R32, R32, N, N)    /* d := (f32) (s32) a, nearest even */                                                                  \
    X(CVTRZIS32F32, R32, R32, N, N) /* d := (s32) a toward zero, saturating, NaN 0 */                                                       \
    /* float fast paths (round to nearest, no ftz; the GPU's canonical NaN) */                                                              \
    X(ADDF32, R32, R32, R32, N)   /* d := a + b */                                                                                          \
    X(SUBF32, R32, R32, R32, N)   /* d := a - b */                                                                                          \
    X(MULF32, R32, R32, R32, N)   /* d := a * b */                                                                                          \
    X(FMAF32, R32, R32, R32, R32) /* d := a * b + c, rounded once */                                                                        \
    X(ADDF64, R64, R64, R64, N)   /* d := a + b */                                                                                          \
    X(SUBF64, R64, R64, R64, N)   /* d := a - b */                                                                                          \
    X(MULF64, R64, R64, R64, N)   /* d := a * b */                                                                                          \
    X(FMAF64, R64, R64, R64, R64) /* d := a * b + c, rounded once */                                                                        \
    X(MINF32, R32, R32, R32, N)   /* d := min(a, b) (a NaN loses) */                                                                        \
    X(MAXF32, R32, R32, R32, N)   /* d := max(a, b) (a NaN loses) */                                                                        \
    X(DIVF32, R32, R32, R32, N)   /* d := a / b */                                                                                          \
    X(SQRTF32, R32, R32, N, N)    /* d := sqrt(a) */                                                                                        \
    X(DIVF64, R64, R64, R64, N)   /* d := a / b */                                                                                          \
    X(SQRTF64, R64, R64, N, N)    /* d := sqrt(a) */                                                                                        \
    X(NEGF32, R32, R32, N, N)     /* d := -a */                                                                                             \
    X(ABSF32, R32, R32, N, N)     /* d := |a| */                                                                                            \
    /* comparisons (setp without a combining predicate) */                                                                                  \
    VM_CMP_LIST(X, S32, R32)                                                                                                                \
    VM_CMP_LIST(X, U32, R32)                                                                                                                \
    VM_CMP_LIST(X, S64, R64)                                                                                                                \
    VM_CMP_LIST(X, U64, R64) VM_CMP_LIST(X, F32, R32) VM_CMP_LIST(X, F64, R64)                                                              \
        X(PAND, PR, PR, PR, N)                      /* d := (a ^ imm) & (b ^ -(x & 1)) */                                                   \
        X(POR, PR, PR, PR, N)                       /* d := (a ^ imm) | (b ^ -(x & 1)) */                                                   \
        X(PXOR, PR, PR, PR, N)                      /* d := (a ^ imm) ^ (b ^ -(x & 1)) */                                                   \
        X(PNOT, PR, PR, N, N) /* d := ~(a ^ imm) */ /* everything else the ALU tables know */                                               \
        X(ALU, N, N, N,                                                                                                                     \
          N) /* p (vm_alu): its function, lane by lane (alu_run.c) */ /* memory (exec_mem.h): address a + imm in space sp */                \
        X(LD, RX, AB, N, N)        /* d := [a + imm], sz bytes (VM_F_SIGNED: sign-extended) */                                              \
        X(ST, N, AB, RX, N)        /* [a + imm] := b, sz bytes */                                                                           \
        X(LDS4, R32, R32, N, N)    /* d := shared [a + imm], 4 bytes */                                                                     \
        X(STS4, N, R32, R32, N)    /* shared [a + imm] := b, 4 bytes */                                                                     \
        X(LDG4, R32, R64, N, N)    /* d := global [a + imm], 4 bytes */                                                                     \
        X(STG4, N, R64, R32, N)    /* global [a + imm] := b, 4 bytes */                                                                     \
        X(LDV, N, AB, N, N)        /* p (vm_vec) := [a + imm], sz bytes each */                                                             \
        X(STV, N, AB, N, N)        /* [a + imm] := p (vm_vec) */                                                                            \
        X(LD_KPARAM, RX, N, N, N)  /* d := kernel parameter at imm, sz bytes, same every lane */                                            \
        X(ATOM, ANY, AB, ANY, ANY) /* d := atomic op x on [a + imm] with b (and c), p */                                                    \
        X(FENCE, N, N, N, N)       /* a sequentially consistent fence */                                                                    \
        X(ALLOCA, ANY, ANY, N, N)  /* d := a bytes of the lane's stack */                                                                   \
        X(STACKSAVE, ANY, N, N, N) /* d := the lane's stack pointer */                                                                      \
        X(STACKRESTORE, N, ANY, N,                                                                                                          \
          N) /* the lane's stack pointer := a */ /* warp collectives (collectives.c; member mask at frame offset imm) */                    \
        X(SHFL, R32, R32, R32, R32)              /* d := a of the lane mode x picks by b, clamp c */                                        \
        X(VOTE, ANY, PR, N, N)                   /* d := vote x of a ^ b (ballot: R32, else PR) */                                          \
        X(ACTIVEMASK, R32, N, N, N)              /* d := the lanes executing */                                                             \
        X(MATCH, R32, RX, N, N)                  /* d := lanes whose a equals this lane's (mode x) */                                       \
        X(REDUX, R32, R32, N,                                                                                                               \
          N) /* d := reduction x of a over the members */ /* instructions lowered by an extension (lower_ext.h): mbarrier, cp.async, ... */ \
        X(EXT, N, N, N,                                                                                                                     \
          N) /* p starts with the run function */ /* debugger trampoline: every record's handler when a debugger is attached */             \
        X(DBG, N, N, N, N)                        /* the hook, then the record's own handler */

/* Superinstructions: a handler that runs a fixed sequence of ordinary records
 * (chosen at lowering, lower.c) under one dispatch. Only the head record's
 * handler address changes; every record keeps its own op, so the debugger,
 * a branch into the middle and any fallback see the plain instructions. */
#define VM_FUSE_LIST(X)                                                                     \
    /* ld.shared.b32, ld.shared.b32, fma.rn.f32: the inner step of tiled matrix products */ \
    X(LDS4_LDS4_FMAF32)                                                                     \
    /* a straight-line run compiled to machine code: target is its vm_jit_region (jit.h) */ \
    X(JIT)
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
    uint32_t n;               /* triples (records: 3n) */
    uint32_t ra[2];           /* address registers of each triple's first and second load */
    uint32_t acc_in, acc_out; /* the first fma's c, the last fma's d */
    uint32_t last_d[2];       /* the last triple's load destinations; UINT32_MAX: dead */
    int32_t lo[2], hi[2];     /* offset range of the first and second loads */
    int32_t off[][2];
} vm_dotplan;

#endif
