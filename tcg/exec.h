/*
 * The execution loop (modelled on QEMU's accel/tcg/cpu-exec.c).
 *
 *   LinxExecOptions opts;
 *   linx_exec_options_init(&opts);            // defaults + LINX_COMMIT_TRACE
 *   ... linx_exec_parse_option() for -accel, -d, -D, -trace-commit, ...
 *   LinxExecContext *ec = linx_exec_new(&opts, err, sizeof(err));
 *   env->engine.mem = gm;
 *   linx_exec_attach_cpu(ec, env);            // env->engine.exec = ec, TLB reset
 *   for (;;) {
 *       int r = cpu_exec(env);
 *       if (r == EXCP_EXIT) break;           // guest asked to stop
 *       ... handle EXCP_TRAP (deliver a signal / stop the machine) ...
 *   }
 *   linx_exec_free(ec);                       // before guest_mem_free(gm):
 *                                             // the context listens to gm
 *
 * cpu_exec() looks up (or translates) the TB for (env->pc, flags), runs
 * it under the selected backend (JIT or interpreter), follows chained
 * jumps, and returns when a helper ends the run (an exception, an exit
 * request) or env->engine.exit_request is set.  env->engine.exit_request is seen by the
 * loop before every TB it enters, by the interpreter at every goto_tb and
 * goto_ptr, and by the indirect-jump lookup; code the JIT chained together
 * sees it only where the backend tests it.
 *
 * Leaving translated code: helpers call cpu_loop_exit(env), which unwinds
 * (siglongjmp) to cpu_exec.  If a reason was set first (linx_cpu_exit_trap
 * sets EXCP_TRAP; linx_cpu_exit_with(env, EXCP_EXIT) etc.), cpu_exec
 * returns it; otherwise it simply continues at env->pc (e.g. after FENCE.I
 * or a syscall that changed the mappings).  Globals are in env at that
 * point: the interpreter keeps them there, the JIT writes them back
 * before every helper call and memory access.
 *
 * An exec context owns the TB cache, the code buffer, the IR context and
 * the log.  Several CPUs of one address space share it; each keeps its
 * own TLB, jump cache and interpreter.  They may run one at a time in one
 * thread, or in parallel, one host thread each, once
 * linx_exec_set_parallel() was called (linux-user's threads): the TB
 * cache is then looked up without locks and changed under one lock, and
 * what must not race with translated code (reclaiming TB memory, taking
 * guest memory away) runs in exclusive sections (docs/engine.md
 * "Concurrency").  Nothing here is global: two machines in one process
 * use two contexts.
 *
 * The translator and the JIT backend are pluggable (function pointers in
 * LinxExecOptions), so unit tests run the loop with a toy front end.  By
 * default they are the LinxISA front end and the x86-64 backend when
 * those are part of the build (tcg/engine-config.h); -accel jit without a
 * backend falls back to the interpreter with a message.
 */
#ifndef LINX_TCG_EXEC_H
#define LINX_TCG_EXEC_H

#include "tcg/vec.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "util/options.h"
#include "code-buffer.h"
#include "commit-trace.h"
#include "cpu-exit.h"
#include "ir.h"
#include "log.h"
#include "target-ops.h"
#include "tb.h"

typedef enum LinxAccel {
    LINX_ACCEL_JIT,
    LINX_ACCEL_INTERP,
} LinxAccel;

/* JIT backend hooks (backend.h). */
typedef struct LinxBackendOps {
    bool (*init)(BackendState *bs, CodeBuffer *cb);
    bool (*gen_tb)(BackendState *bs, CodeBuffer *cb, IRContext *ir, TranslationBlock *tb,
                   FILE *log_asm);
    void (*set_jmp)(BackendState *bs, CodeBuffer *cb, TranslationBlock *tb, unsigned n,
                    const TranslationBlock *dest);
    /* The backend's code reads the TB's op list (tb->ir) when it runs (a
     * test backend that interprets it); else TBs made by it keep none. */
    bool needs_tb_ir;
} LinxBackendOps;

