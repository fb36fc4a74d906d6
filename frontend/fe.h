/* fe.h — front-end internals shared by the scanner, the grammar actions and
 * the IR builder: token values, the parser state, and the builder API.
 * Nothing here is visible outside frontend/. */
#ifndef PTXI_FE_H
#define PTXI_FE_H

#include "arena.h"
#include "ir.h"

typedef struct fe_span {
    const char *s;
    uint32_t n;
} fe_span;

/* A location as bison tracks it (1-based line and column, last = one past). */
typedef struct fe_yyltype {
    int first_line, first_column, last_line, last_column;
} fe_yyltype;

/* Constant expression value: a number or a symbol address plus offset. */
enum { CV_INT, CV_F32, CV_F64, CV_DEC, CV_SYM, CV_BAD };
typedef struct fe_cval {
    uint8_t kind;
    bool generic;
    uint8_t shift;
    uint64_t mask; /* CV_SYM: mask() form; 0 = plain address */
    int64_t i;     /* CV_INT value, CV_SYM addend */
    double f;      /* CV_F32/F64/DEC value */
    uint64_t bits; /* CV_F32/F64 bit pattern */
    fe_span sym;
    ir_loc loc;
} fe_cval;

typedef struct fe_opc {
    int op;       /* ir_opcode, -1 when unknown */
    fe_span text; /* whole mnemonic, e.g. "ld.global.u32" */
} fe_opc;

/* directive token values (the DIR token); types/spaces/linkage in ranges */
enum {
    DIRV_UNKNOWN = 0,
    DIRV_TYPE = 0x100,  /* + ir_type */
    DIRV_SPACE = 0x200, /* + ir_space */
    DIRV_LINK = 0x300,  /* + ir_linkage */
    DIRV_VEC = 0x400,   /* + 2/4/8 */
    DIRV_PTR = 0x500,
    DIRV_ATTR_MANAGED,
    DIRV_ATTR_UNIFIED,
};
/* performance directive values (the PERF token) */
enum {
    PERF_MAXNTID,
    PERF_REQNTID,
    PERF_MINNCTAPERSM,
    PERF_MAXNCTAPERSM,
    PERF_MAXNREG,
    PERF_EXPLICITCLUSTER,
    PERF_REQNCTAPERCLUSTER,
    PERF_MAXCLUSTERRANK
};

typedef struct fe_dir {
    int v;        /* DIRV_* */
    uint32_t arg; /* .align N */
    ir_loc loc;
    fe_span text;
} fe_dir;

/* symbol table: names visible in the current scope, newest first per name */
typedef struct fe_sym {
    const char *name;
    uint32_t len, hash;
    int32_t next;
    uint8_t kind;   /* SYM_* */
    uint32_t scope; /* label table: scope id */
    uint32_t id;
    void *ptr;
} fe_sym;
enum { SYM_REG, SYM_VAR, SYM_FUNC, SYM_LABEL };

typedef struct fe_symtab {
    int32_t *buckets;
    uint32_t nbuckets;
    fe_sym *v;
    uint32_t n, cap;
} fe_symtab;

/* a name to bind later: label (end of function) or module symbol (end of module) */
typedef struct fe_pending {
    fe_span name;
    ir_loc loc;
    uint32_t scope;
    ir_operand *op; /* an operand, or NULL for a reloc / target */
    ir_reloc *reloc;
    uint32_t *label_slot;       /* .branchtargets entry */
    struct ir_func **func_slot; /* .calltargets entry */
    bool want_label, want_func;
} fe_pending;

/* Sets of types (bit i: ir_type i), as the TYPES column of opcodes.def uses them. */
#define TY(t) (1ull << IR_T_##t)
#define TY_INT (TY(U16) | TY(U32) | TY(U64) | TY(S16) | TY(S32) | TY(S64))
#define TY_SINT (TY(S16) | TY(S32) | TY(S64))
#define TY_HALF (TY(F16) | TY(F16X2) | TY(BF16) | TY(BF16X2))
#define TY_FLT (TY(F32) | TY(F64))
#define TY_BITS (TY(B16) | TY(B32) | TY(B64))
#define TY_INT2 (TY(U16X2) | TY(S16X2))
#define TY_MEM (TY(B8) | TY_BITS | TY(B128) | TY(U8) | TY(S8) | TY_INT | TY_FLT)

/* The ROUND column of opcodes.def: what an instruction demands of its rounding
 * and .approx modifiers (forms.c). */
enum { FE_RND_NONE, FE_RND_FREE, FE_RND_FLOAT, FE_RND_DIV, FE_RND_RCP, FE_RND_APPROX, FE_RND_CVT };

/* Sets of state spaces (bit s: ir_space s), as the SPACES column uses them:
 * what ld reads, st writes, atom and red operate on. */
