/*
 * IR optimiser (see tcg/optimize.h for the contract).
 *
 * Structure:
 *   - ir_fold_op()/ir_eval_cond() (optimize-fold.c): the value of every
 *     pure op on constants;
 *   - forward pass (opt_forward): per extended basic block (facts survive
 *     brcond on the fall-through path and die at set_label) it tracks which
 *     temps hold known constants and which temps are copies of each other
 *     (circular lists, QEMU-style), rewrites inputs to the best equal temp,
 *     folds and simplifies, reuses earlier identical pure computations
 *     (a table keyed by op and input versions), decides branches and drops
 *     unreachable code;
 *   - backward pass (opt_dead_code): liveness of local temps; ops without
 *     side effects whose outputs are all dead locals are removed;
 *   - compaction of the op list.
 * The passes run again while branches or labels disappear (at most
 * OPT_MAX_ROUNDS times): that is what can expose more to fold.
 *
 * Invariants kept: globals and the env temp are never removed as outputs
 * (they are observable); facts about globals are forgotten at helper calls
 * that may write globals and at host stores into their env field; a copy
 * of a temp is never used after that temp was redefined or discarded.
 */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

#define OPT_MAX_ROUNDS 4
#define OPT_NO_LABEL UINT32_MAX

/* Rank of a temp as the representative of a copy class (higher wins). */
enum {
    OPT_RANK_LOCAL = 0,
    OPT_RANK_GLOBAL = 1,
    OPT_RANK_FIXED = 2,
    OPT_RANK_CONST = 3,
};

typedef struct OptTemp {
    bool is_const;
    uint64_t val;
    IRTemp next_copy, prev_copy; /* circular list of temps holding equal values */
    uint32_t seq;                /* definition order (older = smaller) */
    /* Known extension: the value is the zero-extension of its low zbits
     * bits and the sign-extension of its low sbits bits (64: unknown). */
    uint8_t zbits, sbits;
} OptTemp;

typedef struct OptConstEntry {
    uint64_t value;
    IRTemp temp; /* IR_NO_TEMP: empty */
} OptConstEntry;

/* A pure op computed earlier: valid while none of its temps changed
 * (each definition of a temp gives it a new seq). */
typedef struct OptExpr {
    uint32_t gen;
    uint16_t op;
    uint8_t cond;
    uint8_t nin;
    IRTemp in[4];
    uint32_t in_seq[4];
    IRTemp out;
    uint32_t out_seq;
} OptExpr;

#define OPT_EXPR_PROBES 8

typedef struct OptContext {
    IRContext *ir;
    OptTemp *t;
    unsigned tcap;
    uint32_t seq;
    unsigned *label_refs; /* references by live br/brcond, per label */
    OptConstEntry *consts;   /* open-addressing cache value -> const temp */
    unsigned consts_cap, consts_used;
    bool changed;
    bool cfg_changed; /* a branch or label went: another round may find more */
    /* Common subexpressions of the current extended block. */
    OptExpr *exprs;
    unsigned exprs_cap; /* power of two */
    uint32_t expr_gen;  /* entries of other generations are empty */
} OptContext;

/* Condition that gives the same answer with the operands swapped. */
static IRCond swap_cond(IRCond c)
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
static int cond_same_operands(IRCond c)
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
static bool op_is_pure(IROpcode op)
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

static bool op_is_commutative(IROpcode op)
{
    return op == IR_add || op == IR_mul || op == IR_mulsh || op == IR_muluh || op == IR_and ||
           op == IR_or || op == IR_xor;
}

/* ------------------------------------------------------------------ */
/* Temp facts                                                          */
/* ------------------------------------------------------------------ */

static void opt_grow(OptContext *s)
{
    unsigned n = s->ir->ntemps;

    if (n <= s->tcap) {
        return;
    }
    unsigned cap = s->tcap ? s->tcap : 64;
    while (cap < n) {
        cap *= 2;
    }
    s->t = realloc(s->t, cap * sizeof(*s->t));
    if (!s->t) {
        abort();
    }
    for (unsigned i = s->tcap; i < cap; i++) {
        s->t[i] = (OptTemp){ .next_copy = i, .prev_copy = i, .zbits = 64, .sbits = 64 };
    }
    s->tcap = cap;
}

