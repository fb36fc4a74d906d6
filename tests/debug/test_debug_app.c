/* test_debug_app.c — `ptxi debug -- PROGRAM` on a CUDA program built with nvcc
 * (tests/debug/app/dbg_app.cu: scale<<<2,32>>> then offset<<<1,64>>> on
 * v[i] = i, n = 40; poke<<<1,32>>> where thread 7 writes 2^28 bytes past its
 * buffer; dbg_app2 adds dbg_more.cu's twice<<<1,64>>>, from a second module).
 * Scripts in batch mode and a session on a pseudo-terminal; expected values
 * follow from the programs' source. */
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <unistd.h>

#include "../cudart/harness.h"

#include "transcript.h"

#define PTXI PTXI_BINARY_DIR "/bin/ptxi"
#define APP_DIR PTXI_SOURCE_DIR "/tests/debug/app"

/* Built once, whichever test comes first: the tests run in parallel processes. */
static const char *app_of(const char *files, const char *id) {
    NEED_NVCC_AND_LIBRARY();
    sh("mkdir -p " WORK_DIR);
    int lock = open(WORK_DIR "/dbg_app.lock", O_CREAT | O_RDWR, 0644);
    cr_assert(lock >= 0 && lockf(lock, F_LOCK, 0) == 0);
    const char *bin = build(APP_DIR, files, "-arch=sm_90 -lineinfo", id);
    close(lock);
    return bin;
}

static const char *app(void) { return app_of("dbg_app.cu", "dbg_app"); }

/* tests/debug/vars/dbg_vars.cu built with -G or -lineinfo (flags) as program `id`. */
static const char *vars_program(const char *flags, const char *id) {
    NEED_NVCC_AND_LIBRARY();
    sh("mkdir -p " WORK_DIR);
    int lock = open(WORK_DIR "/dbg_vars.lock", O_CREAT | O_RDWR, 0644);
    cr_assert(lock >= 0 && lockf(lock, F_LOCK, 0) == 0);
    char all[200];
    snprintf(all, sizeof all, "-arch=sm_90 %s", flags);
    const char *bin = build(PTXI_SOURCE_DIR "/tests/debug/vars", "dbg_vars.cu", all, id);
    close(lock);
    return bin;
}

/* A sanitized build's libcudart needs the sanitizer's runtime in the (plain)
 * program: the one this test runs with, found in its own mappings. */
static const char *child_preload(void) {
    static char lib[1024];
    const char *env = getenv("PTXI_CHILD_PRELOAD");
    if (env && *env) return env;
#if defined(__SANITIZE_ADDRESS__)
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1400];
    while (f && !lib[0] && fgets(line, sizeof line, f)) {
        char *p = strchr(line, '/');
        if (p && strstr(p, "/libasan.so")) snprintf(lib, sizeof lib, "%.*s", (int)strcspn(p, "\n"), p);
    }
    if (f) fclose(f);
#endif
    return lib;
}

/* Runs `ptxi debug -x SCRIPT -- dbg_app ARGS` (SCRIPT on standard input when
 * stdin_script) and returns its standard output, standard error and status. */
static run_result debug_bin(const char *bin, const char *script, const char *args, bool stdin_script) {
    char path[] = "/tmp/ptxi_dbgapp_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert(write(fd, script, strlen(script)) == (ssize_t)strlen(script));
    close(fd);
    char out[1100], err[1100], env[1200] = "";
    snprintf(out, sizeof out, "%s.stdout", path);
    snprintf(err, sizeof err, "%s.stderr", path);
    if (child_preload()[0]) snprintf(env, sizeof env, "LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0", child_preload());
    char how[1100];
    snprintf(how, sizeof how, stdin_script ? "-- '%s' %s < '%s'" : "-x '%3$s' -- '%1$s' %2$s < /dev/null", bin, args,
             path);
    run_result r;
    r.rc = sh("cd '%s' && env %s timeout 120 '%s' debug %s > '%s' 2> '%s'", APP_DIR, env, PTXI, how, out, err);
    unlink(path);
    r.out = slurp(out, NULL);
    r.err = slurp(err, NULL);
    unlink(out);
    unlink(err);
    cr_assert(r.out && r.err);
    return r;
}

static run_result debug_app(const char *script, const char *args, bool stdin_script) {
    return debug_bin(app(), script, args, stdin_script);
}

