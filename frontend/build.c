/* build.c — the IR builder behind the grammar: module and function structure,
 * statements, instructions and operands, and name binding (registers at once,
 * labels at the end of the function, forward symbols at the end of the module). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

#define FN_SCOPE 1u

int ptx_lex_init_extra(fe_parser *user, void **scanner);
int ptx_lex_destroy(void *scanner);
int ptx_parse(void *scanner, fe_parser *p);

static char *dup_span(fe_parser *p, fe_span s) { return fe_strndup(p->a, s.s, s.n); }

#define ARENA_COPY(p, vec) ((vec).n ? fe_memdup((p)->a, (vec).v, (vec).n * sizeof *(vec).v) : NULL)
/* Moves a builder vector into the IR: its count and an arena copy of its items. */
#define TAKE(count, items, vec) ((count) = (vec).n, (items) = ARENA_COPY(p, vec))

/* ---- module-level directives ---- */

/* small hand scanner for the newline-terminated .file/.loc lines */
typedef struct {
    const char *s, *e;
} cur;
static void skip_ws(cur *c) {
    while (c->s < c->e && (*c->s == ' ' || *c->s == '\t' || *c->s == '\r')) c->s++;
}
static bool get_uint(cur *c, uint64_t *v) {
    skip_ws(c);
    if (c->s >= c->e || *c->s < '0' || *c->s > '9') return false;
    uint64_t x = 0;
    while (c->s < c->e && *c->s >= '0' && *c->s <= '9') x = x * 10 + (uint64_t)(*c->s++ - '0');
    *v = x;
    return true;
}
static bool get_char(cur *c, char ch) {
    skip_ws(c);
    if (c->s < c->e && *c->s == ch) {
        c->s++;
        return true;
    }
    return false;
}
static void strip_comment(cur *c) {
    for (const char *q = c->s; q + 1 < c->e; q++)
        if (q[0] == '/' && q[1] == '/') {
            c->e = q;
            break;
        }
    while (c->e > c->s && (c->e[-1] == ' ' || c->e[-1] == '\t' || c->e[-1] == '\r')) c->e--;
}

void fe_file_directive(fe_parser *p, fe_span line, ir_loc loc) {
    cur c = {line.s + 5, line.s + line.n};
    uint64_t idx, ts = 0, size = 0;
    if (!get_uint(&c, &idx) || !get_char(&c, '"')) {
        fe_error(p, loc, "malformed .file directive: expected an index and a quoted file name");
        return;
    }
    const char *name = c.s;
    while (c.s < c.e && *c.s != '"') c.s += (*c.s == '\\' && c.s + 1 < c.e) ? 2 : 1;
    if (c.s >= c.e) {
        fe_error(p, loc, "unterminated string in .file directive");
        return;
    }
    fe_span nm = {name, (uint32_t)(c.s - name)};
    c.s++;
    strip_comment(&c);
    if (get_char(&c, ',') && !(get_uint(&c, &ts) && get_char(&c, ',') && get_uint(&c, &size))) {
        fe_error(p, loc, "malformed .file directive: expected timestamp and size after ','");
        return;
    }
    skip_ws(&c);
    if (c.s != c.e) {
        fe_error(p, loc, "unexpected text after .file directive");
        return;
    }
    fe_utf8_check(p, nm.s, nm.n, loc.line, loc.col);
    *VEC_PUSH(p, p->files) = (ir_file){(uint32_t)idx, dup_span(p, nm), ts, size};
}

static ir_stmt *push_stmt(fe_parser *p, int kind, ir_loc loc) {
    ir_stmt *s = VEC_PUSH(p, p->body);
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    s->loc = loc;
    return s;
}

void fe_loc_directive(fe_parser *p, fe_span line, ir_loc loc) {
    cur c = {line.s + 4, line.s + line.n};
    uint64_t f, l, col;
    strip_comment(&c);
    if (!get_uint(&c, &f) || !get_uint(&c, &l) || !get_uint(&c, &col)) {
        fe_error(p, loc, "malformed .loc directive: expected file, line and column numbers");
        return;
    }
    p->dbg = (ir_dbgloc){(uint32_t)f, (uint32_t)l, (uint32_t)col};
    if (!p->fn || !get_char(&c, ',')) return;
    skip_ws(&c);
    ir_stmt *s = push_stmt(p, IR_ST_LOC, loc);
    s->u.locd.dbg = p->dbg;
    s->u.locd.text = (char *)fe_intern(p, c.s, (uint32_t)(c.e - c.s));
}

