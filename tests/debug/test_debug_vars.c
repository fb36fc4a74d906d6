/* test_debug_vars.c — C variables in `ptxi debug` from the DWARF of nvcc -G
 * (tests/debug/vars/dbg_vars.cu, its PTX committed): print of variables,
 * members, slices, pointers, arithmetic and history; ptype and whatis; info
 * locals and args; an inlined call's frame; finish with the value returned;
 * watchpoints in the variable's type; conditions in C; the -lineinfo PTX of
 * the same source (inlined frames from .loc); .b128 registers. Expected
 * values are those cuda-gdb printed on an H100 for the same program
 * (vars/recorded: the s*.gdb scripts and their s*.txt transcripts). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pty.h>

#include "transcript.h"

#define VARS_DIR PTXI_SOURCE_DIR "/tests/debug/vars"
#define ARGS "-k kern -b 32 -a file:in.bin -a zeros:128 -a file:pts.bin -a s32:20"
#define G "dbg_vars.G.sm_90.ptx " ARGS
#define LINEINFO "dbg_vars.lineinfo.sm_90.ptx " ARGS

/* s1.txt: thread 0 at line 35, then thread 5 */
Test(debug_vars, variables_members_slices_and_history) {
    char *o = debug_run(VARS_DIR, G,
                        "break dbg_vars.cu:35\nrun\nprint t\nprint i\nprint n\nprint tile\nprint tile[3]\n"
                        "print tile[3]@4\nprint in[0]@4\nprint *in@3\nprint *pts\nprint pts[1]\nprint pts[1].s\n"
                        "print pts[1].s[1]\nprint pts->y\nprint (pts+2)->x\nprint &t\nprint $2 + 1\nprint $\n"
                        "print $$2\nprint t * 2 + 1\nprint i / 2.0\nprint i < n\nprint i == 0 && n > 3\nprint !t\n"
                        "print ~t\nprint (char)65\nprint threadIdx\nprint blockDim\nprint gridDim.x\nprint warpSize\n"
                        "print counter\nprint coef\nprint coef[1]\nprint sizeof(pt_t)\nprint sizeof(tile)\n"
                        "print nosuch\nprint pts->nosuch\nprint t.x\nprint tile[\noutput pts[1]\necho\n"
                        "print/x tile[3]@4\nprint/x pts[1]\nprint/d coef[1]\nprint/c 65\nprint/t 10\nprint/o 8\n"
                        "x/4dw tile\ndisplay t\ndisplay/x i\ninfo display\ncuda thread (5,0,0)\nprint tile[5]\nkill\n");
    EXPECT(o, "Breakpoint 1, kern at dbg_vars.G.sm_90.ptx:", "(dbg_vars.cu:35)", "35\t  int acc = 0;", "$1 = 0",
           "$2 = 0", "$3 = 20",
           "$4 = {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58, 0 <repeats 12 times>}",
           "$5 = 10", "$6 = {10, 13, 16, 19}", "$7 = {1, 4, 7, 10}", "$8 = {1, 4, 7}",
           "$9 = {x = 1, y = 0, s = {0, 0}}", "$10 = {x = 2, y = 0.5, s = {1, -1}}", "$11 = {1, -1}", "$12 = -1",
           "$13 = 0", "$14 = 3", "Address requested for identifier \"t\" which is in register %r", "$15 = 1", "$16 = 1",
           "$17 = 3", "$18 = 1", "$19 = 0", "$20 = true", "$21 = true", "$22 = true", "$23 = -1", "$24 = 65 'A'",
           "$25 = {x = 0, y = 0, z = 0}", "$26 = {x = 32, y = 1, z = 1}", "$27 = 1", "$28 = 32", "$29 = 0",
           "$30 = {0.5, 1.5, 2.5}", "$31 = 1.5", "$32 = 12", "$33 = 128", "No symbol \"nosuch\" in current context.",
           "There is no member named nosuch.", "Attempt to extract a component of a value that is not a structure.",
           "A syntax error in expression, near `'.", "{x = 2, y = 0.5, s = {1, -1}}", "$34 = {0xa, 0xd, 0x10, 0x13}",
           "$35 = {x = 0x2, y = 0x3f000000, s = {0x1, 0xffff}}", "$36 = 1069547520", "$37 = 65 'A'", "$38 = 1010",
           "$39 = 010", ":\t1\t4\t7\t10", "2: t = 0", "3: /x i = 0x0", "2:   y  t", "3:   y  /x i",
           "[Switching focus to block (0,0,0), thread (5,0,0), warp 0, lane 5]", "2: t = 5", "3: /x i = 0x5",
           "$40 = 16", "[Kernel killed]");
    free(o);
}

