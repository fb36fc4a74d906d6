/* alu_key.c — the ALU's view of an instruction (alu_key, alu.h): made from the
 * IR at lowering time or from a mnemonic written as text, and the cursor the
 * family builders take modifiers and types from. */
#include <string.h>

#include "alu.h"

void alu_key_of(const ir_insn *in, alu_key *k) {
    memset(k, 0, sizeof *k);
    k->op = in->op;
    k->ntypes = in->ntypes;
    k->nmods = in->nmods;
    k->typemask = in->typemask;
    memcpy(k->types, in->types, sizeof k->types);
    memcpy(k->mods, in->mods, sizeof k->mods);
    if (ir_opcode_info[in->op].family != IR_FAM_VIDEO) return;
    for (uint32_t i = 0; i < in->nopnds && i < 4; i++) {
        const ir_operand *o = &in->opnds[i];
        if (o->kind != IR_OPND_REG) continue;
        k->sel[i] = o->sel;
        if (o->neg) k->neg |= (uint8_t)(1u << i);
    }
}

/* "h10", "-b2", "-": one selector of alu_key_parse's text form. */
static int parse_sel(const char *s, size_t n, alu_key *k, int slot) {
    if (n && *s == '-') k->neg |= (uint8_t)(1u << slot), s++, n--;
    if (!n) return 1;
    if ((*s != 'h' && *s != 'b') || n < 2 || n > 5) return 0;
    uint16_t v = *s == 'h' ? IR_SEL_HALF : 0;
    for (size_t i = 1; i < n; i++) {
        if (s[i] < '0' || s[i] > '7') return 0;
        v = (uint16_t)(v | (unsigned)(s[i] - '0') << 3 * (n - 1 - i));
    }
    k->sel[slot] = (uint16_t)(v | (n - 1) << 12);
    return 1;
}

int alu_key_parse(const char *mn, alu_key *k) {
    memset(k, 0, sizeof *k);
    const char *at = strchr(mn, '@'), *end = at ? at : mn + strlen(mn);
    size_t n = strcspn(mn, ".@");
    int op = ir_opcode_lookup(mn, n);
    if (op < 0) return 0;
    k->op = (uint16_t)op;
    for (const char *p = mn + n; p < end && *p == '.';) {
        const char *w = p + 1;
        size_t len = strcspn(w, ".@");
        int t = ir_type_lookup(w, len), m = t > 0 ? -1 : ir_mod_lookup(w, len);
        unsigned i = (unsigned)k->ntypes + k->nmods;
        if (t > 0 && k->ntypes < IR_MAX_TYPES) {
            k->typemask |= 1u << i;
            k->types[k->ntypes++] = (uint8_t)t;
        } else if (m > 0 && k->nmods < IR_MAX_MODS) {
            k->mods[k->nmods++] = (uint16_t)m;
        } else {
            return 0;
        }
        p = w + len;
    }
    for (const char *p = at; p && *p == '@';) {
        static const char slots[] = "dabc";
        const char *c = p[1] ? strchr(slots, p[1]) : NULL;
        if (!c || p[2] != '=') return 0;
        int slot = (int)(c - slots);
        const char *v = p + 3;
        size_t len = strcspn(v, "@");
        if (k->sel[slot] || (k->neg >> slot & 1) || !parse_sel(v, len, k, slot)) return 0;
        p = v + len;
    }
    return 1;
}

int alu_lookup_binop(int op, uint8_t type, alu_op *out) {
    alu_key k = {.op = (uint16_t)op, .ntypes = 1, .types = {type}, .typemask = 1};
    if (op == IR_OP_ADD) k.nmods = 1, k.mods[0] = IR_MOD_RN, k.typemask = 2; /* add.rn.T */
    else if (op != IR_OP_MIN && op != IR_OP_MAX) return 0;
    return alu_lookup_key(&k, 3, out);
}

bool alu_take(alu_mn *m, uint16_t mod) {
    for (int i = 0; i < m->k->nmods; i++)
        if (!(m->used >> i & 1) && m->k->mods[i] == mod) {
            m->used |= (uint16_t)(1u << i);
            return true;
        }
    return false;
}

int alu_take_any(alu_mn *m, const uint16_t *list) {
    for (int j = 0; list[j]; j++)
        if (alu_take(m, list[j])) return j;
    return -1;
}

int alu_take_type(alu_mn *m, const uint8_t *list) {
    for (int i = m->k->ntypes - 1; i >= 0; i--) {
        if (m->used_ty >> i & 1) continue;
        for (int j = 0; list[j]; j++)
            if (m->k->types[i] == list[j]) {
                m->used_ty |= (uint8_t)(1u << i);
                return j;
            }
    }
    return -1;
}

bool alu_done(const alu_mn *m) { return m->used == (1u << m->k->nmods) - 1 && m->used_ty == (1u << m->k->ntypes) - 1; }
