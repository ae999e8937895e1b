# spin.s: a loop that never ends, for the debuggers' Ctrl-C tests
# (tests/functional/test-debuggers.py); runs under linx-user and the virt
# machine alike.
    .text
    .globl _start
_start:
    C.BSTART.STD
    hl.lis 0, ->s0
spin:
    C.BSTART DIRECT, spin
spin_body:
    addi s0, 1, ->s0
