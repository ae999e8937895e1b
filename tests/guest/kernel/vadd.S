# MSEQ vector add: c[i] = a[i] + b[i] for 16 int32 elements, the body
# reading ri0/ri1 (a, b) and writing through ri2 (c) with bridged accesses
# (lc0 << 2 lane terms).  One lane per element; LB0 from a register.
    .equ N, 16
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc va, ->s0
    addi s0, va, ->s0
    addtpc vb, ->s1
    addi s1, vb, ->s1
    addtpc vc, ->s2
    addi s2, vc, ->s2
    hl.lis N, ->a0
    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.DIM a0, 0, ->lb0
    C.BSTART.STD FALL
    lwi [s2, 0], ->a1
    lwi [s2, 60], ->a2
    lwi [s2, 20], ->a3
%CHECK a1, 1000
%CHECK a2, 1225
%CHECK a3, 1010
%PASS

.body:
    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w
    v.lwi.brg [ri1, lc0<<2, 0], ->vt.w
    v.add vt#1.sw, vt#2.sw, ->vt.w
    v.swi.brg vt#1.sw, [ri2, lc0<<2, 0]
    C.BSTOP

    .data
    .p2align 4
va: .word 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
vb: .word 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012
    .word 1013, 1014, 1210
vc: .zero 4 * N
    .text                           # gtest.py's stubs follow
