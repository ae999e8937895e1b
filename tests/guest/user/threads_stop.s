# -timeout with guest threads (issue 18): the main thread starts two
# threads (musl's pthread_create clone flags, docs/decisions.md D11), one
# spinning in a loop of chained blocks, one blocked in a private futex
# wait, and then blocks in a futex wait itself; nobody ever wakes anyone.
# Run with -timeout 1: the run must end with the timeout report and exit
# status 124 (tcg/exec-stop.h), every thread stopped - not hang, and not
# exit as if the guest had exited.  Expanded by lutest.py.
    .equ STACK, 65536
    .equ PROT_RW, 3
    .equ MAP_PRIVATE_ANON, 0x22
    .equ CLONE_MUSL, 0x7d0f00
    .equ FUTEX_WAIT, 0
    .equ FUTEX_WAIT_PRIVATE, 128

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 0, ->a0
    hl.liu 2 * STACK, ->a1
    hl.lis PROT_RW, ->a2
    hl.lis MAP_PRIVATE_ANON, ->a3
    hl.lis -1, ->a4
    hl.lis 0, ->a5
%SYSCALL mmap
    c.movr a0, ->s0
# thread 1: spins
    hl.liu CLONE_MUSL, ->a0
    hl.liu STACK - 16, ->a1
    add a1, s0, ->a1
    addtpc ptid, ->a2
    addi a2, ptid, ->a2
    hl.lis 0, ->a3
    addtpc ctid1, ->a4
    addi a4, ctid1, ->a4
%SYSCALL clone
    BSTART COND, .Lspin
    setc.eq a0, zero
    C.BSTART.STD FALL
    hl.lis 0, ->x1
    BSTART COND, .Lbad
    setc.ge x1, a0
    C.BSTART.STD FALL
# thread 2: blocks in a private futex wait
    hl.liu CLONE_MUSL, ->a0
    hl.liu 2 * STACK - 16, ->a1
    add a1, s0, ->a1
    addtpc ptid, ->a2
    addi a2, ptid, ->a2
    hl.lis 0, ->a3
    addtpc ctid2, ->a4
    addi a4, ctid2, ->a4
%SYSCALL clone
    BSTART COND, .Lblock
    setc.eq a0, zero
    C.BSTART.STD FALL
    hl.lis 0, ->x1
    BSTART COND, .Lbad
    setc.ge x1, a0
    C.BSTART.STD FALL
# main: a shared futex wait on a word that stays 0
.Lmain_wait:
    C.BSTART.STD FALL
    addtpc word, ->a0
    addi a0, word, ->a0
    hl.lis FUTEX_WAIT, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
%SYSCALL futex
    BSTART DIRECT, .Lmain_wait
    C.BSTOP

.Lspin:
    C.BSTART.STD FALL
    addi s1, 1, ->s1
    BSTART DIRECT, .Lspin
    C.BSTOP

.Lblock:
    C.BSTART.STD FALL
    addtpc word, ->a0
    addi a0, word, ->a0
    hl.lis FUTEX_WAIT_PRIVATE, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
%SYSCALL futex
    BSTART DIRECT, .Lblock
    C.BSTOP

.Lbad:
    C.BSTART.STD FALL
%FAIL

    .data
    .p2align 3
word:
    .quad 0
ptid:
    .quad 0
ctid1:
    .quad 0
ctid2:
    .quad 0