void fe_section(fe_parser *p, fe_span text) { *VEC_PUSH(p, p->sections) = dup_span(p, text); }

/* .alias a, b: `a` names function `b` from here on (calls bind to b itself) */
void fe_alias(fe_parser *p, fe_span alias, fe_span target, ir_loc aloc, ir_loc tloc) {
    fe_top_item(p, aloc);
    fe_sym *t = fe_sym_find(&p->syms, target.s, target.n, 0);
    if (!t || t->kind != SYM_FUNC) {
        fe_error(p, tloc, "'.alias' target '%.*s' is not a declared function", (int)target.n, target.s);
        return;
    }
    void *fn = t->ptr;
    fe_sym *e = fe_sym_find(&p->syms, alias.s, alias.n, 0);
    if (e && (e->kind != SYM_FUNC || ((ir_func *)e->ptr)->has_body)) {
        fe_error(p, aloc, "'.alias' name '%.*s' is already defined", (int)alias.n, alias.s);
        return;
    }
    if (!e) /* normally declared first, as a prototype */
        e = fe_sym_add(&p->syms, dup_span(p, alias), alias.n, SYM_FUNC, 0);
    e->ptr = fn;
}

/* ---- scopes and functions ---- */

static uint32_t new_scope(fe_parser *p, uint32_t parent) {
    *VEC_PUSH(p, p->scope_parent) = parent;
    return p->scope_parent.n - 1;
}

void fe_func_begin(fe_parser *p, bool entry, ir_loc loc) {
    fe_top_item(p, p->dirs.n ? p->dirs.v[0].loc : loc);
    ir_func *f = fe_alloc(p->a, sizeof *f);
    f->is_entry = entry;
    f->loc = loc;
    f->name = "";
    for (uint32_t i = 0; i < p->dirs.n; i++) {
        fe_dir *d = &p->dirs.v[i];
        if (d->v >= DIRV_LINK && d->v < DIRV_LINK + 0x100) f->linkage = (uint8_t)(d->v - DIRV_LINK);
        else
            fe_error(p, d->loc, "'%.*s' is not allowed before '%s'", (int)d->text.n, d->text.s,
                     entry ? ".entry" : ".func");
    }
    p->fn = f;
    p->params.n = p->rets.n = p->locals.n = p->regs.n = p->flabels.n = p->body.n = p->pragmas.n = 0;
    p->pend_labels.n = 0;
    p->scope_parent.n = 0;
    new_scope(p, 0);
    p->scope = new_scope(p, 0); /* == FN_SCOPE */
    p->param_ctx = 0;
    p->dbg = (ir_dbgloc){0, 0, 0};
    p->fn_sym_mark = p->syms.n;
}

void fe_add_var_sym(fe_parser *p, ir_var *v) {
    fe_sym *e = fe_sym_find(&p->syms, v->name, (uint32_t)strlen(v->name), -1);
    if (e && e->scope == p->scope) fe_error(p, v->loc, "redefinition of '%s'", v->name);
    e = fe_sym_add(&p->syms, v->name, (uint32_t)strlen(v->name), SYM_VAR, p->scope);
    e->ptr = v;
}

void fe_func_name(fe_parser *p, fe_span name, ir_loc loc) {
    ir_func *f = p->fn;
    f->name = dup_span(p, name);
    f->loc = loc;
    p->fn_prev = NULL;
    fe_sym *e = fe_sym_find(&p->syms, name.s, name.n, 0);
    if (e && e->kind != SYM_FUNC) fe_error(p, loc, "'%s' is already declared as a variable", f->name);
    else if (e) p->fn_prev = e->ptr; /* a definition after a declaration completes it */
    if (!e) {
        e = fe_sym_add(&p->syms, f->name, name.n, SYM_FUNC, 0);
        e->ptr = f;
    }
    p->fn_sym_mark = p->syms.n;
    for (uint32_t i = 0; i < p->rets.n; i++) fe_add_var_sym(p, p->rets.v[i]);
    p->param_ctx = 0;
}

