/*
 * Private state of the exec layer, shared by tcg/exec.c (the loop, options,
 * exceptions) and tcg/tb-cache.c (TB storage, lookup, chaining,
 * invalidation, flush).  Nothing outside tcg/ includes this.
 *
 * Invariants:
 *   - a valid TB (no TB_C_INVALID) is in the hash table, in the page list
 *     of each page in tb->page_addr[], and possibly in CPUs' jump caches;
 *     an invalid TB is in none of them and nothing chains to it;
 *   - TB memory (and the code buffer) is only reused by tb_flush_now(),
 *     which runs only when no TB is executing (ec->running == NULL, or at
 *     the top of the exec loop);
 *   - all attached CPUs share ec->mem.
 */
#ifndef LINX_TCG_EXEC_INTERNAL_H
#define LINX_TCG_EXEC_INTERNAL_H

#include <glib.h>
#include <stddef.h>

#include "hw/core/guest-memory.h"
#include "tcg/exec.h"
#include "tcg/interp.h"

typedef struct ArenaChunk {
    struct ArenaChunk *next;
    size_t size, used;
    uint8_t *data;
} ArenaChunk;

struct LinxExecContext {
    /* First: what the exits out of translated code use (tcg/cpu-exit.h):
     * running, exception_index, single_step, log, the watchpoints. */
    LinxExitState x;
    LinxExecOptions opts;
    LinxAccel accel;        /* effective (after the JIT fallback) */
    bool nochain;
    uint32_t tb_flags_extra; /* TB_F_ONE_INSN / TB_F_TRACE from the options */
    GHashTable *breakpoints; /* guest pcs (as pointers) */
    LinxLog log;
    LinxCommitTrace *trace;

    /* Translation. */
    IRContext *ir;
    LinxInterp *interp;
    const LinxTargetOps *target;

    /* JIT. */
    int vec_isa;            /* VecIsa of the vector lane programs (tcg/vec.h) */
    const LinxBackendOps *backend;
    CodeBuffer cb;
    BackendState bs;

    /* TB cache. */
    TranslationBlock **hash;   /* buckets, chained through hash_next */
    size_t hash_size;          /* power of two */
    size_t ntbs;               /* valid TBs in the hash */
    GHashTable *pages;         /* page number -> first TB (page_next chain) */
    GPtrArray *all_tbs;        /* every TB since the last flush */
    GPtrArray *chained;        /* TBs that chained a slot since the last unchain
                                * (may repeat, may have lost their chains) */
    ArenaChunk *arena;
    size_t arena_bytes;
    size_t max_tb_memory;

    /* CPUs. */
    CPULinxState **cpus;
    unsigned ncpus, cpus_cap;
    GuestMemory *mem;          /* the address space they share (listened to) */

    /* Run state. */
    bool flush_pending;        /* TBs unlinked, memory to reclaim */
    uint64_t flush_count;

    LinxExecStats stats;
    /* Host faults (tcg/host-fault.c): the JIT's access sites, sorted. */
    GArray *fault_sites;
};

/* exec.c: host faults on or off as the address space, the options and
 * the watchpoints allow (flushes the TBs when it changes). */
void exec_update_hostfault(LinxExecContext *ec);
/* tcg/host-fault.c */
void host_fault_site(void *opaque, const void *access, const void *slow);
void host_fault_reset(LinxExecContext *ec);
bool host_fault_install(void);
LinxExecContext *host_fault_enter(LinxExecContext *ec);
void host_fault_leave(LinxExecContext *prev);

/* Jump-cache index of @pc. */
static inline unsigned tb_jmp_cache_hash(uint64_t pc)
{
    return (unsigned)(((pc >> 1) ^ (pc >> (1 + LINX_TB_JMP_CACHE_BITS))) &
                      (LINX_TB_JMP_CACHE_SIZE - 1));
}

/* exec.c: tell the backend whether to probe the jump cache in line for
 * indirect jumps (off without chaining or while single-stepping). */
void linx_exec_update_inline_lookup(LinxExecContext *ec);

/* tb-cache.c */
void tb_cache_init(LinxExecContext *ec);
void tb_cache_destroy(LinxExecContext *ec);
void *tb_arena_alloc(LinxExecContext *ec, size_t size);
/* Lookup without translating: jump cache, then the hash table. */
TranslationBlock *tb_lookup(LinxExecContext *ec, CPULinxState *env, uint64_t pc, uint32_t flags);
/* Add a translated TB to the hash table and its pages' lists (and mark
 * the pages as code in ec->mem). */
void tb_insert(LinxExecContext *ec, TranslationBlock *tb);
/* Chain @src's goto_tb slot @slot to @dst (no-op if already chained or
 * either is invalid, or @dst is TB_C_CFI_BAD). */
void tb_add_jump(LinxExecContext *ec, TranslationBlock *src, unsigned slot, TranslationBlock *dst);
void tb_invalidate(LinxExecContext *ec, TranslationBlock *tb);
/* Unlink every TB now; reclaim memory now if nothing runs, else at the
 * next safe point. */
void tb_flush_all(LinxExecContext *ec);
/* Unlink every chained jump and empty the CPUs' jump caches; the TBs
 * stay translated (the exec loop chains them again as they run). */
void tb_unchain_all(LinxExecContext *ec);
/* Reclaim everything (no TB may be running). */
void tb_flush_now(LinxExecContext *ec);
/* GuestMemListener callbacks. */
void tb_mem_changed(void *opaque, uint64_t addr, uint64_t len);
void tb_code_written(void *opaque, uint64_t page_addr);

_Static_assert(offsetof(struct LinxExecContext, x) == 0,
               "env->exec is a LinxExitState * too (tcg/cpu-exit.h)");

#endif /* LINX_TCG_EXEC_INTERNAL_H */
