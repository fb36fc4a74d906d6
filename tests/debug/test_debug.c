/* test_debug.c — `ptxi debug` driven by scripts (-x) on the demo kernels and
 * the fault samples, asserting on the transcript: every breakpoint kind,
 * divergent stepping with the lane masks, calls, memory spaces, watchpoints,
 * focus, brkpt, trap, assert, out-of-bounds. Expected values follow from the
 * kernels' source (inputs in[i] = 3i + 1, scale = {2,3,5,7}). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transcript.h"

#define PTXI PTXI_BINARY_DIR "/bin/ptxi"
#define DEMO_DIR PTXI_SOURCE_DIR "/tests/debug/demo"
#define DEMO "debug_demo.sm_90.ptx -k demo -g 1 -b 48 -a file:in.bin -a zeros:256 -a s32:40"
#define STOP "debug_demo.sm_90.ptx -k stop_here -b 8 -a zeros:64"

Test(debug, break_on_function_and_cu_line) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break demo\nbreak debug_demo.cu:22\ninfo breakpoints\nrun\nnext\nprint %r2\ncontinue\n"
                        "continue\nprint %r43\nkill\n");
    EXPECT(o, "Breakpoint 1 at demo at debug_demo.sm_90.ptx:51 (debug_demo.cu:11)",
           "Breakpoint 2 at demo at debug_demo.sm_90.ptx:119 (debug_demo.cu:22)",
           "1       breakpoint      keep y   demo at debug_demo.sm_90.ptx:51",
           "Breakpoint 1, demo at debug_demo.sm_90.ptx:51 (debug_demo.cu:11)",
           "[block (0,0,0), warp 0, active 0xffffffff]", "=> 51\tmov.u64 \t%SPL, __local_depot1;",
           /* next: line 11 -> 14 */
           "demo at debug_demo.sm_90.ptx:56 (debug_demo.cu:14)", "14\t  int t = threadIdx.x;",
           /* the second warp (16 threads) reaches the kernel's start */
           "[Switching focus to block (0,0,0), thread (32,0,0), warp 1, lane 0]", "Breakpoint 1, demo",
           "[block (0,0,0), warp 1, active 0x0000ffff]",
           /* even lanes take the call: the other half waits */
           "Breakpoint 2, demo at debug_demo.sm_90.ptx:119 (debug_demo.cu:22)",
           "[block (0,0,0), warp 1, active 0x00005555, divergent 0x0000aaaa]", "$2 = 97", "[Kernel killed]");
    free(o);
}

Test(debug, break_on_ptx_line_label_and_condition) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break debug_demo.sm_90.ptx:147 if %r2 == 5\nbreak $L__BB1_5\nrun\nprint %r44\ncontinue\n"
                        "print %r44\nprint -all %r2\nstepi\nprint/d %r44\ncontinue\ninfo breakpoints\nquit\n");
    EXPECT(o, "Breakpoint 1 at demo at debug_demo.sm_90.ptx:147 (debug_demo.cu:24)",
           "Breakpoint 2 at demo at debug_demo.sm_90.ptx:151 (debug_demo.cu:26)",
           /* the last warp to reach the barrier goes on first: warp 1 (threads 32-47)
            * never has %r2 == 5 and stops at the label; thread 32 is even:
            * square_plus(in[32] = 97, tile[33] = 100) */
           "Breakpoint 2, demo at debug_demo.sm_90.ptx:151", "[block (0,0,0), warp 1, active 0x0000ffff]", "$1 = 9509",
           /* odd lanes of warp 0 run line 24; the condition holds for lane 5 only */
           "[Switching focus to block (0,0,0), thread (5,0,0), warp 0, lane 5]",
           "Breakpoint 1, demo at debug_demo.sm_90.ptx:147 (debug_demo.cu:24)",
           "[block (0,0,0), warp 0, active 0xaaaaaaaa, divergent 0x55555555]", "=> 147\tsub.s32 \t%r44, %r43, %r42;",
           /* not yet executed: lane 5 has not written %r44; then 16 - tile[6] * scale[1] */
           "$2 = 0", "$3 = {[0] = 0, [1] = 1, [2] = 2", "[31] = 31}",
           /* one instruction on, the label: every lane together again */
           "Breakpoint 2, demo at debug_demo.sm_90.ptx:151", "active 0xffffffff]", "$4 = -41", "[Kernel finished]",
           "\tstop only if %r2 == 5", "\tbreakpoint already hit 1 time", "\tbreakpoint already hit 2 times");
    free(o);
}

