# calls.s: the program the stock-debugger tests drive
# (tests/functional/test-debuggers.py), assembled with linx-as -g together
# with user-exit.s (linx-user) or virt-exit.s (linx-system).
#
# _start calls main, main calls middle, middle calls leaf: a 3-deep chain.
# main and middle have FENTRY frames (their CFI comes from linx-as -g);
# leaf has none (CFA = sp, return address in ra).  With n = 5:
#   middle: a0 = n + 10 = 15, leaf: a0 = 2 * 15 = 30,
#   main: counter = 30 + n = 35, exit(35).
# The labels name the instructions the tests expect pcs at.

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 5, ->a0                  # n
    BSTART CALL, main, ra=start_ret
start_ret:
    BSTART CALL, exit_program, ra=.Lhang
.Lhang:
    C.BSTART DIRECT, .Lhang

    .globl main
main:
    FENTRY [ra ~ s1], sp!, 32
main_body:
    C.BSTART.STD FALL
    addi a0, 0, ->s0                # s0 = n
    hl.lis 0x51, ->s1
    BSTART CALL, middle, ra=main_ret
main_ret:
    C.BSTART.STD FALL
    add a0, s0, ->a0                # a0 = leaf's result + n
    addtpc counter, ->a1
    addi a1, counter, ->a1
main_store:
    sdi a0, [a1, 0]                 # counter = a0
main_after_store:
    FRET.STK [ra ~ s1], sp!, 32

middle:
    FENTRY [ra ~ s0], sp!, 16
middle_body:
    C.BSTART.STD FALL
    addi a0, 10, ->a0
    hl.lis 0x77, ->s0               # clobbered here, restored by FRET.STK
    BSTART CALL, leaf, ra=middle_ret
middle_ret:
    FRET.STK [ra ~ s0], sp!, 16

leaf:
    C.BSTART.STD RET
leaf_add:
    add a0, a0, ->a0
leaf_ret:
    c.setc.tgt ra
leaf_stop:
    C.BSTOP

    .data
counter:
    .quad 0
table:
    .word 1, 2, 3, 4

    .section .rodata
msg:
    .asciz "linx debug"
