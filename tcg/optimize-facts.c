/*
 * What the optimiser knows about each temp while it walks an extended
 * block: a known constant value, the circular list of temps holding the
 * same value (QEMU's copy lists), and known zero/sign extensions; plus the
 * condition and op predicates the passes share.
 *
 * Invariants: every definition of a temp goes through opt_reset_temp()
 * (which unlinks it from its copy list, forgets its facts and gives it a
 * new seq); equal constants are one IR_TEMP_CONST temp per TB
 * (opt_canonical_const).
 */
#include <stdlib.h>
#include <string.h>

#include "optimize-internal.h"


/* Condition that gives the same answer with the operands swapped. */
IRCond opt_swap_cond(IRCond c)
{
    switch (c) {
    case IR_COND_LT:
        return IR_COND_GT;
    case IR_COND_GT:
        return IR_COND_LT;
    case IR_COND_GE:
        return IR_COND_LE;
    case IR_COND_LE:
        return IR_COND_GE;
    case IR_COND_LTU:
        return IR_COND_GTU;
    case IR_COND_GTU:
        return IR_COND_LTU;
    case IR_COND_GEU:
        return IR_COND_LEU;
    case IR_COND_LEU:
        return IR_COND_GEU;
    default:
        return c;
    }
}

/* Value of cond(x, x), or -1 when it depends on x. */
int opt_cond_same_operands(IRCond c)
{
    switch (c) {
    case IR_COND_NEVER:
    case IR_COND_NE:
    case IR_COND_LT:
    case IR_COND_GT:
    case IR_COND_LTU:
    case IR_COND_GTU:
        return 0;
    case IR_COND_ALWAYS:
    case IR_COND_EQ:
    case IR_COND_GE:
    case IR_COND_LE:
    case IR_COND_GEU:
    case IR_COND_LEU:
        return 1;
    default:
        return -1;
    }
}

/* One output computed from the inputs alone (mov .. ext32u). */
bool opt_op_is_pure(IROpcode op)
{
    switch (op) {
    case IR_ld8u:
    case IR_ld8s:
    case IR_ld16u:
    case IR_ld16s:
    case IR_ld32u:
    case IR_ld32s:
    case IR_ld64:
    case IR_movi:
        return false;
    default:
        return op < IR_NB_OPS && ir_op_info[op].flags == 0 && ir_op_info[op].nout == 1;
    }
}

bool opt_op_is_commutative(IROpcode op)
{
    return op == IR_add || op == IR_mul || op == IR_mulsh || op == IR_muluh || op == IR_and ||
           op == IR_or || op == IR_xor;
}

/* ------------------------------------------------------------------ */
/* Temp facts                                                          */
/* ------------------------------------------------------------------ */

/* @t's state at the start of an extended block. */
static void opt_init_temp(OptContext *s, IRTemp t)
{
    OptTemp *ts = &s->t[t];

    ts->next_copy = ts->prev_copy = t;
    ts->is_const = opt_temp_kind(s, t) == IR_TEMP_CONST;
    ts->val = ts->is_const ? (uint64_t)s->ir->temps[t].value : 0;
    ts->seq = 0;
    ts->zbits = ts->sbits = 64;
    ts->touched = false;
}

void opt_grow(OptContext *s)
{
    unsigned n = s->ir->ntemps;

    if (n > s->tcap) {
        unsigned cap = s->tcap ? s->tcap : 64;
        while (cap < n) {
            cap *= 2;
        }
        s->t = realloc(s->t, cap * sizeof(*s->t));
        if (!s->t) {
            abort();
        }
        s->tcap = cap;
    }
    /* Temps added since (constants made by the pass) start fresh. */
    for (unsigned i = s->ninit; i < n; i++) {
        opt_init_temp(s, i);
    }
    s->ninit = n;
}

/* @t's facts are about to change: remember to undo that at the next label. */
static void opt_touch(OptContext *s, IRTemp t)
{
    if (!s->t[t].touched) {
        s->t[t].touched = true;
        if (s->ntouched == s->touched_cap) {
            s->touched_cap = s->touched_cap ? 2 * s->touched_cap : 64;
            s->touched = realloc(s->touched, s->touched_cap * sizeof(*s->touched));
            if (!s->touched) {
                abort();
            }
        }
        s->touched[s->ntouched++] = t;
    }
}


