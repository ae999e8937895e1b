# A producer and a consumer over a futex queue (issue 18): the main thread
# puts 1, 2, ..., M into a ring of QN slots, the consumer thread (clone
# with musl's pthread flags) takes them out.  Each side sleeps in a private
# futex wait on the other side's index when the ring is full (producer on
# `tail`) or empty (consumer on `head`) and wakes the other after each
# item.  The consumer checks that item k is k (FIFO order, nothing lost or
# repeated) and sums them; the main thread joins it on CHILD_CLEARTID.
# The oracle is arithmetic: bad = 0, sum = M (M + 1) / 2, head = tail = M.
# Expanded by lutest.py; prints "prodcons ok" and exits 0.
    .equ M, 5000
    .equ QN, 8
    .equ STACK, 65536
    .equ PROT_RW, 3
    .equ MAP_PRIVATE_ANON, 0x22
    .equ CLONE_MUSL, 0x7d0f00
    .equ FUTEX_WAIT, 0
    .equ FUTEX_WAIT_PRIVATE, 128
    .equ FUTEX_WAKE_PRIVATE, 129

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 0, ->a0
    hl.liu STACK, ->a1
    hl.lis PROT_RW, ->a2
    hl.lis MAP_PRIVATE_ANON, ->a3
    hl.lis -1, ->a4
    hl.lis 0, ->a5
%SYSCALL mmap
    hl.liu STACK - 16, ->a1
    add a0, a1, ->s2                # the consumer's stack
    addtpc ctid, ->s4
    addi s4, ctid, ->s4
    hl.lis 1, ->a0
    swi a0, [s4, 0]
# clone(flags, newsp, &ptid, tls, &ctid)
    hl.liu CLONE_MUSL, ->a0
    c.movr s2, ->a1
    addtpc ptid, ->a2
    addi a2, ptid, ->a2
    hl.liu 0x10000, ->a3
    c.movr s4, ->a4
%SYSCALL 220
    BSTART COND, .Lconsumer
    setc.eq a0, zero
    C.BSTART.STD FALL
    hl.lis 0, ->x1
    BSTART COND, .Lclone_failed
    setc.ge x1, a0
    C.BSTART.STD FALL

# ---- the producer ----
    addtpc q, ->s3                  # head +0, tail +4, bad +8, sum +16
    addi s3, q, ->s3
    addtpc ring, ->s5
    addi s5, ring, ->s5
    hl.lis 1, ->s6
    hl.lis 1, ->s1                  # the next value
.Lput:
    C.BSTART.STD FALL
    lwi [s3, 0], ->s7               # head (only the producer writes it)
.Lfull:
    C.BSTART.STD FALL
    lwi [s3, 4], ->a2               # tail
    sub s7, a2, ->a3
    BSTART COND, .Lroom
    setc.ltui a3, QN
    C.BSTART.STD FALL
    addi s3, 4, ->a0                # futex_wait(&tail, tail)
    hl.lis FUTEX_WAIT_PRIVATE, ->a1
    hl.lis 0, ->a3
%SYSCALL futex
    BSTART DIRECT, .Lfull
    C.BSTOP
.Lroom:
    C.BSTART.STD FALL
    andi s7, QN - 1, ->a0
    slli a0, 3, ->a0
    add s5, a0, ->a0
    sdi s1, [a0, 0]                 # the slot, then head += 1
    lw.add [s3], s6, ->a0
    c.movr s3, ->a0                 # futex_wake(&head, 1)
    hl.lis FUTEX_WAKE_PRIVATE, ->a1
    hl.lis 1, ->a2
%SYSCALL futex
    addi s1, 1, ->s1
    hl.liu M + 1, ->a0
    BSTART COND, .Lput
    setc.ltu s1, a0
    C.BSTART.STD FALL

# join: wait until the kernel clears ctid
.Ljoin:
    C.BSTART.STD FALL
    lwi [s4, 0], ->a2
    BSTART COND, .Ljoined
    setc.eq a2, zero
    C.BSTART.STD FALL
    c.movr s4, ->a0
    hl.lis FUTEX_WAIT, ->a1
    hl.lis 0, ->a3
%SYSCALL futex
    BSTART DIRECT, .Ljoin
    C.BSTOP
.Ljoined:
    C.BSTART.STD FALL
    lwi [s3, 8], ->a0
%CHECK a0, 0
    ldi [s3, 16], ->a0
%CHECK a0, M * (M + 1) / 2
    lwi [s3, 0], ->a0
%CHECK a0, M
    lwi [s3, 4], ->a0
%CHECK a0, M
    hl.lis 1, ->a0
    addtpc okmsg, ->a1
    addi a1, okmsg, ->a1
    hl.lis 12, ->a2
%SYSCALL write
%EXIT 0

.Lclone_failed:
    C.BSTART.STD FALL
%FAIL

# ---- the consumer ----
.Lconsumer:
    C.BSTART.STD FALL
    addtpc q, ->s3
    addi s3, q, ->s3
    addtpc ring, ->s5
    addi s5, ring, ->s5
    hl.lis 1, ->s6
    hl.lis 1, ->s1                  # the value expected next
    hl.lis 0, ->s8                  # the sum
.Lget:
    C.BSTART.STD FALL
    lwi [s3, 4], ->s7               # tail (only the consumer writes it)
.Lempty:
    C.BSTART.STD FALL
    lwi [s3, 0], ->a2               # head
    BSTART COND, .Lhave
    setc.ne a2, s7
    C.BSTART.STD FALL
    c.movr s3, ->a0                 # futex_wait(&head, head)
    hl.lis FUTEX_WAIT_PRIVATE, ->a1
    hl.lis 0, ->a3
%SYSCALL futex
    BSTART DIRECT, .Lempty
    C.BSTOP
.Lhave:
    C.BSTART.STD FALL
    andi s7, QN - 1, ->a0
    slli a0, 3, ->a0
    add s5, a0, ->a0
    ldi [a0, 0], ->a1
    add s8, a1, ->s8
    BSTART COND, .Lin_order
    setc.eq a1, s1
    C.BSTART.STD FALL
    addi s3, 8, ->a0
    lw.add [a0], s6, ->a0           # bad += 1
.Lin_order:
    C.BSTART.STD FALL
    addi s3, 4, ->a0
    lw.add [a0], s6, ->a2           # tail += 1, then futex_wake(&tail, 1)
    hl.lis FUTEX_WAKE_PRIVATE, ->a1
    hl.lis 1, ->a2
%SYSCALL futex
    addi s1, 1, ->s1
    hl.liu M + 1, ->a0
    BSTART COND, .Lget
    setc.ltu s1, a0
    C.BSTART.STD FALL
    addi s3, 16, ->a0
    sdi s8, [a0, 0]
    hl.lis 0, ->a0
%SYSCALL exit
%FAIL

    .section .rodata
okmsg:
    .ascii "prodcons ok\n"

    .bss
    .p2align 6
q:
    .zero 64
ring:
    .zero 8 * QN
ctid:
    .zero 4
ptid:
    .zero 4
