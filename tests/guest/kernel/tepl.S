# TEPL element-wise tile ops through the translator (docs/kernels.md
# "TEPL"): two 32 x 32 INT32 tiles are TLOADed (a = 3i + 1, b = i), then
# TADD, TMULS by the B.IOR scalar 3, TROWSUM and TEXPANDS, with TSTOREs to
# check the results: c = 12i + 3, row sums 12288 r + 6048 in column 0
# (zero elsewhere), and a tile filled with -5.
    .equ N, 32
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc src, ->s0
    addi s0, src, ->s0
    addtpc dst, ->s1
    addi s1, dst, ->s1
    hl.lis 0, ->s2
    c.movr s0, ->s3
    hl.lis 4 * N * N, ->s4
    add s0, s4, ->s4            # src2 follows src
    hl.lis 3, ->s5
    hl.lis -5, ->s6
    c.movr s4, ->s7
fill:
    C.BSTART COND, fill
    slli s2, 1, ->a0
    add a0, s2, ->a0
    addi a0, 1, ->a0
    swi a0, [s3, 0]
    swi s2, [s7, 0]
    addi s3, 4, ->s3
    addi s7, 4, ->s7
    addi s2, 1, ->s2
    setc.nei s2, N * N

    BSTART.TMA TLOAD, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s0],[]
    B.IOTI [], last ->t<4KB>
    BSTART.TMA TLOAD, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s4],[]
    B.IOTI [], last ->t<4KB>

    BSTART.TEPL TADD, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    B.IOTI [t#2, t#1], last ->t<4KB>
    BSTART.TEPL TMULS, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    B.IOR [s5],[]
    B.IOTI [t#1], last ->t<4KB>

    BSTART.TMA TSTORE, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s1],[]
    B.IOTI [t#1], last ->t<4KB>

    BSTART.TEPL TROWSUM, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    B.IOTI [t#1], last ->u<4KB>
    BSTART.TMA TSTORE, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s4],[]
    B.IOTI [u#1], last ->t<4KB>

    C.BSTART.STD FALL
    lwi [s1, 0], ->a0           # c[0] = 3
    lwi [s1, 4], ->a1           # c[1] = 15
    hl.lis 4 * (N * N - 1), ->a2
    add s1, a2, ->a2
    lwi [a2, 0], ->a3           # c[1023] = 12279
    lwi [s4, 0], ->a4           # row 0 sum
    lwi [s4, 128], ->a5         # row 1 sum
    lwi [s4, 4], ->a6           # row 0, column 1: 0
%CHECK a0, 3
%CHECK a1, 15
%CHECK a3, 12279
%CHECK a4, 6048
%CHECK a5, 18336
%CHECK a6, 0

    BSTART.TEPL TEXPANDS, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI 2, ->lb1
    B.IOR [s6],[]
    B.IOTI [], last ->m<4KB>
    BSTART.TMA TSTORE, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI 3, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s1],[]
    B.IOTI [m#1], last ->t<4KB>
    C.BSTART.STD FALL
    lwi [s1, 0], ->a0           # filled
    lwi [s1, 252], ->a1         # row 1, last column: filled
    lwi [s1, 256], ->a2         # row 2: outside the valid rows, 0
%CHECK a0, -5
%CHECK a1, -5
%CHECK a2, 0
%PASS

    .bss
    .p2align 6
src:
    .zero 2 * 4 * N * N
dst:
    .zero 4 * N * N
    .text                           # gtest.py's stubs follow
