# A body reading a scalar import the header does not bind (ri3 with one
# B.IOR register) raises E_INST(EC_ILLEGAL) at that instruction.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOR [sp],[]
    C.B.DIMI 4, ->lb0
    C.BSTART.STD FALL
%PASS
.body:
    v.add ri0.ud, ri3.ud, ->vt.d
    C.BSTOP
