/* printf_fifo.c — the device printf FIFO. A record (format copy, argument
 * values, %s string copies) is written at the vprintf call; rt_fifo_flush
 * formats records one conversion at a time with the host snprintf, always
 * with a format rebuilt from parsed, whitelisted pieces and an argument of the
 * matching C type. Behaviour follows an H100 with CUDA 13
 * (gpu/jobs/rt_defaults/recorded/formats.txt, fifo_*.txt, badstr_*.txt). */
#define _GNU_SOURCE /* strchrnul, stpcpy */
#include "printf_fifo.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 32     /* the guide: at most 32 arguments; later conversions print as-is */
#define MAX_DIGITS 6    /* longer widths/precisions print as-is, bounding one conversion's output */
#define MAX_STAR 999999 /* '*' widths are clamped to the same bound */

/* ---- conversion specifications ---------------------------------------- */

typedef enum { K_VERBATIM, K_PERCENT, K_INT, K_UINT, K_CHAR, K_FLOAT, K_PTR, K_STR } kind;
typedef enum { SZ_NONE, SZ_H, SZ_HH, SZ_L, SZ_LL } size_mod;

typedef struct spec {
    size_t len;      /* bytes of text from '%' through the conversion character */
    char flags[6];   /* the distinct flags among "-+ #0" */
    bool star;       /* width is '*' */
    int width, prec; /* prec < 0: none */
    size_mod size;
    char conv;
    kind kind;
} spec;

static kind kind_of(char c) {
    if (!c) return K_VERBATIM;
    if (strchr("di", c)) return K_INT;
    if (strchr("ouxX", c)) return K_UINT;
    if (strchr("eEfFgGaA", c)) return K_FLOAT;
    switch (c) {
    case 'c': return K_CHAR;
    case 'p': return K_PTR;
    case 's': return K_STR;
    case '%': return K_PERCENT;
    }
    return K_VERBATIM;
}

/* Reads a run of digits; false when it is longer than MAX_DIGITS. */
static bool digits(const char **q, int *out) {
    int n = 0, v = 0;
    while (**q >= '0' && **q <= '9') {
        v = v * 10 + (*(*q)++ - '0');
        if (++n > MAX_DIGITS) return false;
    }
    *out = v;
    return true;
}

/* Parses the specification starting at p ('%'). CUDA's printf accepts only
 * %[flags][width][.precision][size]type with width '*'/digits, precision
 * digits and size h, hh, l, ll; anything else ("%.*f", "%zu", "%y") is
 * printed as written and consumes no argument, as the GPU does. */
static void parse_spec(const char *p, spec *s) {
    const char *q = p + 1;
    int nf = 0, nh = 0, nl = 0;
    bool ok = true;
    memset(s, 0, sizeof *s);
    s->prec = -1;
    for (; *q && strchr("-+ #0", *q); q++)
        if (!memchr(s->flags, *q, (size_t)nf)) s->flags[nf++] = *q;
    if (*q == '*') {
        s->star = true;
        q++;
    } else {
        ok &= digits(&q, &s->width);
    }
    if (*q == '.') {
        q++;
        ok &= *q != '*';
        if (*q == '*') q++;
        ok &= digits(&q, &s->prec);
    }
    for (; *q && strchr("hlLzjtq", *q); q++) {
        nh += *q == 'h';
        nl += *q == 'l';
        ok &= *q == 'h' || *q == 'l';
    }
    ok &= nh <= 2 && nl <= 2 && !(nh && nl);
    s->size = nh == 2 ? SZ_HH : nh ? SZ_H : nl == 2 ? SZ_LL : nl ? SZ_L : SZ_NONE;
    s->conv = *q;
    s->len = (size_t)(q - p) + (*q != 0);
    s->kind = ok ? kind_of(*q) : K_VERBATIM;
}

/* Arguments the specification takes when `used` are already taken (0: it is
 * printed as written, or is "%%"). Push and flush both decide through here. */
static int spec_takes(const spec *s, int used) {
    if (s->kind == K_VERBATIM || s->kind == K_PERCENT) return 0;
    int n = 1 + s->star;
    return used + n <= MAX_ARGS ? n : 0;
}

/* Bytes the value occupies in the argument buffer (= its alignment). */
static size_t arg_bytes(const spec *s) {
    bool wide = s->size == SZ_L || s->size == SZ_LL;
    return (s->kind == K_INT || s->kind == K_UINT || s->kind == K_CHAR) && !wide ? 4 : 8;
}