typedef struct LinxExecOptions {
    LinxAccel accel;
    bool one_insn_per_tb;
    unsigned log_mask;   /* LINX_LOG_* */
    FILE *log_file;      /* -D as a stream (default stderr); not closed */
    const char *log_path; /* -D as a path (opened by linx_exec_new) */
    const char *trace_commit_path; /* -trace-commit / LINX_COMMIT_TRACE */
    unsigned long timeout_ms; /* -timeout: wall-clock limit, 0 = none (exec-stop.h) */
    size_t code_buffer_size; /* 0 = default */
    bool no_optimize;    /* run TBs as translated (optimiser differential tests) */
    /* No host faults (tcg/host-fault.c): every JIT access checks the TLB
     * inline.  Default from LINX_HOST_FAULTS=0 in the environment. */
    bool no_host_faults;
    /* No loops inside a TB (target/linx/translate.c gen_loop_back): a
     * self-looping block leaves through its chained goto_tb after each
     * TB's copies.  Default from LINX_LOOP_IN_TB=0 in the environment. */
    bool no_loop_in_tb;
    size_t max_tb_memory; /* TB + IR arena bytes before a flush; 0 = default */
    /* The guest architecture (required; linx_exec_options_init in
     * target/linx/exec-target.h sets LinxISA's). */
    const LinxTargetOps *target;
    /* The JIT backend; NULL = the built-in one (when part of the build). */
    const LinxBackendOps *backend;
} LinxExecOptions;

typedef struct LinxExecContext LinxExecContext;

/* The engine's defaults, no target: interpreter when no JIT is built,
 * else JIT; LINX_COMMIT_TRACE and LINX_HOST_FAULTS from the environment.
 * A front end calls its target's init instead (linx_exec_options_init,
 * target/linx/exec-target.h), which calls this and sets opts->target. */
void linx_exec_options_defaults(LinxExecOptions *opts);

/* The engine options as a table for util/options.h:
 *   -accel jit|interp   -one-insn-per-tb (-singlestep)   -d ITEMS   -D FILE
 *   -trace-commit FILE  -timeout SECONDS
 * The group's handler writes @opts; "-d help" prints the items and stops. */
LinxOptGroup linx_exec_option_group(LinxExecOptions *opts);

/* Parse one engine option at argv[*i] (also spelled with two dashes):
 * 1 and *i advanced past it when it was one, 0 when argv[*i] is not an
 * engine option, -1 with a message in @err on a bad value, 2 after
 * "-d help" (the list was printed; the caller exits successfully). */
int linx_exec_parse_option(LinxExecOptions *opts, int argc, char **argv, int *i, char *err,
                           size_t errlen);
/* One line per option, for a --help text. */
void linx_exec_print_options_help(FILE *f);

/* NULL with a message in @err when the code buffer, the log file or the
 * commit trace cannot be set up. */
LinxExecContext *linx_exec_new(const LinxExecOptions *opts, char *err, size_t errlen);
void linx_exec_free(LinxExecContext *ec);

/* Bind @env to @ec: sets env->engine.exec and env->engine.trace, empties its TLB and
 * jump cache, and watches env->engine.mem (all CPUs of a context must share one
 * address space).  cpu_exec() attaches on first use when env->engine.exec is
 * set but the CPU is not attached yet. */
void linx_exec_attach_cpu(LinxExecContext *ec, CPUArchState *env);
void linx_exec_detach_cpu(LinxExecContext *ec, CPUArchState *env);

LinxAccel linx_exec_accel(const LinxExecContext *ec); /* after fallback */
LinxLog *linx_exec_log(LinxExecContext *ec);
IRContext *linx_exec_ir(LinxExecContext *ec);
LinxCommitTrace *linx_exec_trace(LinxExecContext *ec);