/* The PTX line of the first "=> N\t" after `after`. */
static unsigned pc_line_after(const char *out, const char *after) {
    const char *p = strstr(out, after);
    cr_assert(p, "no \"%s\" in:\n%s", after, out);
    p = strstr(p, "=> ");
    cr_assert(p, "no PC line after \"%s\" in:\n%s", after, out);
    return (unsigned)strtoul(p + 3, NULL, 10);
}

#define SCALE "scale(float*, int, float)"
#define OFFSET "offset(float*, int, float)"

Test(debug_app, break_on_launch_focus_print_stepi_and_the_next_launch) {
    run_result r = debug_app("set cuda break_on_launch on\nbreak dbg_app.cu:12\nrun\ninfo cuda kernels\nstepi\n"
                             "continue\ncuda thread 5\nprint %r1\nprint %f2\nprint %f1\nprint %tid.x\ncontinue\n"
                             "print %r1\nbacktrace\ndelete\ncontinue\ninfo cuda kernels\ncontinue\n",
                             "", false);
    EXPECT(r.out, "Program dbg_app: its CUDA modules are loaded", "dbg_app.compute_90.ptx: " SCALE ", " OFFSET,
           /* a breakpoint on a .cu line, through .loc */
           "Breakpoint 1 at " SCALE " at dbg_app.compute_90.ptx:", "(dbg_app.cu:12)",
           /* the program runs until its first launch */
           "(ptxi) run\n", "host: before the kernels\n", "[Launch of CUDA kernel 0 " SCALE "<<<(2,1,1),(32,1,1)>>>]",
           "Kernel launch: " SCALE, SCALE " at dbg_app.compute_90.ptx:", "(dbg_app.cu:8)",
           "[block (0,0,0), warp 0, active 0xffffffff]", "ld.param.u64", "* 0       " SCALE "  (2,1,1)  (32,1,1)",
           "Breakpoint 1, " SCALE " at dbg_app.compute_90.ptx:", "(dbg_app.cu:12)", "12\t        v[i] = x * k;",
           /* thread 5 of block 0: i = 5, x = v[5] = 5, k = 2 */
           "[Switching focus to block (0,0,0), thread (5,0,0), warp 0, lane 5]", "$1 = 5", "$2 = 5", "$3 = 2", "$4 = 5",
           /* block 1: i = 32 + lane, only i < 40 inside the if */
           "[Switching focus to block (1,0,0), thread (0,0,0), warp 0, lane 0]", "Breakpoint 1, " SCALE,
           "[block (1,0,0), warp 0, active 0x000000ff, divergent 0xffffff00]", "$5 = 32",
           "#0  " SCALE " at dbg_app.compute_90.ptx:",
           /* continue: the launch ends, the program goes on to its next one */
           "[Launch of CUDA kernel 1 " OFFSET "<<<(1,1,1),(64,1,1)>>>]", "Kernel launch: " OFFSET,
           "* 1       " OFFSET "  (1,1,1)  (64,1,1)",
           /* v[i] = 2i + 1 */
           "host: v[5] = 11, v[39] = 79\n", "[Program exited with code 5]\n");
    cr_assert(pc_line_after(r.out, "(ptxi) stepi") > pc_line_after(r.out, "Kernel launch: " SCALE),
              "stepi did not move on:\n%s", r.out);
    cr_assert(strstr(r.err, "host: done"), "%s", r.err);
    cr_assert_eq(r.rc, 5, "exit status %d:\n%s", r.rc, r.out);
}

Test(debug_app, output_and_exit_status_come_through) {
    run_result r = debug_app("run\n", "", false);
    EXPECT(r.out, "(ptxi) run\n", "host: before the kernels\n", "[Launch of CUDA kernel 0 " SCALE,
           "[Launch of CUDA kernel 1 " OFFSET, "host: v[5] = 11, v[39] = 79\n", "[Program exited with code 5]\n");
    cr_assert(!strstr(r.out, "Breakpoint"), "%s", r.out);
    cr_assert(strstr(r.err, "host: done"), "%s", r.err);
    cr_assert_eq(r.rc, 5);
}

