/* cmds.h — the `ptxi` subcommands. Each is defined in its own cmd_<name>.c;
 * one that is not linked in is a null pointer (weak), and main says so. */
#ifndef PTXI_CMDS_H
#define PTXI_CMDS_H
#define PTXI_CMD(name) int cmd_##name(int argc, char **argv) __attribute__((weak))
PTXI_CMD(check);
PTXI_CMD(run);
PTXI_CMD(exec);
PTXI_CMD(eval);
PTXI_CMD(debug);
PTXI_CMD(sanitize);
#undef PTXI_CMD
#endif
