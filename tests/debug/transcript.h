/* transcript.h — shared by the debugger tests: checking a transcript for lines
 * in order, and talking to the debugger on a pseudo-terminal. */
#ifndef PTXI_TEST_TRANSCRIPT_H
#define PTXI_TEST_TRANSCRIPT_H

#include <criterion/criterion.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Reads the terminal until `want` appears after `from`, or 20 s pass. */
static inline const char *wait_for(int fd, size_t from, const char *want) {
    for (int tries = 0; tries < 400; tries++) {
        seen[nseen] = 0;
        const char *hit = strstr(seen + from, want);
        if (hit) return hit;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 50) > 0) {
            ssize_t r = read(fd, seen + nseen, sizeof seen - nseen - 1);
            if (r > 0) nseen += (size_t)r;
            else if (r < 0) break;
        }
    }
    seen[nseen] = 0;
    return NULL;
}

static inline void type(int fd, const char *keys) { cr_assert(write(fd, keys, strlen(keys)) == (ssize_t)strlen(keys)); }

/* Lets the running kernel spin a while, then types Ctrl-C: the debugger
 * stops it (saying so) at `where`. Returns where the terminal is then. */
static inline size_t interrupt_at(int fd, const char *where) {
    usleep(300000);
    size_t mark = nseen;
    type(fd, "\003");
    cr_assert(wait_for(fd, mark, "Program received signal SIGINT, Interrupt."), "no stop:\n%s", seen);
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
