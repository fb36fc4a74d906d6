/* test_debug_tty.c — the interactive `ptxi debug` prompt on a pseudo-terminal:
 * line editing (beginning of line, deleting characters) and history recall
 * with the up arrow, as a user at a terminal types them. */
#include <criterion/criterion.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "transcript.h"

#define PTXI PTXI_BINARY_DIR "/bin/ptxi"
#define DEMO_DIR PTXI_SOURCE_DIR "/tests/debug/demo"

/* Starts `ptxi debug debug_demo.sm_90.ptx ARGS...` on a new pseudo-terminal. */
#define START(fd, pid, ...)                                                                  \
    do {                                                                                     \
        struct winsize ws_ = {24, 120, 0, 0};                                                \
        pid = forkpty(&fd, NULL, NULL, &ws_);                                                \
        cr_assert(pid >= 0);                                                                 \
        if (pid == 0) {                                                                      \
            if (chdir(DEMO_DIR)) _exit(127);                                                 \
            setenv("TERM", "xterm", 1);                                                      \
            execl(PTXI, "ptxi", "debug", "debug_demo.sm_90.ptx", __VA_ARGS__, (char *)NULL); \
            _exit(127);                                                                      \
        }                                                                                    \
        nseen = 0;                                                                           \
    } while (0)

/* Types keys, then waits for `want` in what follows. */
static void say(int fd, const char *keys, const char *want) {
    size_t mark = nseen;
    type(fd, keys);
    cr_assert(wait_for(fd, mark, want), "typed \"%s\", wanted \"%s\":\n%s", keys, want, seen);
}

/* Types the last keys (quit, or the answer to its question) and waits for a clean exit. */
static void finish_with(int fd, pid_t pid, const char *keys) {
    type(fd, keys);
    int status = 0;
    for (int k = 0; k < 100 && waitpid(pid, &status, WNOHANG) == 0; k++) wait_for(fd, nseen, "\001never");
    if (waitpid(pid, &status, WNOHANG) == 0) kill(pid, SIGKILL), waitpid(pid, &status, 0);
    close(fd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit status %d:\n%s", status, seen);
}

static void finish(int fd, pid_t pid) { finish_with(fd, pid, "quit\r"); }

Test(debug_tty, line_editing_and_history) {
    int fd;
    pid_t pid;
    START(fd, pid, "-k", "demo", "-b", "48", "-a", "file:in.bin", "-a", "zeros:256", "-a", "s32:40");
    cr_assert(wait_for(fd, 0, "(ptxi) "), "no prompt:\n%s", seen);
    /* "reak demo", back to the start of the line (^A), insert the missing "b" */
    size_t mark = nseen;
    type(fd, "reak demo\001b\r");
    cr_assert(wait_for(fd, mark, "Breakpoint 1 at demo"), "line editing:\n%s", seen);
    /* the up arrow brings "break demo" back */
    mark = nseen;
    type(fd, "\033[A\r");
    cr_assert(wait_for(fd, mark, "Breakpoint 2 at demo"), "history:\n%s", seen);
    /* two stray characters deleted before Enter */
    mark = nseen;
    type(fd, "info breakpointsxx\177\177\r");
    cr_assert(wait_for(fd, mark, "2       breakpoint      keep y"), "deleting:\n%s", seen);
    finish(fd, pid);
}

/* A kernel spinning on a flag: Ctrl-C stops it, setting the flag ends it. */
Test(debug_tty, ctrl_c_interrupts_the_kernel) {
    int fd;
    pid_t pid;
    START(fd, pid, "-k", "spin", "-a", "zeros:4");
    cr_assert(wait_for(fd, 0, "(ptxi) "), "no prompt:\n%s", seen);
    /* at the prompt, Ctrl-C leaves the debugger alone */
    type(fd, "\003");
    usleep(100000);
    type(fd, "info breakpoints\r");
    cr_assert(wait_for(fd, 0, "No breakpoints or watchpoints."), "%s", seen);
    type(fd, "run\r");
    cr_assert(wait_for(fd, 0, "Starting kernel spin"), "%s", seen);
    /* somewhere in the loop: which instruction depends on when the key came */
    size_t mark = interrupt_at(fd, " at debug_demo.sm_90.ptx:26"); /* spin, or atomicAdd inlined in it */
    type(fd, "set var {u32} @global %rd1 = 1\rcontinue\r");
    cr_assert(wait_for(fd, mark, "[Kernel finished]"), "the flag did not end the loop:\n%s", seen);
    finish(fd, pid);
}

/* At a terminal, quit asks before killing a stopped kernel; n keeps it, y quits. */
Test(debug_tty, quit_asks_before_killing) {
    int fd;
    pid_t pid;
    START(fd, pid, "-k", "demo", "-b", "48", "-a", "file:in.bin", "-a", "zeros:256", "-a", "s32:40");
    cr_assert(wait_for(fd, 0, "(ptxi) "), "no prompt:\n%s", seen);
    say(fd, "break 78\rrun\r", "Breakpoint 1, demo");
    say(fd, "quit\r", "Quit anyway? (y or n) ");
    say(fd, "n\r", "Not confirmed.");
    say(fd, "print %r2\r", "$1 = 0"); /* the kernel is still there */
    say(fd, "quit\r", "Quit anyway? (y or n) ");
    finish_with(fd, pid, "y\r");
}
