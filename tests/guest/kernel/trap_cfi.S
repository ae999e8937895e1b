# Architectural control flow into a kernel body (not a block start) raises
# E_BLOCK(EC_CFI) kind CFI_BAD_TARGET (cause 0x101) at the body.
    .text
    .globl _start
_start:
    C.BSTART DIRECT, .body
    C.BSTART.STD FALL
%PASS
    BSTART.MSEQ VS16
    B.TEXT .body
    C.B.DIMI 4, ->lb0
    C.BSTART.STD FALL
    C.BSTOP
.body:
    v.addi lc0.ud, 1, ->vt.d
    C.BSTOP
