/*
 * Debugger support of the exec layer: breakpoints decided at translation
 * time (a set of guest pcs; inserting or removing one invalidates the
 * translations of its page), single-step (one instruction per TB, one TB
 * per cpu_exec), the helper translated code calls at a breakpoint, and
 * write watchpoints that stop before the store (TLB_WATCH pages, checked
 * in the store slow path and by helpers writing memory in bulk).  See
 * exec.h.
 */
#include <stdio.h>

#include "tcg/exec-internal.h"
#include "tcg/softmmu.h"
#include "util/atomic.h"

bool linx_exec_breakpoint_insert(LinxExecContext *ec, uint64_t pc)
{
    if (!g_hash_table_add(ec->breakpoints, (gpointer)(uintptr_t)pc)) {
        return false;
    }
    linx_tb_invalidate_page(ec, pc & GUEST_PAGE_MASK);
    return true;
}

bool linx_exec_breakpoint_remove(LinxExecContext *ec, uint64_t pc)
{
    if (!g_hash_table_remove(ec->breakpoints, (gpointer)(uintptr_t)pc)) {
        return false;
    }
    linx_tb_invalidate_page(ec, pc & GUEST_PAGE_MASK);
    return true;
}

void linx_exec_breakpoint_remove_all(LinxExecContext *ec)
{
    GHashTableIter it;
    gpointer key;

    g_hash_table_iter_init(&it, ec->breakpoints);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        linx_tb_invalidate_page(ec, (uint64_t)(uintptr_t)key & GUEST_PAGE_MASK);
    }
    g_hash_table_remove_all(ec->breakpoints);
}

bool linx_exec_breakpoint_at(const LinxExecContext *ec, uint64_t pc)
{
    return g_hash_table_size(ec->breakpoints) != 0 &&
           g_hash_table_contains(ec->breakpoints, (gpointer)(uintptr_t)pc);
}

bool linx_exec_loop_in_tb(const LinxExecContext *ec)
{
    return !ec->opts.no_loop_in_tb;
}

void linx_exec_set_single_step(LinxExecContext *ec, bool on)
{
    if (ec->x.single_step == on) {
        return;
    }
    ec->x.single_step = on;
    if (on) {
        atomic_set(&ec->tb_flags_extra, ec->tb_flags_extra | TB_F_ONE_INSN);
    } else if (!ec->opts.one_insn_per_tb) {
        atomic_set(&ec->tb_flags_extra, ec->tb_flags_extra & ~(uint32_t)TB_F_ONE_INSN);
    }
    /* No chain made before may carry a step past one TB (host code jumps
     * without returning): start from an empty cache, and translate indirect
     * jumps as lookup calls again.  Debugger use only. */
    linx_exec_update_inline_lookup(ec);
    tb_flush_all(ec, NULL);
}

void linx_exec_set_exit_check(LinxExecContext *ec, bool on)
{
    bool was = (ec->tb_flags_extra & TB_F_EXIT_CHECK) != 0;

    if (was == on || (!on && ec->mt)) {
        /* CPUs in parallel keep the check (exclusive sections need it). */
        return;
    }
    exec_lock(ec);
    if (on) {
        atomic_set(&ec->tb_flags_extra, ec->tb_flags_extra | TB_F_EXIT_CHECK);
    } else {
        atomic_set(&ec->tb_flags_extra, ec->tb_flags_extra & ~(uint32_t)TB_F_EXIT_CHECK);
    }
    exec_unlock(ec);
    tb_flush_all(ec, NULL);
}

void helper_debug_stop(CPUArchState *env, uint64_t pc, uint64_t resume)
{
    const LinxTargetOps *t = cpu_engine(env)->exec->target;

    *linx_cpu_word(env, t->pc_offset) = pc;
    *linx_cpu_word(env, t->tb_flags_offset) = resume;
    linx_cpu_exit_with(env, EXCP_DEBUG);
}

