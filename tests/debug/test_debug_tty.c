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

#define DEMO_DIR PTXI_SOURCE_DIR "/tests/debug/demo"

/* Starts `ptxi debug debug_demo.sm_90.ptx ARGS...` on a new pseudo-terminal. */
#define START(fd, pid, ...)                                                                                       \
    do {                                                                                                          \
        const char *const argv_[] = {PTXI_BIN, "debug", "debug_demo.sm_90.ptx", __VA_ARGS__, NULL};               \
        pid = start_on_tty(&fd, DEMO_DIR, argv_);                                                                 \
    } while (0)

/* Types the last keys (quit, or the answer to its question) and waits for a clean exit. */
static void finish_with(int fd, pid_t pid, const char *keys) {
    type(fd, keys);
    int status = wait_exit(fd, pid);
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

/* A kernel spinning on a flag: Ctrl-C stops it, setting the flag ends it. The
 * kernel is first stopped inside its loop (PTX line 262), so the interrupt
 * lands in the loop: PTX lines 260 (the atomicAdd inlined there), 262, 263. */
Test(debug_tty, ctrl_c_interrupts_the_kernel) {
    int fd;
    pid_t pid;
    START(fd, pid, "-k", "spin", "-a", "zeros:4");
    cr_assert(wait_for(fd, 0, "(ptxi) "), "no prompt:\n%s", seen);
    /* at the prompt, Ctrl-C leaves the debugger alone */
    type(fd, "\003");
    say(fd, "info breakpoints\r", "No breakpoints or watchpoints.");
    say(fd, "break 262\rrun\r", "Breakpoint 1, spin at debug_demo.sm_90.ptx:262 (debug_demo.cu:44)");
    type(fd, "delete\rcontinue\r");
    interrupt_at(fd, " at debug_demo.sm_90.ptx:26");
    say(fd, "set var {u32} @global %rd1 = 1\rcontinue\r", "[Kernel finished]");
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

/* The -lineinfo kernel as a cuda-gdb user drives it at a terminal: a .cu
 * breakpoint, print, a call stepped into, bt, finish (thread 32: v = in[32] =
 * 97, local[1] = in[33] = 100, square_plus = 97 * 97 + 100); run and kill
 * while stopped ask first; the kernel run to its end, then run again; quit
 * asks. */
Test(debug_tty, lineinfo_session) {
    int fd;
    pid_t pid;
    START(fd, pid, "-k", "demo", "-b", "40", "-a", "file:in.bin", "-a", "zeros:160", "-a", "s32:40");
    cr_assert(wait_for(fd, 0, "(ptxi) "), "no prompt:\n%s", seen);
    say(fd, "break debug_demo.cu:22\r", "Breakpoint 1 at demo at debug_demo.sm_90.ptx:119 (debug_demo.cu:22)");
    say(fd, "run\r", "Breakpoint 1, demo at debug_demo.sm_90.ptx:119 (debug_demo.cu:22)");
    say(fd, "print %r2\r", "$1 = 32");
    say(fd, "step\r", "_Z11square_plusii at debug_demo.sm_90.ptx:26 (debug_demo.cu:6)");
    say(fd, "bt\r", "#1  demo at debug_demo.sm_90.ptx:123 (debug_demo.cu:22)");
    say(fd, "finish\r", "Value returned is $2 = 9509");
    say(fd, "run\r", "Start it from the beginning? (y or n) ");
    say(fd, "n\r", "Not confirmed.");
    say(fd, "kill\r", "Kill the program being debugged? (y or n) ");
    say(fd, "n\r", "Not confirmed.");
    say(fd, "print %r2\r", "$3 = 32"); /* still stopped there */
    say(fd, "disable 1\rcontinue\r", "[Kernel finished]");
    /* run again after the end, the breakpoint enabled again */
    say(fd, "enable 1\rrun\r", "Breakpoint 1, demo at debug_demo.sm_90.ptx:119 (debug_demo.cu:22)");
    say(fd, "run\r", "Start it from the beginning? (y or n) ");
    size_t mark = nseen;
    type(fd, "y\r");
    cr_assert(wait_for(fd, mark, "[Kernel killed]"), "%s", seen);
    cr_assert(wait_for(fd, mark, "Breakpoint 1, demo at"), "run from the beginning:\n%s", seen);
    say(fd, "kill\r", "Kill the program being debugged? (y or n) ");
    say(fd, "y\r", "[Kernel killed]");
    say(fd, "info breakpoints\r", "breakpoint already hit 1 time"); /* in this run, as gdb counts */
    say(fd, "run\r", "Breakpoint 1, demo at");
    say(fd, "quit\r", "Quit anyway? (y or n) ");
    finish_with(fd, pid, "y\r");
}
