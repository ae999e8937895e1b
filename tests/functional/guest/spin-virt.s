# spin-virt.s: a bare-metal program for the virt machine that never ends
# (a one-block loop), for the -timeout and SIGINT/SIGTERM tests
# (faults-survived.py).
    .text
    .globl _start
_start:
    C.BSTART.STD
    addi zero, 0, ->a0
spin:
    C.BSTART DIRECT, spin
    addi a0, 1, ->a0
    C.BSTOP
