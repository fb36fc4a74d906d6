/* cmd_run.c — `ptxi run`: one kernel of a .ptx file, parameters from the
 * command line, buffers from and to files (launch_opts.c). Everything goes
 * through ptxi.h. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "launch_opts.h"
#include "ptxi_private.h"

static const char usage_text[] =
    "usage: ptxi run FILE.ptx [--kernel NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
    "                [--shared BYTES] [--arg A]... [--out N=FILE]... [--threads N]\n"
    "                [--timeout SECONDS] [--stats] [--sanitize memcheck|racecheck|synccheck|initcheck]\n"
    "\n" CLI_LAUNCH_USAGE
    "      --stats          print instructions executed, warp instructions, active lanes and time\n"
    "      --sanitize TOOL  check the kernel as compute-sanitizer's TOOL does\n"
    "\n"
    "exit status: 0 success, 1 the kernel failed, 2 bad arguments or files\n";

int cmd_run(int argc, char **argv) {
    static const struct option opts[] = {CLI_LAUNCH_LONGOPTS,
                                         {"stats", no_argument, 0, 'S'},
                                         {"sanitize", required_argument, 0, 'Z'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    cli_launch l;
    cli_launch_init(&l, "run");
    bool stats = false;
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, CLI_LAUNCH_SHORTOPTS "h", opts, NULL)) != -1;) {
        int r = cli_launch_opt(&l, c, optarg);
        if (r == 0) continue;
        if (r == 2) return 2;
        if (c == 'S') stats = true;
        else if (c == 'Z') {
            if (!ptxi_sanitize_tool(optarg)) {
                fprintf(
                    stderr,
                    "ptxi run: --sanitize %s is not supported yet (memcheck, racecheck, synccheck and initcheck are)\n",
                    optarg);
                return 2;
            }
            setenv("PTXI_SANITIZE", optarg, 1); /* read when the context is created */
        } else if (c == 'h') {
            fputs(usage_text, stdout);
            return 0;
        } else {
            fputs(usage_text, stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        fputs(usage_text, stderr);
        return 2;
    }
    const char *path = argv[optind];
    ptxi_ctx *ctx;
    if (ptxi_ctx_create(&ctx, &l.co)) return cli_bad(&l, "cannot create a context");
    ptxi_san_counts san;
    bool sanitized = ptxi_sanitize_counts(&san);
    if (sanitized) printf("========= COMPUTE-SANITIZER\n"), fflush(stdout);
    int rc = 2;
    ptxi_module *m;
    cli_prepared p = {0};
    ptxi_status st = ptxi_module_load_file(ctx, path, &m);
    if (st) {
        fprintf(stderr, "%s", ptxi_ctx_error_detail(ctx));
        if (st != PTXI_IO) rc = 1;
        else fprintf(stderr, "\n");
        goto done;
    }
    if (cli_launch_prepare(ctx, m, path, &l, &p)) goto done;
    st = cli_launch_start(&l, &p);
    ptxi_status sync = ptxi_ctx_synchronize(ctx);
    if (!st) st = sync;
    if (st) {
        if (st != PTXI_ASSERT && !ptxi_error_is_sticky(st))
            fprintf(stderr, "ptxi run: %s\n", ptxi_ctx_error_detail(ctx));
        fprintf(stderr, "ptxi run: %s: %s\n", ptxi_error_name(st), ptxi_error_string(st));
        rc = 1;
        goto done;
    }
    rc = cli_launch_write_outs(ctx, &l, &p);
    if (stats) {
        ptxi_launch_stats ls;
        ptxi_ctx_last_launch_stats(ctx, &ls);
        fprintf(stderr,
                "instructions executed (thread): %llu\nwarp instructions: %llu\naverage active lanes: %.2f\n"
                "time: %.6f s\nthread-instructions/s: %.3g\n",
                (unsigned long long)ls.thread_insns, (unsigned long long)ls.warp_insns,
                ls.warp_insns ? (double)ls.thread_insns / (double)ls.warp_insns : 0.0, ls.seconds,
                ls.seconds > 0 ? (double)ls.thread_insns / ls.seconds : 0.0);
    }
done:
    cli_launch_release(&p);
    ptxi_ctx_destroy(ctx);
    if (sanitized && ptxi_sanitize_counts(&san)) ptxi_sanitize_close(stdout, &san, rc != 0);
    return rc;
}
