# Clocks through linx-user: CLOCK_MONOTONIC advances by at least a 2 ms
# nanosleep and a 1 ms clock_nanosleep, clock_getres, an unknown clock
# (EINVAL), gettimeofday (after 2020), getrandom.  Expanded by lutest.py;
# exits 0.
    .equ CLOCK_REALTIME, 0
    .equ CLOCK_MONOTONIC, 1
    .equ EINVAL, 22
    .equ NSEC, 1000000000

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc ts, ->s0
    addi s0, ts, ->s0
    hl.lis CLOCK_MONOTONIC, ->a0
    c.movr s0, ->a1
%SYSCALL clock_gettime
%CHECK a0, 0
    ldi [s0, 0], ->a0
    hl.lis NSEC, ->a1
    mul a0, a1, ->a0
    ldi [s0, 8], ->a2
    add a0, a2, ->s1                # s1 = start, ns

    addtpc two_ms, ->a0
    addi a0, two_ms, ->a0
    hl.lis 0, ->a1
%SYSCALL nanosleep
%CHECK a0, 0
    hl.lis CLOCK_MONOTONIC, ->a0
    hl.lis 0, ->a1
    addtpc one_ms, ->a2
    addi a2, one_ms, ->a2
    hl.lis 0, ->a3
%SYSCALL clock_nanosleep
%CHECK a0, 0

    hl.lis CLOCK_MONOTONIC, ->a0
    c.movr s0, ->a1
%SYSCALL clock_gettime
    ldi [s0, 0], ->a0
    hl.lis NSEC, ->a1
    mul a0, a1, ->a0
    ldi [s0, 8], ->a2
    add a0, a2, ->s2
    sub s2, s1, ->a0                # elapsed ns
    hl.lis 3000000, ->a1
    cmp.lt a0, a1, ->a0
%CHECK a0, 0

    hl.lis CLOCK_MONOTONIC, ->a0
    c.movr s0, ->a1
%SYSCALL clock_getres
%CHECK a0, 0
    ldi [s0, 8], ->a0
    cmp.lti a0, 1, ->a0
%CHECK a0, 0
    hl.lis 99, ->a0
    c.movr s0, ->a1
%SYSCALL clock_gettime
%CHECK a0, -EINVAL

    c.movr s0, ->a0
    hl.lis 0, ->a1
%SYSCALL gettimeofday
%CHECK a0, 0
    ldi [s0, 0], ->a0
    hl.lis 1600000000, ->a1
    cmp.lt a0, a1, ->a0
%CHECK a0, 0
    ldi [s0, 8], ->a0
    hl.lis 1000000, ->a1
    cmp.lt a0, a1, ->a0
%CHECK a0, 1

    addtpc rnd, ->a0
    addi a0, rnd, ->a0
    hl.lis 16, ->a1
    hl.lis 0, ->a2
%SYSCALL getrandom
%CHECK a0, 16
%EXIT 0

    .section .rodata
    .p2align 3
two_ms:
    .quad 0, 2000000
one_ms:
    .quad 0, 1000000

    .bss
    .p2align 3
ts:
    .zero 16
rnd:
    .zero 16
