/* test_eval_snippet.c — `ptxi eval` on PTX snippets and CUDA asm() statements:
 * values from the instructions' definitions, worked by hand in each comment. */
#include <criterion/criterion.h>

#include "eval_run.h"

static void expect(ev_result r, int rc, const char *out) {
    cr_expect_eq(r.rc, rc, "exit %d, stderr:\n%s", r.rc, r.err);
    if (out) cr_expect_str_eq(r.out, out);
}

/* The CUDA guide's example (SIMD video section). vabsdiff4 .add sums the four
 * byte differences and c: A bytes 04 03 02 01, B bytes 01 02 03 04:
 * 3 + 1 + 1 + 3 = 8, + C = 5 gives 13. */
Test(eval, guide_vabsdiff4_asm) {
    expect(
        PTXI(
            "eval",
            "asm(\"vabsdiff4.u32.u32.u32.add\" \" %0, %1, %2, %3;\": \"=r\" (result):\"r\" (A), \"r\" (B), \"r\" (C));",
            "A=0x01020304", "B=0x04030201", "C=5"),
        0, "result = 0x0000000d (13)\n");
}

Test(eval, guide_vabsdiff4_ptx) {
    expect(PTXI("eval", "vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, %r4;", "%r2=0x01020304", "%r3=0x04030201", "%r4=5"),
           0, "%r1 = 0x0000000d (13)\n");
}

/* 1.5 + 0.25 = 1.75 = 0x3fe00000; 1.75 < 2 sets %p1, so the guarded mov runs. */
Test(eval, floats_predicates_guard) {
    expect(
        PTXI("eval", "add.f32 %f1, %f2, %f3; setp.lt.f32 %p1, %f1, 2.0; @%p1 mov.u32 %r1, 7;", "%f2=1.5", "%f3=0.25"),
        0, "%f1 = 0x3fe00000 (1.75)\n%p1 = 1\n%r1 = 0x00000007 (7)\n");
}

/* A register given a value and written only under a false guard keeps the value. */
Test(eval, conditional_write_keeps_input) {
    expect(PTXI("eval", "setp.eq.u32 %p1, %r2, 1; @%p1 mov.u32 %r1, 7;", "%r2=0", "%r1=5"), 0,
           "%p1 = 0\n%r1 = 0x00000005 (5)\n");
}

/* Labels, a branch and a { } block with its own register: 3 * 4 = 12, then + 1. */
Test(eval, labels_blocks_local_regs) {
    expect(PTXI("eval",
                "{ .reg .u32 t; mul.lo.u32 t, %r2, 4; mov.u32 %r1, t; } setp.gt.u32 %p1, %r1, 10;\n"
                "@!%p1 bra SKIP; add.u32 %r1, %r1, 1; SKIP:",
                "%r2=3"),
           0, "%r1 = 0x0000000d (13)\n%p1 = 1\n");
}

/* Lanes: an expression of lane, a comma list. s32 results print signed.
 * lane 2: 2*2 + (2<<4) = 36, 36 - 100 = -64. */
Test(eval, lanes_expressions_lists) {
    expect(PTXI("eval", "sub.s32 %r1, %r2, %r3;", "--lanes", "3", "%r2=lane*2+(lane<<4)", "%r3=5,5,100"), 0,
           "lane 0: %r1 = 0xfffffffb (-5)\nlane 1: %r1 = 0x0000000d (13)\nlane 2: %r1 = 0xffffffc0 (-64)\n");
    /* a comma list alone sets the lane count */
    expect(PTXI("eval", "not.b32 %r1, %r2;", "%r2=0,0xffff0000"), 0,
           "lane 0: %r1 = 0xffffffff (4294967295)\nlane 1: %r1 = 0x0000ffff (65535)\n");
}

/* shfl.sync.bfly with lane mask 1 swaps neighbours: lane 0 reads lane 1's 10. */
Test(eval, warp_shuffle) {
    ev_result r = PTXI("eval", "shfl.sync.bfly.b32 %r1, %r2, 1, 0x1f, 0xffffffff;", "--lanes", "32", "%r2=lane*10");
    cr_assert_eq(r.rc, 0, "%s", r.err);
    cr_expect(strstr(r.out, "lane 0: %r1 = 0x0000000a (10)\n"));
    cr_expect(strstr(r.out, "lane 1: %r1 = 0x00000000 (0)\n"));
    cr_expect(strstr(r.out, "lane 31: %r1 = 0x0000012c (300)\n"));
}

