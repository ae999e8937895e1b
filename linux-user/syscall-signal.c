/*
 * Linux user mode: signal system calls (rt_sigaction, rt_sigprocmask,
 * rt_sigpending, rt_sigreturn, sigaltstack, kill, tkill, tgkill).
 *
 * The kernel sigset is one 64-bit word (sigsetsize must be 8); masks,
 * pending sets and alternate stacks are per thread, actions per process.
 * kill aimed at the guest itself queues a process signal (the caller
 * takes it when it does not block it), tkill/tgkill a signal for one of
 * its threads (kicked out of translated code or a blocking call to take
 * it); kill aimed at another process is passed to the host (the guest can
 * signal what its host user can).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "syscall-internal.h"

#define LINUX_SIGSET_SIZE 8
#define SIGBIT(sig) (UINT64_C(1) << ((sig) - 1))
#define UNBLOCKABLE (SIGBIT(LINUX_SIGKILL) | SIGBIT(LINUX_SIGSTOP))

enum {
    LINUX_SIG_BLOCK = 0,
    LINUX_SIG_UNBLOCK = 1,
    LINUX_SIG_SETMASK = 2,
    LINUX_SS_ONSTACK = 1,
    LINUX_SS_DISABLE = 2,
    LINUX_MINSIGSTKSZ = 2048,
};

int64_t lu_sys_rt_sigaction(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int sig = (int)(int32_t)a[0];
    LinuxGuestSigaction g;

    if (a[3] != LINUX_SIGSET_SIZE) {
        return -EINVAL;
    }
    if (sig < 1 || sig > LINUX_NSIG) {
        return -EINVAL;
    }
    if (a[1] && (sig == LINUX_SIGKILL || sig == LINUX_SIGSTOP)) {
        return -EINVAL;
    }
    if (a[1] && lu_copy_from(p, &g, a[1], sizeof(g)) < 0) {
        return -EFAULT;
    }
    if (a[2]) {
        const LinuxSigAction *old = &p->sig.action[sig];
        LinuxGuestSigaction o;
        pthread_mutex_lock(&p->lock);
        o = (LinuxGuestSigaction){ old->handler, old->flags, old->restorer, old->mask };
        pthread_mutex_unlock(&p->lock);
        if (lu_copy_to(p, a[2], &o, sizeof(o)) < 0) {
            return -EFAULT;
        }
    }
    if (a[1]) {
        LinuxSigAction *act = &p->sig.action[sig];
        pthread_mutex_lock(&p->lock);
        act->handler = g.handler;
        act->flags = g.flags;
        act->restorer = g.restorer;
        act->mask = g.mask & ~UNBLOCKABLE;
        /* Setting SIG_IGN discards a pending instance (POSIX), the
         * process's and every thread's. */
        if (act->handler == LINUX_SIG_IGN) {
            p->sig.pending &= ~SIGBIT(sig);
            for (LinuxThread *t = p->threads; t; t = t->next) {
                t->sig.pending &= ~SIGBIT(sig);
            }
        }
        pthread_mutex_unlock(&p->lock);
    }
    return 0;
}

int64_t lu_sys_rt_sigprocmask(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    LinuxThread *t = linux_thread_of(p, env);
    uint64_t set = 0, old;

    if (a[3] != LINUX_SIGSET_SIZE) {
        return -EINVAL;
    }
    if (a[1] && lu_copy_from(p, &set, a[1], sizeof(set)) < 0) {
        return -EFAULT;
    }
    pthread_mutex_lock(&p->lock);
    old = t->sig.blocked;
    if (a[1]) {
        switch ((int)a[0]) {
        case LINUX_SIG_BLOCK:
            t->sig.blocked |= set;
            break;
        case LINUX_SIG_UNBLOCK:
            t->sig.blocked &= ~set;
            break;
        case LINUX_SIG_SETMASK:
            t->sig.blocked = set;
            break;
        default:
            pthread_mutex_unlock(&p->lock);
            return -EINVAL;
        }
        t->sig.blocked &= ~UNBLOCKABLE;
        linux_thread_update_kick(t);
    }
    pthread_mutex_unlock(&p->lock);
    if (a[2] && lu_copy_to(p, a[2], &old, sizeof(old)) < 0) {
        return -EFAULT;
    }
    return 0;
}

int64_t lu_sys_rt_sigpending(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    LinuxThread *t = linux_thread_of(p, env);
    uint64_t set;

    if (a[1] != LINUX_SIGSET_SIZE) {
        return -EINVAL;
    }
    pthread_mutex_lock(&p->lock);
    set = (t->sig.pending | p->sig.pending) & t->sig.blocked;
    pthread_mutex_unlock(&p->lock);
    return lu_copy_to(p, a[0], &set, sizeof(set));
}

int64_t lu_sys_rt_sigreturn(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    if (linux_signal_return(p, env) && linux_signal_next(p, linux_thread_of(p, env))) {
        /* The restored mask may let a pending signal through; the block
         * state in env is the restored one, so deliver at once. */
        linux_signal_deliver(p, env);
    }
    return LU_RET_NONE;
}

