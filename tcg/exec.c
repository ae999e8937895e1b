/*
 * The execution loop, exceptions, options and the exec context's life
 * cycle (exec.h).  TB storage, lookup, chaining and invalidation are in
 * tb-cache.c.
 *
 * The loop (cpu_exec_loop), one iteration per TB entered from the loop:
 *   1. stop on env->engine.exit_request; reclaim memory of a pending flush;
 *   2. flags = the CPU's TB flags (resume) | one-insn | trace;
 *   3. find the TB (jump cache, hash) or translate it (front end, then the
 *      optimiser, then the JIT backend when -accel jit);
 *   4. a TB whose first instruction is not a block-start marker
 *      (TB_C_CFI_BAD) entered by a branch raises the target's bad-target
 *      fault here (LinxTargetOps.raise_bad_target with the source block
 *      when a direct edge names it - the source TB's jmp_src_bpc -; for
 *      LinxISA E_BLOCK(EC_CFI)): the verdict is cached in the TB, no
 *      branch checks it at run time;
 *   5. chain the goto_tb slot the previous TB left through to this TB;
 *   6. run it (interpreter or host code); its exit value names the TB and
 *      slot it left through (or 0).
 * Exceptions leave through cpu_loop_exit (siglongjmp to cpu_exec), which
 * returns the reason or resumes the loop.
 */
#include "tcg/exec-internal.h"

#include <errno.h>
#include <inttypes.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw/core/guest-memory.h"
#include "tcg/engine-config.h"
#include "tcg/softmmu.h"
#include "tcg/vec.h"
#include "util/atomic.h"

#if LINX_HAVE_OPTIMIZER
#include "tcg/optimize.h"
#endif

#if LINX_HAVE_JIT
static const LinxBackendOps builtin_backend = {
    .init = backend_init,
    .gen_tb = backend_gen_tb,
    .set_jmp = backend_set_jmp,
};
#endif

/* ------------------------------------------------------------------ */
/* Context and CPUs                                                    */
/* ------------------------------------------------------------------ */

void exec_own_lock_init(LinxExecContext *ec)
{
    pthread_mutexattr_t ma;

    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&ec->own_lock, &ma);
    pthread_mutexattr_destroy(&ma);
}

LinxExecContext *linx_exec_new(const LinxExecOptions *opts, char *err, size_t errlen)
{
    LinxExecContext *ec = g_new0(LinxExecContext, 1);

    ec->opts = *opts;
    exec_own_lock_init(ec);
    pthread_mutex_init(&ec->cpu_lock, NULL);
    pthread_cond_init(&ec->exclusive_cond, NULL);
    pthread_cond_init(&ec->exclusive_resume, NULL);
    ec->x.log = &ec->log;
    ec->log.mask = opts->log_mask;
    ec->log.file = opts->log_file;
    if (opts->log_path && !linx_log_open(&ec->log, opts->log_path, err, errlen)) {
        g_free(ec);
        return NULL;
    }
    if (opts->trace_commit_path) {
        ec->trace = linx_commit_trace_open(opts->trace_commit_path, err, errlen);
        if (!ec->trace) {
            linx_log_close(&ec->log);
            g_free(ec);
            return NULL;
        }
    }
    ec->nochain = (opts->log_mask & (LINX_LOG_EXEC | LINX_LOG_CPU | LINX_LOG_NOCHAIN)) != 0;
    ec->tb_flags_extra = (opts->one_insn_per_tb ? TB_F_ONE_INSN : 0) |
                         (ec->trace ? TB_F_TRACE : 0);
    ec->breakpoints = g_hash_table_new(g_direct_hash, g_direct_equal);

    ec->target = opts->target;
    ec->x.target = ec->target;
    if (!ec->target || !ec->target->translate || !ec->target->raise_mem_fault ||
        !ec->target->raise_bad_target) {
        snprintf(err, errlen,
                 "no front end: %s%s has no translator or no fault hooks (LinxExecOptions.target)",
                 ec->target ? "target " : "no target given, or this build's target",
                 ec->target && ec->target->name ? ec->target->name : "");
        linx_commit_trace_close(ec->trace);
        linx_log_close(&ec->log);
        g_free(ec);
        return NULL;
    }
    ec->ir = ir_context_new();
    if (ec->target->translate_init) {
        ec->target->translate_init(ec->ir);
    }
    tb_cache_init(ec);

    ec->accel = opts->accel;
    if (ec->accel == LINX_ACCEL_JIT) {
        ec->backend = opts->backend;
#if LINX_HAVE_JIT
        if (!ec->backend) {
            ec->backend = &builtin_backend;
        }
#endif
        if (!ec->backend) {
            fprintf(stderr, "linxemu: -accel jit: this build has no JIT backend yet; "
                            "running the IR interpreter instead\n");
            ec->accel = LINX_ACCEL_INTERP;
        } else if (!code_buffer_init(&ec->cb, opts->code_buffer_size)) {
            snprintf(err, errlen, "-accel jit: cannot map the code buffer (%zu bytes): %s",
                     opts->code_buffer_size ? opts->code_buffer_size
                                            : (size_t)CODE_BUFFER_DEFAULT_SIZE,
                     strerror(errno));
            linx_exec_free(ec);
            return NULL;
        } else if (!ec->backend->init(&ec->bs, &ec->cb)) {
            snprintf(err, errlen, "-accel jit: the backend could not emit its prologue");
            linx_exec_free(ec);
            return NULL;
        } else if (ec->cb.reserved < ec->cb.used) {
            code_buffer_set_reserved(&ec->cb);
        }
        if (ec->backend) {
#if LINX_HAVE_JIT
            ec->vec_isa = vec_host_isa();
#endif
            linx_exec_update_inline_lookup(ec);
            /* Every TB adds to insn_count: keep it in a host register
             * across TBs (docs/performance.md). */
            ec->bs.pinned_env_offset = (int32_t)ec->target->insn_count_offset;
            ec->fault_sites = g_array_new(false, false, 2 * sizeof(uintptr_t));
        }
    }
    return ec;
}

