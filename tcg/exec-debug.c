/*
 * Debugger support of the exec layer: breakpoints decided at translation
 * time (a set of guest pcs; inserting or removing one invalidates the
 * translations of its page), single-step (one instruction per TB, one TB
 * per cpu_exec), and the helper translated code calls at a breakpoint.
 * See exec.h.
 */
#include "tcg/exec-internal.h"

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

void linx_exec_set_single_step(LinxExecContext *ec, bool on)
{
    if (ec->single_step == on) {
        return;
    }
    ec->single_step = on;
    if (on) {
        ec->tb_flags_extra |= TB_F_ONE_INSN;
    } else if (!ec->opts.one_insn_per_tb) {
        ec->tb_flags_extra &= ~(uint32_t)TB_F_ONE_INSN;
    }
    /* No chain made before may carry a step past one TB (host code jumps
     * without returning): start from an empty cache, and translate indirect
     * jumps as lookup calls again.  Debugger use only. */
    linx_exec_update_inline_lookup(ec);
    tb_flush_all(ec);
}

void linx_exec_set_exit_check(LinxExecContext *ec, bool on)
{
    bool was = (ec->tb_flags_extra & TB_F_EXIT_CHECK) != 0;

    if (was == on) {
        return;
    }
    if (on) {
        ec->tb_flags_extra |= TB_F_EXIT_CHECK;
    } else {
        ec->tb_flags_extra &= ~(uint32_t)TB_F_EXIT_CHECK;
    }
    tb_flush_all(ec);
}

void helper_debug_stop(CPULinxState *env, uint64_t pc, uint64_t resume)
{
    env->pc = pc;
    env->resume = resume;
    linx_cpu_exit_with(env, EXCP_DEBUG);
}

const IRHelperInfo linx_helper_debug_stop_info = {
    .name = "debug_stop",
    .func = (void *)helper_debug_stop,
    .nargs = 3,
    .has_ret = 0,
    .flags = IR_CALL_NORETURN,
};

