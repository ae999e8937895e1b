/*
 * Private state of the exec layer, shared by tcg/exec.c (the loop, options,
 * exceptions), tcg/tb-cache.c (TB storage, lookup, chaining,
 * invalidation, flush) and tcg/exec-cpus.c (the CPU list, exclusive
 * sections).  Nothing outside tcg/ includes this.
 *
 * Invariants:
 *   - a valid TB (no TB_C_INVALID) is in the hash table, in the page list
 *     of each page in tb->page_addr[], and possibly in CPUs' jump caches;
 *     an invalid TB is in none of them (a jump-cache entry written in a
 *     race with the invalidation is ignored by every lookup) and nothing
 *     chains to it;
 *   - TB memory (and the code buffer) is only reused by tb_flush_now(),
 *     which runs in an exclusive section (no CPU runs guest code; a CPU
 *     stopped inside a system call notices the flush count and does not
 *     return into translated code);
 *   - every change of the TB cache (translation, insertion, chaining,
 *     invalidation, flush) is made under the exec lock (exec_lock()): the
 *     address space's mutex (guest_mem_lock) once one is attached, so TB
 *     changes and guest-memory changes are serialised together; lookups
 *     take no lock;
 *   - all attached CPUs share ec->mem.
 */
#ifndef LINX_TCG_EXEC_INTERNAL_H
#define LINX_TCG_EXEC_INTERNAL_H

#include <glib.h>
#include <stddef.h>
#include <pthread.h>

#include "hw/core/guest-memory.h"
#include "tcg/exec.h"
#include "tcg/interp.h"

/* The hash table: a power-of-two array of bucket heads chained through
 * tb->hash_next.  A resize makes a new table and relinks the TBs; a
 * lookup racing with it may miss (then it looks again under the lock),
 * never loops: the old table is kept until the next flush. */
typedef struct TbHashTable {
    size_t mask;
    TranslationBlock *buckets[];
} TbHashTable;

typedef struct ArenaChunk {
    struct ArenaChunk *next;
    size_t size, used;
    uint8_t *data;
} ArenaChunk;

struct LinxExecContext {
    /* First: what the exits out of translated code use (tcg/cpu-exit.h):
     * single_step, log, the watchpoints (running and exception_index are
     * per CPU: CPUs may run in parallel). */
    LinxExitState x;
    LinxExecOptions opts;
    LinxAccel accel;        /* effective (after the JIT fallback) */
    bool nochain;
    uint32_t tb_flags_extra; /* TB_F_ONE_INSN / TB_F_TRACE from the options */
    GHashTable *breakpoints; /* guest pcs (as pointers) */
    LinxLog log;
    LinxCommitTrace *trace;

    /* The exec lock when no address space is attached (exec_lock()). */
    pthread_mutex_t own_lock;

    /* Translation (under the exec lock). */
    IRContext *ir;
    const LinxTargetOps *target;
    /* TBs keep their optimised op list (tb->ir) for the interpreter:
     * always under -accel interp; under the JIT only once a TB was run by
     * the interpreter (linx_exec_step), which flushes the TBs made
     * without it (docs/performance.md, "Translation cost"). */
    bool keep_ir;

    /* JIT. */
    int vec_isa;            /* VecIsa of the vector lane programs (tcg/vec.h) */
    const LinxBackendOps *backend;
    CodeBuffer cb;
    BackendState bs;

    /* TB cache. */
    TbHashTable *hash;         /* published with a release store; read lock-free */
    GPtrArray *old_hashes;     /* tables replaced by a resize: freed at a flush */
    size_t ntbs;               /* valid TBs in the hash */
    GHashTable *pages;         /* page number -> first TB (page_next chain) */
    GPtrArray *all_tbs;        /* every TB since the last flush */
    GPtrArray *chained;        /* TBs that chained a slot since the last unchain
                                * (may repeat, may have lost their chains) */
    ArenaChunk *arena;
    size_t arena_bytes;
    size_t max_tb_memory;

    /* CPUs (the list and the exclusive-section state under cpu_lock;
     * exec-cpus.c). */
    pthread_mutex_t cpu_lock;
    pthread_cond_t exclusive_cond;   /* the exclusive requester waits here */
    pthread_cond_t exclusive_resume; /* stopped CPUs wait here */
    int pending_cpus;          /* 0: none; else 1 + CPUs an exclusive section waits for */
    CPUArchState **cpus;
    unsigned ncpus, cpus_cap;
    GuestMemory *mem;          /* the address space they share (listened to) */
    bool mt;                   /* CPUs may run in parallel (linx_exec_set_parallel) */

