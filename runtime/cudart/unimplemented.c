/* unimplemented.c — a weak definition for every function the NVIDIA libcudart.so.13
 * exports (api_names.def): one that ptxi does not implement says so once on stderr and
 * returns cudaErrorNotSupported; the implemented ones are strong and take precedence. */
#include <stdio.h>

/* Not cudart_internal.h: the toolkit's prototypes would clash with the generic ones below. */
void cr_warn_once(const char *what);
enum { NOT_SUPPORTED = 801 }; /* cudaErrorNotSupported */

static int not_implemented(const char *name) {
    char what[160];
    snprintf(what, sizeof what, "%s is not implemented", name);
    cr_warn_once(what);
    return NOT_SUPPORTED;
}

/* Declared without parameters: the caller's arguments are ignored, and every such entry
 * point returns cudaError_t (an int) in the register an int comes back in. */
#define X(name)                                              \
    __attribute__((weak, visibility("default"))) int name(); \
    __attribute__((weak, visibility("default"))) int name() { return not_implemented(#name); }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wbuiltin-declaration-mismatch"
#include "api_names.def"
#pragma GCC diagnostic pop
#undef X
