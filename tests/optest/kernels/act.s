# MPAR activations over n elements of 1 << SH bytes (floats of type TS):
# ACT selects the body: relu y = max(x, +0), leaky y = max(x, alpha x)
# (alpha < 1), saxpy y = alpha x + y.  Parameters (int64 at `params`): n,
# alpha's bits.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s4
    addi s4, params, ->s4
    ldi [s4, 0], ->s3
    ldi [s4, 8], ->s5
    addtpc vx, ->s0
    addi s0, vx, ->s0
    addtpc vy, ->s1
    addi s1, vy, ->s1
    BSTART.MPAR VS16
    B.TEXT ACT
    B.IOR [s0, s1, s5],[]
    B.DIM s3, 0, ->lb0
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

relu:
    LD [ri0, lc0<<SH, 0], ->vt.DW
    v.fmax vt#1.TS, zero.TS, ->vt.DW
    ST vt#1.TS, [ri1, lc0<<SH, 0]
    C.BSTOP
leaky:
    LD [ri0, lc0<<SH, 0], ->vt.DW
    v.fmul vt#1.TS, ri2.TS, ->vt.DW
    v.fmax vt#2.TS, vt#1.TS, ->vt.DW
    ST vt#1.TS, [ri1, lc0<<SH, 0]
    C.BSTOP
saxpy:
    LD [ri0, lc0<<SH, 0], ->vt.DW
    LD [ri1, lc0<<SH, 0], ->vt.DW
    v.fmul vt#2.TS, ri2.TS, ->vt.DW
    v.fadd vt#1.TS, vt#2.TS, ->vt.DW
    ST vt#1.TS, [ri1, lc0<<SH, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 64
vx: .zero 32768
vy: .zero 32768
