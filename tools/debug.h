/* debug.h — `ptxi debug`, the step debugger: its session state, shared by the
 * command loop and execution control (debug_engine.c), breakpoints and
 * watchpoints (debug_break.c), inspection (debug_show.c), the PTX-file session
 * (cmd_debug.c) and the session inside a CUDA program (debug_app.c, linked
 * into libcudart.so.13). The debugger runs inside the interpreter's
 * per-instruction hook (vm_runtime.dbg), on the thread running the warp;
 * launches are deterministic (one host thread). */
#ifndef PTXI_DEBUG_H
#define PTXI_DEBUG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "launch_opts.h"
#include "ptxi_private.h"
#include "rt.h"
#include "warp.h"

#define DBG_MAX_BP 64
#define DBG_MAX_WATCH 8
#define DBG_MAX_DISPLAY 16

/* Marks on instructions (dbg.mark[function][code index]). */
enum { DBG_M_BREAK = 1, DBG_M_BRKPT = 2 };

typedef struct dbg_loc {
    uint32_t fn, idx; /* function of the program, code index */
} dbg_loc;

typedef struct dbg_bp {
    int id;
    bool enabled, temp;
    char spec[256], cond[256];
    dbg_loc *locs;
    uint32_t nlocs;
    unsigned hits, ignore; /* ignore: hits still to pass over */
} dbg_bp;

typedef struct dbg_watch {
    int id;
    bool enabled;
    unsigned hits, ignore;
    char spec[256], cond[256];
    uint8_t *host; /* the watched bytes as the host sees them */
    uint32_t len;
    const void *type; /* a C expression's type (a dw_type), NULL for an address */
    uint8_t old[8];
    /* where the bytes are, to watch them again in a new run: space (VM_SP_GLOBAL
     * or VM_SP_SHARED; -1: not again) and address; the expression whose type
     * shows them (typed), its type looked up again when they change */
    int sp;
    uint64_t addr;
    bool typed;
    char expr[256];
} dbg_watch;

/* A loaded module the debugger knows: its program, the PTX text's lines and
 * the marks on its instructions. */
typedef struct dbg_mod {
    ptxi_module *mod;
    char *path; /* the PTX file, or the name a program's fatbinary PTX goes by */
    char **ptx;
    uint32_t nptx;
    uint8_t **mark;
    uint32_t nfuncs;       /* mark's length, known after a device reset freed the module */
    struct dw_info *dwarf; /* its DWARF (-G), read on first use */
    bool dwarf_read;
} dbg_mod;

typedef enum dbg_mode { DBG_RUN, DBG_STEPI, DBG_NEXTI, DBG_STEP, DBG_NEXT, DBG_FINISH, DBG_UNTIL } dbg_mode;

