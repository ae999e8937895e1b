/*
 * LinxISA as the engine sees it: the LinxTargetOps table (tcg/exec.h) that
 * a front end hands to linx_exec_new, so that tcg/ names no LinxISA
 * function (QEMU's TCGCPUOps).
 *
 *   LinxExecOptions opts;
 *   linx_exec_options_init(&opts);          // engine defaults + LinxISA
 *   LinxExecContext *ec = linx_exec_new(&opts, err, sizeof(err));
 */
#ifndef LINX_TARGET_EXEC_TARGET_H
#define LINX_TARGET_EXEC_TARGET_H

#include <stddef.h>

#include "cpu.h"
#include "tcg/exec.h"

/* Translate (translate.c), disassemble for -d in_asm (disas.c), dump the
 * registers for -d cpu (cpu.c); a part missing from the build is NULL. */
extern const LinxTargetOps linx_target_ops;

/* The faults the engine detects as LinxISA traps (linx_target_ops'
 * raise_mem_fault, raise_bad_target; a toy target on CPULinxState may use
 * them too).  A failed data access: DATA_ALIGN_FAULT, or DATA_PAGE_FAULT
 * with the DFSC cause (| LINX_DFAULT_WNR for a store, cpu.h); TRAPARG0 =
 * the first faulting byte's address.  A branch to a TB_C_CFI_BAD block:
 * E_BLOCK(EC_CFI) kind CFI_BAD_TARGET, TRAPARG0 = @src_block (0: env->bpc),
 * trap pc = the bad target.  Neither returns. */
void linx_raise_mem_fault(CPULinxState *env, GuestFault fault, uint64_t addr, bool is_write,
                          uint64_t pc);
void linx_raise_bad_target(CPULinxState *env, uint64_t src_block, uint64_t pc);

/* The LinxTargetOps entries that describe CPULinxState to the engine:
 * where the pc, the TB flags word and the retired-instruction count live,
 * and the two fault hooks above.  linx_target_ops and a toy target running
 * on CPULinxState (tests/unit/toy-isa.c) both start from it. */
#define LINX_TARGET_CPU_STATE_OPS                                                              \
    .pc_offset = offsetof(CPULinxState, pc), .tb_flags_offset = offsetof(CPULinxState, resume), \
    .tb_flags_mask = TB_F_RESUME | TB_F_BODY,                                                  \
    .insn_count_offset = offsetof(CPULinxState, insn_count),                                   \
    .raise_mem_fault = linx_raise_mem_fault, .raise_bad_target = linx_raise_bad_target

/* linx_exec_options_defaults(@opts) and opts->target = &linx_target_ops. */
void linx_exec_options_init(LinxExecOptions *opts);

#endif /* LINX_TARGET_EXEC_TARGET_H */
