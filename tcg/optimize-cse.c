/*
 * Common subexpression elimination for the optimiser: a pure op whose
 * inputs are the same temps, unchanged since an earlier op computed the
 * same thing into a temp that still holds it, becomes a copy of that temp.
 * "Unchanged" is checked with the seq numbers opt_reset_temp() hands out
 * at every definition; the table is emptied (by generation) at labels.
 */
#include <string.h>

#include "optimize-internal.h"

/* ------------------------------------------------------------------ */
/* Common subexpressions                                               */
/* ------------------------------------------------------------------ */

static void expr_key(const OptContext *s, const IRInsn *insn, OptExpr *k)
{
    memset(k, 0, sizeof(*k));
    k->op = insn->op;
    k->nin = insn->nin;
    if (insn->op == IR_setcond || insn->op == IR_movcond) {
        k->cond = (uint8_t)insn->args[1 + insn->nin];
    }
    for (unsigned i = 0; i < insn->nin && i < 4; i++) {
        k->in[i] = (IRTemp)insn->args[1 + i];
    }
    if (opt_op_is_commutative((IROpcode)insn->op) && k->in[0] > k->in[1]) {
        IRTemp t = k->in[0];
        k->in[0] = k->in[1];
        k->in[1] = t;
    }
    for (unsigned i = 0; i < k->nin && i < 4; i++) {
        k->in_seq[i] = s->t[k->in[i]].seq;
    }
}

static unsigned expr_hash(const OptExpr *k)
{
    uint64_t h = k->op * 0x9e3779b97f4a7c15ull + k->cond;

    for (unsigned i = 0; i < k->nin; i++) {
        h = (h ^ (k->in[i] + ((uint64_t)k->in_seq[i] << 32))) * 0xbf58476d1ce4e5b9ull;
    }
    return (unsigned)(h >> 32);
}

static bool expr_same(const OptExpr *a, const OptExpr *b)
{
    if (a->op != b->op || a->cond != b->cond || a->nin != b->nin) {
        return false;
    }
    for (unsigned i = 0; i < a->nin; i++) {
        if (a->in[i] != b->in[i] || a->in_seq[i] != b->in_seq[i]) {
            return false;
        }
    }
    return true;
}

/* The temp that still holds the value of the op described by @k, or
 * IR_NO_TEMP. */
static IRTemp expr_find(OptContext *s, const OptExpr *k)
{
    unsigned h = expr_hash(k);

    for (unsigned p = 0; p < OPT_EXPR_PROBES; p++) {
        OptExpr *e = &s->exprs[(h + p) & (s->exprs_cap - 1)];
        if (e->gen != s->expr_gen) {
            /* Empty: entries are only emptied all at once (a new
             * generation), and insertion takes the first empty or stale
             * slot, so nothing of this key lies further on. */
            break;
        }
        if (expr_same(e, k) && s->t[e->out].seq == e->out_seq) {
            return e->out;
        }
    }
    return IR_NO_TEMP;
}

static void expr_record(OptContext *s, const OptExpr *k, IRTemp out)
{
    unsigned h = expr_hash(k);
    OptExpr *slot = &s->exprs[h & (s->exprs_cap - 1)];

    for (unsigned p = 0; p < OPT_EXPR_PROBES; p++) {
        OptExpr *e = &s->exprs[(h + p) & (s->exprs_cap - 1)];
        if (e->gen != s->expr_gen || s->t[e->out].seq != e->out_seq) {
            slot = e;
            break;
        }
    }
    *slot = *k;
    slot->gen = s->expr_gen;
    slot->out = out;
    slot->out_seq = s->t[out].seq;
}

/* A pure op that stays: reuse an earlier identical computation, or
 * remember this one.  Returns true when the op was rewritten. */
bool opt_cse(OptContext *s, IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0];
    OptExpr k;

    expr_key(s, insn, &k);
    IRTemp prev = expr_find(s, &k);
    if (prev != IR_NO_TEMP) {
        opt_make_mov(s, insn, prev);
        return true;
    }
    opt_reset_temp(s, d);
    for (unsigned i = 0; i < k.nin; i++) {
        if (k.in[i] == d) {
            return false; /* "t = t op x": the inputs changed */
        }
    }
    expr_record(s, &k, d);
    return false;
}

