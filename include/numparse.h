/* numparse.h — strict number parsing for options, arguments and environment
 * variables: the whole string must be one number in range, or it is refused. */
#ifndef PTXI_NUMPARSE_H
#define PTXI_NUMPARSE_H

#include <stdbool.h>
#include <stdint.h>

/* Read by the debugger inside libcudart.so.13 from libptxi.so, which exports
 * ptxi_ names only (ptxi.map): the symbols carry the prefix. */
#define num_parse_u64 ptxi_num_parse_u64

/* Decimal, 0x hex or 0 octal, no sign, at most max. */
bool num_parse_u64(const char *s, uint64_t max, uint64_t *out);
/* Like num_parse_u64 with an optional '-', within [min, max]. */
bool num_parse_s64(const char *s, int64_t min, int64_t max, int64_t *out);
/* A finite decimal or hex floating-point number (strtod's syntax), nothing after it. */
bool num_parse_double(const char *s, double *out);
/* An environment variable holding a count or seconds: true when unset or valid
 * (*out untouched when unset); false, after "ptxi: NAME=VALUE: ..." on stderr, when not. */
bool num_env_u64(const char *name, uint64_t max, uint64_t *out);
bool num_env_seconds(const char *name, double *out);

#endif
