/*
 * Stopping a run from outside: a wall-clock limit (-timeout) and SIGINT /
 * SIGTERM, so that a guest that spins forever is ended with a message and
 * the -D log and the commit trace are flushed whole before the process
 * goes (docs/security.md "Faults survived").
 *
 *   LinxStopWatch *w = linx_stop_watch_new(opts.timeout_ms, err, sizeof(err));
 *                                            // before any other thread starts
 *   linx_exec_set_exit_check(ec, true);      // chained JIT code looks at exit_request
 *   linx_stop_watch_arm(w, &env->engine.exit_request);
 *   ... the CPU loop ends when *linx_stop_watch_flag(w) != 0 ...
 *   ... report, free the exec context (flushes the log and the trace) ...
 *   linx_stop_watch_finish(w);               // dies of the signal, if one stopped us
 *
 * A watcher thread waits for SIGINT/SIGTERM (blocked in every other
 * thread, so no handler runs at an arbitrary point) or for the deadline.
 * Then it sets the flag and the CPU's exit_request, and until the CPU
 * thread has taken the request (exit_request back to 0) it kicks that
 * thread with LINX_STOP_KICK_SIGNAL every 20 ms: an empty handler
 * installed without SA_RESTART makes a blocking host system call (a read
 * of an idle terminal) return EINTR.  A second SIGINT/SIGTERM while the
 * first is being handled ends the process at once (default action).
 * Nothing is global: the state lives in the LinxStopWatch.
 */
#ifndef LINX_TCG_EXEC_STOP_H
#define LINX_TCG_EXEC_STOP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define LINX_STOP_KICK_SIGNAL (SIGRTMAX)

/* What ended the run (the value of *linx_stop_watch_flag()). */
enum {
    LINX_STOP_NONE = 0,
    LINX_STOP_TIMEOUT = 1,
    LINX_STOP_SIGNAL = 2,
};

typedef struct LinxStopWatch LinxStopWatch;

/* Block SIGINT/SIGTERM in this thread (and the threads it starts later)
 * and start the watcher; @timeout_ms 0 = no deadline.  NULL with a
 * message in @err when the thread cannot be started. */
LinxStopWatch *linx_stop_watch_new(unsigned long timeout_ms, char *err, size_t errlen);

/* The flag to set (and the CPU thread to kick) when the run must stop;
 * call from the CPU thread. */
void linx_stop_watch_arm(LinxStopWatch *w, int *exit_request);

/* LINX_STOP_* (read atomically): the CPU loop ends when it is non-zero. */
const int *linx_stop_watch_flag(const LinxStopWatch *w);
int linx_stop_watch_reason(const LinxStopWatch *w);
/* The signal (SIGINT or SIGTERM) for LINX_STOP_SIGNAL. */
int linx_stop_watch_signal(const LinxStopWatch *w);
unsigned long linx_stop_watch_timeout_ms(const LinxStopWatch *w);

/* Stop the watcher and restore the signal mask and the kick handler.
 * When a signal stopped the run, the process then dies of it (default
 * action, so the parent sees the signal); otherwise it returns. */
void linx_stop_watch_finish(LinxStopWatch *w);

#endif /* LINX_TCG_EXEC_STOP_H */
