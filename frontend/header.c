/* header.c — the module header as ptxas enforces it: `.version`, then
 * `.target`, then an optional `.address_size`, each once and before anything
 * else; a PTX ISA version ptxi knows; targets that version defines. */
#include <stdio.h>
#include <string.h>

#include "fe.h"

/* Header states, in the order the directives must come. */
enum { HDR_NONE, HDR_VERSION, HDR_TARGET, HDR_ADDRESS_SIZE, HDR_BODY };

/* The PTX ISA versions ptxi accepts: those ptxas 13.0 accepts (it also takes
 * 5.1, which no ISA document describes) and 9.1 to 9.5, the ISA of CUDA 13.1
 * to 13.5, whose nvcc, NVRTC and Triton emit them. 9.5 is the newest ISA
 * published; ptxi runs what those versions emit for the targets it models.
 * Index: major version; value: the highest minor of that major. */
static const int8_t newest_minor[] = {-1, 5, 3, 2, 3, 1, 5, 8, 8, 5};

/* The first PTX ISA version that defines each architecture (the ISA's
 * ".target" table, checked against ptxas 13.0 for sm_75 and later). */
static const struct {
    uint16_t sm;
    uint8_t ver;
} target_min[] = {
    {10, 10}, {11, 10}, {12, 12}, {13, 12}, {20, 20},  {30, 30},  {32, 40},  {35, 31},  {37, 41},  {50, 40},
    {52, 41}, {53, 42}, {60, 50}, {61, 50}, {62, 50},  {70, 60},  {72, 61},  {75, 63},  {80, 70},  {86, 71},
    {87, 74}, {88, 73}, {89, 78}, {90, 78}, {100, 86}, {101, 86}, {103, 88}, {110, 90}, {120, 87}, {121, 88},
};

/* Something other than a header directive at module level: the header must be complete. */
static void header_done(fe_parser *p, ir_loc loc) {
    if (p->hdr == HDR_NONE) fe_error(p, loc, "missing .version directive at start of file");
    else if (p->hdr == HDR_VERSION) fe_error(p, loc, "missing .target directive after .version");
    p->hdr = HDR_BODY;
}

void fe_top_item(fe_parser *p, ir_loc loc) {
    if (p->hdr != HDR_BODY) header_done(p, loc);
}

void fe_header_end(fe_parser *p) {
    if (p->hdr == HDR_NONE || p->hdr == HDR_VERSION) header_done(p, (ir_loc){p->line, p->col});
}

/* A header directive out of place: missing ones are reported once and then
 * taken as read, so one mistake gives one error. */
static bool header_order(fe_parser *p, int want, const char *what, const char *where, ir_loc loc) {
    if (p->hdr == HDR_NONE && want > HDR_VERSION) {
        fe_error(p, loc, "missing .version directive at start of file");
        p->hdr = HDR_VERSION;
    }
    if (p->hdr == HDR_VERSION && want > HDR_TARGET) {
        fe_error(p, loc, "missing .target directive after .version");
        p->hdr = HDR_TARGET;
    }
    if (p->hdr >= want && !(want == HDR_TARGET && p->hdr == HDR_TARGET)) {
        fe_error(p, loc, "'%s' may appear only %s", what, where);
        return false;
    }
    p->hdr = (uint8_t)want;
    return true;
}

void fe_version(fe_parser *p, fe_span text, ir_loc dloc, ir_loc loc) {
    unsigned maj = 0, min = 0;
    char buf[32];
    if (!header_order(p, HDR_VERSION, ".version", "once, at the start of the file", dloc)) return;
    if (!text.n) return;
    size_t n = text.n < 31 ? text.n : 31;
    memcpy(buf, text.s, n);
    buf[n] = 0;
    if (sscanf(buf, "%u.%u", &maj, &min) != 2) return;
    if (maj >= sizeof newest_minor || (int)min > newest_minor[maj])
        fe_error(p, loc, "unsupported PTX version %u.%u", maj, min);
    p->m->version_major = maj;
    p->m->version_minor = min;
}

