# Scalar floating point: arithmetic in both formats and the rounding modes
# (FCSR.RM through SSR 0x2), the sticky flags, FMA family, compares with
# NaN and signed zeros (ordered; the S forms signal NV on any NaN),
# maxNum/minNum, FABS/FSQRT/FRECIP/FEXP and every conversion.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x3ff80000, ->a0
    slli a0, 32, ->a0              # 1.5
    hl.liu 0x40020000, ->a1
    slli a1, 32, ->a1              # 2.25
    hl.liu 0x3fc00000, ->a2        # 1.5f
    hl.liu 0x40100000, ->a3        # 2.25f
    ssrset zero, 2                 # FCSR = 0: RNE, no flags
    fadd.fd a0, a1, ->s0
    fsub.fd a0, a1, ->s1
    fmul.fd a0, a1, ->s2
    fdiv.fd a0, a1, ->s3
    fadd.fs a2, a3, ->s4
    fdiv.fs a2, a3, ->s5
%CHECK s0, 0x400e000000000000
%CHECK s1, 0xbfe8000000000000
%CHECK s2, 0x400b000000000000
%CHECK s3, 0x3fe5555555555555
%CHECK s4, 0x40700000
%CHECK s5, 0x3f2aaaab
    ssrget 2, ->s0
%CHECK s0, 1
# rounding modes: 2/3 rounds down under RNE, up under RUP
    hl.lis 0x200, ->a4             # RM = RUP
    ssrset a4, 2
    fdiv.fd a0, a1, ->s0
    hl.lis 0x300, ->a4             # RM = RTZ
    ssrset a4, 2
    fdiv.fd a0, a1, ->s1
    hl.lis 0x100, ->a4             # RM = RDN
    ssrset a4, 2
    fsub.fd zero, zero, ->s2       # +0 - +0 = -0 under RDN
    ssrset zero, 2
    fsub.fd zero, zero, ->s3
%CHECK s0, 0x3fe5555555555556
%CHECK s1, 0x3fe5555555555555
%CHECK s2, 0x8000000000000000
%CHECK s3, 0
# special values and flags
    fdiv.fd a0, zero, ->s0         # +inf, DZ
    ssrget 2, ->s1
    ssrset zero, 2
    fdiv.fd zero, zero, ->s2       # default NaN, NV
    ssrget 2, ->s3
%CHECK s0, 0x7ff0000000000000
%CHECK s1, 0x8
%CHECK s2, 0x7ff8000000000000
%CHECK s3, 0x10
# FMA family: 1.5 * 2.25 (+/-) 3.75
    hl.liu 0x400e0000, ->a5
    slli a5, 32, ->a5              # 3.75
    fmadd.fd a0, a1, a5, ->s0
    fmsub.fd a0, a1, a5, ->s1
    fnmadd.fd a0, a1, a5, ->s2
    fnmsub.fd a0, a1, a5, ->s3
%CHECK s0, 0x401c800000000000
%CHECK s1, 0xbfd8000000000000
%CHECK s2, 0xc01c800000000000
%CHECK s3, 0x3fd8000000000000
# unary
    hl.liu 0x40100000, ->a6
    slli a6, 32, ->a6              # 4.0
    hl.lis -1, ->a7
    srli a7, 12, ->a7
    hl.liu 0x7ff80000, ->t
    slli t#1, 32, ->t
    or t#1, a7, ->a7               # a quiet NaN with a payload
    fabs.fd s2, ->s0
    fsqrt.fd a6, ->s1
    frecip.fd a6, ->s2
    fexp.fd zero, ->s3
    fabs.fs a3, ->s4
%CHECK s0, 0x401c800000000000
%CHECK s1, 0x4000000000000000
%CHECK s2, 0x3fd0000000000000
%CHECK s3, 0x3ff0000000000000
%CHECK s4, 0x40100000
# compares: ordered, NaN gives 0 (also for FNE)
    ssrset zero, 2
    feq.fd a0, a0, ->s0
    fne.fd a0, a1, ->s1
    flt.fd a0, a1, ->s2
    fge.fd a0, a1, ->s3
    fne.fd a0, a7, ->s4
    ssrget 2, ->s5
