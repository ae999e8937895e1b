# virt machine: a load beyond RAM (128 MiB) traps; with no handler the
# machine stops with a report and status 1 instead of spinning.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x20000000, ->a1
    ldi [a1, 0], ->a0
    C.BSTOP
spin:
    C.BSTART DIRECT, spin
    C.BSTOP
