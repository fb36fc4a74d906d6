/* print.c — writes an IR module back as PTX. The output re-parses to an equal
 * module (ir_equal); it is also what `ptxi` shows when it quotes code. */
#include <inttypes.h>
#include <string.h>

#include "fe.h"

size_t ir_insn_mnemonic(const ir_insn *in, char *buf, size_t cap) {
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, __VA_ARGS__)
    PUT("%s", ir_opcode_name[in->op]);
    unsigned t = 0, m = 0;
    for (unsigned i = 0; i < (unsigned)in->ntypes + in->nmods; i++) {
        if ((in->typemask >> i) & 1) PUT(".%s", ir_type_name[in->types[t++]]);
        else PUT(".%s", ir_mod_name[in->mods[m++]]);
    }
#undef PUT
    return n;
}

/* "%tid.x", "%envreg3", "%pm2_64", "%clock64": a special register as PTX spells it */
const char *fe_sreg_text(const ir_operand *o, char *buf, size_t cap) {
    const char *nm = ir_sreg_name[o->sreg];
    switch (o->sreg) {
    case IR_SREG_ENVREG:
    case IR_SREG_PM: snprintf(buf, cap, "%%%s%u", nm, o->comp); return buf;
    case IR_SREG_PM64: snprintf(buf, cap, "%%pm%u_64", o->comp); return buf;
    }
    if (o->sreg == IR_SREG_TID || o->sreg == IR_SREG_NTID || o->sreg == IR_SREG_CTAID || o->sreg == IR_SREG_NCTAID ||
        o->sreg == IR_SREG_CLUSTERID || o->sreg == IR_SREG_NCLUSTERID || o->sreg == IR_SREG_CLUSTER_CTAID ||
        o->sreg == IR_SREG_CLUSTER_NCTAID)
        snprintf(buf, cap, "%%%s.%c", nm, 'x' + o->comp);
    else snprintf(buf, cap, "%%%s", nm);
    return buf;
}

static void print_sreg(FILE *out, const ir_operand *o) {
    char buf[48];
    fputs(fe_sreg_text(o, buf, sizeof buf), out);
}

static void print_operand(FILE *out, const ir_func *f, const ir_operand *o) {
    switch (o->kind) {
    case IR_OPND_REG:
        fprintf(out, "%s%s", !o->neg ? "" : f->regs[o->reg].type == IR_T_PRED ? "!" : "-", f->regs[o->reg].name);
        if (o->sel) {
            fprintf(out, ".%c", o->sel & IR_SEL_HALF ? 'h' : 'b');
            for (unsigned i = 0; i < IR_SEL_COUNT(o->sel); i++) fputc('0' + (int)IR_SEL_DIGIT(o->sel, i), out);
        }
        break;
    case IR_OPND_SREG: print_sreg(out, o); break;
    case IR_OPND_IMM_INT: fprintf(out, "%" PRId64, o->ival); break;
    case IR_OPND_IMM_F32: fprintf(out, "0f%08" PRIX32, (uint32_t)o->fbits); break;
    case IR_OPND_IMM_F64: fprintf(out, "0d%016" PRIX64, o->fbits); break;
    case IR_OPND_VAR:
        fprintf(out, "%s", o->var->name);
        if (o->ival) fprintf(out, "+%" PRId64, o->ival);
        break;
    case IR_OPND_FUNC: fprintf(out, "%s", o->func->name); break;
    case IR_OPND_LABEL: fprintf(out, "%s", f->labels[o->label].name); break;
    case IR_OPND_SINK: fputc('_', out); break;
    case IR_OPND_PAIR:
        print_operand(out, f, &o->sub[0]);
        fputc('|', out);
        print_operand(out, f, &o->sub[1]);
        break;
    case IR_OPND_ADDR:
    case IR_OPND_VEC:
    case IR_OPND_LIST: {
        const char *br = o->kind == IR_OPND_ADDR ? "[]" : o->kind == IR_OPND_VEC ? "{}" : "()";
        fputc(br[0], out);
        for (uint32_t i = 0; i < o->nsub; i++) {
            if (i) fputs(", ", out);
            print_operand(out, f, &o->sub[i]);
        }
        if (o->kind == IR_OPND_ADDR && o->ival) fprintf(out, "+%" PRId64, o->ival);
        fputc(br[1], out);
        break;
    }
    }
}

static const char *const link_name[] = {"", ".extern ", ".visible ", ".weak ", ".common "};