    /* Flush state. */
    bool flush_pending;        /* TBs unlinked, memory to reclaim (atomic) */
    uint64_t flush_count;      /* bumped by each reclaim (atomic) */

    /* Counters of the translation side (under the exec lock); the per-CPU
     * ones live in the CPUs and in detached_stats. */
    LinxExecStats stats;
    /* Host faults (tcg/host-fault.c): the JIT's access sites, sorted. */
    GArray *fault_sites;
    LinxExecStats detached_stats;
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

/* The exec lock: serialises translation and every change of the TB cache
 * (recursive).  With an address space attached it is that space's mutex
 * (guest_mem_lock), which is also held around guest-memory changes and
 * their listener calls. */
void exec_lock(LinxExecContext *ec);
void exec_unlock(LinxExecContext *ec);

/* exec-cpus.c: the running state of a CPU.  cpu_exec_start() waits while
 * an exclusive section is in progress and then marks @env running;
 * cpu_exec_end() marks it stopped and lets a waiting exclusive section go
 * on. */
void cpu_exec_start(CPUArchState *env);
void cpu_exec_end(CPUArchState *env);
/* Add/remove @env to/from the CPU list (under cpu_lock). */
void exec_cpu_list_add(LinxExecContext *ec, CPUArchState *env);
bool exec_cpu_list_remove(LinxExecContext *ec, CPUArchState *env);
bool exec_cpu_listed(LinxExecContext *ec, const CPUArchState *env);

/* exec.c: a fresh code buffer (a fork child: the double mapping is a
 * shared memfd the parent still writes to); every TB must be gone. */
void exec_rebuild_code_buffer(LinxExecContext *ec);
/* exec.c: (re)initialise own_lock, the recursive exec lock of a context
 * without guest memory. */
void exec_own_lock_init(LinxExecContext *ec);

/* tb-cache.c */
void tb_cache_init(LinxExecContext *ec);
void tb_cache_destroy(LinxExecContext *ec);
void *tb_arena_alloc(LinxExecContext *ec, size_t size);
/* Lookup without translating (no lock): jump cache, then the hash table.
 * May miss a TB a concurrent resize is moving: look again under the exec
 * lock before translating. */
TranslationBlock *tb_lookup(LinxExecContext *ec, CPUArchState *env, uint64_t pc, uint32_t flags);
/* Add a translated TB to the hash table and its pages' lists (and mark
 * the pages as code in ec->mem). */
void tb_insert(LinxExecContext *ec, TranslationBlock *tb);
/* Chain @src's goto_tb slot @slot to @dst (no-op if already chained or
 * either is invalid, or @dst is TB_C_CFI_BAD). */
void tb_add_jump(LinxExecContext *ec, TranslationBlock *src, unsigned slot, TranslationBlock *dst);
void tb_invalidate(LinxExecContext *ec, TranslationBlock *tb);
/* Mark a flush pending (reclaimed at the next safe point), after
 * unlinking every TB when @invalidate (so no old translation runs from
 * now on: FENCE.I, debugger changes).  Takes the exec lock. */
void tb_flush_request(LinxExecContext *ec, bool invalidate);
/* Unlink every TB now and mark the flush pending; @self (may be NULL) is
 * the calling CPU.  Memory is reclaimed at once (exclusive section) when
 * the caller is not inside cpu_exec, else at the next safe point. */
void tb_flush_all(LinxExecContext *ec, CPUArchState *self);
/* Reclaim a pending flush in an exclusive section.  @self: the calling
 * CPU, not running (may be NULL). */
void tb_flush_reclaim(LinxExecContext *ec, CPUArchState *self);
/* Unlink every chained jump and empty the CPUs' jump caches; the TBs
 * stay translated (the exec loop chains them again as they run). */
void tb_unchain_all(LinxExecContext *ec);
/* Reclaim everything: in an exclusive section (or with no CPU attached). */
void tb_flush_now(LinxExecContext *ec);
/* GuestMemListener callbacks. */
void tb_mem_changed(void *opaque, uint64_t addr, uint64_t len, unsigned kind);
void tb_code_written(void *opaque, uint64_t page_addr);

_Static_assert(offsetof(struct LinxExecContext, x) == 0,
               "cpu_engine(env)->exec is a LinxExitState * too (tcg/cpu-exit.h)");

#endif /* LINX_TCG_EXEC_INTERNAL_H */
