# TLOAD / TSTORE round trips through every layout pair, in both header
# styles (shared/docs/decisions.md 2-3): v0.4 (B.ARG, B.IOR [stride, base],
# B.IOTI) with FP32, and seed 000's templates (B.DATR, [base, stride],
# pad Zero, B.IOT without a size) with FP16.  Each case loads a 13 x 21
# window (rows x columns; for DN memory the GM lines are the 21 columns)
# of a matrix with a 40-element GM pitch into a 32-column tile, stores it
# back at dst with a 48-element pitch, and checks that the window came
# back and that the bytes between GM lines kept their sentinel.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc src, ->s0
    addi s0, src, ->s0
    addtpc dst, ->s1
    addi s1, dst, ->s1
    hl.lis 0xee, ->s2
    hl.lis 16384, ->s3
    BSTART.STD CALL, tile_fill
    c.setret 1f, ->ra
    c.movr s0, ->a0
    hl.lis 16384, ->a1
    addi zero, 5, ->a2
1:

# FP32 ND2NZ / NZ2ND (v0.4 header)
    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 160, ->s4
    hl.lis 192, ->s5
    BSTART.TMA TLOAD, FP32
    B.ARG ND2NZ
    C.B.DIMI 21, ->lb0
    C.B.DIMI 13, ->lb1
    C.B.DIMI 32, ->lb2
    B.IOR [s4, s0],[]
    B.IOTI [], last ->t<4KB>
    BSTART.TMA TSTORE, FP32
    B.ARG ND2NZ
    C.B.DIMI 21, ->lb0
    C.B.DIMI 13, ->lb1
    C.B.DIMI 32, ->lb2
    B.IOR [s5, s1],[]
    B.IOTI [t#1], last ->t<4KB>
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    addi zero, 84, ->a2
    addi zero, 13, ->a3
    c.movr s4, ->a4
    c.movr s5, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    addi s1, 84, ->a0
    addi zero, 108, ->a1
    c.movr s2, ->a2
    addi zero, 13, ->a3
    c.movr s5, ->a4
1:
%CHECK a0, 0

# FP32 ND2ZN / ZN2ND (v0.4 header)
    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 160, ->s4
    hl.lis 192, ->s5
    BSTART.TMA TLOAD, FP32
    B.ARG ND2ZN
    C.B.DIMI 21, ->lb0
    C.B.DIMI 13, ->lb1
    C.B.DIMI 32, ->lb2
    B.IOR [s4, s0],[]
    B.IOTI [], last ->t<4KB>
    BSTART.TMA TSTORE, FP32
    B.ARG ND2ZN
    C.B.DIMI 21, ->lb0
    C.B.DIMI 13, ->lb1
    C.B.DIMI 32, ->lb2
    B.IOR [s5, s1],[]
    B.IOTI [t#1], last ->t<4KB>
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    addi zero, 84, ->a2
    addi zero, 13, ->a3
    c.movr s4, ->a4
    c.movr s5, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    addi s1, 84, ->a0
    addi zero, 108, ->a1
    c.movr s2, ->a2
    addi zero, 13, ->a3
    c.movr s5, ->a4
1:
%CHECK a0, 0

# FP32 DN2NZ / NZ2DN (v0.4 header)
    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 160, ->s4
    hl.lis 192, ->s5
    BSTART.TMA TLOAD, FP32
    B.ARG DN2NZ
    C.B.DIMI 13, ->lb0
    C.B.DIMI 21, ->lb1
    C.B.DIMI 32, ->lb2
    B.IOR [s4, s0],[]
    B.IOTI [], last ->t<4KB>
    BSTART.TMA TSTORE, FP32
    B.ARG DN2NZ
    C.B.DIMI 13, ->lb0
    C.B.DIMI 21, ->lb1
    C.B.DIMI 32, ->lb2
    B.IOR [s5, s1],[]
    B.IOTI [t#1], last ->t<4KB>
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    addi zero, 52, ->a2
    addi zero, 21, ->a3
    c.movr s4, ->a4
    c.movr s5, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    addi s1, 52, ->a0
    addi zero, 140, ->a1
    c.movr s2, ->a2
    addi zero, 21, ->a3
    c.movr s5, ->a4
1:
%CHECK a0, 0

# FP32 DN2ZN / ZN2DN (v0.4 header)
    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 160, ->s4
    hl.lis 192, ->s5
    BSTART.TMA TLOAD, FP32
    B.ARG DN2ZN
    C.B.DIMI 13, ->lb0
    C.B.DIMI 21, ->lb1
    C.B.DIMI 32, ->lb2
    B.IOR [s4, s0],[]
    B.IOTI [], last ->t<4KB>
    BSTART.TMA TSTORE, FP32
    B.ARG DN2ZN
    C.B.DIMI 13, ->lb0
    C.B.DIMI 21, ->lb1
    C.B.DIMI 32, ->lb2
    B.IOR [s5, s1],[]
    B.IOTI [t#1], last ->t<4KB>
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    addi zero, 52, ->a2
    addi zero, 21, ->a3
    c.movr s4, ->a4
    c.movr s5, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    addi s1, 52, ->a0
    addi zero, 140, ->a1
    c.movr s2, ->a2
    addi zero, 21, ->a3
    c.movr s5, ->a4
1:
%CHECK a0, 0

# FP16 ND2NZ / NZ2ND (seed 000 syntax)
    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 80, ->s4
    hl.lis 96, ->s5
    TLOAD.ND2NZ <LB0:21, LB1:13, LB2:32, FP16, Zero>, [s0, s4], ->T<4KB>
    TSTORE.NZ2ND <LB0:21, LB1:13, LB2:32, FP16>, T#1, [s1, s5]
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    addi zero, 42, ->a2
    addi zero, 13, ->a3
    c.movr s4, ->a4
    c.movr s5, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    addi s1, 42, ->a0
    addi zero, 54, ->a1
    c.movr s2, ->a2
    addi zero, 13, ->a3
    c.movr s5, ->a4
1:
%CHECK a0, 0

# FP16 ND2ZN / ZN2ND (seed 000 syntax)
    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 80, ->s4
    hl.lis 96, ->s5
    TLOAD.ND2ZN <LB0:21, LB1:13, LB2:32, FP16, Zero>, [s0, s4], ->T<4KB>
    TSTORE.ZN2ND <LB0:21, LB1:13, LB2:32, FP16>, T#1, [s1, s5]
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    addi zero, 42, ->a2
    addi zero, 13, ->a3
    c.movr s4, ->a4
    c.movr s5, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    addi s1, 42, ->a0
    addi zero, 54, ->a1
    c.movr s2, ->a2
    addi zero, 13, ->a3
    c.movr s5, ->a4
1:
%CHECK a0, 0

# FP16 DN2NZ / NZ2DN (seed 000 syntax)
    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 80, ->s4
    hl.lis 96, ->s5
    TLOAD.DN2NZ <LB0:13, LB1:21, LB2:32, FP16, Zero>, [s0, s4], ->T<4KB>
    TSTORE.NZ2DN <LB0:13, LB1:21, LB2:32, FP16>, T#1, [s1, s5]
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    addi zero, 26, ->a2
    addi zero, 21, ->a3
    c.movr s4, ->a4
    c.movr s5, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    addi s1, 26, ->a0
    addi zero, 70, ->a1
    c.movr s2, ->a2
    addi zero, 21, ->a3
    c.movr s5, ->a4
1:
%CHECK a0, 0

# FP16 DN2ZN / ZN2DN (seed 000 syntax)
    MSET [s1, s2, s3]
    C.BSTART.STD FALL
    hl.lis 80, ->s4
    hl.lis 96, ->s5
    TLOAD.DN2ZN <LB0:13, LB1:21, LB2:32, FP16, Zero>, [s0, s4], ->T<4KB>
    TSTORE.ZN2DN <LB0:13, LB1:21, LB2:32, FP16>, T#1, [s1, s5]
    BSTART.STD CALL, tile_cmp
    c.setret 1f, ->ra
    c.movr s0, ->a0
    c.movr s1, ->a1
    addi zero, 26, ->a2
    addi zero, 21, ->a3
    c.movr s4, ->a4
    c.movr s5, ->a5
1:
%CHECK a0, 0
    BSTART.STD CALL, tile_count
    c.setret 1f, ->ra
    addi s1, 26, ->a0
    addi zero, 70, ->a1
    c.movr s2, ->a2
    addi zero, 21, ->a3
    c.movr s5, ->a4
1:
%CHECK a0, 0
%PASS

    .include "lib.inc"

    .bss
    .p2align 6
src:
    .zero 16384
dst:
    .zero 16384
    .text                           # gtest.py's stubs follow