void fe_param(fe_parser *p, fe_span name, ir_loc loc) {
    ir_var *v = fe_var_from_dirs(p, name, loc, IR_SPACE_PARAM);
    if (!v) return;
    if (p->proto_fn) {
        if (p->param_ctx) *VEC_PUSH(p, p->rets) = v;
        else *VEC_PUSH(p, p->params) = v;
        return;
    }
    v->func = p->fn;
    if (p->fn->is_entry && v->space != IR_SPACE_PARAM)
        fe_error(p, loc, "kernel parameter '%s' must be in the .param state space", v->name);
    if (p->param_ctx) {
        *VEC_PUSH(p, p->rets) = v; /* bound once the function's name is known */
    } else {
        *VEC_PUSH(p, p->params) = v;
        fe_add_var_sym(p, v);
    }
}

void fe_int_push(fe_parser *p, const fe_cval *v, ir_loc loc) {
    if (v->kind != CV_INT || v->i < 0 || v->i > UINT32_MAX) {
        if (v->kind != CV_BAD) fe_error(p, loc, "expected a non-negative integer");
        *VEC_PUSH(p, p->ints) = 0;
        return;
    }
    *VEC_PUSH(p, p->ints) = (uint32_t)v->i;
}

void fe_perf(fe_parser *p, int which, ir_loc loc) {
    ir_func *f = p->fn;
    uint32_t n = p->ints.n, *a = p->ints.v;
    static const uint8_t want[] = {
        [PERF_MAXNTID] = 3, [PERF_REQNTID] = 3,         [PERF_MINNCTAPERSM] = 1,      [PERF_MAXNCTAPERSM] = 1,
        [PERF_MAXNREG] = 1, [PERF_EXPLICITCLUSTER] = 0, [PERF_REQNCTAPERCLUSTER] = 3, [PERF_MAXCLUSTERRANK] = 1};
    if (n > want[which] || (want[which] && n == 0)) {
        fe_error(p, loc, "wrong number of values for this directive (at most %u)", want[which]);
        return;
    }
    uint32_t v3[3] = {n > 0 ? a[0] : 1, n > 1 ? a[1] : 1, n > 2 ? a[2] : 1};
    switch (which) {
    case PERF_MAXNTID: memcpy(f->maxntid, v3, sizeof v3); break;
    case PERF_REQNTID: memcpy(f->reqntid, v3, sizeof v3); break;
    case PERF_REQNCTAPERCLUSTER: memcpy(f->reqnctapercluster, v3, sizeof v3); break;
    case PERF_MINNCTAPERSM: f->minnctapersm = a[0]; break;
    case PERF_MAXNCTAPERSM: f->maxnctapersm = a[0]; break;
    case PERF_MAXNREG: f->maxnreg = a[0]; break;
    case PERF_MAXCLUSTERRANK: f->maxclusterrank = a[0]; break;
    case PERF_EXPLICITCLUSTER: f->explicitcluster = true; break;
    }
}

void fe_noreturn(fe_parser *p) {
    if (p->proto_fn) p->proto_fn->noreturn = true;
    else if (p->fn) p->fn->noreturn = true;
}

static char *unquote(fe_parser *p, fe_span s) {
    if (s.n >= 2 && s.s[0] == '"' && s.s[s.n - 1] == '"') return fe_strndup(p->a, s.s + 1, s.n - 2);
    return fe_strndup(p->a, s.s + (s.n > 0), s.n > 0 ? s.n - 1 : 0);
}

void fe_func_pragma(fe_parser *p, fe_span s, ir_loc loc) {
    (void)loc;
    *VEC_PUSH(p, p->pragmas) = unquote(p, s);
}

void fe_stmt_pragma(fe_parser *p, fe_span s, ir_loc loc) { push_stmt(p, IR_ST_PRAGMA, loc)->u.text = unquote(p, s); }

void fe_body_begin(fe_parser *p) {
    ir_func *f = p->fn;
    TAKE(f->nparams, f->params, p->params);
    TAKE(f->nrets, f->rets, p->rets);
    TAKE(f->npragmas, f->pragmas, p->pragmas);
}

static void bind_labels(fe_parser *p);

