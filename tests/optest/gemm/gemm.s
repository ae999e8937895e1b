# Whole kernel: tiled GEMM C (M x N, fp32) = A (M x K) x B (K x N), A and B
# of DTYPE, all row-major in memory.  For every tm x tn tile of C: TLOAD
# A's tm x tk tile (ND2NZ) and B's tk x tn tile (ND2ZN), TMATMUL for the
# first k tile and TMATMUL.ACC for the others, ACCCVT FP32, TSTORE NZ2ND
# into C.  v0.4 headers: B.ARG selectors, B.IOR [stride, base], tile sizes
# from registers.  Parameters (int64 at `params`): 0 M/tm, 1 N/tn, 2 K/tk,
# 3 tm, 4 tn, 5 tk, 6 A row bytes, 7 B row bytes, 8 C row bytes, 9 A tile
# bytes, 10 B tile bytes, 11 C tile bytes, 12 C tile columns, 13 A k step,
# 14 B k step, 15 A m step, 16 B n step, 17 C m step, 18 C n step.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s0
    addi s0, params, ->s0
    ldi [s0, 24], ->a1              # tm
    ldi [s0, 32], ->a2              # tn
    ldi [s0, 40], ->a3              # tk
    ldi [s0, 48], ->a6              # A row bytes
    ldi [s0, 56], ->a7              # B row bytes
    ldi [s0, 72], ->a4              # A tile bytes
    ldi [s0, 80], ->a5              # B tile bytes
    hl.lis 1, ->x0
    addtpc ma, ->s4                 # A's row block
    addi s4, ma, ->s4
    addtpc mc, ->s5                 # C's row block
    addi s5, mc, ->s5
    ldi [s0, 0], ->s1               # row blocks left

mloop:
    C.BSTART.STD FALL
    ldi [s0, 8], ->s2               # column blocks left
    addtpc mb, ->a0                 # B's column block
    addi a0, mb, ->a0
    c.movr s5, ->s8                 # C tile

nloop:
    C.BSTART.STD FALL
    c.movr s4, ->s7
    c.movr a0, ->s6
    ldi [s0, 16], ->s3              # k tiles left
    BSTART.TMA TLOAD, DTYPE
    B.ARG ND2NZ
    B.DIM a3, 0, ->lb0
    B.DIM a1, 0, ->lb1
    B.DIM a3, 0, ->lb2
    B.IOR [a6, s7],[]
    B.IOT [], last ->t<a4>
    BSTART.TMA TLOAD, DTYPE
    B.ARG ND2ZN
    B.DIM a2, 0, ->lb0
    B.DIM a3, 0, ->lb1
    B.DIM a2, 0, ->lb2
    B.IOR [a7, s6],[]
    B.IOT [], last ->u<a5>
    BSTART.CUBE TMATMUL, DTYPE
    B.DIM a1, 0, ->lb0
    B.DIM a2, 0, ->lb1
    B.DIM a3, 0, ->lb2
    B.ARG NORM
    B.IOTI [t#1, u#1], last
    C.BSTART COND, cvt
    sub s3, x0, ->s3
    setc.eqi s3, 0

kloop:
    C.BSTART.STD FALL
    ldi [s0, 104], ->x1
    add s7, x1, ->s7
    ldi [s0, 112], ->x1
    add s6, x1, ->s6
    BSTART.TMA TLOAD, DTYPE
    B.ARG ND2NZ
    B.DIM a3, 0, ->lb0
    B.DIM a1, 0, ->lb1
    B.DIM a3, 0, ->lb2
    B.IOR [a6, s7],[]
    B.IOT [], last ->t<a4>
    BSTART.TMA TLOAD, DTYPE
    B.ARG ND2ZN
    B.DIM a2, 0, ->lb0
    B.DIM a3, 0, ->lb1
    B.DIM a2, 0, ->lb2
    B.IOR [a7, s6],[]
    B.IOT [], last ->u<a5>
    BSTART.CUBE TMATMUL.ACC, DTYPE
    B.DIM a1, 0, ->lb0
    B.DIM a2, 0, ->lb1
    B.DIM a3, 0, ->lb2
    B.ARG NORM
    B.IOTI [t#1, u#1], last
    C.BSTART COND, kloop
    sub s3, x0, ->s3
    setc.nei s3, 0

cvt:
    C.BSTART.STD FALL
    ldi [s0, 88], ->x1              # C tile bytes
    ldi [s0, 96], ->x2              # C tile columns
    ldi [s0, 64], ->x3              # C row bytes
    BSTART.CUBE ACCCVT, FP32
    B.DIM a1, 0, ->lb0
    B.DIM a2, 0, ->lb1
    B.DIM a3, 0, ->lb2
    B.ARG NORM
    B.IOR [zero, zero, x0],[]
    B.IOT [], last ->n<x1>
    BSTART.TMA TSTORE, FP32
    B.ARG ND2NZ
    B.DIM a2, 0, ->lb0
    B.DIM a1, 0, ->lb1
    B.DIM x2, 0, ->lb2
    B.IOR [x3, s8],[]
    B.IOT [n#1], last ->t<x1>
    C.BSTART.STD FALL
    ldi [s0, 128], ->x1
    add a0, x1, ->a0                # next column block of B
    ldi [s0, 144], ->x1
    add s8, x1, ->s8                # next C tile
    C.BSTART COND, nloop
    sub s2, x0, ->s2
    setc.nei s2, 0

    C.BSTART.STD FALL
    ldi [s0, 120], ->x1
    add s4, x1, ->s4                # next row block of A
    ldi [s0, 136], ->x1
    add s5, x1, ->s5                # next row block of C
    C.BSTART COND, mloop
    sub s1, x0, ->s1
    setc.nei s1, 0

    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 256
ma: .zero 131072
mb: .zero 131072
mc: .zero 262144
