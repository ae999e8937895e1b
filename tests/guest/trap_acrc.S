# ACRC 1 without a system-call hook raises SCALL (6) from ACR2 (ACRE from
# ACR0 to ACR2 first: in ACR0 every ACRC is illegal); ACRC must be
# followed by BSTOP.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 2, ->a0
    ssrset a0, 0x0f00              # ECSTATE_ACR0: target ring 2
    hl.liu user, ->a0
    ssrset a0, 0x0f41              # EBARG_BPC_CUR_ACR0
    acre 0
user:
    C.BSTART.STD FALL
    hl.lis 93, ->a7
    acrc 1
    C.BSTOP
    C.BSTART.STD FALL
%FAIL