Test(debug, tbreak_delete_disable_enable) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "tbreak demo\nbreak debug_demo.cu:26\nbreak 162\ndisable 2\ninfo breakpoints\nrun\n"
                        "info breakpoints\ncontinue\nenable 2\ndelete 3\ncontinue\nprint %r3\ndelete\ncontinue\n");
    EXPECT(o, "Temporary breakpoint 1 at demo", "Breakpoint 2 at demo at debug_demo.sm_90.ptx:151",
           "Breakpoint 3 at demo at debug_demo.sm_90.ptx:162 (debug_demo.cu:27)", "1       breakpoint      del  y   ",
           "2       breakpoint      keep n   ", "Temporary breakpoint 1, demo at debug_demo.sm_90.ptx:51",
           /* the temporary one is gone, 2 is disabled: warp 1, first past the
            * barrier, stops at 3 (line 162) */
           "Num     Type", "3       breakpoint      keep y", "Breakpoint 3, demo at debug_demo.sm_90.ptx:162",
           "[block (0,0,0), warp 1, active 0x0000ffff]",
           /* then warp 0 reaches 2 (line 151) */
           "Breakpoint 2, demo at debug_demo.sm_90.ptx:151", "[block (0,0,0), warp 0, active 0xffffffff]", "$1 = 0",
           "[Kernel finished]");
    cr_assert(!strstr(o, "locations"), "line 26 is one location:\n%s", o);
    free(o);
}

Test(debug, stepi_through_divergence_shows_masks) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break 111\nrun\ninfo cuda warps\nstepi\nstepi\ninfo cuda lanes\nstepi\nstepi\nstepi\nkill\n");
    /* warp 1 arrived last at the barrier and went on: warp 0 waits just after it */
    EXPECT(o, "Breakpoint 1, demo at debug_demo.sm_90.ptx:111", "[block (0,0,0), warp 1, active 0x0000ffff]",
           "   0  0xffffffff  0x00000000  0x00000000  0x00000000  demo at debug_demo.sm_90.ptx:85",
           "*  1  0x0000ffff  0x00000000  0x00000000  0x00000000  demo at debug_demo.sm_90.ptx:111",
           /* odd lanes fall through first (smallest PC first) */
           "active 0x0000aaaa, divergent 0x00005555", "=> 112\tbra.uni \t$L__BB1_3;",
           /* then the even lanes at the call */
           "active 0x00005555, divergent 0x0000aaaa", "=> 119\tst.param.b32",
           "*  0  active     (32,0,0)      demo at debug_demo.sm_90.ptx:119",
           "   1  divergent  (33,0,0)      demo at debug_demo.sm_90.ptx:135", "=> 121\tst.param.b32",
           "=> 123\tcall.uni", "_Z11square_plusii at debug_demo.sm_90.ptx:26 (debug_demo.cu:6)", "[Kernel killed]");
    free(o);
}

Test(debug, step_into_finish_and_next_over_calls) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break debug_demo.cu:22\nrun\nstep\nbt\nstep\nprint %r3\nfinish\nstepi\nprint %r44\ndelete\n"
                        "next\n"
                        "kill\n");
    EXPECT(o, "Breakpoint 1, demo at debug_demo.sm_90.ptx:119 (debug_demo.cu:22)",
           "_Z11square_plusii at debug_demo.sm_90.ptx:26 (debug_demo.cu:6)",
           "#0  _Z11square_plusii at debug_demo.sm_90.ptx:26 (debug_demo.cu:6)",
           "#1  demo at debug_demo.sm_90.ptx:123 (debug_demo.cu:22)",
           "_Z11square_plusii at debug_demo.sm_90.ptx:29 (debug_demo.cu:8)", "8\t  return r + k;", "$1 = 0",
           /* back in demo after the call: thread 32's v = 97, local[1] = tile[33] = 100 */
           "demo at debug_demo.sm_90.ptx:129 (debug_demo.cu:22)", "Value returned is $2 = 9509", "=> 131\tbra.uni",
           "$3 = 9509",
           /* next: the odd lanes now run line 24 */
           "demo at debug_demo.sm_90.ptx:135 (debug_demo.cu:24)", "active 0x0000aaaa, divergent 0x00005555",
           "[Kernel killed]");
    free(o);
}