void exec_update_hostfault(LinxExecContext *ec)
{
    /* Host faults (tcg/host-fault.c): the window's protection mirrors
     * the TLB, accesses go unchecked and faults to the slow path.  Not
     * while debugger watchpoints are set (they live in TLB tags), nor
     * once CPUs run in parallel (the fault sites and the host protection
     * are one CPU's; guest_mem_set_threaded turns them off). */
    bool hf = ec->accel == LINX_ACCEL_JIT && ec->mem && ec->bs.guest_direct && !ec->mt &&
              ec->fault_sites && !ec->opts.no_host_faults && ec->x.nwatch == 0 &&
              host_fault_install() && guest_mem_enable_host_faults(ec->mem);

    if (hf != ec->bs.guest_hostfault) {
        tb_flush_all(ec, NULL);
        ec->bs.guest_hostfault = hf;
        ec->bs.fault_site = host_fault_site;
        ec->bs.fault_site_opaque = ec;
    }
}

static void watch_memory(LinxExecContext *ec, GuestMemory *mem)
{
    GuestMemListener l = { tb_mem_changed, tb_code_written, ec };

    if (!mem || ec->mem == mem) {
        return;
    }
    if (ec->mem) {
        fprintf(stderr, "linxemu: internal error: the CPUs of one exec context must share "
                        "one address space\n");
        abort();
    }
    if (!guest_mem_add_listener(mem, &l)) {
        fprintf(stderr, "linxemu: internal error: too many listeners on one address space\n");
        abort();
    }
    ec->mem = mem;
    if (ec->accel == LINX_ACCEL_JIT) {
        /* Generated code adds the direct window's base (tcg/softmmu.h);
         * code made for another address space's window must go. */
        uintptr_t base = (uintptr_t)guest_mem_direct_base(mem, NULL);
        if ((base != 0) != ec->bs.guest_direct || base != ec->bs.guest_base) {
            tb_flush_now(ec);
            ec->bs.guest_direct = base != 0;
            ec->bs.guest_base = base;
        }
        exec_update_hostfault(ec);
    }
}

void exec_rebuild_code_buffer(LinxExecContext *ec)
{
    BackendState saved = ec->bs;
    size_t size = ec->cb.size;

    if (ec->accel != LINX_ACCEL_JIT || !ec->cb.rw) {
        return;
    }
    code_buffer_destroy(&ec->cb);
    if (!code_buffer_init(&ec->cb, size) || !ec->backend->init(&ec->bs, &ec->cb)) {
        fprintf(stderr, "linxemu: cannot set up a code buffer after fork: %s\n",
                strerror(errno));
        _exit(EXIT_FAILURE);
    }
    if (ec->cb.reserved < ec->cb.used) {
        code_buffer_set_reserved(&ec->cb);
    }
    ec->bs.guest_direct = saved.guest_direct;
    ec->bs.guest_base = saved.guest_base;
    ec->bs.pinned_env_offset = saved.pinned_env_offset;
    linx_exec_update_inline_lookup(ec);
}

void linx_exec_attach_cpu(LinxExecContext *ec, CPUArchState *env)
{
    cpu_engine(env)->exec = ec;
    cpu_engine(env)->trace = ec->trace;
    cpu_engine(env)->exception_index = EXCP_NONE;
    if (!cpu_engine(env)->interp) {
        cpu_engine(env)->interp = interp_new(ec->ir);
    }
    linx_tlb_flush(env);
    {
        uint64_t win = 0;

        /* Addresses at or above the window, and misaligned ones, take the
         * slow path (without a window the masks are never used). */
        if (cpu_engine(env)->mem && guest_mem_direct_base(cpu_engine(env)->mem, &win) && win) {
            for (unsigned s = 0; s < 4; s++) {
                cpu_engine(env)->host_fault_mask[s] = ~(win - 1) | ((UINT64_C(1) << s) - 1);
            }
        } else {
            memset(cpu_engine(env)->host_fault_mask, 0xff,
                   sizeof(cpu_engine(env)->host_fault_mask));
        }
    }
    memset(cpu_engine(env)->tb_jmp_cache, 0, sizeof(cpu_engine(env)->tb_jmp_cache));
    watch_memory(ec, cpu_engine(env)->mem);
    exec_cpu_list_add(ec, env);
}

