/* test_printf.c — the device printf FIFO: formatting of every specifier, flag,
 * width, precision and size; return values; FIFO overflow; thread safety.
 * Expected strings are the H100's output (gpu/jobs/rt_defaults/recorded/
 * formats.txt, same line letters) or, where noted, the C standard's. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "printf_fifo.h"

/* "Device memory": an arena whose addresses are host addresses, minus an
 * unreadable window [bad_lo, bad_hi). dev() copies data into it. */
static _Alignas(64) unsigned char mem[1 << 16];
static size_t mem_top;
static uintptr_t bad_lo, bad_hi;
static int rd(void *ctx, uint64_t a, void *dst, size_t n) {
    (void)ctx;
    uintptr_t lo = (uintptr_t)mem, hi = lo + sizeof mem;
    if (a < lo || a + n > hi || (a + n > bad_lo && a < bad_hi)) return 0;
    memcpy(dst, (const void *)(uintptr_t)a, n);
    return 1;
}
static uint64_t dev(const void *src, size_t n) {
    mem_top = (mem_top + 15) & ~(size_t)15;
    cr_assert(mem_top + n <= sizeof mem);
    memcpy(mem + mem_top, src, n);
    mem_top += n;
    return (uint64_t)(uintptr_t)(mem + mem_top - n);
}
static uint64_t dev_str(const char *s) { return dev(s, strlen(s) + 1); }

/* Packs arguments as the device's vprintf buffer holds them: natural alignment.
 * sig: i int, l long long, d double, p/s pointer. */
typedef struct {
    _Alignas(8) unsigned char b[512];
    size_t off;
} pack;
static void put(pack *p, const void *v, size_t n) {
    p->off = (p->off + n - 1) & ~(n - 1);
    memcpy(p->b + p->off, v, n);
    p->off += n;
}
static void vpack(pack *p, const char *sig, va_list ap) {
    memset(p, 0, sizeof *p);
    for (; *sig; sig++) {
        if (*sig == 'i') {
            int v = va_arg(ap, int);
            put(p, &v, 4);
        } else if (*sig == 'l') {
            long long v = va_arg(ap, long long);
            put(p, &v, 8);
        } else if (*sig == 'd') {
            double v = va_arg(ap, double);
            put(p, &v, 8);
        } else if (*sig == 's') {
            const char *v = va_arg(ap, const char *);
            uint64_t a = v ? dev_str(v) : 0;
            put(p, &a, 8);
        } else {
            void *v = va_arg(ap, void *);
            put(p, &v, 8);
        }
    }
}

static char *flush_str(rt_fifo *f) {
    char *s = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&s, &n);
    rt_fifo_flush(f, m);
    fclose(m);
    return s;
}

/* Pushes one printf into a fresh FIFO, flushes, checks output and return value. */
static void check(const char *want, int want_ret, const char *fmt, const char *sig, ...) {
    static pack p;
    va_list ap;
    mem_top = 0;
    va_start(ap, sig);
    vpack(&p, sig, ap);
    va_end(ap);
    uint64_t args = dev(p.b, sizeof p.b), dfmt = dev_str(fmt);
    rt_fifo *f = rt_fifo_create(1 << 20);
    int r = rt_fifo_push(f, dfmt, args, rd, NULL);
    char *got = flush_str(f);
    cr_expect_eq(r, want_ret, "%s: returned %d, want %d", fmt, r, want_ret);
    cr_expect_str_eq(got, want, "%s", fmt);
    free(got);
    rt_fifo_destroy(f);
}

Test(printf, pointers_and_null_strings) {
    check("A|(nil)|0x1234|0xffffffffffffffff|\n", 3, "A|%p|%p|%p|\n", "ppp", NULL, (void *)0x1234, (void *)-1);
    check("B|(null)|       abc|abc       |ab|    a|\n", 5, "B|%s|%10s|%-10s|%.2s|%5.1s|\n", "sssss", NULL, "abc", "abc",
          "abc", "abc");
    check("U|1 two 3.000000 4 0x5|\n", 5, "U|%d %s %f %c %p|\n", "isdip", 1, "two", 3.0, '4', (void *)5);
    check("V|     ||abc   ||\n", 4, "V|%5s|%.0s|%-6.3s|%s|\n", "ssss", "", "abc", "abcdef", "");
    check("d|multi\nline|3|\n", 2, "d|%s|%d|\n", "si", "multi\nline", 3);
}

