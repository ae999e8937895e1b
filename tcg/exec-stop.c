/*
 * Stopping a run from outside: -timeout and SIGINT/SIGTERM (exec-stop.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tcg/exec-stop.h"

#define KICK_INTERVAL_NS 20000000L /* 20 ms */

struct LinxStopWatch {
    pthread_t thread;
    pthread_t cpu_thread;
    bool started;
    sigset_t stop_set;   /* SIGINT, SIGTERM */
    sigset_t saved_mask; /* of the thread that created the watch */
    struct sigaction saved_kick;
    unsigned long timeout_ms;
    struct timespec deadline; /* CLOCK_MONOTONIC */
    int *exit_request;        /* the CPU's (atomic access) */
    int flag;                 /* LINX_STOP_* (atomic) */
    int signo;                /* atomic */
    int quit;                 /* atomic: finish() asks the watcher to go */
};

static const int no_stop = LINX_STOP_NONE;

static void kick_handler(int sig)
{
    (void)sig; /* only there to interrupt a blocking system call */
}

static int64_t ns_until(const struct timespec *t)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(t->tv_sec - now.tv_sec) * 1000000000 + (t->tv_nsec - now.tv_nsec);
}

/* Wait up to @ns (-1: forever) for SIGINT/SIGTERM; its number or 0. */
static int wait_signal(LinxStopWatch *w, int64_t ns)
{
    struct timespec ts;
    siginfo_t info;
    int s;

    if (ns < 0) {
        do {
            s = sigwaitinfo(&w->stop_set, &info);
        } while (s < 0 && errno == EINTR);
        return s < 0 ? 0 : s;
    }
    ts.tv_sec = (time_t)(ns / 1000000000);
    ts.tv_nsec = (long)(ns % 1000000000);
    s = sigtimedwait(&w->stop_set, &info, &ts);
    return s < 0 ? 0 : s;
}

static void *watcher_main(void *opaque)
{
    LinxStopWatch *w = opaque;
    int sig = 0, *req;

    /* Wait for a signal or the deadline. */
    while (!__atomic_load_n(&w->quit, __ATOMIC_ACQUIRE)) {
        int64_t ns = -1;
        if (w->timeout_ms) {
            ns = ns_until(&w->deadline);
            if (ns <= 0) {
                break;
            }
        }
        sig = wait_signal(w, ns);
        if (sig) {
            break;
        }
    }
    if (__atomic_load_n(&w->quit, __ATOMIC_ACQUIRE)) {
        return NULL;
    }
    __atomic_store_n(&w->signo, sig, __ATOMIC_RELEASE);
    __atomic_store_n(&w->flag, sig ? LINX_STOP_SIGNAL : LINX_STOP_TIMEOUT, __ATOMIC_RELEASE);
    req = __atomic_load_n(&w->exit_request, __ATOMIC_ACQUIRE); /* armed by the CPU thread */
    if (req) {
        __atomic_store_n(req, 1, __ATOMIC_RELEASE);
    }
    /* Kick the CPU thread out of blocking system calls until it has taken
     * the request; a second signal ends the process now. */
    for (;;) {
        int again;
        if (__atomic_load_n(&w->quit, __ATOMIC_ACQUIRE)) {
            return NULL;
        }
        req = __atomic_load_n(&w->exit_request, __ATOMIC_ACQUIRE);
        if (req && __atomic_load_n(req, __ATOMIC_ACQUIRE)) {
            pthread_kill(w->cpu_thread, LINX_STOP_KICK_SIGNAL);
        }
        again = wait_signal(w, KICK_INTERVAL_NS);
        if (again && !__atomic_load_n(&w->quit, __ATOMIC_ACQUIRE)) {
            static const char msg[] = "second stop signal: exiting at once\n";
            if (write(2, msg, sizeof(msg) - 1) < 0) {
                /* nothing to do */
            }
            signal(again, SIG_DFL);
            pthread_sigmask(SIG_UNBLOCK, &w->stop_set, NULL);
            raise(again);
            _exit(128 + again);
        }
    }
}

LinxStopWatch *linx_stop_watch_new(unsigned long timeout_ms, char *err, size_t errlen)
{
    LinxStopWatch *w = calloc(1, sizeof(*w));
    struct sigaction sa;
    int rc;

    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->timeout_ms = timeout_ms;
    w->cpu_thread = pthread_self();
    clock_gettime(CLOCK_MONOTONIC, &w->deadline);
    w->deadline.tv_sec += (time_t)(timeout_ms / 1000);
    w->deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (w->deadline.tv_nsec >= 1000000000L) {
        w->deadline.tv_sec++;
        w->deadline.tv_nsec -= 1000000000L;
    }
    sigemptyset(&w->stop_set);
    sigaddset(&w->stop_set, SIGINT);
    sigaddset(&w->stop_set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &w->stop_set, &w->saved_mask);

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = kick_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: blocking calls return EINTR */
    sigaction(LINX_STOP_KICK_SIGNAL, &sa, &w->saved_kick);

    rc = pthread_create(&w->thread, NULL, watcher_main, w);
    if (rc != 0) {
        snprintf(err, errlen, "cannot start the stop watcher thread: %s", strerror(rc));
        sigaction(LINX_STOP_KICK_SIGNAL, &w->saved_kick, NULL);
        pthread_sigmask(SIG_SETMASK, &w->saved_mask, NULL);
        free(w);
        return NULL;
    }
    w->started = true;
    return w;
}

void linx_stop_watch_arm(LinxStopWatch *w, int *exit_request)
{
    if (!w) {
        return;
    }
    w->cpu_thread = pthread_self();
    __atomic_store_n(&w->exit_request, exit_request, __ATOMIC_RELEASE);
    if (__atomic_load_n(&w->flag, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(exit_request, 1, __ATOMIC_RELEASE); /* fired before arming */
    }
}

const int *linx_stop_watch_flag(const LinxStopWatch *w)
{
    return w ? &w->flag : &no_stop;
}

int linx_stop_watch_reason(const LinxStopWatch *w)
{
    return w ? __atomic_load_n(&w->flag, __ATOMIC_ACQUIRE) : LINX_STOP_NONE;
}

int linx_stop_watch_signal(const LinxStopWatch *w)
{
    return w ? __atomic_load_n(&w->signo, __ATOMIC_ACQUIRE) : 0;
}

unsigned long linx_stop_watch_timeout_ms(const LinxStopWatch *w)
{
    return w ? w->timeout_ms : 0;
}

void linx_stop_watch_finish(LinxStopWatch *w)
{
    sigset_t saved_mask;
    int sig;

    if (!w) {
        return;
    }
    __atomic_store_n(&w->quit, 1, __ATOMIC_RELEASE);
    if (w->started) {
        /* Wake the watcher from its wait: a thread-directed SIGTERM is
         * taken by its sigtimedwait and read as "quit". */
        pthread_kill(w->thread, SIGTERM);
        pthread_join(w->thread, NULL);
    }
    sig = linx_stop_watch_reason(w) == LINX_STOP_SIGNAL ? linx_stop_watch_signal(w) : 0;
    sigaction(LINX_STOP_KICK_SIGNAL, &w->saved_kick, NULL);
    saved_mask = w->saved_mask;
    free(w);
    if (sig) {
        sigset_t one;
        signal(sig, SIG_DFL);
        sigemptyset(&one);
        sigaddset(&one, sig);
        pthread_sigmask(SIG_UNBLOCK, &one, NULL);
        raise(sig);
        _exit(128 + sig); /* not reached */
    }
    /* The caller's mask again (a SIGINT that came while shutting down is
     * delivered now, with its default action). */
    pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
}