Test(debug, nexti_steps_over_the_call_instruction) {
    char *o = debug_run(DEMO_DIR, DEMO, "break debug_demo.cu:22\nrun\nnexti 2\nnexti\nkill\n");
    EXPECT(o, "Breakpoint 1, demo at debug_demo.sm_90.ptx:119", "=> 123\tcall.uni", "=> 129\tld.param.b32");
    cr_assert(!strstr(o, "_Z11square_plusii at"), "nexti went into the call:\n%s", o);
    free(o);
}

Test(debug, next_steps_over_the_call) {
    char *o = debug_run(DEMO_DIR, DEMO, "break debug_demo.cu:22\nrun\nnext\nnext\nkill\n");
    EXPECT(o, "Breakpoint 1, demo at debug_demo.sm_90.ptx:119", "demo at debug_demo.sm_90.ptx:135 (debug_demo.cu:24)",
           "demo at debug_demo.sm_90.ptx:151 (debug_demo.cu:26)", "active 0x0000ffff]");
    cr_assert(!strstr(o, "_Z11square_plusii at"), "next went into the call:\n%s", o);
    free(o);
}

Test(debug, memory_spaces) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break $L__BB1_5\nrun\nx/4wd @shared 0\nx/4wx @shared 0x10\nx/4wd @local 0\ncuda lane 3\n"
                        "x/4wd @local 0\nx/4wd @const scale\nx/1wd @param 16\nprint demo_param_2\nx/4wd %rd2\n"
                        "x/2wd %rd2 + 8\nprint scale\nprint/x %r43\nprint/f 1.5\nprint %p1\nprint %laneid == 3\n"
                        "info registers %r43 %p1\nkill\n");
    EXPECT(o, "Breakpoint 1, demo at debug_demo.sm_90.ptx:151", "@shared 0x0:\t1\t4\t7\t10",
           "@shared 0x10:\t0x0000000d\t0x00000010\t0x00000013\t0x00000016",
           /* warp 1 stops first; local[k] = tile[(t + k) % 48] for thread 32, then thread 35 */
           "@local 0x0:\t97\t100\t103\t106", "[Switching focus to block (0,0,0), thread (35,0,0), warp 1, lane 3]",
           "@local 0x0:\t106\t109\t112\t115", "@const 0x", "\t2\t3\t5\t7", "@param 0x10:\t40", "$1 = 40", "@generic 0x",
           ":\t1\t4\t7\t10", ":\t7\t10",
           /* a PTX .b8 array, as PTX declares it (no DWARF in -lineinfo code) */
           "$2 = {2, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0, 7, 0, 0, 0}", "$3 = 0x0000006a", "$4 = 1.5", "$5 = 0", "$6 = 1",
           "%p1        0x00", "%r43       0x0000006a           106", "[Kernel killed]");
    free(o);
}

Test(debug, set_var_and_display) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break $L__BB1_5\nrun\ndisplay %r44\ndisplay/x %r2\nset var %r44 = 1234\nprint %r44\n"
                        "set var {u32} @shared 4 = 77\nx/2wd @shared 0\ninfo display\nundisplay 2\ncuda lane 1\n"
                        "kill\n");
    /* displays are numbered after breakpoint 1, as in one numbering */
    EXPECT(o, "2: %r44 = 9509", "3: /x %r2 = 0x00000020", "$1 = 1234", "@shared 0x0:\t1\t77", "2:   y  %r44",
           "3:   y  /x %r2", "[Switching focus to block (0,0,0), thread (33,0,0), warp 1, lane 1]", "[Kernel killed]");
    free(o);
}

