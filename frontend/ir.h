/* ir.h — a PTX module as the front end builds it and the interpreter reads it.
 * The IR is immutable once built; everything hangs off the module's arena and
 * is freed with ir_module_free(). Every node carries its source location. */
#ifndef PTXI_IR_H
#define PTXI_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ir_loc {
    uint32_t line, col; /* 1-based; 0 = unknown */
} ir_loc;

/* Scalar and packed types. X(ENUM, spelling, bytes, class) — bytes is the size
 * of one register/memory element (0 for .pred). */
#define IR_TYPE_LIST(X)                                                                                                \
    X(NONE, "", 0, NONE)                                                                                               \
    X(B8, "b8", 1, BITS)                                                                                               \
    X(B16, "b16", 2, BITS)                                                                                             \
    X(B32, "b32", 4, BITS)                                                                                             \
    X(B64, "b64", 8, BITS) X(B128, "b128", 16, BITS) X(U8, "u8", 1, UINT) X(U16, "u16", 2, UINT)                       \
        X(U32, "u32", 4, UINT) X(U64, "u64", 8, UINT) X(S8, "s8", 1, SINT) X(S16, "s16", 2, SINT)                      \
            X(S32, "s32", 4, SINT) X(S64, "s64", 8, SINT) X(F16, "f16", 2, FLOAT) X(F16X2, "f16x2", 4, FLOAT)          \
                X(BF16, "bf16", 2, FLOAT) X(BF16X2, "bf16x2", 4, FLOAT) X(F32, "f32", 4, FLOAT)                        \
                    X(F64, "f64", 8, FLOAT) X(TF32, "tf32", 4, FLOAT) X(E4M3, "e4m3", 1, FLOAT)                        \
                        X(E5M2, "e5m2", 1, FLOAT) X(E4M3X2, "e4m3x2", 2, FLOAT) X(E5M2X2, "e5m2x2", 2, FLOAT)          \
                            X(E4M3X4, "e4m3x4", 4, FLOAT) X(E5M2X4, "e5m2x4", 4, FLOAT) X(E2M1, "e2m1", 1, FLOAT)      \
                                X(E2M3, "e2m3", 1, FLOAT) X(E3M2, "e3m2", 1, FLOAT) X(UE8M0, "ue8m0", 1, FLOAT)        \
                                    X(E2M1X2, "e2m1x2", 1, FLOAT) X(E2M3X2, "e2m3x2", 2, FLOAT)                        \
                                        X(E3M2X2, "e3m2x2", 2, FLOAT) X(UE8M0X2, "ue8m0x2", 2, FLOAT)                  \
                                            X(E2M1X4, "e2m1x4", 2, FLOAT) X(E2M3X4, "e2m3x4", 4, FLOAT)                \
                                                X(E3M2X4, "e3m2x4", 4, FLOAT) X(S16X2, "s16x2", 4, SINT)               \
                                                    X(U16X2, "u16x2", 4, UINT) X(S4, "s4", 1, SINT)                    \
                                                        X(U4, "u4", 1, UINT) X(B1, "b1", 1, BITS) X(S2, "s2", 1, SINT) \
                                                            X(U2, "u2", 1, UINT) X(PRED, "pred", 0, PRED)              \
                                                                X(TEXREF, "texref", 8, OPAQUE)                         \
                                                                    X(SAMPLERREF, "samplerref", 8, OPAQUE)             \
                                                                        X(SURFREF, "surfref", 8, OPAQUE)

typedef enum ir_type {
#define X(e, s, b, c) IR_T_##e,
    IR_TYPE_LIST(X)
#undef X
        IR_T__COUNT
} ir_type;

typedef enum ir_type_class {
    IR_TC_NONE,
    IR_TC_BITS,
    IR_TC_UINT,
    IR_TC_SINT,
    IR_TC_FLOAT,
    IR_TC_PRED,
    IR_TC_OPAQUE
} ir_type_class;

