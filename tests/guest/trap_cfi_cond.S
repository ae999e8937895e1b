# A taken COND branch into the middle of a block raises E_BLOCK(EC_CFI).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 5, ->a0
    C.BSTART COND, .Linside
    setc.eqi a0, 5
    C.BSTART.STD FALL
    hl.lis 1, ->a1
.Linside:
    hl.lis 2, ->a1
%FAIL
