# DataCopy GM -> L1 in bursts (hw/linx/buffers-datacopy.h): BLOCKS bursts
# of BLEN 32-byte blocks from `src` (the runner's input) to L1 offset DST,
# SGAP / DGAP blocks apart; the runner reads L1 back (`at L1+0x200`).
# DST is a define: a case with a DST that is not 32-byte aligned expects
# the engine's rule trap instead.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x18281000, ->s2
    addtpc src, ->a0
    addi a0, src, ->a0
    sdi a0, [s2, 0]             # SRC
    hl.lis DST, ->a0
    sdi a0, [s2, 8]             # DST (L1 offset)
    sdi zero, [s2, 16]          # CTRL: bursts
    hl.lis BLOCKS, ->a0
    sdi a0, [s2, 24]            # BLOCK_COUNT
    hl.lis BLEN, ->a0
    sdi a0, [s2, 32]            # BLOCK_LEN
    hl.lis SGAP, ->a0
    sdi a0, [s2, 40]            # SRC_GAP
    hl.lis DGAP, ->a0
    sdi a0, [s2, 48]            # DST_GAP
    hl.lis 1, ->a0
    sdi a0, [s2, 88]            # GO
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .data
    .p2align 6
src: .zero 2048
