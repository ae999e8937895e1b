# virt machine: a tile round trip through the tile engine the machine
# hooks up.  A 32 x 32 INT32 matrix is filled in RAM, TLOADed into t#1
# (4 KB, ND layout) and TSTOREd to a second buffer; the copy must equal
# the source.  Checks are gtest.py's (%CHECK prints on the UART and exits
# with the check number).
    .equ N, 32

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc src, ->s0
    addi s0, src, ->s0
    addtpc dst, ->s1
    addi s1, dst, ->s1
    hl.lis 0, ->s2                  # i
    c.movr s0, ->s3
fill:
    C.BSTART COND, fill             # src[i] = 3 * i + 1
    slli s2, 1, ->a0
    add a0, s2, ->a0
    addi a0, 1, ->a0
    swi a0, [s3, 0]
    addi s3, 4, ->s3
    addi s2, 1, ->s2
    setc.nei s2, N * N

    BSTART.TMA TLOAD, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s0],[]
    B.IOTI [], last ->t<4KB>

    BSTART.TMA TSTORE, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s1],[]
    B.IOTI [t#1], last ->t<4KB>

    C.BSTART.STD FALL
    lwi [s1, 0], ->a0
    lwi [s1, 4], ->a1
    hl.lis 4 * (N * N - 1), ->a2
    add s1, a2, ->a2
    lwi [a2, 0], ->a3
    hl.lis 4 * 517, ->a2
    add s1, a2, ->a2
    lwi [a2, 0], ->a4
%CHECK a0, 1
%CHECK a1, 4
%CHECK a3, 3070
%CHECK a4, 1552
%PASS

    .bss
    .p2align 6
src:
    .zero 4 * N * N
dst:
    .zero 4 * N * N
    .text                           # gtest.py's stubs follow
