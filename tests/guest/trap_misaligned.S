# A misaligned scalar load raises DATA_ALIGN_FAULT (34), decisions D6.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x80000002, ->a0
    lwi [a0, 0], ->a1
%FAIL
