# A tile-local access outside the bound tile (here TA, which the header
# does not bind: size 0) raises E_INST(EC_PARAM), TRAPARG0 = the offset.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    BSTART.MSEQ VS16
    B.TEXT .body
    C.B.DIMI 4, ->lb0
    C.BSTART.STD FALL
%PASS
.body:
    v.lwi.local [ta, lc0<<2, 8], ->vt.w
    C.BSTOP
