# System forms: SSR access (TP through the TP global, the rest through the
# helper; HL and compressed forms; SSRSWAP returns the old value), the
# read-only SSRs, LSRGET, fences, cache/TLB maintenance (DC.ZVA zeroes a
# 64-byte block), ASSERT in a SYS block, ACRE into ACR1, and self-modifying
# code made visible by FENCE.I.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 0x1234, ->a0
    ssrset a0, 0                   # TP
    ssrget 0, ->s0
    hl.ssrset a0, 1                # GP
    hl.ssrget 1, ->s1
    hl.lis 0x5678, ->a1
    ssrswap a1, 1, ->s2
    ssrget 1, ->s3
    ssrswap a1, 0, ->s4
    c.ssrget 0, ->t
    c.movr t#1, ->s5
%CHECK s0, 0x1234
%CHECK s1, 0x1234
%CHECK s2, 0x1234
%CHECK s3, 0x5678
%CHECK s4, 0x1234
%CHECK s5, 0x5678
    ssrget 0x23, ->s0              # VERSION
    ssrget 0x24, ->s1              # LCFR: lanes
    ssrget 0x21, ->s2              # LXLCID
    ssrget 0xc00, ->s3             # CYCLE
    ssrget 0xc00, ->s4
    cmp.ltu s3, s4, ->s5           # it counts
    hl.lis 7, ->a2
    ssrset a2, 0x50                # LB0
    ssrget 0x50, ->s4
%CHECK s0, 4
%CHECK s1, 64
%CHECK s2, 0
%CHECK s5, 1
%CHECK s4, 7
    hl.lis 9, ->a2
    ssrset a2, 0x53                # LC0
    lsrget 0, ->s0
    ssrget 0x20, ->s1              # CSTATE: ACR in the low bits
    hl.lis 0x55, ->a3
    ssrset a3, 0x0f05              # ETEMP of ACR0 (we run in ACR0)
    ssrget 0x0f05, ->s2
%CHECK s0, 9
%CHECK s1, 0
%CHECK s2, 0x55
# fences, cache and TLB maintenance
    hl.liu 0x80000000, ->a4
    hl.lis -1, ->a5
    sdi a5, [a4, 64]
    sdi a5, [a4, 120]
    sdi a5, [a4, 128]
    fence.d 3, 3
    dc.iva a4
    dc.cva a4
    dc.civa a4
    dc.isw a4
    dc.csw a4
    dc.cisw a4
    dc.iall
    ic.iva a4
    ic.iall
    bc.iva a4
    bc.iall
    tlb.ia a4
    tlb.iv a4
    tlb.iav a4
    tlb.iall
    addi a4, 100, ->a6
    dc.zva a6                      # zeroes [a4+64, a4+128)
    ldi [a4, 64], ->s0
    ldi [a4, 120], ->s1
    ldi [a4, 128], ->s2
%CHECK s0, 0
%CHECK s1, 0
%CHECK s2, -1
# ASSERT passes with a non-zero value; ECONFIG[3] enables the check
    hl.lis 8, ->a6
    ssrset a6, 0x0f07
    BSTART.SYS
    assert a6
    hl.lis 3, ->s0
    BSTART.STD FALL
%CHECK s0, 3
# self-modifying code: patch "hl.lis 1, ->s0" into "hl.lis 2, ->s0"
.Lsmc:
    C.BSTART.STD FALL
    hl.lis 1, ->s0
    hl.liu .Lpatched, ->a0
    hl.liu .Lsmc_insn, ->a1
    lhui [a0, 0], ->a2
    shi a2, [a1, 0]
    lhui [a0, 2], ->a2
    shi a2, [a1, 2]
    lhui [a0, 4], ->a2
    shi a2, [a1, 4]
    fence.i
    C.BSTART.STD FALL
.Lsmc_insn:
    hl.lis 1, ->s1
    C.BSTART.STD FALL
%CHECK s1, 2
# ACRE from ACR0 enters ECSTATE_ACR0.ACR (1) at EBARG_BPC_CUR (BI = 0)
    hl.liu .Lacr1, ->a0
    ssrset a0, 0x0f43              # EBARG_TPC_ACR0
    ssrset a0, 0x0f41              # EBARG_BPC_CUR_ACR0
    hl.lis 1, ->a1
    ssrset a1, 0x0f00              # ECSTATE_ACR0: target ring 1
    C.BSTART.STD FALL
    acre 0
.Lacr1:
    C.BSTART.STD FALL
    ssrget 0x20, ->s0
%CHECK s0, 1
%PASS
.Lpatched:
    hl.lis 2, ->s1
