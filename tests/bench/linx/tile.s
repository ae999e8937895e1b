# (b) Tile store/load with the NZ<->ND fractal mapping:
# /work/shared/anchor/src/tile.c in LinxISA assembly (same algorithm,
# sizes and checks).  Float32 256x256 tiles, fractal = 16 rows x c0 = 8:
# element (i,j) of a tile lives at element offset
#   (j / 8) * 256 * 8 + i * 8 + j % 8
# and GM is row-major with leading dimension 256.  Each rep stores tile A
# to GM (NZ->ND), loads GM into tile B (ND->NZ) and swaps A/B; 15000 reps.
# Checks: GM and the final A hold (float)(i*256+j), the NZ mapping is a
# bijection, and the checksum (sum = sum*31 + bits of GM) is
# 0xd46c5cfc23400000 - for any number of reps.
#
# linx-run --ram-mib 1 tile.elf          full size
# linx-run --ram-mib 1 --arg K tile.elf  15000 >> K reps
# Memory (RAM at 0x80000000): ta, tb, gm (256 KiB each), seen (64 KiB).

    .equ RAM, 0x80000000
    .equ TILE_BYTES, 256 * 256 * 4
    .equ REPS, 15000

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    c.movr a0, ->s8                  # K
    hl.lis REPS, ->t
    srl t#1, s8, ->s7                # s7 = reps
    hl.liu RAM, ->s0                 # s0 = ta
    hl.liu TILE_BYTES, ->t
    add s0, t#1, ->s1                # s1 = tb
    add s1, t#1, ->s2                # s2 = gm
    add s2, t#1, ->s3                # s3 = seen
# ta[nz(i,j)] = (float)(i * 256 + j)   (tb is zero: fresh RAM)
    addi zero, 0, ->a2               # i
.Linit_i:
    C.BSTART.STD FALL
    addi zero, 0, ->a3               # j
.Linit_j:
    BSTART COND, .Linit_j
    srli a3, 3, ->t
    slli t#1, 8, ->t
    add t#1, a2, ->t                 # (j >> 3) * 256 + i
    andi a3, 7, ->t
    add t#1, t#2<<3, ->t             # nz(i, j)
    slli a2, 8, ->t
    add t#1, a3, ->t
    scvtf.sw2fs t#1, ->t
    sw t#1, [s0, t#4<<2]
    addi a3, 1, ->a3
    setc.nei a3, 256
    BSTART COND, .Linit_i
    addi a2, 1, ->a2
    setc.nei a2, 256
# timed: for r < reps: store(ta, gm); load(gm, tb); swap(ta, tb)
    BSTART.STD CALL, bench_mark
    c.setret .Lr0, ->ra
.Lr0:
    C.BSTART.STD FALL
    addi zero, 0, ->s4               # r
    BSTART COND, .Lreps_done
    setc.eqi s7, 0
.Lrep:
    BSTART.STD CALL, tile_store_nz2nd
    c.setret .Lr1, ->ra
    c.movr s0, ->a0
    c.movr s2, ->a1
.Lr1:
    BSTART.STD CALL, tile_load_nd2nz
    c.setret .Lr2, ->ra
    c.movr s2, ->a0
    c.movr s1, ->a1
.Lr2:
    BSTART COND, .Lrep
    c.movr s0, ->t
    c.movr s1, ->s0
    c.movr t#1, ->s1
    addi s4, 1, ->s4
    setc.ne s4, s7
.Lreps_done:
    BSTART.STD CALL, bench_mark
    c.setret .Lr3, ->ra
# checks and checksum
.Lr3:
    C.BSTART.STD FALL
    addi zero, 1, ->s5               # ok
    addi zero, 0, ->s6               # sum
    addi zero, 0, ->a2               # i
.Lck_i:
    C.BSTART.STD FALL
    addi zero, 0, ->a3               # j
