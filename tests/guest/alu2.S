# Multiply/divide (the ISA's defined results for x/0 and MIN/-1), min/max,
# CSEL (linx-toolchain: p != 0 ? SrcR : SrcL, docs/decisions.md; the v0.4
# polarity is checked by profile_v04.S), the bitfield group on the 64-bit ring (BXU/BXS/CLZ/CTZ/BCNT/BIC/
# BIS/REV), register compares, the 48-bit two-destination forms and
# HL.CCAT.  Expected values from semantics_conventions.json.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis -3, ->a0
    hl.lis 7, ->a1
    hl.lis 0, ->a2
    hl.lis -1, ->a3
    hl.lis 1, ->a4
    slli a4, 63, ->a4              # a4 = INT64_MIN
    hl.liu 0x80000000, ->a5        # low word INT32_MIN
    mul a0, a1, ->s0
    mulu a3, a3, ->s1
    mulw a5, a1, ->s2
    muluw a3, a3, ->s3
    madd a0, a1, a1, ->s4
    maddw a5, a3, a1, ->s5
%CHECK s0, -21
%CHECK s1, 1
%CHECK s2, 0xffffffff80000000
%CHECK s3, 1
%CHECK s4, -14
%CHECK s5, 0xffffffff80000007
    div a0, a1, ->s0
    rem a0, a1, ->s1
    div a1, a2, ->s2
    rem a1, a2, ->s3
    div a4, a3, ->s4
    rem a4, a3, ->s5
%CHECK s0, 0
%CHECK s1, -3
%CHECK s2, 0
%CHECK s3, 7
%CHECK s4, 0x8000000000000000
%CHECK s5, 0
    divu a3, a1, ->s0
    remu a3, a1, ->s1
    divu a1, a2, ->s2
    remu a1, a2, ->s3
%CHECK s0, 0x2492492492492492
%CHECK s1, 1
%CHECK s2, 0
%CHECK s3, 7
    divw a5, a3, ->s0
    remw a5, a3, ->s1
    divw a0, a2, ->s2
    remw a0, a2, ->s3
    divuw a3, a1, ->s4
    remuw a3, a1, ->s5
%CHECK s0, 0xffffffff80000000
%CHECK s1, 0
%CHECK s2, 0
%CHECK s3, -3
%CHECK s4, 0x24924924
%CHECK s5, 3
    hl.mul a3, a3, ->s0, s1
    hl.mulu a3, a3, ->s2, s3
    hl.madd a4, a3, a1, ->s4, s5
%CHECK s0, 1
%CHECK s1, 0
%CHECK s2, 1
%CHECK s3, 0xfffffffffffffffe
%CHECK s4, 0x8000000000000007
%CHECK s5, 0
    hl.maddw a5, a3, a0, ->s0, s1
%CHECK s0, 0x7ffffffd
%CHECK s1, 0
    hl.div a0, a1, ->s0, s1
    hl.divu a1, a2, ->s2, s3
    hl.divw a5, a3, ->s4, s5
%CHECK s0, 0
%CHECK s1, -3
%CHECK s2, 0
%CHECK s3, 7
%CHECK s4, 0xffffffff80000000
%CHECK s5, 0
    hl.divuw a3, a1, ->s0, s1
    hl.rem a4, a3, ->s2, s3
    hl.remu a3, a2, ->s4, s5
%CHECK s0, 0x24924924
%CHECK s1, 3
%CHECK s2, 0x8000000000000000
%CHECK s3, 0
%CHECK s4, 0
%CHECK s5, -1
    hl.remw a0, a1, ->s0, s1
    hl.remuw a1, a1, ->s2, s3
%CHECK s0, 0
%CHECK s1, -3
%CHECK s2, 1
%CHECK s3, 0
# min/max and select
    max a0, a1, ->s0
    maxu a0, a1, ->s1
    min a0, a1, ->s2
    minu a0, a1, ->s3
    csel a1, a0, a2, ->s4
    csel a2, a0, a1.neg, ->s5
    csel a1, a0, a1.neg, ->s6
%CHECK s0, 7
%CHECK s1, -3
%CHECK s2, -3
%CHECK s3, 7
%CHECK s4, 0
%CHECK s5, -3
%CHECK s6, -7
# compares apply .neg under linx-toolchain (LinxCore exec_uop.py)
    hl.lis 3, ->s7
    cmp.eq a0, s7.neg, ->s0
    cmp.lt a0, a0.neg, ->s1
