/* test_programs.c — CUDA programs built with `nvcc -cudart shared` and run on ptxi's
 * libcudart.so.13 must print what they printed on an H100 with NVIDIA's library: the
 * programs of tests/cudart/programs/programs.list and every ptx-samples/NAME/main.cu. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>

#include "harness.h"

typedef struct {
    char id[64];   /* the binary's name */
    char dir[512]; /* where it is built and run */
    char src[128];
    char flags[256];
    char expected[600]; /* PREFIX of PREFIX.stdout, .stderr, .rc (and .sort) */
} program;

/* Appends a zeroed entry; returns it (the list may move). */
static program *add(program **list, size_t *n, size_t *cap) {
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 32;
        program *bigger = cr_malloc(*cap * sizeof(program));
        if (*n) memcpy(bigger, *list, *n * sizeof(program));
        if (*list) cr_free(*list);
        *list = bigger;
    }
    program *p = &(*list)[(*n)++];
    memset(p, 0, sizeof *p);
    return p;
}

static void free_programs(struct criterion_test_params *p) { cr_free(p->params); }

ParameterizedTestParameters(cudart, programs) {
    program *list = NULL;
    size_t n = 0, cap = 0;
    const char *dir = PTXI_SOURCE_DIR "/tests/cudart/programs";
    FILE *f = fopen(PTXI_SOURCE_DIR "/tests/cudart/programs/programs.list", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char id[64], src[128];
        int used = 0;
        if (line[0] == '#' || sscanf(line, "%63s %127s %n", id, src, &used) < 2) continue;
        program *p = add(&list, &n, &cap);
        snprintf(p->id, sizeof p->id, "%s", id);
        snprintf(p->dir, sizeof p->dir, "%s", dir);
        snprintf(p->src, sizeof p->src, "%s", src);
        snprintf(p->flags, sizeof p->flags, "%s", line + used);
        p->flags[strcspn(p->flags, "\n")] = 0;
        snprintf(p->expected, sizeof p->expected, "%s/expected/%s", dir, id);
    }
    if (f) fclose(f);
    /* The samples: ptx-samples/NAME/main.cu, expected/prog.* recorded on the GPU. */
    DIR *d = opendir(PTXI_SOURCE_DIR "/ptx-samples");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char main_cu[1024];
        snprintf(main_cu, sizeof main_cu, PTXI_SOURCE_DIR "/ptx-samples/%s/main.cu", e->d_name);
        if (e->d_name[0] == '.' || !mtime(main_cu)) continue;
        program *p = add(&list, &n, &cap);
        snprintf(p->id, sizeof p->id, "sample-%.50s", e->d_name);
        snprintf(p->dir, sizeof p->dir, PTXI_SOURCE_DIR "/ptx-samples/%s", e->d_name);
        snprintf(p->src, sizeof p->src, "main.cu");
        snprintf(p->flags, sizeof p->flags, "-arch=sm_90");
        snprintf(p->expected, sizeof p->expected, "%s/expected/prog", p->dir);
    }
    if (d) closedir(d);
    return cr_make_param_array(program, list, n, free_programs);
}

static int cmp_lines(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* For output whose line order the GPU does not fix: the lines, sorted, rejoined. */
static char *sorted(char *text) {
    size_t n = 0, cap = 16;
    char **lines = malloc(cap * sizeof *lines);
    for (char *save, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (n == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
        lines[n++] = l;
    }
    qsort(lines, n, sizeof *lines, cmp_lines);
    size_t len = 1;
    for (size_t i = 0; i < n; i++) len += strlen(lines[i]) + 1;
    char *out = calloc(1, len);
    for (size_t i = 0; i < n; i++) strcat(strcat(out, lines[i]), "\n");
    free(lines);
    return out;
}

ParameterizedTest(program *p, cudart, programs, .timeout = 900) {
    NEED_NVCC_AND_LIBRARY();
    char path[700];
    snprintf(path, sizeof path, "%s.stdout", p->expected);
    char *want_out = slurp(path, NULL);
    snprintf(path, sizeof path, "%s.stderr", p->expected);
    char *want_err = slurp(path, NULL);
    snprintf(path, sizeof path, "%s.rc", p->expected);
    char *want_rc = slurp(path, NULL);
    if (!want_out || !want_err || !want_rc) cr_skip_test("skipped: %s has no GPU recording (%s.*)", p->id, p->expected);
    snprintf(path, sizeof path, "%s.sort", p->expected);
    bool sort = mtime(path) != 0;

    const char *bin = build(p->dir, p->src, p->flags, p->id);
    /* the GPU that recorded them was an H100 80GB: give the device its memory size */
    run_result r = run_program(p->dir, bin, "PTXI_DEVICE_MEMORY=85017493504");
    if (sort) { /* the GPU fixes the order of neither the lines printed nor the assert messages */
        r.out = sorted(r.out);
        want_out = sorted(want_out);
        r.err = sorted(r.err);
        want_err = sorted(want_err);
    }
    /* run_program left ptxi's output in BIN.stdout / BIN.stderr: diff them with the GPU's. */
    cr_expect_str_eq(r.out, want_out, "%s: stdout differs from the GPU's: diff %s.stdout %s.stdout", p->id, bin,
                     p->expected);
    cr_expect_str_eq(r.err, want_err, "%s: stderr differs from the GPU's: diff %s.stderr %s.stderr", p->id, bin,
                     p->expected);
    cr_expect_eq(r.rc, atoi(want_rc), "%s: exit status %d, the GPU's was %d", p->id, r.rc, atoi(want_rc));
}