#define SP(s) (1u << IR_SPACE_##s)
#define SP_MEM (SP(GLOBAL) | SP(CONST) | SP(SHARED) | SP(LOCAL) | SP(PARAM))
#define SP_ST (SP_MEM & ~SP(CONST))
#define SP_ATOM (SP_ST & ~SP(LOCAL))

#define VEC(T)           \
    struct {             \
        T *v;            \
        uint32_t n, cap; \
    }
#define VEC_PUSH(p, vec) \
    (((vec).n == (vec).cap ? fe_grow((void **)&(vec).v, &(vec).cap, sizeof *(vec).v) : (void)0), &(vec).v[(vec).n++])
void fe_grow(void **v, uint32_t *cap, size_t elem);

typedef struct fe_parser {
    /* input */
    const char *text;
    size_t len, in_pos;
    void *scanner;
    /* scanner position */
    size_t pos; /* byte offset of the next character */
    uint32_t line, col;
    fe_yyltype prev_end, cur_end; /* end of the previous / current token */
    fe_span tok;                  /* text of the last token returned */
    bool at_stmt;                 /* next identifier starts an instruction */
    bool brace_is_block;          /* the last '{' opened a block, not an initializer */
    int prev_tok;
    uint8_t hdr;           /* how much of .version/.target/.address_size was read (header.c) */
    uint32_t target_names; /* names read in this .target plus one; 0 = ignore them */
    uint8_t guard_state;
    uint32_t comment_line, comment_col;
    uint32_t sect_depth;
    size_t sect_start;
    uint32_t sect_line, sect_col;

    fe_diags *d;
    ir_module *m;
    fe_arena *a;

    /* module contents being collected */
    VEC(ir_var *) globals;
    VEC(ir_func *) funcs;
    VEC(char *) targets;
    VEC(ir_file) files;
    VEC(char *) sections;
    fe_symtab syms;    /* registers, variables, functions */
    fe_symtab labels;  /* labels of the current function, keyed by scope */
    fe_symtab strings; /* interned register names and .loc texts, shared module-wide */
    VEC(fe_pending) pend_labels;
    VEC(fe_pending) pend_globals;
    VEC(uint32_t) scope_parent; /* scope id -> parent scope id */
    uint32_t scope;             /* current scope id (0 = module) */
    VEC(uint32_t) scope_marks;  /* syms.n at each open scope */

    /* declaration being parsed */
    VEC(fe_dir) dirs;
    VEC(uint64_t) dims;
    VEC(uint32_t) ints;
    ir_var *cur_var;
    VEC(uint8_t) ibuf; /* initializer bytes */
    VEC(ir_reloc) irel;
    VEC(fe_span) irel_names;
    VEC(ir_loc) irel_locs;
    VEC(uint64_t) ilevel; /* start offsets of open initializer braces */
    uint64_t icur;
    bool init_too_many;

    /* function being parsed */
    ir_func *fn;
    ir_func *fn_prev; /* earlier declaration of the same function */
    VEC(fe_span) tnames;
    VEC(ir_loc) tlocs;
    int targets_kind;
    int param_ctx; /* 0 params, 1 return params */
    VEC(ir_var *) params, rets, locals;
    VEC(char *) pragmas;
    VEC(ir_reg) regs;
    uint64_t module_regs; /* registers declared in all functions so far */
    uint64_t module_init; /* bytes of initialized variables so far */
    VEC(ir_label) flabels;
    VEC(ir_stmt) body;
    uint32_t fn_sym_mark;
    ir_dbgloc dbg;
    ir_func *proto_fn; /* .callprototype being built */
    uint32_t proto_label;

    /* operands of the instruction being parsed */
    VEC(ir_operand) ops;
    int cur_op; /* opcode whose operands are being parsed */
    uint32_t unbound_in_insn;
} fe_parser;

/* scanner / tables */
int fe_lookup_opcode(const char *s, size_t n);
int fe_lookup_mod(const char *s, size_t n);
int fe_lookup_type(const char *s, size_t n);
int fe_lookup_directive(const char *s, size_t n, int *value);
int fe_lookup_sreg(const char *s, size_t n);
void fe_tables_init(void);

