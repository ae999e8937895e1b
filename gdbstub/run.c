/*
 * gdb stub run control: the cpu_exec() wrapper (gdbstub.h), stops and the
 * stopped-state loop.
 *
 * How the guest runs after gdb resumes it:
 *   - step (s): the exec layer's single-step mode runs one instruction;
 *   - continue (c) with write watchpoints set: single steps; a store into
 *     a watched range stops before it (the exec layer's watchpoints), and
 *     the watched bytes are compared after each step for writes made
 *     another way; the connection is polled every GDB_POLL_STEPS steps
 *     for Ctrl-C;
 *   - continue otherwise: cpu_exec() at full speed, breakpoints being
 *     translated into the code (tcg/exec.h); the monitor thread sets
 *     env->exit_request when gdb sends something (Ctrl-C).
 * A breakpoint at the pc the guest resumes from is stepped over (taken
 * out of the code for one step), so "continue" from a breakpoint moves on
 * even when the client does not remove it first.
 *
 * Traps while gdb is attached stop the guest with their signal (SIGSEGV,
 * SIGBUS, SIGILL, SIGTRAP).  Resuming with a signal (C/S/vCont;C with a
 * non-zero number) hands the trap back to the front end (EXCP_TRAP: the
 * guest's signal handler, or the end of the machine); resuming without one
 * discards it and runs the instruction again (after an EBREAK: the next
 * instruction).  Other signals cannot be injected: C with a signal after
 * a breakpoint or a step is a plain continue.
 */
#include <string.h>

#include "gdbstub/gdbstub-internal.h"
#include "gdbstub/regs.h"
#include "hw/core/guest-memory.h"
#include "target/linx/decode.h"
#include "tcg/exec.h"

/* Single steps between two polls for Ctrl-C in the watchpoint loop. */
#define GDB_POLL_STEPS 1024
#define MAX_INSN_BYTES 8
#define HALFWORD 2

static void set_stepping(GdbStub *s, CPULinxState *env, bool on)
{
    if (s->stepping != on && env->engine.exec) {
        linx_exec_set_single_step(env->engine.exec, on);
    }
    s->stepping = on;
}

void gdb_format_stop_reply(GdbStub *s)
{
    const GdbStop *st = &s->stop;
    int sig = st->kind == GDB_STOP_INTERRUPT ? GDB_SIGNAL_INT
              : st->kind == GDB_STOP_SIGNAL  ? st->signal
                                             : GDB_SIGNAL_TRAP;

    g_string_printf(s->reply, "T%02xthread:1;", sig & GDB_STATUS_MASK);
    if (st->kind == GDB_STOP_BREAK && st->hw && s->client_hwbreak) {
        g_string_append(s->reply, "hwbreak:;");
    } else if (st->kind == GDB_STOP_BREAK && !st->hw && s->client_swbreak) {
        g_string_append(s->reply, "swbreak:;");
    } else if (st->kind == GDB_STOP_WATCH) {
        g_string_append_printf(s->reply, "watch:%" G_GINT64_MODIFIER "x;", st->addr);
    }
    if (s->env) {
        /* Expedite pc and sp: gdb then needs no 'g' to show where we are. */
        g_string_append_printf(s->reply, "%x:", gdb_reg_pc());
        gdb_hex_append_le64(s->reply, gdb_reg_read(s->env, gdb_reg_pc()));
        g_string_append_printf(s->reply, ";%x:", gdb_reg_sp());
        gdb_hex_append_le64(s->reply, gdb_reg_read(s->env, gdb_reg_sp()));
        g_string_append_c(s->reply, ';');
    }
}

/* Report @stop (except an attach, which gdb asks about with '?') and talk
 * to gdb until it resumes the guest, detaches or kills it. */
static GdbResume serve(GdbStub *s, CPULinxState *env, const GdbStop *stop)
{
    GdbResume r;

    linx_cpu_sync_block_state(env);
    s->stop = *stop;
    s->stopped = true;
    s->resume_signal = 0;
    if (stop->kind != GDB_STOP_ATTACH) {
        gdb_format_stop_reply(s);
        gdb_send_reply(s);
    }
    for (;;) {
        r = gdb_process_input(s, env, false, NULL);
        if (r != GDB_RESUME_NONE) {
            break;
        }
        if (gdb_read_input(s, true) <= 0) {
            r = GDB_RESUME_DETACH; /* the connection closed */
            break;
        }
    }
    s->stopped = false;
    return r;
}

static int kill_guest(GdbStub *s, CPULinxState *env)
{
    s->killed = true;
    gdb_disconnect(s);
    env->exit_code = GDB_KILLED_EXIT;
    return EXCP_EXIT;
}

