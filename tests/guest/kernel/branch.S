# Branches inside a kernel body: every lane loops over i = 0..l with its
# scalar hands (t#1 = i, t#2 = sum, u#1 = l) and B.GEU, so lanes take
# different numbers of iterations; a forward B.EQ skips a store, a J jumps
# to the terminator (the lane ends).  out[l] = l * (l + 1) / 2, odd[l] = 1
# for odd lanes only.
    .equ N, 8
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc out, ->s0
    addi s0, out, ->s0
    BSTART.MSEQ VS8
    B.TEXT .body
    B.IOR [s0],[]
    C.B.DIMI N, ->lb0
    C.BSTART.STD FALL
    lwi [s0, 0], ->a0
    lwi [s0, 12], ->a1
    lwi [s0, 28], ->a2
    lwi [s0, 32], ->a3          # odd[0]
    lwi [s0, 36], ->a4          # odd[1]
    lwi [s0, 60], ->a5          # odd[7]
%CHECK a0, 0
%CHECK a1, 6
%CHECK a2, 28
%CHECK a3, 0
%CHECK a4, 1
%CHECK a5, 1
%PASS

.body:
    v.add lc0.ud, zero.ud, ->u.d            # u#1 = l
    v.addi zero.ud, 0, ->t.d                # sum
    v.addi zero.ud, 0, ->t.d                # i          t: i sum
.loop:
    v.add t#2.ud, t#1.ud, ->t.d             # t: sum+i i sum
    v.addi t#2.ud, 1, ->t.d                 # t: i+1 sum+i i sum
    b.geu u#1, t#1, .loop                   # while l >= i+1
    v.swi.brg t#2.sw, [ri0, lc0<<2, 0]
    v.andi lc0.ud, 1, ->t.d
    b.eq t#1, zero, .even
    v.swi.brg t#1.sw, [ri0, lc0<<2, 32]
    j .end
.even:
    v.addi zero.ud, 0, ->t.d
.end:
    C.BSTOP

    .data
    .p2align 4
out: .zero 4 * 2 * N
    .text                           # gtest.py's stubs follow
