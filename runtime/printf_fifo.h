/* printf_fifo.h — the device printf FIFO: vprintf records are captured at the
 * device call (format, argument bytes, %s strings copied) and formatted on the
 * host at a flush point, as the CUDA runtime does. */
#ifndef RT_PRINTF_FIFO_H
#define RT_PRINTF_FIFO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct rt_fifo rt_fifo;

/* Copies n bytes of device memory at generic address addr into dst. Returns 1
 * on success, 0 when any byte of [addr, addr+n) is not readable (nothing is
 * then promised about dst). Must be callable from many threads at once. */
typedef int (*rt_read_fn)(void *read_ctx, uint64_t addr, void *dst, size_t n);

/* What rt_fifo_push returns besides an argument count. */
enum {
    RT_FIFO_NULL_FORMAT = -1, /* fmt was NULL: CUDA's printf returns -1 */
    RT_FIFO_FAULT = -3,       /* the format or a %s string is unreadable: the GPU
                                   stops the kernel with cudaErrorIllegalAddress, so
                                   the caller raises PTXI_ILLEGAL_ADDRESS (read_ctx
                                   can note the failing address) */
};

/* A FIFO holding `bytes` of records (bytes >= 64). NULL when out of memory. */
rt_fifo *rt_fifo_create(size_t bytes);
void rt_fifo_destroy(rt_fifo *f); /* NULL is a no-op; pending records are lost */
/* Changes the capacity, keeping the newest records that fit. 0 on success,
 * -1 when out of memory (the FIFO is then unchanged). Not while pushes run. */
int rt_fifo_resize(rt_fifo *f, size_t bytes);
size_t rt_fifo_capacity(const rt_fifo *f);

/* The device's vprintf(fmt, args): fmt is the generic address of the format,
 * args the generic address of the argument buffer (each argument at its
 * natural alignment: char/short/int 4 bytes, long/pointer/double 8; may be 0
 * when there are no arguments). Thread-safe. Returns the number of arguments
 * the format consumes (CUDA's printf return value), or an RT_FIFO_* code. */
int rt_fifo_push(rt_fifo *f, uint64_t fmt, uint64_t args, rt_read_fn read, void *read_ctx);

/* Formats every pending record, oldest first, onto out (NULL discards them),
 * and empties the FIFO. */
void rt_fifo_flush(rt_fifo *f, FILE *out);

/* Records evicted to make room (or too large to hold) since the FIFO was created. */
uint64_t rt_fifo_lost(const rt_fifo *f);

#endif