void fe_func_end(fe_parser *p, bool has_body) {
    ir_func *f = p->fn;
    if (!has_body) fe_body_begin(p);
    f->has_body = has_body;
    if (has_body) {
        bind_labels(p);
        TAKE(f->nregs, f->regs, p->regs);
        TAKE(f->nlabels, f->labels, p->flabels);
        TAKE(f->nbody, f->body, p->body);
        TAKE(f->nlocals, f->locals, p->locals);
    }
    fe_sym_truncate(&p->syms, p->fn_sym_mark);
    fe_sym_truncate(&p->labels, 0);
    ir_func *prev = p->fn_prev;
    if (prev && prev != f) {
        if (has_body && prev->has_body) {
            fe_error(p, f->loc, "redefinition of function '%s'", f->name);
        } else if (has_body) {
            /* complete the earlier declaration in place: calls already point at it */
            *prev = *f;
            for (uint32_t i = 0; i < prev->nlocals; i++) prev->locals[i]->func = prev;
            for (uint32_t i = 0; i < prev->nparams; i++) prev->params[i]->func = prev;
            for (uint32_t i = 0; i < prev->nrets; i++) prev->rets[i]->func = prev;
        }
    } else {
        *VEC_PUSH(p, p->funcs) = f;
    }
    p->fn = NULL;
    p->fn_prev = NULL;
    p->scope = 0;
    p->scope_marks.n = 0;
}

void fe_scope_begin(fe_parser *p, ir_loc loc) {
    *VEC_PUSH(p, p->scope_marks) = p->syms.n;
    p->scope = new_scope(p, p->scope);
    push_stmt(p, IR_ST_SCOPE_BEGIN, loc);
}

void fe_scope_end(fe_parser *p, ir_loc loc) {
    if (p->scope_marks.n == 0) return;
    fe_sym_truncate(&p->syms, p->scope_marks.v[--p->scope_marks.n]);
    p->scope = p->scope_parent.v[p->scope];
    push_stmt(p, IR_ST_SCOPE_END, loc);
}

/* ---- labels and targets ---- */

void fe_label(fe_parser *p, fe_span name, ir_loc loc) {
    if (!p->fn) return;
    if (fe_sym_find(&p->labels, name.s, name.n, (int)p->scope)) {
        fe_error(p, loc, "duplicate label '%.*s'", (int)name.n, name.s);
        return;
    }
    ir_label *l = VEC_PUSH(p, p->flabels);
    l->name = dup_span(p, name);
    l->stmt = p->body.n;
    l->loc = loc;
    fe_sym *e = fe_sym_add(&p->labels, l->name, name.n, SYM_LABEL, p->scope);
    e->id = p->flabels.n - 1;
    push_stmt(p, IR_ST_LABEL, loc)->u.label = e->id;
}

void fe_branchtargets(fe_parser *p, ir_loc loc) {
    (void)loc;
    p->targets_kind = IR_ST_BRANCHTARGETS;
    p->tnames.n = p->tlocs.n = 0;
}

void fe_calltargets(fe_parser *p, ir_loc loc) {
    (void)loc;
    p->targets_kind = IR_ST_CALLTARGETS;
    p->tnames.n = p->tlocs.n = 0;
}

void fe_target_name(fe_parser *p, fe_span name, ir_loc loc) {
    *VEC_PUSH(p, p->tnames) = name;
    *VEC_PUSH(p, p->tlocs) = loc;
}

void fe_targets_end(fe_parser *p) {
    if (!p->fn || !p->flabels.n) return;
    uint32_t n = p->tnames.n, label = p->flabels.n - 1;
    ir_stmt *s = push_stmt(p, p->targets_kind, p->flabels.v[label].loc);
    if (p->targets_kind == IR_ST_BRANCHTARGETS) {
        s->u.targets.label = label;
        s->u.targets.n = n;
        s->u.targets.labels = fe_alloc(p->a, n * sizeof(uint32_t));
        for (uint32_t i = 0; i < n; i++)
            *VEC_PUSH(p, p->pend_labels) = (fe_pending){.name = p->tnames.v[i],
                                                        .loc = p->tlocs.v[i],
                                                        .scope = p->scope,
                                                        .label_slot = &s->u.targets.labels[i],
                                                        .want_label = true};
    } else {
        s->u.calltargets.label = label;
        s->u.calltargets.n = n;
        s->u.calltargets.funcs = fe_alloc(p->a, n * sizeof(ir_func *));
        for (uint32_t i = 0; i < n; i++)
            *VEC_PUSH(p, p->pend_globals) = (fe_pending){.name = p->tnames.v[i],
                                                         .loc = p->tlocs.v[i],
                                                         .func_slot = &s->u.calltargets.funcs[i],
                                                         .want_func = true};
    }
}

