/*
 * The engine's part of a CPU (QEMU's CPUState + CPUNegativeOffsetState):
 * what tcg/ keeps per CPU - the softmmu TLB, the TB jump cache, the
 * host-fault masks, the exec context and the run state - in a struct the
 * target embeds in its CPU state.
 *
 * tcg/ never sees the target's CPU state: it handles a CPUArchState *
 * (QEMU's name for the target's "env"), an opaque type here, and finds
 * its own part at a fixed offset the target defines at link time:
 *
 *   target/linx/cpu.h:  typedef struct CPUArchState {
 *                           uint64_t gpr[24]; ...
 *                           CPUEngineState engine;
 *                           ...
 *                       } CPUArchState;
 *   target/linx/exec-target.c:  const size_t linx_cpu_engine_offset =
 *                                   offsetof(CPUArchState, engine);
 *
 * The rest of the target's state the engine needs (where the pc and the TB
 * lookup flags are, how a memory fault becomes an architectural trap) the
 * target says in its LinxTargetOps (tcg/target-ops.h).  The JIT reaches the TLB,
 * the jump cache and the host-fault masks at env + linx_cpu_engine_offset
 * + their offsets here (BackendState's offsets, set by the exec layer).
 */
#ifndef LINX_TCG_CPU_ENGINE_H
#define LINX_TCG_CPU_ENGINE_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The target's CPU state (opaque to tcg/). */
typedef struct CPUArchState CPUArchState;

struct TranslationBlock;
struct GuestMemory;
struct LinxExecContext;
struct LinxInterp;
struct LinxCommitTrace;

/* 4096 entries (16 MiB of 4 KiB pages): two 4 MiB buffers 4 MiB apart
 * (the memcpy benchmark's source and destination) map to different
 * entries instead of evicting each other on every access
 * (docs/performance.md). */
#define LINX_TLB_BITS 12
#define LINX_TLB_SIZE (1u << LINX_TLB_BITS)

/* One softmmu TLB entry: tags are page addresses (low bits used as flags
 * that force the slow path); addend turns a guest address into a host one. */
typedef struct LinxTLBEntry {
    uint64_t addr_read;
    uint64_t addr_write;
    uint64_t addr_code;
    uintptr_t addend;
} LinxTLBEntry;

#define LINX_TB_JMP_CACHE_BITS 12
#define LINX_TB_JMP_CACHE_SIZE (1u << LINX_TB_JMP_CACHE_BITS)

typedef struct CPUEngineState {
    /* ---- Per-CPU caches the JIT reaches by offset ---- */
    /* Host faults (tcg/softmmu.h): the bits that must be clear in the
     * address of an aligned 2^i-byte access for the JIT to access the
     * direct window without a TLB check (the bits at and above the
     * window's size, and the alignment bits); set by the exec layer. */
    uint64_t host_fault_mask[4];
    LinxTLBEntry tlb[LINX_TLB_SIZE];
    struct TranslationBlock *tb_jmp_cache[LINX_TB_JMP_CACHE_SIZE];

    /* ---- Not touched by translated code (exit_request aside) ---- */
    struct GuestMemory *mem;       /* the CPU's address space */
    struct LinxCommitTrace *trace; /* -trace-commit writer (NULL: off) */
    struct LinxExecContext *exec;  /* TB cache, code buffer, IR context */
    sigjmp_buf jmp_env;            /* cpu_loop_exit() target */
    /* Set by any thread (atomically: util/atomic.h) to make this CPU leave
     * cpu_exec at the next TB boundary (EXCP_INTERRUPT); read by
     * translated code (TB_F_EXIT_CHECK). */
    int exit_request;
    unsigned cpu_index;
    /* Exec-layer run state of this CPU (tcg/exec.c, tcg/exec-cpus.c): each
     * CPU of a context runs in its own host thread. */
    int exception_index;       /* EXCP_* cpu_exec returns after cpu_loop_exit */
    bool in_exec;              /* inside cpu_exec: cpu_loop_exit has a target */
    bool running;              /* running guest code: exclusive sections wait for it */
    bool has_waiter;           /* an exclusive section waits for it to stop */
    uint64_t flush_seen;       /* the context's flush count when it stopped running */
    struct LinxInterp *interp; /* its interpreter (frame, bound programs) */
    /* Counters only this CPU's thread writes (linx_exec_get_stats sums them). */
    uint64_t tbs_executed, jc_hits, jc_misses;
} CPUEngineState;

/* Where a CPUArchState keeps its CPUEngineState: defined by the target
 * (target/linx/cpu.c; a toy target in tests/unit defines its own). */
extern const size_t linx_cpu_engine_offset;

static inline CPUEngineState *cpu_engine(CPUArchState *env)
{
    return (CPUEngineState *)((char *)env + linx_cpu_engine_offset);
}

static inline const CPUEngineState *cpu_engine_const(const CPUArchState *env)
{
    return (const CPUEngineState *)((const char *)env + linx_cpu_engine_offset);
}

#endif /* LINX_TCG_CPU_ENGINE_H */