/* Without -x and with a pipe for standard input, the commands come from it. */
Test(debug_app, commands_on_standard_input) {
    run_result r = debug_app("break offset\nrun\nnext\nnext\ncuda thread 9\nprint %r1\ncontinue\ncontinue\n", "", true);
    EXPECT(r.out, "Breakpoint 1 at " OFFSET, "Breakpoint 1, " OFFSET, "(dbg_app.cu:16)",
           "[block (0,0,0), warp 0, active 0xffffffff]", "(dbg_app.cu:18)", "$1 = 9",
           "[Switching focus to block (0,0,0), thread (32,0,0), warp 1, lane 0]", "Breakpoint 1, " OFFSET,
           "[Program exited with code 5]");
    cr_assert_eq(r.rc, 5);
}

Test(debug_app, list_shows_the_cu_source_and_the_fatbinary_ptx) {
    run_result r = debug_app("break dbg_app.cu:18\nrun\nlist\ninfo breakpoints\nkill\n", "", false);
    EXPECT(r.out, "Breakpoint 1, " OFFSET, "(dbg_app.cu:18)", "(ptxi) list\n", "dbg_app.cu:\n",
           "   16\t__global__ void offset(float *v, int n, float add) {", "=> 18\t    if (i < n) v[i] += add;",
           "dbg_app.compute_90.ptx:\n", "=> ",
           "1       breakpoint      keep y   " OFFSET " at dbg_app.compute_90.ptx:", "breakpoint already hit 1 time",
           "[Program killed]");
    cr_assert(!strstr(r.out, "host: v[5]"), "the program went on after kill:\n%s", r.out);
    cr_assert_eq(r.rc, 128 + SIGKILL);
}

Test(debug_app, out_of_bounds_stops_naming_the_thread) {
    run_result r = debug_app("run\nprint %tid.x\nbacktrace\ncontinue\n", "oob", false);
    EXPECT(r.out, "host: v[5] = 11, v[39] = 79\n", "[Launch of CUDA kernel 2 poke(int*, int)<<<(1,1,1),(32,1,1)>>>]",
           "[Switching focus to block (0,0,0), thread (7,0,0), warp 0, lane 7]",
           "CUDA Exception: ", "out-of-bounds global write of 4 bytes", "block (0,0,0), thread (7,0,0)",
           "The kernel stopped at the faulting instruction, poke(int*, int) at dbg_app.compute_90.ptx:",
           "(dbg_app.cu:24)", "24\t    p[at] = i;", "st.global", "$1 = 7", "#0  poke(int*, int)",
           /* continue: the launch ends with the fault, which the program sees */
           "host: after poke: cudaErrorIllegalAddress\n", "[Program exited with code 3]\n");
    cr_assert_eq(r.rc, 3);
}

/* check<<<1,64>>>: v[i] = 2i + 1 < 70 fails for threads 35 to 39 (warp 1, lanes 3-7). */
Test(debug_app, assert_stops_at_the_failing_thread) {
    run_result r = debug_app("run\nprint %tid.x\nstepi\ncontinue\n", "assert", false);
    EXPECT(r.out, "[Launch of CUDA kernel 2 check(float const*, int)<<<(1,1,1),(64,1,1)>>>]",
           "[Switching focus to block (0,0,0), thread (35,0,0), warp 1, lane 3]",
           "Assertion `i >= n || v[i] < 70.0f` failed.",
           "The kernel stopped at the faulting instruction, check(float const*, int) at dbg_app.compute_90.ptx:",
           "(dbg_app.cu:30)", "[block (0,0,0), warp 1, active 0x000000f8", "$1 = 35",
           "The kernel faulted: it cannot go on", "host: after check: cudaErrorAssert\n",
           "[Program exited with code 3]");
    cr_assert_eq(r.rc, 3);
}

Test(debug_app, trap_stops_at_the_trapping_thread) {
    run_result r = debug_app("run\ninfo cuda lanes\ncontinue\n", "trap", false);
    EXPECT(r.out, "[Launch of CUDA kernel 2 stop_at(int)<<<(1,1,1),(32,1,1)>>>]",
           "[Switching focus to block (0,0,0), thread (9,0,0), warp 0, lane 9]", "trap instruction executed",
           "The kernel stopped at the faulting instruction, stop_at(int) at dbg_app.compute_90.ptx:", "(dbg_app.cu:34)",
           "=> ", "trap;", "   8  divergent  (8,0,0) ", "*  9  active     (9,0,0) ", "(dbg_app.cu:34)",
           "  10  divergent  (10,0,0) ", "host: after stop_at: cudaErrorLaunchFailure\n",
           "[Program exited with code 3]");
    cr_assert_eq(r.rc, 3);
}

