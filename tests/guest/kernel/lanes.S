# Lane order and loop bounds: LB0 = 3, LB1 = 2, LB2 = 2; every lane takes
# a ticket with an atomic fetch-and-add (v.lw.add) and stores
# lc2 * 100 + lc1 * 10 + lc0 at order[ticket], so order[] shows the
# sequence the lanes ran in: lc0 fastest, then lc1, then lc2 (MSEQ,
# kernel_execution.json).  A second kernel writes only LB0 (LB1 and LB2
# count as 1), a third has LB0 = 0 (no lane runs).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc order, ->s0
    addi s0, order, ->s0
    addtpc ticket, ->s1
    addi s1, ticket, ->s1
    hl.lis 1, ->s2
    hl.lis 100, ->s3
    hl.lis 10, ->s4
    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.IOR [s3, s4],[]
    C.B.DIMI 3, ->lb0
    C.B.DIMI 2, ->lb1
    C.B.DIMI 2, ->lb2
    BSTART.MPAR VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.IOR [s3, s4],[]
    C.B.DIMI 2, ->lb0
    BSTART.MPAR VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.IOR [s3, s4],[]
    B.DIM zero, 0, ->lb0
    C.BSTART.STD FALL
    lwi [s1, 0], ->a0           # tickets taken: 12 + 2
    lwi [s0, 4], ->a1           # order[1] = lane (1, 0, 0)
    lwi [s0, 12], ->a2          # order[3] = lane (0, 1, 0)
    lwi [s0, 24], ->a3          # order[6] = lane (0, 0, 1)
    lwi [s0, 44], ->a4          # order[11] = lane (2, 1, 1)
    lwi [s0, 52], ->a5          # order[13]: second kernel, lane 1
%CHECK a0, 14
%CHECK a1, 1
%CHECK a2, 10
%CHECK a3, 100
%CHECK a4, 112
%CHECK a5, 1
%PASS

.body:
    v.lw.add [ri1], ri2.sw, ->vt.w          # ticket (old value)
    v.mul lc2.ud, ri3.ud, ->vu.d
    v.mul lc1.ud, ri4.ud, ->vu.d
    v.add vu#1.ud, vu#2.ud, ->vu.d
    v.add vu#1.ud, lc0.ud, ->vu.d
    v.sw.brg vu#1.sw, [ri0, vt#1.uw]        # order[ticket] (index scaled by 4)
    C.BSTOP

    .data
    .p2align 4
ticket: .word 0, 0
order: .fill 16, 4, -1
    .text                           # gtest.py's stubs follow
