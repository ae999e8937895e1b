# TLOAD.LAYOUT of DTYPE with pad PAD (defines), then the whole tile stored
# as one flat row (TSTORE NORM of TileBytes / esize elements), so the
# golden is the tile image of shared/docs/tile-semantics.md 2.1/2.4.
# Parameters (int64 at `params`): LB0, LB1, LB2, stride (bytes), tile
# bytes, tile elements, base offset in `gm` (bytes).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s0
    addi s0, params, ->s0
    ldi [s0, 0], ->a0
    ldi [s0, 8], ->a1
    ldi [s0, 16], ->a2
    ldi [s0, 24], ->a3
    ldi [s0, 32], ->a4
    ldi [s0, 40], ->s3
    ldi [s0, 48], ->s4
    addtpc gm, ->s1
    addi s1, gm, ->s1
    add s1, s4, ->s1
    addtpc dump, ->s2
    addi s2, dump, ->s2
    TLOAD.LAYOUT <LB0:a0, LB1:a1, LB2:a2, DTYPE, PAD>, [s1, a3], ->T<a4>
    TSTORE.NORM <LB0:s3, LB2:s3, DTYPE>, T#1, [s2]
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 64
dump: .zero 4096
gm: .zero 65536
