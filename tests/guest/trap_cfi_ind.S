# An IND block whose SETC.TGT target is not a block start.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu .Linside, ->a0
    BSTART.STD IND
    setc.tgt a0
    C.BSTOP
    C.BSTART.STD FALL
    hl.lis 1, ->a1
.Linside:
    hl.lis 2, ->a1
%FAIL