Test(printf, integer_flags) {
    check("E|010|0xff|0XFF|+5| 5|00042|42   |-0042|\n", 8, "E|%#o|%#x|%#X|%+d|% d|%05d|%-5d|%+05d|\n", "iiiiiiii", 8,
          255, 255, 5, 5, 42, 42, -42);
    check("M|-3|4294967293|100|ffffffff|ABC|ffffffffffffffff|18446744073709551615|\n", 7,
          "M|%i|%u|%o|%x|%X|%lx|%llu|\n", "iiiiill", -3, -3, 64, -1, 0xabc, -1LL, -1LL);
    check("X|0|0|0x001|1.000000e+00|0x0.p+0|\n", 5, "X|%#x|%#o|%#.3x|%#e|%#a|\n", "iiidd", 0, 0, 1, 1.0, 0.0);
    check("Z|007||    -007|00a     |+007||\n", 6, "Z|%.3d|%.0d|%8.3d|%-8.3x|%+.3i|%.0x|\n", "iiiiii", 7, 0, -7, 10, 7,
          0);
}

Test(printf, sizes) {
    check("T|1099511627776|18446744073709551615|-4611686018427387904|2345|", 4, "T|%ld|%lu|%lld|%hx|", "llli",
          1LL << 40, -1LL, -(1LL << 62), 0x12345);
    /* hh with u/x/o: the H100 prints bytes of the format string there (a
     * driver bug, formats.txt lines D, T, a); these follow the C standard. */
    check("D|44|4464|-1|-1|-1|255|65535|\n", 7, "D|%hhd|%hd|%d|%ld|%lld|%hhu|%hu|\n", "iiillii", 300, 70000, -1, -1LL,
          -1LL, -1, -1);
    check("a|32767|1|-127|1|ffff|377|\n", 6, "a|%hd|%hu|%hhd|%hhu|%hx|%hho|\n", "iiiiii", -32769, 65537, 129, 257, -1,
          511);
    check("T2|ff|10|\n", 2, "T2|%hhx|%lo|\n", "il", 0x1ff, 8LL);
    /* A size that does not match the argument reads the buffer as the size says. */
    check("K|0|1073217536|\n", 2, "K|%hd|%d|\n", "di", 1.5, 7);
    /* z is not one of CUDA's sizes: printed as written, nothing consumed. */
    check("L|%zu|%zd|%zx|\n", 0, "L|%zu|%zd|%zx|\n", "lll", 5LL, -3LL, 255LL);
}

Test(printf, widths_and_precisions) {
    /* '*' width works; ".*" precision is not CUDA's: printed as written. */
    check("F|   42|42   |%.*f|%*.*e|\n", 4, "F|%*d|%-*d|%.*f|%*.*e|\n", "iiiiidiid", 5, 42, 5, 42, 2, 3.14159, 12, 3,
          2.5);
    check("Y|-003.142|3.142e+01|+0.00031| 3.1E+05|-00007|\n", 6, "Y|%08.3f|%-8.3e|%+8.2g|% 8.2G|%0*d|\n", "ddddii",
          -3.14159, 31.4159, 0.000314159, 314159.0, 6, -7);
    check("N|1e+04|1.00000|3.142   |+1.230e-04|2.|0.3333333333| 2.50|\n", 7,
          "N|%.0e|%#g|%-08.3f|%+.3e|%#.0f|%.10g|% .2f|\n", "ddddddd", 12345.0, 1.0, 3.14159, 0.000123, 2.0, 1.0 / 3,
          2.5);
    /* C standard: a negative '*' width means '-' and its magnitude. */
    check("42   |\n", 2, "%*d|\n", "ii", -5, 42);
    /* Widths beyond six digits are printed as written (a bound of ptxi's). */
    check("%1234567d|\n", 0, "%1234567d|\n", "i", 1);
}