void linx_exec_detach_cpu(LinxExecContext *ec, CPUArchState *env)
{
    if (!exec_cpu_list_remove(ec, env)) {
        return;
    }
    exec_lock(ec);
    ec->detached_stats.tbs_executed += cpu_engine(env)->tbs_executed;
    ec->detached_stats.jc_hits += cpu_engine(env)->jc_hits;
    ec->detached_stats.jc_misses += cpu_engine(env)->jc_misses;
    exec_unlock(ec);
    cpu_engine(env)->tbs_executed = cpu_engine(env)->jc_hits = cpu_engine(env)->jc_misses = 0;
    if (ec->target->cpu_detach) {
        ec->target->cpu_detach(env); /* LinxISA: large kernels' heap memory */
    }
    cpu_engine(env)->exec = NULL;
    cpu_engine(env)->trace = NULL;
    interp_free(cpu_engine(env)->interp);
    cpu_engine(env)->interp = NULL;
    if (ec->ncpus == 0 && ec->mem) {
        guest_mem_remove_listener(ec->mem, ec);
        ec->mem = NULL;
    }
}

void linx_exec_free(LinxExecContext *ec)
{
    if (!ec) {
        return;
    }
    while (ec->ncpus) {
        linx_exec_detach_cpu(ec, ec->cpus[ec->ncpus - 1]);
    }
    if (ec->log.mask & LINX_LOG_STATS) {
        linx_exec_log_stats(ec);
    }
    if (ec->mem) {
        guest_mem_remove_listener(ec->mem, ec);
    }
    tb_cache_destroy(ec);
    ir_context_free(ec->ir);
    if (ec->cb.rw) {
        code_buffer_destroy(&ec->cb);
    }
    linx_commit_trace_close(ec->trace);
    linx_log_close(&ec->log);
    if (ec->fault_sites) {
        g_array_free(ec->fault_sites, true);
    }
    if (ec->breakpoints) {
        g_hash_table_destroy(ec->breakpoints);
    }
    g_free(ec->cpus);
    pthread_cond_destroy(&ec->exclusive_resume);
    pthread_cond_destroy(&ec->exclusive_cond);
    pthread_mutex_destroy(&ec->cpu_lock);
    pthread_mutex_destroy(&ec->own_lock);
    g_free(ec);
}

LinxAccel linx_exec_accel(const LinxExecContext *ec)
{
    return ec->accel;
}

LinxLog *linx_exec_log(LinxExecContext *ec)
{
    return &ec->log;
}

IRContext *linx_exec_ir(LinxExecContext *ec)
{
    return ec->ir;
}

LinxCommitTrace *linx_exec_trace(LinxExecContext *ec)
{
    return ec->trace;
}

unsigned long linx_exec_tile_moves(const LinxExecContext *ec)
{
    return ec->bs.tile_moves;
}

void *linx_exec_tb_alloc(LinxExecContext *ec, size_t size)
{
    return tb_arena_alloc(ec, size);
}

VecFn linx_exec_gen_vec(LinxExecContext *ec, const VecProg *p)
{
#if LINX_HAVE_JIT
    if (ec->accel == LINX_ACCEL_JIT && ec->vec_isa != VEC_ISA_NONE && ec->cb.rw) {
        VecFn fn;
        /* The code buffer is shared with translation on other CPUs. */
        exec_lock(ec);
        fn = vec_gen_code(&ec->cb, p, (VecIsa)ec->vec_isa,
                          linx_log_enabled(&ec->log, LINX_LOG_OUT_ASM) ? linx_log_file(&ec->log)
                                                                        : NULL);
        exec_unlock(ec);
        return fn;
    }
#else
    (void)ec;
    (void)p;
#endif
    return NULL;
}

int linx_exec_vec_isa(const LinxExecContext *ec)
{
    return ec->accel == LINX_ACCEL_JIT ? ec->vec_isa : VEC_ISA_NONE;
}

void linx_exec_get_stats(const LinxExecContext *cec, LinxExecStats *st)
{
    LinxExecContext *ec = (LinxExecContext *)cec;

    exec_lock(ec);
    *st = ec->stats;
    st->tbs_executed += ec->detached_stats.tbs_executed;
    st->jc_hits += ec->detached_stats.jc_hits;
    st->jc_misses += ec->detached_stats.jc_misses;
    exec_unlock(ec);
    /* The per-CPU counters: exact when the CPUs are not running. */
    pthread_mutex_lock(&ec->cpu_lock);
    for (unsigned i = 0; i < ec->ncpus; i++) {
        st->tbs_executed += atomic_read(&cpu_engine(ec->cpus[i])->tbs_executed);
        st->jc_hits += atomic_read(&cpu_engine(ec->cpus[i])->jc_hits);
        st->jc_misses += atomic_read(&cpu_engine(ec->cpus[i])->jc_misses);
    }
    pthread_mutex_unlock(&ec->cpu_lock);
}

