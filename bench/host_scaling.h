/* host_scaling.h — how far this machine itself scales from 1 to N host
 * threads, without ptxi (ptxi-ceiling prints several kinds of work; ptxi-bench
 * heads its table with the one closest to ptxi's own). */
#ifndef PTXI_BENCH_HOST_SCALING_H
#define PTXI_BENCH_HOST_SCALING_H

#include <stdint.h>

/* Seconds on the monotonic clock. */
double host_now(void);

/* Work for one thread: id tells threads apart, iters sets the amount. */
typedef void (*host_work)(long id, long iters);

/* The same mix of integer hashing and float multiply-add as
 * host_throughput_mix, on 16-lane vectors: what ptxi's lane loops compile to.
 * With AVX-512 many cores clock lower when all of them run wide vector code. */
void host_vector_mix(long id, long iters);

/* Keeps a result of the work alive (so the compiler cannot drop the work);
 * safe from every thread at once. */
void host_keep(uint64_t v);

/* n copies of work at once: the speed-up ceiling n * (time alone) / (time of
 * the n together), best of reps; *one and *all (when not NULL) get the times. */
double host_ceiling(host_work work, long iters, int n, int reps, double *one, double *all);

#endif