Test(debug_vars, ptype_and_whatis) {
    char *o = debug_run(VARS_DIR, G,
                        "break dbg_vars.cu:35\nrun\nptype pts\nwhatis pts\nwhatis *pts\nptype in\nwhatis tile\n"
                        "whatis tile[0]\nwhatis pts->s\nwhatis &tile\nptype union Bits\nptype int\nwhatis pt_t\n"
                        "ptype scalef\nkill\n");
    /* as cuda-gdb writes them (s1.txt, g1.txt, s2.txt): the space of each value's memory */
    EXPECT(o,
           "type = @generic struct Pt {\n    @generic int x;\n    @generic float y;\n    @generic short s[2];\n"
           "} * @parameter\n",
           "type = @generic pt_t * @parameter\n", "type = @generic pt_t\n", "type = const @generic int * @parameter\n",
           "type = @shared int [32]\n", "type = @shared int\n", "type = @generic short [2]\n",
           "type = @shared int (*)[32]\n", "type = union Bits {\n    float f;\n    unsigned int u;\n}\n",
           "type = int\n", "type = Pt\n", "type = float (const pt_t * @generic, float)\n", "[Kernel killed]");
    free(o);
}

/* g1.txt: every space a value lives in, as cuda-gdb's types show it: a
 * __device__ and a __constant__ variable, registers (a variable with a
 * location list has no class), parameters, locals and their members, the
 * generic memory a pointer reaches, the address of each; a function's type. */
Test(debug_vars, types_carry_their_spaces) {
    char *o = debug_run(VARS_DIR, G,
                        "break dbg_vars.cu:44\nrun\nptype counter\nprint &counter\nwhatis coef\nwhatis coef[1]\n"
                        "print &coef[1]\nwhatis &coef\nptype t\nwhatis r\nptype acc\nwhatis in[0]\nptype out\n"
                        "whatis n\nwhatis tile[1] + 1\nwhatis p\nwhatis p.x\nwhatis p.s\nwhatis b.f\nwhatis &p\n"
                        "print &p\nprint &b\nprint &tile\nwhatis pts[1].y\nptype pts[1]\nptype kern\n"
                        "whatis struct Pt\nwhatis union Bits\nptype pt_t\nkill\n");
    EXPECT(o, "type = @global int\n", "$1 = (@global int *) 0x", "type = @constant float [3]\n",
           "type = @constant float\n", "$2 = (@constant float *) 0x", "type = @constant float (*)[3]\n",
           "type = @register int\n", "type = @register float\n", "type = int\n", "type = const @generic int\n",
           "type = @generic float * @parameter\n", "type = @parameter int\n", "type = int\n", "type = @local pt_t\n",
           "type = @local int\n", "type = @local short [2]\n", "type = @local float\n", "type = @local pt_t *\n",
           "$3 = (@local pt_t *) 0x", "$4 = (@local Bits *) 0x", "$5 = (@shared int (*)[32]) 0x",
           "type = @generic float\n",
           "type = @generic struct Pt {\n    @generic int x;\n    @generic float y;\n    @generic short s[2];\n}\n",
           "type = void (const int * @generic, float * @generic, pt_t * @generic, int)\n", "type = Pt\n",
           "type = Bits\n", "type = struct Pt {\n    int x;\n    float y;\n    short s[2];\n}\n", "[Kernel killed]");
    free(o);
}