Test(debug, watchpoints_report_the_writer) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break 78\nrun\nwatch @shared 0x14\ninfo breakpoints\ndelete 1\ncontinue\nkill\n");
    EXPECT(
        o, "Breakpoint 1, demo at debug_demo.sm_90.ptx:78", "Hardware watchpoint 2: @shared 0x14 (4 bytes)",
        "2       hw watchpoint   keep y   @shared 0x14 (4 bytes)", "Hardware watchpoint 2: @shared 0x14",
        "Old value = 0 (0x0)", "New value = 16 (0x10)",
        "Written by block (0,0,0) thread (5,0,0) (warp 0 lane 5) at demo at debug_demo.sm_90.ptx:81 (debug_demo.cu:17)",
        "[Kernel killed]");
    free(o);
    o = debug_run(DEMO_DIR, STOP, "break stop_here\nrun\nwatch hits\ncontinue\ncontinue\ncontinue\n");
    EXPECT(o, "Hardware watchpoint 2: @global 0x", "New value = 1 (0x1)",
           "Written by block (0,0,0) thread (6,0,0) (warp 0 lane 6) at atomicAdd at debug_demo.sm_90.ptx:190",
           "[Kernel finished]");
    free(o);
}

Test(debug, focus_switching) {
    char *o = debug_run(
        DEMO_DIR, DEMO,
        "break 111\nrun\ncuda thread\ncuda block\ncuda thread (33,0,0)\ncuda warp 0 lane 7\n"
        "cuda block thread\ncuda block (1,0,0) thread (0,0,0)\ncuda thread (60,0,0)\ncuda lane 7\n"
        "print %tid.x\nprint/x %lanemask_lt\nprint %ntid.x\nprint %warpid\ninfo cuda threads\ninfo cuda blocks\n"
        "info cuda kernels\nkill\n");
    EXPECT(o, "Breakpoint 1, demo at debug_demo.sm_90.ptx:111", "warp 1", "thread (32,0,0)", "block (0,0,0)",
           "[Switching focus to block (0,0,0), thread (33,0,0), warp 1, lane 1]",
           "[Switching focus to block (0,0,0), thread (7,0,0), warp 0, lane 7]", "block (0,0,0)\nthread (7,0,0)",
           "Block (1,0,0) is not running", "Invalid thread (60,0,0).",
           "[Current focus set to block (0,0,0), thread (7,0,0), warp 0, lane 7]", "$1 = 7", "$2 = 0x0000007f",
           "$3 = 48", "$4 = 0",
           "* (0,0,0)   (0,0,0)       (31,0,0)         32  active     demo at debug_demo.sm_90.ptx:85",
           "  (0,0,0)   (32,0,0)      (47,0,0)         16  active     demo at debug_demo.sm_90.ptx:111",
           "Grid (1,1,1): 0 block(s) finished, 0 waiting to start", "* 0       demo  (1,1,1)  (48,1,1)",
           "[Kernel killed]");
    free(o);
}

Test(debug, list_shows_ptx_and_cu) {
    char *o = debug_run(DEMO_DIR, DEMO, "list demo\nlist\nbreak debug_demo.cu:17\nrun\nlist\n\nkill\n");
    EXPECT(o, "   51\t\tmov.u64", "   55\t\t.loc\t1 14 3\n(ptxi) list\n   56\t\tadd.u64", "   65\t", "debug_demo.cu:\n",
           "=> 17\t  tile[t] = v;", "debug_demo.sm_90.ptx:\n", "=> 78\t\tshl.b32",
           "   82\t\t.loc\t1 18 3\n(ptxi) \n   83\t\tbar.sync");
    free(o);
}

Test(debug, brkpt_stops_like_a_breakpoint) {
    char *o = debug_run(DEMO_DIR, STOP, "run\nprint %tid.x\ninfo cuda lanes\ncontinue\n");
    EXPECT(o, "[Switching focus to block (0,0,0), thread (3,0,0), warp 0, lane 3]",
           "Program received signal SIGTRAP (brkpt instruction), stop_here at debug_demo.sm_90.ptx:198",
           "active 0x00000008, divergent 0x000000f7", "=> 198\tbrkpt;", "$1 = 3", "*  3  active", "[Kernel finished]");
    free(o);
}

#define SAMPLES PTXI_SOURCE_DIR "/ptx-samples"

