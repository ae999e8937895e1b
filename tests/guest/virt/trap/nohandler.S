# virt: a trap from ACR2 goes to ACR1; with EVBASE_ACR1 = 0 the machine
# stops with the report (status 1) although ACR0 has a handler.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu h0, ->a0
    ssrset a0, 0x0f01
    hl.lis 2, ->a0
    ssrset a0, 0x0f00
    hl.liu user, ->a0
    ssrset a0, 0x0f41
    acre 0
user:
    C.BSTART.STD FALL
    b.eq zero, zero, h0
h0:
    C.BSTART.STD FALL
%FAIL
