# A kernel-body branch (B.EQ) in a scalar block raises ILLEGAL_INST (4).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    b.eq zero, zero, .Lt
.Lt:
    C.BSTART.STD FALL
%FAIL
