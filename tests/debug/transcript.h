/* transcript.h — shared by the debugger tests: checking a transcript for lines
 * in order, and talking to the debugger on a pseudo-terminal. */
#ifndef PTXI_TEST_TRANSCRIPT_H
#define PTXI_TEST_TRANSCRIPT_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Each of the lines appears, in this order. */
static inline void expect_in_order(const char *out, const char *const *want, int n) {
    const char *at = out;
    for (int k = 0; k < n; k++) {
        const char *hit = strstr(at, want[k]);
        cr_assert(hit, "expected \"%s\" (in order) in the transcript:\n%s", want[k], out);
        at = hit + strlen(want[k]);
    }
}
#define EXPECT(out, ...)                                           \
    do {                                                           \
        const char *const w_[] = {__VA_ARGS__};                    \
        expect_in_order(out, w_, (int)(sizeof w_ / sizeof w_[0])); \
    } while (0)

/* What the terminal has shown so far. */
static char seen[1 << 16];
static size_t nseen;

static inline double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Reads the terminal until `want` appears after `from`, or `secs` seconds pass
 * (however the output comes: a line editor redrawing sends it a few bytes at a time). */
static inline const char *wait_for_s(int fd, size_t from, const char *want, double secs) {
    for (double end = now_s() + secs;;) {
        seen[nseen] = 0;
        const char *hit = strstr(seen + from, want);
        if (hit) return hit;
        double left = end - now_s();
        if (left <= 0) break;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, left > 0.05 ? 50 : 1 + (int)(left * 1000)) > 0) {
            ssize_t r = read(fd, seen + nseen, sizeof seen - nseen - 1);
            if (r > 0) nseen += (size_t)r;
            else if (r < 0) break;
        }
    }
    seen[nseen] = 0;
    return NULL;
}

/* wait_for_s with time enough for a loaded machine. */
static inline const char *wait_for(int fd, size_t from, const char *want) { return wait_for_s(fd, from, want, 30); }

/* Waits for the child on the terminal to end (killing it after 30 s); its wait status. */
static inline int wait_exit(int fd, pid_t pid) {
    int status = 0;
    for (double end = now_s() + 30; waitpid(pid, &status, WNOHANG) == 0;) {
        if (now_s() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        wait_for_s(fd, nseen, "\001never", 0.1); /* keeps the terminal drained */
    }
    close(fd);
    return status;
}

static inline void type(int fd, const char *keys) { cr_assert(write(fd, keys, strlen(keys)) == (ssize_t)strlen(keys)); }

/* Types keys, then waits for `want` in what follows. */
static inline void say(int fd, const char *keys, const char *want) {
    size_t mark = nseen;
    type(fd, keys);
    cr_assert(wait_for(fd, mark, want), "typed \"%s\", wanted \"%s\":\n%s", keys, want, seen);
}

/* Starts argv (argv[0] the path) in `dir` on a new 24x120 pseudo-terminal: its
 * pid; *fd is the terminal. */
static inline pid_t start_on_tty(int *fd, const char *dir, const char *const *argv) {
    struct winsize ws = {24, 120, 0, 0};
    pid_t pid = forkpty(fd, NULL, NULL, &ws);
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (chdir(dir)) _exit(127);
        setenv("TERM", "xterm", 1);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    nseen = 0;
    return pid;
}

/* Types Ctrl-C at a running kernel that spins: the debugger stops it (saying
 * so) at `where`. A key that came while the debugger was still between
 * commands is not for the kernel: Ctrl-C is typed again until the kernel stops.
 * Returns where the terminal is then. */
static inline size_t interrupt_at(int fd, const char *where) {
    size_t mark = nseen;
    bool stopped = false;
    for (int k = 0; k < 20 && !stopped; k++) {
        usleep(200000);
        type(fd, "\003");
        stopped = wait_for_s(fd, mark, "Program received signal SIGINT, Interrupt.", 2) != NULL;
    }
    cr_assert(stopped, "no stop:\n%s", seen);
    cr_assert(wait_for(fd, mark, where), "%s", seen);
    return nseen;
}

#define PTXI_BIN PTXI_BINARY_DIR "/bin/ptxi"

/* Runs `ptxi debug ARGS -x SCRIPT` in dir and returns everything it printed. */
static inline char *debug_run(const char *dir, const char *args, const char *script) {
    char path[] = "/tmp/ptxi_dbg_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(script, f);
    fclose(f);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && timeout 60 '%s' debug %s -x '%s' 2>&1", dir, PTXI_BIN, args, path);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    for (size_t r; (r = fread(out + n, 1, cap - n - 1, p)) > 0;) {
        n += r;
        if (n + 1 == cap) out = realloc(out, cap *= 2);
    }
    out[n] = 0;
    pclose(p);
    unlink(path);
    return out;
}

#endif
