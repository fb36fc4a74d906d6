/* pool.c — the host threads that run a launch's workers.
 * Launches reuse one pool of host threads, started as launches first ask for
 * them and kept, idle on a condition variable, until the process ends: a
 * launch then costs no thread creation, and its workers start together. The
 * launching thread runs job 0 itself. A launch that finds the pool busy
 * (another host thread is launching) starts threads of its own, as does one
 * that cannot grow the pool. After fork() the child starts afresh. */
#include <pthread.h>
#include <stdlib.h>

#include "pool.h"

enum { POOL_MAX = 1024 };

static struct {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    pthread_t th[POOL_MAX];
    unsigned nth;        /* threads started */
    void *(*fn)(void *); /* the job: fn(items + k * stride) for k = 1..n-1 */
    char *items;
    size_t stride;
    unsigned n, next, running;
    bool busy, quit;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .go = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

static void *pool_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (!pool.quit && pool.next >= pool.n) pthread_cond_wait(&pool.go, &pool.lock);
        if (pool.quit) break;
        void *item = pool.items + pool.next++ * pool.stride;
        void *(*fn)(void *) = pool.fn;
        pthread_mutex_unlock(&pool.lock);
        fn(item);
        pthread_mutex_lock(&pool.lock);
        if (--pool.running == 0) pthread_cond_signal(&pool.done);
    }
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

static void pool_after_fork(void) {
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.go, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.nth = pool.n = pool.next = pool.running = 0;
    pool.fn = NULL;
    pool.items = NULL;
    pool.busy = pool.quit = false;
}

static void pool_atfork(void) { pthread_atfork(NULL, NULL, pool_after_fork); }

/* The pool's threads end with the process (or when the library is unloaded). */
__attribute__((destructor)) static void pool_stop(void) {
    pthread_mutex_lock(&pool.lock);
    if (pool.busy) {
        pthread_mutex_unlock(&pool.lock);
        return;
    }
    pool.quit = true;
    pthread_cond_broadcast(&pool.go);
    unsigned nth = pool.nth;
    pthread_mutex_unlock(&pool.lock);
    for (unsigned k = 0; k < nth; k++) pthread_join(pool.th[k], NULL);
}

void vm_pool_run(void *(*fn)(void *), void *items, size_t stride, unsigned n) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, pool_atfork);
    char *it = items;
    pthread_mutex_lock(&pool.lock);
    bool mine = !pool.busy && !pool.quit && n - 1 <= POOL_MAX;
    while (mine && pool.nth < n - 1)
        if (pthread_create(&pool.th[pool.nth], NULL, pool_main, NULL) == 0) pool.nth++;
        else mine = false;
    if (mine) {
        pool.busy = true;
        pool.fn = fn, pool.items = it, pool.stride = stride, pool.n = n, pool.next = 1, pool.running = n - 1;
        pthread_cond_broadcast(&pool.go);
    }
    pthread_mutex_unlock(&pool.lock);
    if (!mine) { /* jobs that get no thread run here, after the others started */
        pthread_t *th = malloc(n * sizeof *th);
        unsigned made = 1;
        while (th && made < n && pthread_create(&th[made], NULL, fn, it + made * stride) == 0) made++;
        for (unsigned k = made; k < n; k++) fn(it + k * stride);
        fn(it);
        for (unsigned k = 1; k < made; k++) pthread_join(th[k], NULL);
        free(th);
        return;
    }
    fn(it);
    pthread_mutex_lock(&pool.lock);
    while (pool.running) pthread_cond_wait(&pool.done, &pool.lock);
    pool.fn = NULL, pool.items = NULL, pool.n = pool.next = 0, pool.busy = false;
    pthread_mutex_unlock(&pool.lock);
}