/* "sm_90a" -> 90, "compute_80" -> 80; 0 when name is not an architecture */
static unsigned arch_number(fe_span name) {
    uint32_t i = name.n > 3 && !memcmp(name.s, "sm_", 3) ? 3 : name.n > 8 && !memcmp(name.s, "compute_", 8) ? 8 : 0;
    unsigned v = 0, digits = 0;
    for (; i && i < name.n && name.s[i] >= '0' && name.s[i] <= '9' && digits < 4; i++, digits++)
        v = v * 10 + (unsigned)(name.s[i] - '0');
    if (!digits || (i < name.n && !(i + 1 == name.n && (name.s[i] == 'a' || name.s[i] == 'f')))) return 0;
    return v;
}

static bool span_is(fe_span s, const char *w) { return s.n == strlen(w) && !memcmp(s.s, w, s.n); }

static void check_arch(fe_parser *p, fe_span name, unsigned sm, ir_loc loc) {
    unsigned ver = p->m->version_major * 10 + p->m->version_minor, need = 0;
    for (size_t i = 0; i < sizeof target_min / sizeof target_min[0]; i++)
        if (target_min[i].sm == sm) need = target_min[i].ver;
    if (name.s[name.n - 1] == 'f' && need < 88) need = 88; /* family targets (sm_100f) came with PTX ISA 8.8 */
    else if (name.s[name.n - 1] == 'a' && sm == 90) need = 80;
    /* ISAs after 9.0 add architectures (sm_107 in 9.4) this table cannot know */
    if (!need && ver > 90) return;
    if (!need) fe_error(p, loc, "unsupported target '%.*s'", (int)name.n, name.s);
    else if (p->m->version_major && ver < need)
        fe_error(p, loc, "PTX ISA %u.%u does not support target '%.*s' (it needs %u.%u or later)", ver / 10, ver % 10,
                 (int)name.n, name.s, need / 10, need % 10);
}

void fe_target_begin(fe_parser *p, ir_loc loc) {
    p->target_names = header_order(p, HDR_TARGET, ".target", "right after '.version'", loc) ? 1 : 0;
}

void fe_target(fe_parser *p, fe_span name, ir_loc loc) {
    if (!p->target_names) return;
    bool first = p->target_names++ == 1;
    *VEC_PUSH(p, p->targets) = fe_strndup(p->a, name.s, name.n);
    unsigned sm = arch_number(name);
    if (sm) {
        check_arch(p, name, sm, loc);
        if (!p->m->sm) p->m->sm = sm;
        return;
    }
    if (first) {
        fe_error(p, loc, "'.target' must name an architecture (such as sm_90) first");
        return;
    }
    if (span_is(name, "texmode_unified") || span_is(name, "texmode_independent")) {
        for (uint32_t i = 0; i + 1 < p->targets.n; i++)
            if (!strcmp(p->targets.v[i], name.s[8] == 'u' ? "texmode_independent" : "texmode_unified"))
                fe_error(p, loc, "conflicting .target option '%.*s'", (int)name.n, name.s);
    } else if (span_is(name, "map_f64_to_f32")) {
        if (p->m->sm >= 13) fe_error(p, loc, "'map_f64_to_f32' is not supported on sm_13 or later");
    } else if (!span_is(name, "debug")) {
        fe_error(p, loc, "unsupported target '%.*s'", (int)name.n, name.s);
    }
}

void fe_address_size(fe_parser *p, uint64_t v, ir_loc dloc, ir_loc loc) {
    if (!header_order(p, HDR_ADDRESS_SIZE, ".address_size", "once, right after '.target'", dloc)) return;
    if (v != 32 && v != 64) fe_error(p, loc, "address size must be 32 or 64");
    else if (v == 32 && p->m->sm >= 90) fe_error(p, loc, "32-bit addressing is not supported on sm_90 or later");
    p->m->address_size = (uint32_t)v;
}
