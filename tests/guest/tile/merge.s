# Multi-input TSTORE (seed 000, shared/docs/decisions.md 5): the source
# tiles merge in operand order along the columns for ND memory and along
# the rows for DN memory.
#   ND: three 64 x 16 FP32 NZ tiles hold columns 0-15, 16-31 and 32-47 of
#       a 64 x 48 matrix (GM pitch 192 B); TSTORE.NZ2ND of T#3, T#2, T#1
#       (oldest first) with Col 48 writes the whole matrix back.
#   DN: two 32 x 32 NZ tiles hold rows 0-31 and 32-63 of a column-major
#       64 x 32 matrix (column pitch 256 B); TSTORE.NZ2DN of T#2, T#1.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc src, ->s0
    addi s0, src, ->s0
    addtpc dst, ->s1
    addi s1, dst, ->s1
    hl.lis 0xee, ->s2
    hl.lis 16384, ->s3
    BSTART.STD CALL, tile_fill
    c.setret 1f, ->ra
    c.movr s0, ->a0
    hl.lis 16384, ->a1
    addi zero, 9, ->a2
1:
    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 192, ->s4
    TLOAD.ND2NZ <LB0:16, LB1:64, LB2:16, FP32>, [s0, s4], ->T<4KB>
    C.BSTART.STD FALL
    addi s0, 64, ->s5
    TLOAD.ND2NZ <LB0:16, LB1:64, LB2:16, FP32>, [s5, s4], ->T<4KB>
    C.BSTART.STD FALL
    addi s0, 128, ->s5
    TLOAD.ND2NZ <LB0:16, LB1:64, LB2:16, FP32>, [s5, s4], ->T<4KB>
    TSTORE.NZ2ND <LB0:48, LB1:64, LB2:48, FP32>, T#3, T#2, T#1, [s1]
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    hl.lis 12288, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
    addi zero, 0, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    hl.lis 12288, ->t
    add s1, t#1, ->a0
    hl.lis 4096, ->a1
    c.movr s2, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
1:
%CHECK a0, 0

    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 256, ->s4
    TLOAD.DN2NZ <LB0:32, LB1:32, LB2:32, FP32>, [s0, s4], ->T<4KB>
    C.BSTART.STD FALL
    addi s0, 128, ->s5
    TLOAD.DN2NZ <LB0:32, LB1:32, LB2:32, FP32>, [s5, s4], ->T<4KB>
    TSTORE.NZ2DN <LB0:64, LB1:32, LB2:32, FP32>, T#2, T#1, [s1]
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    hl.lis 8192, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
    addi zero, 0, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    hl.lis 8192, ->t
    add s1, t#1, ->a0
    hl.lis 4096, ->a1
    c.movr s2, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
1:
%CHECK a0, 0
%PASS

    .include "lib.inc"

    .bss
    .p2align 6
src:
    .zero 16384
dst:
    .zero 16384
    .text                           # gtest.py's stubs follow
