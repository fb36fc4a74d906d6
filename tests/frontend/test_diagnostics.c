/* test_diagnostics.c — malformed PTX: each case must fail with an error at
 * the exact line:column and with the exact message given here (positions
 * counted by hand from the input: 1-based, a tab is one column). Nothing may
 * crash; a few cases also go through `ptxi check` for the exit status. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ir.h"

#define H ".version 8.0\n.target sm_90\n.address_size 64\n" /* lines 1-3 */
#define FN(body) H ".visible .entry k()\n{\n" body "}\n"    /* body starts on line 6 */
#define REGS "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n\t.reg .f32 %f<2>;\n" /* lines 6-9 */

typedef struct {
    const char *name, *src;
    size_t len; /* 0: strlen(src) */
    unsigned line, col;
    const char *msg;
} diag_case;

static const diag_case cases[] = {
    {"missing_semicolon", FN("\tret\n"), 0, 6, 5, "expected ';' at end of statement"},
    {"missing_semicolon_mid", FN(REGS "\tadd.s32 %r1, %r2, %r3\n\tret;\n"), 0, 10, 23,
     "expected ';' at end of statement"},
    {"unknown_opcode", FN("\tfrobnicate.u32 %r1;\n"), 0, 6, 2, "unknown instruction 'frobnicate'"},
    {"unknown_modifier", FN(REGS "\tadd.bogus.s32 %r0, %r1, 1;\n"), 0, 10, 5, "unknown modifier '.bogus' for 'add'"},
    {"unknown_modifier_second", FN(REGS "\tld.global.zz.u32 %r0, [%rd0];\n"), 0, 10, 11,
     "unknown modifier '.zz' for 'ld'"},
    {"too_many_modifiers", FN("\tbar.sync.sync.sync.sync.sync.sync.sync.sync.sync.sync.sync.sync.sync 0;\n"), 0, 6, 65,
     "too many modifiers"},
    {"undeclared_register", FN(REGS "\tadd.s32 %r0, %r5, 1;\n"), 0, 10, 15, "undeclared register '%r5'"},
    {"undeclared_predicate", FN("\t@%p9 ret;\n"), 0, 6, 2, "undeclared predicate '%p9'"},
    {"bad_special_register", FN(REGS "\tmov.u32 %r0, %tid.w;\n"), 0, 10, 15, "undeclared register '%tid.w'"},
    {"undefined_label", FN("\tbra L9;\n"), 0, 6, 6, "undefined label 'L9'"},
    {"duplicate_label", FN("L1:\nL1:\n\tret;\n"), 0, 7, 1, "duplicate label 'L1'"},
    {"register_redefined", FN("\t.reg .b32 %r1;\n\t.reg .b32 %r1;\n"), 0, 7, 12, "redefinition of '%r1'"},
    {"variable_redefined", H ".global .u32 a;\n.global .u32 a;\n", 0, 5, 14, "redefinition of 'a'"},
    {"function_redefined", H ".entry k()\n{\n\tret;\n}\n.entry k()\n{\n\tret;\n}\n", 0, 8, 8,
     "redefinition of function 'k'"},
    {"unterminated_comment", H "/* never closed\n.entry k() { ret; }\n", 0, 4, 1, "unterminated comment"},
    {"unterminated_string", FN("\t.pragma \"nounroll;\n"), 0, 6, 10, "unterminated string"},
    {"unterminated_file_string", H ".file 1 \"a.cu\n", 0, 4, 1, "unterminated string in .file directive"},
    {"embedded_nul", H "\0.entry k() { ret; }\n", sizeof(H "\0.entry k() { ret; }\n") - 1, 4, 1, "embedded NUL byte"},
    {"embedded_nul_in_comment", H "// a\0b\n", sizeof(H "// a\0b\n") - 1, 4, 5, "embedded NUL byte"},
    /* found by fuzzing: a NUL inside a .loc line cut its text short */
    {"nul_in_loc", FN("\t.loc 1 2 3, x\0y\n\tret;\n"), sizeof(FN("\t.loc 1 2 3, x\0y\n\tret;\n")) - 1, 6, 15,
     "embedded NUL byte"},
    {"invalid_utf8", H "\xff\n", 0, 4, 1, "invalid UTF-8 byte 0xff"},
    {"invalid_utf8_in_comment", H "// ok \xc3\x28\n", 0, 4, 7, "invalid UTF-8 byte 0xc3"},
    /* found by fuzzing: 0xff bytes inside a comment (overflowed flex's -CF tables) */
    {"invalid_utf8_ff_in_comment", H "// x\xff\xff\n", 0, 4, 5, "invalid UTF-8 byte 0xff"},
    /* found by fuzzing: an integer version number */
    {"version_integer", ".version 7\n", 0, 1, 10, "expected a version number such as 8.0"},
    {"invalid_utf8_overlong", H "/* \xc0\xaf */\n", 0, 4, 4, "invalid UTF-8 byte 0xc0"},
    {"valid_utf8_out_of_place", H "\xc3\xa9\n", 0, 4, 1, "unexpected character '\xc3\xa9'"},
    {"unexpected_character", H "#include\n", 0, 4, 1, "unexpected character '#'"},
    {"control_character", H "\x01\n", 0, 4, 1, "unexpected control character 0x01"},
    {"bad_hex_immediate", FN(REGS "\tmov.u32 %r0, 0x;\n"), 0, 10, 15, "invalid numeric literal '0x'"},
    {"bad_octal_immediate", FN(REGS "\tmov.u32 %r0, 08;\n"), 0, 10, 15, "invalid digit '8' in octal literal"},
    {"immediate_overflow", FN(REGS "\tmov.u64 %rd0, 99999999999999999999;\n"), 0, 10, 16,
     "integer literal '99999999999999999999' does not fit in 64 bits"},
    {"short_float_immediate", FN(REGS "\tmov.f32 %f0, 0f3F80;\n"), 0, 10, 15, "invalid numeric literal '0f3F80'"},
    {"offset_not_integer", FN(REGS "\tld.global.u32 %r0, [%rd0+0f3F800000];\n"), 0, 10, 27,
     "address offset must be an integer constant"},
    {"generic_in_instruction",
     H ".global .u32 g;\n.entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd0, generic(g);\n}\n", 0, 8, 16,
     "generic() and mask() are only allowed in initializers"},
    {"truncated_file", H ".entry k()\n{\n\tret;\n", 0, 7, 1, "unexpected end of file"},
    /* found by fuzzing: the declaration is finished with no initializer bytes */
    {"truncated_initializer", H ".global .u32 a[4] = {", 0, 4, 22, "unexpected end of file"},
    {"truncated_in_operands", H ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.s32 %r1,", 0, 7, 14,
     "unexpected end of file"},
    {"instruction_outside_function", H "ret;\n", 0, 4, 1, "unexpected identifier 'ret'"},
    {"register_outside_function", H ".reg .b32 %r1;\n", 0, 4, 11, "register declared outside a function"},
    {"stray_close_brace", H "}\n", 0, 4, 1, "unexpected '}'"},
    {"missing_type", H ".global x;\n", 0, 4, 9, "missing type in declaration of 'x'"},
    {"unknown_directive", H ".global .u32 .frob x;\n", 0, 4, 14, "unknown directive '.frob' in declaration"},
    {"bad_alignment", H ".global .align 3 .u32 x;\n", 0, 4, 9, "alignment must be a power of two"},
    {"too_many_initializers", H ".global .u32 a[2] = {1, 2, 3};\n", 0, 4, 28, "too many initializers for 'a'"},
    {"float_for_integer", H ".global .u32 a = 1.5;\n", 0, 4, 18, "floating-point initializer for integer variable 'a'"},
    {"division_by_zero", H ".global .u32 a = 1/0;\n", 0, 4, 19, "division by zero in constant expression"},
    {"shared_initializer", H ".shared .u32 a = 1;\n", 0, 4, 16, "only .global and .const variables can be initialized"},
    {"too_many_braces", H ".global .u32 a = {{1}};\n", 0, 4, 19, "too many levels of braces in initializer of 'a'"},
    {"range_on_variable", H ".global .u32 a<4>;\n", 0, 4, 14, "a '<N>' range is only allowed on .reg declarations"},
    {"zero_dimension", H ".global .u32 a[0];\n", 0, 4, 16, "array dimension must be a positive integer"},
    {"unsized_inner_dimension", H ".global .u32 a[2][];\n", 0, 4, 18, "only the first array dimension may be left out"},
    {"empty_register_range", FN("\t.reg .b32 %r<0>;\n"), 0, 6, 12, "register range '%r<0>' declares no registers"},
    {"register_bomb", H ".entry a() { .reg .b32 %r<1000000>; ret; }\n.entry b() { .reg .b32 %r<1000000>; ret; }\n", 0,
     5, 24, "more registers declared than the module could use"},
    {"initializer_bomb",
     H ".global .b8 a0[60000000] = {1};\n.global .b8 a1[60000000] = {1};\n.global .b8 a2[60000000] = {1};\n"
       ".global .b8 a3[60000000] = {1};\n.global .b8 a4[60000000] = {1};\n",
     0, 8, 26, "initialized variables total more than the module can hold"},
    /* found by fuzzing: a count near 2^64 wrapped the limit check and ran for minutes */
    {"register_count_wraps", FN("\t.reg .b32 %r<18446744073709551611>;\n"), 0, 6, 12,
     "too many registers in one function"},
    {"array_too_large", H ".global .u32 a[4611686018427387904][4];\n", 0, 4, 14, "variable 'a' is too large"},
    {"unsized_initializer_too_large", H ".global .b8 a[][4611686018427387903] = {1};\n", 0, 4, 13,
     "initialized variable 'a' is larger than 64 MiB"},
    {"huge_register_range", FN("\t.reg .b32 %r<4000000000>;\n"), 0, 6, 12, "too many registers in one function"},
    {"address_size_twice", H ".address_size 48\n", 0, 4, 1,
     "'.address_size' may appear only once, right after '.target'"},
    {"address_size_3", ".version 8.0\n.target sm_90\n.address_size 16\n", 0, 3, 15, "address size must be 32 or 64"},
    {"version_not_number", ".version abc\n", 0, 1, 10, "unexpected identifier 'abc', expected number"},
    {"version_unsupported", ".version 12.0\n", 0, 1, 10, "unsupported PTX version 12.0"},
    {"version_after_newest", ".version 9.6\n.target sm_90\n", 0, 1, 10, "unsupported PTX version 9.6"},
    {"arch_unknown_to_9_0", ".version 9.0\n.target sm_107\n", 0, 2, 9, "unsupported target 'sm_107'"},
    {"malformed_loc", FN("\t.loc 1 x\n\tret;\n"), 0, 6, 2,
     "malformed .loc directive: expected file, line and column numbers"},
    {"malformed_file", H ".file x \"a.cu\"\n", 0, 4, 1,
     "malformed .file directive: expected an index and a quoted file name"},
    {"maxntid_too_many", H ".entry k() .maxntid 1, 2, 3, 4\n{\n\tret;\n}\n", 0, 4, 12,
     "wrong number of values for this directive (at most 3)"},
    {"undeclared_function", FN("\tcall.uni nothere, ();\n"), 0, 6, 11, "undeclared identifier 'nothere'"},
    {"undeclared_calltarget", FN("Ftbl: .calltargets f1;\n\tret;\n"), 0, 6, 20, "undeclared function 'f1'"},
    {"undefined_branchtarget", FN("ts: .branchtargets L1, L2;\nL1:\n\tret;\n"), 0, 6, 24, "undefined label 'L2'"},
    {"bad_address", FN(REGS "\tld.global.u32 %r0, [{%r0, %r1}];\n"), 0, 10, 22,
     "invalid address: expected a register, a variable or an integer"},
    /* fe_validate: operand counts and kinds, register types */
    {"type_float_register", FN(REGS "\tadd.s32 %r0, %f1, 1;\n"), 0, 10, 15,
     "operand 2 of 'add.s32': register '%f1' of type .f32 does not match .s32"},
    {"type_size", FN(REGS "\tadd.s32 %rd0, %r1, %r2;\n"), 0, 10, 10,
     "operand 1 of 'add.s32': register '%rd0' of type .b64 does not match .s32"},
    {"type_predicate_as_data", FN(REGS "\tadd.u32 %r0, %p1, 1;\n"), 0, 10, 15,
     "operand 2 of 'add.u32': register '%p1' of type .pred does not match .u32"},
    {"type_shift_amount", FN(REGS "\tshl.b64 %rd0, %rd1, %rd2;\n"), 0, 10, 22,
     "operand 3 of 'shl.b64': register '%rd2' of type .b64 does not match .u32"},
    {"type_wide_destination", FN(REGS "\tmul.wide.s32 %r0, %r1, %r2;\n"), 0, 10, 15,
     "operand 1 of 'mul.wide.s32': register '%r0' of type .b32 does not match .s64"},
    {"operand_count", FN(REGS "\tadd.s32 %r0, %r1;\n"), 0, 10, 2, "'add.s32' takes 3 operands, not 2"},
    {"destination_immediate", FN(REGS "\tadd.s32 5, %r1, %r2;\n"), 0, 10, 10,
     "operand 1 of 'add.s32' must be a register"},
    {"branch_to_register", FN(REGS "\tbra %r1;\n"), 0, 10, 6, "operand 1 of 'bra' must be a label"},
    {"load_from_register", FN(REGS "\tld.global.u32 %r0, %rd0;\n"), 0, 10, 21,
     "operand 2 of 'ld.global.u32' must be an address"},
    {"atom_needs_address", FN(REGS "\tatom.global.add.u32 %r0, %r1, 1;\n"), 0, 10, 27,
     "operand 2 of 'atom.global.add.u32' must be an address"},
    {"shfl_lane_64bit", FN(REGS "\tshfl.sync.bfly.b32 %r0, %r1, %rd1, 31, -1;\n"), 0, 10, 31,
     "operand 3 of 'shfl.sync.bfly.b32': register '%rd1' of type .b64 does not match .u32"},
    {"wrong_state_space", H ".shared .u32 s;\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\tld.global.u32 %r0, [s];\n}\n", 0, 8,
     21, "'ld.global.u32' addresses 's', which is in .shared, not .global"},
    {"linkage_before_entry", H ".global .entry k()\n{\n\tret;\n}\n", 0, 4, 1,
     "'.global' is not allowed before '.entry'"},
};

