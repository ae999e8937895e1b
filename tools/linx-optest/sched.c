/*
 * linx-optest: running the selected cases, up to -j at a time
 * (docs/optest.md "Running").
 *
 * Each case is a child process (run.c) with a pipe for its result record
 * and a capture file for the guest's output.  The runner waits in poll()
 * on the pipes, a self-pipe for SIGINT/SIGTERM and the nearest deadline:
 *
 * * a record followed by end of file and a normal exit is the result;
 * * a child killed by SIGALRM ran into its own time limit (a guest that
 *   spins forever): "timed out"; one still alive 2 s past its limit is
 *   killed by the runner and reported the same way;
 * * any other death is a crash of the emulator, named by its signal;
 * * SIGINT/SIGTERM: no case starts any more, the running ones are killed
 *   and every unfinished case is failed as interrupted, so the caller
 *   still writes complete reports of what ran.
 *
 * Programs are built (program.c) just before the first case that needs
 * them is forked; a case whose program or generator failed is failed
 * without a process.
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
    KILL_GRACE_S = 2, /* past a case's limit, the runner kills it */
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

typedef struct Slot {
    bool busy;
    size_t idx;
    pid_t pid;
    int fd;          /* result pipe, read end */
    int cap;         /* capture file */
    GString *buf;
    double start, deadline, limit;
    bool eof, killed;
} Slot;

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

/* The child of @sl has ended (or was killed): its result. */
static void finish(Slot *sl, const OptRef *ref, const OptRunOptions *o, int interrupted,
                   OptResult *r)
{
    int wst = 0;
    pid_t w;

    do {
        w = waitpid(sl->pid, &wst, 0);
    } while (w < 0 && errno == EINTR);
    result_names(r, ref);
    r->time = now() - sl->start;
    if (w != sl->pid) {
        r->status = OPT_FAIL;
        r->kind = OPT_FK_CRASH;
        r->message = g_strdup_printf("lost the case's process: %s", strerror(errno));
    } else if (WIFEXITED(wst) && WEXITSTATUS(wst) == 0 &&
               opt_result_decode((const uint8_t *)sl->buf->str, sl->buf->len, r)) {
        /* the child's own verdict */
    } else if ((interrupted && (sl->killed || WIFSIGNALED(wst))) ||
               (WIFSIGNALED(wst) && (WTERMSIG(wst) == SIGINT || WTERMSIG(wst) == SIGTERM))) {
        /* the runner never sends SIGINT/SIGTERM: a terminal's Ctrl-C or
         * a job scheduler reached the case's process too */
        if (!interrupted) {
            interrupted = WTERMSIG(wst);
        }
        r->status = OPT_FAIL;
        r->kind = OPT_FK_INTERRUPTED;
        r->message = g_strdup_printf("interrupted by %s while running", strsignal(interrupted));
    } else if ((WIFSIGNALED(wst) && WTERMSIG(wst) == SIGALRM) || sl->killed) {
        r->status = OPT_FAIL;
        r->kind = OPT_FK_TIMEOUT;
        r->message = g_strdup_printf("timed out after %g s: the program was still running "
                                     "(%s; a guest that never reaches its exit loops)",
                                     sl->limit, limit_source(ref, o));
    } else if (WIFSIGNALED(wst)) {
        r->status = OPT_FAIL;
        r->kind = OPT_FK_CRASH;
        r->message = g_strdup_printf("the emulator died of signal %d (%s)", WTERMSIG(wst),
                                     strsignal(WTERMSIG(wst)));
    } else {
        r->status = OPT_FAIL;
        r->kind = OPT_FK_CRASH;
        r->message = g_strdup_printf("the case's process exited with status %d without a "
                                     "result", WIFEXITED(wst) ? WEXITSTATUS(wst) : -1);
    }
    if (r->status != OPT_PASS || o->verbose) {
        r->output = capture_tail(sl->cap);
    }
    close(sl->fd);
    if (sl->cap >= 0) {
        close(sl->cap);
    }
    g_string_free(sl->buf, TRUE);
    memset(sl, 0, sizeof(*sl));
}

