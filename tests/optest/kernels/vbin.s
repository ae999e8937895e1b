# MPAR element-wise kernel c[i] = a[i] OP b[i] (docs/kernels.md): one lane
# per element (LB0 = n), bridged immediate loads LD and stores ST of
# elements of 1 << SH bytes, the operation on operands of type TS pushed
# as width DW.  Parameters (int64 at `params`): n.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s4
    addi s4, params, ->s4
    ldi [s4, 0], ->s3
    addtpc va, ->s0
    addi s0, va, ->s0
    addtpc vb, ->s1
    addi s1, vb, ->s1
    addtpc vc, ->s2
    addi s2, vc, ->s2
    BSTART.MPAR VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.DIM s3, 0, ->lb0
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

.body:
    LD [ri0, lc0<<SH, 0], ->vt.DW
    LD [ri1, lc0<<SH, 0], ->vt.DW
    OP vt#2.TS, vt#1.TS, ->vt.DW
    ST vt#1.TS, [ri2, lc0<<SH, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 64
va: .zero 32768
vb: .zero 32768
vc: .zero 32768
