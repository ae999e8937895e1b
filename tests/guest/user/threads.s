# Guest threads under linx-user (issue 18): the main thread starts N = 8
# threads, the even ones with the clone flags musl's pthread_create uses
# (0x7d0f00 = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
# CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID |
# CLONE_CHILD_CLEARTID | CLONE_DETACHED; musl src/thread/pthread_create.c),
# the odd ones with glibc's set plus CLONE_CHILD_SETTID (0x13d0f00: no
# DETACHED); LinxISA order: flags, stack, ptid, tls, ctid (musl
# src/thread/linx64/clone.s; docs/decisions.md D11),
# each on its own stack, and joins them the way pthread_join does (futex
# wait on the CHILD_CLEARTID word until the kernel clears it; a shared
# wait, as glibc's: the kernel's wake at thread exit is a shared one).
#
# Each thread, K = 1000 times: ld.add counter64 += 1, lw.add counter32 +=
# 3, an LR/SC loop adding 1 to llsc32, a CAS loop (hl.casd) adding 2 to
# cas64; then a futex barrier (count + generation; the last thread in
# resets the count, bumps the generation and wakes everyone), after which
# it checks that counter64 holds N*K (every increment of every thread is
# visible) and counts itself in okcount; then the barrier again; then
# exit (not exit_group).  It also records what it sees: gettid(), its TP
# (CLONE_SETTLS), getpid().
#
# The oracle is arithmetic on N and K: counter64 = N*K, counter32 = 3*N*K,
# llsc32 = N*K, cas64 = 2*N*K, okcount = N, the barrier generation = 2,
# and per thread: the tid clone returned = PARENT_SETTID's word = the
# thread's own gettid(), TP = 0x10000 + i, getpid() = the main thread's.
# Expanded by lutest.py; prints "threads ok" and exits 0.
    .equ N, 8
    .equ K, 1000
    .equ STACK, 65536
    .equ PROT_RW, 3
    .equ MAP_PRIVATE_ANON, 0x22
    .equ CLONE_MUSL, 0x7d0f00
    .equ CLONE_ODD_EXTRA, 0xc00000      # 0x13d0f00 - 0x7d0f00
    .equ FUTEX_WAIT, 0
    .equ FUTEX_WAIT_PRIVATE, 128
    .equ FUTEX_WAKE_PRIVATE, 129
    .equ TLS_BASE, 0x10000

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
# stacks = mmap(NULL, N * STACK, RW, PRIVATE|ANON, -1, 0)
    hl.lis 0, ->a0
    hl.liu N * STACK, ->a1
    hl.lis PROT_RW, ->a2
    hl.lis MAP_PRIVATE_ANON, ->a3
    hl.lis -1, ->a4
    hl.lis 0, ->a5
%SYSCALL mmap
    c.movr a0, ->x0
%SYSCALL getpid
    addtpc mainpid, ->a1
    addi a1, mainpid, ->a1
    sdi a0, [a1, 0]
    hl.lis 0, ->s1                  # i
.Lspawn:
    C.BSTART.STD FALL
# newsp = stacks + (i + 1) * STACK - 16, with i stored at [newsp]
    addi s1, 1, ->a0
    hl.liu STACK, ->a1
    mul a0, a1, ->a0
    add a0, x0, ->a0
    subi a0, 16, ->s2
    sdi s1, [s2, 0]
# ctid[i] = 1 (cleared by the kernel when the thread exits)
    addtpc ctids, ->s3
    addi s3, ctids, ->s3
    slli s1, 2, ->a0
    add s3, a0, ->s3
    hl.lis 1, ->a0
    swi a0, [s3, 0]
    addtpc ptids, ->s4
    addi s4, ptids, ->s4
    slli s1, 2, ->a0
    add s4, a0, ->s4
# clone(flags, newsp, &ptids[i], TLS_BASE + i, &ctids[i])
    andi s1, 1, ->a5
    hl.liu CLONE_ODD_EXTRA, ->a6
    mul a5, a6, ->a5
    hl.liu CLONE_MUSL, ->a0
    add a0, a5, ->a0
    c.movr s2, ->a1
    c.movr s4, ->a2
    hl.liu TLS_BASE, ->a3
    add a3, s1, ->a3
    c.movr s3, ->a4
%SYSCALL 220
    BSTART COND, .Lchild
    setc.eq a0, zero
    C.BSTART.STD FALL
# parent: a tid > 0, recorded
    hl.lis 0, ->x1
    BSTART COND, .Lclone_failed
    setc.ge x1, a0
    C.BSTART.STD FALL
    addtpc rtids, ->a1
    addi a1, rtids, ->a1
    slli s1, 2, ->a2
    add a1, a2, ->a1
    swi a0, [a1, 0]
    addi s1, 1, ->s1
    BSTART COND, .Lspawn
    setc.ltui s1, N
    C.BSTART.STD FALL