/* The kernels' names as the PTX has them, demangled, or without parameters. */
Test(debug_app, breakpoints_by_every_form_of_a_kernel_name) {
    run_result r = debug_app("break _Z6offsetPfif\nbreak scale(float*, int, float)\nbreak poke\nbreak nosuch\n"
                             "info breakpoints\nquit\n",
                             "", false);
    EXPECT(r.out, "Breakpoint 1 at " OFFSET " at dbg_app.compute_90.ptx:", "(dbg_app.cu:16)",
           "Breakpoint 2 at " SCALE " at dbg_app.compute_90.ptx:", "(dbg_app.cu:8)",
           "Breakpoint 3 at poke(int*, int) at dbg_app.compute_90.ptx:", "(dbg_app.cu:21)",
           "Function or label \"nosuch\" not defined.", "3       breakpoint      keep y   poke(int*, int)",
           "[Program killed]");
    cr_assert(!strstr(r.out, "host:"), "the program went on after quit:\n%s", r.out);
}

/* A PTX line of the fatbinary's PTX: the one `break dbg_app.cu:12` resolved to. */
Test(debug_app, breakpoint_on_a_ptx_line) {
    run_result first = debug_app("break dbg_app.cu:12\nquit\n", "", false);
    const char *at = strstr(first.out, "Breakpoint 1 at " SCALE " at dbg_app.compute_90.ptx:");
    cr_assert(at, "%s", first.out);
    unsigned line = (unsigned)strtoul(strchr(at + strlen("Breakpoint 1 at " SCALE " at "), ':') + 1, NULL, 10);
    char script[200], want[200];
    snprintf(script, sizeof script, "break dbg_app.compute_90.ptx:%u\nrun\nprint %%r1\ndelete\ncontinue\n", line);
    snprintf(want, sizeof want, "Breakpoint 1, " SCALE " at dbg_app.compute_90.ptx:%u (dbg_app.cu:12)", line);
    run_result r = debug_app(script, "", false);
    EXPECT(r.out, want, "$1 = 0", "[Program exited with code 5]");
}

/* v[5] (at %rd4 + 20 for thread 0, %rd4 = &v[0]) goes 5.0 -> 10.0 in scale,
 * -> 11.0 in offset, thread 5 writing both times: the watch lasts across launches. */
Test(debug_app, watchpoint_across_launches) {
    run_result r = debug_app("break dbg_app.cu:12\nrun\nwatch @global %rd4 + 20\nx/1f %rd4 + 20\ndelete 1\n"
                             "continue\ncontinue\ncontinue\n",
                             "", false);
    EXPECT(r.out, "Hardware watchpoint 2: @global 0x", "5", "Old value = 1084227584 (0x40a00000)",
           "New value = 1092616192 (0x41200000)", "Written by block (0,0,0) thread (5,0,0) (warp 0 lane 5) at " SCALE,
           "[Launch of CUDA kernel 1 " OFFSET, "Old value = 1092616192 (0x41200000)",
           "New value = 1093664768 (0x41300000)", "Written by block (0,0,0) thread (5,0,0) (warp 0 lane 5) at " OFFSET,
           "(dbg_app.cu:18)", "host: v[5] = 11, v[39] = 79", "[Program exited with code 5]");
}

/* Two .cu files, two modules: the one in use is the running kernel's; a
 * breakpoint on the other's code waits for it. v[i] = 2 (2i + 1). */
