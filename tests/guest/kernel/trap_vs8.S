# VS8 allows vt and vu only: a body naming vm under a VS8 header raises
# E_INST(EC_ILLEGAL) at that instruction when the kernel starts.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    BSTART.MSEQ VS8
    B.TEXT .body
    C.B.DIMI 4, ->lb0
    C.BSTART.STD FALL
%PASS
.body:
    v.addi lc0.ud, 1, ->vt.d
    v.addi vt#1.ud, 1, ->vm.d
    C.BSTOP
