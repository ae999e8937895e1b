# TLOAD.LAYOUT of DTYPE with pad Null, then TSTORE.LAYOUT of the same tile
# to `dst`, which holds a sentinel pattern: the window comes back and no
# byte outside it changes, whatever the Null padding left in the tile
# (shared/docs/tile-semantics.md 2.3/2.4: only the valid region moves).
# Parameters (int64 at `params`): LB0, LB1, LB2, load stride, tile bytes,
# store stride, base offset in `gm` (bytes).
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
    ldi [s0, 40], ->a5
    ldi [s0, 48], ->s4
    addtpc gm, ->s1
    addi s1, gm, ->s1
    add s1, s4, ->s1
    addtpc dst, ->s2
    addi s2, dst, ->s2
    TLOAD.LAYOUT <LB0:a0, LB1:a1, LB2:a2, DTYPE, Null>, [s1, a3], ->T<a4>
    TSTORE.LAYOUT <LB0:a0, LB1:a1, LB2:a2, DTYPE>, T#1, [s2, a5]
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 64
gm: .zero 65536
dst: .zero 65536
