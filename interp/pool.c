/* pool.c — the host threads that run a launch's workers.
 * Launches reuse one pool of host threads, started as launches first ask for
 * them and kept until the process ends: a launch then costs no thread
 * creation. The launching thread runs job 0 itself. A launch that finds the
 * pool busy (another host thread is launching) starts threads of its own, as
 * does one that cannot grow the pool; large copies use the pool when it is
 * free (vm_pool_copy). After fork() the child starts afresh.
 *
 * A launch of a few milliseconds on 16 threads lost a tenth of its time to
 * waking them (bench/README.md, round 14): a condition variable's broadcast
 * woke them one after another through its mutex, each into a launch already
 * under way, and the launching thread slept on another one for the last. So
 * the threads wait on a futex word of their own and take their jobs from one
 * atomic word, and both sides spin briefly before they sleep: a thread just
 * done spins for as long as its job ran (at most SPIN_MAX), so that launches
 * in a loop find it awake, and the launching thread spins for the others'
 * last jobs, which end within microseconds of its own. Jobs still untaken
 * when its own ends it runs itself: a worker that starts late finds the grid
 * taken and ends at once, so the launch need not wait for a thread to wake. */
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pool.h"
#include "vm.h"

enum { POOL_MAX = 1024 };
#define SPIN_MAX 5e-4  /* s a done thread spins for the next launch, at most */
#define SPIN_DONE 5e-4 /* s the launching thread spins for the others to end */

/* A futex word, and how many threads sleep on it: a change wakes them with a
 * system call only when some do (the spinning ones see it). */
typedef struct fword {
    atomic_uint v, sleepers;
} fword;

static struct {
    pthread_mutex_t lock; /* th, nth, busy, copying */
    pthread_cond_t freed; /* busy became false after a copy */
    pthread_t th[POOL_MAX];
    unsigned nth;
    bool busy, copying; /* held by a launch or a copy (copying) */
    /* The job: launch number (seq) << 32 | jobs << 16 | next job to take. A
     * thread takes one by compare-and-swap; launch number and count make a
     * late thread's swap fail once the next launch has begun. */
    _Atomic uint64_t take;
    unsigned seq;       /* launches begun (by the thread that holds busy) */
    fword launch; /* bumped as each launch starts, by a heads-up, and to quit */
    fword left;   /* the launch's jobs not yet done, job 0 aside */
    atomic_bool quit;
    /* fixed while the launch has jobs to take (written before take) */
    void *(*fn)(void *); /* the job: fn(items + k * stride) */
    char *items;
    size_t stride;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .freed = PTHREAD_COND_INITIALIZER};

/* The value's change is seq_cst, and so is a sleeper's count before it
 * looks at the value once more: either the sleeper sees the change or the
 * changer sees the sleeper. */
