# Atomics: LR/SC of every size (a matching SC stores and returns 0, an SC
# without a reservation returns 1 and stores nothing), fetch-and-op and
# store-op of 32 and 64 bits with the signed/unsigned min/max, SWAP and the
# 48-bit CAS.  Old values come back sign-extended from the access size.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x80000000, ->a0
    hl.lis -2, ->a1
    sdi a1, [a0, 0]               # [a0] = 0xffff...fffe
    lr.b [a0], ->s0
    hl.lis 0x11, ->a2
    sc.b a2, [a0], ->s1
    lr.h [a0], ->s2
    sc.h a2, [a0], ->s3
    ldi [a0, 0], ->s4
%CHECK s0, -2
%CHECK s1, 0
%CHECK s2, 0xffffffffffffff11
%CHECK s3, 0
%CHECK s4, 0xffffffffffff0011
    lr.w [a0], ->s0
    sc.w a2, [a0], ->s1
    sc.w a1, [a0], ->s2           # no reservation any more
    lr.d [a0], ->s3
    sc.d a1, [a0], ->s4
    ldi [a0, 0], ->s5
%CHECK s0, 0xffffffffffff0011
%CHECK s1, 0
%CHECK s2, 1
%CHECK s3, 0xffffffff00000011
%CHECK s4, 0
%CHECK s5, -2
    addi a0, 8, ->a3
    lr.d [a0], ->s0
    sc.d a2, [a3], ->s1           # another address: fails
    ldi [a0, 8], ->s2
%CHECK s1, 1
%CHECK s2, 0
# 32-bit fetch-and-op on [a0+16] (starts 0)
    addi a0, 16, ->a3
    hl.lis 0x7fffffff, ->a4
    lw.add [a3], a4, ->s0
    lw.add [a3], a2, ->s1         # 0x7fffffff + 0x11 wraps the word
    lw.and [a3], a1, ->s2
    lw.or [a3], a2, ->s3
    lw.xor [a3], a1, ->s4
    lwi [a3, 0], ->s5
%CHECK s0, 0
%CHECK s1, 0x7fffffff
%CHECK s2, 0xffffffff80000010
%CHECK s3, 0xffffffff80000010
%CHECK s4, 0xffffffff80000011
%CHECK s5, 0x7fffffef
    lw.smax [a3], a1, ->s0        # max(0x7fffffef, -2)
    lw.smin [a3], a1, ->s1        # min(0x7fffffef, -2) = -2
    lw.umax [a3], a2, ->s2        # max(0xfffffffe, 0x11) unsigned
    lw.umin [a3], a2, ->s3        # -> 0x11
    lwi [a3, 0], ->s4
%CHECK s0, 0x7fffffef
%CHECK s1, 0x7fffffef
%CHECK s2, -2
%CHECK s3, -2
%CHECK s4, 0x11
# 64-bit fetch-and-op on [a0+24]
    addi a0, 24, ->a3
    ld.add [a3], a1, ->s0
    ld.and [a3], a4, ->s1
    ld.or [a3], a2, ->s2
    ld.xor [a3], a4, ->s3
    ldi [a3, 0], ->s4
%CHECK s0, 0
%CHECK s1, -2
%CHECK s2, 0x7ffffffe
%CHECK s3, 0x7fffffff
%CHECK s4, 0
    ld.smax [a3], a1, ->s0
    ld.smin [a3], a1, ->s1
    ld.umax [a3], a1, ->s2
    ld.umin [a3], a2, ->s3
    ldi [a3, 0], ->s4
%CHECK s0, 0
%CHECK s1, 0
%CHECK s2, -2
%CHECK s3, -2
%CHECK s4, 0x11
# store-op forms (no result)
    addi a0, 32, ->a3
    sw.add [a3], a4
    sw.add [a3], a4
    sw.and [a3], a1
    sw.or [a3], a2
    sw.xor [a3], a2
    lwi [a3, 0], ->s0
    sw.smax [a3], a2
    lwi [a3, 0], ->s1
    sw.smin [a3], a1
    lwi [a3, 0], ->s2
    sw.umax [a3], a2
    lwi [a3, 0], ->s3
    sw.umin [a3], a2
    lwi [a3, 0], ->s4
%CHECK s0, -18
%CHECK s1, 0x11
%CHECK s2, -2
%CHECK s3, -2
%CHECK s4, 0x11
    addi a0, 40, ->a3
    sd.add [a3], a1
    sd.and [a3], a4
    sd.or [a3], a2
    sd.xor [a3], a2
    ldi [a3, 0], ->s0
    sd.smax [a3], a1
    sd.smin [a3], a1
    ldi [a3, 0], ->s1
    sd.umax [a3], a1
    sd.umin [a3], a2
    ldi [a3, 0], ->s2
%CHECK s0, 0x7fffffee
%CHECK s1, -2
%CHECK s2, 0x11
# swaps
    addi a0, 48, ->a3
    sdi a1, [a3, 0]
    swapb [a3], a2, ->s0
    swaph [a3], a2, ->s1
    swapw [a3], a2, ->s2
    swapd [a3], a4, ->s3
    ldi [a3, 0], ->s4
%CHECK s0, -2
%CHECK s1, 0xffffffffffffff11
%CHECK s2, 0xffffffffffff0011
%CHECK s3, 0xffffffff00000011
%CHECK s4, 0x7fffffff
# compare-and-swap: [SrcL], SrcR expected, SrcD new, -> old
    addi a0, 56, ->a3
    sdi a1, [a3, 0]
    hl.casb [a3], a1, a2, ->s0    # low byte 0xfe matches: store 0x11
    hl.casb [a3], a1, a4, ->s1    # 0x11 != 0xfe: no store
    hl.cash [a3], a1, a2, ->s2    # 0xff11 != 0xfffe
    ldi [a3, 0], ->s3
%CHECK s0, -2
%CHECK s1, 0x11
%CHECK s2, 0xffffffffffffff11
%CHECK s3, 0xffffffffffffff11
    hl.lis -239, ->a5
    hl.casw [a3], a5, a2, ->s0
    hl.casd [a3], a5, a4, ->s1    # 0xffffffff00000011 != a5
    hl.liu 0xffffffff, ->a6
    slli a6, 32, ->a6
    or a6, a2, ->a6
    hl.casd [a3], a6, a4, ->s2
    ldi [a3, 0], ->s3
%CHECK s0, 0xffffffffffffff11
%CHECK s1, 0xffffffff00000011
%CHECK s2, 0xffffffff00000011
%CHECK s3, 0x7fffffff
%PASS
