/*
 * What the engine asks of the guest architecture it runs (QEMU's
 * TCGCPUOps): the target fills one LinxTargetOps (target/linx/exec-target.c,
 * linx_target_ops; tests/unit/toy-isa.c and tests/unit/toy-cpu.c toy ones)
 * and hands it over in LinxExecOptions.target.  The engine names no target
 * function and includes no target header: the target's CPU state is an
 * opaque CPUArchState (tcg/cpu-engine.h) whose few words the engine reads
 * or writes - the pc, the TB lookup flags, the retired-instruction count -
 * are named here by their offsets, and architectural faults the engine
 * detects (a guest memory access, a branch to a bad target) become traps
 * through the target's raise functions.
 */
#ifndef LINX_TCG_TARGET_OPS_H
#define LINX_TCG_TARGET_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hw/core/guest-memory.h"
#include "tcg/cpu-engine.h"
#include "tcg/ir.h"
#include "tcg/tb.h"

/* Front end hooks. */
typedef void (*LinxTranslateInitFn)(IRContext *ir);
typedef void (*LinxTranslateFn)(CPUArchState *env, IRContext *ir, TranslationBlock *tb);

typedef struct LinxTargetOps {
    const char *name;                   /* "LinxISA", for messages */
    LinxTranslateInitFn translate_init; /* once per context; may be NULL */
    LinxTranslateFn translate;          /* required */
    /* -d in_asm: disassemble the instruction at @code (@avail bytes) at
     * guest address @pc into @text and its raw bytes into @hex; returns
     * its length in bytes, 0 when nothing can be decoded there.  NULL:
     * the log shows bytes only. */
    unsigned (*disas_insn)(const uint8_t *code, size_t avail, uint64_t pc, char *text,
                           size_t textlen, char *hex, size_t hexlen);
    /* -d cpu: the architectural registers.  NULL: the pc only. */
    void (*dump_state)(CPUArchState *env, FILE *f);
    /* The CPU leaves its exec context (linx_exec_detach_cpu): free what
     * the target keeps per CPU for it.  May be NULL. */
    void (*cpu_detach)(CPUArchState *env);

    /* ---- The CPU state the engine reads and writes (offsets into the
     * target's CPUArchState; each names a uint64_t) ---- */
    /* The next instruction: the TB lookup key with the flags below. */
    size_t pc_offset;
    /* The CPU's TB lookup flags are this word & tb_flags_mask (LinxISA:
     * env->resume, TB_F_RESUME | TB_F_BODY); a debugger stop writes its
     * resume value here.  The JIT's inline jump-cache probe takes the word
     * being 0 as "no CPU flags". */
    size_t tb_flags_offset;
    uint32_t tb_flags_mask;
    /* The retired-instruction counter every TB adds to: the JIT keeps it
     * in a host register across TBs (BackendState.pinned_env_offset) and
     * a memory fault adds the instructions of the TB that retired before
     * it (LINX_PC_RETIRED_SHIFT, tcg/softmmu.h).  -1: none. */
    ptrdiff_t insn_count_offset;

    /* ---- Architectural faults the engine detects (required; they do not
     * return: they set the target's trap state and leave through
     * linx_cpu_exit_trap, tcg/cpu-exit.h) ---- */
    /* A guest data access at @addr (its first faulting byte) by the
     * instruction at @pc failed: @fault says why (GM_FAULT_ALIGN for a
     * misaligned IR_MO_ALIGN access), @is_write whether it stored. */
    void (*raise_mem_fault)(CPUArchState *env, GuestFault fault, uint64_t addr, bool is_write,
                            uint64_t pc);
    /* A branch reached @pc, whose TB the front end marked TB_C_CFI_BAD
     * (not a valid branch target): @src_block is the block whose commit
     * branched there when the engine knows it (a direct edge:
     * TranslationBlock.jmp_src_bpc), else 0 (the target knows it). */
    void (*raise_bad_target)(CPUArchState *env, uint64_t src_block, uint64_t pc);
} LinxTargetOps;

static inline uint64_t *linx_cpu_word(CPUArchState *env, size_t offset)
{
    return (uint64_t *)(void *)((char *)env + offset);
}

/* The TB lookup key of @env's next TB under @t (the exec loop ORs in its
 * own context flags). */
static inline void linx_cpu_tb_key(const LinxTargetOps *t, CPUArchState *env, uint64_t *pc,
                                   uint32_t *flags)
{
    *pc = *linx_cpu_word(env, t->pc_offset);
    *flags = (uint32_t)*linx_cpu_word(env, t->tb_flags_offset) & t->tb_flags_mask;
}

#endif /* LINX_TCG_TARGET_OPS_H */
