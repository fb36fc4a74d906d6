/* main.c — the `ptxi` command: dispatches to one file per subcommand
 * (cmd_check.c, cmd_run.c, cmd_exec.c, cmd_eval.c, cmd_debug.c, cmd_sanitize.c). */
#include <stdio.h>
#include <string.h>

#include "cmds.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} cmds[] = {
    {"check", cmd_check, "check FILE.ptx...       parse and validate PTX"},
    {"run", cmd_run, "run FILE.ptx [options]  run one kernel (ptxi run --help)"},
    {"exec", cmd_exec, "exec PROGRAM [args...]  run a CUDA program on ptxi's libcudart"},
    {"eval", cmd_eval, "eval 'INSN;' [%r=V...]  evaluate a PTX snippet or asm() statement"},
    {"debug", cmd_debug, "debug FILE.ptx [options] | debug -- PROGRAM [args]: step kernels (cuda-gdb style)"},
    {"sanitize", cmd_sanitize,
     "sanitize [--tool memcheck] [--leak-check full] PROGRAM [args]: compute-sanitizer's checks"},
};

static int usage(FILE *f) {
    fprintf(f, "usage: ptxi COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) fprintf(f, "  ptxi %s\n", cmds[i].help);
    return f == stdout ? 0 : 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage(stderr);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) return usage(stdout);
    if (!strcmp(argv[1], "--version")) {
        puts("ptxi 0.1.0");
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(argv[1], cmds[i].name)) {
            if (!cmds[i].fn) {
                fprintf(stderr, "ptxi: '%s' is not part of this build\n", argv[1]);
                return 2;
            }
            return cmds[i].fn(argc - 1, argv + 1);
        }
    fprintf(stderr, "ptxi: unknown command '%s'\n", argv[1]);
    return usage(stderr);
}
