/*
 * Host-code backend interface (x86-64: tcg/x86_64/).
 *
 * The exec loop (tcg/exec.c) owns the code buffer and the TB cache; the
 * backend turns one optimised IR list into host code and patches jumps.
 *
 * Entering JIT code: entry(env, code) runs host code for a TB with env in
 * a fixed register and returns the value of the exit_tb that left:
 *   (uintptr_t)tb | slot   (slot 0/1) - the TB's goto_tb slot was not
 *                          chained; the loop may chain it now
 *   0                      - plain exit (state is in env; look up env->pc)
 * goto_ptr jumps to the host address a helper returned; helpers return the
 * epilogue's "return 0" address (backend_exit_addr) when no TB is ready.
 *
 * Globals are kept in host registers within a basic block as the
 * allocator likes, and written back to env before: anything a guest memory
 * op does besides a TLB hit (fault, MMIO, code-page store: the write-back
 * is on the out-of-line slow path, so a hit costs nothing), helper calls
 * (unless IR_CALL_NO_RWG allows less; after calls without IR_CALL_NO_RWG /
 * IR_CALL_NO_WG they are reloaded), branches, labels and every TB exit.
 * Guest memory ops use the inline TLB fast path described in
 * tcg/softmmu.h (with the direct window's base instead of the per-page
 * addend when guest_direct is set) and call ld_slow/st_slow
 * (linx_ld_slow/linx_st_slow) otherwise.  Host ld/st on env fields that are globals must use the
 * env temp as base with a constant offset (docs/backend.md).  env is the target's CPUArchState: the
 * engine's TLB, jump cache and host-fault masks are at linx_cpu_engine_offset in it
 * (tcg/cpu-engine.h).
 *
 * Code memory is W^X (tcg/code-buffer.h): code is written through the RW
 * view, chaining patches too.  backend_init() puts the prologue at the
 * start of the buffer and marks it reserved.
 */
#ifndef LINX_TCG_BACKEND_H
#define LINX_TCG_BACKEND_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "code-buffer.h"
#include "ir.h"
#include "tb.h"
#include "tcg/cpu-engine.h"

typedef uintptr_t (*LinxJitEntry)(CPUArchState *env, const void *host_code);

typedef uint64_t (*LinxLdSlowFn)(CPUArchState *env, uint64_t addr, uint64_t memop, uint64_t pc);
typedef void (*LinxStSlowFn)(CPUArchState *env, uint64_t addr, uint64_t value, uint64_t memop,
                             uint64_t pc);

typedef struct BackendState {
    LinxJitEntry entry;          /* prologue */
    const void *exit_addr;       /* epilogue: return 0 */
    unsigned long fallbacks;     /* ops emitted as helper calls */
    /* Set by backend_init(); tests may change them before generating code. */
    const void *ret_addr;        /* epilogue: return the value in rax */
    uint32_t host_features;      /* X86_FEAT_* the generated code may use (cpuid) */
    LinxLdSlowFn ld_slow;        /* called by qemu_ld slow paths (linx_ld_slow) */
    LinxStSlowFn st_slow;        /* called by qemu_st slow paths (linx_st_slow) */
    /* Direct addressing (tcg/softmmu.h): when set, a TLB hit accesses
     * guest_base + address instead of adding the entry's addend.  The
     * exec layer sets it from the address space's direct window (and
     * flushes the TBs when it changes); off after backend_init(). */
    bool guest_direct;
    uintptr_t guest_base;
    /* Host faults (tcg/softmmu.h, docs/engine.md): with guest_direct, an
     * aligned access is "test addr, env->host_fault_mask[size]; jnz slow"
     * and then the access at guest_base + addr, no TLB check: the address
     * space keeps the window's host protection equal to what the TLB
     * would allow (guest_mem_enable_host_faults), and a host fault at the
     * access is sent to the same out-of-line slow path by the exec
     * layer's signal handler.  The backend reports every such access
     * (rx address of the access instruction and of its slow path) through
     * fault_site as the TB is committed, in increasing address order. */
    bool guest_hostfault;
    void (*fault_site)(void *opaque, const void *access, const void *slow_path);
    void *fault_site_opaque;
    /* Indirect jumps (docs/performance.md): a call of lookup_info (the
     * exec layer's lookup helper, tcg/exec.h) becomes an inline probe of
     * env->engine.tb_jmp_cache - a hit yields the TB's host code without a call -
     * and calls lookup_slow(env) on a miss.  NULL (the default): a plain
     * call.  The exec layer sets them unless chaining is off. */
    const IRHelperInfo *lookup_info;
    uint64_t (*lookup_slow)(CPUArchState *env);
    /* Where the probe finds the key in env (the target's LinxTargetOps
     * pc_offset and tb_flags_offset; set with lookup_info). */
    int32_t pc_offset;
    int32_t tb_flags_offset;
    /* A global that lives in a reserved host register (x86-64: r14)
     * across TBs instead of env (docs/performance.md): env offset of the
     * 64-bit field, or -1 (the default: none).  The prologue loads it, the
     * epilogue stores it, and env holds it whenever C code may look
     * (helper calls that read globals, guest-memory slow paths); TB exits,
     * chained jumps and labels do not store it.  The exec layer pins
     * insn_count, which every TB adds to.  Set before generating code and
     * not changed while TBs made with another setting exist. */
    int32_t pinned_env_offset;
    /* Calls flagged IR_CALL_TILE_MOVE (tcg/tile-move.h) become inline
     * block moves: 0 never (plain calls), 1 with AVX2, 2 with AVX-512.
     * backend_init() sets it from the host (tcg/vec.h vec_host_isa:
     * LINX_VEC_ISA=avx2 / none lower it); LINX_TILE_INLINE=0 turns it off. */
    uint8_t tile_move_isa;
    unsigned long tile_moves;    /* inline tile moves emitted */
} BackendState;

/* Emit the prologue/epilogue at the start of @cb (reserved across flushes). */
bool backend_init(BackendState *bs, CodeBuffer *cb);

/* Generate host code for @ir as @tb's code.  Sets tb->host_code,
 * tb->host_size and the goto_tb offsets.  Returns false when the buffer is
 * full (nothing committed).  @log_asm (may be NULL) receives the
 * capstone disassembly of the generated code (-d out_asm). */
bool backend_gen_tb(BackendState *bs, CodeBuffer *cb, IRContext *ir, TranslationBlock *tb,
                    FILE *log_asm);

/* Point @tb's goto_tb slot @n at @dest's host code, or back at the
 * unchained exit when @dest is NULL. */
void backend_set_jmp(BackendState *bs, CodeBuffer *cb, TranslationBlock *tb, unsigned n,
                     const TranslationBlock *dest);

#endif /* LINX_TCG_BACKEND_H */
