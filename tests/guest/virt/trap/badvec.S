# virt: EVBASE_ACR0 names an instruction that is no block start; entering
# the handler raises E_BLOCK(EC_CFI) in ACR0 before the handler returned:
# the machine stops with the report instead of looping.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu notmarker, ->a0
    ssrset a0, 0x0f01
    C.BSTART.STD FALL
    b.eq zero, zero, h
h:
    C.BSTART.STD FALL
    hl.lis 1, ->a0
notmarker:
    hl.lis 2, ->a0
%FAIL