Test(printf, floats) {
    check("G|1.234500e+03|1.234500E+03|0.0001234|1E+20|0x1p+0|-0X1P-1|1.500000|2.000000|\n", 8,
          "G|%e|%E|%g|%G|%a|%A|%F|%f|\n", "dddddddd", 1234.5, 1234.5, 0.0001234, 1e20, 1.0, -0.5, 1.5, 2.0);
    check("J|inf|-inf|nan|-nan|NAN|\n", 5, "J|%f|%f|%e|%g|%F|\n", "ddddd", (double)INFINITY, (double)-INFINITY,
          (double)NAN, (double)-NAN, (double)NAN);
    check("W|1.500000|0.000010|1.000000e+05|1e-05|\n", 4, "W|%lf|%lf|%le|%lg|\n", "dddd", 1.5, 1e-5, 1e5, 1e-5);
    check("b|0x1.8p+1|0X1.999999999999AP-4|0x1.55p-2|0x0.012688b70e62bp-1022|-0x0p+0|\n", 5, "b|%a|%A|%.2a|%a|%a|\n",
          "ddddd", 3.0, 0.1, 1.0 / 3, 1e-310, -0.0);
    check("c|100000|1e+06|0.0001|1e-05|0|1.23457e+08|\n", 6, "c|%g|%g|%g|%g|%g|%g|\n", "dddddd", 100000.0, 1000000.0,
          1e-4, 1e-5, 0.0, 123456789.0);
    check("e|1.250000|113|\n", 2, "e|%f|%d|\n", "di", (double)1.25f, 'q');
}

Test(printf, chars_percent_unknown) {
    check("H|abc|    x|y  |\n", 5, "H|%c%c%c|%5c|%-3c|\n", "iiiii", 'a', 'b', 'c', 'x', 'y');
    check("I|%|%|7%\n", 1, "I|%%|%5%|%d%%\n", "i", 7);
    check("S|%y|%k|1|\n", 1, "S|%y|%k|%d|\n", "iii", 1, 2, 3);
    check("O|no args\n", 0, "O|no args\n", "");
    check("end%", 0, "end%", "");
}

Test(printf, at_most_32_arguments) {
    const char *f33 = "P|%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d"
                      " %d %d %d %d %d|\n";
    /* The guide: conversions beyond 32 arguments are output as-is. */
    check("P|1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 %d|\n", 32, f33,
          "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
          21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33);
}

Test(printf, null_format_and_faults) {
    rt_fifo *f = rt_fifo_create(4096);
    uint64_t fmt = dev_str("bad|%s|%d\n"), args = dev((uint64_t[]){0x10, 5}, 16);
    cr_expect_eq(rt_fifo_push(f, 0, 0, rd, NULL), RT_FIFO_NULL_FORMAT);
    cr_expect_eq(RT_FIFO_NULL_FORMAT, -1);
    /* An unreadable %s string or format faults, as on the GPU (badstr_0x10.txt). */
    cr_expect_eq(rt_fifo_push(f, fmt, args, rd, NULL), RT_FIFO_FAULT);
    cr_expect_eq(rt_fifo_push(f, 0x20, 0, rd, NULL), RT_FIFO_FAULT);
    char *got = flush_str(f);
    cr_expect_str_eq(got, "");
    free(got);
    rt_fifo_destroy(f);
}

Test(printf, strings_near_unreadable_memory) {
    unsigned char *page = mem + 1024; /* 64-byte aligned */
    bad_lo = (uintptr_t)(page + 10);
    bad_hi = (uintptr_t)(page + 128);
    memcpy(page - 5, "yyyyyxxxxxxabc", 15); /* the NUL is the last readable byte */
    uint64_t fmt = dev_str("[%s]\n"), ok = (uintptr_t)(page + 6), runs = (uintptr_t)(page - 5);
    rt_fifo *f = rt_fifo_create(4096);
    cr_expect_eq(rt_fifo_push(f, fmt, dev(&ok, 8), rd, NULL), 1);
    cr_expect_eq(rt_fifo_push(f, fmt, dev(&runs, 8), rd, NULL), 1);
    page[9] = 'z'; /* now the string runs into the bad bytes */
    cr_expect_eq(rt_fifo_push(f, fmt, dev(&ok, 8), rd, NULL), RT_FIFO_FAULT);
    char *got = flush_str(f);
    cr_expect_str_eq(got, "[abc]\n[yyyyyxxxxxxabc]\n");
    free(got);
    rt_fifo_destroy(f);
    bad_lo = bad_hi = 0;
}