Test(debug, trap_stops_at_the_faulting_instruction) {
    char *o = debug_run(SAMPLES "/trap", "trap.sm_90.ptx --kernel trap_kernel --block 64 --arg zeros:256 --arg s32:5",
                        "run\nprint %tid.x\nbt\ncontinue\n");
    EXPECT(o, "[Switching focus to block (0,0,0), thread (5,0,0), warp 0, lane 5]",
           "CUDA Exception: ptxi: kernel 'trap_kernel': trap instruction executed",
           "The kernel stopped at the faulting instruction, trap_kernel at trap.sm_90.ptx:42 (trap.cu:11)",
           "=> 42\ttrap;", "$1 = 5", "#0  trap_kernel at trap.sm_90.ptx:42", "[Kernel terminated: PTXI_");
    free(o);
}

Test(debug, assert_stops_at_the_faulting_instruction) {
    char *o = debug_run(SAMPLES "/assert",
                        "assert.sm_90.ptx --kernel assert_kernel --grid 2 --block 32 --arg file:in.bin --arg zeros:256",
                        "run\ncuda block\ncuda thread\nstep\nkill\n");
    EXPECT(o, "[Switching focus to block (1,0,0), thread (5,0,0), warp 0, lane 5]", "Assertion `v < 1000` failed.",
           "The kernel stopped at the faulting instruction, assert_kernel at", "(assert.cu:14)", "block (1,0,0)",
           "thread (5,0,0)", "The kernel faulted: it cannot go on", "[Kernel killed]");
    free(o);
}

Test(debug, out_of_bounds_stops_at_the_faulting_instruction) {
    char *o = debug_run(SAMPLES "/faults",
                        "faults.sm_90.ptx --kernel faults --block 64 --arg zeros:256 --arg s32:4 --arg zeros:256",
                        "run\ninfo cuda warps\ncontinue\n");
    EXPECT(o, "[Switching focus to block (0,0,0), thread (3,0,0), warp 0, lane 3]",
           "out-of-bounds shared read of 4 bytes", "(faults.cu:21)", "active 0x00000008",
           "=> 115\tld.volatile.shared.u32", "*  0  0x00000008", "[Kernel terminated: PTXI_");
    free(o);
}

Test(debug, transcripts_are_deterministic) {
    /* device addresses included: the debugger runs without address-space randomization */
    const char *script = "break debug_demo.cu:24\nrun\nnext\ninfo cuda threads\nwatch @global %rd3 + 12\nx/2wx %rd2\n"
                         "continue\ncontinue\nprint -all %r44\ndelete\ncontinue\n";
    char *a = debug_run(DEMO_DIR, DEMO, script), *b = debug_run(DEMO_DIR, DEMO, script);
    cr_assert_str_eq(a, b);
    cr_assert(strstr(a, "[Kernel finished]"), "%s", a);
    free(a);
    free(b);
}

Test(debug, launch_stop_repeat_counts_until_barriers_and_rerun) {
    char *o = debug_run(DEMO_DIR, "debug_demo.sm_90.ptx -k demo -g 2 -b 48 -a file:in.bin -a zeros:512 -a s32:40",
                        "set cuda break_on_launch on\nrun\nstepi 3\nbreak 83\ncontinue\ncontinue\ninfo cuda barriers\n"
                        "info cuda blocks\nuntil\nuntil 162\nx/2wx 0\ndelete\nset cuda break_on_launch off\ncontinue\n"
                        "break 83\nrun\nquit\n");
    EXPECT(o, "Kernel launch: demo", "=> 51\t", "(ptxi) stepi 3", "=> 53\tld.param.u64",
           "Breakpoint 1, demo at debug_demo.sm_90.ptx:83", "[block (0,0,0), warp 0, active 0xffffffff]",
           "Breakpoint 1, demo at debug_demo.sm_90.ptx:83", "[block (0,0,0), warp 1, active 0x0000ffff]",
           /* warp 0's 32 threads wait; warp 1 (16 threads) is about to arrive */
           "barrier 0: 32 thread(s) arrived, expecting 48; waiting warps: 0 (lanes 0xffffffff)",
           "Grid (2,1,1): 0 block(s) finished, 1 waiting to start", "(ptxi) until\n", "=> 85\trem.u32",
           "Temporary breakpoint 2 at demo at debug_demo.sm_90.ptx:162",
           "Temporary breakpoint 2, demo at debug_demo.sm_90.ptx:162", "Cannot access memory at address 0x0",
           "[Kernel finished]", "Breakpoint 3 at demo", "Starting kernel demo<<<(2,1,1),(48,1,1)>>>",
           "Breakpoint 3, demo at debug_demo.sm_90.ptx:83", "[Kernel killed]");
    free(o);
}

