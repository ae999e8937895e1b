/*
 * Internal state of the IR optimiser, shared by its files:
 *   optimize.c        the passes (forward rewriting, dead code, compaction)
 *   optimize-facts.c  what is known about each temp: constants, copies,
 *                     known extensions; condition and op predicates
 *   optimize-cse.c    common subexpressions of an extended block
 *   optimize-fold.c   the value of each pure op on constants (public)
 * Nothing here is used outside tcg/optimize*.c.
 */
#ifndef LINX_TCG_OPTIMIZE_INTERNAL_H
#define LINX_TCG_OPTIMIZE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "optimize.h"

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
    bool touched;                /* listed in OptContext.touched */
} OptTemp;

typedef struct OptConstEntry {
    uint64_t value;
    IRTemp temp;  /* IR_NO_TEMP: empty */
    uint32_t gen; /* entries of another OptContext.const_gen are empty */
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
    unsigned ninit;     /* temps [0, ninit) have an initialised OptTemp */
    unsigned globals_init; /* the globals were initialised for this many
                            * (kept between passes and TBs: opt_reset_all) */
    IRTemp *touched;    /* temps whose facts changed since the last reset */
    unsigned ntouched, touched_cap;
    uint32_t seq;
    unsigned *label_refs; /* references by live br/brcond, per label */
    OptConstEntry *consts;   /* open-addressing cache value -> const temp */
    unsigned consts_cap, consts_used;
    uint32_t const_gen;      /* one per ir_optimize() call */
    unsigned label_refs_cap;
    uint8_t *live, *gdead;   /* dead-code pass, per temp / per global */
    unsigned live_cap, gdead_cap;
    bool changed;
    bool cfg_changed; /* a branch or label went: another round may find more */
    /* Common subexpressions of the current extended block. */
    OptExpr *exprs;
    unsigned exprs_cap;   /* power of two: the part used for this TB */
    unsigned exprs_alloc; /* entries allocated (>= exprs_cap) */
    uint32_t expr_gen;    /* entries of other generations are empty */
} OptContext;

/* The OptContext is kept between TBs in IRContext.pass_scratch (its
 * arrays only grow; the tables are emptied by a new generation number,
 * not by clearing them), so translating a block allocates nothing. */

/* ---- optimize-facts.c: predicates, temp facts (see the definitions) ---- */
IRCond opt_swap_cond(IRCond c);
int opt_cond_same_operands(IRCond c);
bool opt_op_is_pure(IROpcode op);
bool opt_op_is_commutative(IROpcode op);
void opt_grow(OptContext *s);
static inline IRTempKind opt_temp_kind(const OptContext *s, IRTemp t)
{
    return (IRTempKind)s->ir->temps[t].kind;
}
void opt_next_expr_gen(OptContext *s);
void opt_reset_temp(OptContext *s, IRTemp t);
void opt_reset_all(OptContext *s, bool full);
void opt_reset_globals(OptContext *s);
void opt_reset_globals_at(OptContext *s, int64_t off, unsigned size);
IRTemp opt_canonical_const(OptContext *s, uint64_t v, IRTemp have);
IRTemp opt_best_copy(OptContext *s, IRTemp t);
unsigned opt_zbits_of(uint64_t v);
unsigned opt_temp_zbits(const OptContext *s, IRTemp t);
unsigned opt_temp_sbits(const OptContext *s, IRTemp t);
void opt_set_ext(OptContext *s, IRTemp d, unsigned zbits, unsigned sbits);
bool opt_load_width(const IRInsn *insn, unsigned *bits, bool *sign);
unsigned opt_ext_width(IROpcode op, bool *sign);
void opt_pure_ext_facts(OptContext *s, const IRInsn *insn);
void opt_set_copy(OptContext *s, IRTemp d, IRTemp src);
void opt_set_const(OptContext *s, IRTemp d, uint64_t v);
bool opt_same_value(const OptContext *s, IRTemp a, IRTemp b);

/* ---- optimize.c: turn @insn into "movi d, v" / "mov d, src" ---- */
void opt_make_movi(OptContext *s, IRInsn *insn, uint64_t v);
void opt_make_mov(OptContext *s, IRInsn *insn, IRTemp src);

/* ---- optimize-cse.c: reuse an earlier identical pure op (true) or
 * remember this one (false; its output is then redefined) ---- */
bool opt_cse(OptContext *s, IRInsn *insn);

#endif /* LINX_TCG_OPTIMIZE_INTERNAL_H */
