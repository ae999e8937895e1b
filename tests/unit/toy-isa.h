/*
 * A toy ISA and its translator, so the exec loop can be tested without the
 * LinxISA front end: its LinxTargetOps (tcg/exec.h) translate, disassemble
 * for -d in_asm and dump the state for -d cpu.
 *
 * Every instruction is 4 bytes: opcode, a, b, c (c doubles as a signed
 * 8-bit immediate).  A block starts at MARK; a TB runs from a MARK up to
 * (not including) the next MARK, which it reaches through goto_tb slot 0.
 * Registers are env->gpr[1..23]; pc is env->pc.  Translation follows the
 * real front end's conventions: CFI_BAD TBs for a non-MARK entry without
 * TB_F_RESUME, env->resume cleared by resume TBs and set by TBs cut in
 * the middle of a block, exit_tb values (uintptr_t)tb | slot.
 *
 *   MARK               block start (env->bpc = pc)
 *   MOVI  a, imm       r[a] = imm
 *   ADDI  a, imm       r[a] += imm
 *   ADD   a, b         r[a] += r[b]
 *   BNZ   a, off       if r[a] != 0 goto pc + 4 * off, else fall through
 *   J     off          goto pc + 4 * off
 *   JR    a            goto r[a] (indirect: lookup helper + goto_ptr)
 *   LD    a, b         r[a] = mem64[r[b]]   (aligned)
 *   ST    a, b         mem64[r[b]] = r[a]   (aligned)
 *   STB   a, b         mem8[r[b]] = r[a]
 *   LDU   a, b         r[a] = mem64[r[b]]   (no alignment required)
 *   HALT               exit_code = r[1]; cpu_exec returns EXCP_EXIT
 *   TRAP  a            raise exception trapnum a at this pc
 *   FENCEI             flush all translations, continue after it
 *   HOST  a            r[a] = (host-store test) value written via st64 to env
 */
#ifndef LINX_TESTS_TOY_ISA_H
#define LINX_TESTS_TOY_ISA_H

#include <stddef.h>
#include <stdint.h>

#include "hw/core/guest-memory.h"
#include "target/linx/exec-target.h"
#include "tcg/exec.h"

enum {
    TOY_MARK = 1,
    TOY_MOVI,
    TOY_ADDI,
    TOY_ADD,
    TOY_BNZ,
    TOY_J,
    TOY_JR,
    TOY_LD,
    TOY_ST,
    TOY_STB,
    TOY_LDU,
    TOY_HALT,
    TOY_TRAP,
    TOY_FENCEI,
};

#define TOY_INSN(op, a, b, c) \
    ((uint32_t)(op) | (uint32_t)(uint8_t)(a) << 8 | (uint32_t)(uint8_t)(b) << 16 | \
     (uint32_t)(uint8_t)(c) << 24)

/* Maximum instructions per TB (then the TB is cut and resumes). */
#define TOY_TB_MAX_INSNS 16

void toy_translate_init(IRContext *ir);
void toy_translate_block(CPULinxState *env, IRContext *ir, TranslationBlock *tb);

extern const LinxTargetOps toy_target_ops;

/* Engine defaults (no LinxISA) with the toy target plugged in. */
void toy_exec_options(LinxExecOptions *opts);

/* Write a program at @addr (through the debugger path). */
void toy_load(GuestMemory *gm, uint64_t addr, const uint32_t *insns, size_t n);

#endif /* LINX_TESTS_TOY_ISA_H */
