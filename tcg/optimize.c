/*
 * IR optimiser (see tcg/optimize.h for the contract).
 *
 * Structure (the files share tcg/optimize-internal.h):
 *   - ir_fold_op()/ir_eval_cond() (optimize-fold.c): the value of every
 *     pure op on constants;
 *   - forward pass (opt_forward, here): per extended basic block (facts
 *     survive brcond on the fall-through path and die at set_label) it
 *     tracks which temps hold known constants, which temps are copies of
 *     each other and which values are known zero/sign extensions
 *     (optimize-facts.c), rewrites inputs to the best equal temp, folds and
 *     simplifies, reuses earlier identical pure computations
 *     (optimize-cse.c), decides branches and drops unreachable code;
 *   - backward pass (opt_dead_code): liveness of local temps, and of
 *     global values up to the next op that may observe globals; ops
 *     without side effects whose outputs are all dead are removed;
 *   - compaction of the op list.
 * The passes run again while branches or labels disappear (at most
 * OPT_MAX_ROUNDS times): that is what can expose more to fold.
 *
 * Invariants kept: the env temp is never removed as an output; a global
 * is removed as an output only when the value can never be observed: it
 * is discarded or written again before any op that might read globals
 * (a read of it, a branch, label or exit, a guest memory access - its
 * fault handler reads env -, a helper call that may read globals, a host
 * load or store); facts about globals are forgotten at helper calls
 * that may write globals and at host stores into their env field; a copy
 * of a temp is never used after that temp was redefined or discarded.
 */
#include <stdlib.h>
#include <string.h>

#include "optimize-internal.h"

/* ------------------------------------------------------------------ */
/* Rewriting ops                                                       */
/* ------------------------------------------------------------------ */

void opt_make_movi(OptContext *s, IRInsn *insn, uint64_t v)
{
    IRTemp d = (IRTemp)insn->args[0];

    insn->op = IR_movi;
    insn->nout = 1;
    insn->nin = 0;
    insn->nconst = 1;
    insn->args[1] = v;
    opt_set_const(s, d, v);
    s->changed = true;
}

void opt_make_mov(OptContext *s, IRInsn *insn, IRTemp src)
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
    opt_set_copy(s, d, src);
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

static bool opt_is_const(const OptContext *s, IRTemp t)
{
    return s->t[t].is_const;
}

static uint64_t opt_cval(const OptContext *s, IRTemp t)
{
    return s->t[t].val;
}

/* Algebraic identities of a two-input op with @b (or @a) constant.
 * Returns true when the op was rewritten. */
static bool simplify_binary(OptContext *s, IRInsn *insn)
{
    IROpcode op = (IROpcode)insn->op;
    IRTemp a = (IRTemp)insn->args[1], b = (IRTemp)insn->args[2];

    if (opt_same_value(s, a, b)) {
        switch (op) {
        case IR_sub:
        case IR_xor:
        case IR_andc:
            opt_make_movi(s, insn, 0);
            return true;
        case IR_and:
        case IR_or:
            opt_make_mov(s, insn, a);
            return true;
        default:
            break;
        }
    }
    if (!opt_is_const(s, b)) {
        return false;
    }
    uint64_t v = opt_cval(s, b);
    switch (op) {
    case IR_add:
    case IR_sub:
    case IR_or:
    case IR_xor:
    case IR_andc:
        if (v == 0) {
            opt_make_mov(s, insn, a);
            return true;
        }
        if (op == IR_or && v == UINT64_MAX) {
            opt_make_movi(s, insn, UINT64_MAX);
            return true;
        }
        if (op == IR_andc && v == UINT64_MAX) {
            opt_make_movi(s, insn, 0);
            return true;
        }
        break;
    case IR_shl:
    case IR_shr:
    case IR_sar:
    case IR_rotr:
        if ((v & 63) == 0) {
            opt_make_mov(s, insn, a);
            return true;
        }
        break;
    case IR_and:
        if (v == UINT64_MAX) {
            opt_make_mov(s, insn, a);
            return true;
        }
        if (v == 0) {
            opt_make_movi(s, insn, 0);
            return true;
        }
        break;
    case IR_mul:
        if (v == 1) {
            opt_make_mov(s, insn, a);
            return true;
        }
        if (v == 0) {
            opt_make_movi(s, insn, 0);
            return true;
        }
        break;
    case IR_mulsh:
        if (v == 0) {
            opt_make_movi(s, insn, 0);
            return true;
        }
        break;
    case IR_muluh:
        if (v == 0 || v == 1) {
            opt_make_movi(s, insn, 0);
            return true;
        }
        break;
    default:
        break;
    }
    return false;
}