void linx_exec_log_stats(LinxExecContext *ec)
{
    const LinxExecStats *st = &ec->stats;

    linx_log_printf(&ec->log,
                    "stats: tbs_translated=%" PRIu64 " tbs_executed=%" PRIu64
                    " chains=%" PRIu64 " flushes=%" PRIu64 " invalidations=%" PRIu64
                    " jc_hits=%" PRIu64 " jc_misses=%" PRIu64 " buffer_full=%" PRIu64
                    " host_faults=%" PRIu64 " guest_insns_translated=%" PRIu64
                    " ns_frontend=%" PRIu64 " ns_optimize=%" PRIu64 " ns_backend=%" PRIu64
                    " ns_translate=%" PRIu64 " ns_clock_read=%" PRIu64 "\n",
                    st->tbs_translated, st->tbs_executed, st->chains, st->flushes,
                    st->invalidations, st->jc_hits, st->jc_misses, st->buffer_full,
                    st->host_faults, st->guest_insns_translated, st->ns_frontend,
                    st->ns_optimize, st->ns_backend, st->ns_translate, st->ns_clock_read);
}

/* ------------------------------------------------------------------ */
/* Translation                                                         */
/* ------------------------------------------------------------------ */

/* The TB key of @env's next TB: its pc in *@pc, the flags returned. */
static uint32_t exec_tb_flags(const LinxExecContext *ec, CPUArchState *env, uint64_t *pc)
{
    uint32_t flags;

    linx_cpu_tb_key(ec->target, env, pc, &flags);
    return flags | atomic_read(&ec->tb_flags_extra);
}

#ifndef NDEBUG
/* Debug builds validate the IR after the front end and the optimiser. */
static _Noreturn void bad_ir(LinxExecContext *ec, const TranslationBlock *tb, const char *stage)
{
    fprintf(stderr, "linxemu: internal error: invalid IR %s for the block at pc 0x%" PRIx64
            " (flags 0x%x):\n", stage, tb->pc, tb->flags);
    ir_validate(ec->ir, stderr);
    ir_dump(ec->ir, stderr);
    abort();
}
#endif

/* -d in_asm: the guest instructions a TB covers, one per line:
 *   0x0000000000010000:  0800          C.BSTART.STD	FALL */
static void log_in_asm(LinxExecContext *ec, CPUArchState *env, const TranslationBlock *tb)
{
    FILE *f = linx_log_file(&ec->log);
    uint8_t *code;
    uint32_t off = 0;

    fprintf(f, "IN: pc 0x%" PRIx64 " flags 0x%x (%u insns, %u bytes)\n", tb->pc, tb->flags,
            tb->icount, tb->size);
    if (!cpu_engine(env)->mem || tb->size == 0) {
        return;
    }
    code = g_malloc(tb->size);
    if (guest_mem_debug_rw(cpu_engine(env)->mem, tb->pc, code, tb->size, false) != GM_OK) {
        fprintf(f, "  (code not readable)\n\n");
        g_free(code);
        return;
    }
    while (off < tb->size) {
        if (ec->target->disas_insn) {
            char text[1024], hex[64];
            unsigned len = ec->target->disas_insn(code + off, tb->size - off, tb->pc + off,
                                                  text, sizeof(text), hex, sizeof(hex));
            if (len == 0) {
                break;
            }
            fprintf(f, "0x%016" PRIx64 ":  %-18s %s\n", tb->pc + off, hex, text);
            off += len;
        } else {
            fprintf(f, "0x%016" PRIx64 ":  %02x\n", tb->pc + off, code[off]);
            off++;
        }
    }
    fputc('\n', f);
    g_free(code);
}

/* Ops the interpreter need not see: no code, no effect. */
static bool ir_op_is_marker(const IRInsn *in)
{
    return in->dead || in->op == IR_insn_start || in->op == IR_discard;
}

/* Keep the (optimised) op list in the TB for the interpreter, without
 * the ops that generate no code. */
static void tb_keep_ir(LinxExecContext *ec, TranslationBlock *tb)
{
    const IRContext *ir = ec->ir;
    unsigned n = 0;

    for (unsigned i = 0; i < ir->ninsns; i++) {
        n += !ir_op_is_marker(&ir->insns[i]);
    }
    tb->ir = tb_arena_alloc(ec, (n ? n : 1) * sizeof(IRInsn));
    tb->nir = n;
    n = 0;
    for (unsigned i = 0; i < ir->ninsns; i++) {
        if (!ir_op_is_marker(&ir->insns[i])) {
            tb->ir[n++] = ir->insns[i];
        }
    }
    tb->ntemps = ir->ntemps;
    tb->temps = tb_arena_alloc(ec, (ir->ntemps ? ir->ntemps : 1) * sizeof(IRTempInfo));
    memcpy(tb->temps, ir->temps, ir->ntemps * sizeof(IRTempInfo));
}

