/*
 * Translation blocks: one per guest block (BSTART .. next marker/BSTOP).
 *
 * A TB is keyed by (pc, flags).  flags carry everything translation
 * depends on besides the guest bytes: how the block was entered (a branch,
 * which must land on a block-start marker, or a resume in the middle of a
 * block after a trap, sigreturn or single-step), one-instruction mode,
 * commit tracing.  The CFI verdict for branch entries is computed once,
 * when the TB is translated, and cached in the TB (TB_C_CFI_BAD): the exec
 * loop raises E_BLOCK(EC_CFI) when such a TB is entered without
 * TB_F_RESUME, never chains into it, and the indirect-jump lookup never
 * returns it, so no branch pays a run-time check.
 *
 * Lifetime: TBs (with their IR copy) live in the exec context's arena
 * until the next full flush.  Invalidation (SMC, FENCE.I, unmap) only
 * unlinks a TB (hash table, page lists, jump caches, chains) and sets
 * TB_C_INVALID, so a TB that is running while it is invalidated finishes
 * safely; the memory is reused after the flush, at a point where no TB
 * runs.
 *
 * Concurrency (docs/engine.md "Concurrency"): several host threads run
 * CPUs of one exec context.  A TB's key (pc, flags), code and IR never
 * change after it is published in the hash table; cflags (TB_C_INVALID),
 * jmp_dest[], hash_next and interp_prog are read without a lock through
 * util/atomic.h and written under the context's lock (interp_prog: by
 * compare-and-swap).  Lookups treat a TB with TB_C_INVALID as absent, so
 * a jump-cache entry that raced with an invalidation is harmless.
 */
#ifndef LINX_TCG_TB_H
#define LINX_TCG_TB_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"

/* Key flags. */
enum {
    TB_F_RESUME = 1 << 0,   /* entered mid-block; block state comes from env */
    TB_F_ONE_INSN = 1 << 1, /* one guest instruction per TB (-one-insn-per-tb, gdb step) */
    TB_F_TRACE = 1 << 2,    /* emit commit-trace calls */
    TB_F_BODY = 1 << 3,     /* a kernel body (MPAR/MSEQ) rather than a block */
    TB_F_EXIT_CHECK = 1 << 4, /* leave at entry when env->engine.exit_request is set (gdbstub) */
    /* The flags that come from the exec context rather than the CPU state:
     * the same for every TB translated between two flushes. */
    TB_F_CONTEXT_MASK = TB_F_ONE_INSN | TB_F_TRACE | TB_F_EXIT_CHECK,
};

/* Properties found while translating. */
enum {
    TB_C_INVALID = 1 << 0, /* invalidated (SMC, FENCE.I, flush) */
    TB_C_CFI_BAD = 1 << 1, /* first insn is not a block-start marker */
    /* Set by linx_exec_step while it runs the TB: a loop inside the TB
     * leaves at its back edge (one step runs one pass of the TB). */
    TB_C_ONE_PASS = 1 << 2,
};

/* Exit values of exit_tb / the JIT entry: a TB pointer with the goto_tb
 * slot in the low bits (TBs are at least 4-byte aligned), or 0. */
#define TB_EXIT_SLOT_MASK ((uintptr_t)3)

typedef struct TranslationBlock {
    uint64_t pc;
    uint32_t flags;  /* TB_F_* (part of the key) */
    uint32_t cflags; /* TB_C_* */
    uint32_t size;   /* guest bytes covered */
    uint32_t icount; /* guest instructions */

    /* Host code (JIT). */
    const void *host_code;
    uint32_t host_size;
    /* Offsets in host code of the two goto_tb jump instructions and of
     * the code right after each (the "unchained" destination). */
    uint32_t jmp_insn_offset[2];
    uint32_t jmp_reset_offset[2];
    /* Start pc of the block whose commit leaves through goto_tb slot n:
     * the source the exec loop reports (TRAPARG0) when that edge lands on
     * a TB that may not be entered by a branch (TB_C_CFI_BAD).  Set by the
     * front end; 0 means "use env->bpc". */
    uint64_t jmp_src_bpc[2];

    /* IR kept for the interpreter (after optimisation). */
    IRInsn *ir;
    uint32_t nir;
    uint32_t ntemps;
    IRTempInfo *temps;
    /* The interpreters' prepared forms (tcg/interp.c): a list, one per
     * interpreter (CPU) that ran the TB. */
    void *interp_prog;

    /* Chaining: where each slot goes, and who jumps to us.  jmp_list_head
     * and jmp_list_next[] hold a TB pointer with the slot in the low bits
     * (TB_EXIT_SLOT_MASK); 0 ends a list. */
    struct TranslationBlock *jmp_dest[2];
    uintptr_t jmp_list_head; /* incoming edges */
    uintptr_t jmp_list_next[2];

    /* Invalidation: guest pages the TB's code lies on (second is -1 if none). */
    uint64_t page_addr[2];
    struct TranslationBlock *page_next[2];

    struct TranslationBlock *hash_next;
} TranslationBlock;

#endif /* LINX_TCG_TB_H */
