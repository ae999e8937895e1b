# C.EBREAK raises SW_BREAKPOINT (50).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 1, ->a0
    c.ebreak 3
%FAIL
