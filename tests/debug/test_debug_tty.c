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

#define PTXI PTXI_BINARY_DIR "/bin/ptxi"
#define DEMO_DIR PTXI_SOURCE_DIR "/tests/debug/demo"

static char seen[1 << 16];
static size_t nseen;

/* Reads the terminal until `want` appears after `from`, or 10 s pass. */
static const char *wait_for(int fd, size_t from, const char *want) {
    for (int tries = 0; tries < 200; tries++) {
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

static void type(int fd, const char *keys) {
    cr_assert(write(fd, keys, strlen(keys)) == (ssize_t)strlen(keys));
}

Test(debug_tty, line_editing_and_history) {
    int fd;
    struct winsize ws = {24, 120, 0, 0};
    pid_t pid = forkpty(&fd, NULL, NULL, &ws);
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (chdir(DEMO_DIR)) _exit(127);
        setenv("TERM", "xterm", 1);
        execl(PTXI, "ptxi", "debug", "debug_demo.sm_90.ptx", "-k", "demo", "-b", "48", "-a", "file:in.bin", "-a",
              "zeros:256", "-a", "s32:40", (char *)NULL);
        _exit(127);
    }
    nseen = 0;
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
    type(fd, "quit\r");
    int status = 0;
    for (int k = 0; k < 100 && waitpid(pid, &status, WNOHANG) == 0; k++) {
        wait_for(fd, nseen, "\001never");
    }
    if (waitpid(pid, &status, WNOHANG) == 0) kill(pid, SIGKILL), waitpid(pid, &status, 0);
    close(fd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit status %d:\n%s", status, seen);
}