int64_t lu_sys_sigaltstack(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    LinuxThread *t = linux_thread_of(p, env);
    LinuxGuestStack ss;
    uint64_t sp = env ? env->gpr[LINX_REG_SP] : 0;
    bool on = t->sig.altstack_size && sp > t->sig.altstack_sp &&
              sp - t->sig.altstack_sp <= t->sig.altstack_size;

    if (a[1]) {
        LinuxGuestStack old = {
            .ss_sp = t->sig.altstack_sp,
            .ss_flags = t->sig.altstack_size ? (on ? LINUX_SS_ONSTACK : 0) : LINUX_SS_DISABLE,
            .ss_size = t->sig.altstack_size,
        };
        if (lu_copy_to(p, a[1], &old, sizeof(old)) < 0) {
            return -EFAULT;
        }
    }
    if (a[0]) {
        if (lu_copy_from(p, &ss, a[0], sizeof(ss)) < 0) {
            return -EFAULT;
        }
        if (on) {
            return -EPERM;
        }
        if (ss.ss_flags & ~LINUX_SS_DISABLE) {
            return -EINVAL;
        }
        if (ss.ss_flags & LINUX_SS_DISABLE) {
            t->sig.altstack_sp = 0;
            t->sig.altstack_size = 0;
        } else {
            if (ss.ss_size < LINUX_MINSIGSTKSZ) {
                return -ENOMEM;
            }
            t->sig.altstack_sp = ss.ss_sp;
            t->sig.altstack_size = ss.ss_size;
        }
        t->sig.altstack_flags = 0;
    }
    return 0;
}

static LinuxSigInfo user_info(LinuxProcess *p, int sig, int code)
{
    LinuxSigInfo info;

    memset(&info, 0, sizeof(info));
    info.signo = sig;
    info.code = code;
    info.pid = p->pid;
    info.uid = (uint32_t)getuid();
    return info;
}

/* An ignored signal is discarded at once. */
static bool ignored(LinuxProcess *p, int sig)
{
    bool ign;

    pthread_mutex_lock(&p->lock);
    ign = p->sig.action[sig].handler == LINUX_SIG_IGN;
    pthread_mutex_unlock(&p->lock);
    return ign;
}

/* Is @pid the host TID of one of this process's own threads (a guest
 * thread's, or one of the emulator's helpers)?  kill() of a TID is
 * process-directed, so it means this process: the guest's, not a host
 * signal to the emulator.  (tgkill with signal 0 tests without sending.) */
static bool own_host_thread(int32_t pid)
{
    return pid > 0 && syscall(SYS_tgkill, getpid(), pid, 0) == 0;
}

int64_t lu_sys_kill(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int32_t pid = (int32_t)a[0];
    int sig = (int)(int32_t)a[1];

    if (pid == p->pid || pid == 0 || pid == -p->pid || own_host_thread(pid)) {
        LinuxSigInfo info;
        if (sig < 0 || sig > LINUX_NSIG) {
            return -EINVAL;
        }
        if (sig == 0 || ignored(p, sig)) {
            return 0;
        }
        info = user_info(p, sig, LINUX_SI_USER);
        lu_signal_queue_process(p, linux_thread_of(p, env), &info);
        return 0;
    }
    if (pid == -1) {
        return -EPERM; /* not letting a guest signal every host process */
    }
    if (sig < 0 || sig > LINUX_NSIG) {
        return -EINVAL;
    }
    return kill(pid, sig) < 0 ? lu_errno() : 0;
}

/* Signal thread @tid of this process (tkill, tgkill). */
static int64_t signal_thread(LinuxProcess *p, int32_t tid, int sig)
{
    LinuxThread *target = NULL;
    LinuxSigInfo info;

    if (sig < 0 || sig > LINUX_NSIG) {
        return -EINVAL;
    }
    pthread_mutex_lock(&p->lock);
    for (LinuxThread *t = p->threads; t && !target; t = t->next) {
        if (t->tid == tid && !t->exited) {
            target = t;
        }
    }
    if (!target) {
        pthread_mutex_unlock(&p->lock);
        return -ESRCH;
    }
    if (sig != 0 && p->sig.action[sig].handler != LINUX_SIG_IGN) {
        info = user_info(p, sig, LINUX_SI_TKILL);
        linux_signal_queue_thread(target, &info);
    }
    pthread_mutex_unlock(&p->lock);
    return 0;
}

int64_t lu_sys_tkill(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int32_t tid = (int32_t)a[0];

    if (tid <= 0) {
        return -EINVAL;
    }
    return signal_thread(p, tid, (int)(int32_t)a[1]);
}

int64_t lu_sys_tgkill(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int32_t tgid = (int32_t)a[0], tid = (int32_t)a[1];

    if (tgid <= 0 || tid <= 0) {
        return -EINVAL;
    }
    if (tgid != p->pid) {
        return -ESRCH;
    }
    return signal_thread(p, tid, (int)(int32_t)a[2]);
}
