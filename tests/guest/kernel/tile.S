# Tile-local kernel accesses (docs/kernels.md "Memory"): a 32 x 32 INT32
# matrix is TLOADed into t#1, an MSEQ kernel with 1024 lanes reads TA
# (t#1) with v.lw.local, goes through the scratch tile TS (to1), and writes
# 2 * x + 7 to TO; TO is pushed as the new t#1 when the kernel ends and a
# TSTORE writes it back to memory.  src[i] = 3 * i + 1.
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
    hl.lis N * N, ->s4
fill:
    C.BSTART COND, fill
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

    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOTI [t#1], last ->t<4KB>
    B.DIM s4, 0, ->lb0

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
%CHECK a0, 9
%CHECK a1, 15
%CHECK a3, 6147
%PASS

.body:
    v.lw.local [ta, lc0<<2, zero.sd], ->vt.w
    v.add vt#1.sw, vt#1.sw, ->vt.w
    v.andi lc0.ud, 1023, ->vu.d
    v.sw.local vt#1.sw, [to1, vu#1.ud<<2]             # TS (to1) [l & 1023]
    v.lw.local [to1, lc0<<2, zero.sd], ->vm.w
    v.addi vm#1.sw, 7, ->vt.w
    v.swi vt#1.sw, [to, lc0<<2, 0]
    C.BSTOP

    .bss
    .p2align 6
src:
    .zero 4 * N * N
dst:
    .zero 4 * N * N
    .text                           # gtest.py's stubs follow
