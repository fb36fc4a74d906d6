/* test_library.c — the shape of libcudart.so.13: its soname, every name NVIDIA's
 * library exports present under the libcudart.so.13 version node, nothing of ptxi's
 * own exported, and unimplemented entry points answering cudaErrorNotSupported. */
#include "harness.h"

static char *command_output(const char *cmd) {
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run %s", cmd);
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    size_t got;
    while ((got = fread(s + n, 1, cap - n - 1, p)) > 0)
        if ((n += got) == cap - 1) s = realloc(s, cap *= 2);
    s[n] = 0;
    pclose(p);
    return s;
}

Test(library, soname_and_version_node) {
    if (!have_library()) cr_skip_test("skipped: libcudart.so.13 was not built (no CUDA headers)");
    char *dyn = command_output("objdump -p " LIB_DIR "/libcudart.so.13");
    cr_expect(strstr(dyn, "SONAME               libcudart.so.13"), "%s", dyn);
    char *syms = command_output("objdump -T " LIB_DIR "/libcudart.so.13");
    int defined = 0;
    for (char *save, *l = strtok_r(syms, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (!strstr(l, " DF ") || strstr(l, "*UND*")) continue;
        defined++;
        cr_expect(strstr(l, "libcudart.so.13"), "exported without the version node: %s", l);
        cr_expect(!strstr(l, "ptxi_"), "ptxi's own function is exported: %s", l);
    }
    /* api_names.def lists the 422 functions of NVIDIA's libcudart.so.13 (CUDA 13.0). */
    cr_expect_geq(defined, 422);
    FILE *f = fopen(PTXI_SOURCE_DIR "/runtime/cudart/api_names.def", "r");
    cr_assert(f);
    char line[256], name[200], want[256];
    char *all = command_output("objdump -T " LIB_DIR "/libcudart.so.13");
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "X(%199[^)])", name) == 1) {
            snprintf(want, sizeof want, " libcudart.so.13 %s\n", name);
            cr_expect(strstr(all, want), "%s is not exported", name);
        }
    fclose(f);
}

Test(library, unimplemented_entry_point_says_so_once, .timeout = 300) {
    NEED_NVCC_AND_LIBRARY();
    const char *bin = build(PTXI_SOURCE_DIR "/tests/cudart/programs", "unimplemented.cu", "-arch=sm_90",
                            "unimplemented");
    run_result r = run_program(PTXI_SOURCE_DIR "/tests/cudart/programs", bin, NULL);
    cr_expect_str_eq(r.out, "cudaIpcGetMemHandle -> 801\ncudaIpcGetMemHandle -> 801\n");
    cr_expect_str_eq(r.err, "ptxi: cudaIpcGetMemHandle is not implemented\n");
    cr_expect_eq(r.rc, 0);
}

Test(library, ptxi_exec_runs_a_program, .timeout = 300) {
    NEED_NVCC_AND_LIBRARY();
    const char *bin = build(PTXI_SOURCE_DIR "/tests/cudart/programs", "vadd.cu", "-arch=sm_90", "vadd");
    char out[1100];
    snprintf(out, sizeof out, "%s.exec.out", bin);
    /* No LD_LIBRARY_PATH given: ptxi exec must find build/lib/libcudart.so.13 itself. */
    int rc = sh("env -u LD_LIBRARY_PATH ${PTXI_CHILD_PRELOAD:+LD_PRELOAD=$PTXI_CHILD_PRELOAD} " PTXI_BINARY_DIR
                "/bin/ptxi exec '%s' > '%s' 2>&1",
                bin, out);
    char *text = slurp(out, NULL);
    char *want = slurp(PTXI_SOURCE_DIR "/tests/cudart/programs/expected/vadd.stdout", NULL);
    cr_assert(want);
    cr_expect_eq(rc, 0, "%s", text);
    cr_expect_str_eq(text, want);
    rc = sh(PTXI_BINARY_DIR "/bin/ptxi exec /nonexistent/program > '%s' 2>&1", out);
    cr_expect_eq(rc, 127);
    cr_expect(strstr(slurp(out, NULL), "cannot run /nonexistent/program"), "%s", slurp(out, NULL));
}

/* By definition: the plugin's kernel stores 4242, which it then prints. */
Test(library, shared_object_opened_later_is_loaded, .timeout = 300) {
    NEED_NVCC_AND_LIBRARY();
    const char *dir = WORK_DIR "/plugin";
    cr_assert_eq(sh("mkdir -p %s && cd %s && nvcc -arch=sm_90 -cudart shared -shared -Xcompiler -fPIC -o "
                    "libplugin.so " PTXI_SOURCE_DIR "/tests/cudart/programs/plugin_lib.cu > build.log 2>&1 && "
                    "nvcc -arch=sm_90 -cudart shared -o plugin_host " PTXI_SOURCE_DIR
                    "/tests/cudart/programs/plugin_host.cu -ldl >> build.log 2>&1",
                    dir, dir),
                 0, "build failed: %s/build.log", dir);
    run_result r = run_program(dir, WORK_DIR "/plugin/plugin_host", NULL);
    cr_expect_str_eq(r.out, "host: cudaSuccess\nplugin: 4242 cudaSuccess\n");
    cr_expect_str_eq(r.err, "");
    cr_expect_eq(r.rc, 0);
}