/* Act on what serve() returned: the cpu_exec() result to hand back. */
static int after_serve(GdbStub *s, CPULinxState *env, GdbResume r)
{
    switch (r) {
    case GDB_RESUME_KILL:
        return kill_guest(s, env);
    case GDB_RESUME_DETACH:
        gdb_disconnect(s); /* run on without the debugger */
        return EXCP_DEBUG;
    case GDB_RESUME_STEP:
    case GDB_RESUME_CONTINUE:
        s->run_mode = r;
        return EXCP_DEBUG;
    case GDB_RESUME_NONE:
        break;
    }
    return EXCP_DEBUG;
}

static int stop_here(GdbStub *s, CPULinxState *env, const GdbStop *stop)
{
    return after_serve(s, env, serve(s, env, stop));
}

/* One instruction in single-step mode, with a breakpoint at the pc taken
 * out for it (stepping over it), and with the watchpoints ignored when
 * @over_watch (the store the guest stopped before). */
static int step_one(GdbStub *s, CPULinxState *env, bool over_watch)
{
    uint64_t pc = env->pc;
    bool bp = gdb_bp_at(s, pc, NULL);
    int r;

    set_stepping(s, env, true);
    if (bp) {
        linx_exec_breakpoint_remove(env->engine.exec, pc);
    }
    if (over_watch) {
        linx_exec_watch_suspend(env->engine.exec, true);
    }
    r = cpu_exec(env);
    if (over_watch) {
        linx_exec_watch_suspend(env->engine.exec, false);
        gdb_watch_refresh(s, env); /* that store was reported already */
    }
    if (bp) {
        linx_exec_breakpoint_insert(env->engine.exec, pc);
    }
    return r;
}

/* After a step: a watchpoint stop.  Before the store when the exec layer
 * stopped it (pc at the storing instruction, nothing of it done: what
 * gdb's riscv gdbarch and lldb expect), else after an instruction that
 * changed watched bytes another way. */
static bool watch_stop(GdbStub *s, CPULinxState *env, GdbStop *stop)
{
    const GdbWatch *w;

    if (linx_exec_watch_hit(env->engine.exec, &stop->addr)) {
        stop->kind = GDB_STOP_WATCH;
        gdb_set_pc(env, env->pc); /* mid-block: resume by replay */
        s->watch_pending = true;
        s->watch_pc = env->pc;
        return true;
    }
    w = gdb_watch_check(s, env);
    if (w) {
        stop->kind = GDB_STOP_WATCH;
        stop->addr = w->addr;
        return true;
    }
    return false;
}

/* Run at full speed until something stops the guest. */
static int run_free(GdbStub *s, CPULinxState *env, int fd)
{
    int r;

    set_stepping(s, env, false);
    gdb_monitor_arm(s, fd, &env->engine.exit_request);
    r = cpu_exec(env);
    s->mon_fired = gdb_monitor_disarm(s);
    return r;
}

/* Run the guest as gdb asked.  Returns the cpu_exec() result; a stop the
 * stub itself recognised is in *stop (*have_stop set). */
static int run_guest(GdbStub *s, CPULinxState *env, GdbStop *stop, bool *have_stop)
{
    bool over_watch;
    int r;

    *have_stop = false;
    memset(stop, 0, sizeof(*stop));
    if (s->conn_fd < 0) {
        return run_free(s, env, s->listen_fd);
    }
    /* Resuming where a watchpoint stopped the guest before a store: that
     * store runs now (the client may not have removed the watchpoint). */
    over_watch = s->watch_pending && s->nwatch && env->pc == s->watch_pc;
    s->watch_pending = false;
    if (s->run_mode == GDB_RESUME_STEP || s->nwatch || gdb_bp_at(s, env->pc, NULL)) {
        r = step_one(s, env, over_watch);
        if (r != EXCP_DEBUG) {
            return r;
        }
        if (watch_stop(s, env, stop) || s->run_mode == GDB_RESUME_STEP) {
            if (!*have_stop && stop->kind != GDB_STOP_WATCH) {
                stop->kind = GDB_STOP_STEP;
            }
            *have_stop = true;
            return r;
        }
    }
    /* Continue. */
    if (s->nwatch) {
        for (unsigned n = 1;; n++) {
            if (gdb_bp_at(s, env->pc, &stop->hw)) {
                stop->kind = GDB_STOP_BREAK;
                *have_stop = true;
                return EXCP_DEBUG;
            }
            r = cpu_exec(env);
            if (r != EXCP_DEBUG) {
                return r;
            }
            if (watch_stop(s, env, stop)) {
                *have_stop = true;
                return r;
            }
            if (n % GDB_POLL_STEPS == 0) {
                gdb_refuse_extra(s); /* a second debugger */
                if (gdb_fd_readable(s->conn_fd)) {
                    return EXCP_INTERRUPT; /* look at what gdb sent */
                }
            }
        }
    }
    r = run_free(s, env, s->conn_fd);
    if (r == EXCP_DEBUG) {
        stop->kind = GDB_STOP_BREAK;
        gdb_bp_at(s, env->pc, &stop->hw);
        *have_stop = true;
    }
    return r;
}

