/* eval_fmt.h — how `ptxi eval` prints values. The same text is compiled into
 * ptxi and pasted into the CUDA programs of --emit-cuda (EV_FMT_TEXT), so the
 * GPU's output and ptxi's compare with one diff. C and C++ alike. */
#ifndef PTXI_EVAL_FMT_H
#define PTXI_EVAL_FMT_H

#define EV_FMT_CODE(...) __VA_ARGS__
#define EV_FMT_STR(...) #__VA_ARGS__

/* bytes: 0 predicate (0/1), else the register width; kind as ev_type.kind. */
#define EV_FMT(M)                                                                                                      \
    M(                                                                                                                 \
        static __attribute__((unused)) int ev_fmt(char *buf, unsigned long long v, int bytes, char kind) {             \
            if (bytes == 0) return sprintf(buf, "%llu", v & 1);                                                        \
            if (bytes < 8) v &= (1ULL << (bytes * 8)) - 1;                                                             \
            int n = sprintf(buf, "0x%0*llx", bytes * 2, v);                                                            \
            double d = 0;                                                                                              \
            if (kind == 'f' && bytes == 4) {                                                                           \
                float f;                                                                                               \
                unsigned u = (unsigned)v;                                                                              \
                memcpy(&f, &u, 4);                                                                                     \
                d = f;                                                                                                 \
                return n + sprintf(buf + n, " (%.9g)", d);                                                             \
            }                                                                                                          \
            if (kind == 'f' && bytes == 8) {                                                                           \
                memcpy(&d, &v, 8);                                                                                     \
                return n + sprintf(buf + n, " (%.17g)", d);                                                            \
            }                                                                                                          \
            if ((kind == 'h' || kind == 'g') && bytes == 2) {                                                          \
                int e = kind == 'h' ? (int)(v >> 10 & 31) : (int)(v >> 7 & 255);                                       \
                int mb = kind == 'h' ? 10 : 7, emax = kind == 'h' ? 31 : 255;                                          \
                int bias = kind == 'h' ? 15 : 127;                                                                     \
                double m = (double)(v & ((1u << mb) - 1));                                                             \
                if (e == emax) d = m != 0 ? (double)NAN : (double)INFINITY;                                            \
                else if (e == 0) d = ldexp(m, 1 - bias - mb);                                                          \
                else d = ldexp(m + (double)(1u << mb), e - bias - mb);                                                 \
                if (v >> 15 & 1) d = -d;                                                                               \
                return n + sprintf(buf + n, " (%.9g)", d);                                                             \
            }                                                                                                          \
            if (kind == 's') {                                                                                         \
                long long s = (long long)(v << (64 - bytes * 8)) >> (64 - bytes * 8);                                  \
                return n + sprintf(buf + n, " (%lld)", s);                                                             \
            }                                                                                                          \
            return n + sprintf(buf + n, " (%llu)", v);                                                                 \
        } /* One line per output (per lane and output when lanes > 1); csv: a header, then one      \
 * row of raw values per lane. */                  \
        static __attribute__((unused)) void ev_print(FILE *f, int nout, const char *const *names, const int *bytes,    \
                                                     const char *kinds, unsigned lanes, const unsigned long long *out, \
                                                     int csv) {                                                        \
            char buf[128];                                                                                             \
            if (csv) {                                                                                                 \
                for (int i = 0; i < nout; i++) fprintf(f, "%s%s", i ? "," : "", names[i]);                             \
                fprintf(f, "\n");                                                                                      \
            }                                                                                                          \
            for (unsigned l = 0; l < lanes; l++) {                                                                     \
                for (int i = 0; i < nout; i++) {                                                                       \
                    unsigned long long v = out[(size_t)l * nout + i];                                                  \
                    if (csv) {                                                                                         \
                        if (bytes[i] == 0) sprintf(buf, "%llu", v & 1);                                                \
                        else                                                                                           \
                            sprintf(buf, "0x%0*llx", bytes[i] * 2,                                                     \
                                    bytes[i] < 8 ? v & ((1ULL << (bytes[i] * 8)) - 1) : v);                            \
                        fprintf(f, "%s%s", i ? "," : "", buf);                                                         \
                        continue;                                                                                      \
                    }                                                                                                  \
                    ev_fmt(buf, v, bytes[i], kinds[i]);                                                                \
                    if (lanes > 1) fprintf(f, "lane %u: ", l);                                                         \
                    fprintf(f, "%s = %s\n", names[i], buf);                                                            \
                }                                                                                                      \
                if (csv) fprintf(f, "\n");                                                                             \
            }                                                                                                          \
        } /* The 32-bit words of a --mem buffer that the snippet changed. */                                           \
        static __attribute__((unused)) void ev_print_mem(FILE *f, const char *name, const unsigned char *before,       \
                                                         const unsigned char *after, size_t n) {                       \
            for (size_t i = 0; i < n; i += 4) {                                                                        \
                size_t k = n - i < 4 ? n - i : 4;                                                                      \
                if (!memcmp(before + i, after + i, k)) continue;                                                       \
                unsigned w = 0;                                                                                        \
                memcpy(&w, after + i, k);                                                                              \
                fprintf(f, "[%s+%zu] = 0x%08x (%u)\n", name, i, w, w);                                                 \
            }                                                                                                          \
        })

#endif