/* s2.txt: the inlined addk, the called scalef */
Test(debug_vars, locals_args_inlined_frames_and_finish) {
    char *o = debug_run(VARS_DIR, G,
                        "break dbg_vars.cu:38\nbreak scalef\nrun\ninfo locals\nstep\nbt\ninfo locals\ninfo args\n"
                        "print a\nup\nprint acc\ninfo frame\ndown\nfinish\ndelete 1\ncontinue\nbt\ninfo args\n"
                        "print *p\nprint p->s\nprint f\nprint r\nfinish\nnext\nprint r\nprint b\nprint/x b\nprint p\n"
                        "ptype p\ninfo line\nkill\n");
    EXPECT(o, "Breakpoint 1, kern at dbg_vars.G.sm_90.ptx:", "(dbg_vars.cu:38)", "v = 1\nk = 0\n", "acc = 0\n",
           /* step: into the inlined call, a frame of its own */
           "addk at dbg_vars.G.sm_90.ptx:", "(dbg_vars.cu:20)", "20\t  int r = a + k;",
           "#0  addk (a=0, k=1) (inlined) at dbg_vars.G.sm_90.ptx:", "(dbg_vars.cu:20)", "#1  kern (in=0x",
           ", n=20) at dbg_vars.G.sm_90.ptx:", "(dbg_vars.cu:38)", "r = 0\n", "a = 0\nk = 1\n", "$1 = 0",
           "#1  kern (in=", "38\t    acc = addk(acc, v);", "$2 = 0", "Stack level 1", "#0  addk (a=0, k=1)",
           "Run till exit from #0  addk (a=0, k=1) (inlined)", "kern at dbg_vars.G.sm_90.ptx:", "(dbg_vars.cu:38)",
           /* scalef past its prologue: the arguments are there */
           "Breakpoint 2, _Z6scalefPK2Ptf at dbg_vars.G.sm_90.ptx:", "(dbg_vars.cu:25)", "25\t  float r = p->y * f;",
           "#0  _Z6scalefPK2Ptf (p=0x", ", f=22) at", "#1  kern (in=0x", "(dbg_vars.cu:43)",
           "p = 0x", "f = 22", "$3 = {x = 1, y = 0, s = {0, 0}}", "$4 = {0, 0}", "$5 = 22",
           "$6 = ", "Run till exit from #0  _Z6scalefPK2Ptf", "(dbg_vars.cu:43)", "Value returned is $7 = 1",
           "(dbg_vars.cu:44)", "$8 = 1", "$9 = {f = 0.5, u = 1056964608}", "$10 = {f = 0x3f000000, u = 0x3f000000}",
           "$11 = {x = 1, y = 0, s = {0, 0}}", "type = @local struct Pt {\n    @local int x;\n    @local float y;\n    @local short s[2];\n}",
           "Line 44 of \"dbg_vars.cu\" starts at dbg_vars.G.sm_90.ptx:", "[Kernel killed]");
    free(o);
}

/* s3.txt: a condition in C stops thread 3; its values at line 44 */
Test(debug_vars, c_conditions_and_values_of_another_thread) {
    char *o = debug_run(VARS_DIR, G,
                        "break dbg_vars.cu:40 if t == 3 && threadIdx.x < 10\nrun\nprint t\ndelete\n"
                        "break dbg_vars.cu:44\ncontinue\ncuda thread (3,0,0)\nprint acc\nprint p\nprint r\n"
                        "print out[0]@2\nprint (int)(p.y * 10) % 7\nkill\n");
    EXPECT(o, "[Switching focus to block (0,0,0), thread (3,0,0), warp 0, lane 3]", "Breakpoint 1, kern at",
           "(dbg_vars.cu:40)", "$1 = 3", "Breakpoint 2, kern at", "(dbg_vars.cu:44)",
           "[Current focus set to block (0,0,0), thread (3,0,0), warp 0, lane 3]", "$2 = 58",
           "$3 = {x = 4, y = 1.5, s = {3, -3}}", "$4 = 91", "$5 = {0, 0}", "$6 = 1", "[Kernel killed]");
    free(o);
}