static void print_init(FILE *out, const ir_var *v) {
    uint32_t e = ir_type_bytes[v->type];
    uint64_t n = v->size / e, last = 0;
    bool aggregate = v->ndims || v->vec > 1;
    /* trailing zero elements are implied */
    for (uint64_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < e; k++)
            if (v->init[i * e + k]) last = i + 1;
    for (uint32_t r = 0; r < v->nrelocs; r++)
        if (v->relocs[r].offset / e + 1 > last) last = v->relocs[r].offset / e + 1;
    if (!aggregate && !last) last = 1;
    fputs(aggregate ? " = {" : " = ", out);
    uint32_t r = 0;
    for (uint64_t i = 0; i < last; i++) {
        if (i) fputs(", ", out);
        while (r < v->nrelocs && v->relocs[r].offset < i * e) r++;
        if (r < v->nrelocs && v->relocs[r].offset == i * e) {
            const ir_reloc *rl = &v->relocs[r];
            const char *nm = rl->is_func ? rl->func->name : rl->var->name;
            if (rl->mask != ~0ull) fprintf(out, "0x%" PRIx64 "(%s)", rl->mask, nm);
            else if (rl->generic) fprintf(out, "generic(%s)", nm);
            else fputs(nm, out);
            if (rl->addend) fprintf(out, "+%" PRId64, rl->addend);
            continue;
        }
        uint64_t bits = 0;
        for (uint32_t k = 0; k < e && k < 8; k++) bits |= (uint64_t)v->init[i * e + k] << (8 * k);
        if (v->type == IR_T_F32) fprintf(out, "0f%08" PRIX64, bits);
        else if (v->type == IR_T_F64) fprintf(out, "0d%016" PRIX64, bits);
        else fprintf(out, "%" PRIu64, bits);
    }
    if (aggregate) fputc('}', out);
}

static void print_var(FILE *out, const ir_var *v, bool is_param) {
    fputs(link_name[v->linkage], out);
    fprintf(out, ".%s", ir_space_name[v->space]);
    if (v->managed) fputs(" .attribute(.managed)", out);
    if (v->unified) fputs(" .attribute(.unified)", out);
    if (v->align_explicit) fprintf(out, " .align %u", v->align);
    if (v->vec > 1) fprintf(out, " .v%u", v->vec);
    fprintf(out, " .%s", ir_type_name[v->type]);
    if (v->is_ptr) {
        fputs(" .ptr", out);
        if (v->ptr_space) fprintf(out, " .%s", ir_space_name[v->ptr_space]);
        if (v->ptr_align) fprintf(out, " .align %u", v->ptr_align);
    }
    fprintf(out, " %s", v->name);
    for (uint32_t i = 0; i < v->ndims; i++) {
        if (v->dims[i]) fprintf(out, "[%" PRIu64 "]", v->dims[i]);
        else fputs("[]", out);
    }
    if (v->has_init && !is_param) print_init(out, v);
}

/* "(.param .b32 a, .param .b64 b)", one per line when `lines` */
static void print_params(FILE *out, ir_var *const *v, uint32_t n, bool lines) {
    fputc('(', out);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? "," : "", out);
        fputs(lines ? "\n\t" : i ? " " : "", out);
        print_var(out, v[i], true);
    }
    fputs(lines && n ? "\n)" : ")", out);
}

static void print_stmt(FILE *out, const ir_func *f, const ir_stmt *s, ir_dbgloc *dbg) {
    switch (s->kind) {
    case IR_ST_INSN: {
        const ir_insn *in = &s->u.insn;
        char mn[256];
        if (in->dbg.file != dbg->file || in->dbg.line != dbg->line || in->dbg.col != dbg->col) {
            *dbg = in->dbg;
            fprintf(out, "\t.loc\t%u %u %u\n", dbg->file, dbg->line, dbg->col);
        }
        ir_insn_mnemonic(in, mn, sizeof mn);
        fputc('\t', out);
        if (in->guard >= 0) fprintf(out, "@%s%s ", in->guard_neg ? "!" : "", f->regs[in->guard].name);
        fputs(mn, out);
        for (uint32_t i = 0; i < in->nopnds; i++) {
            fputs(i ? ", " : " ", out);
            print_operand(out, f, &in->opnds[i]);
        }
        fputs(";\n", out);
        break;
    }
    case IR_ST_LABEL: fprintf(out, "%s:\n", f->labels[s->u.label].name); break;
    case IR_ST_LOC:
        *dbg = s->u.locd.dbg;
        fprintf(out, "\t.loc\t%u %u %u", s->u.locd.dbg.file, s->u.locd.dbg.line, s->u.locd.dbg.col);
        if (s->u.locd.text) fprintf(out, ", %s", s->u.locd.text);
        fputc('\n', out);
        break;
    case IR_ST_SCOPE_BEGIN: fputs("{\n", out); break;
    case IR_ST_SCOPE_END: fputs("}\n", out); break;
    case IR_ST_REG_DECL: {
        const ir_reg *r = &f->regs[s->u.regs.first];
        fputs("\t.reg", out);
        if (r->vec > 1) fprintf(out, " .v%u", r->vec);
        fprintf(out, " .%s ", ir_type_name[r->type]);
        if (s->u.regs.count == 1) fprintf(out, "%s;\n", r->name);
        else fprintf(out, "%.*s<%u>;\n", (int)strlen(r->name) - 1, r->name, s->u.regs.count);
        break;
    }
    case IR_ST_VAR_DECL:
        fputc('\t', out);
        print_var(out, s->u.var, false);
        fputs(";\n", out);
        break;
    case IR_ST_BRANCHTARGETS:
        fputs("\t.branchtargets ", out);
        for (uint32_t i = 0; i < s->u.targets.n; i++)
            fprintf(out, "%s%s", i ? ", " : "", f->labels[s->u.targets.labels[i]].name);
        fputs(";\n", out);
        break;
    case IR_ST_CALLTARGETS:
        fputs("\t.calltargets ", out);
        for (uint32_t i = 0; i < s->u.calltargets.n; i++)
            fprintf(out, "%s%s", i ? ", " : "", s->u.calltargets.funcs[i]->name);
        fputs(";\n", out);
        break;
    case IR_ST_CALLPROTOTYPE: {
        const ir_func *pr = s->u.proto.proto;
        fputs("\t.callprototype ", out);
        if (pr->nrets) print_params(out, pr->rets, pr->nrets, false);
        fputs(" _ ", out);
        print_params(out, pr->params, pr->nparams, false);
        fputs(pr->noreturn ? " .noreturn;\n" : ";\n", out);
        break;
    }
    case IR_ST_PRAGMA: fprintf(out, "\t.pragma \"%s\";\n", s->u.text); break;
    }
}

