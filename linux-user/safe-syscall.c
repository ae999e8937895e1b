/*
 * The kick signal for linx_safe_syscall() (safe-syscall.h): its handler
 * moves a thread caught between the kick test and the end of the syscall
 * instruction to the "interrupted" exit, so the kick is never lost.
 */
#include "safe-syscall.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

extern char linx_safe_syscall_start[], linx_safe_syscall_end[], linx_safe_syscall_interrupted[];

int linx_sig_kick(void)
{
    /* glibc keeps the first real-time signals for itself (SIGRTMIN is the
     * first it leaves free). */
    return SIGRTMIN + 2;
}

static void kick_handler(int sig, siginfo_t *si, void *uc_void)
{
    ucontext_t *uc = uc_void;
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];

    (void)sig;
    (void)si;
    if (pc >= (uintptr_t)linx_safe_syscall_start && pc < (uintptr_t)linx_safe_syscall_end) {
        uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)linx_safe_syscall_interrupted;
    }
}

void linx_safe_syscall_init(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = kick_handler;
    sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: a blocked call returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(linx_sig_kick(), &sa, NULL);
}

long linx_safe_syscall(const int *kick, long nr, long a1, long a2, long a3, long a4, long a5,
                       long a6)
{
    long r = linx_safe_syscall_base(kick, nr, a1, a2, a3, a4, a5, a6);

    /* Interrupted by a kick (the flag is set before the kick signal is
     * sent): the system-call layer decides.  Another host signal (the
     * stop watcher's, a test harness's timer) interrupts the call as the
     * host would: EINTR for the guest.  Restarting it here would loop as
     * long as such a timer runs (fuzz-syscall hung in ppoll). */
    if (r == -EINTR && __atomic_load_n(kick, __ATOMIC_ACQUIRE)) {
        return -LU_ERESTARTSYS;
    }
    return r;
}