/* the runner may re-execute this binary at another address: pass indexes, not pointers */
#define NCASES (sizeof cases / sizeof cases[0])
static size_t case_index[NCASES];

ParameterizedTestParameters(diagnostics, malformed) {
    for (size_t i = 0; i < NCASES; i++) case_index[i] = i;
    return cr_make_param_array(size_t, case_index, NCASES);
}

static const char *joined(const fe_diags *d) {
    static char buf[4096];
    size_t n = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < d->n && n < sizeof buf - 200; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "  %u:%u: %s\n", d->v[i].loc.line, d->v[i].loc.col, d->v[i].msg);
    return buf;
}

static void run_case(const diag_case *c, fe_diags *d) {
    size_t len = c->len ? c->len : strlen(c->src);
    ir_module *m = fe_parse(c->src, len, "case.ptx", d);
    if (!d->nerrors) fe_validate(m, d);
    FILE *null = fopen("/dev/null", "w");
    fe_diags_print(d, null); /* printing must cope with every input too */
    fclose(null);
    ir_module_free(m);
}

ParameterizedTest(size_t *idx, diagnostics, malformed) {
    const diag_case *c = &cases[*idx];
    fe_diags d = {0};
    run_case(c, &d);
    cr_assert(d.nerrors > 0, "%s: no error reported", c->name);
    bool found = false;
    for (uint32_t i = 0; i < d.n; i++)
        if (d.v[i].loc.line == c->line && d.v[i].loc.col == c->col && !strcmp(d.v[i].msg, c->msg)) found = true;
    cr_assert(found, "%s: expected %u:%u: %s\ngot:\n%s", c->name, c->line, c->col, c->msg, joined(&d));
    fe_diags_free(&d);
}