const IRHelperInfo linx_helper_debug_stop_info = {
    .name = "debug_stop",
    .func = (void *)helper_debug_stop,
    .nargs = 3,
    .has_ret = 0,
    .flags = IR_CALL_NORETURN,
};


/* ---- Write watchpoints ---- */

/* The TLB entries of the watched range's pages must be refilled (their
 * TLB_WATCH tag changes). */
static void watch_flush(LinxExecContext *ec, uint64_t addr, uint64_t len)
{
    for (unsigned c = 0; c < ec->ncpus; c++) {
        linx_tlb_flush_range(ec->cpus[c], addr, len);
    }
    /* Host-fault code does not look at the TLB: while a watchpoint is
     * set, translate with TLB checks (tcg/host-fault.c). */
    exec_update_hostfault(ec);
}

bool linx_exec_watch_insert(LinxExecContext *ec, uint64_t addr, uint64_t len)
{
    if (len == 0 || addr + (len - 1) < addr || ec->x.nwatch >= LINX_EXEC_MAX_WATCH) {
        return false;
    }
    ec->x.watch[ec->x.nwatch].addr = addr;
    ec->x.watch[ec->x.nwatch].len = len;
    ec->x.nwatch++;
    watch_flush(ec, addr, len);
    return true;
}

void linx_exec_watch_remove(LinxExecContext *ec, uint64_t addr, uint64_t len)
{
    for (unsigned i = 0; i < ec->x.nwatch; i++) {
        if (ec->x.watch[i].addr == addr && ec->x.watch[i].len == len) {
            ec->x.watch[i] = ec->x.watch[--ec->x.nwatch];
            watch_flush(ec, addr, len);
            return;
        }
    }
}

void linx_exec_watch_remove_all(LinxExecContext *ec)
{
    while (ec->x.nwatch) {
        linx_exec_watch_remove(ec, ec->x.watch[0].addr, ec->x.watch[0].len);
    }
    ec->x.watch_hit = false;
}

void linx_exec_watch_suspend(LinxExecContext *ec, bool on)
{
    ec->x.watch_suspended = on;
}

bool linx_exec_watch_hit(LinxExecContext *ec, uint64_t *addr)
{
    bool hit = ec && ec->x.watch_hit;

    if (hit) {
        ec->x.watch_hit = false;
        if (addr) {
            *addr = ec->x.watch_hit_addr;
        }
    }
    return hit;
}

/* ---- Monitor inspection ---- */

void linx_exec_foreach_tb(LinxExecContext *ec,
                          void (*fn)(void *opaque, const TranslationBlock *tb), void *opaque)
{
    for (unsigned i = 0; i < ec->all_tbs->len; i++) {
        const TranslationBlock *tb = g_ptr_array_index(ec->all_tbs, i);
        if (!(tb->cflags & TB_C_INVALID)) {
            fn(opaque, tb);
        }
    }
}

bool linx_exec_set_commit_trace(LinxExecContext *ec, bool on, const char *path, char *err,
                                size_t errlen)
{
    if (on && path) {
        LinxCommitTrace *t = linx_commit_trace_open(path, err, errlen);
        if (!t) {
            return false;
        }
        linx_commit_trace_close(ec->trace);
        ec->trace = t;
        for (unsigned c = 0; c < ec->ncpus; c++) {
            cpu_engine(ec->cpus[c])->trace = t;
        }
    } else if (on && !ec->trace) {
        snprintf(err, errlen, "no commit trace file yet: give one (trace on FILE)");
        return false;
    }
    if (!on && ec->trace) {
        linx_commit_trace_flush(ec->trace);
    }
    if (on) {
        atomic_set(&ec->tb_flags_extra, ec->tb_flags_extra | TB_F_TRACE);
    } else {
        atomic_set(&ec->tb_flags_extra, ec->tb_flags_extra & ~(uint32_t)TB_F_TRACE);
    }
    tb_flush_all(ec, NULL);
    return true;
}

bool linx_exec_commit_trace_on(const LinxExecContext *ec)
{
    return (ec->tb_flags_extra & TB_F_TRACE) != 0;
}
