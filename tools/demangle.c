/* demangle.c — C++ names of kernels, through the C++ runtime's demangler: the
 * one already loaded in a CUDA program, else libstdc++ loaded on demand. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

bool ptx_demangle(const char *ptx_name, char *buf, size_t len) {
    static char *(*demangle)(const char *, char *, size_t *, int *);
    static bool looked;
    if (strncmp(ptx_name, "_Z", 2)) return false;
    if (!looked) {
        looked = true;
        *(void **)&demangle = dlsym(RTLD_DEFAULT, "__cxa_demangle");
        if (!demangle) {
            void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
            if (h) *(void **)&demangle = dlsym(h, "__cxa_demangle"); /* kept loaded for the process */
        }
    }
    int status = -1;
    char *s = demangle ? demangle(ptx_name, NULL, NULL, &status) : NULL;
    bool ok = s && !status;
    if (ok) snprintf(buf, len, "%s", s);
    free(s);
    return ok;
}

bool ptx_name_matches(const char *ptx_name, const char *spec) {
    if (!strcmp(ptx_name, spec)) return true;
    char shown[1024];
    if (!ptx_demangle(ptx_name, shown, sizeof shown)) return false;
    size_t n = strlen(spec);
    /* "scale" names "scale(float*, int)"; "ns::scale" too */
    return !strcmp(shown, spec) || (!strncmp(shown, spec, n) && shown[n] == '(');
}
