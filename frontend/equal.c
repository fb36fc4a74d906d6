/* equal.c — structural equality of two modules, locations ignored; symbols
 * compare by name, registers and labels by index. Used by the print/re-parse
 * round-trip tests. */
#include <string.h>

#include "fe.h"

static bool streq(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static bool var_eq(const ir_var *a, const ir_var *b);

static bool reloc_eq(const ir_reloc *a, const ir_reloc *b) {
    return a->offset == b->offset && a->size == b->size && a->generic == b->generic && a->is_func == b->is_func &&
           a->shift == b->shift && a->mask == b->mask && a->addend == b->addend &&
           streq(a->is_func ? a->func->name : a->var->name, b->is_func ? b->func->name : b->var->name);
}

static bool var_eq(const ir_var *a, const ir_var *b) {
    if (!streq(a->name, b->name) || a->space != b->space || a->type != b->type || a->vec != b->vec ||
        a->linkage != b->linkage || a->align != b->align || a->align_explicit != b->align_explicit ||
        a->ndims != b->ndims || a->size != b->size || a->managed != b->managed || a->unified != b->unified ||
        a->is_ptr != b->is_ptr || a->ptr_space != b->ptr_space || a->ptr_align != b->ptr_align ||
        a->has_init != b->has_init || a->nrelocs != b->nrelocs)
        return false;
    if (memcmp(a->dims, b->dims, a->ndims * sizeof *a->dims)) return false;
    if (a->has_init && memcmp(a->init, b->init, a->size)) return false;
    for (uint32_t i = 0; i < a->nrelocs; i++)
        if (!reloc_eq(&a->relocs[i], &b->relocs[i])) return false;
    return true;
}

static bool vars_eq(ir_var *const *a, ir_var *const *b, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (!var_eq(a[i], b[i])) return false;
    return true;
}

static bool opnd_eq(const ir_operand *a, const ir_operand *b) {
    if (a->kind != b->kind || a->neg != b->neg || a->nsub != b->nsub) return false;
    switch (a->kind) {
    case IR_OPND_REG:
        if (a->reg != b->reg || a->sel != b->sel) return false;
        break;
    case IR_OPND_SREG:
        if (a->sreg != b->sreg || a->comp != b->comp) return false;
        break;
    case IR_OPND_IMM_INT:
        if (a->ival != b->ival) return false;
        break;
    case IR_OPND_IMM_F32:
    case IR_OPND_IMM_F64:
        if (a->fbits != b->fbits) return false;
        break;
    case IR_OPND_VAR:
        if (a->ival != b->ival || !streq(a->var->name, b->var->name)) return false;
        break;
    case IR_OPND_FUNC:
        if (!streq(a->func->name, b->func->name)) return false;
        break;
    case IR_OPND_LABEL:
        if (a->label != b->label) return false;
        break;
    case IR_OPND_ADDR:
        if (a->ival != b->ival) return false;
        break;
    }
    for (uint32_t i = 0; i < a->nsub; i++)
        if (!opnd_eq(&a->sub[i], &b->sub[i])) return false;
    return true;
}

static bool func_eq(const ir_func *a, const ir_func *b);

static bool stmt_eq(const ir_stmt *a, const ir_stmt *b) {
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case IR_ST_INSN: {
        const ir_insn *x = &a->u.insn, *y = &b->u.insn;
        if (x->op != y->op || x->ntypes != y->ntypes || x->nmods != y->nmods || x->typemask != y->typemask ||
            memcmp(x->types, y->types, x->ntypes) || memcmp(x->mods, y->mods, x->nmods * sizeof *x->mods) ||
            memcmp(x->modset, y->modset, sizeof x->modset) || x->guard != y->guard ||
            (x->guard >= 0 && x->guard_neg != y->guard_neg) || x->nopnds != y->nopnds || x->dbg.file != y->dbg.file ||
            x->dbg.line != y->dbg.line || x->dbg.col != y->dbg.col)
            return false;
        for (uint32_t i = 0; i < x->nopnds; i++)
            if (!opnd_eq(&x->opnds[i], &y->opnds[i])) return false;
        return true;
    }
    case IR_ST_LABEL: return a->u.label == b->u.label;
    case IR_ST_LOC:
        return a->u.locd.dbg.file == b->u.locd.dbg.file && a->u.locd.dbg.line == b->u.locd.dbg.line &&
               a->u.locd.dbg.col == b->u.locd.dbg.col && streq(a->u.locd.text, b->u.locd.text);
    case IR_ST_REG_DECL: return a->u.regs.first == b->u.regs.first && a->u.regs.count == b->u.regs.count;
    case IR_ST_VAR_DECL: return var_eq(a->u.var, b->u.var);
    case IR_ST_BRANCHTARGETS:
        return a->u.targets.label == b->u.targets.label && a->u.targets.n == b->u.targets.n &&
               !memcmp(a->u.targets.labels, b->u.targets.labels, a->u.targets.n * sizeof(uint32_t));
    case IR_ST_CALLTARGETS:
        if (a->u.calltargets.label != b->u.calltargets.label || a->u.calltargets.n != b->u.calltargets.n) return false;
        for (uint32_t i = 0; i < a->u.calltargets.n; i++)
            if (!streq(a->u.calltargets.funcs[i]->name, b->u.calltargets.funcs[i]->name)) return false;
        return true;
    case IR_ST_CALLPROTOTYPE:
        return a->u.proto.label == b->u.proto.label && func_eq(a->u.proto.proto, b->u.proto.proto);
    case IR_ST_PRAGMA: return streq(a->u.text, b->u.text);
    }
    return true;
}