void fe_proto_begin(fe_parser *p, ir_loc loc) {
    ir_func *f = fe_alloc(p->a, sizeof *f);
    f->is_proto = true;
    f->loc = loc;
    f->name = p->flabels.n ? p->flabels.v[p->flabels.n - 1].name : "";
    p->proto_fn = f;
    /* the enclosing function's parameters are already in the IR; reuse the vectors */
    p->params.n = p->rets.n = 0;
    p->param_ctx = 0;
}

void fe_proto_end(fe_parser *p) {
    ir_func *f = p->proto_fn;
    if (!f) return;
    TAKE(f->nparams, f->params, p->params);
    TAKE(f->nrets, f->rets, p->rets);
    p->proto_fn = NULL;
    if (!p->fn || !p->flabels.n) return;
    ir_stmt *s = push_stmt(p, IR_ST_CALLPROTOTYPE, f->loc);
    s->u.proto.label = p->flabels.n - 1;
    s->u.proto.proto = f;
}

/* ---- instructions and operands ---- */

#define UNBOUND 0x80000000u

void fe_insn_begin(fe_parser *p) {
    p->ops.n = 0;
    p->unbound_in_insn = 0;
}

uint32_t fe_op_mark(fe_parser *p) { return p->ops.n; }

static ir_operand *push_op(fe_parser *p, int kind, ir_loc loc) {
    ir_operand *o = VEC_PUSH(p, p->ops);
    memset(o, 0, sizeof *o);
    o->kind = (uint8_t)kind;
    o->loc = loc;
    return o;
}

/* ".b3210" -> IR_SEL_* encoding; 0 when s is not a selector */
static uint16_t parse_sel(const char *s, uint32_t n) {
    if (n < 3 || n > 6 || s[0] != '.' || (s[1] != 'b' && s[1] != 'h')) return 0;
    uint16_t v = s[1] == 'h' ? IR_SEL_HALF : 0;
    v |= (uint16_t)((n - 2) << 12);
    for (uint32_t i = 2; i < n; i++) v |= (uint16_t)((s[i] - '0') << (3 * (n - 1 - i)));
    return v;
}

/* neg: '!' (a predicate's complement), '-' (vmad's negated operand) or 0 */
void fe_op_reg(fe_parser *p, fe_span name, ir_loc loc, char neg) {
    ir_operand *o = push_op(p, IR_OPND_REG, loc);
    o->neg = neg != 0;
    const char *dot = memchr(name.s, '.', name.n);
    if (dot && (dot[1] == 'b' || dot[1] == 'h')) {
        o->sel = parse_sel(dot, (uint32_t)(name.s + name.n - dot));
        name.n = (uint32_t)(dot - name.s);
    }
    fe_sym *e = fe_sym_find(&p->syms, name.s, name.n, -1);
    int s = e ? -1 : fe_lookup_sreg(name.s, name.n);
    if (e && e->kind == SYM_REG) {
        o->reg = e->id;
    } else if (e && e->kind == SYM_VAR) {
        o->kind = IR_OPND_VAR;
        o->var = e->ptr;
    } else if (s >= 0) {
        o->kind = IR_OPND_SREG;
        o->sreg = (uint16_t)(s >> 8);
        o->comp = (uint8_t)s;
    } else {
        fe_error(p, loc, "undeclared register '%.*s'", (int)name.n, name.s);
        o->neg = false;
        return;
    }
    /* the printer tells the two negations apart by the register's type */
    bool pred = o->kind == IR_OPND_REG && p->regs.v[o->reg].type == IR_T_PRED;
    if (neg == '!' && !pred) {
        fe_error(p, loc, "'!' negates predicates only, and '%.*s' is not a predicate", (int)name.n, name.s);
        o->neg = false;
    } else if (neg == '-' && (p->cur_op != IR_OP_VMAD || o->kind != IR_OPND_REG || pred)) {
        fe_error(p, loc, "operand negation '-%.*s' is not allowed for '%s'", (int)name.n, name.s,
                 p->cur_op >= 0 ? ir_opcode_name[p->cur_op] : "this instruction");
        o->neg = false;
    }
}

