/*
 * Linux user mode: system-call entry and the checked guest-memory helpers
 * every handler uses.
 *
 * ABI (linxisa-digest section 5): `acrc 1` traps with the number in a7,
 * arguments in a0..a5 and the result (negative errno) in a0; execution
 * resumes after the acrc.  Numbers are asm-generic.  A number with no
 * handler returns -ENOSYS and is reported once under -strace or -d unimp.
 *
 * linux_syscall() only touches the CPU registers and the process; it never
 * leaves the exec loop itself (cpu-loop.c turns its result into
 * cpu_loop_exit), so the unit tests call it with a CPU state built by hand.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safe-syscall.h"
#include "syscall-internal.h"
#include "util/atomic.h"

int64_t lu_errno(void)
{
    return -(int64_t)(errno ? errno : EIO);
}

int lu_copy_from(LinuxProcess *p, void *dst, uint64_t src, size_t len)
{
    if (len == 0) {
        return 0;
    }
    return guest_mem_read(p->mem, src, dst, len, GM_PROT_READ, NULL) == GM_OK ? 0 : -EFAULT;
}

int lu_copy_to(LinuxProcess *p, uint64_t dst, const void *src, size_t len)
{
    if (len == 0) {
        return 0;
    }
    return guest_mem_write(p->mem, dst, src, len, NULL) == GM_OK ? 0 : -EFAULT;
}

int lu_check_write(LinuxProcess *p, uint64_t addr, size_t len)
{
    uint8_t probe[GUEST_PAGE_SIZE];

    /* Probe one byte per page (and the last byte) for write permission. */
    while (len) {
        size_t in_page = GUEST_PAGE_SIZE - (addr & ~GUEST_PAGE_MASK);
        size_t n = len < in_page ? len : in_page;
        if (guest_mem_read(p->mem, addr, probe, n, GM_PROT_WRITE, NULL) != GM_OK) {
            return -EFAULT;
        }
        addr += n;
        len -= n;
    }
    return 0;
}

int lu_read_string(LinuxProcess *p, uint64_t addr, size_t max, char **out)
{
    char *buf = malloc(max);
    size_t have = 0;

    *out = NULL;
    if (!buf) {
        return -ENOMEM;
    }
    while (have < max) {
        size_t in_page = GUEST_PAGE_SIZE - ((addr + have) & ~GUEST_PAGE_MASK);
        size_t n = max - have < in_page ? max - have : in_page;
        if (guest_mem_read(p->mem, addr + have, buf + have, n, GM_PROT_READ, NULL) != GM_OK) {
            free(buf);
            return -EFAULT;
        }
        char *nul = memchr(buf + have, 0, n);
        if (nul) {
            *out = buf;
            return 0;
        }
        have += n;
    }
    free(buf);
    return -ENAMETOOLONG;
}

void lu_report_unimp(LinuxProcess *p, const char *fmt, ...)
{
    va_list ap;

    if (!p->opts.strace && !p->opts.log_unimp) {
        return;
    }
    fprintf(p->opts.log, "linx-user: unimplemented: ");
    va_start(ap, fmt);
    vfprintf(p->opts.log, fmt, ap);
    va_end(ap);
    fputc('\n', p->opts.log);
    fflush(p->opts.log);
}

/* A guest fd that is a valid int and not one of the emulator's own. */
int lu_guest_fd(LinuxProcess *p, uint64_t v)
{
    int fd = (int)(int32_t)v;

    if (fd < 0 || linux_fd_is_reserved(p, fd)) {
        return -1;
    }
    return fd;
}

/* A dirfd argument: AT_FDCWD or a usable descriptor. */
int lu_guest_dirfd(LinuxProcess *p, uint64_t v)
{
    int fd = (int)(int32_t)v;

    if (fd == LU_AT_FDCWD) {
        return AT_FDCWD;
    }
    return lu_guest_fd(p, v);
}

const int *lu_kick(LinuxProcess *p, CPULinxState *env)
{
    return &linux_thread_of(p, env)->kick;
}

