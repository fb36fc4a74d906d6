/* source.c — reads a PTX file whole, for the tools that check or link PTX files
 * (`ptxi check`, ptxi-ptxas, the nvJitLink replacement). */
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"

char *fe_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap) {
            char *bigger = realloc(buf, (cap *= 2) + 1);
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (buf) buf[n] = 0;
    *len = n;
    return buf;
}