void fe_op_sink(fe_parser *p, ir_loc loc) { push_op(p, IR_OPND_SINK, loc); }

void fe_op_cval(fe_parser *p, const fe_cval *v) {
    ir_operand *o = push_op(p, IR_OPND_IMM_INT, v->loc);
    switch (v->kind) {
    case CV_INT: o->ival = v->i; return;
    case CV_F32:
        o->kind = IR_OPND_IMM_F32;
        o->fval = v->f;
        o->fbits = v->bits;
        return;
    case CV_F64:
    case CV_DEC:
        o->kind = IR_OPND_IMM_F64;
        o->fval = v->f;
        o->fbits = v->bits;
        return;
    case CV_BAD: return;
    }
    if (v->generic || v->mask) {
        fe_error(p, v->loc, "generic() and mask() are only allowed in initializers");
        return;
    }
    o->ival = v->i;
    fe_sym *e = fe_sym_find(&p->syms, v->sym.s, v->sym.n, -1);
    if (e && e->kind == SYM_VAR) {
        o->kind = IR_OPND_VAR;
        o->var = e->ptr;
    } else if (e && e->kind == SYM_FUNC) {
        o->kind = IR_OPND_FUNC;
        o->func = e->ptr;
    } else if (e) {
        /* a register named without '%' (inline asm often declares these) */
        o->kind = IR_OPND_REG;
        o->reg = e->id;
    } else if (v->sym.n == 7 && !memcmp(v->sym.s, "WARP_SZ", 7) && !v->i) {
        o->kind = IR_OPND_IMM_INT; /* the one predefined constant */
        o->ival = 32;
    } else {
        /* a label, or a function declared further down */
        o->kind = IR_OPND_LABEL;
        o->label = UNBOUND | p->pend_labels.n;
        /* a branch target can only be a label */
        bool branch = p->cur_op == IR_OP_BRA || (p->cur_op == IR_OP_BRX && p->ops.n > 1);
        *VEC_PUSH(p, p->pend_labels) = (fe_pending){
            .name = v->sym, .loc = v->loc, .scope = p->scope, .want_label = branch};
        p->unbound_in_insn++;
    }
}

void fe_op_addr_off(fe_parser *p, const fe_cval *v, bool minus) {
    ir_operand *o = &p->ops.v[p->ops.n - 1];
    if (v->kind != CV_INT) {
        if (v->kind != CV_BAD) fe_error(p, v->loc, "address offset must be an integer constant");
        return;
    }
    o->ival = minus ? (int64_t)(0 - (uint64_t)v->i) : v->i;
}

static ir_operand *pop_group(fe_parser *p, uint32_t mark, int kind, ir_loc loc) {
    uint32_t n = p->ops.n - mark;
    ir_operand *sub = n ? fe_memdup(p->a, p->ops.v + mark, n * sizeof *sub) : NULL;
    p->ops.n = mark;
    ir_operand *o = push_op(p, kind, loc);
    o->nsub = n;
    o->sub = sub;
    return o;
}

void fe_op_pair(fe_parser *p, ir_loc loc) { pop_group(p, p->ops.n - 2, IR_OPND_PAIR, loc); }

void fe_op_group(fe_parser *p, uint32_t mark, int kind, ir_loc loc) {
    ir_operand *o = pop_group(p, mark, kind, loc);
    if (kind != IR_OPND_ADDR || o->nsub != 1) return;
    ir_operand *b = &o->sub[0];
    switch (b->kind) {
    case IR_OPND_REG:
    case IR_OPND_VAR:
    case IR_OPND_LABEL:
        /* the offset moves from the base to the address */
        o->ival = b->ival;
        b->ival = 0;
        break;
    case IR_OPND_IMM_INT: break;
    default: fe_error(p, b->loc, "invalid address: expected a register, a variable or an integer");
    }
}

static void note_unbound(fe_parser *p, ir_operand *o, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        if (o[i].kind == IR_OPND_LABEL && (o[i].label & UNBOUND)) p->pend_labels.v[o[i].label & ~UNBOUND].op = &o[i];
        if (o[i].nsub) note_unbound(p, o[i].sub, o[i].nsub);
    }
}

