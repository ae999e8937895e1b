# LoadData 2D (seed 003, shared/docs/tile-semantics.md 2.5) through the
# engine's register page (docs/tile.md "LoadData 2D"): the source goes to
# L1 first when the path starts there, the destination region of L0A/L0B
# is filled with a sentinel, one LoadData runs, and the region is copied
# back to `out`.  Buffers are MMIO windows: copies are 8-byte guest loops.
# Parameters (int64 at `params`): 0 from L1, 1 to L0B, 2 transpose,
# 3 addrMode, 4 DataType code, 5 startIndex, 6 repeatTimes, 7 srcStride,
# 8 dstGap, 9 source bytes, 10 destination bytes, 11 L1 offset of the
# source, 12 L0 offset of the destination.
    .equ BUF, 0x18000000
    .equ L0A, 0x18100000
    .equ L0B, 0x18140000
    .equ REGS, 0x18280000
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s0
    addi s0, params, ->s0
    ldi [s0, 0], ->s1               # from L1
    ldi [s0, 72], ->s2              # source bytes
    ldi [s0, 88], ->s3              # L1 offset
    hl.lis 8, ->a7
    addtpc src, ->a0
    addi a0, src, ->a0
    hl.liu BUF, ->a1
    add a1, s3, ->a1
    C.BSTART COND, fill             # GM source: no copy into L1
    setc.eqi s1, 0
tol1:
    C.BSTART COND, tol1             # L1[off..] = src
    ldi [a0, 0], ->a2
    sdi a2, [a1, 0]
    add a0, a7, ->a0
    add a1, a7, ->a1
    sub s2, a7, ->s2
    setc.nei s2, 0

fill:
    C.BSTART.STD FALL
    ldi [s0, 8], ->s4               # to L0B
    ldi [s0, 80], ->s5              # destination bytes
    ldi [s0, 96], ->s6              # L0 offset
    hl.liu L0A, ->s7
    C.BSTART COND, 1f
    setc.eqi s4, 0
    C.BSTART.STD FALL
    hl.liu L0B, ->s7
1:
    C.BSTART.STD FALL
    add s7, s6, ->s7                # the destination region
    addtpc init, ->a0
    addi a0, init, ->a0
    c.movr s7, ->a1
    c.movr s5, ->s2
tol0:
    C.BSTART COND, tol0             # L0[off..] = init (the sentinel)
    ldi [a0, 0], ->a2
    sdi a2, [a1, 0]
    add a0, a7, ->a0
    add a1, a7, ->a1
    sub s2, a7, ->s2
    setc.nei s2, 0

    C.BSTART.STD FALL
    hl.liu REGS, ->s8
    addtpc src, ->a0
    addi a0, src, ->a0              # SRC: the GM address ...
    C.BSTART COND, 2f
    setc.eqi s1, 0
    C.BSTART.STD FALL
    c.movr s3, ->a0                 # ... or the L1 offset
2:
    C.BSTART.STD FALL
    sdi a0, [s8, 0]                 # SRC
    sdi s6, [s8, 8]                 # DST
    ldi [s0, 16], ->a2              # CTRL = from | to << 1 | transpose << 2
    ldi [s0, 24], ->a3              #        | addrMode << 3 | DataType << 8
    ldi [s0, 32], ->a4
    slli s4, 1, ->a5
    or s1, a5, ->a5
    slli a2, 2, ->a2
    or a5, a2, ->a5
    slli a3, 3, ->a3
    or a5, a3, ->a5
    slli a4, 8, ->a4
    or a5, a4, ->a5
    sdi a5, [s8, 16]
    ldi [s0, 40], ->a2
    sdi a2, [s8, 24]                # START_INDEX
    ldi [s0, 48], ->a2
    sdi a2, [s8, 32]                # REPEAT_TIMES
    ldi [s0, 56], ->a2
    sdi a2, [s8, 40]                # SRC_STRIDE
    ldi [s0, 64], ->a2
    sdi a2, [s8, 48]                # DST_GAP
    hl.lis 1, ->a2
    sdi a2, [s8, 56]                # GO: a failing LoadData makes this store fault

    C.BSTART.STD FALL
    addtpc out, ->a0
    addi a0, out, ->a0
    c.movr s7, ->a1
    c.movr s5, ->s2
back:
    C.BSTART COND, back             # out = L0[off..]
    ldi [a1, 0], ->a2
    sdi a2, [a0, 0]
    add a0, a7, ->a0
    add a1, a7, ->a1
    sub s2, a7, ->s2
    setc.nei s2, 0

    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 128
src: .zero 65536
init: .zero 65536
out: .zero 65536
