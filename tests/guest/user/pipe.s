# Pipes and descriptors through linx-user: pipe2, write/read, ppoll (ready
# and not ready), dup, dup3 onto a chosen number, fcntl(F_GETFL), a
# terminal ioctl on a pipe (ENOTTY), EOF once every write end is closed,
# EBADF for a closed descriptor.  Expanded by lutest.py; exits 0.
    .equ POLLIN, 1
    .equ F_GETFL, 3
    .equ TCGETS, 0x5401
    .equ ENOTTY, 25
    .equ EBADF, 9

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc fds, ->s0
    addi s0, fds, ->s0
    addtpc buf, ->s1
    addi s1, buf, ->s1
    c.movr s0, ->a0
    hl.lis 0, ->a1
%SYSCALL pipe2
%CHECK a0, 0
    lwi [s0, 0], ->s2               # read end
    lwi [s0, 4], ->s3               # write end

    c.movr s3, ->a0
    addtpc ping, ->a1
    addi a1, ping, ->a1
    hl.lis 4, ->a2
%SYSCALL write
%CHECK a0, 4

# ppoll({read end, POLLIN}, 1, {0, 0}, NULL, 8): ready
    addtpc pfd, ->s4
    addi s4, pfd, ->s4
    swi s2, [s4, 0]
    hl.lis POLLIN, ->a0
    shi a0, [s4, 4]
    shi zero, [s4, 6]
    c.movr s4, ->a0
    hl.lis 1, ->a1
    addtpc zero_ts, ->a2
    addi a2, zero_ts, ->a2
    hl.lis 0, ->a3
    hl.lis 8, ->a4
%SYSCALL ppoll
%CHECK a0, 1
    lhui [s4, 6], ->a0
%CHECK a0, POLLIN

    c.movr s2, ->a0
    c.movr s1, ->a1
    hl.lis 16, ->a2
%SYSCALL read
%CHECK a0, 4
    lbui [s1, 0], ->a0
%CHECK a0, 'p'
    lbui [s1, 3], ->a0
%CHECK a0, 'g'

# nothing left: ppoll times out at once
    shi zero, [s4, 6]
    c.movr s4, ->a0
    hl.lis 1, ->a1
    addtpc zero_ts, ->a2
    addi a2, zero_ts, ->a2
    hl.lis 0, ->a3
    hl.lis 8, ->a4
%SYSCALL ppoll
%CHECK a0, 0

# dup, dup3 onto 50, and a write through the copy
    c.movr s3, ->a0
%SYSCALL dup
    c.movr a0, ->s5
    cmp.lt s3, s5, ->a0
%CHECK a0, 1
    c.movr s5, ->a0
    hl.lis 50, ->a1
    hl.lis 0, ->a2
%SYSCALL dup3
%CHECK a0, 50
    hl.lis 50, ->a0
    addtpc ping, ->a1
    addi a1, ping, ->a1
    hl.lis 1, ->a2
%SYSCALL write
%CHECK a0, 1
    c.movr s2, ->a0
    c.movr s1, ->a1
    hl.lis 16, ->a2
%SYSCALL read
%CHECK a0, 1

# access modes, and no terminal here
    c.movr s2, ->a0
    hl.lis F_GETFL, ->a1
%SYSCALL fcntl
    andi a0, 3, ->a0
%CHECK a0, 0
    c.movr s3, ->a0
    hl.lis F_GETFL, ->a1
%SYSCALL fcntl
    andi a0, 3, ->a0
%CHECK a0, 1
    c.movr s2, ->a0
    hl.lis TCGETS, ->a1
    c.movr s1, ->a2
%SYSCALL ioctl
%CHECK a0, -ENOTTY

# close every write end: the read end sees EOF
    c.movr s3, ->a0
%SYSCALL close
%CHECK a0, 0
    c.movr s5, ->a0
%SYSCALL close
%CHECK a0, 0
    hl.lis 50, ->a0
%SYSCALL close
%CHECK a0, 0
    c.movr s2, ->a0
    c.movr s1, ->a1
    hl.lis 16, ->a2
%SYSCALL read
%CHECK a0, 0
    c.movr s2, ->a0
%SYSCALL close
%CHECK a0, 0
    c.movr s2, ->a0
%SYSCALL close
%CHECK a0, -EBADF
%EXIT 0

    .section .rodata
ping:
    .ascii "ping"
    .p2align 3
zero_ts:
    .quad 0, 0

    .bss
    .p2align 3
fds:
    .zero 8
pfd:
    .zero 8
buf:
    .zero 16