/* Named operands, "+r", asm volatile, multi-string templates with \n\t: 100 + 3*7. */
Test(eval, asm_named_inout) {
    expect(PTXI("eval",
                "asm volatile(\"{ .reg .u32 t;\\n\\t\" \"mul.lo.u32 t, %[x], %[y];\\n\\t\" "
                "\"add.u32 %[acc], %[acc], t; }\" : [acc] \"+r\"(acc) : [x] \"r\"(x), [y] \"r\"(y));",
                "acc=100", "x=3", "y=7"),
           0, "acc = 0x00000079 (121)\n");
}

/* Constraints h, d, f and n: cvt.rn.f16.f32 of 1.5 is 0x3e00; 1.5 as f64 is
 * 0x3ff8000000000000; the "n" operand 4 shifts 1 to 16. */
Test(eval, asm_constraints) {
    expect(PTXI("eval",
                "asm(\"cvt.rn.f16.f32 %0, %2;\\n\\tcvt.f64.f32 %1, %2;\\n\\tshl.b32 %3, 1, %4;\" : \"=h\"(h), "
                "\"=d\"(d) : \"f\"(f), \"=r\"(s) : \"n\"(4));",
                "f=1.5"),
           1, NULL); /* an output after the inputs is malformed */
    expect(PTXI("eval",
                "asm(\"cvt.rn.f16.f32 %0, %3;\\n\\tcvt.f64.f32 %1, %3;\\n\\tshl.b32 %2, 1, %4;\" : \"=h\"(h), "
                "\"=d\"(d), \"=r\"(s) : \"f\"(f), \"n\"(4));",
                "f=1.5"),
           0, "h = 0x3e00 (1.5)\nd = 0x3ff8000000000000 (1.5)\ns = 0x00000010 (16)\n");
}

/* --reg where the instruction does not say: mov.b32 into an f32 register. */
Test(eval, reg_declaration) {
    expect(PTXI("eval", "mov.b32 %x, %r2;", "--reg", ".f32", "%x", "%r2=0x3fc00000"), 0, "%x = 0x3fc00000 (1.5)\n");
}

/* --mem: the words the snippet stores are printed. */
Test(eval, memory_operands) {
    expect(PTXI("eval", "st.global.u32 [buf+8], %r1; ld.global.u32 %r2, [buf+4];", "--mem", "buf=zeros:16", "%r1=5"), 0,
           "%r2 = 0x00000000 (0)\n[buf+8] = 0x00000005 (5)\n");
}

/* --table with a snippet: CSV rows are lanes. 0xff + 1 = 0x100; 2 + 3 = 5. */
Test(eval, csv_table) {
    const char *path = "/tmp/ptxi_eval_csv_test.csv";
    FILE *f = fopen(path, "w");
    fprintf(f, "%%r2,%%r3\n0xff,1\n2,3\n");
    fclose(f);
    expect(PTXI("eval", "add.u32 %r1, %r2, %r3;", "--table", path), 0, "%r1\n0x00000100\n0x00000005\n");
    unlink(path);
}

/* A malformed snippet: the front end's message at the column inside the snippet. */
Test(eval, malformed_snippet_column) {
    ev_result r = PTXI("eval", "add.u32 %r1, %r2 %r3;", "%r2=1", "%r3=2");
    cr_expect_eq(r.rc, 1);
    cr_expect(strstr(r.err, "<snippet>:1:18: error:") != NULL, "%s", r.err);
    cr_expect(strstr(r.err, "add.u32 %r1, %r2 %r3;\n                 ^\n") != NULL, "%s", r.err);
    /* second line of a two-line snippet, unknown opcode */
    r = PTXI("eval", "mov.u32 %r1, 1;\n  frob.u32 %r2, %r1;");
    cr_expect_eq(r.rc, 1);
    cr_expect(strstr(r.err, "<snippet>:2:3: error:") != NULL, "%s", r.err);
    /* inside an asm() template: the column of the statement as typed */
    r = PTXI("eval", "asm(\"add.u32 %0, %1 %1;\" : \"=r\"(x) : \"r\"(y));", "y=1");
    cr_expect_eq(r.rc, 1);
    cr_expect(strstr(r.err, "<snippet>:1:21: error:") != NULL, "%s", r.err); /* the second %1 */
}

