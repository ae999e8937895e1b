# virt machine: the test finisher at 0x10009000.  0x3333 (fail) is
# written first to the wrong offset (ignored), then 0x3333 (fail): status 1.
    .equ FINISHER, 0x10009000
    .equ FINISH, 0x3333

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    lui FINISHER >> 12, ->a0
    hl.lis 0x3333, ->a1
    swi a1, [a0, 8]                 # not the finisher register: ignored
    hl.lis FINISH, ->a1
    swi a1, [a0, 0]
    C.BSTOP
spin:
    C.BSTART DIRECT, spin
    C.BSTOP
