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

#include "tcg/exec.h"

/* Translate (translate.c), disassemble for -d in_asm (disas.c), dump the
 * registers for -d cpu (cpu.c); a part missing from the build is NULL. */
extern const LinxTargetOps linx_target_ops;

/* linx_exec_options_defaults(@opts) and opts->target = &linx_target_ops. */
void linx_exec_options_init(LinxExecOptions *opts);

#endif /* LINX_TARGET_EXEC_TARGET_H */
