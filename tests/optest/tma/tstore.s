# TSTORE.LAYOUT of DTYPE from the source tiles SRCS (defines; T#N .. T#1,
# operand order), each first loaded from a flat image in `img` (TLOAD NORM
# of one row of TileBytes / esize elements), into `gm`, which holds a
# sentinel pattern: the golden is that pattern with only the window
# written (shared/docs/tile-semantics.md 2.3, seed 000 multi-input merge).
# Parameters (int64 at `params`): LB0, LB1, LB2, stride (bytes), tile
# bytes, tile elements, base offset in `gm` (bytes), source tiles N.
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
    ldi [s0, 56], ->s5
    hl.lis 1, ->s6
    addtpc gm, ->s1
    addi s1, gm, ->s1
    add s1, s4, ->s1
    addtpc img, ->s2
    addi s2, img, ->s2
load:
    TLOAD.NORM <LB0:s3, LB2:s3, DTYPE, Zero>, [s2], ->T<a4>
    C.BSTART COND, load
    add s2, a4, ->s2
    sub s5, s6, ->s5
    setc.nei s5, 0
    TSTORE.LAYOUT <LB0:a0, LB1:a1, LB2:a2, DTYPE>, SRCS, [s1, a3]
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 64
img: .zero 32768
gm: .zero 65536
