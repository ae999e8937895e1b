# Operator suite "softmax": row-wise softmax of a rows x cols fp32 matrix
# (cols = a0, rows = a1, cols x rows <= MAXE).  One lane per element, one group (LB1)
# per row; the row maximum and the sum are cross-lane reductions (V.RDFMAX,
# V.RDFADD), so the body runs in three phases (docs/kernels.md).
    .equ MAXE, 8192
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc vx, ->s0
    addi s0, vx, ->s0
    addtpc vy, ->s1
    addi s1, vy, ->s1
    slli a0, 2, ->s2                # row pitch in bytes
    c.movr a0, ->s3
    c.movr a1, ->s4
    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.DIM s3, 0, ->lb0
    B.DIM s4, 0, ->lb1
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

.body:
    v.mul lc1.ud, ri2.ud, ->vu.d                # row offset
    v.lw.brg [ri0, lc0<<2, vu#1.ud], ->vt.w     # x
    v.rdfmax vt#1.fs, ->t.w                     # ---- m = max over the row
    v.fsub vt#1.fs, t#1.fs, ->vt.w
    v.fexp vt#1.fs, ->vt.w                      # e = exp(x - m)
    v.rdfadd vt#1.fs, ->t.w                     # ---- s = sum over the row
    v.fdiv vt#1.fs, t#1.fs, ->vt.w
    v.sw.u.brg vt#1.uw, [ri1, lc0<<2, vu#1.ud]
    C.BSTOP

    .bss
    .p2align 6
vx: .zero 4 * MAXE
vy: .zero 4 * MAXE