static int opt_temp_rank(const OptContext *s, IRTemp t)
{
    switch (opt_temp_kind(s, t)) {
    case IR_TEMP_CONST:
        return OPT_RANK_CONST;
    case IR_TEMP_FIXED:
        return OPT_RANK_FIXED;
    case IR_TEMP_GLOBAL:
        return OPT_RANK_GLOBAL;
    default:
        return OPT_RANK_LOCAL;
    }
}

/* Forget everything about @t (it is being redefined). */
void opt_reset_temp(OptContext *s, IRTemp t)
{
    OptTemp *ts = &s->t[t];

    s->t[ts->prev_copy].next_copy = ts->next_copy;
    s->t[ts->next_copy].prev_copy = ts->prev_copy;
    ts->next_copy = ts->prev_copy = t;
    ts->is_const = opt_temp_kind(s, t) == IR_TEMP_CONST;
    ts->val = ts->is_const ? (uint64_t)s->ir->temps[t].value : 0;
    ts->seq = s->seq++;
    ts->zbits = ts->sbits = 64;
    opt_touch(s, t);
}

/* Empty the common-subexpression table: a new generation. */
void opt_next_expr_gen(OptContext *s)
{
    if (++s->expr_gen == 0) {
        /* Wrapped: entries may carry any number; clear them once. */
        memset(s->exprs, 0, s->exprs_alloc * sizeof(*s->exprs));
        s->expr_gen = 1;
    }
}

void opt_reset_all(OptContext *s, bool full)
{
    opt_next_expr_gen(s);
    if (full) {
        unsigned ng = s->ir->nglobals;
        if (s->globals_init == ng) {
            /* The globals not touched since they were last initialised
             * (an earlier pass or TB: the OptContext is kept) still are
             * as initialised; every other temp starts afresh. */
            for (unsigned i = 0; i < s->ntouched; i++) {
                if (s->touched[i] < ng) {
                    opt_init_temp(s, s->touched[i]);
                }
            }
            s->ninit = ng;
        } else {
            s->ninit = 0;
            s->globals_init = ng;
        }
        opt_grow(s);
    } else {
        /* Only temps whose facts changed since the last reset differ
         * from their initial state. */
        for (unsigned i = 0; i < s->ntouched; i++) {
            opt_init_temp(s, s->touched[i]);
        }
    }
    s->ntouched = 0;
}

void opt_reset_globals(OptContext *s)
{
    for (unsigned i = 0; i < s->ir->nglobals && i < s->ir->ntemps; i++) {
        if (opt_temp_kind(s, i) == IR_TEMP_GLOBAL) {
            opt_reset_temp(s, i);
        }
    }
}

/* A host store of @size bytes at env + @off: forget the globals it hits. */
void opt_reset_globals_at(OptContext *s, int64_t off, unsigned size)
{
    for (unsigned i = 0; i < s->ir->nglobals && i < s->ir->ntemps; i++) {
        const IRTempInfo *ti = &s->ir->temps[i];
        if (ti->kind == IR_TEMP_GLOBAL && off < (int64_t)ti->env_offset + 8 &&
            (int64_t)ti->env_offset < off + (int64_t)size) {
            opt_reset_temp(s, i);
        }
    }
}

/* The one IR_TEMP_CONST temp of this TB that stands for @v: @have (an
 * existing constant temp of that value, or IR_NO_TEMP) becomes it when
 * the value is new, else a new constant temp is made. */