void fe_insn(fe_parser *p, const fe_span *guard, bool guard_neg, ir_loc gloc, const fe_opc *opc, ir_loc loc) {
    if (!p->fn) {
        fe_error(p, loc, "instruction outside a function body");
        return;
    }
    const char *t = opc->text.s, *end = t + opc->text.n;
    const char *dot = memchr(t, '.', opc->text.n);
    if (!dot) dot = end;
    if (opc->op < 0) {
        fe_error(p, loc, "unknown instruction '%.*s'", (int)(dot - t), t);
        p->pend_labels.n -= p->unbound_in_insn;
        return;
    }
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)opc->op;
    in.guard = -1;
    in.loc = guard ? gloc : loc;
    in.dbg = p->dbg;
    while (dot < end) {
        const char *s = dot + 1, *e = s;
        while (e < end && *e != '.') e++;
        ir_loc sl = {loc.line, loc.col + (uint32_t)(dot - t)};
        int ty = fe_lookup_type(s, (size_t)(e - s));
        if (ty > 0) {
            if (in.ntypes == IR_MAX_TYPES) {
                fe_error(p, sl, "too many type suffixes");
            } else {
                in.typemask |= 1u << (in.ntypes + in.nmods);
                in.types[in.ntypes++] = (uint8_t)ty;
            }
        } else {
            int md = fe_lookup_mod(s, (size_t)(e - s));
            if (md <= 0) {
                fe_error(p, sl, "unknown modifier '.%.*s' for '%s'", (int)(e - s), s, ir_opcode_name[in.op]);
            } else if (in.nmods == IR_MAX_MODS) {
                fe_error(p, sl, "too many modifiers");
            } else {
                in.mods[in.nmods++] = (uint16_t)md;
                in.modset[md >> 6] |= 1ull << (md & 63);
            }
        }
        dot = e;
    }
    if (guard) {
        fe_sym *e = fe_sym_find(&p->syms, guard->s, guard->n, -1);
        if (!e || e->kind != SYM_REG) {
            fe_error(p, gloc, "undeclared predicate '%.*s'", (int)guard->n, guard->s);
        } else if (p->regs.v[e->id].type != IR_T_PRED) {
            fe_error(p, gloc, "guard '%.*s' is not a predicate", (int)guard->n, guard->s);
        } else {
            in.guard = (int32_t)e->id;
            in.guard_neg = guard_neg;
        }
    }
    in.nopnds = p->ops.n;
    in.opnds = in.nopnds ? fe_memdup(p->a, p->ops.v, in.nopnds * sizeof *in.opnds) : NULL;
    if (p->unbound_in_insn) note_unbound(p, in.opnds, in.nopnds);
    /* an instruction with errors is kept (the diagnostics mark the module unusable) */
    ir_stmt *s = push_stmt(p, IR_ST_INSN, in.loc);
    s->u.insn = in;
}

/* labels first; what is not a label may be a function or variable declared later */
static void bind_labels(fe_parser *p) {
    for (uint32_t i = 0; i < p->pend_labels.n; i++) {
        fe_pending *q = &p->pend_labels.v[i];
        if (!q->op && !q->label_slot) continue; /* dropped with a bad instruction */
        fe_sym *e = NULL;
        for (uint32_t s = q->scope;; s = p->scope_parent.v[s]) {
            e = fe_sym_find(&p->labels, q->name.s, q->name.n, (int)s);
            if (e || s == 0) break;
        }
        if (e) {
            if (q->label_slot) {
                *q->label_slot = e->id;
            } else {
                q->op->label = e->id;
                if (q->op->ival) fe_error(p, q->loc, "a label cannot have an offset");
            }
        } else if (q->want_label) {
            fe_error(p, q->loc, "undefined label '%.*s'", (int)q->name.n, q->name.s);
            if (q->op) q->op->label = 0;
        } else {
            q->op->label = 0;
            *VEC_PUSH(p, p->pend_globals) = *q;
        }
    }
    p->pend_labels.n = 0;
}

