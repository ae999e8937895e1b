# TEPL element-wise tile operations (docs/kernels.md "TEPL",
# shared/docs/tile-semantics.md 2.7): two whole tiles x and y are loaded
# (TLOAD.LAYOUT of DTYPE, so the tiles are ND, NZ or ZN), BSTART.TEPL OP
# runs over the ValidRow x ValidCol window with the sources SRCS (t#2 is
# x, t#1 is y) and the B.IOR scalar, and the result tile is stored flat
# (one row of TileBytes / esize elements): its image, zeros outside the
# window included.
# Parameters (int64 at `params`): 0 ValidCol (LB0), 1 ValidRow (LB1),
# 2 Col (LB2), 3 tile bytes, 4-6 the loads' LB0-LB2, 7 the loads' stride,
# 8 the scalar, 9 tile elements.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s0
    addi s0, params, ->s0
    ldi [s0, 0], ->a0
    ldi [s0, 8], ->a1
    ldi [s0, 16], ->a2
    ldi [s0, 24], ->a4
    ldi [s0, 32], ->s4
    ldi [s0, 40], ->s6
    ldi [s0, 48], ->s7
    ldi [s0, 56], ->s8
    ldi [s0, 64], ->s5
    ldi [s0, 72], ->s3
    addtpc gx, ->s1
    addi s1, gx, ->s1
    addtpc gy, ->s2
    addi s2, gy, ->s2
    TLOAD.LAYOUT <LB0:s4, LB1:s6, LB2:s7, DTYPE, Zero>, [s1, s8], ->T<a4>
    TLOAD.LAYOUT <LB0:s4, LB1:s6, LB2:s7, DTYPE, Zero>, [s2, s8], ->T<a4>
    BSTART.TEPL OP, DTYPE
    B.DIM a0, 0, ->lb0
    B.DIM a1, 0, ->lb1
    B.DIM a2, 0, ->lb2
    B.IOR [s5],[]
    B.IOT [SRCS], last ->t<a4>
    C.BSTART.STD FALL
    addtpc out, ->s1
    addi s1, out, ->s1
    TSTORE.NORM <LB0:s3, LB2:s3, DTYPE>, T#1, [s1]
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 128
gx: .zero 8192
gy: .zero 8192
out: .zero 4096
