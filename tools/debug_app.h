/* debug_app.h — what libcudart.so.13 calls to put a CUDA program under `ptxi
 * debug -- PROGRAM` (debug_app.c; runtime/cudart/debug_hook.c calls them only
 * when PTXI_DEBUG is set). Only ptxi.h types, so the CUDA headers can sit beside it. */
#ifndef PTXI_DEBUG_APP_H
#define PTXI_DEBUG_APP_H

#include <stddef.h>

#include "ptxi.h"

/* After the context is created, before any module is loaded into it. `how` is
 * PTXI_DEBUG's value: "in=tty" or "in=FD", and ",ack=FD" (see cmd_debug.c). */
void dbg_app_attach(ptxi_ctx *ctx, const char *how);
/* A module just loaded from the program's fatbinary, with its PTX text. */
void dbg_app_module(ptxi_module *m, const char *ptx, size_t len);
/* The program's modules are loaded (or loaded again): the first time, commands are read. */
void dbg_app_loaded(void);
/* Around each kernel launch. */
void dbg_app_launch(ptxi_kernel *k, ptxi_dim3 grid, ptxi_dim3 block);
void dbg_app_launch_end(void);

#endif
