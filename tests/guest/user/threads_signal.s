# Thread-directed signals under linx-user (issue 18): the main thread
# installs a SIGUSR1 handler (SA_SIGINFO, no SA_RESTART), starts a thread
# (musl's pthread_create clone flags, docs/decisions.md D11) that says it
# is ready and then blocks in a private futex wait on a word that stays 0,
# waits for it to be ready, sleeps 20 ms and sends tgkill(pid, tid,
# SIGUSR1).  The handler must run once, on that thread (its gettid() is the
# tid clone returned), with a0 = 10; it sets the word to 1, so the wait
# ends either with EINTR (interrupted, not restarted without SA_RESTART)
# or, had the signal come before the wait started, EAGAIN.  Then the
# thread exits and the main thread joins it on CHILD_CLEARTID.  tgkill of
# a tid that is not one of ours fails with ESRCH.  Expanded by lutest.py.
    .equ SIGUSR1, 10
    .equ SA_SIGINFO, 4
    .equ SA_RESTORER, 0x04000000
    .equ STACK, 65536
    .equ PROT_RW, 3
    .equ MAP_PRIVATE_ANON, 0x22
    .equ CLONE_MUSL, 0x7d0f00
    .equ FUTEX_WAIT, 0
    .equ FUTEX_WAIT_PRIVATE, 128
    .equ EINTR, 4
    .equ EAGAIN, 11
    .equ ESRCH, 3

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc vars, ->s0
    addi s0, vars, ->s0
# sigaction(SIGUSR1, {on_usr1, SA_SIGINFO|SA_RESTORER, restorer, 0})
    addtpc act, ->s1
    addi s1, act, ->s1
    addtpc on_usr1, ->a0
    addi a0, on_usr1, ->a0
    sdi a0, [s1, 0]
    hl.liu SA_SIGINFO | SA_RESTORER, ->a0
    sdi a0, [s1, 8]
    addtpc restorer, ->a0
    addi a0, restorer, ->a0
    sdi a0, [s1, 16]
    sdi zero, [s1, 24]
    hl.lis SIGUSR1, ->a0
    c.movr s1, ->a1
    hl.lis 0, ->a2
    hl.lis 8, ->a3
%SYSCALL rt_sigaction
%CHECK a0, 0
%SYSCALL getpid
    c.movr a0, ->s6
# the thread's stack
    hl.lis 0, ->a0
    hl.liu STACK, ->a1
    hl.lis PROT_RW, ->a2
    hl.lis MAP_PRIVATE_ANON, ->a3
    hl.lis -1, ->a4
    hl.lis 0, ->a5
%SYSCALL mmap
    hl.liu STACK - 16, ->a1
    add a1, a0, ->a1
# ctid = 1 until the thread is gone
    hl.lis 1, ->a0
    swi a0, [s0, 40]
    hl.liu CLONE_MUSL, ->a0
    addi s0, 48, ->a2               # ptid
    hl.lis 0, ->a3
    addi s0, 40, ->a4               # ctid
%SYSCALL clone
    BSTART COND, .Lchild
    setc.eq a0, zero
    C.BSTART.STD FALL
    c.movr a0, ->s7                 # its tid
    hl.lis 0, ->x1
    BSTART COND, .Lbad
    setc.ge x1, s7
    C.BSTART.STD FALL
# wait until it is ready, then give it time to block
.Lready:
    C.BSTART.STD FALL
%SYSCALL sched_yield
    lwi [s0, 8], ->a0
    BSTART COND, .Lready
    setc.eq a0, zero
    C.BSTART.STD FALL
    addtpc ts20ms, ->a0
    addi a0, ts20ms, ->a0
    hl.lis 0, ->a1
%SYSCALL nanosleep
# tgkill(pid, tid, SIGUSR1)
    c.movr s6, ->a0
    c.movr s7, ->a1
    hl.lis SIGUSR1, ->a2
%SYSCALL tgkill
%CHECK a0, 0
# join
.Ljoin:
    C.BSTART.STD FALL
    lwi [s0, 40], ->a2
    BSTART COND, .Ljoined
    setc.eq a2, zero
    C.BSTART.STD FALL
    addi s0, 40, ->a0
    hl.lis FUTEX_WAIT, ->a1
    hl.lis 0, ->a3
%SYSCALL futex
    BSTART DIRECT, .Ljoin
    C.BSTOP
.Ljoined:
    C.BSTART.STD FALL
    ldi [s0, 16], ->a0              # handler runs
%CHECK a0, 1
    ldi [s0, 24], ->a0              # the handler's thread
%CHECKR a0, s7
    ldi [s0, 32], ->a0              # the handler's a0
%CHECK a0, SIGUSR1
    lwi [s0, 0], ->a0               # the word the handler set
%CHECK a0, 1
    ldi [s0, 56], ->s2              # the thread's futex result
    hl.lis -EINTR, ->a0
    BSTART COND, .Lres_ok
    setc.eq s2, a0
    C.BSTART.STD FALL
%CHECK s2, -EAGAIN
.Lres_ok:
    C.BSTART.STD FALL
# tgkill to a thread that is not ours: ESRCH (the thread is gone now)
    c.movr s6, ->a0
    c.movr s7, ->a1
    hl.lis SIGUSR1, ->a2
%SYSCALL tgkill
%CHECK a0, -ESRCH
    hl.lis 1, ->a0
    addtpc okmsg, ->a1
    addi a1, okmsg, ->a1
    hl.lis 18, ->a2
%SYSCALL write
%EXIT 0

.Lbad:
    C.BSTART.STD FALL
%FAIL

# ---- the thread ----
.Lchild:
    C.BSTART.STD FALL
    addtpc vars, ->s0
    addi s0, vars, ->s0
    hl.lis 1, ->a0
    swi a0, [s0, 8]                 # ready
    c.movr s0, ->a0
    hl.lis FUTEX_WAIT_PRIVATE, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
%SYSCALL futex
    sdi a0, [s0, 56]
    hl.lis 0, ->a0
%SYSCALL exit
%FAIL

on_usr1:
    C.BSTART.STD FALL
    c.movr a0, ->s3
%SYSCALL gettid
    addtpc vars, ->a3
    addi a3, vars, ->a3
    sdi a0, [a3, 24]
    sdi s3, [a3, 32]
    ldi [a3, 16], ->a4
    addi a4, 1, ->a4
    sdi a4, [a3, 16]
    hl.lis 1, ->a4
    swi a4, [a3, 0]
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

restorer:                           # musl's __restore_rt
    C.BSTART.STD FALL
    hl.lis 139, ->a7
    acrc 1
    C.BSTOP

    .section .rodata
okmsg:
    .ascii "threads_signal ok\n"
    .p2align 3
ts20ms:
    .quad 0, 20000000

    .data
    .p2align 3
vars:
    .quad 0                         # +0 futex word (the handler sets 1)
    .quad 0                         # +8 ready
    .quad 0                         # +16 handler runs
    .quad 0                         # +24 handler's gettid()
    .quad 0                         # +32 handler's a0
    .quad 0                         # +40 ctid
    .quad 0                         # +48 ptid
    .quad 0                         # +56 the thread's futex result
act:
    .zero 32
