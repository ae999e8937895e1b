/*
 * linx-optest: running the selected cases, up to -j at a time
 * (docs/optest.md "Running").
 *
 * Each -j slot runs one case at a time, in one of two ways:
 *
 * * a worker (worker.c, the default for the virt machine): a process of
 *   the slot that runs case after case on one reused machine; the runner
 *   sends it a case's index and reads back a length-prefixed record;
 * * a process of its own (run.c; --isolate, and every Linux user-mode
 *   case): the child writes one record and exits.
 *
 * Both write the guest's output to the slot's capture file.  The runner
 * waits in poll() on the result pipes, a self-pipe for SIGINT/SIGTERM and
 * the nearest deadline:
 *
 * * a record is the case's result (a case process must also exit 0);
 * * a process killed by SIGALRM ran into the case's time limit (a guest
 *   that spins forever): "timed out"; one still running 2 s past its limit
 *   is killed by the runner and reported the same way;
 * * any other death is a crash of the emulator, named by its signal;
 * * a worker that died is not used again: the next case of the slot
 *   starts a new one, so a case that crashes or corrupts the emulator
 *   fails only itself;
 * * SIGINT/SIGTERM: no case starts any more, the running ones are killed
 *   and every unfinished case is failed as interrupted, so the caller
 *   still writes complete reports of what ran.
 *
 * A worker is sent its next case while it runs the current one (two in
 * flight), so it never waits for the runner; records come back in order,
 * and when a worker dies the case it was running gets the verdict and the
 * one queued behind it goes back to the pending cases.  A worker puts a
 * failed case's output in its record (the next case empties the capture
 * file at once).
 *
 * Cases go to slots in the order given, except that a worker takes the
 * next case of the program it ran last when there is one close ahead, and
 * otherwise one whose program no other worker has loaded: its
 * translations are then reused.
 *
 * Programs of case processes are built (program.c) in the runner just
 * before the case starts (the child inherits them); a worker builds its
 * own.  A case whose program failed is failed with the assembler's
 * messages either way; one whose generator failed, without running.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "optest.h"

enum {
    KILL_GRACE_S = 2,      /* past a case's limit, the runner kills it */
    AFFINITY_WINDOW = 256, /* pending cases a free worker looks through */
    IN_FLIGHT = 2,         /* cases sent to a worker and not answered yet */
};

/* The write end of the self-pipe: the one thing a signal handler must
 * reach (set while opt_run_all runs). */
static volatile int sig_pipe_fd = -1;

static void on_signal(int sig)
{
    int saved = errno;
    unsigned char b = (unsigned char)sig;

    if (sig_pipe_fd >= 0) {
        ssize_t n = write(sig_pipe_fd, &b, 1);
        (void)n;
    }
    errno = saved;
}

typedef struct Worker {
    pid_t pid;         /* 0: none */
    int cmd;           /* command pipe, write end */
    int res;           /* result pipe, read end */
    GString *buf;      /* bytes of records not taken yet */
    const char *key;   /* program of the last case sent (interned) */
} Worker;

typedef struct Slot {
    Worker w;
    int cap;           /* capture file (the worker's and the case processes') */
    /* Cases in the worker, oldest (running) first. */
    size_t q[IN_FLIGHT];
    unsigned nq;
    /* Or a case in a process of its own. */
    bool proc;
    size_t idx;
    pid_t pid;
    int fd;            /* its result pipe, read end */
    GString *buf;
    /* The running case (q[0] or idx). */
    double start, deadline, limit;
    bool eof, killed;
} Slot;

typedef struct Run {
    const OptRef *refs;
    size_t n;
    const bool *gen_failed;
    OptProgramCache *pc;
    const OptRunOptions *o;
    OptReporter *rep;
    OptResult *results;
    Slot *slots;
    unsigned jobs;
    const char **keys;   /* per case: its program (interned), NULL: no worker */
    bool *launched;
    size_t first;        /* cases before it are all launched */
    GHashTable *interned;
} Run;

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int capture_file(void)
{
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    int fd;

    if (!tmp || !*tmp) {
        tmp = "/tmp";
    }
    fd = open(tmp, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) {
        return fd;
    }
    snprintf(path, sizeof(path), "%s/linx-optest-out-XXXXXX", tmp);
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0) {
        unlink(path);
    }
    return fd;
}

