# virt trap delivery: misaligned and unmapped loads and stores reach the
# ACR0 handler with TRAPARG0 = the faulting address; then a fault that the
# handler repairs (the base register) and retries with ACRE RRAT_RESTORE
# at EBARG_TPC (BI = 1): the T/U queue values pushed before the fault are
# there again when the block resumes.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu handler, ->a0
    ssrset a0, 0x0f01
    hl.lis 0, ->s5
    addtpc buf, ->s7
    addi s7, buf, ->s7
    hl.liu after1, ->s8
    C.BSTART.STD FALL
    addi s7, 2, ->a3
    lwi [a3, 0], ->a4
after1:
    C.BSTART.STD FALL
%CHECK s5, 1
%CHECK s0, 0x4000000000000022
    addi s7, 2, ->a2
%CHECKR s1, a2
    hl.liu after2, ->s8
    C.BSTART.STD FALL
    addi s7, 4, ->a3
    sdi a3, [a3, 0]
after2:
    C.BSTART.STD FALL
%CHECK s5, 2
%CHECK s0, 0x4000000000000022
    addi s7, 4, ->a2
%CHECKR s1, a2
    hl.liu after3, ->s8
    C.BSTART.STD FALL
    hl.liu 0x20000010, ->a3
    swi a3, [a3, 0]
after3:
    C.BSTART.STD FALL
%CHECK s5, 3
# CAUSE: DFSC 1 | WnR (bit 8) for a store
%CHECK s0, 0x4000000101000023
%CHECK s1, 0x20000010
# Repair and retry: the second handler points a3 at buf and resumes.
    hl.liu retry_handler, ->a0
    ssrset a0, 0x0f01
    C.BSTART.STD FALL
    hl.liu 0x20000000, ->a3
    hl.lis 0x1234, ->t
    hl.lis 0x55, ->u
    hl.lis 0x7000, ->t
    ldi [a3, 0], ->a4
    add t#2, u#1, ->s6
    add t#1, a4, ->s4
    C.BSTART.STD FALL
%CHECK s5, 4
%CHECK s6, 0x1289
%CHECK a4, 0x1122334455667788
%CHECK s4, 0x112233445566e788
%PASS

handler:
    C.BSTART.STD FALL
    ssrget 0x0f02, ->s0
    ssrget 0x0f03, ->s1
    addi s5, 1, ->s5
    ssrset s8, 0x0f41
    ssrset zero, 0x0f00
    acre 0

retry_handler:
    C.BSTART.STD FALL
    c.movr s7, ->a3
    addi s5, 1, ->s5
    acre 1

    .data
    .p2align 3
buf:
    .quad 0x1122334455667788
    .quad 0