Test(printf, strings_copied_at_the_call) {
    /* strlate.txt: a kernel that changes the string after printf prints the old one. */
    uint64_t late = dev_str("before"), fmt = dev_str("late|%s|\n");
    rt_fifo *f = rt_fifo_create(4096);
    rt_fifo_push(f, fmt, dev(&late, 8), rd, NULL);
    *(char *)(uintptr_t)late = 'B';
    char *got = flush_str(f);
    cr_expect_str_eq(got, "late|before|\n");
    free(got);
    rt_fifo_destroy(f);
}

/* Record layout (printf_fifo.c): 16-byte header, 8 bytes per argument, the
 * format with its NUL, padded to 8. "rec %d\n" + one int = 16+8+8 = 32 bytes. */
Test(printf, full_fifo_keeps_the_newest) {
    uint64_t fmt = dev_str("rec %d\n");
    rt_fifo *f = rt_fifo_create(256);
    for (int i = 0; i < 100; i++) cr_assert_eq(rt_fifo_push(f, fmt, dev(&i, 4), rd, NULL), 1);
    char *got = flush_str(f);
    cr_expect_str_eq(got, "rec 92\nrec 93\nrec 94\nrec 95\nrec 96\nrec 97\nrec 98\nrec 99\n");
    cr_expect_eq(rt_fifo_lost(f), 92);
    free(got);
    /* The flush empties it; a record bigger than the FIFO is dropped. */
    got = flush_str(f);
    cr_expect_str_eq(got, "");
    free(got);
    char big[300];
    memset(big, 'x', sizeof big - 1);
    big[299] = 0;
    cr_expect_eq(rt_fifo_push(f, dev_str(big), 0, rd, NULL), 0);
    got = flush_str(f);
    cr_expect_str_eq(got, "");
    cr_expect_eq(rt_fifo_lost(f), 93);
    free(got);
    rt_fifo_destroy(f);
}

Test(printf, resize_keeps_newest_records) {
    uint64_t fmt = dev_str("rec %d\n");
    rt_fifo *f = rt_fifo_create(4096);
    for (int i = 0; i < 4; i++) rt_fifo_push(f, fmt, dev(&i, 4), rd, NULL);
    cr_assert_eq(rt_fifo_resize(f, 64), 0);
    cr_expect_eq(rt_fifo_capacity(f), 64);
    char *got = flush_str(f);
    cr_expect_str_eq(got, "rec 2\nrec 3\n");
    free(got);
    rt_fifo_destroy(f);
}

/* 8 threads push 2000 records each through a FIFO that wraps many times. */
static rt_fifo *shared_fifo;
static uint64_t shared_fmt, shared_str;
struct targs {
    int t, n;
    uint64_t s;
};
static void *pusher(void *arg) {
    struct targs *a = arg;
    for (a->n = 0; a->n < 2000; a->n++) rt_fifo_push(shared_fifo, shared_fmt, (uintptr_t)a, rd, NULL);
    return NULL;
}

Test(printf, eight_threads) {
    shared_fifo = rt_fifo_create(1 << 20);
    shared_fmt = dev_str("t%d n%d %s\n");
    shared_str = dev_str("str");
    pthread_t th[8];
    for (int i = 0; i < 8; i++) {
        struct targs a = {i, 0, shared_str};
        pthread_create(&th[i], NULL, pusher, (void *)(uintptr_t)dev(&a, sizeof a));
    }
    for (int i = 0; i < 8; i++) pthread_join(th[i], NULL);
    char *got = flush_str(shared_fifo);
    int next[8] = {0}, lines = 0, t, n;
    for (char *line = strtok(got, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        cr_assert_eq(sscanf(line, "t%d n%d str", &t, &n), 2, "%s", line);
        cr_assert(t >= 0 && t < 8 && n == next[t], "%s", line);
        next[t]++;
    }
    cr_expect_eq(lines, 16000);
    cr_expect_eq(rt_fifo_lost(shared_fifo), 0);
    free(got);
    rt_fifo_destroy(shared_fifo);
}