# join: for each thread, wait until ctid[i] == 0
    hl.lis 0, ->s1
.Ljoin:
    C.BSTART.STD FALL
    addtpc ctids, ->s3
    addi s3, ctids, ->s3
    slli s1, 2, ->a0
    add s3, a0, ->s3
.Ljoin_wait:
    C.BSTART.STD FALL
    lwi [s3, 0], ->a2
    BSTART COND, .Ljoin_next
    setc.eq a2, zero
    C.BSTART.STD FALL
    c.movr s3, ->a0
    hl.lis FUTEX_WAIT, ->a1
    hl.lis 0, ->a3
%SYSCALL futex
    BSTART DIRECT, .Ljoin_wait
    C.BSTOP
.Ljoin_next:
    C.BSTART.STD FALL
    addi s1, 1, ->s1
    BSTART COND, .Ljoin
    setc.ltui s1, N
    C.BSTART.STD FALL

# the totals
    addtpc counter64, ->s3
    addi s3, counter64, ->s3
    ldi [s3, 0], ->a0
%CHECK a0, N * K
    lwi [s3, 8], ->a0
%CHECK a0, 3 * N * K
    lwi [s3, 12], ->a0
%CHECK a0, N * K
    ldi [s3, 16], ->a0
%CHECK a0, 2 * N * K
    lwi [s3, 24], ->a0
%CHECK a0, N
    lwi [s3, 32], ->a0              # barrier generation
%CHECK a0, 2
    lwi [s3, 36], ->a0              # barrier count, reset by the last one in
%CHECK a0, 0
# per thread: returned tid == PARENT_SETTID word == its gettid(), TP, pid
    hl.lis 0, ->s1
.Lcheck:
    C.BSTART.STD FALL
    slli s1, 2, ->s2
    addtpc rtids, ->a1
    addi a1, rtids, ->a1
    add a1, s2, ->a1
    lwi [a1, 0], ->s4
    addtpc ptids, ->a1
    addi a1, ptids, ->a1
    add a1, s2, ->a1
    lwi [a1, 0], ->s5
%CHECKR s4, s5
    addtpc gtids, ->a1
    addi a1, gtids, ->a1
    add a1, s2, ->a1
    lwi [a1, 0], ->s5
%CHECKR s4, s5
    slli s1, 3, ->s2
    addtpc tps, ->a1
    addi a1, tps, ->a1
    add a1, s2, ->a1
    ldi [a1, 0], ->s5
    hl.liu TLS_BASE, ->s6
    add s6, s1, ->s6
%CHECKR s5, s6
    addtpc pids, ->a1
    addi a1, pids, ->a1
    add a1, s2, ->a1
    ldi [a1, 0], ->s5
    addtpc mainpid, ->a1
    addi a1, mainpid, ->a1
    ldi [a1, 0], ->s6
%CHECKR s5, s6
    addi s1, 1, ->s1
    BSTART COND, .Lcheck
    setc.ltui s1, N
    C.BSTART.STD FALL
# distinct tids: rtids[i] != rtids[j] for i < j, and none is the pid
    hl.lis 0, ->s1
.Ldist_i:
    C.BSTART.STD FALL
    addtpc rtids, ->a1
    addi a1, rtids, ->a1
    slli s1, 2, ->a2
    add a1, a2, ->a2
    lwi [a2, 0], ->s4
    addtpc mainpid, ->a3
    addi a3, mainpid, ->a3
    ldi [a3, 0], ->s5
    BSTART COND, .Ldup
    setc.eq s4, s5
    C.BSTART.STD FALL
    addi s1, 1, ->s2
.Ldist_j:
    C.BSTART.STD FALL
    BSTART COND, .Ldist_next
    setc.geui s2, N
    C.BSTART.STD FALL
    slli s2, 2, ->a2
    add a1, a2, ->a2
    lwi [a2, 0], ->s5
    BSTART COND, .Ldup
    setc.eq s4, s5
    C.BSTART.STD FALL
    addi s2, 1, ->s2
    BSTART DIRECT, .Ldist_j
    C.BSTOP
.Ldist_next:
    C.BSTART.STD FALL
    addi s1, 1, ->s1
    BSTART COND, .Ldist_i
    setc.ltui s1, N
    C.BSTART.STD FALL
    hl.lis 1, ->a0
    addtpc okmsg, ->a1
    addi a1, okmsg, ->a1
    hl.lis 11, ->a2
%SYSCALL write
%EXIT 0

.Lclone_failed:
    C.BSTART.STD FALL
%FAIL
.Ldup:
    C.BSTART.STD FALL
%FAIL

# ---- the threads ----
.Lchild:
    C.BSTART.STD FALL
    ldi [sp, 0], ->s0               # my index
    slli s0, 3, ->s2
    ssrget 0, ->a0                  # TP
    addtpc tps, ->a1
    addi a1, tps, ->a1
    add a1, s2, ->a1
    sdi a0, [a1, 0]
