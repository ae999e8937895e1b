# A bridged access to unmapped guest memory faults precisely at the
# instruction (DATA_PAGE_FAULT, TRAPNUM 35).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 0x30000000, ->s0
    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOR [s0],[]
    C.B.DIMI 4, ->lb0
    C.BSTART.STD FALL
%PASS
.body:
    v.addi lc0.ud, 1, ->vt.d
    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w
    C.BSTOP