Test(debug_app, breakpoints_in_two_modules) {
    const char *bin = app_of("dbg_app.cu,dbg_more.cu", "dbg_app2");
    run_result r = debug_bin(bin,
                             "break twice\nbreak dbg_app.cu:18\nrun\ncuda thread 9\nprint %r1\ndelete 2\n"
                             "continue\nprint %tid.x\nlist\ndelete\ncontinue\n",
                             "", false);
    EXPECT(r.out, "twice(float*, int)", "offset(float*, int, float)", "'run' lets the program go on");
    cr_assert(strstr(r.out, "pending until one of its kernels runs"), "%s", r.out);
    EXPECT(r.out, "(ptxi) run\n", "[Launch of CUDA kernel 1 " OFFSET, "Breakpoint 2, " OFFSET, "(dbg_app.cu:18)",
           "$1 = 9", "[Launch of CUDA kernel 2 twice(float*, int)<<<(1,1,1),(64,1,1)>>>]",
           "Breakpoint 1, twice(float*, int) at dbg_app2.compute_90", "(dbg_more.cu:3)",
           "3\t__global__ void twice(float *v, int n) {", "$2 = 0", "dbg_more.cu:\n",
           "=> 3\t__global__ void twice(float *v, int n) {", "host: v[5] = 22, v[39] = 158\n",
           "[Program exited with code 5]");
    cr_assert_eq(r.rc, 5);
}

/* cudaDeviceReset frees the modules and loads them again: the breakpoint
 * follows. v[5] = 11 before, 2 * 11 after. */
Test(debug_app, breakpoints_survive_a_device_reset) {
    run_result r = debug_app("break scale\nrun\ndelete\nbreak dbg_app.cu:12 if %r1 == 37\ncontinue\nprint %r1\n"
                             "continue\nprint %f2\ninfo breakpoints\ndelete\ncontinue\n",
                             "reset", false);
    EXPECT(r.out, "Breakpoint 1, " SCALE " at dbg_app.compute_90.ptx:", "Breakpoint 2 at " SCALE,
           "[Switching focus to block (1,0,0), thread (5,0,0), warp 0, lane 5]",
           "Breakpoint 2, " SCALE " at dbg_app.compute_90.ptx:", "(dbg_app.cu:12)", "$1 = 37",
           "host: v[5] = 11, v[39] = 79\n", "[Launch of CUDA kernel 2 " SCALE "<<<(2,1,1),(32,1,1)>>>]",
           "Breakpoint 2, " SCALE " at dbg_app.compute_90.ptx:", "(dbg_app.cu:12)", "$2 = 75",
           "breakpoint already hit 2 times", "host: after the reset: v[5] = 22\n", "[Program exited with code 5]");
    cr_assert(!strstr(r.out, "compute_90.2.ptx"), "%s", r.out);
    cr_assert_eq(r.rc, 5);
}

Test(debug_app, a_program_without_the_dashes_is_pointed_to_them) {
    const char *bin = app();
    char err[1100];
    snprintf(err, sizeof err, "%s.hint.stderr", bin);
    int rc = sh("'%s' debug '%s' -x /dev/null > /dev/null 2> '%s'", PTXI, bin, err);
    char *text = slurp(err, NULL);
    cr_assert_eq(rc, 2);
    cr_assert(text && strstr(text, "is a program, not PTX: debug it with `ptxi debug -- "), "%s", text);
    free(text);
}

/* ---- the prompt at a terminal ---- */

/* Starts `ptxi debug -- BIN ARG` on a new pseudo-terminal (ARG may be NULL). */
static int start_program_on_terminal(pid_t *pid, const char *bin, const char *arg) {
    int fd;
    if (child_preload()[0]) setenv("LD_PRELOAD", child_preload(), 1), setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
    const char *const argv[] = {PTXI, "debug", "--", bin, arg, NULL};
    *pid = start_on_tty(&fd, APP_DIR, argv);
    unsetenv("LD_PRELOAD");
    return fd;
}

static int start_on_terminal(pid_t *pid, const char *arg) {
    return start_program_on_terminal(pid, app(), arg);
}

