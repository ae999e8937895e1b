/*
 * linx-optest: a worker process runs many cases (docs/optest.md
 * "Running").
 *
 * The runner (sched.c) keeps one worker per -j slot.  A worker is a fork
 * of the runner, so it shares the runner's view of the suites and cases:
 * a command is just the index of a case.  It builds the programs it needs
 * in a program cache of its own and runs every case on one reused virt
 * machine (run.c, OptMachines): RAM back to the program's snapshot, the
 * translations kept while the program is the same.  Before each case it
 * empties the capture file (stdout and stderr point there) and arms the
 * case's time limit; a guest that spins is ended by SIGALRM, which ends
 * the worker: the runner reports that case as timed out and starts a new
 * worker for the rest, as it does when a case crashes the worker.  So a
 * case can fail only itself; what a case leaves in the machine is put
 * back before the next (tests/optest/modes.py compares every case's
 * result with a process per case).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "optest.h"

static double case_limit(const OptRef *ref, const OptRunOptions *o)
{
    return o->timeout > 0 ? o->timeout : ref->c->timeout > 0 ? ref->c->timeout : ref->s->timeout;
}

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool read_index(int fd, uint64_t *idx)
{
    uint8_t *p = (uint8_t *)idx;
    size_t got = 0;

    while (got < sizeof(*idx)) {
        ssize_t n = read(fd, p + got, sizeof(*idx) - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        got += (size_t)n;
    }
    return true;
}

static _Noreturn void worker_main(const OptRef *refs, size_t n, const OptRunOptions *o,
                                  int fd_cmd, int fd_result, int fd_capture)
{
    int keep[3] = { fd_cmd, fd_result, fd_capture };
    OptProgramCache *pc;
    OptMachines *mc;
    FILE *capture;
    uint64_t idx;
    int cap_fd;

    /* Only our own pipes and file: the runner's ends of the other
     * workers' command pipes must not stay open here (they end by
     * reading end of file). */
    opt_close_fds_except(keep, 3);
    opt_child_setup(o, fd_capture);
    pc = opt_program_cache_new();
    mc = opt_machines_new(o, true);
    cap_fd = dup(fd_capture);
    capture = cap_fd >= 0 ? fdopen(cap_fd, "w") : NULL;
    if (!capture) {
        _exit(3);
    }
    while (read_index(fd_cmd, &idx)) {
        const OptProgram *prog;
        char err[8192];
        double t0;
        GString *rec;

        if (idx >= n) {
            _exit(4);
        }
        /* Empty the capture file: stdout, stderr and @capture share its
         * offset (their buffers were flushed after the last case). */
        if (ftruncate(fd_capture, 0) != 0 || lseek(fd_capture, 0, SEEK_SET) != 0) {
            _exit(5);
        }
        opt_arm_timer(case_limit(&refs[idx], o));
        t0 = now();
        prog = opt_program_get(pc, refs[idx].s, refs[idx].c, err, sizeof(err));
        opt_machines_note_build(mc, now() - t0);
        rec = prog ? opt_case_execute(mc, &refs[idx], prog, capture)
                   : opt_case_setup_failure(err);
        opt_test_crash_hook(&refs[idx]);
        opt_arm_timer(0);
        fflush(capture);
        fflush(stdout);
        fflush(stderr);
        /* The runner may have sent the next case already: the output goes
         * with the record, before the next case empties the file. */
        opt_record_add_output(rec, fd_capture, o->verbose);
        opt_record_send(fd_result, rec);
        g_string_free(rec, TRUE);
    }
    /* The runner closed the command pipe: done.  Nothing to free for
     * anyone else (the program cache's temporary files are not ours:
     * a worker builds only virt programs, which have none). */
    _exit(0);
}

int opt_worker_spawn(const OptRef *refs, size_t n, const OptRunOptions *o, int fd_cmd,
                     int fd_result, int fd_capture)
{
    pid_t pid;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        worker_main(refs, n, o, fd_cmd, fd_result, fd_capture);
    }
    return pid;
}
