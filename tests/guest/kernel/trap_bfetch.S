# A branch that leaves the kernel body raises E_BLOCK(EC_BFETCH) (cause
# 0x300) at the branch, TRAPARG0 = the target.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    BSTART.MPAR VS16
    B.TEXT .body
    C.B.DIMI 4, ->lb0
    C.BSTART.STD FALL
%PASS
.body:
    v.addi lc0.ud, 1, ->vt.d
    j .outside
    C.BSTOP
.outside:
    C.BSTART.STD FALL
    C.BSTOP
