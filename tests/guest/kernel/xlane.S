# Cross-lane kernel instructions (docs/kernels.md "Phases"): two groups
# (LB1 = 2) of 8 lanes (LB0); per group a reduction to a scalar hand
# (v.rdadd), a predicated one (v.rdmax over lanes 0..4 only), a shuffle up
# by one within segments of 4 lanes, and a butterfly with mask 3.  Lane
# state (the group offset in vu#1, the loaded value in vt) survives the
# phases.  a[g][l] = (l + 1) * (g ? 10 : 1).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc a, ->s0
    addi s0, a, ->s0
    addtpc osum, ->s1
    addi s1, osum, ->s1
    hl.lis 5, ->s2
    addtpc omax, ->s3
    addi s3, omax, ->s3
    hl.lis 1, ->s4
    addtpc oshfl, ->s5
    addi s5, oshfl, ->s5
    addtpc obfly, ->s6
    addi s6, obfly, ->s6
    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.IOR [s3, s4, s5],[]
    B.IOR [s6],[]
    C.B.DIMI 8, ->lb0
    C.B.DIMI 2, ->lb1
    C.BSTART.STD FALL
    lwi [s1, 0], ->a0           # sum, group 0
    lwi [s1, 44], ->a1          # sum, group 1, lane 3
    lwi [s3, 28], ->a2          # max of lanes 0..4, group 0 (seen by lane 7)
    lwi [s3, 32], ->a3          # group 1, lane 0
    lwi [s5, 16], ->a4          # shuffle up, group 0, lane 4: its own value
    lwi [s5, 20], ->a5          # lane 5: lane 4's
    lwi [s5, 44], ->a6          # group 1, lane 3: lane 2's
    lwi [s6, 0], ->a7           # butterfly, group 0, lane 0: lane 3's
%CHECK a0, 36
%CHECK a1, 360
%CHECK a2, 5
%CHECK a3, 50
%CHECK a4, 5
%CHECK a5, 5
%CHECK a6, 30
%CHECK a7, 4
    C.BSTART.STD FALL
    lwi [s6, 52], ->a0          # butterfly, group 1, lane 5: lane 6's
%CHECK a0, 70
%PASS

.body:
    v.slli lc1.ud, 5, ->vu.d                    # group offset (bytes)
    v.lw.brg [ri0, lc0<<2, vu#1.ud], ->vt.w     # a[g][l]
    v.rdadd vt#1.sw, ->t.d                      # ---- phase
    v.sw.u.brg t#1.sw, [ri1, lc0<<2, vu#1.ud]
    v.cmp.lt lc0.ud, ri2.ud, ->p                # lanes 0..4
    v.rdmax vt#1.sw, ->u.d                      # ---- phase
    v.ori zero.ud, 1, ->p
    v.sw.u.brg u#1.sw, [ri3, lc0<<2, vu#1.ud]
    v.shfli.up vt#1.sw, ri4.ud, 4, ->vt.w       # ---- phase
    v.sw.u.brg vt#1.sw, [ri5, lc0<<2, vu#1.ud]
    v.shfli.bfly vt#2.sw, 3, ->vt.w             # ---- phase
    v.sw.u.brg vt#1.sw, [ri6, lc0<<2, vu#1.ud]
    C.BSTOP

    .data
    .p2align 4
a: .word 1, 2, 3, 4, 5, 6, 7, 8, 10, 20, 30, 40, 50, 60, 70, 80
osum: .zero 64
omax: .zero 64
oshfl: .zero 64
obfly: .zero 64
    .text                           # gtest.py's stubs follow
