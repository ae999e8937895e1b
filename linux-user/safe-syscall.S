/*
 * linx_safe_syscall_base: a host system call that a kick can always
 * interrupt (linux-user/safe-syscall.h).  x86-64 Linux only.
 *
 *   long linx_safe_syscall_base(const int *kick, long nr,
 *                               long a1, long a2, long a3, long a4, long a5, long a6)
 *
 * Returns the raw kernel result (-errno on failure), or -EINTR without
 * making the call when *kick is nonzero.  The kick signal's handler moves
 * a thread interrupted between linx_safe_syscall_start (the test of *kick)
 * and linx_safe_syscall_end (just after the syscall instruction) to
 * linx_safe_syscall_interrupted: then either the test saw the kick, or the
 * call never started, or the kernel interrupted it (EINTR: the handler is
 * installed without SA_RESTART) - a kick is never lost between the test
 * and the call.
 */
    .text
    .globl linx_safe_syscall_base
    .globl linx_safe_syscall_start
    .globl linx_safe_syscall_end
    .globl linx_safe_syscall_interrupted
    .type linx_safe_syscall_base, @function
linx_safe_syscall_base:
    .cfi_startproc
    push %rbp
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbp, 0
    mov %rdi, %rbp          /* kick flag (callee-saved) */
    mov %rsi, %rax          /* number */
    mov %rdx, %rdi          /* a1 */
    mov %rcx, %rsi          /* a2 */
    mov %r8, %rdx           /* a3 */
    mov %r9, %r10           /* a4 */
    mov 16(%rsp), %r8       /* a5 */
    mov 24(%rsp), %r9       /* a6 */
linx_safe_syscall_start:
    cmpl $0, (%rbp)
    jne linx_safe_syscall_interrupted
    syscall
linx_safe_syscall_end:
    pop %rbp
    .cfi_remember_state
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbp
    ret
    .cfi_restore_state
linx_safe_syscall_interrupted:
    mov $-4, %rax           /* -EINTR */
    pop %rbp
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbp
    ret
    .cfi_endproc
    .size linx_safe_syscall_base, .-linx_safe_syscall_base

    .section .note.GNU-stack, "", @progbits
