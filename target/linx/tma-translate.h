/*
 * TMA blocks (TLOAD / TSTORE / TMOV) specialised at translation time
 * (issue #6, docs/tile.md "Translation").
 *
 * A TMA header block (BSTART.TMA / TLOAD / TSTORE / TMOV followed by B.*
 * descriptors) never reaches a run-time engine.  The translator gathers
 * the decoded descriptors into a TmaDesc (hw/linx/tma.h) as it translates
 * them, and at the block's commit plans it with tma_plan(): every rule
 * whose inputs are constants runs once, there, and a host kernel is chosen
 * for the element size, layout and constant dimensions.  Then the TB
 * either
 *   - raises the architectural exception (constant-illegal header:
 *     helper_tma_raise with the rule, at the block's pc), or
 *   - calls helper_tma(env, block, base, stride, size): @block points to
 *     a LinxTmaBlock (the plan plus the block's pc) allocated with the TB
 *     (linx_exec_tb_alloc: freed at the next full flush, so a running or
 *     invalidated TB never sees a dangling plan), and the register
 *     operands travel as arguments.  LB0-2 registers that the plan reads
 *     at run time are in env->lb (the helper reads globals).  Nothing is
 *     rebuilt or allocated per call.
 *
 * The per-element reference kernels stay the oracle: LINX_TMA_REFERENCE=1
 * (and LINX_TMA_PORTABLE=1 for no host SIMD) in the environment select
 * them when blocks are translated.  `-d tile` dumps the source tiles
 * before a TSTORE and the destination tile after a TLOAD/TMOV.
 *
 * Traps a TMA, TEPL or CUBE block raises record their rule in
 * env->tile_fault (linx_tile_fault_raise), so a trap report can say which
 * rule broke:
 *
 *   linx_tile_fault_report(stderr, env);   // after cpu_exec() returned EXCP_TRAP
 *   -> "illegal tile parameter: validcol-gt-col at PC 0x10040 (BSTART.TMA TSTORE, FP32)"
 */
#ifndef LINX_TARGET_TMA_TRANSLATE_H
#define LINX_TARGET_TMA_TRANSLATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu.h"
#include "hw/linx/tma-kernels.h"
#include "hw/linx/tma.h"

/* LinxTmaBlock.flags */
enum {
    LINX_TMA_LOG = 1 << 0,          /* -d tile: dump the tiles it moves */
    LINX_TMA_SIZE_FROM_TILE = 1 << 1, /* TSTORE B.IOT without a size: the sources' size */
};

/* What a translated TMA block's helper call points to; lives as long as
 * the TB (linx_exec_tb_alloc).  Immutable after translation but for the
 * per-call fields of @xfer, which each call writes before its kernel
 * reads them (tma_exec_prepared; one thread runs an exec context's TBs). */
typedef struct LinxTmaBlock {
    /* The prepared fast path (first: 64-byte aligned, hot fields first):
     * @fast_plan is @plan, or for a TSTORE sized by its sources @plan
     * specialised for 4 KB sources (the run time checks the size). */
    TmaPlan fast_plan;
    TmaXfer xfer;   /* its transfer record (tma_xfer_prepare) */
    bool prepared;  /* try tma_exec_prepared(fast_plan, xfer) first */
    uint32_t flags; /* LINX_TMA_* */
    uint64_t pc;    /* the block's BSTART: where its traps are raised */
    TmaPlan plan;   /* the header's plan: the general path and its faults */
} LinxTmaBlock;

/* Plan @d into @b for a block at @pc (what the translator does at the
 * header's commit): the TSTORE size rule above, tma_plan() with @opts
 * (NULL: the environment's, tma_options_from_env), @flags (LINX_TMA_LOG)
 * added.  Returns false when the header is constant-illegal
 * (b->plan.fault says why). */
bool linx_tma_block_plan(LinxTmaBlock *b, const TmaDesc *d, const TmaOptions *opts,
                         uint64_t pc, uint32_t flags);

/* The inline-move plan of @b (tcg/tile-move.h; tma-jit.c says which
 * blocks have one), allocated with the TB in @ec, or NULL: then the TB
 * calls helper_tma.  With a plan it calls helper_tma_jit, which the
 * backend may replace by the move itself (the helper stays its slow path
 * and the interpreter's whole path). */
struct TcgTileMove;
struct LinxExecContext;
const struct TcgTileMove *linx_tma_jit_plan(struct LinxExecContext *ec, const LinxTmaBlock *b);

/* Run-time arguments of a planned block (helper_tma's body, exposed for
 * tests and benchmarks): @base, @stride and @size are the values of the
 * plan's base, stride and size registers, LB0-2 come from env->lb.  Returns
 * false with @f filled (nothing changed) when a rule fails; the caller
 * raises. */
bool linx_tma_run(CPULinxState *env, const LinxTmaBlock *b, uint64_t base, uint64_t stride,
                  uint64_t size, TmaFault *f);

/* Raise the trap @f maps to (tile-trap.h) at @pc (linx_raise_exception)
 * and record f->rule, pc and TRAPARG0 in env->tile_fault, but for
 * TMA_R_GM_FAULT (a plain page fault to the user).  f->rule is a TmaRule,
 * a LinxTeplRule or a LinxCubeRule (their numbers do not overlap). */
_Noreturn void linx_tile_fault_raise(CPULinxState *env, const TmaFault *f, uint64_t pc);

/* If the trap env reports (env->trapno, traparg0, trap_pc) was raised by
 * a TMA, TEPL or CUBE block's rule, print "illegal tile parameter: <rule> at PC <pc>
 * (<disassembly>)" and the rule's sentence to @f and return true; else
 * print nothing and return false. */
bool linx_tile_fault_report(FILE *f, const CPULinxState *env);

/* The rule name of that trap, or NULL (for reports with their own layout). */
const char *linx_tile_fault_rule(const CPULinxState *env);

#endif /* LINX_TARGET_TMA_TRANSLATE_H */