/* The last OPT_OUTPUT_TAIL bytes the guest wrote (NULL if none). */
static char *capture_tail(int fd)
{
    struct stat st;
    off_t from;
    char *buf;
    ssize_t n;

    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
        return NULL;
    }
    from = st.st_size > OPT_OUTPUT_TAIL ? st.st_size - OPT_OUTPUT_TAIL : 0;
    buf = g_malloc((size_t)(st.st_size - from) + 1);
    n = pread(fd, buf, (size_t)(st.st_size - from), from);
    if (n <= 0) {
        g_free(buf);
        return NULL;
    }
    buf[n] = 0;
    return buf;
}

static double case_limit(const OptRef *ref, const OptRunOptions *o)
{
    return o->timeout > 0 ? o->timeout : ref->c->timeout > 0 ? ref->c->timeout : ref->s->timeout;
}

static void result_names(OptResult *r, const OptRef *ref)
{
    r->suite = g_strdup(ref->s->name);
    r->name = g_strdup(ref->c->name);
    r->manifest = g_strdup(ref->s->path);
    r->params = g_strdup(ref->c->params);
}

static void fail_result(OptResult *r, const OptRef *ref, OptFailKind kind, const char *msg)
{
    result_names(r, ref);
    r->status = OPT_FAIL;
    r->kind = kind;
    r->message = g_strdup(msg);
}

static const char *limit_source(const OptRef *ref, const OptRunOptions *o)
{
    if (o->timeout > 0) {
        return "--timeout";
    }
    return ref->c->timeout > 0 ? "the case's timeout" : "[suite] timeout";
}

/* The process running the case of @sl ended without a (complete) result,
 * with wait status @wst (@lost: it could not be waited for). */
static void died(Slot *sl, const OptRef *ref, const OptRunOptions *o, int interrupted, int wst,
                 bool lost, OptResult *r)
{
    r->status = OPT_FAIL;
    if (lost) {
        r->kind = OPT_FK_CRASH;
        r->message = g_strdup_printf("lost the case's process: %s", strerror(errno));
    } else if ((interrupted && (sl->killed || WIFSIGNALED(wst))) ||
               (WIFSIGNALED(wst) && (WTERMSIG(wst) == SIGINT || WTERMSIG(wst) == SIGTERM))) {
        /* the runner never sends SIGINT/SIGTERM: a terminal's Ctrl-C or
         * a job scheduler reached the case's process too */
        if (!interrupted) {
            interrupted = WTERMSIG(wst);
        }
        r->kind = OPT_FK_INTERRUPTED;
        r->message = g_strdup_printf("interrupted by %s while running", strsignal(interrupted));
    } else if ((WIFSIGNALED(wst) && WTERMSIG(wst) == SIGALRM) || sl->killed) {
        r->kind = OPT_FK_TIMEOUT;
        r->message = g_strdup_printf("timed out after %g s: the program was still running "
                                     "(%s; a guest that never reaches its exit loops)",
                                     sl->limit, limit_source(ref, o));
    } else if (WIFSIGNALED(wst)) {
        r->kind = OPT_FK_CRASH;
        r->message = g_strdup_printf("the emulator died of signal %d (%s)", WTERMSIG(wst),
                                     strsignal(WTERMSIG(wst)));
    } else {
        r->kind = OPT_FK_CRASH;
        r->message = g_strdup_printf("the case's process exited with status %d without a "
                                     "result", WIFEXITED(wst) ? WEXITSTATUS(wst) : -1);
    }
}

static pid_t wait_for(pid_t pid, int *wst)
{
    pid_t w;

    do {
        w = waitpid(pid, wst, 0);
    } while (w < 0 && errno == EINTR);
    return w;
}

static void worker_close(Worker *w)
{
    if (w->pid) {
        close(w->cmd);
        close(w->res);
        g_string_free(w->buf, TRUE);
    }
    memset(w, 0, sizeof(*w));
}

