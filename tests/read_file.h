/* read_file.h — shared by the tests: a whole file into memory. */
#ifndef PTXI_TEST_READ_FILE_H
#define PTXI_TEST_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of path, NUL-terminated (any file, pipes too), their count in
 * *len when len is not NULL; NULL when it cannot be opened. */
static inline char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0, got;
    char *p = malloc(cap + 1);
    while ((got = fread(p + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) p = realloc(p, (cap *= 2) + 1);
    }
    fclose(f);
    p[n] = 0;
    if (len) *len = n;
    return p;
}

#endif
