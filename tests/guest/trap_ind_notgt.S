# An IND block without SETC.TGT is a block-format error (TRAPNUM 5,
# cause 0x200: EC_BLOCKFMT), call/ret contract section 4.
    .text
    .globl _start
_start:
    BSTART.STD IND
    C.BSTOP
    C.BSTART.STD FALL
%FAIL
