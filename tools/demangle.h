/* demangle.h — C++ names of PTX functions (demangle.c). */
#ifndef PTXI_DEMANGLE_H
#define PTXI_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* The demangled form of a "_Z" name into buf; false when it is not one or no demangler is at hand. */
bool ptx_demangle(const char *ptx_name, char *buf, size_t len);
/* Does spec name the function: its PTX name, its demangled name, or that name without the parameters? */
bool ptx_name_matches(const char *ptx_name, const char *spec);

#endif
