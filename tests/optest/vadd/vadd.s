# Operator suite "vadd": c = a + b over n fp32 elements (n = a0), one MPAR
# lane per element, bridged loads and stores (docs/optest.md).
    .equ MAXN, 4096
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc va, ->s0
    addi s0, va, ->s0
    addtpc vb, ->s1
    addi s1, vb, ->s1
    addtpc vc, ->s2
    addi s2, vc, ->s2
    c.movr a0, ->s3
    BSTART.MPAR VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.DIM s3, 0, ->lb0
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1         # virt EXIT register: status 0
    swi zero, [a1, 0]
    C.BSTOP

.body:
    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w
    v.lwi.brg [ri1, lc0<<2, 0], ->vt.w
    v.fadd vt#1.fs, vt#2.fs, ->vt.w
    v.swi.brg vt#1.uw, [ri2, lc0<<2, 0]
    C.BSTOP

    .bss
    .p2align 6
va: .zero 4 * MAXN
vb: .zero 4 * MAXN
vc: .zero 4 * MAXN