/* Read by the debugger inside libcudart.so.13 from libptxi.so, which exports
 * ptxi_ names only (ptxi.map): the symbols carry the prefix. */
#define ir_type_name ptxi_ir_type_name
#define ir_type_bytes ptxi_ir_type_bytes
#define ir_type_class_of ptxi_ir_type_class_of
#define ir_sreg_name ptxi_ir_sreg_name
extern const char *const ir_type_name[IR_T__COUNT];
extern const uint8_t ir_type_bytes[IR_T__COUNT];
extern const uint8_t ir_type_class_of[IR_T__COUNT];

/* State spaces. */
#define IR_SPACE_LIST(X) \
    X(NONE, "")          \
    X(REG, "reg")        \
    X(SREG, "sreg")      \
    X(GLOBAL, "global") X(CONST, "const") X(SHARED, "shared") X(LOCAL, "local") X(PARAM, "param") X(TEX, "tex")

typedef enum ir_space {
#define X(e, s) IR_SPACE_##e,
    IR_SPACE_LIST(X)
#undef X
        IR_SPACE__COUNT
} ir_space;
extern const char *const ir_space_name[IR_SPACE__COUNT];

/* Opcodes and modifiers come from X-macro tables owned by the front end:
 *   opcodes.def:   OP(ENUM, "spelling", FAMILY, ISA, SM, OPERANDS, TYPES, ROUND, SPACES)   the instruction-description table
 *   modifiers.def: MOD(ENUM, "spelling-without-leading-dot")  e.g. MOD(SHARED_CTA, "shared::cta")
 * Types are not modifiers: a suffix that names a type goes to ir_insn.types. */
typedef enum ir_opcode {
#define OP(e, s, f, v, t, o, y, r, p) IR_OP_##e,
#include "opcodes.def"
#undef OP
    IR_OP__COUNT
} ir_opcode;

typedef enum ir_mod {
    IR_MOD_NONE = 0,
#define MOD(e, s) IR_MOD_##e,
#include "modifiers.def"
#undef MOD
    IR_MOD__COUNT
} ir_mod;

extern const char *const ir_opcode_name[IR_OP__COUNT];
/* A shape modifier's M, N and K (modifiers.def's SHAPE lines; K 0 when the
 * shape has none); all zero for the other modifiers. */
typedef struct ir_shape {
    uint16_t m, n, k;
} ir_shape;
extern const ir_shape ir_mod_shape[IR_MOD__COUNT];

/* The instruction-description table's columns (opcodes.def). */
typedef enum ir_family {
    IR_FAM_NONE,
    IR_FAM_CORE,
    IR_FAM_ALU,
    IR_FAM_VIDEO,
    IR_FAM_ASYNC,
    IR_FAM_TEX,
    IR_FAM_MMA,
    IR_FAM_CLUSTER,
    IR_FAM_WMMA,
    IR_FAM_WGMMA,
    IR_FAM__COUNT
} ir_family;
typedef struct ir_opinfo {
    uint8_t family;       /* ir_family: which part of the interpreter runs it */
    uint8_t isa;          /* PTX ISA that introduced it, major * 10 + minor */
    uint8_t sm;           /* the oldest target that has it */
    const char *operands; /* the operand rule of `ptxi check` (opcodes.def) */
    uint64_t types;       /* bit t: takes the single type suffix t; 0: not checked */
    uint8_t round;        /* the rounding and .approx rule of `ptxi check` (fe.h's FE_RND_*) */
    uint16_t spaces;      /* bit s: its address may name state space s; 0: it names none */
} ir_opinfo;
extern const ir_opinfo ir_opcode_info[IR_OP__COUNT];
/* The opcode, modifier (no leading dot) or type spelled s[0..n), or -1. */
int ir_opcode_lookup(const char *s, size_t n);
int ir_mod_lookup(const char *s, size_t n);
int ir_type_lookup(const char *s, size_t n);
extern const char *const ir_mod_name[IR_MOD__COUNT];

/* Special registers. X(ENUM, spelling, has_component) — has_component: 1 = .x/.y/.z,
 * 2 = a decimal index suffix (%envreg3, %pm5), 0 = none. */