/* Forget what a record that did not decode left in @r. */
static void clear_decoded(OptResult *r)
{
    g_free(r->message);
    g_free(r->mm_output);
    g_free(r->verbose);
    g_free(r->output);
    r->message = r->mm_output = r->verbose = r->output = NULL;
}

/* @sl's running case starts now (its limit and deadline). */
static void start_clock(Run *run, Slot *sl, size_t i)
{
    sl->start = now();
    sl->limit = case_limit(&run->refs[i], run->o);
    sl->deadline = sl->start + sl->limit + KILL_GRACE_S;
    sl->killed = sl->eof = false;
}

/* The running case of @sl (q[0] or its process) has a record, or its
 * process died: its result (reported by the caller). */
static size_t finish(Run *run, Slot *sl, int interrupted)
{
    size_t i = sl->proc ? sl->idx : sl->q[0];
    const OptRef *ref = &run->refs[i];
    OptResult *r = &run->results[i];
    uint8_t *rec = NULL;
    size_t len = 0;
    int wst = 0;

    result_names(r, ref);
    r->time = now() - sl->start;
    if (!sl->proc) {
        if (opt_record_take(sl->w.buf, &rec, &len) && opt_result_decode(rec, len, r)) {
            /* the worker's verdict; it goes on with the next queued case */
            memmove(sl->q, sl->q + 1, (sl->nq - 1) * sizeof(sl->q[0]));
            sl->nq--;
            if (sl->nq) {
                start_clock(run, sl, sl->q[0]);
            }
        } else {
            /* The worker died in the case (or was killed: time limit,
             * interruption), or answered nonsense: it is not used again,
             * and the case queued behind goes back to the pending ones. */
            pid_t w;
            clear_decoded(r);
            if (!sl->eof) {
                kill(sl->w.pid, SIGKILL);
            }
            w = wait_for(sl->w.pid, &wst);
            died(sl, ref, run->o, interrupted, wst, w != sl->w.pid, r);
            r->output = capture_tail(sl->cap);
            worker_close(&sl->w);
            for (unsigned k = 1; k < sl->nq; k++) {
                run->launched[sl->q[k]] = false;
                if (sl->q[k] < run->first) {
                    run->first = sl->q[k];
                }
            }
            sl->nq = 0;
        }
    } else {
        pid_t w = wait_for(sl->pid, &wst);
        if (w == sl->pid && WIFEXITED(wst) && WEXITSTATUS(wst) == 0 &&
            opt_record_take(sl->buf, &rec, &len) && opt_result_decode(rec, len, r)) {
            /* the child's own verdict */
        } else {
            clear_decoded(r);
            died(sl, ref, run->o, interrupted, wst, w != sl->pid, r);
        }
        if (r->status != OPT_PASS || run->o->verbose) {
            r->output = capture_tail(sl->cap);
        }
        close(sl->fd);
        g_string_free(sl->buf, TRUE);
        sl->buf = NULL;
        sl->proc = false;
    }
    g_free(rec);
    return i;
}

