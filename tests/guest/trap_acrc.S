# ACRC 1 without a system-call hook raises SCALL (6); ACRC must be
# followed by BSTOP.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 93, ->a7
    acrc 1
    C.BSTOP
    C.BSTART.STD FALL
%FAIL
