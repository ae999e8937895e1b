# TEPL on a source tile that was never written raises E_INST(EC_PARAM)
# (rule tepl-tile-empty, TRAPARG0 = 0x75 | tile id << 32) at the header.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    BSTART.TEPL TADD, INT32
    C.B.DIMI 32, ->lb0
    C.B.DIMI 32, ->lb1
    B.IOTI [u#2, u#1], last ->t<4KB>
    C.BSTART.STD FALL
%PASS
