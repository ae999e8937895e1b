# virt trap delivery: EBREAK and C.EBREAK reach the ACR0 handler with
# CAUSE = the immediate, TRAPARG0 = the EBREAK, EBARG_TPC = the next
# instruction and BI = 1; ACRE RRAT_RESTORE resumes there with the
# block's T/U queues, so the block goes on as if nothing happened.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu handler, ->a0
    ssrset a0, 0x0f01
    hl.lis 0, ->s5
blk:
    C.BSTART.STD FALL
    hl.lis 40, ->t
    hl.lis 2, ->u
eb1:
    c.ebreak 3
eb1_next:
    add t#1, u#1, ->s7
    c.movr s0, ->a1
    c.movr s1, ->a2
    c.movr s4, ->a3
    c.movr s2, ->a5
eb2:
    ebreak 9
eb2_next:
    addi s7, 1, ->s7
    C.BSTART.STD FALL
%CHECK s5, 2
%CHECK s7, 43
%CHECK a1, 0x4000000003000032
    hl.liu eb1, ->a0
%CHECKR a2, a0
    hl.liu eb1_next, ->a0
%CHECKR a3, a0
%CHECK a5, 0x4000000000000000
%CHECK s0, 0x4000000009000032
    hl.liu eb2, ->a0
%CHECKR s1, a0
    hl.liu eb2_next, ->a0
%CHECKR s4, a0
    hl.liu blk, ->a0
%CHECKR s3, a0
%PASS

handler:
    C.BSTART.STD FALL
    ssrget 0x0f02, ->s0
    ssrget 0x0f03, ->s1
    ssrget 0x0f00, ->s2
    ssrget 0x0f41, ->s3
    ssrget 0x0f43, ->s4
    addi s5, 1, ->s5
    acre 1