static IRTempKind temp_kind(const OptContext *s, IRTemp t)
{
    return (IRTempKind)s->ir->temps[t].kind;
}

static int temp_rank(const OptContext *s, IRTemp t)
{
    switch (temp_kind(s, t)) {
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
static void reset_temp(OptContext *s, IRTemp t)
{
    OptTemp *ts = &s->t[t];

    s->t[ts->prev_copy].next_copy = ts->next_copy;
    s->t[ts->next_copy].prev_copy = ts->prev_copy;
    ts->next_copy = ts->prev_copy = t;
    ts->is_const = temp_kind(s, t) == IR_TEMP_CONST;
    ts->val = ts->is_const ? (uint64_t)s->ir->temps[t].value : 0;
    ts->seq = s->seq++;
    ts->zbits = ts->sbits = 64;
}

static void reset_all(OptContext *s)
{
    s->expr_gen++;
    for (unsigned i = 0; i < s->ir->ntemps; i++) {
        s->t[i].next_copy = s->t[i].prev_copy = i;
        s->t[i].is_const = temp_kind(s, i) == IR_TEMP_CONST;
        s->t[i].val = s->t[i].is_const ? (uint64_t)s->ir->temps[i].value : 0;
        s->t[i].seq = 0;
        s->t[i].zbits = s->t[i].sbits = 64;
    }
}

static void reset_globals(OptContext *s)
{
    for (unsigned i = 0; i < s->ir->ntemps; i++) {
        if (temp_kind(s, i) == IR_TEMP_GLOBAL) {
            reset_temp(s, i);
        }
    }
}

/* A host store of @size bytes at env + @off: forget the globals it hits. */
static void reset_globals_at(OptContext *s, int64_t off, unsigned size)
{
    for (unsigned i = 0; i < s->ir->ntemps; i++) {
        const IRTempInfo *ti = &s->ir->temps[i];
        if (ti->kind == IR_TEMP_GLOBAL && off < (int64_t)ti->env_offset + 8 &&
            (int64_t)ti->env_offset < off + (int64_t)size) {
            reset_temp(s, i);
        }
    }
}

/* The one IR_TEMP_CONST temp of this TB that stands for @v: @have (an
 * existing constant temp of that value, or IR_NO_TEMP) becomes it when
 * the value is new, else a new constant temp is made. */
static IRTemp canonical_const(OptContext *s, uint64_t v, IRTemp have)
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
        }
        s->consts_used = 0;
        for (unsigned i = 0; i < old_cap; i++) {
            if (old[i].temp != IR_NO_TEMP) {
                unsigned h = (unsigned)((old[i].value * 0x9e3779b97f4a7c15ull) >> 40);
                while (s->consts[h & (s->consts_cap - 1)].temp != IR_NO_TEMP) {
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
        if (e->temp == IR_NO_TEMP) {
            e->value = v;
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
static IRTemp best_copy(OptContext *s, IRTemp t)
{
    if (s->t[t].is_const) {
        return canonical_const(s, s->t[t].val,
                               temp_kind(s, t) == IR_TEMP_CONST ? t : IR_NO_TEMP);
    }
    IRTemp best = t;
    for (IRTemp c = s->t[t].next_copy; c != t; c = s->t[c].next_copy) {
        int rc = temp_rank(s, c), rb = temp_rank(s, best);
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
static unsigned zbits_of(uint64_t v)
{
    return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

static unsigned sbits_of(uint64_t v)
{
    uint64_t x = v ^ (uint64_t)((int64_t)v >> 63);

    return x ? 65 - (unsigned)__builtin_clzll(x) : 1;
}

static unsigned temp_zbits(const OptContext *s, IRTemp t)
{
    return s->t[t].is_const ? zbits_of(s->t[t].val) : s->t[t].zbits;
}

static unsigned temp_sbits(const OptContext *s, IRTemp t)
{
    return s->t[t].is_const ? sbits_of(s->t[t].val) : s->t[t].sbits;
}

static void set_ext(OptContext *s, IRTemp d, unsigned zbits, unsigned sbits)
{
    /* A value that fits in z bits zero-extended fits in z + 1 signed. */
    if (zbits < 64 && sbits > zbits + 1) {
        sbits = zbits + 1;
    }
    s->t[d].zbits = (uint8_t)(zbits < 64 ? zbits : 64);
    s->t[d].sbits = (uint8_t)(sbits < 64 ? sbits : 64);
}

static unsigned umax(unsigned a, unsigned b)
{
    return a > b ? a : b;
}

static unsigned umin(unsigned a, unsigned b)
{
    return a < b ? a : b;
}

/* Width in bits of a load (ld*, qemu_ld), and whether it sign-extends. */
static bool load_width(const IRInsn *insn, unsigned *bits, bool *sign)
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
static unsigned ext_width(IROpcode op, bool *sign)
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
static void pure_ext_facts(OptContext *s, const IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0];
    IRTemp a = insn->nin ? (IRTemp)insn->args[1] : d;
    IRTemp b = insn->nin > 1 ? (IRTemp)insn->args[2] : d;
    unsigned w;
    bool sign;

    switch (insn->op) {
    case IR_setcond:
        set_ext(s, d, 1, 2);
        return;
    case IR_clz:
    case IR_ctz:
    case IR_ctpop:
        set_ext(s, d, 7, 8);
        return;
    case IR_and:
        set_ext(s, d, umin(temp_zbits(s, a), temp_zbits(s, b)),
                umax(temp_sbits(s, a), temp_sbits(s, b)));
        return;
    case IR_or:
    case IR_xor:
        set_ext(s, d, umax(temp_zbits(s, a), temp_zbits(s, b)),
                umax(temp_sbits(s, a), temp_sbits(s, b)));
        return;
    case IR_movcond: {
        IRTemp vt = (IRTemp)insn->args[3], vf = (IRTemp)insn->args[4];
        set_ext(s, d, umax(temp_zbits(s, vt), temp_zbits(s, vf)),
                umax(temp_sbits(s, vt), temp_sbits(s, vf)));
        return;
    }
    case IR_shr:
        if (s->t[b].is_const && (s->t[b].val & 63)) {
            unsigned c = (unsigned)(s->t[b].val & 63);
            unsigned z = temp_zbits(s, a);
            set_ext(s, d, z > c ? umin(z - c, 64 - c) : 0, 64);
        }
        return;
    default:
        w = ext_width((IROpcode)insn->op, &sign);
        if (w) {
            set_ext(s, d, sign ? 64 : w, sign ? w : 64);
        }
        return;
    }
}

/* An extension (or and-mask) of a value that is already extended that
 * way is a copy.  Returns true when the op became a mov. */
static bool simplify_extension(OptContext *s, IRInsn *insn);

/* @d becomes a copy of @src. */
static void set_copy(OptContext *s, IRTemp d, IRTemp src)
{
    reset_temp(s, d);
    if (s->t[src].is_const) {
        s->t[d].is_const = true;
        s->t[d].val = s->t[src].val;
        return;
    }
    OptTemp *ds = &s->t[d], *ss = &s->t[src];
    ds->next_copy = ss->next_copy;
    ds->prev_copy = src;
    s->t[ss->next_copy].prev_copy = d;
    ss->next_copy = d;
    ds->zbits = ss->zbits;
    ds->sbits = ss->sbits;
}

static void set_const(OptContext *s, IRTemp d, uint64_t v)
{
    reset_temp(s, d);
    s->t[d].is_const = true;
    s->t[d].val = v;
}

static bool same_value(const OptContext *s, IRTemp a, IRTemp b)
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

/* ------------------------------------------------------------------ */
/* Rewriting ops                                                       */
/* ------------------------------------------------------------------ */

static void make_movi(OptContext *s, IRInsn *insn, uint64_t v)
{
    IRTemp d = (IRTemp)insn->args[0];

    insn->op = IR_movi;
    insn->nout = 1;
    insn->nin = 0;
    insn->nconst = 1;
    insn->args[1] = v;
    set_const(s, d, v);
    s->changed = true;
}

static void make_mov(OptContext *s, IRInsn *insn, IRTemp src)
{
    IRTemp d = (IRTemp)insn->args[0];

    s->changed = true;
    if (d == src) {
        insn->dead = 1;
        return;
    }
    insn->op = IR_mov;
    insn->nout = 1;
    insn->nin = 1;
    insn->nconst = 0;
    insn->args[1] = src;
    set_copy(s, d, src);
}

static void kill_insn(OptContext *s, IRInsn *insn)
{
    if (ir_op_info[insn->op].flags & (IR_F_BB_END | IR_F_LABEL)) {
        s->cfg_changed = true;
    }
    if ((insn->op == IR_br || insn->op == IR_brcond) && !insn->dead) {
        uint64_t l = insn->op == IR_br ? insn->args[0] : insn->args[insn->nin + 1];
        if (l < s->ir->nlabels && s->label_refs[l]) {
            s->label_refs[l]--;
        }
    }
    insn->dead = 1;
    s->changed = true;
}

static bool is_const(const OptContext *s, IRTemp t)
{
    return s->t[t].is_const;
}

static uint64_t cval(const OptContext *s, IRTemp t)
{
    return s->t[t].val;
}

/* Algebraic identities of a two-input op with @b (or @a) constant.
 * Returns true when the op was rewritten. */
static bool simplify_binary(OptContext *s, IRInsn *insn)
{
    IROpcode op = (IROpcode)insn->op;
    IRTemp a = (IRTemp)insn->args[1], b = (IRTemp)insn->args[2];

    if (same_value(s, a, b)) {
        switch (op) {
        case IR_sub:
        case IR_xor:
        case IR_andc:
            make_movi(s, insn, 0);
            return true;
        case IR_and:
        case IR_or:
            make_mov(s, insn, a);
            return true;
        default:
            break;
        }
    }
    if (!is_const(s, b)) {
        return false;
    }
    uint64_t v = cval(s, b);
    switch (op) {
    case IR_add:
    case IR_sub:
    case IR_or:
    case IR_xor:
    case IR_andc:
        if (v == 0) {
            make_mov(s, insn, a);
            return true;
        }
        if (op == IR_or && v == UINT64_MAX) {
            make_movi(s, insn, UINT64_MAX);
            return true;
        }
        if (op == IR_andc && v == UINT64_MAX) {
            make_movi(s, insn, 0);
            return true;
        }
        break;
    case IR_shl:
    case IR_shr:
    case IR_sar:
    case IR_rotr:
        if ((v & 63) == 0) {
            make_mov(s, insn, a);
            return true;
        }
        break;
    case IR_and:
        if (v == UINT64_MAX) {
            make_mov(s, insn, a);
            return true;
        }
        if (v == 0) {
            make_movi(s, insn, 0);
            return true;
        }
        break;
    case IR_mul:
        if (v == 1) {
            make_mov(s, insn, a);
            return true;
        }
        if (v == 0) {
            make_movi(s, insn, 0);
            return true;
        }
        break;
    case IR_mulsh:
        if (v == 0) {
            make_movi(s, insn, 0);
            return true;
        }
        break;
    case IR_muluh:
        if (v == 0 || v == 1) {
            make_movi(s, insn, 0);
            return true;
        }
        break;
    default:
        break;
    }
    return false;
}

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
    if (op_is_commutative((IROpcode)insn->op) && k->in[0] > k->in[1]) {
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
        if (e->gen == s->expr_gen && expr_same(e, k) && s->t[e->out].seq == e->out_seq) {
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
static bool opt_cse(OptContext *s, IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0];
    OptExpr k;

    expr_key(s, insn, &k);
    IRTemp prev = expr_find(s, &k);
    if (prev != IR_NO_TEMP) {
        make_mov(s, insn, prev);
        return true;
    }
    reset_temp(s, d);
    for (unsigned i = 0; i < k.nin; i++) {
        if (k.in[i] == d) {
            return false; /* "t = t op x": the inputs changed */
        }
    }
    expr_record(s, &k, d);
    return false;
}

static bool simplify_extension(OptContext *s, IRInsn *insn)
{
    IRTemp a = (IRTemp)insn->args[1];
    bool sign;
    unsigned w = ext_width((IROpcode)insn->op, &sign);

    if (w) {
        if (sign ? temp_sbits(s, a) <= w : temp_zbits(s, a) <= w) {
            make_mov(s, insn, a);
            return true;
        }
        return false;
    }
    if (insn->op == IR_and && s->t[insn->args[2]].is_const) {
        uint64_t m = s->t[insn->args[2]].val;
        if ((m & (m + 1)) == 0 && temp_zbits(s, a) <= zbits_of(m)) {
            make_mov(s, insn, a); /* the mask keeps every bit that can be set */
            return true;
        }
    }
    return false;
}

/* A pure op with one output: fold, simplify, or record the output. */
static void opt_pure(OptContext *s, IRInsn *insn)
{
    IROpcode op = (IROpcode)insn->op;
    IRTemp d = (IRTemp)insn->args[0];
    uint64_t in[4] = { 0 };
    bool all_const = true;
    IRCond cond = IR_COND_NEVER;

    if (op == IR_setcond || op == IR_movcond) {
        cond = (IRCond)insn->args[1 + insn->nin];
    }
    /* Put a constant operand second: the backend encodes it as an immediate. */
    if (insn->nin >= 2 && is_const(s, (IRTemp)insn->args[1]) &&
        !is_const(s, (IRTemp)insn->args[2])) {
        if (op_is_commutative(op) || op == IR_setcond || op == IR_movcond) {
            uint64_t t = insn->args[1];
            insn->args[1] = insn->args[2];
            insn->args[2] = t;
            if (op == IR_setcond || op == IR_movcond) {
                cond = swap_cond(cond);
                insn->args[1 + insn->nin] = cond;
            }
            s->changed = true;
        }
    }
    for (unsigned i = 0; i < insn->nin; i++) {
        IRTemp t = (IRTemp)insn->args[1 + i];
        all_const &= is_const(s, t);
        in[i] = cval(s, t);
    }
    if (op == IR_movcond) {
        IRTemp a = (IRTemp)insn->args[1], b = (IRTemp)insn->args[2];
        IRTemp vt = (IRTemp)insn->args[3], vf = (IRTemp)insn->args[4];
        int same = same_value(s, a, b) ? cond_same_operands(cond) : -1;
        if (cond == IR_COND_ALWAYS || cond == IR_COND_NEVER) {
            same = cond == IR_COND_ALWAYS;
        } else if (is_const(s, a) && is_const(s, b)) {
            same = ir_eval_cond(cond, in[0], in[1]);
        }
        if (same >= 0) {
            make_mov(s, insn, same ? vt : vf);
            return;
        }
        if (same_value(s, vt, vf)) {
            make_mov(s, insn, vt);
            return;
        }
        if (!opt_cse(s, insn)) {
            pure_ext_facts(s, insn);
        }
        return;
    }
    if (op == IR_setcond) {
        int same = same_value(s, (IRTemp)insn->args[1], (IRTemp)insn->args[2])
                       ? cond_same_operands(cond) : -1;
        if (cond == IR_COND_ALWAYS || cond == IR_COND_NEVER) {
            same = cond == IR_COND_ALWAYS;
        }
        if (same >= 0) {
            make_movi(s, insn, (uint64_t)same);
            return;
        }
    }
    if (op == IR_mov) {
        IRTemp src = (IRTemp)insn->args[1];
        if (same_value(s, d, src)) {
            kill_insn(s, insn);
            return;
        }
        set_copy(s, d, src);
        return;
    }
    uint64_t v;
    if (all_const && ir_fold_op(op, cond, in, &v)) {
        make_movi(s, insn, v);
        return;
    }
    if (insn->nin == 2 && op != IR_setcond && simplify_binary(s, insn)) {
        return;
    }
    if (simplify_extension(s, insn)) {
        return;
    }
    if (!opt_cse(s, insn)) {
        pure_ext_facts(s, insn);
    }
}

/* brcond: decide it when possible.  Returns true when the code after it
 * became unreachable (it turned into br). */
static bool opt_brcond(OptContext *s, IRInsn *insn)
{
    IRTemp a = (IRTemp)insn->args[0], b = (IRTemp)insn->args[1];
    IRCond cond = (IRCond)insn->args[2];
    int taken = -1;

    if (is_const(s, a) && !is_const(s, b)) {
        insn->args[0] = b;
        insn->args[1] = a;
        cond = swap_cond(cond);
        insn->args[2] = cond;
        a = (IRTemp)insn->args[0];
        b = (IRTemp)insn->args[1];
    }
    if (cond == IR_COND_ALWAYS || cond == IR_COND_NEVER) {
        taken = cond == IR_COND_ALWAYS;
    } else if (is_const(s, a) && is_const(s, b)) {
        taken = ir_eval_cond(cond, cval(s, a), cval(s, b));
    } else if (same_value(s, a, b)) {
        taken = cond_same_operands(cond);
    }
    if (taken < 0) {
        return false;
    }
    if (!taken) {
        kill_insn(s, insn);
        return false;
    }
    uint64_t label = insn->args[3];
    insn->op = IR_br;
    insn->nin = 0;
    insn->nconst = 1;
    insn->args[0] = label;
    s->changed = true;
    s->cfg_changed = true;
    return true;
}

static const IRHelperInfo *call_helper(const OptContext *s, const IRInsn *insn)
{
    uint64_t idx = insn->args[insn->nout + insn->nin];

    return idx < s->ir->nhelpers ? s->ir->helpers[idx] : NULL;
}

static unsigned host_store_size(IROpcode op)
{
    switch (op) {
    case IR_st8:
        return 1;
    case IR_st16:
        return 2;
    case IR_st32:
        return 4;
    default:
        return 8;
    }
}

/* The next live op after @i, or NULL. */
static IRInsn *next_live(OptContext *s, unsigned i)
{
    for (unsigned j = i + 1; j < s->ir->ninsns; j++) {
        if (!s->ir->insns[j].dead) {
            return &s->ir->insns[j];
        }
    }
    return NULL;
}

static void count_label_refs(OptContext *s)
{
    memset(s->label_refs, 0, s->ir->nlabels * sizeof(*s->label_refs));
    for (unsigned i = 0; i < s->ir->ninsns; i++) {
        IRInsn *insn = &s->ir->insns[i];
        uint64_t l = OPT_NO_LABEL;
        if (insn->dead) {
            continue;
        }
        if (insn->op == IR_br) {
            l = insn->args[0];
        } else if (insn->op == IR_brcond) {
            l = insn->args[insn->nin + 1];
        }
        if (l < s->ir->nlabels) {
            s->label_refs[l]++;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Forward pass                                                        */
/* ------------------------------------------------------------------ */

static void opt_forward(OptContext *s)
{
    IRContext *ir = s->ir;
    bool unreachable = false;

    count_label_refs(s);
    reset_all(s);
    for (unsigned i = 0; i < ir->ninsns; i++) {
        IRInsn *insn = &ir->insns[i];
        IROpcode op = (IROpcode)insn->op;

        if (insn->dead) {
            continue;
        }
        if (op == IR_set_label) {
            uint64_t l = insn->args[0];
            if (l < ir->nlabels && s->label_refs[l] == 0) {
                /* Nobody jumps here: the code after it only falls through. */
                kill_insn(s, insn);
                continue;
            }
            unreachable = false;
            reset_all(s);
            continue;
        }
        if (unreachable) {
            kill_insn(s, insn);
            continue;
        }
        /* Rewrite inputs to the best equal temp. */
        for (unsigned k = 0; k < insn->nin; k++) {
            IRTemp t = (IRTemp)insn->args[insn->nout + k];
            IRTemp c = best_copy(s, t);
            if (c != t) {
                insn = &ir->insns[i]; /* const_temp may not move insns, but be safe */
                insn->args[insn->nout + k] = c;
                s->changed = true;
            }
        }
        switch (op) {
        case IR_discard:
            if (insn->args[0] < ir->ntemps) {
                reset_temp(s, (IRTemp)insn->args[0]);
            }
            break;
        case IR_insn_start:
            break;
        case IR_movi:
            set_const(s, (IRTemp)insn->args[0], insn->args[1]);
            break;
        case IR_br:
        case IR_exit_tb:
        case IR_goto_ptr:
            unreachable = true;
            break;
        case IR_brcond:
            unreachable = opt_brcond(s, insn);
            break;
        case IR_goto_tb:
            break;
        case IR_call: {
            const IRHelperInfo *h = call_helper(s, insn);
            if (!h || !(h->flags & (IR_CALL_NO_RWG | IR_CALL_NO_WG))) {
                reset_globals(s);
            }
            for (unsigned k = 0; k < insn->nout; k++) {
                reset_temp(s, (IRTemp)insn->args[k]);
            }
            if (h && (h->flags & IR_CALL_NORETURN)) {
                unreachable = true;
            }
            break;
        }
        case IR_st8:
        case IR_st16:
        case IR_st32:
        case IR_st64:
            if (insn->args[1] == ir->env) {
                reset_globals_at(s, (int64_t)insn->args[2], host_store_size(op));
            }
            break;
        default:
            if (op_is_pure(op)) {
                opt_pure(s, insn);
            } else {
                /* Loads and other ops with results we do not compute. */
                unsigned bits;
                bool sign;
                for (unsigned k = 0; k < insn->nout; k++) {
                    reset_temp(s, (IRTemp)insn->args[k]);
                }
                if (load_width(insn, &bits, &sign)) {
                    set_ext(s, (IRTemp)insn->args[0], sign ? 64 : bits, sign ? bits : 64);
                }
            }
            break;
        }
        /* A branch to the very next op does nothing. */
        insn = &ir->insns[i];
        if (!insn->dead && (insn->op == IR_br || insn->op == IR_brcond)) {
            IRInsn *next = next_live(s, i);
            uint64_t l = insn->op == IR_br ? insn->args[0] : insn->args[3];
            if (next && next->op == IR_set_label && next->args[0] == l) {
                kill_insn(s, insn);
                unreachable = false;
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Backward pass: dead code                                            */
/* ------------------------------------------------------------------ */

static bool op_removable(const OptContext *s, const IRInsn *insn)
{
    IROpcode op = (IROpcode)insn->op;

    if (op == IR_call) {
        const IRHelperInfo *h = call_helper(s, insn);
        return h && (h->flags & IR_CALL_NO_SE) && !(h->flags & IR_CALL_NORETURN);
    }
    return !(ir_op_info[op].flags & IR_F_SIDE);
}

static void opt_dead_code(OptContext *s)
{
    IRContext *ir = s->ir;
    uint8_t *live = calloc(ir->ntemps ? ir->ntemps : 1, 1);

    if (!live) {
        abort();
    }
    for (unsigned i = ir->ninsns; i-- > 0;) {
        IRInsn *insn = &ir->insns[i];
        IROpcode op = (IROpcode)insn->op;

        if (insn->dead) {
            continue;
        }
        if (op == IR_br || op == IR_exit_tb || op == IR_goto_ptr) {
            /* Nothing after these runs before a label, where no local is live. */
            memset(live, 0, ir->ntemps);
        }
        if (op == IR_discard) {
            if (insn->args[0] < ir->ntemps) {
                live[insn->args[0]] = 0;
            }
            continue;
        }
        if (op_removable(s, insn)) {
            bool needed = false;
            for (unsigned k = 0; k < insn->nout; k++) {
                IRTemp t = (IRTemp)insn->args[k];
                if (temp_kind(s, t) != IR_TEMP_LOCAL || live[t]) {
                    needed = true;
                }
            }
            if (!needed) {
                kill_insn(s, insn);
                continue;
            }
        }
        for (unsigned k = 0; k < insn->nout; k++) {
            live[insn->args[k]] = 0;
        }
        for (unsigned k = 0; k < insn->nin; k++) {
            live[insn->args[insn->nout + k]] = 1;
        }
    }
    free(live);
}

static void opt_compact(IRContext *ir)
{
    unsigned n = 0;

    for (unsigned i = 0; i < ir->ninsns; i++) {
        if (!ir->insns[i].dead) {
            if (n != i) {
                ir->insns[n] = ir->insns[i];
            }
            n++;
        }
    }
    ir->ninsns = n;
}

void ir_optimize(IRContext *ir)
{
    OptContext s = { .ir = ir };

    s.label_refs = calloc(ir->nlabels ? ir->nlabels : 1, sizeof(*s.label_refs));
    s.exprs_cap = 64;
    while (s.exprs_cap < 2 * ir->ninsns) {
        s.exprs_cap *= 2;
    }
    s.exprs = calloc(s.exprs_cap, sizeof(*s.exprs));
    if (!s.label_refs || !s.exprs) {
        abort();
    }
    /* Folding and dead code settle in one round; only a branch or label
     * that went away can expose more (longer blocks, unreachable code). */
    for (unsigned round = 0; round < OPT_MAX_ROUNDS; round++) {
        s.changed = false;
        s.cfg_changed = false;
        opt_grow(&s);
        opt_forward(&s);
        opt_dead_code(&s);
        if (!s.cfg_changed) {
            break;
        }
    }
    opt_compact(ir);
    free(s.label_refs);
    free(s.exprs);
    free(s.consts);
    free(s.t);
}