/* what the relaxed rules allow must stay clean */
Test(diagnostics, relaxed_type_rules_accept) {
    const char *src = FN(REGS
                         "\tld.global.u8 %r0, [%rd0];\n\tst.global.u16 [%rd0], %r1;\n\tcvt.u32.u16 %r0, %r1;\n"
                         "\tadd.f32 %f0, %r1, %r2;\n\tmul.wide.s32 %rd0, %r1, %r2;\n\tshl.b64 %rd0, %rd1, %r2;\n"
                         "\tmov.b64 %rd0, {%r0, %r1};\n\tsetp.lt.s32 %p0, %r0, 5;\n\tselp.b32 %r0, %r1, %r2, %p0;\n"
                         "\tadd.u32 %r0, %r1, -1;\n\tmov.f32 %f0, 0f3F800000;\n\tret;\n");
    fe_diags d = {0};
    ir_module *m = fe_parse(src, strlen(src), "ok.ptx", &d);
    fe_validate(m, &d);
    cr_assert_eq(d.nerrors, 0, "got:\n%s", joined(&d));
    ir_module_free(m);
    fe_diags_free(&d);
}

/* the ISAs of CUDA 13.1-13.5 and their targets (PTX ISA 9.5, "PTX ISA Version"
 * and ".target" tables); an architecture newer than PTX 9.0's list only there */