%CHECK s0, 1
%CHECK s1, 1
# bitfields: field = ROR64(SrcL, M) & mask(N)
    hl.liu 0x89abcdef, ->a6
    bxu a6, 4, 7, ->s0
    bxs a6, 28, 3, ->s1
    bxu a6, 60, 7, ->s2
    bxu a6, 8, 63, ->s3
    clz a6, 0, 31, ->s4
    ctz a6, 4, 31, ->s5
%CHECK s0, 0xde
%CHECK s1, -8
%CHECK s2, 0xf0
%CHECK s3, 0xef0000000089abcd
%CHECK s4, 0
%CHECK s5, 1
    clz a2, 0, 15, ->s0
    ctz a2, 0, 63, ->s1
    bcnt a6, 0, 31, ->s2
    bcnt a3, 10, 9, ->s3
    clz a1, 0, 63, ->s4
    ctz a4, 0, 63, ->s5
%CHECK s0, 16
%CHECK s1, 64
%CHECK s2, 20
%CHECK s3, 10
%CHECK s4, 61
%CHECK s5, 63
    bic a6, 4, 7, ->s0
    bis a2, 62, 3, ->s1
    rev a6, 0, 31, ->s2
    rev a6, 8, 15, ->s3
    rev a6, 0, 11, ->s4
%CHECK s0, 0x89abc00f
%CHECK s1, 0xc000000000000003
%CHECK s2, 0xefcdab89
%CHECK s3, 0xcdab
%CHECK s4, 0
# concatenation: {SrcL:SrcR} << shamt, RegDst0 low, RegDst1 high
    hl.lis 0x12345678, ->a6
    hl.ccat a6, a3, 4, ->s0, s1
    hl.ccat a6, a4, 68, ->s2, s3
    hl.ccatw a6, a6, 8, ->s4, s5
%CHECK s0, 0xfffffffffffffff0
%CHECK s1, 0x012345678f
%CHECK s2, 0x123456788
%CHECK s3, 0
%CHECK s4, 0x34567812
%CHECK s5, 0x34567812
# register compares (SrcRType 11 = no modifier for EQ..GEU)
    cmp.eq a0, a0, ->s0
    cmp.ne a0, a1, ->s1
    cmp.lt a0, a1, ->s2
    cmp.ge a0, a1, ->s3
    cmp.ltu a0, a1, ->s4
    cmp.geu a0, a1, ->s5
%CHECK s0, 1
%CHECK s1, 1
%CHECK s2, 1
%CHECK s3, 0
%CHECK s4, 0
%CHECK s5, 1
    cmp.and a0, a1, ->s0
    cmp.and a0, a1.not, ->s1
    cmp.or a2, a2, ->s2
    cmp.eq a5, a3.sw, ->s3
    cmp.eq a3, a5.uw, ->s4
    cmp.lt a2, a3.uw, ->s5
%CHECK s0, 1
%CHECK s1, 1
%CHECK s2, 0
%CHECK s3, 0
%CHECK s4, 0
%CHECK s5, 1
    cmp.eqi a0, -3, ->s0
    cmp.nei a0, -3, ->s1
    cmp.lti a0, -2, ->s2
    cmp.gei a1, 8, ->s3
    cmp.ltui a0, 4095, ->s4
    cmp.geui a1, 7, ->s5
%CHECK s0, 1
%CHECK s1, 0
%CHECK s2, 1
%CHECK s3, 0
%CHECK s4, 0
%CHECK s5, 1
    cmp.andi a1, 8, ->s0
    cmp.ori a2, 0, ->s1
    hl.cmp.eqi a6, 0x345678, ->s2
    hl.cmp.nei a6, 0x345678, ->s3
    hl.cmp.lti a0, -8388608, ->s4
    hl.cmp.gei a0, -8388608, ->s5
%CHECK s0, 0
%CHECK s1, 0
%CHECK s2, 0
%CHECK s3, 1
%CHECK s4, 0
%CHECK s5, 1
    hl.cmp.ltui a1, 0xffffff, ->s0
    hl.cmp.geui a3, 0xffffff, ->s1
    hl.cmp.andi a6, -8388608, ->s2
    hl.cmp.ori a2, -1, ->s3
%CHECK s0, 1
%CHECK s1, 1
%CHECK s2, 1
%CHECK s3, 1
%PASS
