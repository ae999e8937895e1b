# tile-semantics.md 2.5, standard use A: an m x k matrix held in L1 as NZ
# fractals goes to L0A in ZZ order with one LoadData per row block b:
# source L1 + 512 b, destination L0A + 512 b ceil(k/c0), repeatTimes
# ceil(k/c0), srcStride ceil(m/16), dstGap 0.  Then L0A is copied to `out`.
# Parameters (int64 at `params`): 0 row blocks (m/16), 1 column blocks
# (k/c0), 2 DataType code, 3 bytes of A, 4 L1 offset, 5 L0A offset.
    .equ BUF, 0x18000000
    .equ L0A, 0x18100000
    .equ REGS, 0x18280000
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s0
    addi s0, params, ->s0
    ldi [s0, 0], ->s1               # row blocks
    ldi [s0, 8], ->s2               # column blocks
    ldi [s0, 16], ->s3              # DataType
    ldi [s0, 24], ->s4              # bytes
    ldi [s0, 32], ->s5              # L1 offset
    ldi [s0, 40], ->s6              # L0A offset
    hl.lis 8, ->a7
    addtpc src, ->a0
    addi a0, src, ->a0
    hl.liu BUF, ->a1
    add a1, s5, ->a1
    c.movr s4, ->a3
tol1:
    C.BSTART COND, tol1
    ldi [a0, 0], ->a2
    sdi a2, [a1, 0]
    add a0, a7, ->a0
    add a1, a7, ->a1
    sub a3, a7, ->a3
    setc.nei a3, 0

    C.BSTART.STD FALL
    hl.liu REGS, ->s8
    slli s3, 8, ->a0
    ori a0, 1, ->a0                 # CTRL: from L1, to L0A, DataType
    sdi a0, [s8, 16]
    sdi s2, [s8, 32]                # REPEAT_TIMES = column blocks
    sdi s1, [s8, 40]                # SRC_STRIDE = row blocks
    sdi zero, [s8, 48]              # DST_GAP
    sdi zero, [s8, 24]              # START_INDEX
    c.movr s5, ->a1                 # SRC: L1 + 512 b
    c.movr s6, ->a2                 # DST: L0A + 512 b ceil(k/c0)
    slli s2, 9, ->a4                # bytes per row block in L0A
    hl.lis 512, ->a5
    c.movr s1, ->a3
rows:
    C.BSTART COND, rows
    sdi a1, [s8, 0]
    sdi a2, [s8, 8]
    hl.lis 1, ->a0
    sdi a0, [s8, 56]                # GO
    add a1, a5, ->a1
    add a2, a4, ->a2
    hl.lis 1, ->a0
    sub a3, a0, ->a3
    setc.nei a3, 0

    C.BSTART.STD FALL
    addtpc out, ->a0
    addi a0, out, ->a0
    hl.liu L0A, ->a1
    add a1, s6, ->a1
    c.movr s4, ->a3
back:
    C.BSTART COND, back
    ldi [a1, 0], ->a2
    sdi a2, [a0, 0]
    add a0, a7, ->a0
    add a1, a7, ->a1
    sub a3, a7, ->a3
    setc.nei a3, 0

    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 64
src: .zero 65536
out: .zero 65536
