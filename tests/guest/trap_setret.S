# A SETRET that does not follow a call header is a block-format error.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    c.setret .Lx, ->ra
.Lx:
    C.BSTART.STD FALL
%FAIL
