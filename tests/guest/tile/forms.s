# Header forms of TMA blocks (v0.4 syntax), each a 16 x 16 FP32 NORM copy
# src -> t#1 -> dst (GM pitch 64 B, 1 KB tiles) that must give the same
# bytes:
#   B.DIM zero, imm / reg, 0 / reg, imm; C.B.DIM reg; C.B.DIMI imm; no
#   B.DIM for LB2 (Col = ValidCol); B.IOT with the size in a register;
#   a single-register B.IOR (the base, contiguous rows); a well-formed
#   B.IOD (dependencies accepted, no effect on a one-CPU model); B.ATTR and
#   B.HINT (ignored by TMA).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc src, ->s0
    addi s0, src, ->s0
    addtpc dst, ->s1
    addi s1, dst, ->s1
    hl.lis 0xee, ->s2
    hl.lis 2048, ->s3
    hl.lis 16, ->s4
    hl.lis 6, ->s5
    hl.lis 1024, ->s6
    BSTART.STD CALL, tile_fill
    c.setret 1f, ->ra
    c.movr s0, ->a0
    hl.lis 1024, ->a1
    addi zero, 17, ->a2
1:
# immediates (B.DIM zero, imm), B.IOD
    MSET [s1, s2, s3]
    BSTART.TMA TLOAD, FP32
    B.ARG NORM
    B.DIM zero, 16, ->lb0
    B.DIM zero, 16, ->lb1
    B.DIM zero, 16, ->lb2
    B.IOR [s0],[]
    B.IOD 1, 2, 3, ->4
    B.IOTI [], last ->t<1KB>
    BSTART.TMA TSTORE, FP32
    B.ARG NORM
    B.DIM zero, 16, ->lb0
    B.DIM zero, 16, ->lb1
    B.DIM zero, 16, ->lb2
    B.IOR [s1],[]
    B.IOD 4, 0, 0, ->5
    B.IOTI [t#1], last ->t<1KB>
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    hl.lis 1024, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
    addi zero, 0, ->a5
1:
%CHECK a0, 0
# registers (B.DIM reg, 0), B.IOT size register, B.ATTR, B.HINT
    MSET [s1, s2, s3]
    BSTART.TMA TLOAD, FP32
    B.ARG NORM
    B.ATTR
    B.DIM s4, 0, ->lb0
    B.DIM s4, 0, ->lb1
    B.DIM s4, 0, ->lb2
    B.IOR [s0],[]
    B.IOT [], last ->t<s6>
    BSTART.TMA TSTORE, FP32
    B.ARG NORM
    B.DIM s4, 0, ->lb0
    B.DIM s4, 0, ->lb1
    B.DIM s4, 0, ->lb2
    B.IOR [s1],[]
    B.IOT [t#1], last ->t<s6>
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    hl.lis 1024, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
    addi zero, 0, ->a5
1:
%CHECK a0, 0
# register + immediate, C.B.DIM, C.B.DIMI, Col from ValidCol
    MSET [s1, s2, s3]
    BSTART.TMA TLOAD, FP32
    B.ARG NORM
    B.DIM s5, 10, ->lb0
    C.B.DIM s4, ->lb1
    B.IOR [s0],[]
    B.IOTI [], last ->t<1KB>
    BSTART.TMA TSTORE, FP32
    B.ARG NORM
    C.B.DIMI 16, ->lb0
    C.B.DIMI 16, ->lb1
    B.IOR [s1],[]
    B.IOTI [t#1], last ->t<1KB>
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    hl.lis 1024, ->a2
    addi zero, 1, ->a3
    addi zero, 0, ->a4
    addi zero, 0, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    hl.lis 1024, ->t
    add s1, t#1, ->a0
    hl.lis 1024, ->a1
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
    .zero 2048
dst:
    .zero 2048
    .text                           # gtest.py's stubs follow