/* init(&bar, 256), then one warp's 32 arrivals: 224 of 256 still pending (PTX ISA, mbarrier) */
Test(debug, mbarrier_state) {
    char *o = debug_run(
        SAMPLES "/async_barrier",
        "async_barrier.sm_90.ptx --kernel split_arrive_wait --block 256 --arg s32:6 --arg file:split.bin",
        "break 116\nrun\ninfo cuda mbarrier @shared %r23\nstepi\ninfo cuda mbarrier @shared %r23\n"
        "info cuda mbarrier @shared 0x100000\nkill\n");
    EXPECT(o, "=> 116\tmbarrier.arrive", "mbarrier phase 0, 256 of 256 arrivals pending, transaction count 0",
           "mbarrier phase 0, 224 of 256 arrivals pending, transaction count 0",
           "Cannot access memory at @shared 0x100000", "[Kernel killed]");
    free(o);
}

/* warp 0 waits at barrier 1 for 64 threads; warp 1 skips it and exits */
Test(debug, barrier_deadlock_stops_at_the_barrier) {
    char *o = debug_run(DEMO_DIR, "debug_demo.sm_90.ptx -k deadlock -b 64 -a zeros:256",
                        "run\ninfo cuda barriers\ninfo cuda warps\ncontinue\n");
    EXPECT(o, "CUDA Exception: ptxi: kernel 'deadlock': barrier 1 deadlock: 32 of 64 threads arrived",
           "The kernel stopped at the faulting instruction, deadlock at debug_demo.sm_90.ptx:228 (debug_demo.cu:38)",
           "blocked 0xffffffff]", "=> 228\tbar.sync 1, 64;",
           "barrier 1: 32 thread(s) arrived, expecting 64; waiting warps: 0 (lanes 0xffffffff)",
           "   1  0x00000000  0x00000000  0x00000000  0xffffffff  -", "[Kernel terminated: PTXI_");
    free(o);
}

/* odd lanes of warp 0 reach line 147 with %r2 = tid: 5 and 7 satisfy the first
 * half, 31 the second; the stop focuses the first of them */
Test(debug, compound_conditions) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break 147 if %r2 > 4 && %r2 < 8 || %r2 == 31\nrun\nprint -all %r2 == 5 || %laneid == 7\n"
                        "print %r2 != 5 && %r2 != 6\ncontinue\n");
    EXPECT(o, "[Switching focus to block (0,0,0), thread (5,0,0), warp 0, lane 5]", "Breakpoint 1, demo",
           "active 0xaaaaaaaa", "[4] = 0, [5] = 1, [6] = 0, [7] = 1, [8] = 0", "[31] = 0}", "$2 = 0",
           "[Kernel finished]");
    cr_assert(!strstr(o, "warp 1, active"), "warp 1 has no lane for which it holds:\n%s", o);
    free(o);
}

/* One numbering for breakpoints, watchpoints and displays; delete, disable,
 * enable, condition and ignore on each kind; a plain delete removes breakpoints
 * and watchpoints, not displays. */
Test(debug, one_numbering_for_breaks_watches_displays) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break 78\nrun\nwatch @shared 0x14\ndisplay %r2\ndisable 2\ndisable 3\ninfo breakpoints\n"
                        "info display\ncontinue\nenable 3\ncondition 1 %r2 == 40\nignore 1 1\ndelete 2\n"
                        "info breakpoints\ndelete 7\ndelete\ninfo breakpoints\ninfo display\nundisplay 3\n"
                        "info display\nkill\n");
    EXPECT(o, "Hardware watchpoint 2: @shared 0x14 (4 bytes)", "3: %r2 = 0",
           "2       hw watchpoint   keep n   @shared 0x14 (4 bytes)", "3:   n  %r2",
           /* the watchpoint and display are off: the next stop is the breakpoint in warp 1, without them */
           "Breakpoint 1, demo at debug_demo.sm_90.ptx:78", "=> 78\tshl.b32 \t%r13, %r2, 2;\n(ptxi) enable 3",
           "Will ignore next 1 crossing of breakpoint 1.", "stop only if %r2 == 40",
           "Will ignore next 1 crossings of breakpoint.", "No breakpoint number 7.",
           "(ptxi) info breakpoints\nNo breakpoints or watchpoints.", "3:   y  %r2",
           "(ptxi) info display\nThere are no auto-display expressions now.", "[Kernel killed]");
    cr_expect(!strstr(o, "2       hw watchpoint   keep n   @shared 0x14 (4 bytes)\n(ptxi) info breakpoints"));
    free(o);
}

