/* eval_run.h — runs build/bin/ptxi as a subprocess for the `ptxi eval` tests:
 * stdout and stderr to files, then read back. */
#ifndef PTXI_TEST_EVAL_RUN_H
#define PTXI_TEST_EVAL_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../read_file.h"

typedef struct ev_result {
    int rc;
    char *out, *err;
    size_t out_len;
} ev_result;

/* Results stay valid until the test process ends, then are freed (so a test
 * may keep several without freeing each, and leak checkers stay quiet). */
static char *ev_kept[256];
static int ev_nkept;
static void ev_free_kept(void) {
    while (ev_nkept) free(ev_kept[--ev_nkept]);
}
static void ev_keep(char *p) {
    if (!ev_nkept) atexit(ev_free_kept);
    if (ev_nkept < 256) ev_kept[ev_nkept++] = p;
}

/* argv: the arguments after "ptxi", NULL-terminated. */
static ev_result ptxi_run(const char *const *args) {
    static int seq;
    char outp[256], errp[256];
    snprintf(outp, sizeof outp, "/tmp/ptxi_eval_test_%d_%d.out", (int)getpid(), seq);
    snprintf(errp, sizeof errp, "/tmp/ptxi_eval_test_%d_%d.err", (int)getpid(), seq++);
    const char *argv[64] = {PTXI_BINARY_DIR "/bin/ptxi"};
    int n = 1;
    for (; args[n - 1] && n < 63; n++) argv[n] = args[n - 1];
    argv[n] = NULL;
    ev_result r = {-1, NULL, NULL, 0};
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(outp, "w", stdout) || !freopen(errp, "w", stderr)) _exit(127);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurp(outp, &r.out_len);
    r.err = slurp(errp, NULL);
    unlink(outp);
    unlink(errp);
    if (!r.out) r.out = calloc(1, 1);
    if (!r.err) r.err = calloc(1, 1);
    ev_keep(r.out);
    ev_keep(r.err);
    return r;
}

#define PTXI(...) ptxi_run((const char *const[]){__VA_ARGS__, NULL})

#endif