/* Nanoseconds of the thread's CPU clock, for the per-stage translation
 * cost (-d stats); 0 when not measured. */
static uint64_t stage_clock(const LinxExecContext *ec)
{
    struct timespec ts;

    if (!(ec->log.mask & LINX_LOG_STATS)) {
        return 0;
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What one reading of the thread CPU clock adds to an interval between
 * two readings (a system call, about 0.5 us here: as much as a stage of
 * a small TB): the smallest of 32 back-to-back pairs, measured once.
 * The stage times subtract it per interval, so they count translation
 * work only (an underestimate of the cost subtracted: the stages read
 * the clock with colder caches). */
static uint64_t clock_read_cost(LinxExecContext *ec)
{
    if (!ec->stats.ns_clock_read && (ec->log.mask & LINX_LOG_STATS)) {
        uint64_t best = UINT64_MAX;
        for (unsigned i = 0; i < 32; i++) {
            uint64_t a = stage_clock(ec), b = stage_clock(ec);
            best = b - a < best ? b - a : best;
        }
        ec->stats.ns_clock_read = best ? best : 1;
    }
    return ec->stats.ns_clock_read;
}

/* @end - @start less @reads readings' cost (not below 0). */
static uint64_t stage_ns(LinxExecContext *ec, uint64_t start, uint64_t end, unsigned reads)
{
    uint64_t d = end - start, c = (uint64_t)reads * clock_read_cost(ec);

    return d > c ? d - c : 0;
}

/* Translate the block at (pc, flags) under the exec lock.  NULL when the
 * TB memory or the code buffer is full: the caller reclaims (an exclusive
 * section, without the lock) and tries again; @after_flush says it did,
 * so a block that does not fit an empty buffer is a configuration error. */
static TranslationBlock *tb_gen_code(LinxExecContext *ec, CPUArchState *env, uint64_t pc,
                                     uint32_t flags, bool after_flush)
{
    FILE *lf = linx_log_file(&ec->log);
    /* -d stats: clock readings at the start (t_start), after the front
     * end (t_front), after the optimiser (t_opt), around the backend and
     * at the end; the whole (ns_translate) also counts what lies between
     * the stages (the TB's memory, its op list, the hash insertion). */
    uint64_t t_start, t_front, t_opt, t0;

    if (ec->arena_bytes >= ec->max_tb_memory && !after_flush) {
        return NULL;
    }
    for (unsigned attempt = after_flush ? 1 : 0;; attempt++) {
        t_start = stage_clock(ec);
        TranslationBlock *tb = tb_arena_alloc(ec, sizeof(TranslationBlock));
        uint64_t last;
        unsigned reads = 3; /* clock readings inside [t_start, end] */

        memset(tb, 0, sizeof(*tb));
        tb->pc = pc;
        tb->flags = flags;
        tb->page_addr[1] = UINT64_MAX;
        ir_reset(ec->ir);
        ec->target->translate(env, ec->ir, tb);
        t_front = stage_clock(ec);
        ec->stats.ns_frontend += stage_ns(ec, t_start, t_front, 1);
        ec->stats.guest_insns_translated += tb->icount;
        if (linx_log_enabled(&ec->log, LINX_LOG_IN_ASM) && attempt == 0) {
            log_in_asm(ec, env, tb);
        }
        if (linx_log_enabled(&ec->log, LINX_LOG_OP)) {
            fprintf(lf, "OP for pc 0x%" PRIx64 " flags 0x%x:\n", pc, flags);
            ir_dump(ec->ir, lf);
            fputc('\n', lf);
        }
#ifndef NDEBUG
        if (!ir_validate(ec->ir, NULL)) {
            bad_ir(ec, tb, "from the front end");
        }
#endif
#if LINX_HAVE_OPTIMIZER
        if (!ec->opts.no_optimize) {
            ir_optimize(ec->ir);
#ifndef NDEBUG
            if (!ir_validate(ec->ir, NULL)) {
                bad_ir(ec, tb, "after the optimiser");
            }
#endif
        }
#endif
        if (linx_log_enabled(&ec->log, LINX_LOG_OP_OPT)) {
            fprintf(lf, "OP after optimisation for pc 0x%" PRIx64 ":\n", pc);
            ir_dump(ec->ir, lf);
            fputc('\n', lf);
        }
        t_opt = stage_clock(ec);
        ec->stats.ns_optimize += stage_ns(ec, t_front, t_opt, 1);
        if (ec->accel != LINX_ACCEL_JIT || ec->keep_ir || ec->backend->needs_tb_ir) {
            tb_keep_ir(ec, tb);
        }
        tb->page_addr[0] = pc & GUEST_PAGE_MASK;
        last = (pc + (tb->size ? tb->size - 1 : 0)) & GUEST_PAGE_MASK;
        if (last != tb->page_addr[0]) {
            tb->page_addr[1] = last;
        }
        if (ec->accel == LINX_ACCEL_JIT) {
            FILE *asm_log = linx_log_enabled(&ec->log, LINX_LOG_OUT_ASM) ? lf : NULL;
            bool gen_ok;

            t0 = stage_clock(ec);
            /* Room for this TB's code without page faults (most TBs need
             * well under 4 KiB). */
            code_buffer_populate(&ec->cb, ec->cb.used + 16 * 1024);
            gen_ok = ec->backend->gen_tb(&ec->bs, &ec->cb, ec->ir, tb, asm_log);
            ec->stats.ns_backend += stage_ns(ec, t0, stage_clock(ec), 1);
            reads += 2;
            if (!gen_ok) {
                if (attempt > 0) {
                    /* A configuration error, not a bug: say so and stop. */
                    fprintf(stderr, "linxemu: the block at pc 0x%" PRIx64 " does not fit in "
                            "an empty code buffer (%zu bytes); use a larger buffer\n", pc,
                            ec->cb.size);
                    exit(EXIT_FAILURE);
                }
                ec->stats.buffer_full++;
                return NULL;
            }
        }
        tb_insert(ec, tb);
        /* This CPU's TLB learns the new code marks now (stores to the
         * pages take the slow path that invalidates); other CPUs' TLBs are
         * left alone while CPUs run in parallel (docs/engine.md). */
        for (unsigned i = 0; i < 2; i++) {
            if (tb->page_addr[i] != UINT64_MAX) {
                linx_tlb_flush_range(env, tb->page_addr[i], GUEST_PAGE_SIZE);
            }
        }
        ec->stats.tbs_translated++;
        ec->stats.ns_translate += stage_ns(ec, t_start, stage_clock(ec), reads);
        return tb;
    }
}

/* The TB for (pc, flags): looked up, else translated (reclaiming TB
 * memory first when it is full).  @env is running; it stops running for
 * the reclaim. */
static TranslationBlock *tb_find_or_translate(LinxExecContext *ec, CPUArchState *env, uint64_t pc,
                                              uint32_t flags)
{
    TranslationBlock *tb = tb_lookup(ec, env, pc, flags);
    bool flushed = false;

    while (!tb) {
        exec_lock(ec);
        tb = tb_lookup(ec, env, pc, flags);
        if (!tb) {
            tb = tb_gen_code(ec, env, pc, flags, flushed);
        }
        if (!tb) {
            tb_flush_request(ec, false);
        }
        exec_unlock(ec);
        if (!tb) {
            if (cpu_engine(env)->running) {
                cpu_exec_end(env);
                tb_flush_reclaim(ec, env);
                cpu_exec_start(env);
            } else {
                tb_flush_reclaim(ec, env);
            }
            flushed = true;
        }
    }
    return tb;
}

TranslationBlock *linx_exec_tb_find(CPUArchState *env, uint64_t pc, uint32_t flags)
{
    return tb_find_or_translate(cpu_engine(env)->exec, env, pc, flags);
}

/* ------------------------------------------------------------------ */
/* Exceptions                                                          */
/* ------------------------------------------------------------------ */

void linx_exec_unchain(CPUArchState *env)
{
    if (cpu_engine(env)->exec) {
        tb_unchain_all(cpu_engine(env)->exec);
    }
}

void linx_tb_flush(CPUArchState *env)
{
    if (cpu_engine(env)->exec) {
        tb_flush_all(cpu_engine(env)->exec, env);
    }
}

/* ------------------------------------------------------------------ */
/* Indirect jumps                                                      */
/* ------------------------------------------------------------------ */

void linx_exec_update_inline_lookup(LinxExecContext *ec)
{
    /* The inline probe follows indirect jumps without the loop: not when
     * every TB must return to it. */
    bool on = !ec->nochain && !ec->x.single_step;

    ec->bs.lookup_info = on ? &linx_helper_lookup_tb_ptr_info : NULL;
    ec->bs.lookup_slow = on ? helper_lookup_tb_ptr : NULL;
    ec->bs.pc_offset = (int32_t)ec->target->pc_offset;
    ec->bs.tb_flags_offset = (int32_t)ec->target->tb_flags_offset;
}

static uint64_t exit_target(const LinxExecContext *ec)
{
    return ec->accel == LINX_ACCEL_JIT ? (uint64_t)(uintptr_t)ec->bs.exit_addr : 0;
}

uint64_t helper_lookup_tb_ptr(CPUArchState *env)
{
    LinxExecContext *ec = cpu_engine(env)->exec;
    uint64_t pc;
    uint32_t flags = exec_tb_flags(ec, env, &pc);
    TranslationBlock *tb = atomic_load_acq(&cpu_engine(env)->tb_jmp_cache[tb_jmp_cache_hash(pc)]);
    bool stop = ec->nochain || ec->x.single_step || atomic_read(&cpu_engine(env)->exit_request);

    /* Fast path: a valid jump-cache hit that may be entered by a branch. */
    if (tb && tb->pc == pc && tb->flags == flags &&
        !(atomic_read(&tb->cflags) & (TB_C_CFI_BAD | TB_C_INVALID)) && !stop) {
        return ec->accel == LINX_ACCEL_JIT ? (uint64_t)(uintptr_t)tb->host_code
                                           : (uint64_t)(uintptr_t)tb;
    }
    if (stop) {
        return exit_target(ec);
    }
    tb = tb_lookup(ec, env, pc, flags);
    if (!tb || ((tb->cflags & TB_C_CFI_BAD) && !(flags & TB_F_RESUME))) {
        return exit_target(ec);
    }
    if (ec->accel == LINX_ACCEL_JIT) {
        return (uint64_t)(uintptr_t)tb->host_code;
    }
    return (uint64_t)(uintptr_t)tb;
}

const IRHelperInfo linx_helper_lookup_tb_ptr_info = {
    .name = "lookup_tb_ptr",
    .func = (void *)helper_lookup_tb_ptr,
    .nargs = 1,
    .has_ret = 1,
    .flags = IR_CALL_NO_WG,
};

void ir_gen_lookup_and_goto_ptr(IRContext *ir)
{
    IRTemp t = ir_temp(ir);
    IRTemp args[1] = { ir->env };

    ir_gen_call(ir, &linx_helper_lookup_tb_ptr_info, t, 1, args);
    ir_gen_goto_ptr(ir, t);
}

/* ------------------------------------------------------------------ */
/* The loop                                                            */
/* ------------------------------------------------------------------ */

static void log_cpu_state(LinxExecContext *ec, CPUArchState *env)
{
    FILE *f = linx_log_file(&ec->log);

    if (ec->target->dump_state) {
        ec->target->dump_state(env, f);
    } else {
        fprintf(f, "pc  %016" PRIx64 "\n", *linx_cpu_word(env, ec->target->pc_offset));
    }
}

static uintptr_t run_tb(LinxExecContext *ec, CPUArchState *env, TranslationBlock *tb,
                        LinxAccel accel)
{
    cpu_engine(env)->tbs_executed++;
    if (accel == LINX_ACCEL_JIT && ec->accel == LINX_ACCEL_JIT) {
        return ec->bs.entry(env, tb->host_code);
    }
    if (!tb->ir) {
        /* linx_exec_step() flushes the TBs made without their op list
         * before the interpreter runs one under the JIT. */
        fprintf(stderr, "linxemu: internal error: the TB at pc 0x%" PRIx64 " has no op list "
                "for the interpreter\n", tb->pc);
        abort();
    }
    return interp_run_tb(cpu_engine(env)->interp, env, tb);
}

/* Find the TB to run next, raising E_BLOCK(EC_CFI) for a branch into a
 * non-marker.  @src/@slot: the TB and goto_tb slot the previous TB left
 * through (NULL: an indirect jump or a plain exit).  May flush
 * (translation with a full buffer or arena). */
static TranslationBlock *next_tb(LinxExecContext *ec, CPUArchState *env,
                                 const TranslationBlock *src, unsigned slot)
{
    uint32_t flags;
    uint64_t pc;
    TranslationBlock *tb;

    if (atomic_read(&ec->flush_pending)) {
        /* A safe point: no TB of this CPU is running. */
        cpu_exec_end(env);
        tb_flush_reclaim(ec, env);
        cpu_exec_start(env);
    }
    flags = exec_tb_flags(ec, env, &pc);
    tb = tb_find_or_translate(ec, env, pc, flags);
    if ((tb->cflags & TB_C_CFI_BAD) && !(flags & TB_F_RESUME)) {
        /* TRAPARG0 = the source: the block whose commit branched here.  A
         * direct edge names it in the source TB (env->bpc is stale: the
         * commit discarded BPC); an indirect one stored it to env->bpc
         * before the lookup.  The trap pc is the bad target. */
        ec->target->raise_bad_target(env, src && slot < 2 ? src->jmp_src_bpc[slot] : 0, pc);
        abort(); /* (it does not return) */
    }
    return tb;
}

static int cpu_exec_loop(LinxExecContext *ec, CPUArchState *env)
{
    TranslationBlock *last = NULL;
    unsigned slot = 0;

    for (;;) {
        TranslationBlock *tb;
        uint64_t flushes = atomic_read(&ec->flush_count);
        uintptr_t r;

        if (atomic_read(&cpu_engine(env)->exit_request)) {
            atomic_set(&cpu_engine(env)->exit_request, 0);
            return EXCP_INTERRUPT;
        }
        tb = next_tb(ec, env, last, slot);
        if (last && atomic_read(&ec->flush_count) == flushes && !ec->nochain &&
            !ec->x.single_step && !atomic_read(&last->jmp_dest[slot & 1])) {
            exec_lock(ec);
            if (atomic_read(&ec->flush_count) == flushes) {
                tb_add_jump(ec, last, slot, tb);
            }
            exec_unlock(ec);
        }
        if (linx_log_enabled(&ec->log, LINX_LOG_CPU)) {
            log_cpu_state(ec, env);
        }
        if (linx_log_enabled(&ec->log, LINX_LOG_EXEC)) {
            linx_log_printf(&ec->log, "Trace %u: %p [%016" PRIx64 "/%x]\n",
                            cpu_engine(env)->cpu_index, (void *)tb, tb->pc, tb->flags);
        }
        r = run_tb(ec, env, tb, ec->accel);
        if (ec->x.single_step) {
            return EXCP_DEBUG;
        }
        last = (TranslationBlock *)(r & ~TB_EXIT_SLOT_MASK);
        slot = (unsigned)(r & TB_EXIT_SLOT_MASK);
    }
}

/* Set up @env for a run; false (with a message) when it cannot run. */
static bool exec_enter(CPUArchState *env)
{
    LinxExecContext *ec = cpu_engine(env)->exec;

    if (!ec) {
        fprintf(stderr, "linxemu: cpu %u has no exec context (linx_exec_attach_cpu)\n",
                cpu_engine(env)->cpu_index);
        return false;
    }
    if (cpu_engine(env)->in_exec) {
        fprintf(stderr, "linxemu: internal error: cpu_exec re-entered (cpu %u)\n",
                cpu_engine(env)->cpu_index);
        abort();
    }
    if (!exec_cpu_listed(ec, env)) {
        linx_exec_attach_cpu(ec, env);
    } else if (!ec->mem && cpu_engine(env)->mem) {
        watch_memory(ec, cpu_engine(env)->mem);
    }
    if (!cpu_engine(env)->interp) {
        cpu_engine(env)->interp = interp_new(ec->ir);
    }
    cpu_engine(env)->in_exec = true;
    cpu_engine(env)->exception_index = EXCP_NONE;
    cpu_exec_start(env);
    return true;
}

static void exec_leave(CPUArchState *env)
{
    cpu_exec_end(env);
    cpu_engine(env)->in_exec = false;
}

int cpu_exec(CPUArchState *env)
{
    LinxExecContext *ec = cpu_engine(env)->exec;
    int ret;

    if (!exec_enter(env)) {
        return EXCP_HALTED;
    }
    LinxExecContext *prev = host_fault_enter(ec);
    do {
        if (sigsetjmp(cpu_engine(env)->jmp_env, 0) == 0) {
            ret = cpu_exec_loop(ec, env);
        } else {
            /* Back from cpu_loop_exit: return its reason, or go on. */
            ret = cpu_engine(env)->exception_index;
            cpu_engine(env)->exception_index = EXCP_NONE;
            if (!cpu_engine(env)->running) {
                /* Left from a blocking region (a system call whose TB was
                 * reclaimed meanwhile): running again first. */
                cpu_exec_start(env);
            }
        }
    } while (ret == EXCP_NONE);
    host_fault_leave(prev);
    exec_leave(env);
    return ret;
}

int linx_exec_step(CPUArchState *env, LinxAccel accel)
{
    LinxExecContext *ec = cpu_engine(env)->exec;
    TranslationBlock *volatile step_tb = NULL;
    int ret;

    if (ec && accel != LINX_ACCEL_JIT && ec->accel == LINX_ACCEL_JIT && !ec->keep_ir) {
        /* The JIT's TBs have no op list (tb_gen_code): from now on they
         * keep one; the ones made before are translated again. */
        exec_lock(ec);
        ec->keep_ir = true;
        exec_unlock(ec);
        tb_flush_all(ec, env);
    }
    if (!exec_enter(env)) {
        return EXCP_HALTED;
    }
    interp_set_chaining(cpu_engine(env)->interp, false);
    LinxExecContext *prev = host_fault_enter(ec);
    if (sigsetjmp(cpu_engine(env)->jmp_env, 0) == 0) {
        TranslationBlock *tb = next_tb(ec, env, NULL, 0);
        /* Exactly one TB: a loop inside it stops at its back edge
         * (cleared again below, also when the TB leaves by longjmp). */
        if (tb) {
            atomic_or(&tb->cflags, TB_C_ONE_PASS);
            step_tb = tb;
        }
        run_tb(ec, env, tb, accel);
        ret = 0;
    } else {
        ret = cpu_engine(env)->exception_index == EXCP_NONE ? 0 : cpu_engine(env)->exception_index;
        cpu_engine(env)->exception_index = EXCP_NONE;
        if (!cpu_engine(env)->running) {
            cpu_exec_start(env);
        }
    }
    if (step_tb) {
        atomic_and(&step_tb->cflags, ~(uint32_t)TB_C_ONE_PASS);
    }
    host_fault_leave(prev);
    interp_set_chaining(cpu_engine(env)->interp, true);
    exec_leave(env);
    return ret;
}