const char *linux_syscall_name(unsigned nr)
{
    const LinuxSyscallDef *d = lu_syscall_def(nr);

    return d ? d->name : NULL;
}

/* An interrupted blocking call (-LU_ERESTARTSYS / -LU_ERESTARTNOHAND):
 * restart it at once (a stale kick: nothing to deliver), let the signal
 * in and restart it after the handler (SA_RESTART, or no handler runs),
 * or fail it with EINTR.  Returns the action; *@ret is updated. */
static bool restart_after(LinuxProcess *p, LinuxThread *t, int64_t ret, bool *now)
{
    const LinuxSigAction *act;
    bool handler;
    int sig;

    pthread_mutex_lock(&p->lock);
    linux_thread_update_kick(t);
    sig = linux_signal_next(p, t);
    *now = !sig && !linux_process_ending(p) && !t->exited;
    if (!sig) {
        pthread_mutex_unlock(&p->lock);
        return false;
    }
    act = &p->sig.action[sig];
    handler = act->handler != LINUX_SIG_DFL && act->handler != LINUX_SIG_IGN;
    pthread_mutex_unlock(&p->lock);
    if (!handler) {
        return true;
    }
    return ret == -LU_ERESTARTSYS && (act->flags & LINUX_SA_RESTART);
}

LinuxSyscallAction linux_syscall(LinuxProcess *p, CPULinxState *env)
{
    uint64_t nr = env->gpr[LINX_REG_A7];
    uint64_t a[6];
    const LinuxSyscallDef *d = nr < LINUX_SYSCALL_MAX ? lu_syscall_def((unsigned)nr) : NULL;
    LinuxThread *t = linux_thread_of(p, env);
    bool restart = false;
    int64_t ret;

    for (int i = 0; i < 6; i++) {
        a[i] = env->gpr[LINX_REG_A0 + i];
    }
    atomic_add_relaxed(&p->syscall_count, 1);

    if (!d || !d->fn) {
        ret = -ENOSYS;
        if (nr >= LINUX_SYSCALL_MAX) {
            lu_report_unimp(p, "system call %llu (out of range)", (unsigned long long)nr);
        } else {
            uint8_t bit = (uint8_t)(1u << (nr % 8));
            if (!(__atomic_fetch_or(&p->unimp_reported[nr / 8], bit, __ATOMIC_RELAXED) & bit)) {
                lu_report_unimp(p, "system call %llu (%s)", (unsigned long long)nr,
                                d && d->name ? d->name : "unknown");
            }
        }
        if (p->opts.strace) {
            lu_strace_print(p, nr, a, ret);
        }
    } else {
        if (p->opts.strace && d->ret == 'n') {
            /* Calls that do not return are printed first. */
            lu_strace_print(p, nr, a, 0);
        }
        for (;;) {
            bool now = false;
            ret = d->fn(p, env, a);
            if (ret != -LU_ERESTARTSYS && ret != -LU_ERESTARTNOHAND) {
                break;
            }
            restart = restart_after(p, t, ret, &now);
            if (!now) {
                if (!restart) {
                    ret = -EINTR;
                }
                break;
            }
        }
        if (p->opts.strace && d->ret != 'n' && !restart) {
            lu_strace_print(p, nr, a, ret);
        }
    }

    if (linux_process_ending(p) || t->exited) {
        return LINUX_SYSCALL_EXIT;
    }
    if (restart) {
        /* The signal first (pc stays at the acrc), then the call again. */
        return LINUX_SYSCALL_RESTART;
    }
    if (ret == LU_RET_NONE) {
        /* rt_sigreturn set pc and the registers (and delivered any signal
         * its restored mask let through); execve or fork may have made
         * the translated code go away. */
        return LINUX_SYSCALL_REDIRECT;
    }
    env->gpr[LINX_REG_A0] = (uint64_t)ret;
    if (linux_signal_next(p, t)) {
        return LINUX_SYSCALL_SIGNAL;
    }
    return LINUX_SYSCALL_CONTINUE;
}
