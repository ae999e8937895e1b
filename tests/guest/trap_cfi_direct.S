# A DIRECT block whose target is not a block start: E_BLOCK(EC_CFI),
# kind CFI_BAD_TARGET (TRAPNUM 5, cause 0x101).
    .text
    .globl _start
_start:
    C.BSTART DIRECT, .Linside
    C.BSTOP
    C.BSTART.STD FALL
    hl.lis 1, ->a0
.Linside:
    hl.lis 2, ->a0
%FAIL