typedef struct dbg {
    cli_launch lo;
    ptxi_ctx *ctx;
    cli_prepared prep;
    bool app;                    /* inside a CUDA program (debug_app.c) rather than on a PTX file */
    void (*run)(struct dbg *);   /* what `run` does (a PTX file); NULL: a program, which `run` lets go on */
    void (*kill)(struct dbg *);  /* ends the program on `kill`, `quit` (NULL: only the launch ends) */
    void (*rerun)(struct dbg *); /* a program: `run` starts it again (returns only when it cannot) */
    bool dead;                   /* a program that exited or was killed: `run` starts it again */
    dbg_mod *mods;
    uint32_t nmods, cur; /* the module in use: the one of the kernel running */
    /* the module in use, as the inspection code reads it */
    const char *path;
    ptxi_module *mod;
    vm_program *prog;
    uint8_t **mark; /* per function, per code index: DBG_M_* */
    char **ptx;     /* the PTX's lines (1-based: ptx[line - 1]) */
    uint32_t nptx;
    /* breakpoints, watchpoints, displays */
    dbg_bp bp[DBG_MAX_BP];
    int nbp, next_id;
    dbg_watch watch[DBG_MAX_WATCH];
    int nwatch, unarmed; /* unarmed: watchpoints a new run has still to arm */
    struct dbg_display {
        int id;
        bool enabled;
        char expr[128];
    } display[DBG_MAX_DISPLAY];
    int ndisplay; /* breakpoints, watchpoints and displays share next_id's numbers */
    bool break_on_launch;
    unsigned kernel_no; /* the launch in progress, counted from 0 in a program */
    /* execution */
    bool started, running, killing, quit;
    bool restart; /* `run` while stopped (a PTX file): start again once this launch is killed */
    dbg_mode mode;
    int repeat;        /* steps still to make before stopping */
    uint64_t step_cta; /* the warp being stepped: CTA and warp index */
    uint32_t step_warp, step_depth, step_file, step_line, step_idx;
    bool step_by_line;
    const vm_insn *step_pc;
    /* where the launch is stopped: the warp that hit the stop, its instruction */
    vm_cta *cta;
    vm_warp *stop_w;
    const vm_insn *stop_i;
    bool faulted;
    /* focus: warp and lane of the current CTA */
    uint32_t fwarp, flane;
    int sel_frame;   /* frame selected by frame/up/down: 0 innermost */
    uint64_t fblock; /* the block in focus at the last stop: its linear index + 1 */
    /* the last instruction run (for watchpoints): warp, instruction, executing lanes */
    vm_warp *prev_w;
    const vm_insn *prev_i;
    uint32_t prev_m;
    /* input: a prompt with line editing when readline is set, else lines of `in` */
    FILE *in, *devnull;
    bool tty, echo;
    bool no_confirm; /* set confirm off */
    char *(*readline)(const char *);
    int (*add_history)(const char *);
    char last[512];
    unsigned nvalues;   /* $N of print */
    uint32_t list_next; /* the PTX line a bare `list` goes on from, while the PC is list_at */
    const vm_insn *list_at;
    void *history;          /* the values of $N (debug_expr.c) */
    const void *watch_type; /* the type of the expression `watch` was last given (a dw_type) */
    /* finish: the call being finished and its function, to show the value returned */
    const vm_insn *finish_call;
    const vm_func *finish_fn;
    uint32_t finish_lo, finish_hi; /* finish out of an inlined call: its PTX lines */
} dbg;

/* debug_engine.c: stopping, stepping and the commands */
int dbg_hook(void *d, vm_warp *w, const vm_insn *i);
void dbg_fault_hook(void *d, vm_warp *w, const vm_insn *i, int lane, int status, const char *report);
/* Reads and runs commands until one resumes execution. Returns -1 when the kernel must be killed. */
int dbg_command_loop(dbg *d);
/* Ctrl-C while a kernel runs stops it before its next instruction (on while `on`). */
void dbg_catch_interrupt(bool on);
/* Adds a loaded module (taking the lines); the debugger owns its brkpt
 * instructions, which become no-ops (the hook stops before them). */
int dbg_add_module(dbg *d, ptxi_module *m, const char *path, char **ptx, uint32_t nptx);
/* Makes module k the one in use; breakpoints are resolved in it again. */
void dbg_use_module(dbg *d, uint32_t k);
/* Forgets module k (after a device reset freed it); no module is in use afterwards. */
void dbg_drop_module(dbg *d, uint32_t k);
void dbg_free_modules(dbg *d);
/* A function's name as shown: demangled inside a C++ program, else its PTX name (static buffer). */
const char *dbg_fn_name(dbg *d, const char *ptx_name);
/* Does `spec` name the function (its PTX name, its demangled name, or that name without the parameters)? */
bool dbg_names_fn(dbg *d, const char *ptx_name, const char *spec);

