# virt: EVBASE_ACR0 is not RAM; the handler's fetch faults in ACR0 before
# it returned: the machine stops with the report instead of looping.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x20000000, ->a0
    ssrset a0, 0x0f01
    c.ebreak 1
    C.BSTART.STD FALL
%FAIL
