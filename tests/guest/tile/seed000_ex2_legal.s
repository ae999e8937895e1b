# Seed 000's second assembly example, with ValidCol in a register so that
# it fits (as written, LB0:100, no FP32 NZ tile of 4 KB fits: Col >= 100
# makes Row = 4096 / (Col * 4) <= 10, not a multiple of 16; illegal.py's
# nz-row program runs it as written and expects that exception):
#     TSTORE.NZ2ND <LB0:a3, LB1:a0, LB2:a1+10, FP32>, U#1, [a2, a1]
# a0 = 16 (ValidRow), a1 = 54 (Col = 64, and the GM stride in bytes:
# unaligned rows), a3 = 13 (ValidCol), a2 = dst.  u#1 is a 16 x 64 NZ tile
# loaded from a dense 16 x 64 FP32 matrix.  Each GM row gets 13 elements
# (52 bytes); the two bytes between rows keep their old value.
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
    addi zero, 11, ->a2
1:
    MSET [s1, s2, s3]

    TLOAD.ND2NZ <LB0:64, LB1:16, LB2:64, FP32>, [s0], ->U<4KB>

    C.BSTART.STD FALL
    hl.lis 16, ->a0
    hl.lis 54, ->a1
    c.movr s1, ->a2
    hl.lis 13, ->a3
    TSTORE.NZ2ND <LB0:a3, LB1:a0, LB2:a1+10, FP32>, U#1, [a2, a1]

    BSTART.STD CALL, tile_cmp           # the 16 x 13 window
    c.setret 2f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    hl.lis 52, ->a2
    addi zero, 16, ->a3
    hl.lis 256, ->a4
    hl.lis 54, ->a5
2:
%CHECK a0, 0
    BSTART.STD CALL, tile_count         # the gaps between rows
    c.setret 3f, ->ra
    addi s1, 52, ->a0
    addi zero, 2, ->a1
    c.movr s2, ->a2
    addi zero, 15, ->a3
    hl.lis 54, ->a4
3:
%CHECK a0, 0
    BSTART.STD CALL, tile_count         # after the last row
    c.setret 4f, ->ra
    hl.lis 862, ->t
    add s1, t#1, ->a0
    hl.lis 1024, ->a1
    c.movr s2, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
4:
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