#define IR_SREG_LIST(X)                                                                                               \
    X(TID, "tid", 1)                                                                                                  \
    X(NTID, "ntid", 1)                                                                                                \
    X(CTAID, "ctaid", 1)                                                                                              \
    X(NCTAID, "nctaid", 1) X(LANEID, "laneid", 0) X(WARPID, "warpid", 0) X(NWARPID, "nwarpid", 0) X(SMID, "smid", 0)  \
        X(NSMID, "nsmid", 0) X(GRIDID, "gridid", 0) X(LANEMASK_EQ, "lanemask_eq", 0) X(LANEMASK_LE, "lanemask_le", 0) \
            X(LANEMASK_LT, "lanemask_lt", 0) X(LANEMASK_GE, "lanemask_ge", 0) X(LANEMASK_GT, "lanemask_gt", 0)        \
                X(CLOCK, "clock", 0) X(CLOCK_HI, "clock_hi", 0) X(CLOCK64, "clock64", 0)                              \
                    X(GLOBALTIMER, "globaltimer", 0) X(GLOBALTIMER_LO, "globaltimer_lo", 0)                           \
                        X(GLOBALTIMER_HI, "globaltimer_hi", 0) X(DYNAMIC_SMEM_SIZE, "dynamic_smem_size", 0)           \
                            X(TOTAL_SMEM_SIZE, "total_smem_size", 0) X(AGGR_SMEM_SIZE, "aggr_smem_size",              \
                                                                       0) X(ENVREG, "envreg", 2) X(PM, "pm", 2)       \
                                X(PM64, "pm64_", 2) X(RESERVED_SMEM_OFFSET_BEGIN, "reserved_smem_offset_begin", 0)    \
                                    X(RESERVED_SMEM_OFFSET_END, "reserved_smem_offset_end", 0)                        \
                                        X(RESERVED_SMEM_OFFSET_CAP, "reserved_smem_offset_cap", 0)                    \
                                            X(RESERVED_SMEM_OFFSET_0, "reserved_smem_offset_0", 0)                    \
                                                X(RESERVED_SMEM_OFFSET_1, "reserved_smem_offset_1", 0)                \
                                                    X(CLUSTERID, "clusterid", 1) X(NCLUSTERID, "nclusterid", 1)       \
                                                        X(CLUSTER_CTAID, "cluster_ctaid", 1) X(CLUSTER_NCTAID,        \
                                                                                               "cluster_nctaid", 1)   \
                                                            X(CLUSTER_CTARANK, "cluster_ctarank", 0)                  \
                                                                X(CLUSTER_NCTARANK, "cluster_nctarank", 0)            \
                                                                    X(IS_EXPLICIT_CLUSTER, "is_explicit_cluster", 0)  \
                                                                        X(CURRENT_GRAPH_EXEC, "current_graph_exec", 0)

typedef enum ir_sreg {
#define X(e, s, c) IR_SREG_##e,
    IR_SREG_LIST(X)
#undef X
        IR_SREG__COUNT
} ir_sreg;
extern const char *const ir_sreg_name[IR_SREG__COUNT];

typedef enum ir_linkage { IR_LINK_NONE, IR_LINK_EXTERN, IR_LINK_VISIBLE, IR_LINK_WEAK, IR_LINK_COMMON } ir_linkage;

struct ir_var;
struct ir_func;

