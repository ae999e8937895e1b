# MSEQ matrix-vector product y = A x in fp32 (docs/kernels.md): lanes are
# the columns, groups the rows; each lane multiplies A[r][c] x[c], V.RDFADD
# sums the row's products in lane order, and every lane of the row stores
# the sum (out[r][c] = y[r]).  Parameters (int64 at `params`): cols, rows.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s4
    addi s4, params, ->s4
    ldi [s4, 0], ->s3
    ldi [s4, 8], ->s5
    slli s3, 2, ->s2
    addtpc ma, ->s0
    addi s0, ma, ->s0
    addtpc vx, ->s6
    addi s6, vx, ->s6
    addtpc vy, ->s1
    addi s1, vy, ->s1
    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.IOR [s6],[]
    B.DIM s3, 0, ->lb0
    B.DIM s5, 0, ->lb1
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

.body:
    v.mul lc1.ud, ri2.ud, ->vu.d
    v.lw.brg [ri0, lc0<<2, vu#1.ud], ->vt.w     # A[r][c]
    v.lwi.brg [ri3, lc0<<2, 0], ->vt.w          # x[c]
    v.fmul vt#2.fs, vt#1.fs, ->vt.w
    v.rdfadd vt#1.fs, ->t.w                     # ---- the row's sum
    v.sw.u.brg t#1.fs, [ri1, lc0<<2, vu#1.ud]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 64
ma: .zero 65536
vx: .zero 8192
vy: .zero 65536
