# A load from an address nothing is mapped at raises DATA_PAGE_FAULT (35).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x40000000, ->a0
    ldi [a0, 0], ->a1
%FAIL
