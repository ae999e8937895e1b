# virt trap delivery: an illegal tile parameter (TMA TLOAD with ValidCol
# LB0 = 40 > Col LB2 = 32, rule validcol-gt-col, docs/tile.md) reaches the
# ACR0 handler with TRAPNO = E_INST(EC_PARAM) and TRAPARG0 = the rule
# number (19) | value << 32, and
# BI = 0 (a header trap); the handler goes on at the next block.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu handler, ->a0
    ssrset a0, 0x0f01
    hl.lis 0, ->s5
    hl.liu after, ->s8
    addtpc buf, ->s0
    addi s0, buf, ->s0
hdr:
    BSTART.TMA TLOAD, FP32
    B.ARG NORM
    C.B.DIMI 40, ->lb0
    C.B.DIMI 32, ->lb2
    B.IOR [s0],[]
    B.IOTI [], last ->t<4KB>
after:
    C.BSTART.STD FALL
%CHECK s5, 1
%CHECK s0, 0x4000000200000004
%CHECK s1, 0x2800000013
%CHECK s2, 0
    hl.liu hdr, ->a0
%CHECKR s3, a0
%PASS

handler:
    C.BSTART.STD FALL
    ssrget 0x0f02, ->s0
    ssrget 0x0f03, ->s1
    ssrget 0x0f00, ->s2
    ssrget 0x0f41, ->s3
    addi s5, 1, ->s5
    ssrset s8, 0x0f41
    ssrset zero, 0x0f00
    acre 0

    .bss
    .p2align 6
buf:
    .zero 16384
    .text
