# The 32-bit EBREAK raises SW_BREAKPOINT (50).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    ebreak 5
%FAIL
