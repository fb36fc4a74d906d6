/* numparse.c — strict number parsing (numparse.h), shared by the command line
 * tools and the environment variables the runtime reads. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "numparse.h"

bool num_parse_u64(const char *s, uint64_t max, uint64_t *out) {
    if (!s || !isdigit((unsigned char)*s)) return false; /* no sign, no blanks */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno || v > max) return false;
    *out = v;
    return true;
}

bool num_parse_s64(const char *s, int64_t min, int64_t max, int64_t *out) {
    if (!s) return false;
    bool neg = *s == '-';
    uint64_t mag;
    uint64_t lim = neg ? (uint64_t)(-(min + 1)) + 1 : (uint64_t)max;
    if (!num_parse_u64(s + neg, lim, &mag)) return false;
    int64_t v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    if (v < min || v > max) return false;
    *out = v;
    return true;
}

bool num_parse_double(const char *s, double *out) {
    if (!s || !*s || isspace((unsigned char)*s)) return false;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (*end || end == s || !isfinite(d)) return false;
    *out = d;
    return true;
}

bool num_env_u64(const char *name, uint64_t max, uint64_t *out) {
    const char *v = getenv(name);
    if (!v || !*v) return true;
    if (num_parse_u64(v, max, out)) return true;
    fprintf(stderr, "ptxi: %s=%s: expected a whole number from 0 to %llu\n", name, v, (unsigned long long)max);
    return false;
}

bool num_env_seconds(const char *name, double *out) {
    const char *v = getenv(name);
    if (!v || !*v) return true;
    if (num_parse_double(v, out) && *out >= 0) return true;
    fprintf(stderr, "ptxi: %s=%s: expected a number of seconds\n", name, v);
    return false;
}
