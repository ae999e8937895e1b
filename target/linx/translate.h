/*
 * Front end: LinxISA guest code -> IR, one translation block per guest
 * block.  Called by the exec loop (tcg/exec.c) on a TB-cache miss.
 */
#ifndef LINX_TARGET_TRANSLATE_H
#define LINX_TARGET_TRANSLATE_H

#include "cpu.h"
#include "tcg/ir.h"
#include "tcg/tb.h"

/* Register the CPU-state globals and the helper table with @ir (once per
 * IR context, before the first translation). */
void linx_translate_init(IRContext *ir);

/* Translate the block starting at tb->pc (entered as tb->flags says) into
 * @ir.  Fills tb->size, tb->icount and tb->cflags (the CFI verdict).  Guest
 * code is fetched through the checked memory path; a fetch fault produces
 * a TB that raises the instruction fault. */
void linx_translate_block(CPULinxState *env, IRContext *ir, TranslationBlock *tb);

#endif /* LINX_TARGET_TRANSLATE_H */