static void print_func(FILE *out, const ir_func *f) {
    fputs(link_name[f->linkage], out);
    if (f->is_entry) {
        fprintf(out, ".entry %s", f->name);
    } else {
        fputs(".func ", out);
        if (f->nrets) {
            print_params(out, f->rets, f->nrets, false);
            fputc(' ', out);
        }
        fputs(f->name, out);
    }
    print_params(out, f->params, f->nparams, true);
    fputc('\n', out);
    const uint32_t *tri[] = {f->maxntid, f->reqntid, f->reqnctapercluster};
    const char *tri_name[] = {"maxntid", "reqntid", "reqnctapercluster"};
    for (int i = 0; i < 3; i++)
        if (tri[i][0] | tri[i][1] | tri[i][2])
            fprintf(out, ".%s %u, %u, %u\n", tri_name[i], tri[i][0], tri[i][1], tri[i][2]);
    const uint32_t one[] = {f->minnctapersm, f->maxnctapersm, f->maxnreg, f->maxclusterrank};
    const char *one_name[] = {"minnctapersm", "maxnctapersm", "maxnreg", "maxclusterrank"};
    for (int i = 0; i < 4; i++)
        if (one[i]) fprintf(out, ".%s %u\n", one_name[i], one[i]);
    if (f->explicitcluster) fputs(".explicitcluster\n", out);
    if (f->noreturn) fputs(".noreturn\n", out);
    for (uint32_t i = 0; i < f->npragmas; i++) fprintf(out, ".pragma \"%s\";\n", f->pragmas[i]);
    if (!f->has_body) {
        fputs(";\n\n", out);
        return;
    }
    fputs("{\n", out);
    ir_dbgloc dbg = {0, 0, 0};
    for (uint32_t i = 0; i < f->nbody; i++) print_stmt(out, f, &f->body[i], &dbg);
    fputs("}\n\n", out);
}

void ir_print(FILE *out, const ir_module *m) {
    if (m->version_major) fprintf(out, ".version %u.%u\n", m->version_major, m->version_minor);
    if (m->ntargets) {
        fputs(".target ", out);
        for (uint32_t i = 0; i < m->ntargets; i++) fprintf(out, "%s%s", i ? ", " : "", m->targets[i]);
        fputc('\n', out);
    }
    if (m->address_size) fprintf(out, ".address_size %u\n", m->address_size);
    fputc('\n', out);
    for (uint32_t i = 0; i < m->nglobals; i++) {
        print_var(out, m->globals[i], false);
        fputs(";\n", out);
    }
    fputc('\n', out);
    for (uint32_t i = 0; i < m->nfuncs; i++) print_func(out, m->funcs[i]);
    for (uint32_t i = 0; i < m->nfiles; i++) {
        const ir_file *fl = &m->files[i];
        fprintf(out, "\t.file\t%u \"%s\"", fl->index, fl->name);
        if (fl->timestamp || fl->size) fprintf(out, ", %" PRIu64 ", %" PRIu64, fl->timestamp, fl->size);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < m->nsections; i++) fprintf(out, "%s\n", m->sections[i]);
}