typedef enum ir_opnd_kind {
    IR_OPND_REG,     /* %r1            reg = register id in the function */
    IR_OPND_SREG,    /* %tid.x         sreg, comp (0..2 for x/y/z, N for %envregN) */
    IR_OPND_IMM_INT, /* 42, 0x2A, -1   ival (bit pattern; u64 literals kept as bits) */
    IR_OPND_IMM_F32, /* 0f3F800000     fval (exact value), fbits = the 32 bits */
    IR_OPND_IMM_F64, /* 0d3FF0..., 1.5 fval, fbits = the 64 bits */
    IR_OPND_VAR,     /* name of a variable (mov %rd, sym; param names)  var, ival = +offset */
    IR_OPND_FUNC,    /* name of a function (call target, function pointer)  func */
    IR_OPND_ADDR,    /* [base+off]     nsub 1: sub[0] is REG, VAR or IMM_INT; ival = offset.
                         [a, b, {c, d}] (tex/surface forms): nsub > 1, the items in order */
    IR_OPND_VEC,     /* {a, b, c, d}   sub[0..nsub) (elements may be SINK) */
    IR_OPND_LIST,    /* (a, b)         parenthesised call argument list */
    IR_OPND_LABEL,   /* L1             label = label id in the function */
    IR_OPND_SINK,    /* _ */
    IR_OPND_PAIR,    /* %p|%q          sub[0], sub[1] */
} ir_opnd_kind;

typedef struct ir_operand {
    /* Fields that no kind uses together share storage (see the kind list):
     * reg|label, ival|fbits and fval|var|func|sub. Read only what the kind
     * says; this keeps an operand at 40 bytes (a module holds millions). */
    uint8_t kind;  /* ir_opnd_kind */
    bool neg;      /* leading '!' on a predicate operand */
    uint8_t comp;  /* SREG: component / index */
    uint16_t sreg; /* SREG: ir_sreg */
    uint16_t sel;  /* REG: video byte/half selector, 0 = none; see IR_SEL_* */
    union {
        uint32_t reg;   /* REG */
        uint32_t label; /* LABEL */
    };
    uint32_t nsub;
    ir_loc loc;
    union {
        int64_t ival;   /* IMM_INT value; VAR/ADDR offset */
        uint64_t fbits; /* IMM_F32 (low 32 bits) / IMM_F64 */
    };
    union {
        double fval;            /* IMM_F32/IMM_F64 */
        struct ir_var *var;     /* VAR */
        struct ir_func *func;   /* FUNC */
        struct ir_operand *sub; /* ADDR, VEC, LIST, PAIR */
    };
} ir_operand;

/* Register selectors of the video instructions (%r1.b0, %r2.h1, %r3.b3210):
 * IR_SEL_HALF set for .hN..., the digit count in bits 12-14, the digits in
 * bits 0-11, three bits each, the first (leftmost) digit highest. */
#define IR_SEL_HALF 0x8000u
#define IR_SEL_COUNT(s) (((s) >> 12) & 7u)
#define IR_SEL_DIGIT(s, i) (((s) >> (3 * (IR_SEL_COUNT(s) - 1 - (i)))) & 7u)

/* The `.loc` in effect for an instruction: file index into ir_module.files. */
typedef struct ir_dbgloc {
    uint32_t file, line, col; /* file 0 = none */
} ir_dbgloc;

#define IR_MAX_TYPES 4
#define IR_MAX_MODS 12 /* the longest PTX 9.0 mnemonic has 10 suffixes */
#define IR_MODSET_WORDS ((IR_MOD__COUNT + 63) / 64)

typedef struct ir_insn {
    uint16_t op; /* ir_opcode */
    uint8_t ntypes, nmods;
    uint32_t typemask;                /* bit i set: the i-th suffix in source order is a type */
    uint8_t types[IR_MAX_TYPES];      /* type suffixes in source order */
    int32_t guard;                    /* register id of @%p, -1 when unguarded */
    uint16_t mods[IR_MAX_MODS];       /* other suffixes in source order */
    uint64_t modset[IR_MODSET_WORDS]; /* the same modifiers as a bit set */
    ir_operand *opnds;
    uint32_t nopnds;
    ir_loc loc;     /* of the opcode (or of the guard) */
    ir_dbgloc dbg;  /* .loc in effect, file 0 when none */
    bool guard_neg; /* @!%p */
} ir_insn;

static inline bool ir_has_mod(const ir_insn *in, ir_mod m) { return (in->modset[m >> 6] >> (m & 63)) & 1; }