Test(eval, operand_without_value) {
    ev_result r = PTXI("eval", "add.u32 %r1, %r2, %r3;", "%r2=1");
    cr_expect_eq(r.rc, 1);
    cr_expect(strstr(r.err, "operand %r3 has no value") != NULL, "%s", r.err);
    r = PTXI("eval", "asm(\"add.u32 %0, %1, %2;\" : \"=r\"(x) : \"r\"(a), \"r\"(b));", "a=1");
    cr_expect_eq(r.rc, 1);
    cr_expect(strstr(r.err, "operand b has no value") != NULL, "%s", r.err);
}

Test(eval, usage_errors) {
    cr_expect_eq(PTXI("eval").rc, 2);
    cr_expect_eq(PTXI("eval", "add.u32 %r1, %r2, 1;", "--bogus").rc, 2);
    cr_expect_eq(PTXI("eval", "add.u32 %r1, %r2, 1;", "%r2=1+").rc, 2);
    cr_expect_eq(PTXI("eval", "add.u32 %r1, %r2, 1;", "%r9=1").rc, 2);
    cr_expect_eq(PTXI("eval", "add.u32 %r1, %r2, 1;", "--lanes", "2", "%r2=1,2,3").rc, 2);
    cr_expect_eq(PTXI("eval", "--help").rc, 0);
}

/* Vector operands and a buffer from a file (words 1 2 3 4, little-endian):
 * [buf+8] holds 3 and 4; mov.b64 packs them low word first; atom.cas finds 1
 * at [buf] and stores 9. */
