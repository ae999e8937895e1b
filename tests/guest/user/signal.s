# Guest signals under linx-user:
#  1. SIGUSR1 from kill(getpid()): the handler runs with a0 = 10 and
#     siginfo.si_signo = 10, returns through its restorer (rt_sigreturn),
#     and the interrupted code goes on with its registers intact.
#  2. SIGSEGV from a load at address 0 in the middle of a block: the
#     handler reads si_addr, moves the saved pc past the 4-byte load, and
#     execution resumes mid-block after it (the block state comes back from
#     the frame).
#  3. A blocked SIGUSR1 stays pending until rt_sigprocmask unblocks it.
# Expanded by lutest.py; exits 0.
    .equ SIGUSR1, 10
    .equ SIGSEGV, 11
    .equ SA_SIGINFO, 4
    .equ SA_RESTORER, 0x04000000
    .equ SIG_BLOCK, 0
    .equ SIG_UNBLOCK, 1
    .equ UC_PC, 168 + 24 * 8        # ucontext: uc_mcontext.regs[24]
    .equ SI_ADDR, 16

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc act, ->s0
    addi s0, act, ->s0
    addtpc flags, ->s1
    addi s1, flags, ->s1
# sigaction(SIGUSR1, {on_usr1, SA_SIGINFO|SA_RESTORER, restorer, 0})
    addtpc on_usr1, ->a0
    addi a0, on_usr1, ->a0
    sdi a0, [s0, 0]
    hl.liu SA_SIGINFO | SA_RESTORER, ->a0
    sdi a0, [s0, 8]
    addtpc restorer, ->a0
    addi a0, restorer, ->a0
    sdi a0, [s0, 16]
    sdi zero, [s0, 24]
    hl.lis SIGUSR1, ->a0
    c.movr s0, ->a1
    hl.lis 0, ->a2
    hl.lis 8, ->a3
%SYSCALL rt_sigaction
%CHECK a0, 0
# sigaction(SIGSEGV, {on_segv, ...})
    addtpc on_segv, ->a0
    addi a0, on_segv, ->a0
    sdi a0, [s0, 0]
    hl.lis SIGSEGV, ->a0
    c.movr s0, ->a1
    hl.lis 0, ->a2
    hl.lis 8, ->a3
%SYSCALL rt_sigaction
%CHECK a0, 0

# 1. kill(getpid(), SIGUSR1)
    hl.lis 0x5555, ->s5             # must survive the handler
%SYSCALL getpid
    c.movr a0, ->s6
    hl.lis SIGUSR1, ->a1
%SYSCALL kill
%CHECK a0, 0
    ldi [s1, 0], ->a0               # what the handler saw
%CHECK a0, SIGUSR1
    ldi [s1, 8], ->a0
%CHECK a0, SIGUSR1
%CHECK s5, 0x5555

# 2. a fault in the middle of a block, skipped by the handler
    hl.lis 0x77, ->s7
    hl.lis 0, ->a1
    ldi [a1, 0], ->s7
    addi s7, 1, ->s7
%CHECK s7, 0x78
    ldi [s1, 16], ->a0
%CHECK a0, SIGSEGV
    ldi [s1, 24], ->a0
%CHECK a0, 0

# 3. blocked, then unblocked
    sdi zero, [s1, 0]
    addtpc set, ->s2
    addi s2, set, ->s2
    hl.lis 1 << (SIGUSR1 - 1), ->a0
    sdi a0, [s2, 0]
    hl.lis SIG_BLOCK, ->a0
    c.movr s2, ->a1
    hl.lis 0, ->a2
    hl.lis 8, ->a3
%SYSCALL rt_sigprocmask
    c.movr s6, ->a0
    hl.lis SIGUSR1, ->a1
%SYSCALL kill
    ldi [s1, 0], ->a0
%CHECK a0, 0
    hl.lis SIG_UNBLOCK, ->a0
    c.movr s2, ->a1
    hl.lis 0, ->a2
    hl.lis 8, ->a3
%SYSCALL rt_sigprocmask
    ldi [s1, 0], ->a0
%CHECK a0, SIGUSR1
%EXIT 0

# The handlers: functions (block starts), returning through ra.
on_usr1:
    C.BSTART.STD FALL
    addtpc flags, ->a3
    addi a3, flags, ->a3
    sdi a0, [a3, 0]
    lwi [a1, 0], ->a4               # siginfo.si_signo
    sdi a4, [a3, 8]
    hl.lis -1, ->s5                 # clobbered here, restored by sigreturn
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

on_segv:
    C.BSTART.STD FALL
    addtpc flags, ->a3
    addi a3, flags, ->a3
    sdi a0, [a3, 16]
    ldi [a1, SI_ADDR], ->a4
    sdi a4, [a3, 24]
    ldi [a2, UC_PC], ->a4           # skip the faulting ldi
    addi a4, 4, ->a4
    sdi a4, [a2, UC_PC]
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

restorer:                           # musl's __restore_rt
    C.BSTART.STD FALL
    hl.lis 139, ->a7
    acrc 1
    C.BSTOP

    .bss
    .p2align 3
act:
    .zero 32
flags:
    .zero 32
set:
    .zero 8