static void wake(fword *w) {
    if (atomic_load(&w->sleepers)) syscall(SYS_futex, &w->v, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Spins while w's value is v for up to s seconds, then sleeps until it changes. */
static unsigned await_change(fword *w, unsigned v, double s) {
    unsigned now;
    double until = s > 0 ? vm_now() + s : 0;
    for (unsigned i = 1; (now = atomic_load_explicit(&w->v, memory_order_acquire)) == v; i++) {
        if (until && (i % 64 || vm_now() < until)) {
            VM_PAUSE();
            continue;
        }
        until = 0;
        atomic_fetch_add(&w->sleepers, 1);
        if (atomic_load(&w->v) == v) syscall(SYS_futex, &w->v, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
        atomic_fetch_sub(&w->sleepers, 1);
    }
    return now;
}

/* Takes and runs the current launch's jobs until none is left; the seconds
 * spent in them. */
static double run_jobs(void) {
    double ran = 0;
    uint64_t t = atomic_load_explicit(&pool.take, memory_order_acquire);
    while ((t & 0xffff) < (t >> 16 & 0xffff)) {
        if (!atomic_compare_exchange_weak_explicit(&pool.take, &t, t + 1, memory_order_acq_rel, memory_order_acquire))
            continue;
        double t0 = vm_now();
        pool.fn(pool.items + (t & 0xffff) * pool.stride);
        ran += vm_now() - t0;
        if (atomic_fetch_sub(&pool.left.v, 1) == 1) wake(&pool.left);
        t = atomic_load_explicit(&pool.take, memory_order_acquire);
    }
    return ran;
}

static void *pool_main(void *arg) {
    unsigned seen = (unsigned)(uintptr_t)arg;
    double spin = 0;
    for (;;) {
        seen = await_change(&pool.launch, seen, spin);
        if (atomic_load(&pool.quit)) break;
        spin = run_jobs();
        /* no job: a heads-up (vm_pool_heads_up) */
        if (spin > SPIN_MAX || spin == 0) spin = SPIN_MAX;
    }
    return NULL;
}

static void pool_after_fork(void) {
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.freed, NULL);
    pool.nth = 0;
    pool.busy = pool.copying = false;
    atomic_store(&pool.take, 0);
    atomic_store(&pool.launch.v, 0);
    atomic_store(&pool.launch.sleepers, 0);
    atomic_store(&pool.left.v, 0);
    atomic_store(&pool.left.sleepers, 0);
    atomic_store(&pool.quit, false);
}

static void pool_atfork(void) { pthread_atfork(NULL, NULL, pool_after_fork); }

static pthread_key_t kept_key; /* the blocks a host thread keeps (below) */
static atomic_bool kept_made;

/* The pool's threads end with the process (or when the library is unloaded),
 * giving back the blocks they kept; then the key goes, whose destructor would
 * otherwise run in an unloaded library when the program's own threads end. */
__attribute__((destructor)) static void pool_stop(void) {
    pthread_mutex_lock(&pool.lock);
    bool busy = pool.busy;
    unsigned nth = pool.nth;
    if (!busy) {
        atomic_store(&pool.quit, true);
        atomic_fetch_add(&pool.launch.v, 1);
        wake(&pool.launch);
    }
    pthread_mutex_unlock(&pool.lock);
    for (unsigned k = 0; !busy && k < nth; k++) pthread_join(pool.th[k], NULL);
    if (!busy && kept_made) pthread_key_delete(kept_key);
}

/* Runs the jobs on the pool and returns when all have returned. A launch
 * (own_threads) that finds the pool busy with a copy waits for it, as a copy
 * ends soon; one that finds it busy with another launch, which may run for
 * as long as it waits on this one, starts threads of its own. A copy runs on
 * the pool only when it is free (false otherwise, or when it cannot grow). */
static bool pool_run(void *(*fn)(void *), char *it, size_t stride, unsigned n, bool own_threads) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, pool_atfork);
    pthread_mutex_lock(&pool.lock);
    while (own_threads && pool.busy && pool.copying) pthread_cond_wait(&pool.freed, &pool.lock);
    bool mine = !pool.busy && !atomic_load(&pool.quit) && n - 1 <= POOL_MAX;
    unsigned launch = atomic_load(&pool.launch.v);
    while (mine && pool.nth < n - 1)
        if (pthread_create(&pool.th[pool.nth], NULL, pool_main, (void *)(uintptr_t)launch) == 0) pool.nth++;
        else mine = false;
    if (mine) pool.busy = true, pool.copying = !own_threads;
    pthread_mutex_unlock(&pool.lock);
    if (!mine && !own_threads) return false;
    if (!mine) { /* jobs that get no thread run here, after the others started */
        pthread_t *th = malloc(n * sizeof *th);
        unsigned made = 1;
        while (th && made < n && pthread_create(&th[made], NULL, fn, it + made * stride) == 0) made++;
        for (unsigned k = made; k < n; k++) fn(it + k * stride);
        fn(it);
        for (unsigned k = 1; k < made; k++) pthread_join(th[k], NULL);
        free(th);
        return true;
    }
    pool.fn = fn, pool.items = it, pool.stride = stride;
    atomic_store_explicit(&pool.left.v, n - 1, memory_order_relaxed);
    atomic_store_explicit(&pool.take, (uint64_t)++pool.seq << 32 | (uint64_t)n << 16 | 1, memory_order_release);
    atomic_fetch_add(&pool.launch.v, 1);
    wake(&pool.launch);
    fn(it);
    /* A job no thread has taken by now (one that slept is slow to wake: up
     * to 0.6 ms on a VM) runs here rather than be waited for. */
    run_jobs();
    unsigned left;
    while ((left = atomic_load_explicit(&pool.left.v, memory_order_acquire))) await_change(&pool.left, left, SPIN_DONE);
    pthread_mutex_lock(&pool.lock);
    if (pool.copying) pthread_cond_broadcast(&pool.freed);
    pool.busy = pool.copying = false;
    pthread_mutex_unlock(&pool.lock);
    return true;
}

