/* eval.h — `ptxi eval`: a PTX snippet or CUDA asm() statement wrapped into a
 * generated module, run on given inputs. Shared by cmd_eval.c (command line,
 * values, running, printing), eval_parse.c (reading the snippet, register
 * types), eval_gen.c (PTX and CUDA text) and eval_table.c (table replay). */
#ifndef PTXI_EVAL_H
#define PTXI_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EV_MAX_REGS 256
#define EV_NAME 80

/* A register's type. bytes: 0 = predicate, 1 = 8-bit integer type (travels in a
 * wider register, see ev_reg_bytes), 2/4/8. kind: 'b' bits, 'u', 's', 'f' float
 * of its width, 'h' f16, 'g' bf16, 'p' predicate. */
typedef struct ev_type {
    uint8_t bytes;
    char kind;
} ev_type;

/* Growable text whose every byte remembers where it came from in the user's
 * input (-1: generated), so diagnostics on generated text can point into it. */
typedef struct ev_text {
    char *s;
    int *origin;
    size_t n, cap;
} ev_text;

void ev_put(ev_text *t, const char *s, size_t n, int origin); /* origin of byte i: origin+i, or -1 */
void ev_printf(ev_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ev_text_free(ev_text *t);

typedef struct ev_reg {
    char name[EV_NAME]; /* as shown: "%r1", or an asm operand's C expression */
    char ptx[EV_NAME];  /* as written in the generated PTX */
    ev_type type;
    ev_type vtype;      /* asm operand of a cast: the type its value is given in ({0}: type) */
    int mem;            /* 1 + the --mem buffer whose address it holds, or 0 */
    char imm[24];       /* an "n" operand's constant expression, evaluated */
    bool typed;         /* type known (inferred, from --reg, or an asm constraint) */
    bool fixed;         /* from --reg or a constraint: inference does not change it */
    bool input, output; /* read before written / written */
    bool local;         /* declared by the snippet itself: neither */
    bool is_imm;        /* asm "n" operand: substituted as a literal */
    bool asm_op;        /* an asm() operand: read/written as its constraint says */
    bool shown;         /* display kind settled by its first use */
    int order_out;      /* order of first write */
    const char *value;  /* NAME=VALUE text from the command line */
    uint64_t *vals;     /* per lane, raw bits (set by cmd_eval) */
} ev_reg;

/* A --mem buffer; `shared`: it lives in the CTA's shared memory (copied in from
 * its global buffer before the snippet, and out again by CTA 0 after it). */
typedef struct ev_mem {
    char name[EV_NAME];
    const char *spec;
    uint8_t *init;
    size_t bytes;
    bool shared;
} ev_mem;

typedef struct ev_snippet {
    ev_text body;    /* PTX statements (asm templates already substituted) */
    const char *src; /* what the user typed, for diagnostics */
    ev_reg regs[EV_MAX_REGS];
    int nregs, nout;
    bool is_asm;
    int reg8;                                                      /* register bytes for 8-bit integer types (2 or 4) */
    const char *value_name[EV_MAX_REGS], *value_text[EV_MAX_REGS]; /* NAME=VALUE arguments */
    int nvalues;
    ev_mem mem[16];
    int nmem;
    char err[512]; /* first problem found, "<snippet>:1:COL: ..." style or plain */
    int err_off;   /* offset in src of the problem, -1 when none */
} ev_snippet;

ev_type ev_type_named(const char *name, bool *ok);                          /* "u32" -> {4,'u'} */
int ev_reg_bytes(const ev_snippet *sn, ev_type t);                          /* storage bytes (0 = predicate) */
const char *ev_decl_type(const ev_snippet *sn, const ev_reg *r, char *buf); /* ".b32", ".pred", ".f32" */

/* Reads `text` (PTX statements, or one asm() statement when it starts with
 * "asm"), finds its registers, their types and which are read/written.
 * Returns 0, or -1 with sn->err / sn->err_off set. */
int ev_parse(ev_snippet *sn, const char *text);
/* A constant integer expression (C operators, suffixes u/l); false when it is not one. */
bool ev_const_int(const char *text, long long *out);
ev_reg *ev_find(ev_snippet *sn, const char *name);
bool ev_is_special(const char *id); /* "tid", "laneid"...: without the '%' */
ev_reg *ev_add_reg(ev_snippet *sn, const char *name);

/* Type of operand `pos` (0-based; a `d|p` pair counts as two, `nd` destinations)
 * of the instruction `mnemonic`. Returns false when the mnemonic does not say. */
bool ev_operand_type(const char *mnemonic, int pos, int nd, bool in_vec, int vec_n, ev_type *t);
int ev_dest_count(const char *mnemonic, bool first_is_pair); /* 0, 1 or 2 */
bool ev_operand_is_imm(const char *mnemonic, int pos);

/* Input and output layout of the generated kernels: one 8-byte slot per value,
 * `nin` slots per lane in the input buffer, `nout` in the output buffer. */
typedef struct ev_layout {
    int nin, nout;
    int in_slot[EV_MAX_REGS], out_slot[EV_MAX_REGS];
} ev_layout;
void ev_layout_make(const ev_snippet *sn, ev_layout *lay);

/* The PTX module: .entry `kname`(.param .u64 in, .param .u64 out, .param .u32 n)
 * running the snippet once per thread index < n. */
void ev_gen_entry(ev_text *t, const ev_snippet *sn, const ev_layout *lay, const char *kname);
void ev_gen_header(ev_text *t);
/* A CUDA program printing what `ptxi eval` prints for the same inputs. */
int ev_gen_cuda(FILE *f, const ev_snippet *sn, const ev_layout *lay, unsigned lanes, const uint64_t *in, int table_csv);

void ev_gen_cuda_prelude(FILE *f);
void ev_gen_cuda_kernel(FILE *f, const ev_snippet *sn, const ev_layout *lay, const char *kname);

/* Table replay (tests/alu/README.md format); returns the exit status. */
int ev_table_replay(FILE *in, FILE *out, const char *path, FILE *emit_cuda, double timeout_s);
bool ev_table_looks_replay(const char *line);

#endif
