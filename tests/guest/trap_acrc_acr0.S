# ACRC in ACR0 is illegal (v0.4: no request type is valid there; the
# peer's 11_system.c ACR0_BAD_REQ): E_INST(EC_ILLEGAL).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    acrc 0
    C.BSTOP
    C.BSTART.STD FALL
%FAIL