/* debug_break.c */
int dbg_resolve(dbg *d, const char *spec, dbg_loc **out, uint32_t *n, char *err, size_t errlen);
void dbg_remark(dbg *d);
int dbg_cmd_break(dbg *d, const char *args, bool temp);
int dbg_cmd_delete(dbg *d, const char *args);
int dbg_cmd_enable(dbg *d, const char *args, bool on);
/* condition N [COND], ignore N COUNT, undisplay [N...] */
int dbg_cmd_condition(dbg *d, const char *args);
int dbg_cmd_ignore(dbg *d, const char *args);
int dbg_cmd_undisplay(dbg *d, const char *args);
void dbg_info_breakpoints(dbg *d);
/* Lanes of the group at a marked instruction for which a breakpoint there holds; sets *hit. */
uint32_t dbg_check_break(dbg *d, vm_warp *w, const vm_insn *i, dbg_bp **hit);
int dbg_cmd_watch(dbg *d, const char *args);
/* A new run (a PTX file run again, a program started again): watchpoints
 * watch their addresses again from the next instruction run. */
void dbg_unarm_watches(dbg *d);
/* A PTX file run again: hit counts from 0, watchpoints unarmed. */
void dbg_new_run(dbg *d);
/* Arms the watchpoints a new run has not armed yet, against w's block. */
void dbg_arm_watches(dbg *d, vm_warp *w);
/* Reports a changed watchpoint and returns true. */
bool dbg_check_watch(dbg *d);
void dbg_free_breaks(dbg *d);
/* Resolves every breakpoint again in the module in use; those that have no code there wait. */
void dbg_reresolve(dbg *d);

/* debug_expr.c: C expressions over the DWARF of code built with -G */
struct dw_scope;
/* A frame of a lane as the debugger shows it: a function's frame, or an
 * inlined call inside one (the same registers, its own scopes and line). */
typedef struct dbg_frame {
    int phys; /* index in the warp's frames */
    const vm_insn *pc;
    const struct dw_scope *inner, *named; /* innermost scope, and the function or inlined call naming the frame */
    const char *inl_name;                 /* -lineinfo: the inlined function's name */
    uint32_t file, line;                  /* the .cu position shown */
} dbg_frame;
struct dw_info *dbg_dwarf(dbg *d);
int dbg_frames(dbg *d, vm_warp *w, int l, dbg_frame *out, int max);
const char *dbg_frame_name(dbg *d, const dbg_frame *fr, const vm_warp *w);
bool dbg_frame_inlined(const dbg_frame *fr);
/* " (a=1, p=0x...)": a frame's arguments as gdb's frame lines show them ("" without DWARF). */
void dbg_frame_args(dbg *d, vm_warp *w, int l, const dbg_frame *fr, char *buf, size_t len);
/* -lineinfo: the text of `last` (the .loc statement in effect at an instruction
 * whose source position is s) when it says `inlined_at`, else NULL. */
const char *dbg_loc_inlined(const ir_stmt *last, const vm_src *s);
/* The function inlined at instruction i of w (DWARF or -lineinfo .loc), NULL when none. */
const char *dbg_inlined_name(dbg *d, const vm_warp *w, const vm_insn *i);
/* The value of a C expression for lane l as text; record: it becomes $N. */
int dbg_expr_text(dbg *d, vm_warp *w, int l, const char *text, char f, bool record, char *buf, size_t len);
int dbg_expr_bool(dbg *d, vm_warp *w, int l, const char *text, bool *out, char *err, size_t errlen);
/* Where an lvalue expression lives (watch). */
int dbg_expr_address(dbg *d, const char *text, int *sp, uint64_t *addr, uint32_t *size, char *desc, size_t desclen,
                     char *err, size_t errlen);