Test(debug_vars, watch_a_variable_in_its_type) {
    char *o = debug_run(
        VARS_DIR, G,
        "break dbg_vars.cu:33\nrun\nwatch tile[5]\nwatch t\nwatch acc\nwatch counter\ninfo breakpoints\n"
        "delete 1\ncontinue\ncontinue\nkill\n");
    EXPECT(o, "Hardware watchpoint 2: tile[5]", "Cannot watch `t': it lives in register %r",
           "Cannot watch `acc': it has no location here.", "Hardware watchpoint 3: counter",
           "2       hw watchpoint   keep y   tile[5]",
           "Hardware watchpoint 2: tile[5]\n\nOld value = 0\nNew value = 16\n",
           "Written by block (0,0,0) thread (5,0,0) (warp 0 lane 5) at kern at dbg_vars.G.sm_90.ptx:",
           "Hardware watchpoint 3: counter\n\nOld value = 0\nNew value = 1\n",
           "Written by block (0,0,0) thread (0,0,0) (warp 0 lane 0)", "[Kernel killed]");
    free(o);
}

/* info locals as cuda-gdb printed it (s1.txt, s2.txt): a lexical block's
 * variables in the order of gdb's hash table, the innermost block first;
 * variables whose registers the code has not written yet are <optimized out>. */
Test(debug_vars, info_locals_in_cuda_gdb_order) {
    char *o = debug_run(VARS_DIR, G,
                        "break dbg_vars.cu:35\nrun\ninfo locals\ninfo args\nbreak dbg_vars.cu:38\ncontinue\n"
                        "info locals\ncuda thread (5,0,0)\ninfo locals\nkill\n");
    const char *tile = "tile = {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58, 0 "
                       "<repeats 12 times>}\n";
    char at35[400], at38[400], at38t5[400];
    snprintf(at35, sizeof at35,
             "(ptxi) info locals\ni = 0\nacc = <optimized out>\n%sp = {x = 0, y = 0, s = {0, 0}}\n"
             "b = {f = 0, u = 0}\nt = 0\nr = <optimized out>\n",
             tile);
    snprintf(at38, sizeof at38,
             "(ptxi) info locals\nv = 1\nk = 0\ni = 0\nacc = 0\n%sp = {x = 0, y = 0, s = {0, 0}}\n"
             "b = {f = 0, u = 0}\nt = 0\nr = <optimized out>\n",
             tile);
    snprintf(at38t5, sizeof at38t5,
             "(ptxi) info locals\nv = 16\nk = 0\ni = 5\nacc = 0\n%sp = {x = 0, y = 0, s = {0, 0}}\n"
             "b = {f = 0, u = 0}\nt = 5\nr = <optimized out>\n",
             tile);
    EXPECT(o, at35, "(ptxi) info args\nin = 0x", "\nout = 0x", "\npts = 0x", "\nn = 20\n(ptxi)", at38, at38t5,
           "[Kernel killed]");
    free(o);
}

/* tests/debug/order/dbg_order.cu (-G): blocks of 15, 3 and 5 variables and a
 * loop, as cuda-gdb listed them (order/recorded/o1.txt): the order of each
 * block's hash table, and a variable <optimized out> until the instruction
 * writing it (v in the loop's second round too, vars/recorded/g2.txt). */