Test(eval, vectors_and_memory_file) {
    const char *path = "/tmp/ptxi_eval_mem_test.bin";
    FILE *f = fopen(path, "wb");
    const unsigned char words[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
    fwrite(words, 1, sizeof words, f);
    fclose(f);
    char mem[64];
    snprintf(mem, sizeof mem, "buf=%s", path);
    expect(PTXI("eval",
                "ld.global.v2.u32 {%r1, %r2}, [buf+8]; mov.b64 %rd1, {%r1, %r2}; atom.global.cas.b32 %r3, [buf], 1, 9;",
                "--mem", mem),
           0,
           "%r1 = 0x00000003 (3)\n%r2 = 0x00000004 (4)\n%rd1 = 0x0000000400000003 (17179869187)\n"
           "%r3 = 0x00000001 (1)\n[buf+0] = 0x00000009 (9)\n");
    unlink(path);
}

/* Values are parsed strictly: 2^32 does not fit a 32-bit register, nor -2^31 - 1;
 * --lanes and --mem sizes are whole numbers. */
Test(eval, values_out_of_range_refused) {
    ev_result r = PTXI("eval", "add.u32 %r1, %r2, %r3;", "%r2=99999999999", "%r3=1");
    cr_expect_eq(r.rc, 2);
    cr_expect(strstr(r.err, "%r2=99999999999: number out of range for the register"), "%s", r.err);
    r = PTXI("eval", "add.s32 %r1, %r2, %r3;", "%r2=-2147483649", "%r3=1");
    cr_expect_eq(r.rc, 2);
    expect(PTXI("eval", "add.s32 %r1, %r2, %r3;", "%r2=-2147483648", "%r3=0xffffffff"), 0,
           "%r1 = 0x7fffffff (2147483647)\n");
    r = PTXI("eval", "add.u32 %r1, %r2, %r3;", "--lanes", "4x", "%r2=1", "%r3=1");
    cr_expect_eq(r.rc, 2);
    cr_expect(strstr(r.err, "bad --lanes 4x"), "%s", r.err);
    r = PTXI("eval", "ld.global.u32 %r1, [%rd1];", "--mem", "buf=zeros:abc");
    cr_expect_eq(r.rc, 2);
}

/* asm() as pasted from CUDA sources: indented, __asm__ __volatile__, comments
 * between the strings. -5 + 1 = -4, an s32 result shown signed. */
Test(eval, asm_pasted_as_written) {
    static const char *const forms[] = {
        "    asm(\"add.s32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b));",
        "\t__asm__ __volatile__(\"add.s32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b));",
        "asm volatile(\"add.s32 %0,\" /* d */ \" %1, %2;\" // a + b\n : \"=r\"(d) : \"r\"(a), \"r\"(b));",
        "__asm(\"add.s32 %0, %1, %2;\"\n    : \"=r\"(d)   // out\n    : \"r\"(a), \"r\"(b));"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        expect(PTXI("eval", forms[i], "a=-5", "b=1"), 0, "d = 0xfffffffc (-4)\n");
}

/* "n" operands as constant expressions: 1 << (1 + 2*2) = 32; 0xffu & 7 = 7. */
Test(eval, asm_constant_expressions) {
    expect(PTXI("eval", "asm(\"shl.b32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"n\"(1 + 2 * 2));", "a=1"), 0,
           "d = 0x00000020 (32)\n");
    expect(PTXI("eval", "asm(\"and.b32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"n\"(0xffu & 7));", "a=0xff"), 0,
           "d = 0x00000007 (7)\n");
}

/* Bit-cast intrinsics and casts in operands: the value is given in the variable's
 * type. 1.5f = 0x3fc00000; 0x3fc00000 as a float is 1.5, doubled 3.0 = 0x40400000. */
Test(eval, asm_intrinsic_operands) {
    expect(PTXI("eval", "asm(\"mov.b32 %0, %1;\" : \"=r\"(d) : \"r\"(__float_as_uint(f)));", "f=1.5"), 0,
           "d = 0x3fc00000 (1069547520)\n");
    expect(PTXI("eval", "asm(\"add.f32 %0, %1, %1;\" : \"=f\"(d) : \"f\"(__int_as_float(i)));", "i=0x3fc00000"), 0,
           "d = 0x40400000 (3)\n");
    expect(PTXI("eval", "asm(\"add.s32 %0, %1, 1;\" : \"=r\"(d) : \"r\"((int)x));", "x=-3"), 0,
           "d = 0xfffffffe (-2)\n");
}

/* Pointer operands bound to --mem buffers: "l"(p) holds the buffer's address. */
Test(eval, asm_pointer_operands) {
    expect(PTXI("eval", "asm volatile(\"st.global.u32 [%0+4], %1;\" :: \"l\"(p), \"r\"(v) : \"memory\");", "--mem",
                "p=zeros:16", "v=7"),
           0, "[p+4] = 0x00000007 (7)\n");
    /* atom.add returns the old word, 0, and leaves 0 + 5 */
    expect(PTXI("eval", "atom.global.add.u32 %r1, [%rd1], 5;", "--mem", "%rd1=zeros:8"), 0,
           "%r1 = 0x00000000 (0)\n[%rd1+0] = 0x00000005 (5)\n");
}

/* A load past the end of a --mem buffer is a fault, as in `ptxi run`. */
Test(eval, mem_out_of_bounds_faults) {
    ev_result r = PTXI("eval", "ld.global.u32 %r1, [%rd1+16];", "--mem", "%rd1=zeros:16");
    cr_expect_eq(r.rc, 1);
    cr_expect(strstr(r.err, "out-of-bounds global read of 4 bytes"), "%s", r.err);
    cr_expect(strstr(r.err, "an illegal memory access was encountered"), "%s", r.err);
    r = PTXI("eval", "ld.global.u32 %r1, [buf+12];", "--mem", "buf=zeros:16");
    cr_expect_eq(r.rc, 0, "%s", r.err);
}

/* --timeout stops a snippet that does not end. */
Test(eval, timeout) {
    ev_result r = PTXI("eval", "L: bra L;", "--timeout", "0.2");
    cr_expect_eq(r.rc, 1);
    cr_expect(strstr(r.err, "watchdog"), "%s", r.err);
    r = PTXI("eval", "L: bra L;", "--timeout", "soon");
    cr_expect_eq(r.rc, 2);
}

/* --mem shared:NAME puts the buffer in shared memory: [NAME] and an operand NAME
 * address it there. Four lanes each add 5 to one word: 20 (the old values each
 * lane sees depend on the order, so only the sum is checked). */
Test(eval, shared_mem_buffers) {
    ev_result r = PTXI("eval", "atom.shared.add.u32 %r1, [buf+4], 5;", "--lanes", "4", "--mem", "shared:buf=zeros:8");
    cr_expect_eq(r.rc, 0, "%s", r.err);
    cr_expect(strstr(r.out, "[buf+4] = 0x00000014 (20)\n"), "%s", r.out);
    /* a store through a 32-bit shared address operand, then a load of it */
    expect(PTXI("eval",
                "asm(\"st.shared.u32 [%1+8], %2; ld.shared.u32 %0, [%1+8];\" : \"=r\"(d) : \"r\"(p), \"r\"(v));",
                "--mem", "shared:p=zeros:16", "v=9"),
           0, "d = 0x00000009 (9)\n[p+8] = 0x00000009 (9)\n");
}