static bool simplify_extension(OptContext *s, IRInsn *insn)
{
    IRTemp a = (IRTemp)insn->args[1];
    bool sign;
    unsigned w = opt_ext_width((IROpcode)insn->op, &sign);

    if (w) {
        if (sign ? opt_temp_sbits(s, a) <= w : opt_temp_zbits(s, a) <= w) {
            opt_make_mov(s, insn, a);
            return true;
        }
        return false;
    }
    if (insn->op == IR_and && s->t[insn->args[2]].is_const) {
        uint64_t m = s->t[insn->args[2]].val;
        if ((m & (m + 1)) == 0 && opt_temp_zbits(s, a) <= opt_zbits_of(m)) {
            opt_make_mov(s, insn, a); /* the mask keeps every bit that can be set */
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
    if (insn->nin >= 2 && opt_is_const(s, (IRTemp)insn->args[1]) &&
        !opt_is_const(s, (IRTemp)insn->args[2])) {
        if (opt_op_is_commutative(op) || op == IR_setcond || op == IR_movcond) {
            uint64_t t = insn->args[1];
            insn->args[1] = insn->args[2];
            insn->args[2] = t;
            if (op == IR_setcond || op == IR_movcond) {
                cond = opt_swap_cond(cond);
                insn->args[1 + insn->nin] = cond;
            }
            s->changed = true;
        }
    }
    for (unsigned i = 0; i < insn->nin; i++) {
        IRTemp t = (IRTemp)insn->args[1 + i];
        all_const &= opt_is_const(s, t);
        in[i] = opt_cval(s, t);
    }
    if (op == IR_movcond) {
        IRTemp a = (IRTemp)insn->args[1], b = (IRTemp)insn->args[2];
        IRTemp vt = (IRTemp)insn->args[3], vf = (IRTemp)insn->args[4];
        int same = opt_same_value(s, a, b) ? opt_cond_same_operands(cond) : -1;
        if (cond == IR_COND_ALWAYS || cond == IR_COND_NEVER) {
            same = cond == IR_COND_ALWAYS;
        } else if (opt_is_const(s, a) && opt_is_const(s, b)) {
            same = ir_eval_cond(cond, in[0], in[1]);
        }
        if (same >= 0) {
            opt_make_mov(s, insn, same ? vt : vf);
            return;
        }
        if (opt_same_value(s, vt, vf)) {
            opt_make_mov(s, insn, vt);
            return;
        }
        if (!opt_cse(s, insn)) {
            opt_pure_ext_facts(s, insn);
        }
        return;
    }
    if (op == IR_setcond) {
        int same = opt_same_value(s, (IRTemp)insn->args[1], (IRTemp)insn->args[2])
                       ? opt_cond_same_operands(cond) : -1;
        if (cond == IR_COND_ALWAYS || cond == IR_COND_NEVER) {
            same = cond == IR_COND_ALWAYS;
        }
        if (same >= 0) {
            opt_make_movi(s, insn, (uint64_t)same);
            return;
        }
    }
    if (op == IR_mov) {
        IRTemp src = (IRTemp)insn->args[1];
        if (opt_same_value(s, d, src)) {
            kill_insn(s, insn);
            return;
        }
        opt_set_copy(s, d, src);
        return;
    }
    uint64_t v;
    if (all_const && ir_fold_op(op, cond, in, &v)) {
        opt_make_movi(s, insn, v);
        return;
    }
    if (insn->nin == 2 && op != IR_setcond && simplify_binary(s, insn)) {
        return;
    }
    if (simplify_extension(s, insn)) {
        return;
    }
    if (!opt_cse(s, insn)) {
        opt_pure_ext_facts(s, insn);
    }
}

/* brcond: decide it when possible.  Returns true when the code after it
 * became unreachable (it turned into br). */
static bool opt_brcond(OptContext *s, IRInsn *insn)
{
    IRTemp a = (IRTemp)insn->args[0], b = (IRTemp)insn->args[1];
    IRCond cond = (IRCond)insn->args[2];
    int taken = -1;

    if (opt_is_const(s, a) && !opt_is_const(s, b)) {
        insn->args[0] = b;
        insn->args[1] = a;
        cond = opt_swap_cond(cond);
        insn->args[2] = cond;
        a = (IRTemp)insn->args[0];
        b = (IRTemp)insn->args[1];
    }
    if (cond == IR_COND_ALWAYS || cond == IR_COND_NEVER) {
        taken = cond == IR_COND_ALWAYS;
    } else if (opt_is_const(s, a) && opt_is_const(s, b)) {
        taken = ir_eval_cond(cond, opt_cval(s, a), opt_cval(s, b));
    } else if (opt_same_value(s, a, b)) {
        taken = opt_cond_same_operands(cond);
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
    opt_reset_all(s, true);
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
            opt_reset_all(s, false);
            continue;
        }
        if (unreachable) {
            kill_insn(s, insn);
            continue;
        }
        /* Rewrite inputs to the best equal temp. */
        for (unsigned k = 0; k < insn->nin; k++) {
            IRTemp t = (IRTemp)insn->args[insn->nout + k];
            IRTemp c = opt_best_copy(s, t);
            if (c != t) {
                insn = &ir->insns[i]; /* const_temp may not move insns, but be safe */
                insn->args[insn->nout + k] = c;
                s->changed = true;
            }
        }
        switch (op) {
        case IR_discard:
            if (insn->args[0] < ir->ntemps) {
                opt_reset_temp(s, (IRTemp)insn->args[0]);
            }
            break;
        case IR_insn_start:
            break;
        case IR_movi:
            opt_set_const(s, (IRTemp)insn->args[0], insn->args[1]);
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
                opt_reset_globals(s);
            }
            for (unsigned k = 0; k < insn->nout; k++) {
                opt_reset_temp(s, (IRTemp)insn->args[k]);
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
                opt_reset_globals_at(s, (int64_t)insn->args[2], host_store_size(op));
            }
            break;
        default:
            if (opt_op_is_pure(op)) {
                opt_pure(s, insn);
            } else {
                /* Loads and other ops with results we do not compute. */
                unsigned bits;
                bool sign;
                for (unsigned k = 0; k < insn->nout; k++) {
                    opt_reset_temp(s, (IRTemp)insn->args[k]);
                }
                if (opt_load_width(insn, &bits, &sign)) {
                    opt_set_ext(s, (IRTemp)insn->args[0], sign ? 64 : bits, sign ? bits : 64);
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

/* May @insn observe any global's value in env (other than through its
 * own input operands)?  Then no global write before it is dead. */
static bool op_observes_globals(const OptContext *s, const IRInsn *insn)
{
    IROpcode op = (IROpcode)insn->op;
    uint32_t f = ir_op_info[op].flags;

    if (op == IR_call) {
        const IRHelperInfo *h = call_helper(s, insn);
        return !h || !(h->flags & IR_CALL_NO_RWG);
    }
    if (f & (IR_F_BB_END | IR_F_MEM)) {
        return true;
    }
    return (op >= IR_ld8u && op <= IR_ld64) || (op >= IR_st8 && op <= IR_st64);
}

/* At least @n bytes at *@p (grown, contents not kept); false when out
 * of memory. */
static bool opt_grow_bytes(uint8_t **p, unsigned *cap, unsigned n)
{
    if (n <= *cap && *p) {
        return true;
    }
    unsigned c = *cap ? *cap : 64;
    while (c < n) {
        c *= 2;
    }
    free(*p);
    *p = malloc(c);
    *cap = *p ? c : 0;
    return *p != NULL;
}

static void opt_dead_code(OptContext *s)
{
    IRContext *ir = s->ir;
    unsigned nglobals = ir->nglobals < ir->ntemps ? ir->nglobals : ir->ntemps;
    /* live[t]: a local's value is read later.  For a global, the value it
     * holds here is dead (gdead[t]) when the global is discarded or
     * written again before anything may observe it. */
    uint8_t *live, *gdead;

    if (!opt_grow_bytes(&s->live, &s->live_cap, ir->ntemps) ||
        !opt_grow_bytes(&s->gdead, &s->gdead_cap, nglobals)) {
        abort();
    }
    live = s->live;
    gdead = s->gdead;
    memset(live, 0, ir->ntemps);
    memset(gdead, 0, nglobals);
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
            IRTemp t = (IRTemp)insn->args[0];
            if (t < ir->ntemps) {
                live[t] = 0;
                if (t < nglobals && opt_temp_kind(s, t) == IR_TEMP_GLOBAL) {
                    gdead[t] = 1;
                }
            }
            continue;
        }
        if (op_removable(s, insn)) {
            bool needed = false;
            for (unsigned k = 0; k < insn->nout; k++) {
                IRTemp t = (IRTemp)insn->args[k];
                IRTempKind kind = opt_temp_kind(s, t);
                if (kind == IR_TEMP_GLOBAL ? !gdead[t] : kind != IR_TEMP_LOCAL || live[t]) {
                    needed = true;
                }
            }
            if (!needed) {
                kill_insn(s, insn);
                continue;
            }
        }
        for (unsigned k = 0; k < insn->nout; k++) {
            IRTemp t = (IRTemp)insn->args[k];
            live[t] = 0;
            if (t < nglobals && opt_temp_kind(s, t) == IR_TEMP_GLOBAL) {
                gdead[t] = 1; /* the value before this write is never seen */
            }
        }
        if (op_observes_globals(s, insn)) {
            /* ...unless this op looks at env before writing. */
            memset(gdead, 0, nglobals);
        }
        for (unsigned k = 0; k < insn->nin; k++) {
            IRTemp t = (IRTemp)insn->args[insn->nout + k];
            live[t] = 1;
            if (t < nglobals) {
                gdead[t] = 0;
            }
        }
    }
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

static void opt_scratch_free(void *p)
{
    OptContext *s = p;

    free(s->label_refs);
    free(s->exprs);
    free(s->consts);
    free(s->touched);
    free(s->t);
    free(s->live);
    free(s->gdead);
    free(s);
}

/* The context's kept OptContext (docs/performance.md), ready for @ir's
 * op list: per-TB counters reset, the constant and expression tables
 * emptied by new generations, the arrays grown to size. */
static OptContext *opt_begin(IRContext *ir)
{
    OptContext *s = ir->pass_scratch[IR_SCRATCH_OPTIMIZER].p;
    unsigned cap = 64;

    if (!s) {
        s = calloc(1, sizeof(*s));
        if (!s) {
            abort();
        }
        ir->pass_scratch[IR_SCRATCH_OPTIMIZER].p = s;
        ir->pass_scratch[IR_SCRATCH_OPTIMIZER].free = opt_scratch_free;
    }
    s->ir = ir;
    s->ninit = 0;
    /* ntouched is kept: the first full reset (opt_forward) re-initialises
     * the globals the last TB touched. */
    s->seq = 0;
    s->consts_used = 0;
    if (++s->const_gen == 0) {
        for (unsigned i = 0; i < s->consts_cap; i++) {
            s->consts[i].gen = 0;
        }
        s->const_gen = 1;
    }
    if (ir->nlabels > s->label_refs_cap || !s->label_refs) {
        unsigned n = ir->nlabels ? ir->nlabels : 1;
        free(s->label_refs);
        s->label_refs = malloc(n * sizeof(*s->label_refs));
        s->label_refs_cap = n;
    }
    /* The table's size for this TB (as many probes land as before the
     * table was kept); the allocation only grows. */
    while (cap < 2 * ir->ninsns) {
        cap *= 2;
    }
    if (cap > s->exprs_alloc) {
        free(s->exprs);
        s->exprs = calloc(cap, sizeof(*s->exprs));
        s->exprs_alloc = cap;
        s->expr_gen = 0;
    }
    s->exprs_cap = cap;
    if (!s->label_refs || !s->exprs) {
        abort();
    }
    return s;
}

void ir_optimize(IRContext *ir)
{
    OptContext *s = opt_begin(ir);

    /* Folding and dead code settle in one round; only a branch or label
     * that went away can expose more (longer blocks, unreachable code). */
    for (unsigned round = 0; round < OPT_MAX_ROUNDS; round++) {
        s->changed = false;
        s->cfg_changed = false;
        /* opt_forward's full reset sizes the temp table and initialises
         * the temps that need it (opt_reset_all): re-initialising all of
         * them here first was 1k host instructions per TB for nothing. */
        opt_forward(s);
        opt_dead_code(s);
        if (!s->cfg_changed) {
            break;
        }
    }
    opt_compact(ir);
}