IRTemp opt_canonical_const(OptContext *s, uint64_t v, IRTemp have)
{
    if (s->consts_used * 2 >= s->consts_cap) {
        unsigned old_cap = s->consts_cap;
        OptConstEntry *old = s->consts;
        s->consts_cap = old_cap ? old_cap * 2 : 64;
        s->consts = malloc(s->consts_cap * sizeof(*s->consts));
        if (!s->consts) {
            abort();
        }
        for (unsigned i = 0; i < s->consts_cap; i++) {
            s->consts[i].temp = IR_NO_TEMP;
            s->consts[i].gen = 0;
        }
        s->consts_used = 0;
        for (unsigned i = 0; i < old_cap; i++) {
            if (old[i].gen == s->const_gen && old[i].temp != IR_NO_TEMP) {
                unsigned h = (unsigned)((old[i].value * 0x9e3779b97f4a7c15ull) >> 40);
                while (s->consts[h & (s->consts_cap - 1)].gen == s->const_gen) {
                    h++;
                }
                s->consts[h & (s->consts_cap - 1)] = old[i];
                s->consts_used++;
            }
        }
        free(old);
    }
    unsigned h = (unsigned)((v * 0x9e3779b97f4a7c15ull) >> 40);
    for (;; h++) {
        OptConstEntry *e = &s->consts[h & (s->consts_cap - 1)];
        if (e->gen != s->const_gen) {
            e->value = v;
            e->gen = s->const_gen;
            e->temp = have != IR_NO_TEMP ? have : ir_const(s->ir, (int64_t)v);
            s->consts_used++;
            opt_grow(s);
            s->t[e->temp].is_const = true;
            s->t[e->temp].val = v;
            return e->temp;
        }
        if (e->value == v) {
            return e->temp;
        }
    }
}

/* The temp that best stands for @t's current value.  Equal constants
 * become one temp, so common subexpressions see them as the same input. */
IRTemp opt_best_copy(OptContext *s, IRTemp t)
{
    if (s->t[t].is_const) {
        return opt_canonical_const(s, s->t[t].val,
                               opt_temp_kind(s, t) == IR_TEMP_CONST ? t : IR_NO_TEMP);
    }
    IRTemp best = t;
    for (IRTemp c = s->t[t].next_copy; c != t; c = s->t[c].next_copy) {
        int rc = opt_temp_rank(s, c), rb = opt_temp_rank(s, best);
        if (rc > rb || (rc == rb && s->t[c].seq < s->t[best].seq)) {
            best = c;
        }
    }
    return best;
}

/* ------------------------------------------------------------------ */
/* Known extensions                                                    */
/* ------------------------------------------------------------------ */

