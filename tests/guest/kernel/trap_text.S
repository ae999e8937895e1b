# A kernel header without B.TEXT raises E_BLOCK(EC_BLOCKFMT) (cause 0x200),
# TRAPARG0 = family B.TEXT (2) | missing (0 << 8), at the header.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    BSTART.MSEQ VS16
    C.B.DIMI 4, ->lb0
    C.BSTART.STD FALL
%PASS
