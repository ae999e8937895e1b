# spin-user.s: a Linux program that never ends (a one-block loop counting
# in a0), for the -timeout and SIGINT/SIGTERM tests (faults-survived.py).
    .text
    .globl _start
_start:
    C.BSTART.STD
    addi zero, 0, ->a0
spin:
    C.BSTART DIRECT, spin
    addi a0, 1, ->a0
    C.BSTOP