/* Initializer relocations: at `offset` in the variable's bytes, a value of
 * `size` bytes equal to address(sym) + addend, converted to generic when
 * `generic`, then masked/shifted for mask()-style byte initializers. */
typedef struct ir_reloc {
    uint64_t offset;
    uint8_t size;
    bool generic;
    bool is_func;
    uint8_t shift; /* value = (addr >> shift) & mask */
    uint64_t mask; /* ~0 for a plain address */
    struct ir_var *var;
    struct ir_func *func;
    int64_t addend;
} ir_reloc;

#define IR_MAX_DIMS 4

typedef struct ir_var {
    char *name;
    ir_loc loc;
    uint8_t space;   /* ir_space */
    uint8_t type;    /* element type */
    uint8_t vec;     /* 1, 2, 4 (or 8) */
    uint8_t linkage; /* ir_linkage */
    uint32_t align;  /* bytes; explicit or natural */
    bool align_explicit;
    uint32_t ndims;
    uint64_t dims[IR_MAX_DIMS]; /* 0 = unsized [] */
    uint64_t size;              /* bytes; 0 for unsized */
    bool managed, unified;      /* .attribute(.managed) / (.unified) */
    /* .param attributes of kernel parameters: .ptr .global .align N */
    bool is_ptr;
    uint8_t ptr_space;
    uint32_t ptr_align;
    /* initializer: `init` holds size bytes when has_init */
    bool has_init;
    uint8_t *init;
    uint32_t nrelocs;
    ir_reloc *relocs;
    struct ir_func *func; /* owning function for function-scope variables */
} ir_var;

typedef struct ir_reg {
    char *name; /* full name, e.g. "%r12" */
    uint8_t type;
    uint8_t vec;    /* .v2/.v4 registers: 1 normally */
    uint32_t scope; /* 0 = function body, >0 = nested { } block */
    ir_loc loc;
} ir_reg;

typedef struct ir_label {
    char *name;
    uint32_t stmt; /* index of the IR_ST_LABEL statement in body */
    ir_loc loc;
} ir_label;

typedef enum ir_stmt_kind {
    IR_ST_INSN,
    IR_ST_LABEL,         /* label */
    IR_ST_LOC,           /* .loc with function_name/inlined_at: dbg + that text. A plain
                                  .loc has no statement: insn.dbg of every instruction after it
                                  holds it (about one line in five is a .loc in -lineinfo code) */
    IR_ST_SCOPE_BEGIN,   /* { */
    IR_ST_SCOPE_END,     /* } */
    IR_ST_REG_DECL,      /* .reg ...: regs [first, first+count) */
    IR_ST_VAR_DECL,      /* function-scope .local/.shared/.param/.const variable: var */
    IR_ST_BRANCHTARGETS, /* label: .branchtargets L1, L2;  targets */
    IR_ST_CALLTARGETS,   /* label: .calltargets f1, f2; funcs */
    IR_ST_CALLPROTOTYPE, /* label: .callprototype ...; proto */
    IR_ST_PRAGMA,        /* .pragma "..."; text */
} ir_stmt_kind;

typedef struct ir_stmt {
    uint8_t kind;
    ir_loc loc;
    union {
        ir_insn insn;
        uint32_t label;
        struct {
            ir_dbgloc dbg;
            char *text;
        } locd;
        struct {
            uint32_t first, count;
        } regs;
        ir_var *var;
        struct {
            uint32_t label;
            uint32_t n;
            uint32_t *labels;
        } targets;
        struct {
            uint32_t label;
            uint32_t n;
            struct ir_func **funcs;
        } calltargets;
        struct {
            uint32_t label;
            struct ir_func *proto;
        } proto;
        char *text;
    } u;
} ir_stmt;

