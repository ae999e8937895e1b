/*
 * Blocking host system calls made on a guest thread's behalf that a kick
 * interrupts (the scheme QEMU's safe_syscall uses; docs/linux-user.md
 * "Threads").
 *
 * A guest thread blocked in the host (read on a pipe, a futex wait,
 * wait4, nanosleep) must come back when another thread sends it a signal
 * or the process ends.  The sender sets the thread's kick flag and then
 * sends the host thread LINX_SIG_KICK; the blocking call is made by
 * linx_safe_syscall(), which returns -LU_ERESTARTSYS instead of blocking
 * when the flag is set, and when the signal arrives at any moment of the
 * call (linx_safe_syscall_base in safe-syscall.S and the handler in
 * safe-syscall.c make the window between the test and the call safe).
 * The system-call layer then delivers the signal and restarts the call or
 * returns EINTR (SA_RESTART), or ends the thread.
 */
#ifndef LINX_LINUX_USER_SAFE_SYSCALL_H
#define LINX_LINUX_USER_SAFE_SYSCALL_H

/* "Interrupted: restart with SA_RESTART (or when no handler runs), else
 * EINTR" (the kernel's ERESTARTSYS). */
#define LU_ERESTARTSYS 512
/* "Interrupted: restart only when no handler runs, else EINTR" (the
 * kernel's ERESTARTNOHAND: ppoll, nanosleep). */
#define LU_ERESTARTNOHAND 514

/* Install the kick signal's handler (once per process, before threads). */
void linx_safe_syscall_init(void);
/* The host signal that kicks a thread out of a blocking call. */
int linx_sig_kick(void);

long linx_safe_syscall_base(const int *kick, long nr, long a1, long a2, long a3, long a4, long a5,
                            long a6);

/* A blocking host call: the result (-errno on failure), or -LU_ERESTARTSYS
 * when *@kick was set before or during it (-EINTR when another host signal
 * interrupted it). */
long linx_safe_syscall(const int *kick, long nr, long a1, long a2, long a3, long a4, long a5,
                       long a6);

#endif /* LINX_LINUX_USER_SAFE_SYSCALL_H */