/* The kernel can be run again after it ends or is killed; breakpoints stay. */
Test(debug, run_again_keeps_breakpoints) {
    char *o = debug_run(DEMO_DIR, DEMO, "break 78\nrun\nkill\nrun\ndelete\ncontinue\nrun\nquit\n");
    EXPECT(o, "Breakpoint 1, demo", "[Kernel killed]", "Starting kernel demo", "Breakpoint 1, demo",
           "[Kernel finished]", "Starting kernel demo", "[Kernel finished]");
    free(o);
}

/* The settings gdb scripts start with; p/f of a 32-bit literal reads it as a float. */
Test(debug, gdb_settings_and_float_literals) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "set pagination off\nset print pretty on\nset width 0\nset height 0\nset confirm off\n"
                        "p/f 0x3f800000\np/f 0x40490fdb\np 0xffffffff\np/x -1\nset colour on\n");
    cr_expect(!strstr(o, "Unknown set command: pagination"), "%s", o);
    cr_expect(!strstr(o, "Unknown set command: confirm"), "%s", o);
    /* 0x3f800000 is 1.0f; 0x40490fdb is pi rounded to float, 3.14159274 */
    EXPECT(o, "$1 = 1\n", "$2 = 3.14159274\n", "$3 = 4294967295\n", "$4 = 0xffffffff\n",
           "Unknown set command: colour on");
    free(o);
}

/* CUDA built-ins in print and in conditions. */
Test(debug, cuda_builtins) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break 78 if threadIdx.x == 5\nrun\np threadIdx\np threadIdx.x\np blockDim.x\np gridDim\n"
                        "p warpSize\np blockIdx.y\ncondition 1 threadIdx.x >= 40 && blockIdx.x == 0\ncontinue\n"
                        "p threadIdx.x\nkill\n");
    EXPECT(o, "[Switching focus to block (0,0,0), thread (5,0,0), warp 0, lane 5]", "Breakpoint 1, demo",
           "$1 = {x = 5, y = 0, z = 0}", "$2 = 5", "$3 = 48", "$4 = {x = 1, y = 1, z = 1}", "$5 = 32", "$6 = 0",
           "[Switching focus to block (0,0,0), thread (40,0,0), warp 1, lane 8]", "$7 = 40", "[Kernel killed]");
    cr_expect(!strstr(o, "Error in testing condition"), "%s", o);
    free(o);
}

/* up, down and frame N select the caller's frame for registers; a stop goes back to frame 0.
 * In square_plus(v, k) of thread 32 (v = 97), the caller demo holds %r2 = 32. */
Test(debug, up_down_frame) {
    char *o = debug_run(DEMO_DIR, DEMO,
                        "break debug_demo.cu:22\nrun\nstep\nup\nprint %r2\nup\ndown\ndown\nframe 1\nframe 2\nframe 0\n"
                        "print %r1\nframe\nkill\n");
    EXPECT(
        o, "_Z11square_plusii at debug_demo.sm_90.ptx:26 (debug_demo.cu:6)",
        "(ptxi) up\n#1  demo at debug_demo.sm_90.ptx:123 (debug_demo.cu:22)\n22\t    acc = square_plus(v, local[1]);",
        "$1 = 32", "Initial frame selected; you cannot go up.",
        "(ptxi) down\n#0  _Z11square_plusii at debug_demo.sm_90.ptx:26 (debug_demo.cu:6)",
        "Bottom (innermost) frame selected; you cannot go down.", "(ptxi) frame 1\n#1  demo", "No frame at level 2.",
        "(ptxi) frame 0\n#0  _Z11square_plusii", "(ptxi) frame\n#0  _Z11square_plusii", "[Kernel killed]");
    free(o);
}