/* ---- growable byte buffers --------------------------------------------- */

typedef struct buf {
    char *p;
    size_t n, cap;
    bool oom;
} buf;

static void buf_put(buf *b, const void *src, size_t n) {
    if (b->oom) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

/* Appends the NUL-terminated device string at addr, NUL included, read byte
 * by byte: a wider read would touch the bytes after the NUL, which other
 * threads of the grid may be writing meanwhile. Bytes beyond `limit` are
 * checked but not kept. False when the string runs into unreadable memory. */
static bool read_cstr(rt_read_fn read, void *rc, uint64_t addr, buf *b, size_t limit) {
    char chunk[64];
    size_t kept = 0, n = 0;
    for (;; addr++) {
        if (!read(rc, addr, &chunk[n], 1)) return false;
        bool end = !chunk[n++];
        if (end || n == sizeof chunk) {
            size_t keep = kept >= limit ? 0 : n < limit - kept ? n : limit - kept;
            buf_put(b, chunk, keep);
            kept += keep;
            if (end) return true;
            n = 0;
        }
    }
}

/* ---- the ring of records -------------------------------------------------- */

/* A record: header, nslots 8-byte argument values, the format with its NUL,
 * the %s strings (each with its NUL, in order, for non-NULL pointers), padding
 * to 8 bytes. */
typedef struct rec_hdr {
    uint32_t size, nslots, fmt_bytes, str_bytes;
} rec_hdr;

struct rt_fifo {
    pthread_mutex_t lock;
    unsigned char *ring;
    size_t cap, head, used; /* oldest record at head; `used` bytes follow it */
    uint64_t lost;
};

static void count_lost(rt_fifo *f) { __atomic_add_fetch(&f->lost, 1, __ATOMIC_RELAXED); }

static void ring_in(rt_fifo *f, size_t pos, const void *src, size_t n) {
    if (!n) return;
    size_t first = n < f->cap - pos ? n : f->cap - pos;
    memcpy(f->ring + pos, src, first);
    memcpy(f->ring, (const char *)src + first, n - first);
}

static void ring_out(const rt_fifo *f, size_t pos, void *dst, size_t n) {
    size_t first = n < f->cap - pos ? n : f->cap - pos;
    memcpy(dst, f->ring + pos, first);
    memcpy((char *)dst + first, f->ring, n - first);
}

static void ring_drop_front(rt_fifo *f) {
    rec_hdr h;
    ring_out(f, f->head, &h, sizeof h);
    uint32_t size = h.size;
    f->head = (f->head + size) % f->cap;
    f->used -= size;
}

/* Appends one record of `size` bytes (a multiple of 8, at most the capacity)
 * given as pieces. When the FIFO is full, the OLDEST records are evicted until
 * the new one fits: the CUDA guide documents the buffer as circular with old
 * output overwritten, and on an H100 a kernel printing 5000 records into a
 * 512 KiB FIFO shows the newest ones (plus a few stale older records the GPU
 * happens to leave intact, which is not reproduced). Evictions count in
 * rt_fifo_lost. */
static void ring_push(rt_fifo *f, size_t size, const void *const *piece, const size_t *len, int npieces) {
    pthread_mutex_lock(&f->lock);
    if (size > f->cap) { /* the FIFO shrank since the caller looked */
        count_lost(f);
        pthread_mutex_unlock(&f->lock);
        return;
    }
    while (f->cap - f->used < size) {
        ring_drop_front(f);
        count_lost(f);
    }
    size_t pos = (f->head + f->used) % f->cap;
    for (int i = 0; i < npieces; i++) {
        ring_in(f, pos, piece[i], len[i]);
        pos = (pos + len[i]) % f->cap;
    }
    f->used += size;
    pthread_mutex_unlock(&f->lock);
}

rt_fifo *rt_fifo_create(size_t bytes) {
    rt_fifo *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->cap = bytes < 64 ? 64 : bytes;
    f->ring = malloc(f->cap);
    if (!f->ring) {
        free(f);
        return NULL;
    }
    pthread_mutex_init(&f->lock, NULL);
    return f;
}

void rt_fifo_destroy(rt_fifo *f) {
    if (!f) return;
    pthread_mutex_destroy(&f->lock);
    free(f->ring);
    free(f);
}

/* Read without the lock by pushes (another host thread may resize meanwhile:
 * ring_push checks again under the lock). */
size_t rt_fifo_capacity(const rt_fifo *f) { return __atomic_load_n(&f->cap, __ATOMIC_RELAXED); }

uint64_t rt_fifo_lost(const rt_fifo *f) { return __atomic_load_n(&f->lost, __ATOMIC_RELAXED); }

int rt_fifo_resize(rt_fifo *f, size_t bytes) {
    bytes = bytes < 64 ? 64 : bytes;
    unsigned char *ring = malloc(bytes);
    if (!ring) return -1;
    pthread_mutex_lock(&f->lock);
    while (f->used > bytes) {
        ring_drop_front(f);
        count_lost(f);
    }
    ring_out(f, f->head, ring, f->used);
    free(f->ring);
    f->ring = ring;
    __atomic_store_n(&f->cap, bytes, __ATOMIC_RELAXED);
    f->head = 0;
    pthread_mutex_unlock(&f->lock);
    return 0;
}

/* ---- the device call ------------------------------------------------------ */

/* The next argument of `bytes` bytes at its natural alignment; 0 where the
 * buffer cannot be read (the GPU would print whatever lies there). */
static uint64_t take_arg(rt_read_fn read, void *rc, uint64_t args, size_t *off, size_t bytes) {
    uint64_t v = 0;
    *off = (*off + bytes - 1) & ~(bytes - 1);
    if (args && !read(rc, args + *off, &v, bytes)) v = 0;
    *off += bytes;
    return v;
}

int rt_fifo_push(rt_fifo *f, uint64_t fmt, uint64_t args, rt_read_fn read, void *read_ctx) {
    if (!fmt) return RT_FIFO_NULL_FORMAT;
    buf fb = {0}, sb = {0};
    uint64_t slot[MAX_ARGS];
    int used = 0, ret = RT_FIFO_FAULT;
    size_t off = 0, cap = rt_fifo_capacity(f);
    if (!read_cstr(read, read_ctx, fmt, &fb, SIZE_MAX) || fb.oom) goto out;
    for (const char *p = fb.p; *p;) {
        if (*p != '%') {
            p++;
            continue;
        }
        spec s;
        parse_spec(p, &s);
        p += s.len;
        if (!spec_takes(&s, used)) continue;
        if (s.star) slot[used++] = take_arg(read, read_ctx, args, &off, 4);
        uint64_t v = slot[used++] = take_arg(read, read_ctx, args, &off, arg_bytes(&s));
        if (s.kind == K_STR && v && !read_cstr(read, read_ctx, v, &sb, cap)) goto out;
    }
    ret = used;
    size_t len[] = {sizeof(rec_hdr), sizeof(uint64_t) * (size_t)used, fb.n, sb.n};
    size_t size = (len[0] + len[1] + len[2] + len[3] + 7) & ~(size_t)7;
    if (sb.oom || size > cap) { /* a record larger than the whole FIFO is dropped */
        count_lost(f);
        goto out;
    }
    rec_hdr h = {(uint32_t)size, (uint32_t)used, (uint32_t)fb.n, (uint32_t)sb.n};
    const void *piece[] = {&h, slot, fb.p, sb.p};
    ring_push(f, size, piece, len, 4);
out:
    free(fb.p);
    free(sb.p);
    return ret;
}

/* ---- formatting at the flush -------------------------------------------- */

/* snprintf into a small buffer, or a heap one when the text is longer. */
#define EMIT(out, ...)                                         \
    do {                                                       \
        char small_[256];                                      \
        int n_ = snprintf(small_, sizeof small_, __VA_ARGS__); \
        if (n_ >= 0 && (size_t)n_ < sizeof small_) {           \
            fwrite(small_, 1, (size_t)n_, out);                \
        } else if (n_ >= 0) {                                  \
            char *big_ = malloc((size_t)n_ + 1);               \
            if (big_) {                                        \
                snprintf(big_, (size_t)n_ + 1, __VA_ARGS__);   \
                fwrite(big_, 1, (size_t)n_, out);              \
                free(big_);                                    \
            }                                                  \
        }                                                      \
    } while (0)

/* With and without a precision argument; the width is always passed. */
#define EMIT_PREC(out, f, s, w, v)                         \
    do {                                                   \
        if ((s)->prec >= 0) EMIT(out, f, w, (s)->prec, v); \
        else EMIT(out, f, w, v);                           \
    } while (0)

/* Formats one conversion. The host format is rebuilt from the parsed flags,
 * '*' for the width, ".*" for a precision, a length that matches the C type
 * passed, and the conversion character, so no device text reaches snprintf. */
static void emit_conv(FILE *out, const spec *s, int width, uint64_t v, const char **strs) {
    char f[24], *q = f;
    bool prec = s->prec >= 0 && s->kind != K_CHAR && s->kind != K_PTR;
    *q++ = '%';
    q = stpcpy(q, s->flags);
    q = stpcpy(q, prec ? "*.*" : "*");
    if (s->kind == K_INT || s->kind == K_UINT) q = stpcpy(q, "ll");
    *q++ = s->conv;
    *q = 0;
    spec t = *s;
    t.prec = prec ? s->prec : -1;
    switch (s->kind) {
    case K_INT: {
        long long x = s->size == SZ_HH     ? (signed char)v
                      : s->size == SZ_H    ? (short)v
                      : s->size == SZ_NONE ? (int)(uint32_t)v
                                           : (long long)v;
        EMIT_PREC(out, f, &t, width, x);
        break;
    }
    case K_UINT: {
        unsigned long long x = s->size == SZ_HH     ? (unsigned char)v
                               : s->size == SZ_H    ? (unsigned short)v
                               : s->size == SZ_NONE ? (uint32_t)v
                                                    : v;
        EMIT_PREC(out, f, &t, width, x);
        break;
    }
    case K_CHAR: EMIT(out, f, width, (int)(unsigned char)v); break;
    case K_FLOAT: {
        double d;
        memcpy(&d, &v, sizeof d);
        EMIT_PREC(out, f, &t, width, d);
        break;
    }
    case K_PTR: EMIT(out, f, width, (void *)(uintptr_t)v); break;
    case K_STR: {
        /* A NULL pointer prints as glibc prints it (the GPU's host side is
         * glibc: "(null)"), which is nothing when the precision cuts it short. */
        const char *str = v ? *strs : (t.prec < 0 || t.prec >= 6 ? "(null)" : "");
        if (v) *strs += strlen(*strs) + 1;
        EMIT_PREC(out, f, &t, width, str);
        break;
    }
    default: break;
    }
}

static void format_record(FILE *out, const char *rec) {
    rec_hdr h;
    memcpy(&h, rec, sizeof h);
    const char *slots = rec + sizeof h;
    const char *fmt = slots + sizeof(uint64_t) * h.nslots;
    const char *strs = fmt + h.fmt_bytes;
    int used = 0;
    for (const char *p = fmt; *p;) {
        const char *lit = strchrnul(p, '%');
        fwrite(p, 1, (size_t)(lit - p), out);
        if (!*(p = lit)) break;
        spec s;
        parse_spec(p, &s);
        int n = spec_takes(&s, used);
        if (s.kind == K_PERCENT) fputc('%', out);
        else if (!n) fwrite(p, 1, s.len, out);
        p += s.len;
        if (!n) continue;
        uint64_t a[2];
        memcpy(a, slots + sizeof(uint64_t) * (size_t)used, sizeof(uint64_t) * (size_t)n);
        used += n;
        int width = s.star ? (int)(uint32_t)a[0] : s.width;
        width = width > MAX_STAR ? MAX_STAR : width < -MAX_STAR ? -MAX_STAR : width;
        emit_conv(out, &s, width, a[n - 1], &strs);
    }
}

void rt_fifo_flush(rt_fifo *f, FILE *out) {
    buf rec = {0};
    pthread_mutex_lock(&f->lock);
    while (f->used) {
        rec_hdr h;
        ring_out(f, f->head, &h, sizeof h);
        rec.n = 0;
        if (h.size > rec.cap) {
            char *p = realloc(rec.p, h.size);
            if (!p) break;
            rec.p = p;
            rec.cap = h.size;
        }
        ring_out(f, f->head, rec.p, h.size);
        ring_drop_front(f);
        if (out) format_record(out, rec.p);
    }
    while (f->used) /* only when out of memory above */
        ring_drop_front(f), count_lost(f);
    pthread_mutex_unlock(&f->lock);
    if (out) fflush(out);
    free(rec.p);
}