void fe_module_end(fe_parser *p) {
    fe_header_end(p);
    /* input that ended (or overflowed the parser) mid-declaration: finish
     * what was read so the module is consistent, if not usable */
    if (p->cur_var) fe_decl_end(p);
    if (p->fn) fe_func_end(p, true);
    for (uint32_t i = 0; i < p->pend_globals.n; i++) {
        fe_pending *q = &p->pend_globals.v[i];
        fe_sym *e = fe_sym_find(&p->syms, q->name.s, q->name.n, 0);
        if (!e || (q->want_func && e->kind != SYM_FUNC)) {
            fe_error(p, q->loc, "undeclared %s '%.*s'", q->want_func ? "function" : "identifier", (int)q->name.n,
                     q->name.s);
            continue;
        }
        bool fn = e->kind == SYM_FUNC;
        if (q->func_slot) {
            *q->func_slot = e->ptr;
        } else if (q->reloc) {
            q->reloc->is_func = fn;
            if (fn) q->reloc->func = e->ptr;
            else q->reloc->var = e->ptr;
        } else if (q->op) {
            q->op->kind = fn ? IR_OPND_FUNC : IR_OPND_VAR;
            q->op->label = 0;
            if (fn) q->op->func = e->ptr;
            else q->op->var = e->ptr;
        }
    }
    ir_module *m = p->m;
    TAKE(m->ntargets, m->targets, p->targets);
    TAKE(m->nfiles, m->files, p->files);
    TAKE(m->nglobals, m->globals, p->globals);
    TAKE(m->nfuncs, m->funcs, p->funcs);
    TAKE(m->nsections, m->sections, p->sections);
}

ir_module *fe_parse(const char *text, size_t len, const char *path, fe_diags *d) {
    fe_tables_init();
    fe_diags local = {0};
    if (!d) d = &local;
    if (!d->src) {
        d->path = path;
        d->src = text;
        d->srclen = len;
    }
    fe_arena arena = {0};
    ir_module *m = fe_alloc(&arena, sizeof *m);
    fe_parser *p = calloc(1, sizeof *p);
    p->a = &arena;
    p->m = m;
    p->d = d;
    p->text = text;
    p->len = len;
    p->line = p->col = 1;
    p->at_stmt = true;
    m->path = fe_strndup(&arena, path ? path : "<input>", strlen(path ? path : "<input>"));
    fe_sym_init(&p->syms);
    fe_sym_init(&p->labels);
    fe_sym_init(&p->strings);
    *VEC_PUSH(p, p->scope_parent) = 0;
    void *scanner;
    ptx_lex_init_extra(p, &scanner);
    p->scanner = scanner;
    ptx_parse(scanner, p);
    ptx_lex_destroy(scanner);
    fe_module_end(p);
    fe_sym_free(&p->syms);
    fe_sym_free(&p->labels);
    fe_sym_free(&p->strings);
    void *vecs[] = {p->globals.v,     p->funcs.v,        p->targets.v,      p->files.v,       p->sections.v,
                    p->pend_labels.v, p->pend_globals.v, p->scope_parent.v, p->scope_marks.v, p->dirs.v,
                    p->dims.v,        p->ints.v,         p->ibuf.v,         p->irel.v,        p->irel_names.v,
                    p->irel_locs.v,   p->ilevel.v,       p->params.v,       p->rets.v,        p->locals.v,
                    p->pragmas.v,     p->regs.v,         p->flabels.v,      p->body.v,        p->ops.v,
                    p->tnames.v,      p->tlocs.v};
    for (size_t i = 0; i < sizeof vecs / sizeof *vecs; i++) free(vecs[i]);
    free(p);
    fe_arena *keep = malloc(sizeof *keep);
    *keep = arena;
    m->arena = keep;
    if (d == &local) fe_diags_free(&local);
    return m;
}

void ir_module_free(ir_module *m) {
    if (!m) return;
    fe_arena *a = m->arena;
    fe_arena_free(a); /* m itself lives in the arena */
    free(a);
}

ir_func *ir_find_func(const ir_module *m, const char *name) {
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i]->name, name) == 0) return m->funcs[i];
    return NULL;
}

ir_var *ir_find_global(const ir_module *m, const char *name) {
    for (uint32_t i = 0; i < m->nglobals; i++)
        if (strcmp(m->globals[i]->name, name) == 0) return m->globals[i];
    return NULL;
}