Test(diagnostics, newest_isa_versions_accept) {
    static const char *const heads[] = {
        ".version 9.1\n.target sm_90\n",
        ".version 9.5\n.target sm_100a\n",
        ".version 9.5\n.target sm_110f\n",
        ".version 9.4\n.target sm_107\n",
        ".version 9.0\n.target sm_121a, texmode_independent\n",
        ".version 8.8\n.target sm_103f\n",
        ".version 7.8\n.target sm_89\n",
        ".version 6.3\n.target sm_75\n",
    };
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        char src[256];
        snprintf(src, sizeof src, "%s.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n", heads[i]);
        fe_diags d = {0};
        ir_module *m = fe_parse(src, strlen(src), "ok.ptx", &d);
        fe_validate(m, &d);
        cr_expect_eq(d.nerrors, 0, "%sgot:\n%s", heads[i], joined(&d));
        ir_module_free(m);
        fe_diags_free(&d);
    }
}

/* every error is reported, not just the first: recovery at ';' */
Test(diagnostics, reports_every_error) {
    const char *src = FN(REGS "\tadd.s32 %r0, %r9, 1;\n\tfoo.u32 %r0;\n\tmov.u32 %r0, 0x;\n\tret;\n");
    fe_diags d = {0};
    ir_module *m = fe_parse(src, strlen(src), "case.ptx", &d);
    cr_assert_eq(d.nerrors, 3, "got:\n%s", joined(&d));
    ir_module_free(m);
    fe_diags_free(&d);
}

