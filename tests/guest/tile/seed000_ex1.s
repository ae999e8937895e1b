# Seed 000's first assembly example, with concrete registers (run on the
# virt machine; checks by tests/guest/gtest.py):
#     TSTORE.NORM <LB0:100, LB1:a0, LB2:a1+10, FP32>, T#1, [a2]
# a0 = 8 (ValidRow), a1 = 118 (Col = 128), a2 = dst.  t#1 is an 8 x 128
# FP32 tile loaded from src (NORM, 4 KB, so Row = 4096 / (128 * 4) = 8).
# GM gets 8 rows of 100 elements, contiguous (no stride: 400 B a row),
# and nothing after them changes.
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
    addi zero, 3, ->a2
1:
    MSET [s1, s2, s3]

    TLOAD.NORM <LB0:128, LB1:8, LB2:128, FP32>, [s0], ->T<4KB>

    C.BSTART.STD FALL
    hl.lis 8, ->a0
    hl.lis 118, ->a1
    c.movr s1, ->a2
    TSTORE.NORM <LB0:100, LB1:a0, LB2:a1+10, FP32>, T#1, [a2]

    BSTART.STD CALL, tile_cmp
    c.setret 2f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    hl.lis 400, ->a2
    addi zero, 8, ->a3
    hl.lis 512, ->a4
    hl.lis 400, ->a5
2:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 3f, ->ra
    hl.lis 3200, ->t
    add s1, t#1, ->a0
    hl.lis 4992, ->a1
    c.movr s2, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
3:
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