/* Bits needed to hold @v zero-extended / sign-extended. */
unsigned opt_zbits_of(uint64_t v)
{
    return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

static unsigned opt_sbits_of(uint64_t v)
{
    uint64_t x = v ^ (uint64_t)((int64_t)v >> 63);

    return x ? 65 - (unsigned)__builtin_clzll(x) : 1;
}

unsigned opt_temp_zbits(const OptContext *s, IRTemp t)
{
    return s->t[t].is_const ? opt_zbits_of(s->t[t].val) : s->t[t].zbits;
}

unsigned opt_temp_sbits(const OptContext *s, IRTemp t)
{
    return s->t[t].is_const ? opt_sbits_of(s->t[t].val) : s->t[t].sbits;
}

void opt_set_ext(OptContext *s, IRTemp d, unsigned zbits, unsigned sbits)
{
    /* A value that fits in z bits zero-extended fits in z + 1 signed. */
    if (zbits < 64 && sbits > zbits + 1) {
        sbits = zbits + 1;
    }
    s->t[d].zbits = (uint8_t)(zbits < 64 ? zbits : 64);
    s->t[d].sbits = (uint8_t)(sbits < 64 ? sbits : 64);
}

static unsigned opt_umax(unsigned a, unsigned b)
{
    return a > b ? a : b;
}

static unsigned opt_umin(unsigned a, unsigned b)
{
    return a < b ? a : b;
}

/* Width in bits of a load (ld*, qemu_ld), and whether it sign-extends. */
bool opt_load_width(const IRInsn *insn, unsigned *bits, bool *sign)
{
    switch (insn->op) {
    case IR_ld8u:
    case IR_ld8s:
        *bits = 8;
        *sign = insn->op == IR_ld8s;
        return true;
    case IR_ld16u:
    case IR_ld16s:
        *bits = 16;
        *sign = insn->op == IR_ld16s;
        return true;
    case IR_ld32u:
    case IR_ld32s:
        *bits = 32;
        *sign = insn->op == IR_ld32s;
        return true;
    case IR_qemu_ld:
        *bits = 8u << (insn->args[2] & IR_MO_SIZE);
        *sign = (insn->args[2] & IR_MO_SIGN) != 0;
        return *bits < 64;
    default:
        return false;
    }
}

/* Width of extension op @op (ext8s .. ext32u), or 0. */
unsigned opt_ext_width(IROpcode op, bool *sign)
{
    *sign = op == IR_ext8s || op == IR_ext16s || op == IR_ext32s;
    switch (op) {
    case IR_ext8s:
    case IR_ext8u:
        return 8;
    case IR_ext16s:
    case IR_ext16u:
        return 16;
    case IR_ext32s:
    case IR_ext32u:
        return 32;
    default:
        return 0;
    }
}

/* Record what is known about the extension of pure op @insn's result. */
void opt_pure_ext_facts(OptContext *s, const IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0];
    IRTemp a = insn->nin ? (IRTemp)insn->args[1] : d;
    IRTemp b = insn->nin > 1 ? (IRTemp)insn->args[2] : d;
    unsigned w;
    bool sign;

    switch (insn->op) {
    case IR_setcond:
        opt_set_ext(s, d, 1, 2);
        return;
    case IR_clz:
    case IR_ctz:
    case IR_ctpop:
        opt_set_ext(s, d, 7, 8);
        return;
    case IR_and:
        opt_set_ext(s, d, opt_umin(opt_temp_zbits(s, a), opt_temp_zbits(s, b)),
                opt_umax(opt_temp_sbits(s, a), opt_temp_sbits(s, b)));
        return;
    case IR_or:
    case IR_xor:
        opt_set_ext(s, d, opt_umax(opt_temp_zbits(s, a), opt_temp_zbits(s, b)),
                opt_umax(opt_temp_sbits(s, a), opt_temp_sbits(s, b)));
        return;
    case IR_movcond: {
        IRTemp vt = (IRTemp)insn->args[3], vf = (IRTemp)insn->args[4];
        opt_set_ext(s, d, opt_umax(opt_temp_zbits(s, vt), opt_temp_zbits(s, vf)),
                opt_umax(opt_temp_sbits(s, vt), opt_temp_sbits(s, vf)));
        return;
    }
    case IR_shr:
        if (s->t[b].is_const && (s->t[b].val & 63)) {
            unsigned c = (unsigned)(s->t[b].val & 63);
            unsigned z = opt_temp_zbits(s, a);
            opt_set_ext(s, d, z > c ? opt_umin(z - c, 64 - c) : 0, 64);
        }
        return;
    default:
        w = opt_ext_width((IROpcode)insn->op, &sign);
        if (w) {
            opt_set_ext(s, d, sign ? 64 : w, sign ? w : 64);
        }
        return;
    }
}

/* @d becomes a copy of @src. */
void opt_set_copy(OptContext *s, IRTemp d, IRTemp src)
{
    opt_reset_temp(s, d);
    if (s->t[src].is_const) {
        s->t[d].is_const = true;
        s->t[d].val = s->t[src].val;
        return;
    }
    opt_touch(s, src); /* its list changes (the other members are touched) */
    OptTemp *ds = &s->t[d], *ss = &s->t[src];
    ds->next_copy = ss->next_copy;
    ds->prev_copy = src;
    s->t[ss->next_copy].prev_copy = d;
    ss->next_copy = d;
    ds->zbits = ss->zbits;
    ds->sbits = ss->sbits;
}

void opt_set_const(OptContext *s, IRTemp d, uint64_t v)
{
    opt_reset_temp(s, d);
    s->t[d].is_const = true;
    s->t[d].val = v;
}

bool opt_same_value(const OptContext *s, IRTemp a, IRTemp b)
{
    if (a == b) {
        return true;
    }
    if (s->t[a].is_const && s->t[b].is_const) {
        return s->t[a].val == s->t[b].val;
    }
    for (IRTemp c = s->t[a].next_copy; c != a; c = s->t[c].next_copy) {
        if (c == b) {
            return true;
        }
    }
    return false;
}