/* Memory that lives exactly as long as the TBs translated now: the front
 * end calls it while translating a TB (e.g. for a tile block's plan, which
 * the TB's code points to) and the block is freed with that TB's memory at
 * the next full flush - never earlier, since an invalidated TB may still
 * be running.  16-byte aligned, not zeroed; never NULL. */
void *linx_exec_tb_alloc(LinxExecContext *ec, size_t size);

/* Tile moves the JIT emitted inline so far (tcg/tile-move.h; 0 under the
 * interpreter or when inlining is off). */
unsigned long linx_exec_tile_moves(const LinxExecContext *ec);
/* Host code for a vector lane program (tcg/vec.h), committed to the code
 * buffer and dropped with the translations: NULL under the interpreter,
 * without AVX2 on the host (or LINX_VEC_ISA=none), when the buffer is
 * full or the program cannot be generated.  For translators, during a
 * translation. */
VecFn linx_exec_gen_vec(LinxExecContext *ec, const VecProg *p);
/* The host vector ISA programs are generated for (tcg/vec.h VecIsa). */
int linx_exec_vec_isa(const LinxExecContext *ec);

/* Run until something needs the caller; returns EXCP_*. */
int cpu_exec(CPUArchState *env);

/* Drop all translations (FENCE.I, debugger changes).  Inside cpu_exec
 * (a helper, or a system call in a blocking region) the TBs are unlinked
 * at once and their memory is reused at the next safe point; outside it
 * the memory is reclaimed at once (in an exclusive section). */
void linx_tb_flush(CPUArchState *env);
/* Make running code come back to the exec loop at the end of its TB
 * (a machine stopping after a device store): every chained jump is
 * unlinked and the jump caches emptied, the translations stay, so the
 * next run of the same program does not translate it again.  A helper
 * may call this. */
void linx_exec_unchain(CPUArchState *env);

/* ---- CPUs in parallel (tcg/exec-cpus.c) ---- */

/* From now on CPUs of @ec may run in parallel, one host thread each: the
 * address space's readers lock (guest_mem_set_threaded), every TB tests
 * env->engine.exit_request at entry (TB_F_EXIT_CHECK; the translations made so
 * far are dropped once) and translation-time TLB updates stay per CPU.
 * Call before a second CPU runs; @self: the calling CPU (may be NULL). */
void linx_exec_set_parallel(LinxExecContext *ec, CPUArchState *self);
bool linx_exec_parallel(const LinxExecContext *ec);

/* Exclusive sections: from start to end no other CPU of @ec runs guest
 * code (each is stopped at a TB boundary or in a blocking region, and
 * none starts).  @self is the calling CPU, which must not be running (call
 * outside cpu_exec or inside a blocking region), or NULL.  The caller must
 * hold no lock a running CPU may wait for (guest_mem_lock included).
 * Sections do not nest. */
void linx_exec_start_exclusive(LinxExecContext *ec, CPUArchState *self);
void linx_exec_end_exclusive(LinxExecContext *ec);

/* Blocking regions: a helper about to block in the host (a system call)
 * stops running, so exclusive sections need not wait for it; it must not
 * use its TLB or the TB cache until linx_exec_blocking_end().  That
 * returns true when translated code was reclaimed meanwhile: the helper
 * must then leave through cpu_loop_exit (with env->pc, env->resume and
 * the block state set for the instruction after it) instead of returning
 * into the TB. */
void linx_exec_blocking_begin(CPUArchState *env);
bool linx_exec_blocking_end(CPUArchState *env);

/* Make @env leave cpu_exec at its next TB boundary (EXCP_INTERRUPT); any
 * thread may call it. */
void linx_cpu_kick(CPUArchState *env);

/* Around a host fork() while CPUs may run in parallel (linux-user's guest
 * fork), inside an exclusive section: prepare takes the exec lock, the
 * address space's writer lock and the CPU-list lock, so the child inherits
 * none held by a thread that does not exist there; parent/child release
 * them.  In the child every CPU but @self leaves the list (the caller
 * frees their states), every translation is dropped and the JIT gets a
 * code buffer of its own (the double mapping is a memfd the parent keeps
 * writing to); the exclusive section is then ended by the caller in both
 * processes. */
