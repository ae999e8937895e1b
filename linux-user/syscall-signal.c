/*
 * Linux user mode: signal system calls (rt_sigaction, rt_sigprocmask,
 * rt_sigpending, rt_sigreturn, sigaltstack, kill, tkill, tgkill).
 *
 * The kernel sigset is one 64-bit word (sigsetsize must be 8).  kill and
 * tkill aimed at the guest itself queue a guest signal, delivered when
 * the call returns; kill aimed at another process is passed to the host
 * (the guest can signal what its host user can).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
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
        LinuxGuestSigaction o = { old->handler, old->flags, old->restorer, old->mask };
        if (lu_copy_to(p, a[2], &o, sizeof(o)) < 0) {
            return -EFAULT;
        }
    }
    if (a[1]) {
        LinuxSigAction *act = &p->sig.action[sig];
        act->handler = g.handler;
        act->flags = g.flags;
        act->restorer = g.restorer;
        act->mask = g.mask & ~UNBLOCKABLE;
        /* Setting SIG_IGN discards a pending instance (POSIX). */
        if (act->handler == LINUX_SIG_IGN) {
            p->sig.pending &= ~SIGBIT(sig);
        }
    }
    return 0;
}

int64_t lu_sys_rt_sigprocmask(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t set, old = p->sig.blocked;

    if (a[3] != LINUX_SIGSET_SIZE) {
        return -EINVAL;
    }
    if (a[1]) {
        if (lu_copy_from(p, &set, a[1], sizeof(set)) < 0) {
            return -EFAULT;
        }
        switch ((int)a[0]) {
        case LINUX_SIG_BLOCK:
            p->sig.blocked |= set;
            break;
        case LINUX_SIG_UNBLOCK:
            p->sig.blocked &= ~set;
            break;
        case LINUX_SIG_SETMASK:
            p->sig.blocked = set;
            break;
        default:
            return -EINVAL;
        }
        p->sig.blocked &= ~UNBLOCKABLE;
    }
    if (a[2] && lu_copy_to(p, a[2], &old, sizeof(old)) < 0) {
        return -EFAULT;
    }
    return 0;
}

int64_t lu_sys_rt_sigpending(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t set = p->sig.pending & p->sig.blocked;

    if (a[1] != LINUX_SIGSET_SIZE) {
        return -EINVAL;
    }
    return lu_copy_to(p, a[0], &set, sizeof(set));
}

int64_t lu_sys_rt_sigreturn(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    if (linux_signal_return(p, env) && linux_signal_next(p)) {
        /* The restored mask may let a pending signal through; the block
         * state in env is the restored one, so deliver at once. */
        linux_signal_deliver(p, env);
    }
    return LU_RET_NONE;
}

int64_t lu_sys_sigaltstack(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    LinuxGuestStack ss;
    uint64_t sp = env ? env->gpr[LINX_REG_SP] : 0;
    bool on = p->sig.altstack_size && sp > p->sig.altstack_sp &&
              sp - p->sig.altstack_sp <= p->sig.altstack_size;

    if (a[1]) {
        LinuxGuestStack old = {
            .ss_sp = p->sig.altstack_sp,
            .ss_flags = p->sig.altstack_size ? (on ? LINUX_SS_ONSTACK : 0) : LINUX_SS_DISABLE,
            .ss_size = p->sig.altstack_size,
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
            p->sig.altstack_sp = 0;
            p->sig.altstack_size = 0;
        } else {
            if (ss.ss_size < LINUX_MINSIGSTKSZ) {
                return -ENOMEM;
            }
            p->sig.altstack_sp = ss.ss_sp;
            p->sig.altstack_size = ss.ss_size;
        }
        p->sig.altstack_flags = 0;
    }
    return 0;
}

static int64_t signal_self(LinuxProcess *p, int sig, int code)
{
    LinuxSigInfo info;

    if (sig < 0 || sig > LINUX_NSIG) {
        return -EINVAL;
    }
    if (sig == 0) {
        return 0;
    }
    memset(&info, 0, sizeof(info));
    info.signo = sig;
    info.code = code;
    info.pid = p->pid;
    info.uid = (uint32_t)getuid();
    /* An ignored signal is discarded at once. */
    if (p->sig.action[sig].handler == LINUX_SIG_IGN) {
        return 0;
    }
    linux_signal_queue(p, &info);
    return 0;
}

int64_t lu_sys_kill(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int32_t pid = (int32_t)a[0];
    int sig = (int)(int32_t)a[1];

    if (pid == p->pid || pid == 0 || pid == -p->pid) {
        return signal_self(p, sig, LINUX_SI_USER);
    }
    if (pid == -1) {
        return -EPERM; /* not letting a guest signal every host process */
    }
    if (sig < 0 || sig > LINUX_NSIG) {
        return -EINVAL;
    }
    return kill(pid, sig) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_tkill(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int32_t tid = (int32_t)a[0];

    if (tid <= 0) {
        return -EINVAL;
    }
    if (tid != p->pid) {
        return -ESRCH;
    }
    return signal_self(p, (int)(int32_t)a[1], LINUX_SI_TKILL);
}

int64_t lu_sys_tgkill(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int32_t tgid = (int32_t)a[0], tid = (int32_t)a[1];

    if (tgid <= 0 || tid <= 0) {
        return -EINVAL;
    }
    if (tgid != p->pid || tid != p->pid) {
        return -ESRCH;
    }
    return signal_self(p, (int)(int32_t)a[2], LINUX_SI_TKILL);
}
