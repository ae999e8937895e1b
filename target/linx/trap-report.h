/*
 * The report of a trap the guest did not handle, the same in every front
 * end (linux-user's death report, the virt machine's unhandled trap,
 * linx-optest): after the front end's own headline, which names the pc and
 * the instruction there (linx_trap_insn_text: "ldi [a0, 0], ->a1  [0011b119]"),
 *
 *   trap 35 (data access fault), cause 0x1: no readable/writable mapping
 *     at 0x20000000
 *   in the block at 0x10000: C.BSTART.STD
 *   pc ... bpc ... block ...      (linx_cpu_dump_state: registers, queues,
 *   zero ... sp ...                block state, the trap registers)
 *
 * A trap raised by a tile, TEPL or CUBE rule has its own line before the
 * headline (linx_tile_fault_report: "illegal tile parameter: <rule> ...").
 *
 * Trap and cause names: isa/v0.4/state/system_registers.json (TRAPNUM),
 * the digest section 4.1/5 (E_INST / E_BLOCK subcauses, B.* families).
 */
#ifndef LINX_TARGET_TRAP_REPORT_H
#define LINX_TARGET_TRAP_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu.h"

/* "data page fault", "block error", ...; "trap" for an unknown number. */
const char *linx_trap_name(unsigned trapnum);
/* What the cause (and TRAPARG0) of a trap says, in words. */
void linx_trap_cause_text(unsigned trapnum, unsigned cause, uint64_t traparg0, char *buf,
                          size_t len);
/* The instruction at @pc as "ldi [a0, 0], ->a1  [0011b119]", or "(not
 * readable)". */
void linx_trap_insn_text(CPULinxState *env, uint64_t pc, char *buf, size_t len);
/* The report body for the trap in env->trapno / traparg0 / trap_pc (the
 * lines under the headline; see the file comment). */
void linx_trap_report(FILE *f, CPULinxState *env);

#endif /* LINX_TARGET_TRAP_REPORT_H */