#define ORDER_DIR PTXI_SOURCE_DIR "/tests/debug/order"
Test(debug_vars, info_locals_of_larger_blocks) {
    char *o = debug_run(ORDER_DIR, "dbg_order.G.sm_90.ptx -k order -b 8 -a zeros:32 -a s32:8",
                        "break order\nrun\ninfo locals\nnext\ninfo locals\nnext\nnext\nnext\ninfo locals\n"
                        "break dbg_order.cu:36\ncontinue\ncontinue\ninfo locals\nkill\n");
    EXPECT(o,
           "(ptxi) info locals\nlocal_arr = {0, 0, 0}\nbeta = <optimized out>\ny = <optimized out>\n"
           "idx = <optimized out>\nmask = <optimized out>\nalpha = <optimized out>\nz = <optimized out>\n"
           "f = <optimized out>\nsh = {0, 0, 0, 0, 0, 0, 0, 0}\ngamma = <optimized out>\ncount = <optimized out>\n"
           "c = <optimized out>\ndelta = <optimized out>\nx = <optimized out>\ntotal = <optimized out>\n(ptxi)",
           "(ptxi) info locals\nlocal_arr = {0, 0, 0}\nbeta = 0\ny = <optimized out>\nidx = <optimized out>\n"
           "mask = <optimized out>\nalpha = 0\nz = <optimized out>\n",
           "(ptxi) info locals\nlocal_arr = {0, 0, 0}\nbeta = 1\ny = <optimized out>\nidx = <optimized out>\n"
           "mask = <optimized out>\nalpha = 0\nz = <optimized out>\nf = <optimized out>\n"
           "sh = {0, 0, 0, 0, 0, 0, 0, 0}\ngamma = 2\ncount = <optimized out>\nc = <optimized out>\ndelta = 1\n"
           "x = <optimized out>\ntotal = <optimized out>\n(ptxi)",
           "(ptxi) info locals\nw1 = 27\nw3 = 29\nw5 = 31\nw2 = 28\nw4 = 30\nu1 = 4\nu2 = 5\nu3 = 6\nj = 1\n"
           "local_arr = {0, 0, 0}\nbeta = 1\ny = 4\nidx = 0\nmask = 255\nalpha = 0\nz = 5\nf = <optimized out>\n"
           "sh = {1, 2, 3, 4, 5, 6, 7, 8}\ngamma = 2\ncount = 70\nc = 97 'a'\ndelta = 1\nx = 3\ntotal = 27\n(ptxi)",
           "[Kernel killed]");
    free(o);
    /* the loop's body again (g2.txt): v is written below the line, so not there yet */
    o = debug_run(VARS_DIR, G, "break dbg_vars.cu:37\nrun\nprint v\ncontinue\nprint v\nprint acc\nkill\n");
    EXPECT(o, "$1 = <optimized out>", "$2 = <optimized out>", "$3 = 1", "[Kernel killed]");
    free(o);
}

/* gdb keeps watchpoints for a new run: tile[5] (in[5] = 16, written by thread
 * 5) and counter (thread 0's atomicAdd) report again after kill and run; hit
 * counts start again. */
Test(debug_vars, watchpoints_survive_a_new_run) {
    char *o = debug_run(VARS_DIR, G,
                        "break dbg_vars.cu:33\nrun\nwatch tile[5]\nwatch counter\ndelete 1\ncontinue\ncontinue\n"
                        "kill\nrun\ninfo breakpoints\ncontinue\ncontinue\n");
    EXPECT(o, "Hardware watchpoint 2: tile[5]", "Hardware watchpoint 3: counter",
           "Hardware watchpoint 2: tile[5]\n\nOld value = 0\nNew value = 16\n",
           "Hardware watchpoint 3: counter\n\nOld value = 0\nNew value = 1\n", "[Kernel killed]",
           "Starting kernel kern", "Hardware watchpoint 2: tile[5]\n\nOld value = 0\nNew value = 16\n",
           "Written by block (0,0,0) thread (5,0,0) (warp 0 lane 5)",
           "2       hw watchpoint   keep y   tile[5]\n\tbreakpoint already hit 1 time\n",
           "3       hw watchpoint   keep y   counter\n(ptxi)",
           "Hardware watchpoint 3: counter\n\nOld value = 0\nNew value = 1\n", "[Kernel finished]");
    free(o);
}