/* The address x examines for a C expression: an array's or struct's, a pointer's value, a number. */
int dbg_expr_pointer(dbg *d, const char *text, int *sp, uint64_t *addr, char *err, size_t errlen);
/* The type of lvalue `text` for lane l of w at its PC (a dw_type), NULL when it is none. */
const void *dbg_expr_type_at(dbg *d, vm_warp *w, int l, const char *text);
void dbg_expr_format(const void *type, const uint8_t *bytes, char *buf, size_t len);
int dbg_cmd_ptype(dbg *d, const char *args, bool whatis);
int dbg_info_vars(dbg *d, bool args);
void dbg_show_returned(dbg *d, vm_warp *w, int l, const vm_insn *call, const vm_func *callee);
void dbg_history_free(dbg *d);

/* debug_show.c */
typedef struct dbg_val {
    uint64_t bits;
    uint8_t type; /* ir_type */
    bool ok;
} dbg_val;
/* The warp and lane in focus (NULL when not stopped). */
vm_warp *dbg_fwarp(dbg *d);
/* The function and code index of insn i of warp w. */
const vm_func *dbg_func_of(const vm_warp *w, const vm_insn *i);
/* Where lane l of w goes on (NULL once it exited), and its innermost frame. */
const vm_insn *dbg_lane_pc(const vm_warp *w, int l);
int dbg_lane_frame(const vm_warp *w, int l);
int dbg_find_reg(const ir_func *f, const char *name, size_t n);
/* The bytes of register k of lane l (16: a .b128 register's two halves). */
void dbg_reg_bytes(const vm_func *fn, uint8_t *fb, int k, int l, uint8_t out[16]);
int dbg_find_symbol(dbg *d, vm_warp *w, const char *name, size_t n, int *sp, uint64_t *a, uint8_t *type);
/* Host bytes of n bytes at address a of space sp (VM_SP_*) as lane l sees them; NULL when not readable. */
uint8_t *dbg_host_of(dbg *d, vm_warp *w, int l, int sp, uint64_t a, uint32_t n);
void dbg_format_val(dbg_val v, char f, char *buf, size_t len);
/* Evaluates a register, special register, symbol or number for lane l of w. */
int dbg_eval(dbg *d, vm_warp *w, int l, const char *expr, dbg_val *v, char *err, size_t errlen);
/* Evaluates "A op B" (or a single operand, true when non-zero) for lane l. */
int dbg_cond(dbg *d, vm_warp *w, int l, const char *expr, bool *out, char *err, size_t errlen);
/* Resolves "[@space] base [+ off]" to host bytes that may be read (len at most `want`). */
uint8_t *dbg_address(dbg *d, const char *expr, uint32_t want, char *desc, size_t desclen, char *err, size_t errlen);
/* The lane of the last instruction run whose store covered [p, p+n), or -1. */
int dbg_writer_lane(dbg *d, const uint8_t *p, uint32_t n);
void dbg_where(dbg *d, const vm_warp *w, const vm_insn *i, char *buf, size_t len);
void dbg_show_stop(dbg *d, const vm_warp *w, const vm_insn *i);
void dbg_focus_line(dbg *d, char *buf, size_t len);
int dbg_cmd_print(dbg *d, const char *fmt, const char *args, bool output);
int dbg_cmd_x(dbg *d, const char *fmt, const char *args);
int dbg_cmd_set_var(dbg *d, const char *args);
int dbg_cmd_info(dbg *d, const char *args);
int dbg_cmd_backtrace(dbg *d);
/* Prints frame k of the lane in focus as backtrace does, without its number. */
void dbg_cmd_backtrace_frame(dbg *d, int k);
int dbg_cmd_frame(dbg *d, int dir, const char *args); /* dir: 0 frame, 1 up, -1 down */
int dbg_cmd_list(dbg *d, const char *args);
void dbg_run_displays(dbg *d);
void dbg_show_display(dbg *d, const struct dbg_display *ds);
/* The source line `line` of .file `file` if the file is readable (static buffer), else NULL. */
const char *dbg_cu_line(dbg *d, uint32_t file, uint32_t line);
const char *dbg_file_name(dbg *d, uint32_t file);
const char *dbg_base(const char *path);

#endif
