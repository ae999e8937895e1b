# Kernel predication (docs/kernels.md "Predication"): 16 lanes, p = lc0 <
# 10 written by an l.* compare.  v.* instructions of inactive lanes push
# the merge value (the ring slot the push reuses: the old #4), their loads
# and stores do not access memory; an l.* instruction writing ->p turns
# the lane on again; B.Z skips code per lane.  out1[l] = the loaded value
# (or the merge value), out2[l] = the add result (or the merge value),
# out3[l] = a predicated store (sentinel kept for inactive lanes), out4[l]
# = 77 only for lanes that did not branch, out5[l] = v.psel.
    .equ N, 16
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc va, ->s0
    addi s0, va, ->s0
    addtpc out1, ->s1
    addi s1, out1, ->s1
    hl.lis 10, ->s2
    BSTART.MPAR VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    C.B.DIMI N, ->lb0
    C.BSTART.STD FALL
    lwi [s1, 12], ->a0          # out1[3]: a[3]
    lwi [s1, 48], ->a1          # out1[12]: merge = 2000 + 12
    lwi [s1, 76], ->a2          # out2[3]: 4000 + 3 + 5
    lwi [s1, 112], ->a3         # out2[12]: merge = 1000 + 12
    lwi [s1, 140], ->a4         # out3[3]: a[3]
    lwi [s1, 176], ->a5         # out3[12]: sentinel
    lwi [s1, 204], ->a6         # out4[3]: 77
    lwi [s1, 240], ->a7         # out4[12]: sentinel
%CHECK a0, 33
%CHECK a1, 2012
%CHECK a2, 4008
%CHECK a3, 1012
%CHECK a4, 33
%CHECK a5, 0x55555555
%CHECK a6, 77
%CHECK a7, 0x55555555
    C.BSTART.STD FALL
    lwi [s1, 268], ->a0         # out5[3]: p set -> lc0 (3)
    lwi [s1, 304], ->a1         # out5[12]: p clear -> merge (0)
%CHECK a0, 3
%CHECK a1, 0
%PASS

.body:
    v.addi lc0.ud, 1000, ->vt.d             # vt: 1000+l
    v.addi lc0.ud, 2000, ->vt.d             # vt: 2000+l 1000+l
    v.addi lc0.ud, 3000, ->vt.d
    v.addi lc0.ud, 4000, ->vt.d             # vt: 4000+l 3000+l 2000+l 1000+l
    v.cmp.ltu lc0.ud, ri2.ud, ->p           # l.*: p = l < 10
    v.addi vt#1.ud, 5, ->vt.d               # active 4005+l, else old #4 (1000+l)
    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w      # active a[l], else old #4 (2000+l)
    v.swi.brg vt#1.sw, [ri1, lc0<<2, 128]   # out3: active lanes only
    v.psel p, lc0.ud, ri2.ud, ->vu.d        # active: l (inactive: merge 0)
    b.z .skip
    v.addi zero.ud, 77, ->u.d               # l.*: u#1 = 77
    v.swi.brg u#1.sw, [ri1, lc0<<2, 192]    # out4 (l.*: not predicated)
.skip:
    v.ori zero.ud, 1, ->p                   # l.*: every lane active again
    v.swi.brg vu#1.sw, [ri1, lc0<<2, 256]   # out5
    v.swi.brg vt#1.sw, [ri1, lc0<<2, 0]     # out1
    v.swi.brg vt#2.sw, [ri1, lc0<<2, 64]    # out2
    C.BSTOP

    .data
    .p2align 4
va: .word 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45
out1: .zero 4 * N
out2: .zero 4 * N
out3: .fill N, 4, 0x55555555
out4: .fill N, 4, 0x55555555
out5: .zero 4 * N
    .text                           # gtest.py's stubs follow
