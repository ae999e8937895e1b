# TMOV (v0.4 BSTART.TMOV / BSTART.TMA TMOV): tile to tile.
#   V2V (no B.ARG): u#1 = a copy of t#1; stored NORM it gives the source.
#   ND2NZ conversion (B.ARG ND2NZ, a TLOAD whose "GM" is the dense source
#   tile): m#1 = t#1 as an NZ tile; TSTORE.NZ2ND of it gives the source.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc src, ->s0
    addi s0, src, ->s0
    addtpc dst, ->s1
    addi s1, dst, ->s1
    hl.lis 0xee, ->s2
    hl.lis 8192, ->s3
    BSTART.STD CALL, tile_fill
    c.setret 1f, ->ra
    c.movr s0, ->a0
    hl.lis 4096, ->a1
    addi zero, 23, ->a2
1:
    TLOAD.NORM <LB0:32, LB1:32, LB2:32, FP32>, [s0], ->T<4KB>
    BSTART.TMOV FP32
    B.IOTI [t#1], last ->u<4KB>
    BSTART.TMA TMOV, FP32
    B.ARG ND2NZ
    C.B.DIMI 32, ->lb0
    C.B.DIMI 32, ->lb1
    C.B.DIMI 32, ->lb2
    B.IOTI [t#1], last ->m<4KB>

    MSET [s1, s2, s3]
    TSTORE.NORM <LB0:32, LB1:32, LB2:32, FP32>, U#1, [s1]
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    hl.lis 4096, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
    addi zero, 0, ->a5
1:
%CHECK a0, 0
    MSET [s1, s2, s3]
    TSTORE.NZ2ND <LB0:32, LB1:32, LB2:32, FP32>, M#1, [s1]
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    hl.lis 4096, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
    addi zero, 0, ->a5
1:
%CHECK a0, 0
%PASS

    .include "lib.inc"

    .bss
    .p2align 6
src:
    .zero 8192
dst:
    .zero 8192
    .text                           # gtest.py's stubs follow
