# A store beyond the end of RAM raises DATA_PAGE_FAULT (35).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x80040000, ->a0
    sdi a0, [a0, 0]
%FAIL
