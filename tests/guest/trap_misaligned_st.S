# A misaligned scalar store raises DATA_ALIGN_FAULT (34), decisions D6.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x80000001, ->a0
    shi a0, [a0, 0]
%FAIL
