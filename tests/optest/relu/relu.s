# Operator suite "relu": leaky ReLU y = x > 0 ? x : alpha * x over n fp32
# elements (n = a0, alpha's bits = a1), with an FP compare and a select.
    .equ MAXN, 4096
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc vx, ->s0
    addi s0, vx, ->s0
    addtpc vy, ->s1
    addi s1, vy, ->s1
    c.movr a0, ->s3
    c.movr a1, ->s2
    BSTART.MPAR VS8
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.DIM s3, 0, ->lb0
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

.body:
    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w              # x
    v.fmul vt#1.fs, ri2.fs, ->vt.w                  # alpha * x
    v.flt zero.fs, vt#2.fs, ->vu.w                  # 0 < x
    v.csel vu#1.uw, vt#2.uw, vt#1.uw, ->vt.w
    v.swi.brg vt#1.uw, [ri1, lc0<<2, 0]
    C.BSTOP

    .bss
    .p2align 6
vx: .zero 4 * MAXN
vy: .zero 4 * MAXN
