/*
 * IR optimiser: one TB's op list is simplified in place before it goes to
 * the x86-64 backend or the interpreter.
 *
 * Passes (tcg/optimize.c, docs/backend.md "Optimiser"):
 *   - constant folding and propagation over every pure op, including
 *     setcond/movcond/brcond with known operands (a decided brcond becomes
 *     a br or disappears);
 *   - copy propagation (uses of a copy read the oldest equal temp, constants
 *     become IR_TEMP_CONST operands the backend can encode as immediates);
 *   - algebraic identities (x+0, x&-1, x*1, x^x, shifts by 0, ...);
 *   - common subexpressions: a pure op whose inputs and an earlier
 *     result are unchanged becomes a copy of that result;
 *   - removal of code that cannot run (after br, exit_tb, goto_ptr and
 *     no-return calls, up to the next referenced label), of branches to the
 *     next op and of labels nobody jumps to;
 *   - dead-code elimination of ops without side effects whose results are
 *     never read (calls only when the helper is IR_CALL_NO_SE).
 *
 * Invariants: the optimised list computes exactly what the input computed
 * (same guest-visible state, same helper calls with the same arguments, same
 * exits); it still obeys the rules of tcg/ir.h.  Removed ops are compacted
 * away, so ir->ninsns shrinks and no op is left with dead set.  The pass may
 * add IR_TEMP_CONST temps (ir_const()).
 *
 * Globals are assumed to change only through IR ops that name them, helper
 * calls without IR_CALL_NO_RWG/IR_CALL_NO_WG, and host stores whose base is
 * the env temp and whose offset overlaps the global's field.
 *
 * Usage:
 *   linx_translate_block(env, ir, tb);
 *   ir_optimize(ir);
 */
#ifndef LINX_TCG_OPTIMIZE_H
#define LINX_TCG_OPTIMIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

/* Optimise the current TB's op list in place. */
void ir_optimize(IRContext *ir);

/* Result of pure op @op (one output, no side effects, temps only: mov ..
 * ext32u) on constant inputs @in (nin of them) and condition @cond (for
 * setcond/movcond).  Returns false for ops that are not foldable.
 * (tcg/optimize-fold.c) */
bool ir_fold_op(IROpcode op, IRCond cond, const uint64_t *in, uint64_t *out);

/* Value of condition @cond on (@a, @b). */
bool ir_eval_cond(IRCond cond, uint64_t a, uint64_t b);

#endif /* LINX_TCG_OPTIMIZE_H */