void linx_exec_fork_prepare(LinxExecContext *ec);
void linx_exec_fork_parent(LinxExecContext *ec);
void linx_exec_fork_child(LinxExecContext *ec, CPUArchState *self);
/* Drop the translations of one guest page (self-modifying code). */
void linx_tb_invalidate_page(LinxExecContext *ec, uint64_t page_addr);

/* ---- Indirect jumps ---- */

/* The lookup helper behind goto_ptr: host code (JIT) or TB pointer
 * (interpreter) of the TB for (env->pc, flags), or the exit address
 * (JIT: BackendState.exit_addr; interpreter: 0) when it is not
 * translated yet, must not be entered by a branch (TB_C_CFI_BAD), or
 * chaining is off.  Reads globals, writes none. */
uint64_t helper_lookup_tb_ptr(CPUArchState *env);
extern const IRHelperInfo linx_helper_lookup_tb_ptr_info;

/* Emit "call lookup_tb_ptr(env); goto_ptr" (env->pc already stored). */
void ir_gen_lookup_and_goto_ptr(IRContext *ir);

/* ---- Debugger support (gdbstub) ---- */

/* Breakpoints are checked at translation time, never per instruction at
 * run time: the front end asks linx_exec_breakpoint_at() for each
 * instruction it translates and, where it says yes, emits a call of
 * helper_debug_stop(env, pc, resume) before the instruction and ends the
 * TB.  Inserting or removing a breakpoint invalidates the translations of
 * its page.  Return false for a duplicate insert / unknown remove. */
bool linx_exec_breakpoint_insert(LinxExecContext *ec, uint64_t pc);
bool linx_exec_breakpoint_remove(LinxExecContext *ec, uint64_t pc);
void linx_exec_breakpoint_remove_all(LinxExecContext *ec);
bool linx_exec_breakpoint_at(const LinxExecContext *ec, uint64_t pc);
/* May the front end translate a self-looping block as a loop inside its
 * TB (LinxExecOptions.no_loop_in_tb)? */
bool linx_exec_loop_in_tb(const LinxExecContext *ec);

/* Single-step: while on, cpu_exec() translates one instruction per TB
 * (TB_F_ONE_INSN), runs one TB and returns EXCP_DEBUG (or the exception
 * the instruction raised). */
void linx_exec_set_single_step(LinxExecContext *ec, bool on);

/* Exit checks while @on (gdbstub): TBs are translated with TB_F_EXIT_CHECK,
 * and the front end makes such a TB leave before its first instruction
 * when env->engine.exit_request is set (env->pc and env->resume then name that
 * TB again), so another thread can stop chained code at the next block,
 * at the cost of one load and branch per TB (turning chaining off would
 * cost a return to the exec loop per block).  Switching drops all
 * translations (no TB without the check stays chained). */
void linx_exec_set_exit_check(LinxExecContext *ec, bool on);

/* Write watchpoints, stopping BEFORE the store (what gdb's riscv gdbarch
 * and lldb expect: gdb then steps the store itself).  A page holding a
 * watched byte gets TLB_WATCH in its TLB write tags, so translated stores
 * to it take the slow path, which calls linx_exec_watch_check(); helpers
 * that write guest memory another way (bulk copies, kernel vector stores,
 * tile stores) call it for their whole footprint before writing.  A hit
 * sets env->pc to the storing instruction and makes cpu_exec() return
 * EXCP_DEBUG with nothing of the instruction done (stores fault
 * precisely); linx_exec_watch_hit() then says so and where.  Up to
 * LINX_EXEC_MAX_WATCH ranges (cpu-exit.h, with linx_exec_watch_check and
 * linx_exec_page_watched); insert false when full or for len 0. */