/* Waits for the end; the exit status. */
static int finish(int fd, pid_t pid) {
    int status = wait_exit(fd, pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Test(debug_app, prompt_at_a_terminal) {
    pid_t pid;
    int fd = start_on_terminal(&pid, NULL);
    cr_assert(wait_for(fd, 0, "(ptxi) "), "no prompt:\n%s", seen);
    /* line editing: "reak scale", back to the start (^A), the missing "b" */
    size_t mark = nseen;
    type(fd, "reak scale\001b\r");
    cr_assert(wait_for(fd, mark, "Breakpoint 1 at " SCALE), "line editing:\n%s", seen);
    /* the up arrow brings "break scale" back */
    mark = nseen;
    type(fd, "\033[A\r");
    cr_assert(wait_for(fd, mark, "Breakpoint 2 at " SCALE), "history:\n%s", seen);
    mark = nseen;
    type(fd, "run\r");
    cr_assert(wait_for(fd, mark, "Breakpoint 1, " SCALE), "%s", seen);
    mark = nseen;
    type(fd, "delete\rcontinue\r");
    cr_assert(wait_for(fd, mark, "host: v[5] = 11, v[39] = 79"), "%s", seen);
    const char *end = wait_for(fd, mark, "[Program exited with code 5]");
    cr_assert(end, "%s", seen);
    /* the debugger stays, as gdb does, for `run` or `quit` */
    cr_assert(wait_for(fd, (size_t)(end - seen), "(ptxi) "), "no prompt after the end:\n%s", seen);
    type(fd, "quit\r");
    cr_assert_eq(finish(fd, pid), 5, "%s", seen);
}

/* spin<<<1,1>>> loops until `go` is set: Ctrl-C stops it (not the debugger). */
Test(debug_app, ctrl_c_stops_a_spinning_kernel) {
    pid_t pid;
    int fd = start_on_terminal(&pid, "spin");
    cr_assert(wait_for(fd, 0, "(ptxi) "), "no prompt:\n%s", seen);
    type(fd, "run\r");
    cr_assert(wait_for(fd, 0, "[Launch of CUDA kernel 2 spin()"), "%s", seen);
    size_t mark = interrupt_at(fd, "spin() at dbg_app.compute_90.ptx:");
    type(fd, "print go\rset var {u32} go = 1\rcontinue\r");
    cr_assert(wait_for(fd, mark, "$1 = 0"), "%s", seen);
    cr_assert(wait_for(fd, mark, "host: after spin: cudaSuccess"), "the flag did not end the loop:\n%s", seen);
    cr_assert(wait_for(fd, mark, "[Program exited with code 3]"), "%s", seen);
    type(fd, "quit\r");
    cr_assert_eq(finish(fd, pid), 3, "%s", seen);
}

/* gdb's life of a run: after kill or the program's end, `run` starts it
 * again (the same process, exec'd) with the breakpoints. */
Test(debug_app, run_again_after_kill_and_exit) {
    run_result r = debug_app("break scale\nrun\nkill\ninfo breakpoints\nrun\nprint %tid.x\ndelete\ncontinue\ncontinue\n"
                             "run\n",
                             "", false);
    EXPECT(r.out, "Breakpoint 1, " SCALE, "[Program killed]\n", "1       breakpoint      keep y   " SCALE,
           "Starting program: ", "host: before the kernels", "Breakpoint 1, " SCALE, "$1 = 0",
           "host: v[5] = 11, v[39] = 79\n", "[Program exited with code 5]\n", "The program is not being run.",
           "Starting program: ", "host: v[5] = 11, v[39] = 79\n", "[Program exited with code 5]\n");
    cr_assert_eq(r.rc, 5, "%s", r.out);
}

/* A program built with -G: its C variables (values as cuda-gdb showed them, tests/debug/vars/recorded). */
Test(debug_app, c_variables_of_a_program_built_with_G) {
    const char *bin = vars_program("-G", "dbg_vars_g");
    run_result r = debug_bin(bin,
                             "break dbg_vars.cu:44\nrun\ncuda thread (3,0,0)\nprint acc\nprint p\nprint r\ninfo args\n"
                             "continue\nrun\ninfo locals\nquit\n",
                             "", false);
    EXPECT(r.out, "Breakpoint 1, kern at ", "(dbg_vars.cu:44)", "$1 = 58", "$2 = {x = 4, y = 1.5, s = {3, -3}}",
           "$3 = 91", "in = 0x", "n = 20\n", "out[0] = 1, out[5] = 43, out[19] = 91\n",
           "[Program exited normally]\n", "Starting program: ", "Breakpoint 1, kern at ", "acc = 22\n", "r = 1\n",
           "[Program killed]");
}

/* dbg_vars.cu built with -lineinfo, at a terminal as a cuda-gdb user drives
 * it: a break on a line whose code is all inlined (addk, line 20 inlined at
 * 38) and on a called function, bt, print, finish; run while stopped asks;
 * the program runs to its end and again; kill and quit ask. */
Test(debug_app, lineinfo_program_at_a_terminal) {
    const char *bin = vars_program("-lineinfo", "dbg_vars_l");
    pid_t pid;
    int fd = start_program_on_terminal(&pid, bin, NULL);
    cr_assert(wait_for(fd, 0, "(ptxi) "), "no prompt:\n%s", seen);
    say(fd, "break scalef\r", "Breakpoint 1 at scalef(Pt const*, float) at dbg_vars_l.compute_90.ptx:");
    say(fd, "break dbg_vars.cu:38\r", "(dbg_vars.cu:20)");
    say(fd, "run\r", "Breakpoint 2, addk at dbg_vars_l.compute_90.ptx:");
    say(fd, "bt\r", "#1  kern at dbg_vars_l.compute_90.ptx:");
    cr_assert(strstr(seen, "#0  addk (inlined) at dbg_vars_l.compute_90.ptx:"), "%s", seen);
    say(fd, "print threadIdx.x + 1\r", "$1 = 1");
    say(fd, "continue\r", "Breakpoint 1, scalef(Pt const*, float) at dbg_vars_l.compute_90.ptx:");
    say(fd, "bt\r", "(dbg_vars.cu:43)");
    size_t mark = nseen;
    say(fd, "finish\r", "Run till exit from #0  scalef(Pt const*, float) at");
    cr_assert(wait_for(fd, mark, "\nkern at dbg_vars_l.compute_90.ptx:"), "%s", seen);
    cr_assert(wait_for(fd, mark, "float r = scalef(&p, (float)acc);"), "%s", seen);
    say(fd, "run\r", "Start it from the beginning? (y or n) ");
    say(fd, "n\r", "Not confirmed.");
    /* to the end, then run again */
    mark = nseen;
    say(fd, "delete\rcontinue\r", "out[0] = 1, out[5] = 43, out[19] = 91");
    cr_assert(wait_for(fd, mark, "[Program exited normally]"), "%s", seen);
    mark = nseen;
    say(fd, "break kern\rrun\r", "Starting program: ");
    cr_assert(wait_for(fd, mark, "Breakpoint 3, kern at dbg_vars_l.compute_90.ptx:"), "%s", seen);
    say(fd, "kill\r", "Kill the program being debugged? (y or n) ");
    say(fd, "n\r", "Not confirmed.");
    say(fd, "kill\r", "Kill the program being debugged? (y or n) ");
    say(fd, "y\r", "[Program killed]");
    say(fd, "run\r", "Breakpoint 3, kern at dbg_vars_l.compute_90.ptx:");
    say(fd, "quit\r", "Quit anyway? (y or n) ");
    say(fd, "n\r", "Not confirmed.");
    say(fd, "print %tid.x\r", " = 0");
    say(fd, "quit\r", "Quit anyway? (y or n) ");
    type(fd, "y\r");
    cr_assert_eq(finish(fd, pid), 128 + SIGKILL, "%s", seen);
}

/* gdb keeps watchpoints for a new run: tile[5] (shared, in[5] = 16 by thread 5)
 * and counter (thread 0's atomicAdd) report again after kill and run. */
Test(debug_app, watchpoints_survive_a_new_run) {
    const char *bin = vars_program("-G", "dbg_vars_g");
    run_result r = debug_bin(bin,
                             "break dbg_vars.cu:33\nrun\nwatch tile[5]\nwatch counter\ndelete 1\ncontinue\ncontinue\n"
                             "kill\nrun\ninfo breakpoints\ncontinue\ncontinue\n",
                             "", false);
    EXPECT(r.out, "Hardware watchpoint 2: tile[5]", "Hardware watchpoint 3: counter",
           "Hardware watchpoint 2: tile[5]\n\nOld value = 0\nNew value = 16\n",
           "Written by block (0,0,0) thread (5,0,0) (warp 0 lane 5)",
           "Hardware watchpoint 3: counter\n\nOld value = 0\nNew value = 1\n", "[Program killed]",
           "Starting program: ", "Hardware watchpoint 2: tile[5]\n\nOld value = 0\nNew value = 16\n",
           "2       hw watchpoint   keep y   tile[5]", "3       hw watchpoint   keep y   counter",
           "Hardware watchpoint 3: counter\n\nOld value = 0\nNew value = 1\n",
           "out[0] = 1, out[5] = 43, out[19] = 91\n", "[Program exited normally]");
    cr_assert_eq(r.rc, 0, "%s", r.out);
}
