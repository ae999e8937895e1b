# MSEQ row reductions (docs/kernels.md "Phases"): lanes are the columns
# (LB0 = cols), groups the rows (LB1 = rows); RD combines the row's values
# across the lanes into the scalar hand t, and every lane stores it, so
# out[r][c] is the reduction of row r.  Elements are 4 bytes, read as TS.
# Parameters (int64 at `params`): cols, rows.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s4
    addi s4, params, ->s4
    ldi [s4, 0], ->s3
    ldi [s4, 8], ->s5
    slli s3, 2, ->s2                # row pitch in bytes
    addtpc vx, ->s0
    addi s0, vx, ->s0
    addtpc vy, ->s1
    addi s1, vy, ->s1
    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.DIM s3, 0, ->lb0
    B.DIM s5, 0, ->lb1
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

.body:
    v.mul lc1.ud, ri2.ud, ->vu.d                # the row's offset
    v.lw.brg [ri0, lc0<<2, vu#1.ud], ->vt.w
    RD vt#1.TS, ->t.w                            # ---- across the row's lanes
    v.sw.u.brg t#1.TS, [ri1, lc0<<2, vu#1.ud]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 64
vx: .zero 32768
vy: .zero 32768
