# virt trap delivery: a DIRECT branch into the middle of a block raises
# E_BLOCK(EC_CFI) kind 1 at the target; the ACR0 handler sees TRAPARG0 =
# the branching block, ECSTATE.BI = 0, EBARG_BPC_CUR = the branching
# block and EBARG_TPC = EBARG_BPC_TGT = the bad target.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu handler, ->a0
    ssrset a0, 0x0f01
    hl.lis 0, ->s5
    hl.liu after, ->s8
src:
    C.BSTART DIRECT, inside
    C.BSTOP
    C.BSTART.STD FALL
    hl.lis 1, ->a0
inside:
    hl.lis 2, ->a0
after:
    C.BSTART.STD FALL
%CHECK s5, 1
%CHECK s0, 0x4000000101000005
    hl.liu src, ->a0
%CHECKR s1, a0
%CHECK s2, 0
%CHECKR s3, a0
    hl.liu inside, ->a0
%CHECKR s4, a0
%CHECKR s6, a0
%PASS

handler:
    C.BSTART.STD FALL
    ssrget 0x0f02, ->s0
    ssrget 0x0f03, ->s1
    ssrget 0x0f00, ->s2
    ssrget 0x0f41, ->s3
    ssrget 0x0f43, ->s4
    ssrget 0x0f42, ->s6
    addi s5, 1, ->s5
    ssrset s8, 0x0f41
    ssrset zero, 0x0f00
    acre 0