static bool func_eq(const ir_func *a, const ir_func *b) {
    if (!streq(a->name, b->name) || a->is_entry != b->is_entry || a->noreturn != b->noreturn ||
        a->is_proto != b->is_proto || a->has_body != b->has_body || a->linkage != b->linkage ||
        a->nparams != b->nparams || a->nrets != b->nrets || memcmp(a->maxntid, b->maxntid, sizeof a->maxntid) ||
        memcmp(a->reqntid, b->reqntid, sizeof a->reqntid) || a->minnctapersm != b->minnctapersm ||
        a->maxnctapersm != b->maxnctapersm || a->maxnreg != b->maxnreg ||
        memcmp(a->reqnctapercluster, b->reqnctapercluster, sizeof a->reqnctapercluster) ||
        a->maxclusterrank != b->maxclusterrank || a->explicitcluster != b->explicitcluster ||
        a->npragmas != b->npragmas || a->nregs != b->nregs || a->nlocals != b->nlocals || a->nlabels != b->nlabels ||
        a->nbody != b->nbody)
        return false;
    if (!vars_eq(a->params, b->params, a->nparams) || !vars_eq(a->rets, b->rets, a->nrets) ||
        !vars_eq(a->locals, b->locals, a->nlocals))
        return false;
    for (uint32_t i = 0; i < a->npragmas; i++)
        if (!streq(a->pragmas[i], b->pragmas[i])) return false;
    for (uint32_t i = 0; i < a->nregs; i++)
        if (!streq(a->regs[i].name, b->regs[i].name) || a->regs[i].type != b->regs[i].type ||
            a->regs[i].vec != b->regs[i].vec || a->regs[i].scope != b->regs[i].scope)
            return false;
    for (uint32_t i = 0; i < a->nlabels; i++)
        if (!streq(a->labels[i].name, b->labels[i].name) || a->labels[i].stmt != b->labels[i].stmt) return false;
    for (uint32_t i = 0; i < a->nbody; i++)
        if (!stmt_eq(&a->body[i], &b->body[i])) return false;
    return true;
}

bool ir_equal(const ir_module *a, const ir_module *b) {
    if (a->version_major != b->version_major || a->version_minor != b->version_minor || a->ntargets != b->ntargets ||
        a->sm != b->sm || a->address_size != b->address_size || a->nfiles != b->nfiles || a->nglobals != b->nglobals ||
        a->nfuncs != b->nfuncs || a->nsections != b->nsections)
        return false;
    for (uint32_t i = 0; i < a->ntargets; i++)
        if (!streq(a->targets[i], b->targets[i])) return false;
    for (uint32_t i = 0; i < a->nfiles; i++)
        if (a->files[i].index != b->files[i].index || !streq(a->files[i].name, b->files[i].name) ||
            a->files[i].timestamp != b->files[i].timestamp || a->files[i].size != b->files[i].size)
            return false;
    for (uint32_t i = 0; i < a->nsections; i++)
        if (!streq(a->sections[i], b->sections[i])) return false;
    if (!vars_eq(a->globals, b->globals, a->nglobals)) return false;
    for (uint32_t i = 0; i < a->nfuncs; i++)
        if (!func_eq(a->funcs[i], b->funcs[i])) return false;
    return true;
}
