# virt: the ACR0 handler runs two blocks and then traps itself before its
# ACRE: the second trap stops the machine with the report (no loop).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu h, ->a0
    ssrset a0, 0x0f01
    hl.liu 0x20000000, ->a1
    ldi [a1, 0], ->a2
    C.BSTART.STD FALL
%FAIL
h:
    C.BSTART.STD FALL
    hl.lis 5, ->a3
    C.BSTART.STD FALL
    ldi [a1, 8], ->a2
    acre 0
