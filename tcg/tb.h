/*
 * Translation blocks: one per guest block (BSTART .. next marker/BSTOP).
 *
 * A TB is keyed by (pc, flags).  flags carry everything translation
 * depends on besides the guest bytes: how the block was entered (a branch,
 * which must land on a block-start marker, or a resume in the middle of a
 * block after a trap, sigreturn or single-step), one-instruction mode,
 * commit tracing.  The CFI verdict for branch entries is computed once,
 * when the TB is translated, and cached in the TB (TB_C_CFI_BAD).
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
};

/* Properties found while translating. */
enum {
    TB_C_INVALID = 1 << 0, /* invalidated (SMC, FENCE.I, flush) */
    TB_C_CFI_BAD = 1 << 1, /* first insn is not a block-start marker */
};

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

    /* IR kept for the interpreter (after optimisation). */
    IRInsn *ir;
    uint32_t nir;
    uint32_t ntemps;
    IRTempInfo *temps;

    /* Chaining: where each slot goes, and who jumps to us. */
    struct TranslationBlock *jmp_dest[2];
    struct TranslationBlock *jmp_list_head; /* incoming edges, tagged with slot in low bits */
    uintptr_t jmp_list_next[2];

    /* Invalidation: guest pages the TB's code lies on (second is -1 if none). */
    uint64_t page_addr[2];
    struct TranslationBlock *page_next[2];

    struct TranslationBlock *hash_next;
} TranslationBlock;

#endif /* LINX_TCG_TB_H */