/* -lineinfo: no variables, but the inlined call has its frame (from .loc's inlined_at) */
Test(debug_vars, lineinfo_inlined_frames) {
    char *o = debug_run(
        VARS_DIR, LINEINFO,
        "break dbg_vars.cu:20\nrun\nbt\ninfo locals\nprint t\nprint threadIdx.x + 1\nup\nfinish\nkill\n");
    EXPECT(o, "Breakpoint 1, addk at dbg_vars.lineinfo.sm_90.ptx:", "(dbg_vars.cu:20)",
           "#0  addk (inlined) at dbg_vars.lineinfo.sm_90.ptx:", "(dbg_vars.cu:20)",
           "#1  kern at dbg_vars.lineinfo.sm_90.ptx:", "(dbg_vars.cu:38)", "No symbol table info available.",
           "No symbol \"t\" in current context.", "$1 = 1", "#1  kern at", "38\t    acc = addk(acc, v);",
           "Run till exit from #0  addk (inlined)", "[Kernel killed]");
    free(o);
}

/* .b128: two 64-bit halves a lane, 8 bytes apart per lane (lane 3: lo 3, hi 0x103) */
Test(debug_vars, b128_registers) {
    char *o = debug_run(VARS_DIR, "b128.ptx -b 8 -a zeros:128",
                        "break 15\nrun\nprint %q1\ncuda lane 3\nprint %q1\ninfo registers %q1\nkill\n");
    EXPECT(o, "$1 = 0x00000000000001000000000000000000", "$2 = 0x00000000000001030000000000000003",
           "%q1        0x00000000000001030000000000000003 {lo = 3, hi = 259}", "[Kernel killed]");
    free(o);
}

/* At a terminal: a struct printed, the history, ptype; then run again. */
Test(debug_vars, at_a_terminal) {
    int fd;
    const char *const argv[] = {PTXI_BIN, "debug", "dbg_vars.G.sm_90.ptx", "-k", "kern", "-b", "32", "-a", "file:in.bin",
                                "-a", "zeros:128", "-a", "file:pts.bin", "-a", "s32:20", NULL};
    pid_t pid = start_on_tty(&fd, VARS_DIR, argv);
    cr_assert(wait_for(fd, 0, "(ptxi) "), "no prompt:\n%s", seen);
    size_t mark = nseen;
    type(fd, "break dbg_vars.cu:44\rrun\r");
    cr_assert(wait_for(fd, mark, "Breakpoint 1, kern at"), "%s", seen);
    mark = nseen;
    type(fd, "cuda thread (19,0,0)\rprint p\rprint $1.y * 2\rptype b\r");
    cr_assert(wait_for(fd, mark, "$1 = {x = 4, y = 1.5, s = {3, -3}}"), "%s", seen);
    cr_assert(wait_for(fd, mark, "$2 = 3"), "%s", seen);
    cr_assert(wait_for(fd, mark, "type = @local union Bits {\r\n    @local float f;"), "%s", seen);
    mark = nseen;
    type(fd, "kill\ry\rrun\r");
    cr_assert(wait_for(fd, mark, "[Kernel killed]"), "%s", seen);
    cr_assert(wait_for(fd, mark, "Breakpoint 1, kern at"), "run again:\n%s", seen);
    mark = nseen;
    type(fd, "print r\rquit\ry\r");
    cr_assert(wait_for(fd, mark, "$3 = 1"), "%s", seen);
    int status = wait_exit(fd, pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit status %d:\n%s", status, seen);
}