Test(diagnostics, print_format) {
    const char *src = FN("\tfoo;\n");
    fe_diags d = {0};
    ir_module *m = fe_parse(src, strlen(src), "x.ptx", &d);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    fe_diags_print(&d, f);
    fclose(f);
    cr_assert_str_eq(out, "x.ptx:6:2: error: unknown instruction 'foo'\n\tfoo;\n\t^\n");
    free(out);
    ir_module_free(m);
    fe_diags_free(&d);
}

/* nesting beyond the parser stack is an error, not a crash */
Test(diagnostics, deeply_nested_scopes) {
    size_t depth = 100000;
    char *src = malloc(depth * 2 + 256);
    size_t n = (size_t)sprintf(src, FN(""));
    n -= 2; /* drop the closing "}\n" */
    memset(src + n, '{', depth);
    n += depth;
    n += (size_t)sprintf(src + n, "\n");
    fe_diags d = {0};
    ir_module *m = fe_parse(src, n, "deep.ptx", &d);
    cr_assert(d.nerrors > 0);
    bool found = false;
    for (uint32_t i = 0; i < d.n; i++) found |= d.v[i].loc.line == 6 && strstr(d.v[i].msg, "nested too deeply") != NULL;
    cr_assert(found, "got:\n%s", joined(&d));
    ir_module_free(m);
    fe_diags_free(&d);
    free(src);
}

