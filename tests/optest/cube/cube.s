# CUBE (docs/kernels.md "CUBE", shared/docs/tile-semantics.md 2.6, 2.2):
# C = A (m x k, DTYPE) x B (k x n), both row-major in memory, over k tiles
# of ktile: TLOAD A's tile ND2NZ and B's tile ND2ZN (v0.4 B.ARG headers,
# B.IOR [stride, base], pad Null: the padding of odd shapes is whatever the
# tile held, and must not leak), TMATMUL for the first k tile and
# TMATMUL.ACC for the others, ACCCVT to OUT (B.ARG QUANT: NORM none, ND2NZ
# = format 1, scalar quantisation with the quant word from B.IOR), then
# TSTORE with the selector STORE: ND2NZ writes the m x n window to C,
# NORM the whole NZ tile as one flat row.
# Parameters (int64 at `params`): 0 m, 1 n, 2 ktile, 3 k tiles, 4 A row
# bytes, 5 B row bytes, 6 A tile bytes, 7 B tile bytes, 8 A tile columns,
# 9 B tile columns, 10 C tile bytes, 11 quant word, 12 store LB0,
# 13 store LB1, 14 store LB2, 15 store stride, 16 A step (bytes per k
# tile), 17 B step.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s0
    addi s0, params, ->s0
    ldi [s0, 0], ->s1               # m
    ldi [s0, 8], ->s2               # n
    ldi [s0, 16], ->s3              # ktile
    ldi [s0, 24], ->s4              # k tiles left
    ldi [s0, 32], ->s5              # A row bytes
    ldi [s0, 40], ->s6              # B row bytes
    ldi [s0, 48], ->a4              # A tile bytes
    ldi [s0, 56], ->a5              # B tile bytes
    ldi [s0, 64], ->a6              # A tile columns
    ldi [s0, 72], ->a7              # B tile columns
    addtpc ma, ->s7
    addi s7, ma, ->s7
    addtpc mb, ->s8
    addi s8, mb, ->s8

    BSTART.TMA TLOAD, DTYPE         # A[:, 0:ktile] -> NZ
    B.ARG ND2NZ
    B.DIM s3, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM a6, 0, ->lb2
    B.IOR [s5, s7],[]
    B.IOT [], last ->t<a4>
    BSTART.TMA TLOAD, DTYPE         # B[0:ktile, :] -> ZN
    B.ARG ND2ZN
    B.DIM s2, 0, ->lb0
    B.DIM s3, 0, ->lb1
    B.DIM a7, 0, ->lb2
    B.IOR [s6, s8],[]
    B.IOT [], last ->u<a5>
    BSTART.CUBE TMATMUL, DTYPE
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s3, 0, ->lb2
    B.ARG NORM
    B.IOTI [t#1, u#1], last
    C.BSTART.STD FALL
    hl.lis 1, ->x0
    sub s4, x0, ->s4
    ldi [s0, 128], ->x1             # A step
    ldi [s0, 136], ->x2             # B step
    C.BSTART COND, convert
    setc.eqi s4, 0

ktiles:
    C.BSTART.STD FALL
    add s7, x1, ->s7
    add s8, x2, ->s8
    BSTART.TMA TLOAD, DTYPE
    B.ARG ND2NZ
    B.DIM s3, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM a6, 0, ->lb2
    B.IOR [s5, s7],[]
    B.IOT [], last ->t<a4>
    BSTART.TMA TLOAD, DTYPE
    B.ARG ND2ZN
    B.DIM s2, 0, ->lb0
    B.DIM s3, 0, ->lb1
    B.DIM a7, 0, ->lb2
    B.IOR [s6, s8],[]
    B.IOT [], last ->u<a5>
    BSTART.CUBE TMATMUL.ACC, DTYPE
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s3, 0, ->lb2
    B.ARG NORM
    B.IOTI [t#1, u#1], last
    C.BSTART COND, ktiles
    sub s4, x0, ->s4
    setc.nei s4, 0

convert:
    C.BSTART.STD FALL
    ldi [s0, 80], ->a4              # C tile bytes
    ldi [s0, 88], ->a5              # quant word
    ldi [s0, 96], ->a0              # store LB0, LB1, LB2, stride
    ldi [s0, 104], ->a1
    ldi [s0, 112], ->a2
    ldi [s0, 120], ->a3
    addtpc mc, ->s7
    addi s7, mc, ->s7
    BSTART.CUBE ACCCVT, OUT
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s3, 0, ->lb2
    B.ARG QUANT
    B.IOR [a5],[]
    B.IOT [], last ->n<a4>
    BSTART.TMA TSTORE, OUT
    B.ARG STORE
    B.DIM a0, 0, ->lb0
    B.DIM a1, 0, ->lb1
    B.DIM a2, 0, ->lb2
    B.IOR [a3, s7],[]
    B.IOT [n#1], last ->t<a4>

    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 256
ma: .zero 65536
mb: .zero 65536
mc: .zero 16384
