/* launch_opts.h — the launch options `ptxi run` and `ptxi debug` share: kernel,
 * grid, block, dynamic shared memory, parameters from the command line, buffers
 * from and to files, host threads and the watchdog. */
#ifndef PTXI_LAUNCH_OPTS_H
#define PTXI_LAUNCH_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptxi.h"

#define CLI_MAX_ARGS 256

/* getopt_long entries and short options of the shared options; a command adds its own. */
#define CLI_LAUNCH_LONGOPTS                                                                                            \
    {"kernel", required_argument, 0, 'k'}, {"grid", required_argument, 0, 'g'}, {"block", required_argument, 0, 'b'},  \
        {"shared", required_argument, 0, 's'}, {"arg", required_argument, 0, 'a'}, {"out", required_argument, 0, 'o'}, \
        {"threads", required_argument, 0, 't'}, {"timeout", required_argument, 0, 'T'}, {                              \
        "no-contract", no_argument, 0, 'C'                                                                             \
    }
#define CLI_LAUNCH_SHORTOPTS "k:g:b:s:a:o:t:"
#define CLI_LAUNCH_USAGE                                                                                        \
    "  -k, --kernel NAME    the .entry to run (may be omitted when there is one)\n"                             \
    "  -g, --grid X,Y,Z     grid dimensions (default 1)\n"                                                      \
    "  -b, --block X,Y,Z    block dimensions (default 1)\n"                                                     \
    "  -s, --shared BYTES   dynamic shared memory\n"                                                            \
    "      --no-contract    run mul/add/sub as written: no fma contraction as ptxas does (PTXI_CONTRACT=0)\n"   \
    "  -a, --arg A          one kernel parameter, in order:\n"                                                  \
    "                         u8: u16: u32: u64: s8: s16: s32: s64:VALUE  integers (decimal or 0x...)\n"        \
    "                         f32: f64:VALUE    floats (decimal, or 0x... raw bits)\n"                          \
    "                         file:PATH         a device buffer holding PATH's bytes (its pointer is passed)\n" \
    "                         zeros:BYTES       a zeroed device buffer\n"                                       \
    "                         null              a null pointer\n"                                               \
    "  -o, --out N=FILE     after the kernel, write the buffer of argument N (0-based) to FILE\n"               \
    "  -t, --threads N      host threads running CTAs (default: one per core)\n"                                \
    "      --timeout S      stop the kernel after S seconds (watchdog)\n"

typedef struct cli_launch {
    const char *cmd; /* "run", "debug": the prefix of messages */
    const char *kname;
    const char *args[CLI_MAX_ARGS], *outs[CLI_MAX_ARGS];
    int nargs, nouts;
    ptxi_dim3 grid, block;
    unsigned long shared;
    ptxi_ctx_options co;
} cli_launch;

/* One parsed parameter: its bytes, and the device buffer it made (if any). */
typedef struct cli_arg {
    uint8_t bytes[8];
    size_t size;
    ptxi_dptr buf;
    size_t buflen;
} cli_arg;

/* Everything a launch needs once the module is loaded. */
typedef struct cli_prepared {
    ptxi_kernel *k;
    cli_arg *av;
    void *pv[CLI_MAX_ARGS];
} cli_prepared;

void cli_launch_init(cli_launch *l, const char *cmd);
/* Handles one getopt result: 0 taken, 1 not a shared option, 2 a bad value (reported). */
int cli_launch_opt(cli_launch *l, int c, const char *arg);
/* Picks the kernel, makes the parameters and checks --out: 0, or 2 after a message. */
int cli_launch_prepare(ptxi_ctx *ctx, ptxi_module *m, const char *path, const cli_launch *l, cli_prepared *p);
/* The launch itself, with the opt-in a CUDA program would make for large dynamic shared memory. */
ptxi_status cli_launch_start(const cli_launch *l, cli_prepared *p);
/* Writes the --out buffers: 0, or 2 after a message. */
int cli_launch_write_outs(ptxi_ctx *ctx, const cli_launch *l, const cli_prepared *p);
void cli_launch_release(cli_prepared *p);
/* Prints "ptxi CMD: " and the message to stderr; returns 2. */
int cli_bad(const cli_launch *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