Test(diagnostics, deeply_nested_initializer) {
    size_t depth = 100000;
    char *src = malloc(depth * 2 + 256);
    size_t n = (size_t)sprintf(src, H ".global .u32 a[1] = ");
    memset(src + n, '{', depth);
    n += depth;
    fe_diags d = {0};
    ir_module *m = fe_parse(src, n, "deep.ptx", &d);
    cr_assert(d.nerrors > 0);
    cr_assert_eq(d.v[0].loc.line, 4);
    cr_assert_str_eq(d.v[0].msg, "too many levels of braces in initializer of 'a'");
    ir_module_free(m);
    fe_diags_free(&d);
    free(src);
}

/* a very long token and a very long file of garbage */
Test(diagnostics, huge_identifier, .timeout = 60) {
    size_t len = 8u << 20;
    char *src = malloc(len);
    memset(src, 'a', len);
    fe_diags d = {0};
    ir_module *m = fe_parse(src, len, "huge.ptx", &d);
    cr_assert(d.nerrors > 0);
    cr_assert_eq(d.v[0].loc.line, 1);
    cr_assert_eq(d.v[0].loc.col, 1);
    cr_assert_str_eq(d.v[0].msg, "unexpected instruction 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'");
    ir_module_free(m);
    fe_diags_free(&d);
    free(src);
}

/* megabytes of comment on one line: still one pass over the text */
Test(diagnostics, huge_comment_line, .timeout = 60) {
    size_t big = 16u << 20, n = 0;
    char *src = malloc(big + 256);
    n += (size_t)sprintf(src, H "/* ");
    memset(src + n, 'x', big);
    n += big;
    n += (size_t)sprintf(src + n, " */\nret;\n");
    fe_diags d = {0};
    ir_module *m = fe_parse(src, n, "comment.ptx", &d);
    cr_assert_eq(d.nerrors, 1, "got:\n%s", joined(&d));
    cr_assert_eq(d.v[0].loc.line, 5);
    cr_assert_eq(d.v[0].loc.col, 1);
    cr_assert_str_eq(d.v[0].msg, "unexpected identifier 'ret'");
    ir_module_free(m);
    fe_diags_free(&d);
    free(src);
}

Test(diagnostics, many_errors_are_capped) {
    size_t reps = 200000, n = 0;
    char *src = malloc(reps * 8 + 256);
    n += (size_t)sprintf(src, H);
    for (size_t i = 0; i < reps; i++) n += (size_t)sprintf(src + n, "@;\n");
    fe_diags d = {0};
    ir_module *m = fe_parse(src, n, "many.ptx", &d);
    cr_assert(d.nerrors >= 1000);
    cr_assert(d.n <= 1000);
    ir_module_free(m);
    fe_diags_free(&d);
    free(src);
}

/* `ptxi check` exits 1 on errors and 0 on a clean file */
static int check_file(const char *text, size_t len) {
    char path[] = "/tmp/ptxi-check-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/bin/ptxi check %s >/dev/null 2>&1", PTXI_BINARY_DIR, path);
    int st = system(cmd);
    unlink(path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(diagnostics, cli_exit_status) {
    static const char *const picks[] = {"missing_semicolon",    "unknown_modifier", "undeclared_register",
                                        "unterminated_comment", "embedded_nul",     "invalid_utf8",
                                        "truncated_file",       "type_size",        "version_after_newest"};
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
        const diag_case *c = NULL;
        for (size_t k = 0; k < NCASES; k++)
            if (!strcmp(cases[k].name, picks[i])) c = &cases[k];
        cr_assert(c, "%s", picks[i]);
        cr_assert_eq(check_file(c->src, c->len ? c->len : strlen(c->src)), 1, "%s", c->name);
    }
    const char *ok = FN("\tret;\n");
    cr_assert_eq(check_file(ok, strlen(ok)), 0);
}