/* Start case @i in @sl; false when it finished at once (@r filled). */
static bool launch(Slot *sl, size_t i, const OptRef *ref, bool gen_failed, OptProgramCache *pc,
                   const OptRunOptions *o, OptResult *r)
{
    const OptProgram *prog;
    char err[8192];
    int pfd[2];
    pid_t pid;

    if (ref->c->skip) {
        result_names(r, ref);
        r->status = OPT_SKIP;
        r->message = g_strdup(ref->c->skip);
        return false;
    }
    if (gen_failed) {
        fail_result(r, ref, OPT_FK_SETUP, "the generator failed (its output is above)");
        return false;
    }
    prog = opt_program_get(pc, ref->s, ref->c, err, sizeof(err));
    if (!prog) {
        fail_result(r, ref, OPT_FK_SETUP, err);
        return false;
    }
    if (pipe2(pfd, O_CLOEXEC) != 0) {
        snprintf(err, sizeof(err), "cannot make a pipe: %s", strerror(errno));
        fail_result(r, ref, OPT_FK_SETUP, err);
        return false;
    }
    sl->cap = capture_file();
    sl->start = now();
    sl->limit = case_limit(ref, o);
    sl->deadline = sl->start + sl->limit + KILL_GRACE_S;
    pid = opt_case_spawn(ref, prog, o, pfd[1], sl->cap);
    close(pfd[1]);
    if (pid < 0) {
        snprintf(err, sizeof(err), "cannot fork: %s", strerror(errno));
        close(pfd[0]);
        if (sl->cap >= 0) {
            close(sl->cap);
        }
        fail_result(r, ref, OPT_FK_SETUP, err);
        return false;
    }
    sl->busy = true;
    sl->idx = i;
    sl->pid = pid;
    sl->fd = pfd[0];
    sl->buf = g_string_new(NULL);
    return true;
}

int opt_run_all(const OptRef *refs, size_t n, const bool *gen_failed, OptProgramCache *pc,
                const OptRunOptions *o, const OptSchedOptions *so, OptReporter *rep,
                OptResult *results)
{
    unsigned jobs = so->jobs ? so->jobs : 1;
    Slot *slots = g_new0(Slot, jobs);
    struct pollfd *pfds = g_new0(struct pollfd, jobs + 1);
    struct sigaction sa, old_int, old_term;
    size_t next = 0;
    unsigned active = 0;
    int sp[2], interrupted = 0;

    if (pipe2(sp, O_CLOEXEC | O_NONBLOCK) != 0) {
        sp[0] = sp[1] = -1;
    }
    sig_pipe_fd = sp[1];
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    while (next < n || active > 0) {
        unsigned np = 0;
        double t = now(), wait_s = 1.0;
        int pr;

        while (!interrupted && active < jobs && next < n) {
            unsigned s = 0;
            while (slots[s].busy) {
                s++;
            }
            if (launch(&slots[s], next, &refs[next], gen_failed && gen_failed[next], pc, o,
                       &results[next])) {
                active++;
            } else {
                opt_report_case(rep, &results[next]);
            }
            next++;
        }
        if (interrupted) {
            /* nothing more starts: the rest are interrupted */
            for (; next < n; next++) {
                fail_result(&results[next], &refs[next], OPT_FK_INTERRUPTED,
                            "not run: the run was interrupted");
                opt_report_case(rep, &results[next]);
            }
        }
        if (active == 0) {
            continue;
        }
        if (rep->progress) {
            for (unsigned s = 0; s < jobs; s++) {
                if (slots[s].busy) {
                    char name[512];
                    snprintf(name, sizeof(name), "%s/%s", refs[slots[s].idx].s->name,
                             refs[slots[s].idx].c->name);
                    opt_report_progress(rep, name);
                    break;
                }
            }
        }
        for (unsigned s = 0; s < jobs; s++) {
            if (slots[s].busy) {
                pfds[np].fd = slots[s].fd;
                pfds[np].events = POLLIN;
                pfds[np].revents = 0;
                np++;
                if (slots[s].deadline - t < wait_s) {
                    wait_s = slots[s].deadline - t;
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
            for (unsigned s = 0; s < jobs; s++) {
                if (slots[s].busy) {
                    kill(slots[s].pid, SIGKILL);
                    slots[s].killed = true;
                }
            }
        }
        t = now();
        for (unsigned s = 0; s < jobs; s++) {
            Slot *sl = &slots[s];
            char buf[4096];
            ssize_t got;

            if (!sl->busy) {
                continue;
            }
            for (;;) {
                got = read(sl->fd, buf, sizeof(buf));
                if (got > 0) {
                    g_string_append_len(sl->buf, buf, got);
                    if (got < (ssize_t)sizeof(buf)) {
                        break;
                    }
                    continue;
                }
                if (got == 0) {
                    sl->eof = true;
                }
                break;
            }
            if (!sl->eof && !sl->killed && t > sl->deadline) {
                kill(sl->pid, SIGKILL);
                sl->killed = true;
            }
            if (sl->eof || sl->killed) {
                size_t idx = sl->idx;
                finish(sl, &refs[idx], o, interrupted, &results[idx]);
                active--;
                opt_report_case(rep, &results[idx]);
            }
        }
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sig_pipe_fd = -1;
    if (sp[0] >= 0) {
        close(sp[0]);
        close(sp[1]);
    }
    g_free(slots);
    g_free(pfds);
    return interrupted;
}