/* diagnostics */
void fe_error(fe_parser *p, ir_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void fe_diag_add(fe_diags *d, ir_loc loc, bool warning, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
ir_loc fe_loc(const fe_yyltype *l);
bool fe_utf8_check(fe_parser *p, const char *s, size_t n, uint32_t line, uint32_t col);

/* builder actions (build.c, decl.c) */
void fe_version(fe_parser *p, fe_span text, ir_loc dloc, ir_loc loc);
void fe_target(fe_parser *p, fe_span name, ir_loc loc);
void fe_address_size(fe_parser *p, uint64_t v, ir_loc dloc, ir_loc loc);
void fe_target_begin(fe_parser *p, ir_loc loc);
void fe_top_item(fe_parser *p, ir_loc loc);
void fe_header_end(fe_parser *p);
void fe_file_directive(fe_parser *p, fe_span line, ir_loc loc);
void fe_loc_directive(fe_parser *p, fe_span line, ir_loc loc);
void fe_section(fe_parser *p, fe_span text);
void fe_alias(fe_parser *p, fe_span alias, fe_span target, ir_loc aloc, ir_loc tloc);
void fe_dirs_reset(fe_parser *p);
void fe_dir_push(fe_parser *p, int v, uint32_t arg, fe_span text, ir_loc loc);
void fe_decl_begin(fe_parser *p, fe_span name, ir_loc loc, bool has_range, uint64_t range);
void fe_decl_end(fe_parser *p);
void fe_dim(fe_parser *p, const fe_cval *v, bool present, ir_loc loc);
void fe_init_open(fe_parser *p, ir_loc loc);
void fe_init_close(fe_parser *p);
void fe_init_elem(fe_parser *p, const fe_cval *v);
void fe_init_begin(fe_parser *p, ir_loc loc);
void fe_func_begin(fe_parser *p, bool entry, ir_loc loc);
void fe_func_name(fe_parser *p, fe_span name, ir_loc loc);
void fe_param(fe_parser *p, fe_span name, ir_loc loc);
void fe_perf(fe_parser *p, int which, ir_loc loc);
void fe_noreturn(fe_parser *p);
void fe_func_pragma(fe_parser *p, fe_span s, ir_loc loc);
void fe_body_begin(fe_parser *p);
void fe_func_end(fe_parser *p, bool has_body);
void fe_scope_begin(fe_parser *p, ir_loc loc);
void fe_scope_end(fe_parser *p, ir_loc loc);
void fe_label(fe_parser *p, fe_span name, ir_loc loc);
void fe_branchtargets(fe_parser *p, ir_loc loc);
void fe_calltargets(fe_parser *p, ir_loc loc);
void fe_target_name(fe_parser *p, fe_span name, ir_loc loc);
void fe_targets_end(fe_parser *p);
void fe_proto_begin(fe_parser *p, ir_loc loc);
void fe_proto_end(fe_parser *p);
void fe_stmt_pragma(fe_parser *p, fe_span s, ir_loc loc);
void fe_insn_begin(fe_parser *p);
void fe_insn(fe_parser *p, const fe_span *guard, bool guard_neg, ir_loc gloc, const fe_opc *opc, ir_loc loc);
void fe_op_reg(fe_parser *p, fe_span name, ir_loc loc, char neg);
void fe_op_sink(fe_parser *p, ir_loc loc);
void fe_op_cval(fe_parser *p, const fe_cval *v);
void fe_op_pair(fe_parser *p, ir_loc loc);
void fe_op_group(fe_parser *p, uint32_t mark, int kind, ir_loc loc);
void fe_op_addr_off(fe_parser *p, const fe_cval *v, bool minus);
uint32_t fe_op_mark(fe_parser *p);
void fe_int_push(fe_parser *p, const fe_cval *v, ir_loc loc);
fe_cval fe_cv_binop(fe_parser *p, int op, fe_cval a, fe_cval b, ir_loc loc);
fe_cval fe_cv_unop(fe_parser *p, int op, fe_cval a, ir_loc loc);
fe_cval fe_cv_call(fe_parser *p, fe_span fname, fe_cval arg, ir_loc loc);
fe_cval fe_cv_mask(fe_parser *p, fe_cval mask, fe_cval arg, ir_loc loc);
fe_cval fe_cv_name(fe_parser *p, fe_span name, ir_loc loc);
void fe_module_end(fe_parser *p);
ir_var *fe_var_from_dirs(fe_parser *p, fe_span name, ir_loc loc, int default_space);
void fe_add_var_sym(fe_parser *p, ir_var *v);

const char *fe_sreg_text(const ir_operand *o, char *buf, size_t cap);

/* instruction forms: types and modifiers (forms.c); mn is the mnemonic for messages */
void fe_check_form(const ir_insn *in, const char *mn, fe_diags *d);

/* symbols */
const char *fe_intern(fe_parser *p, const char *s, uint32_t n);
void fe_sym_init(fe_symtab *t);
void fe_sym_free(fe_symtab *t);
fe_sym *fe_sym_find(fe_symtab *t, const char *s, uint32_t n, int scope);
fe_sym *fe_sym_add(fe_symtab *t, const char *s, uint32_t n, uint8_t kind, uint32_t scope);
void fe_sym_truncate(fe_symtab *t, uint32_t n);

#endif