.Lck_j:
    BSTART COND, .Lck_j
    slli a2, 8, ->t
    add t#1, a3, ->a4                # i * 256 + j
    scvtf.sw2fs a4, ->a5             # the expected value
    lwu [s2, a4<<2], ->a6            # gm[i * 256 + j]
    cmp.eq a6, a5, ->t
    and s5, t#1, ->s5
    srli a3, 3, ->t
    slli t#1, 8, ->t
    add t#1, a2, ->t
    andi a3, 7, ->t
    add t#1, t#2<<3, ->t             # nz(i, j)
    lwu [s0, t#1<<2], ->t            # ta[nz(i, j)]
    cmp.eq t#1, a5, ->t
    and s5, t#1, ->s5
    slli s6, 5, ->t
    sub t#1, s6, ->t                 # sum * 31
    add t#1, a6, ->s6
    addi a3, 1, ->a3
    setc.nei a3, 256
    BSTART COND, .Lck_i
    addi a2, 1, ->a2
    setc.nei a2, 256
# the mapping is a bijection onto [0, 65536): seen[nz(i, j)]++ == 0
    C.BSTART.STD FALL
    addi zero, 0, ->a2
.Lbj_i:
    C.BSTART.STD FALL
    addi zero, 0, ->a3
.Lbj_j:
    BSTART COND, .Lbj_j
    srli a3, 3, ->t
    slli t#1, 8, ->t
    add t#1, a2, ->t
    andi a3, 7, ->t
    add t#1, t#2<<3, ->a4            # o = nz(i, j)
    hl.liu 65536, ->t
    cmp.ltu a4, t#1, ->t             # o < R * C
    and s5, t#1, ->s5
    hl.liu 0xffff, ->t
    and a4, t#1, ->a4                # (in range when ok)
    lbu [s3, a4], ->t
    cmp.eqi t#1, 0, ->t
    and s5, t#1, ->s5
    lbu [s3, a4], ->t
    addi t#1, 1, ->t
    sb t#1, [s3, a4]
    addi a3, 1, ->a3
    setc.nei a3, 256
    BSTART COND, .Lbj_i
    addi a2, 1, ->a2
    setc.nei a2, 256
    C.BSTART.STD FALL
    hl.lis 0xd46c5cfc - (1 << 32), ->a2
    slli a2, 32, ->a2
    hl.liu 0x23400000, ->t
    or a2, t#1, ->a2
    BSTART.STD DIRECT, bench_finish
    hl.liu .Lname, ->a0
    c.movr s6, ->a1
    c.movr s5, ->a3

# tile_store_nz2nd(a0 = tile, a1 = gm): gm[i * 256 + j] = tile[nz(i, j)]
tile_store_nz2nd:
    C.BSTART.STD FALL
    addi zero, 0, ->a2               # i
.Lst_i:
    C.BSTART.STD FALL
    addi zero, 0, ->a3               # j
.Lst_j:
    BSTART COND, .Lst_j
    srli a3, 3, ->t
    slli t#1, 8, ->t
    add t#1, a2, ->t                 # (j >> 3) * 256 + i
    andi a3, 7, ->t
    add t#1, t#2<<3, ->t             # nz(i, j)
    lw [a0, t#1<<2], ->t
    sw t#1, [a1, a3<<2]
    addi a3, 1, ->a3
    setc.nei a3, 256
    BSTART COND, .Lst_i
    addi a2, 1, ->a2
    addi a1, 1024, ->a1              # next GM row
    setc.nei a2, 256
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

# tile_load_nd2nz(a0 = gm, a1 = tile): tile[nz(i, j)] = gm[i * 256 + j]
tile_load_nd2nz:
    C.BSTART.STD FALL
    addi zero, 0, ->a2               # i
.Lld_i:
    C.BSTART.STD FALL
    addi zero, 0, ->a3               # j
.Lld_j:
    BSTART COND, .Lld_j
    srli a3, 3, ->t
    slli t#1, 8, ->t
    add t#1, a2, ->t
    andi a3, 7, ->t
    add t#1, t#2<<3, ->t             # nz(i, j)
    lw [a0, a3<<2], ->t
    sw t#1, [a1, t#2<<2]
    addi a3, 1, ->a3
    setc.nei a3, 256
    BSTART COND, .Lld_i
    addi a2, 1, ->a2
    addi a0, 1024, ->a0              # next GM row
    setc.nei a2, 256
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

.Lname:
    .asciz "tile"

    .include "lib.s"
