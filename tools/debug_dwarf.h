/* debug_dwarf.h — the DWARF that nvcc writes into PTX (`-G`: .debug_info,
 * .debug_abbrev, .debug_loc, .debug_str as .b8/.b32/.b64 directives) read into
 * a symbol table for the debugger: types, functions, lexical blocks and
 * inlined calls with their PTX ranges, variables with their locations.
 *
 * A PC is a PTX line: a range [lo, hi) holds the instructions whose PTX line
 * is >= the line of its low label and < the line of its high label. */
#ifndef PTXI_DEBUG_DWARF_H
#define PTXI_DEBUG_DWARF_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

enum dw_kind {
    DWK_BASE,
    DWK_PTR,
    DWK_ARRAY,
    DWK_STRUCT,
    DWK_UNION,
    DWK_TYPEDEF,
    DWK_CONST,
    DWK_VOLATILE,
    DWK_VOID,
    DWK_ENUM,
    DWK_FUNC
};
/* Base type encodings (DW_ATE_*). */
enum { DWE_BOOL = 2, DWE_FLOAT = 4, DWE_SIGNED = 5, DWE_SCHAR = 6, DWE_UNSIGNED = 7, DWE_UCHAR = 8 };
/* NVIDIA's address classes (DW_AT_address_class). */
enum {
    DWA_NONE = 0,
    DWA_REG = 2,
    DWA_SREG = 3,
    DWA_CONST = 4,
    DWA_GLOBAL = 5,
    DWA_LOCAL = 6,
    DWA_PARAM = 7,
    DWA_SHARED = 8,
    DWA_GENERIC = 12
};

typedef struct dw_type dw_type;
typedef struct dw_member {
    const char *name;
    uint32_t off;
    dw_type *type;
} dw_member;
typedef struct dw_enumer {
    const char *name;
    int64_t val;
} dw_enumer;
struct dw_type {
    uint8_t kind;
    uint8_t enc;      /* base: DWE_* */
    uint8_t aclass;   /* pointer: the space it points into (DWA_*) */
    const char *name; /* NULL for an unnamed one */
    uint64_t size;
    dw_type *target; /* pointer, array, typedef, const, volatile, enum; function: its result */
    uint64_t count;  /* array: elements (0: unknown) */
    uint32_t nmem;
    dw_member *mem; /* struct, union */
    uint32_t nenum;
    dw_enumer *en;
};

/* Where a variable lives over [lo, hi) (hi 0: everywhere in its scope). */
enum { DWL_NONE, DWL_REG, DWL_ADDR };
typedef struct dw_loc {
    uint32_t lo, hi;
    uint8_t kind;
    char reg[16];    /* DWL_REG: the PTX register, "%r5" */
    const char *sym; /* DWL_ADDR: a PTX symbol (NULL: an absolute address) */
    int64_t off;     /* DWL_ADDR: bytes past it */
} dw_loc;

typedef struct dw_var {
    const char *name;
    dw_type *type;
    uint8_t aclass; /* DWA_* of the location */
    bool param;
    uint32_t line;
    uint32_t nloc;
    dw_loc *loc;
} dw_var;

enum { DWS_FUNC, DWS_BLOCK, DWS_INLINED };
typedef struct dw_scope {
    uint8_t kind;
    const char *name, *linkage;    /* the function's (an inlined call's: the callee's) */
    dw_type *ret;                  /* the function's result (NULL: void) */
    int32_t fn;                    /* index of the PTX function holding the code; -1: none */
    uint32_t lo, hi;               /* PTX lines */
    uint32_t call_file, call_line; /* inlined: where the call is */
    uint32_t nvars;
    dw_var *vars;
    uint32_t nkids;
    struct dw_scope **kids;
    struct dw_scope *parent;
} dw_scope;

typedef struct dw_info {
    uint32_t nfuncs;
    dw_scope **funcs; /* functions with code */
    uint32_t nglobals;
    dw_var *globals;
    uint32_t ntypes;
    dw_type **types; /* every type read (for ptype NAME) */
    void *pool;      /* owns everything */
} dw_info;

/* The module's DWARF, or NULL when it has none (or it cannot be read: err says why). */
dw_info *dw_read(const ir_module *m, char *err, size_t errlen);
void dw_free(dw_info *di);
/* The scopes holding PTX line `line` of function fn, innermost first; returns how many (at most max). */
int dw_scopes_at(const dw_info *di, int32_t fn, uint32_t line, const dw_scope **out, int max);
/* The location of v at PTX line `line` (NULL: none there). */
const dw_loc *dw_var_loc(const dw_var *v, uint32_t line);
/* A type by name: "int", "pt_t", "struct Pt", "union Bits" (NULL when there is none). */
const dw_type *dw_find_type(const dw_info *di, const char *name);
/* The function whose linkage name or name is `name` (NULL: none). */
const dw_scope *dw_find_func(const dw_info *di, const char *name);
/* The string at `label` of the .debug_str section (-lineinfo names inlined functions so). */
bool dw_str_label(const ir_module *m, const char *label, char *out, size_t n);
/* Skips typedefs, const and volatile. */
const dw_type *dw_strip(const dw_type *t);

#endif