/* cpu_exec() returned EXCP_INTERRUPT: ours (gdb sent something, or
 * connected) or the machine's. */
static int handle_input(GdbStub *s, CPULinxState *env, int r)
{
    bool interrupted = false;
    GdbResume a;

    if (s->conn_fd < 0) {
        if (gdb_accept(s, false)) {
            GdbStop st = { .kind = GDB_STOP_ATTACH };
            return stop_here(s, env, &st);
        }
        return r;
    }
    if (s->in_pos >= s->in_len && !gdb_fd_readable(s->conn_fd)) {
        return r; /* someone else's exit request */
    }
    if (gdb_read_input(s, false) == 0) {
        gdb_disconnect(s); /* gdb went away: run on */
        return EXCP_DEBUG;
    }
    a = gdb_process_input(s, env, true, &interrupted);
    if (a == GDB_RESUME_KILL) {
        return kill_guest(s, env);
    }
    if (a == GDB_RESUME_DETACH) {
        gdb_disconnect(s);
        return EXCP_DEBUG;
    }
    if (interrupted) {
        GdbStop st = { .kind = GDB_STOP_INTERRUPT, .signal = GDB_SIGNAL_INT };
        return stop_here(s, env, &st);
    }
    return EXCP_DEBUG;
}

/* Length of the instruction at @pc (2 when it cannot be read). */
static unsigned insn_len_at(CPULinxState *env, uint64_t pc)
{
    uint8_t buf[HALFWORD];

    if (!env->engine.mem ||
        guest_mem_debug_rw(env->engine.mem, pc, buf, sizeof(buf), false) != GM_OK) {
        return HALFWORD;
    }
    return linx_insn_length((uint16_t)(buf[0] | buf[1] << 8));
}

/* An architectural trap with gdb attached (see the file comment). */
static int trap_stop(GdbStub *s, CPULinxState *env)
{
    GdbStop st = { .kind = GDB_STOP_SIGNAL, .signal = gdb_signal_of_trap(env->trapno) };
    uint64_t trapno = env->trapno, traparg0 = env->traparg0, trap_pc = env->trap_pc;
    GdbResume a;

    a = serve(s, env, &st);
    if (a == GDB_RESUME_KILL) {
        return kill_guest(s, env);
    }
    if (a == GDB_RESUME_DETACH) {
        gdb_disconnect(s);
        return EXCP_TRAP; /* as if no debugger had been there */
    }
    s->run_mode = a;
    if (s->resume_signal) {
        env->trapno = trapno;
        env->traparg0 = traparg0;
        env->trap_pc = trap_pc;
        return EXCP_TRAP;
    }
    if (env->pc == trap_pc && linx_trapno_num(trapno) == LINX_TRAP_SW_BREAKPOINT) {
        gdb_set_pc(env, trap_pc + insn_len_at(env, trap_pc));
    } else if (env->pc == trap_pc) {
        gdb_set_pc(env, trap_pc);
    }
    return EXCP_DEBUG;
}

static void bind_cpu(GdbStub *s, CPULinxState *env)
{
    if (s->env == env) {
        return;
    }
    s->env = env;
    /* Chained JIT code must look at exit_request (gdbstub.h). */
    if (env->engine.exec) {
        linx_exec_set_exit_check(env->engine.exec, true);
    }
    gdb_monitor_start(s);
}

int gdb_stub_cpu_exec(GdbStub *s, CPULinxState *env)
{
    GdbStop stop;
    bool have_stop;
    int r;

    bind_cpu(s, env);
    if (s->wait_attach) {
        s->wait_attach = false;
        if (s->conn_fd >= 0 || gdb_accept(s, true)) {
            stop.kind = GDB_STOP_ATTACH;
            return stop_here(s, env, &stop);
        }
    }
    s->mon_fired = false;
    r = run_guest(s, env, &stop, &have_stop);
    if (env->engine.exit_request && !s->mon_fired) {
        /* The machine wants its loop back (a device stopped it): no
         * debugger business before it has had it. */
        return r;
    }
    if (have_stop) {
        return stop_here(s, env, &stop);
    }
    switch (r) {
    case EXCP_INTERRUPT:
        return handle_input(s, env, r);
    case EXCP_TRAP:
        return s->conn_fd >= 0 ? trap_stop(s, env) : r;
    default:
        return r;
    }
}

void gdb_stub_report_exit(GdbStub *s, int exit_code, int term_signal)
{
    if (!s || s->conn_fd < 0 || s->killed) {
        return;
    }
    if (term_signal) {
        g_string_printf(s->reply, "X%02x", gdb_signal_of_linux(term_signal) & GDB_STATUS_MASK);
    } else {
        g_string_printf(s->reply, "W%02x", exit_code & GDB_STATUS_MASK);
    }
    gdb_send_reply(s);
    gdb_disconnect(s);
}