%SYSCALL getpid
    addtpc pids, ->a1
    addi a1, pids, ->a1
    add a1, s2, ->a1
    sdi a0, [a1, 0]
%SYSCALL gettid
    addtpc gtids, ->a1
    addi a1, gtids, ->a1
    slli s0, 2, ->a2
    add a1, a2, ->a1
    swi a0, [a1, 0]
    addtpc counter64, ->s3
    addi s3, counter64, ->s3
    addi s3, 12, ->s4               # llsc32
    addi s3, 16, ->s5               # cas64
    hl.lis 1, ->s6
    hl.lis 3, ->s7
    hl.lis 0, ->s1
.Lwork:
    C.BSTART.STD FALL
    ld.add [s3], s6, ->a0
    addi s3, 8, ->a1
    lw.add [a1], s7, ->a0
.Lllsc:
    C.BSTART.STD FALL
    lr.w [s4], ->a0
    addi a0, 1, ->a0
    sc.w a0, [s4], ->a1
    BSTART COND, .Lllsc
    setc.ne a1, zero
    C.BSTART.STD FALL
.Lcas:
    C.BSTART.STD FALL
    ldi [s5, 0], ->a0
    addi a0, 2, ->a1
    hl.casd [s5], a0, a1, ->a2
    BSTART COND, .Lcas
    setc.ne a2, a0
    C.BSTART.STD FALL
    addi s1, 1, ->s1
    hl.liu K, ->a0
    BSTART COND, .Lwork
    setc.ltu s1, a0
    C.BSTART.STD FALL

# barrier 1
    addi s3, 32, ->s8               # generation
    addi s3, 36, ->x0               # count
    lwi [s8, 0], ->s2
    lw.add [x0], s6, ->a0
    addi a0, 1, ->a0
    BSTART COND, .Llast1
    setc.eqi a0, N
    C.BSTART.STD FALL
.Lwait1:
    C.BSTART.STD FALL
    lwi [s8, 0], ->a2
    BSTART COND, .Lpassed1
    setc.ne a2, s2
    C.BSTART.STD FALL
    c.movr s8, ->a0
    hl.lis FUTEX_WAIT_PRIVATE, ->a1
    c.movr s2, ->a2
    hl.lis 0, ->a3
%SYSCALL futex
    BSTART DIRECT, .Lwait1
    C.BSTOP
.Llast1:
    C.BSTART.STD FALL
    swi zero, [x0, 0]
    lw.add [s8], s6, ->a0
    c.movr s8, ->a0
    hl.lis FUTEX_WAKE_PRIVATE, ->a1
    hl.liu 0x7fffffff, ->a2
%SYSCALL futex
.Lpassed1:
    C.BSTART.STD FALL
# every thread's increments are visible now
    ldi [s3, 0], ->a0
    hl.liu N * K, ->a1
    BSTART COND, .Lbad1
    setc.ne a0, a1
    C.BSTART.STD FALL
    addi s3, 24, ->a1
    lw.add [a1], s6, ->a0
.Lbad1:
    C.BSTART.STD FALL
# barrier 2 (the count must have been reset)
    lwi [s8, 0], ->s2
    lw.add [x0], s6, ->a0
    addi a0, 1, ->a0
    BSTART COND, .Llast2
    setc.eqi a0, N
    C.BSTART.STD FALL
.Lwait2:
    C.BSTART.STD FALL
    lwi [s8, 0], ->a2
    BSTART COND, .Lpassed2
    setc.ne a2, s2
    C.BSTART.STD FALL
    c.movr s8, ->a0
    hl.lis FUTEX_WAIT_PRIVATE, ->a1
    c.movr s2, ->a2
    hl.lis 0, ->a3
%SYSCALL futex
    BSTART DIRECT, .Lwait2
    C.BSTOP
.Llast2:
    C.BSTART.STD FALL
    swi zero, [x0, 0]
    lw.add [s8], s6, ->a0
    c.movr s8, ->a0
    hl.lis FUTEX_WAKE_PRIVATE, ->a1
    hl.liu 0x7fffffff, ->a2
%SYSCALL futex
.Lpassed2:
    C.BSTART.STD FALL
    hl.lis 0, ->a0
%SYSCALL exit
%FAIL

    .section .rodata
okmsg:
    .ascii "threads ok\n"

    .bss
    .p2align 3
counter64:
    .zero 8                         # +0 ld.add
    .zero 4                         # +8 lw.add
    .zero 4                         # +12 LR/SC
    .zero 8                         # +16 CAS
    .zero 8                         # +24 okcount
    .zero 4                         # +32 barrier generation
    .zero 4                         # +36 barrier count
mainpid:
    .zero 8
ctids:
    .zero 4 * N
ptids:
    .zero 4 * N
rtids:
    .zero 4 * N
gtids:
    .zero 4 * N
    .p2align 3
tps:
    .zero 8 * N
pids:
    .zero 8 * N
