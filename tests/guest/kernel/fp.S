# Kernel floating point through the fpu library: integer -> fp32, fused
# multiply-add, square root, exp, compare, fp32 -> fp16, maximumNumber with
# a NaN, divide by zero, fp32 -> int (toward zero).  Four lanes, x = lc0;
# lane l stores result k at out[k * 4 + l] (32-bit).  Expected bits are
# IEEE results rounded to nearest even (worked out with Python's struct).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc out, ->s0
    addi s0, out, ->s0
    hl.lis 0x3fc00000, ->s1      # 1.5f
    hl.lis 0x3e800000, ->s2      # 0.25f
    hl.lis 0x7fc00001, ->s3      # a quiet NaN (not the default one)
    BSTART.MPAR VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    B.IOR [s3],[]
    C.B.DIMI 4, ->lb0
    C.BSTART.STD FALL
    lwi [s0, 12], ->a0          # X(3) = 3.0f
    lwi [s0, 28], ->a1          # Y(3) = 3 * 1.5 + 0.25
    lwi [s0, 40], ->a2          # S(2) = sqrt(3.25)
    lwi [s0, 52], ->a3          # E(1) = exp(1)
    lwi [s0, 68], ->a4          # C(1) = 1 < 1.5
    lwi [s0, 72], ->a5          # C(2)
    lwi [s0, 92], ->a6          # H(3) = fp16(4.75)
    lwi [s0, 108], ->a7         # M(3) = max(3, NaN) = 3
%CHECK a0, 0x40400000
%CHECK a1, 0x40980000
%CHECK a2, 0x3fe6c15a
%CHECK a3, 0x402df854
%CHECK a4, 1
%CHECK a5, 0
%CHECK a6, 0x44c0
%CHECK a7, 0x40400000
    C.BSTART.STD FALL
    lwi [s0, 112], ->a0         # D(0) = 0 / 0: the default NaN
    lwi [s0, 116], ->a1         # D(1) = 1 / 0 = +inf
    lwi [s0, 140], ->a2         # I(3) = (int)4.75 = 4
    lwi [s0, 136], ->a3         # I(2) = (int)3.25 = 3
%CHECK a0, 0x7fc00000
%CHECK a1, 0x7f800000
%CHECK a2, 4
%CHECK a3, 3
%PASS

.body:
    v.icvtf.ud2fs lc0.ud, ->vt.w                    # X
    v.swi.brg vt#1.uw, [ri0, lc0<<2, 0]
    v.fmadd vt#1.fs, ri1.fs, ri2.fs, ->vt.w         # Y         vt: Y X
    v.swi.brg vt#1.uw, [ri0, lc0<<2, 16]
    v.fsqrt vt#1.fs, ->vu.w                         # S
    v.swi.brg vu#1.uw, [ri0, lc0<<2, 32]
    v.fexp vt#2.fs, ->vu.w                          # E
    v.swi.brg vu#1.uw, [ri0, lc0<<2, 48]
    v.flt vt#2.fs, ri1.fs, ->vu.w                   # C
    v.swi.brg vu#1.uw, [ri0, lc0<<2, 64]
    v.fcvt.fs2dt4 vt#1.fs, ->vu.h                   # H (fp16 bits)
    v.swi.brg vu#1.uw, [ri0, lc0<<2, 80]
    v.fmax vt#2.fs, ri3.fs, ->vu.w                  # M
    v.swi.brg vu#1.uw, [ri0, lc0<<2, 96]
    v.fdiv vt#2.fs, zero.fs, ->vu.w                 # D
    v.swi.brg vu#1.uw, [ri0, lc0<<2, 112]
    v.fcvti.fs2sw vt#1.fs, ->vu.w                   # I
    v.swi.brg vu#1.uw, [ri0, lc0<<2, 128]
    C.BSTOP

    .data
    .p2align 4
out: .zero 4 * 4 * 9
    .text                           # gtest.py's stubs follow