typedef struct ir_func {
    char *name;
    ir_loc loc;
    bool is_entry;
    bool noreturn;
    bool is_proto; /* a .callprototype signature (name = its label) */
    bool has_body; /* false for a declaration without body */
    uint8_t linkage;
    uint32_t nparams, nrets;
    ir_var **params; /* space PARAM, in order */
    ir_var **rets;   /* return parameters of a .func */
    /* performance directives; 0 = absent */
    uint32_t maxntid[3], reqntid[3];
    uint32_t minnctapersm, maxnctapersm, maxnreg;
    uint32_t reqnctapercluster[3], maxclusterrank;
    bool explicitcluster;
    uint32_t npragmas;
    char **pragmas; /* function-level .pragma strings */
    uint32_t nregs;
    ir_reg *regs;
    uint32_t nlocals;
    ir_var **locals; /* function-scope variables, incl. those in nested scopes */
    uint32_t nlabels;
    ir_label *labels;
    uint32_t nbody;
    ir_stmt *body;
} ir_func;

typedef struct ir_file {
    uint32_t index; /* the number in `.file N "name"` */
    char *name;
    uint64_t timestamp, size;
} ir_file;

typedef struct ir_module {
    char *path; /* file name used in diagnostics */
    uint32_t version_major, version_minor;
    uint32_t ntargets;
    char **targets;        /* .target entries as written: "sm_90a", "debug", ... */
    uint32_t sm;           /* numeric SM of the first sm_ target, e.g. 90 */
    uint32_t address_size; /* 32 or 64 */
    uint32_t nfiles;
    ir_file *files;
    uint32_t nglobals;
    ir_var **globals; /* module-scope variables, in source order */
    uint32_t nfuncs;
    ir_func **funcs; /* .entry/.func and declarations, in source order */
    uint32_t nsections;
    char **sections; /* raw text of @@DWARF / .section blocks, kept for printing */
    void *arena;     /* owns every allocation of the module */
} ir_module;

/* Diagnostics. */
typedef struct fe_diag {
    ir_loc loc;
    bool warning;
    char *msg;
} fe_diag;

typedef struct fe_diags {
    const char *path; /* file name printed in front of line:col */
    const char *src;  /* source text, for printing the line and a caret */
    size_t srclen;
    uint32_t n, cap;
    fe_diag *v;
    uint32_t nerrors;
} fe_diags;

/* Parses PTX text (not necessarily NUL-terminated). Always returns a module
 * (possibly partial); d->nerrors > 0 means it must not be executed. The module
 * does not keep `text`, but when d->src is NULL, d->src/d->path are set to
 * text/path for fe_diags_print, so keep text until the diagnostics are printed.
 * Reentrant: modules may be parsed on several threads at once. */
ir_module *fe_parse(const char *text, size_t len, const char *path, fe_diags *d);
/* Semantic validation beyond parsing (the `ptxi check` rules); adds to d. */
void fe_validate(const ir_module *m, fe_diags *d);
void ir_module_free(ir_module *m);
/* Writes `path:line:col: error: msg`, the source line and a caret for each diagnostic. */
void fe_diags_print(const fe_diags *d, FILE *out);
/* A whole file, malloc'd and NUL-terminated (*len excludes the NUL); NULL when it
 * cannot be read (errno says why). */
char *fe_read_file(const char *path, size_t *len);
/* The same diagnostics as ptxas words them: `ptxas FILE, line N; error   : msg`. */
void fe_diags_print_ptxas(const fe_diags *d, FILE *out);
/* Either printout as a malloc'd string ("" when there is nothing to say; NULL when out of memory). */
char *fe_diags_string(const fe_diags *d, bool ptxas_style);
void fe_diags_free(fe_diags *d);

/* Writes the module back as PTX that parses to an equal module. */
void ir_print(FILE *out, const ir_module *m);
/* Structural equality (names, types, instructions, operands, initializers); locations ignored. */
bool ir_equal(const ir_module *a, const ir_module *b);
/* "add.rn.ftz.f32": opcode, modifiers and types in source order. Returns length. */
size_t ir_insn_mnemonic(const ir_insn *in, char *buf, size_t cap);

ir_func *ir_find_func(const ir_module *m, const char *name);
ir_var *ir_find_global(const ir_module *m, const char *name);

#endif