static bool worker_start(Run *run, Slot *sl, char *err, size_t errlen)
{
    int cmd[2], res[2];
    pid_t pid;

    if (pipe2(cmd, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        return false;
    }
    if (pipe2(res, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        close(cmd[0]);
        close(cmd[1]);
        return false;
    }
    pid = opt_worker_spawn(run->refs, run->n, run->o, cmd[0], res[1], sl->cap);
    close(cmd[0]);
    close(res[1]);
    if (pid < 0) {
        snprintf(err, errlen, "cannot fork: %s", strerror(errno));
        close(cmd[1]);
        close(res[0]);
        return false;
    }
    sl->w.pid = pid;
    sl->w.cmd = cmd[1];
    sl->w.res = res[0];
    sl->w.buf = g_string_new(NULL);
    sl->w.key = NULL;
    return true;
}

/* Send case @i to the slot's worker (starting one when there is none);
 * false with the reason when that cannot be done. */
static bool send_to_worker(Run *run, Slot *sl, size_t i, char *err, size_t errlen)
{
    uint64_t idx = i;

    for (int attempt = 0; attempt < 2; attempt++) {
        ssize_t n;
        if (!sl->w.pid && !worker_start(run, sl, err, errlen)) {
            return false;
        }
        do {
            n = write(sl->w.cmd, &idx, sizeof(idx));
        } while (n < 0 && errno == EINTR);
        if (n == (ssize_t)sizeof(idx)) {
            sl->w.key = run->keys[i];
            return true;
        }
        snprintf(err, errlen, "cannot reach the worker: %s", strerror(errno));
        if (sl->nq) {
            return false; /* it died with cases in flight: the poll loop sees it */
        }
        /* It died between cases: a new one. */
        {
            int wst;
            kill(sl->w.pid, SIGKILL);
            wait_for(sl->w.pid, &wst);
        }
        worker_close(&sl->w);
    }
    return false;
}

/* Start case @i in @sl; false when it finished at once (its result set)
 * or could not be queued (then it is pending again when @requeue). */
static bool launch(Run *run, Slot *sl, size_t i, bool *requeue)
{
    const OptRef *ref = &run->refs[i];
    OptResult *r = &run->results[i];
    const OptProgram *prog;
    char err[8192];
    int pfd[2];
    pid_t pid;

    *requeue = false;
    if (ref->c->skip) {
        result_names(r, ref);
        r->status = OPT_SKIP;
        r->message = g_strdup(ref->c->skip);
        return false;
    }
    if (run->gen_failed && run->gen_failed[i]) {
        fail_result(r, ref, OPT_FK_SETUP, "the generator failed (its output is above)");
        return false;
    }
    if (sl->cap < 0) {
        sl->cap = capture_file();
    }
    if (run->keys[i]) {
        if (!send_to_worker(run, sl, i, err, sizeof(err))) {
            if (sl->nq) {
                *requeue = true; /* after the worker's death is handled */
                return false;
            }
            fail_result(r, ref, OPT_FK_SETUP, err);
            return false;
        }
        if (sl->nq == 0) {
            start_clock(run, sl, i);
        }
        sl->q[sl->nq++] = i;
        return true;
    }
    /* A process of its own. */
    prog = opt_program_get(run->pc, ref->s, ref->c, err, sizeof(err));
    if (!prog) {
        fail_result(r, ref, OPT_FK_SETUP, err);
        return false;
    }
    if (pipe2(pfd, O_CLOEXEC) != 0) {
        snprintf(err, sizeof(err), "cannot make a pipe: %s", strerror(errno));
        fail_result(r, ref, OPT_FK_SETUP, err);
        return false;
    }
    if (sl->cap >= 0 && (ftruncate(sl->cap, 0) != 0 || lseek(sl->cap, 0, SEEK_SET) != 0)) {
        /* the tail may show an earlier case's output: harmless */
    }
    start_clock(run, sl, i);
    pid = opt_case_spawn(ref, prog, run->o, pfd[1], sl->cap);
    close(pfd[1]);
    if (pid < 0) {
        snprintf(err, sizeof(err), "cannot fork: %s", strerror(errno));
        close(pfd[0]);
        fail_result(r, ref, OPT_FK_SETUP, err);
        return false;
    }
    sl->proc = true;
    sl->idx = i;
    sl->pid = pid;
    sl->fd = pfd[0];
    sl->buf = g_string_new(NULL);
    return true;
}

static bool busy(const Slot *sl)
{
    return sl->proc || sl->nq > 0;
}

/* Is @key the last program of a worker other than @self? */
static bool key_taken(const Run *run, const Slot *self, const char *key)
{
    for (unsigned s = 0; s < run->jobs; s++) {
        if (&run->slots[s] != self && run->slots[s].w.pid && run->slots[s].w.key == key) {
            return true;
        }
    }
    return false;
}

/* The next case for @sl (see the file comment), or run->n when none; a
 * slot with cases in its worker takes only worker cases. */
static size_t pick(Run *run, const Slot *sl)
{
    size_t first = run->n, other = run->n, seen = 0;

    while (run->first < run->n && run->launched[run->first]) {
        run->first++;
    }
    for (size_t i = run->first; i < run->n && seen < AFFINITY_WINDOW; i++) {
        const char *key;
        if (run->launched[i]) {
            continue;
        }
        seen++;
        key = run->keys[i];
        if (sl->nq && !key) {
            continue;
        }
        if (first == run->n) {
            first = i;
            if (!key || run->jobs == 1) {
                return i; /* no worker, or nothing to choose between */
            }
        }
        if (key && key == sl->w.key && sl->w.pid) {
            return i;
        }
        if (other == run->n && key && !key_taken(run, sl, key)) {
            other = i;
        }
    }
    return other != run->n ? other : first;
}

/* Give every slot work up to what it can take. */
static void launch_some(Run *run)
{
    for (unsigned s = 0; s < run->jobs; s++) {
        Slot *sl = &run->slots[s];
        while (!sl->proc && sl->nq < IN_FLIGHT) {
            size_t i = pick(run, sl);
            bool requeue;
            if (i == run->n) {
                break;
            }
            run->launched[i] = true;
            if (launch(run, sl, i, &requeue)) {
                continue;
            }
            if (requeue) {
                run->launched[i] = false;
                if (i < run->first) {
                    run->first = i;
                }
                break;
            }
            opt_report_case(run->rep, &run->results[i]);
        }
    }
}

int opt_run_all(const OptRef *refs, size_t n, const bool *gen_failed, OptProgramCache *pc,
                const OptRunOptions *o, const OptSchedOptions *so, OptReporter *rep,
                OptResult *results)
{
    Run run;
    struct pollfd *pfds;
    struct sigaction sa, old_int, old_term, old_pipe;
    int sp[2], interrupted = 0;

    memset(&run, 0, sizeof(run));
    run.refs = refs;
    run.n = n;
    run.gen_failed = gen_failed;
    run.pc = pc;
    run.o = o;
    run.rep = rep;
    run.results = results;
    run.jobs = so->jobs ? so->jobs : 1;
    run.slots = g_new0(Slot, run.jobs);
    run.keys = g_new0(const char *, n ? n : 1);
    run.launched = g_new0(bool, n ? n : 1);
    run.interned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    pfds = g_new0(struct pollfd, run.jobs + 1);
    for (unsigned s = 0; s < run.jobs; s++) {
        run.slots[s].cap = -1;
    }
    for (size_t i = 0; i < n; i++) {
        char *key, *have;
        if (o->isolate || refs[i].s->machine != OPT_MACHINE_VIRT) {
            continue; /* a process of its own */
        }
        key = opt_program_key(refs[i].s, refs[i].c);
        have = g_hash_table_lookup(run.interned, key);
        if (!have) {
            g_hash_table_add(run.interned, key);
            have = key;
        } else {
            g_free(key);
        }
        run.keys[i] = have;
    }

    if (pipe2(sp, O_CLOEXEC | O_NONBLOCK) != 0) {
        sp[0] = sp[1] = -1;
    }
    sig_pipe_fd = sp[1];
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sa.sa_handler = SIG_IGN; /* a dead worker's pipe: write fails with EPIPE */
    sigaction(SIGPIPE, &sa, &old_pipe);

    for (;;) {
        unsigned np = 0, nbusy = 0;
        double t = now(), wait_s = 1.0;
        int pr;

        if (!interrupted) {
            launch_some(&run);
        } else {
            /* nothing more starts: the rest are interrupted */
            for (size_t i = 0; i < n; i++) {
                if (!run.launched[i]) {
                    run.launched[i] = true;
                    fail_result(&results[i], &refs[i], OPT_FK_INTERRUPTED,
                                "not run: the run was interrupted");
                    opt_report_case(rep, &results[i]);
                }
            }
        }
        for (unsigned s = 0; s < run.jobs; s++) {
            nbusy += busy(&run.slots[s]);
        }
        if (nbusy == 0) {
            break;
        }
        if (rep->progress) {
            for (unsigned s = 0; s < run.jobs; s++) {
                Slot *sl = &run.slots[s];
                if (busy(sl)) {
                    size_t i = sl->proc ? sl->idx : sl->q[0];
                    char name[512];
                    snprintf(name, sizeof(name), "%s/%s", refs[i].s->name, refs[i].c->name);
                    opt_report_progress(rep, name);
                    break;
                }
            }
        }
        for (unsigned s = 0; s < run.jobs; s++) {
            Slot *sl = &run.slots[s];
            if (busy(sl)) {
                pfds[np].fd = sl->proc ? sl->fd : sl->w.res;
                pfds[np].events = POLLIN;
                pfds[np].revents = 0;
                np++;
                if (sl->deadline - t < wait_s) {
                    wait_s = sl->deadline - t;
                }
            }
        }
        pfds[np].fd = sp[0];
        pfds[np].events = POLLIN;
        pfds[np].revents = 0;
        if (wait_s < 0) {
            wait_s = 0;
        }
        pr = poll(pfds, np + 1, (int)(wait_s * 1000) + 1);
        if (pr < 0 && errno != EINTR) {
            break;
        }
        if (sp[0] >= 0 && (pfds[np].revents & POLLIN)) {
            unsigned char b;
            while (read(sp[0], &b, 1) == 1) {
                if (!interrupted) {
                    interrupted = b;
                }
            }
            for (unsigned s = 0; s < run.jobs; s++) {
                Slot *sl = &run.slots[s];
                if (busy(sl)) {
                    kill(sl->proc ? sl->pid : sl->w.pid, SIGKILL);
                    sl->killed = true;
                }
            }
        }
        t = now();
        for (unsigned s = 0; s < run.jobs; s++) {
            Slot *sl = &run.slots[s];
            GString *buf;
            int fd;
            char chunk[65536];

            if (!busy(sl)) {
                continue;
            }
            fd = sl->proc ? sl->fd : sl->w.res;
            buf = sl->proc ? sl->buf : sl->w.buf;
            for (;;) {
                struct pollfd q = { .fd = fd, .events = POLLIN };
                ssize_t got;
                if (poll(&q, 1, 0) != 1) {
                    break;
                }
                got = read(fd, chunk, sizeof(chunk));
                if (got > 0) {
                    g_string_append_len(buf, chunk, got);
                    continue;
                }
                if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
                    sl->eof = true;
                }
                break;
            }
            if (!sl->proc) {
                /* Records complete cases in order; the end of the pipe or
                 * a kill ends the worker with the running case. */
                for (;;) {
                    uint32_t len = 0;
                    bool whole;
                    size_t idx;
                    if (buf->len >= sizeof(len)) {
                        memcpy(&len, buf->str, sizeof(len));
                    }
                    whole = buf->len >= sizeof(len) && buf->len - sizeof(len) >= len;
                    if (!sl->nq || (!whole && !sl->eof && !sl->killed)) {
                        break;
                    }
                    idx = finish(&run, sl, interrupted);
                    opt_report_case(rep, &results[idx]);
                    if (!sl->w.pid) {
                        break; /* it died */
                    }
                }
                if (sl->nq && !sl->killed && t > sl->deadline) {
                    kill(sl->w.pid, SIGKILL);
                    sl->killed = true;
                }
            } else {
                if (!sl->eof && !sl->killed && t > sl->deadline) {
                    kill(sl->pid, SIGKILL);
                    sl->killed = true;
                }
                if (sl->eof || sl->killed) {
                    size_t idx = finish(&run, sl, interrupted);
                    opt_report_case(rep, &results[idx]);
                }
            }
        }
    }
    /* Done: the workers end at the end of their command pipes. */
    for (unsigned s = 0; s < run.jobs; s++) {
        Slot *sl = &run.slots[s];
        if (sl->w.pid) {
            int wst;
            pid_t pid = sl->w.pid;
            if (interrupted) {
                kill(pid, SIGKILL);
            }
            worker_close(&sl->w);
            wait_for(pid, &wst);
        }
        if (sl->cap >= 0) {
            close(sl->cap);
        }
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    sig_pipe_fd = -1;
    if (sp[0] >= 0) {
        close(sp[0]);
        close(sp[1]);
    }
    g_hash_table_destroy(run.interned);
    g_free(run.keys);
    g_free(run.launched);
    g_free(run.slots);
    g_free(pfds);
    return interrupted;
}
