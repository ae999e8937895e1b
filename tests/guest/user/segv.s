# A load from address 0 with no handler: SIGSEGV kills the process, the
# report names the fault address, linx-user exits with 128 + 11.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 0, ->a1
    ldi [a1, 0], ->a0
%FAIL
