# read-user.s: a Linux program that reads standard input one byte at a
# time forever (read(0, buf, 1) in a loop, whatever it returns): blocked in
# the host's read() while nothing comes, for the tests that stop it from
# outside (faults-survived.py).
    .equ SYS_READ, 63
    .text
    .globl _start
_start:
again:
    C.BSTART DIRECT, again
    addi zero, 0, ->a0
    addtpc buf, ->a1
    addi a1, buf, ->a1
    addi zero, 1, ->a2
    addi zero, SYS_READ, ->a7
    acrc 1
    C.BSTOP

    .bss
buf:
    .zero 16