%CHECK s0, 1
%CHECK s1, 1
%CHECK s2, 1
%CHECK s3, 0
%CHECK s4, 0
%CHECK s5, 0
    feqs.fd a0, a7, ->s0
    ssrget 2, ->s1
    hl.liu 0x80000000, ->a4
    slli a4, 32, ->a4              # -0.0
    feq.fd a4, zero, ->s2
    fnes.fd a0, a1, ->s3
    flts.fs a3, a2, ->s4
    fges.fs a3, a2, ->s5
%CHECK s0, 0
%CHECK s1, 0x10
%CHECK s2, 1
%CHECK s3, 1
%CHECK s4, 0
%CHECK s5, 1
# maxNum/minNum
    fmax.fd a0, a7, ->s0           # NaN loses
    fmin.fd a7, a1, ->s1
    fmax.fd a4, zero, ->s2         # +0 > -0
    fmin.fd zero, a4, ->s3
    fmax.fs a2, a3, ->s4
    fmin.fs a2, a3, ->s5
%CHECK s0, 0x3ff8000000000000
%CHECK s1, 0x4002000000000000
%CHECK s2, 0
%CHECK s3, 0x8000000000000000
%CHECK s4, 0x40100000
%CHECK s5, 0x3fc00000
# conversions: FCVT float<->float, FCVT[AMNPZ] float->int, SCVTF/UCVTF
    ssrset zero, 2
    hl.liu 0x3fb99999, ->a4
    slli a4, 32, ->a4
    hl.liu 0x9999999a, ->a5
    or a4, a5, ->a4                # 0.1
    fcvt.fd2fs a4, ->s0
    fcvt.fs2fd a2, ->s1
%CHECK s0, 0x3dcccccd
%CHECK s1, 0x3ff8000000000000
    hl.liu 0xc00d9999, ->a4
    slli a4, 32, ->a4
    hl.liu 0x9999999a, ->a5
    or a4, a5, ->a4                # -3.7
    fcvtz.fd2sd a4, ->s0
    fcvtm.fd2dt8 a4, ->s1
    fcvtp.fd2dt9 a4, ->s2
    hl.liu 0xc0040000, ->a5
    slli a5, 32, ->a5              # -2.5
    fcvtn.fd2dt8 a5, ->s3
    fcvta.fd2dt8 a5, ->s4
    fcvtz.fd2ud a5, ->s5
%CHECK s0, -3
%CHECK s1, -4
%CHECK s2, -3
%CHECK s3, -2
%CHECK s4, -3
%CHECK s5, 0
    ssrset zero, 2
    hl.liu 0x4202a05f, ->a4
    slli a4, 32, ->a4
    hl.liu 0x20000000, ->a5
    or a4, a5, ->a4                # 1e10
    fcvtz.fd2sw a4, ->s0           # saturates
    ssrget 2, ->s1
    fcvtz.fd2uw a4, ->s2
    fcvtz.fs2sd a3, ->s3           # 2.25f -> 2, inexact
%CHECK s0, 0x7fffffff
%CHECK s1, 0x10
%CHECK s2, 0xffffffff
%CHECK s3, 2
    ssrset zero, 2
    hl.lis -1, ->a4
    scvtf.sd2fd a4, ->s0
    ucvtf.ud2fd a4, ->s1           # 2^64 - 1 rounds to 2^64
    scvtf.sw2fs a4, ->s2
    ucvtf.uw2fs a4, ->s3
    ssrget 2, ->s4
%CHECK s0, 0xbff0000000000000
%CHECK s1, 0x43f0000000000000
%CHECK s2, 0xbf800000
%CHECK s3, 0x4f800000
%CHECK s4, 1
%PASS