bool linx_exec_watch_insert(LinxExecContext *ec, uint64_t addr, uint64_t len);
void linx_exec_watch_remove(LinxExecContext *ec, uint64_t addr, uint64_t len);
void linx_exec_watch_remove_all(LinxExecContext *ec);
/* While @on, stores ignore the watchpoints (the debugger steps over the
 * store it stopped before). */
void linx_exec_watch_suspend(LinxExecContext *ec, bool on);
/* After EXCP_DEBUG: true (and the first watched address the store would
 * have written) when a watchpoint stopped it; clears the note. */
bool linx_exec_watch_hit(LinxExecContext *ec, uint64_t *addr);

/* Inspection for the debugger's monitor commands: call @fn for every
 * valid TB (in translation order). */
void linx_exec_foreach_tb(LinxExecContext *ec,
                          void (*fn)(void *opaque, const TranslationBlock *tb), void *opaque);
/* Turn the commit trace on or off at run time (-trace-commit's writer).
 * On with @path: (re)open the trace at @path; on without one: resume the
 * trace already open (false with a message in @err when there is none).
 * Off keeps the file open and flushed.  Drops all translations (TB_F_TRACE
 * is part of the TB key). */
bool linx_exec_set_commit_trace(LinxExecContext *ec, bool on, const char *path, char *err,
                                size_t errlen);
/* Is the commit trace being written? */
bool linx_exec_commit_trace_on(const LinxExecContext *ec);

/* Stop for the debugger before the instruction at @pc: env->pc = @pc,
 * env->resume = @resume (1 when @pc is inside a block), cpu_exec()
 * returns EXCP_DEBUG. */
void helper_debug_stop(CPUArchState *env, uint64_t pc, uint64_t resume);
extern const IRHelperInfo linx_helper_debug_stop_info;

/* ---- Differential testing and debugging ---- */

/* The TB for (pc, flags), translated if needed (no CFI check). */
TranslationBlock *linx_exec_tb_find(CPUArchState *env, uint64_t pc, uint32_t flags);
/* Run exactly one TB at env->pc under @accel (the JIT falls back to the
 * interpreter when not built), without chaining from it; returns EXCP_*
 * when the TB left through cpu_loop_exit, else 0.  For comparing the two
 * backends TB by TB (set LINX_LOG_NOCHAIN so no earlier chain is
 * followed inside host code). */
int linx_exec_step(CPUArchState *env, LinxAccel accel);

typedef struct LinxExecStats {
    uint64_t tbs_translated;
    uint64_t tbs_executed;   /* entered from the loop (not chained) */
    uint64_t chains;         /* goto_tb links made */
    uint64_t flushes;
    uint64_t invalidations;  /* TBs invalidated (SMC, unmap, ...) */
    uint64_t jc_hits, jc_misses; /* per-CPU jump cache */
    uint64_t buffer_full;    /* code buffer flushes */
    uint64_t host_faults;    /* JIT accesses sent to their slow path by a host fault */
    /* Translation cost by stage, thread CPU ns, measured only with -d
     * stats (LINX_LOG_STATS): front end (decode and IR build, one pass),
     * optimiser, backend (liveness, register allocation and emission, one
     * pass); the whole translation (ns_translate: the stages and what
     * lies between them - the TB's memory, its op list, the hash); guest
     * instructions translated.  Each excludes the cost of reading the
     * clock (ns_clock_read, measured once: the least time between two
     * back-to-back readings). */
    uint64_t guest_insns_translated;
    uint64_t ns_frontend, ns_optimize, ns_backend, ns_translate, ns_clock_read;
} LinxExecStats;
void linx_exec_get_stats(const LinxExecContext *ec, LinxExecStats *st);
/* One "stats: name=value ..." line on the -d log (-d stats prints it when
 * the context is freed, i.e. when a front end's run ends). */
void linx_exec_log_stats(LinxExecContext *ec);

#endif /* LINX_TCG_EXEC_H */
