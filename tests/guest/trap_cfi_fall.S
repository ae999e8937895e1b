# BSTOP followed by an instruction that is not a block start:
# E_BLOCK(EC_CFI), kind CFI_MISSING_NEXT_MARKER (cause 0x103).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 1, ->a0
    C.BSTOP
    hl.lis 2, ->a0
%FAIL