void vm_pool_run(void *(*fn)(void *), void *items, size_t stride, unsigned n) { pool_run(fn, items, stride, n, true); }

void vm_pool_heads_up(void) {
    if (pthread_mutex_trylock(&pool.lock)) return;
    if (!pool.busy && pool.nth) {
        atomic_fetch_add(&pool.launch.v, 1);
        wake(&pool.launch);
    }
    pthread_mutex_unlock(&pool.lock);
}

/* A piece of a spread copy or fill (src NULL: fill with c). */
typedef struct piece {
    char *dst;
    const char *src;
    size_t n;
    int c;
} piece;

static void *copy_piece(void *arg) {
    piece *p = arg;
    if (p->src) memcpy(p->dst, p->src, p->n);
    else memset(p->dst, p->c, p->n);
    return NULL;
}

enum { PIECE_MIN = 4 << 20, PIECES_MAX = 64 };

void vm_pool_copy(void *dst, const void *src, int c, size_t n, unsigned threads) {
    piece ps[PIECES_MAX];
    if (!n) return;
    if (src && (char *)dst < (const char *)src + n && (const char *)src < (char *)dst + n) {
        memmove(dst, src, n); /* overlapping: one piece, in the right order */
        return;
    }
    unsigned most = threads < 1 ? 1 : threads > PIECES_MAX ? PIECES_MAX : threads;
    size_t each = (n + most - 1) / most;
    if (each < PIECE_MIN) each = PIECE_MIN;
    each = (each + 4095) & ~(size_t)4095;
    unsigned k = 0;
    for (size_t at = 0; at < n; k++, at += each)
        ps[k] = (piece){(char *)dst + at, src ? (const char *)src + at : NULL, n - at < each ? n - at : each, c};
    if (k > 1 && pool_run(copy_piece, (char *)ps, sizeof *ps, k, false)) return;
    copy_piece(&(piece){dst, src, n, c});
}

/* ---- blocks kept by a host thread between launches ---- */

/* A launch's CTA slots (warps, frames, shared memory) were allocated as
 * each worker began and freed as it ended. The allocator handed the freed
 * memory at the top of a thread's heap back to the kernel (madvise), and the
 * next launch faulted it in again: two system calls a launch on a tiny
 * kernel, and each madvise interrupts every other CPU that runs one of the
 * process's threads (bench/README.md, round 14). A thread keeps up to
 * KEPT_MAX blocks, KEPT_BYTES in all, for its next launch. */
enum { KEPT_MAX = 48, KEPT_BYTES = 8 << 20 };

typedef struct kept {
    void *p[KEPT_MAX];
    size_t n[KEPT_MAX];
    unsigned count;
    size_t bytes;
} kept;

static _Thread_local kept *mine;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;

static void kept_drop(void *arg) {
    kept *k = arg;
    for (unsigned i = 0; i < k->count; i++) free(k->p[i]);
    free(k);
    mine = NULL;
}

static void kept_init(void) { kept_made = pthread_key_create(&kept_key, kept_drop) == 0; }

void *vm_block_alloc(size_t n) {
    n = (n + 63) & ~(size_t)63;
    kept *k = mine;
    for (unsigned i = 0; k && i < k->count; i++)
        if (k->n[i] == n) {
            void *p = k->p[i];
            k->bytes -= n;
            k->count--;
            k->p[i] = k->p[k->count], k->n[i] = k->n[k->count];
            return p;
        }
    return aligned_alloc(64, n);
}

void vm_block_free(void *p, size_t n) {
    if (!p) return;
    n = (n + 63) & ~(size_t)63;
    kept *k = mine;
    if (!k) {
        pthread_once(&kept_once, kept_init);
        if ((k = calloc(1, sizeof *k)) && pthread_setspecific(kept_key, k) == 0) mine = k;
        else {
            free(k);
            k = NULL;
        }
    }
    if (!k || k->count == KEPT_MAX || k->bytes + n > KEPT_BYTES) {
        free(p);
        return;
    }
    k->p[k->count] = p, k->n[k->count] = n;
    k->count++;
    k->bytes += n;
}
