# Block structure: every scalar block-start form (BSTART/HL.BSTART STD, FP
# and SYS of every branch kind, the 0x11/0x21 split forms, C.BSTART), BSTOP,
# SETC.* in register and immediate forms deciding COND blocks, SETC.TGT
# for IND/ICALL/RET, SETRET/HL.SETRET call headers, ADDTPC/HL.ADDTPC, and
# the template blocks FENTRY/FEXIT/FRET.RA/FRET.STK/MCOPY/MSET.
    .text
    .globl _start
_start:
    BSTART.STD FALL
    hl.lis 5, ->a0
    hl.lis -5, ->a1
    hl.liu 0xf0, ->a2
# SETC register forms: s0 = 0 when the COND block branched, 1 when not
    hl.lis 1, ->s0
    BSTART.STD COND, .Lc1
    setc.eq a0, a0
    BSTART.STD FALL
    hl.lis 0, ->s0
.Lc1:
    BSTART.FP COND, .Lc2
    setc.ne a0, a1
    BSTART.FP FALL
    hl.lis 2, ->s0
.Lc2:
    HL.BSTART.STD COND, .Lc3
    setc.lt a1, a0
    HL.BSTART.STD FALL
    hl.lis 3, ->s0
.Lc3:
    HL.BSTART.FP COND, .Lc4
    setc.ge a0, a1.sw
    HL.BSTART.FP FALL
    hl.lis 4, ->s0
.Lc4:
    BSTART COND, .Lc5
    setc.ltu a0, a1
    BSTART.STD FALL
    hl.lis 5, ->s0
.Lc5:
    BSTART COND, .Lc6
    setc.geu a1, a0
    BSTART.STD FALL
    hl.lis 6, ->s0
.Lc6:
    BSTART COND, .Lc7
    setc.and a0, a2
    BSTART.STD FALL
    hl.lis 7, ->s0
.Lc7:
    BSTART COND, .Lc8
    setc.or zero, a2.not
    BSTART.STD FALL
    hl.lis 8, ->s0
.Lc8:
    BSTART.STD FALL
%CHECK s0, 7
# SETC immediate forms (imm = simm << shamt; the assembler picks shamt)
    hl.lis 1, ->s0
    BSTART COND, .Li1
    setc.eqi a0, 5
    BSTART.STD FALL
    hl.lis 10, ->s0
.Li1:
    BSTART COND, .Li2
    setc.nei a0, 5
    BSTART.STD FALL
    hl.lis 11, ->s1
.Li2:
    BSTART COND, .Li3
    setc.lti a1, -4
    BSTART.STD FALL
    hl.lis 12, ->s2
.Li3:
    BSTART COND, .Li4
    setc.gei a1, 0x4000
    BSTART.STD FALL
    hl.lis 13, ->s3
.Li4:
    BSTART COND, .Li5
    setc.ltui a0, 6
    BSTART.STD FALL
    hl.lis 14, ->s4
.Li5:
    BSTART COND, .Li6
    setc.geui a0, 0x5000
    BSTART.STD FALL
    hl.lis 15, ->s5
.Li6:
    BSTART.STD FALL
%CHECK s0, 1
%CHECK s1, 11
%CHECK s2, 0
%CHECK s3, 13
%CHECK s4, 0
%CHECK s5, 15
    hl.lis 0, ->s0
    hl.lis 0, ->s1
    BSTART COND, .Li7
    setc.andi a2, 0x10
    BSTART.STD FALL
    hl.lis 16, ->s0
.Li7:
    BSTART COND, .Li8
    setc.ori zero, 0
    BSTART.STD FALL
    hl.lis 17, ->s1
.Li8:
    BSTART.STD FALL
%CHECK s0, 0
%CHECK s1, 17
    hl.lis 0, ->s0
    hl.lis 0, ->s1
    hl.lis 0, ->s2
    hl.lis 0, ->s3
    BSTART COND, .Lh1
    hl.setc.eqi a0, 5
    BSTART.STD FALL
    hl.lis 1, ->s0
.Lh1:
    BSTART COND, .Lh2
    hl.setc.nei a0, 0x123456
    BSTART.STD FALL
    hl.lis 1, ->s1
.Lh2:
    BSTART COND, .Lh3
    hl.setc.lti a1, -8388608
    BSTART.STD FALL
    hl.lis 1, ->s2
.Lh3:
    BSTART COND, .Lh4
    hl.setc.gei a1, -6
    BSTART.STD FALL
    hl.lis 1, ->s3
.Lh4:
    BSTART.STD FALL
%CHECK s0, 0
%CHECK s1, 0
%CHECK s2, 1
%CHECK s3, 0
    hl.lis 0, ->s0
    hl.lis 0, ->s1
    hl.lis 0, ->s2
    hl.lis 0, ->s3
    BSTART COND, .Lh5
    hl.setc.ltui a1, 0xffffff
    BSTART.STD FALL
    hl.lis 1, ->s0
.Lh5:
    BSTART COND, .Lh6
    hl.setc.geui a1, 0xffffff
    BSTART.STD FALL
    hl.lis 1, ->s1
.Lh6:
    BSTART COND, .Lh7
    hl.setc.andi a2, 0x800f
    BSTART.STD FALL
    hl.lis 1, ->s2
.Lh7:
    BSTART COND, .Lh8
    hl.setc.ori zero, 0
    BSTART.STD FALL
    hl.lis 1, ->s3
.Lh8:
    BSTART.STD FALL
%CHECK s0, 1
%CHECK s1, 0
%CHECK s2, 1
%CHECK s3, 1
# the 48-bit FALL headers (with and without a fixup label)
    HL.BSTART.STD FALL
    hl.lis 21, ->s0
    HL.BSTART.FP FALL
    hl.lis 22, ->s1
    HL.BSTART.STD FALL, .Lc8
    C.BSTART.STD FALL
%CHECK s0, 21
%CHECK s1, 22
# DIRECT forms
    BSTART DIRECT, .Ld1
    BSTOP
%FAIL
.Ld1:
    BSTART.STD DIRECT, .Ld2
    BSTOP
%FAIL
.Ld2:
    BSTART.FP DIRECT, .Ld3
    BSTOP
%FAIL
.Ld3:
    HL.BSTART.STD DIRECT, .Ld4
    BSTOP
%FAIL
.Ld4:
    HL.BSTART.FP DIRECT, .Ld5
    BSTOP
%FAIL
.Ld5:
    BSTART.SYS
    hl.lis 9, ->s0
    HL.BSTART.SYS
    hl.lis 10, ->s1
    BSTART.STD FALL
%CHECKR s0, s0
%CHECK s1, 10
# calls: explicit CALL headers with SETRET / HL.SETRET / C.SETRET
    hl.lis 0, ->s2
    BSTART.STD CALL, .Lf_add
    setret .Lr1, ->ra
    hl.lis 40, ->a3
.Lr1:
    BSTART.FP CALL, .Lf_add
    c.setret .Lr2, ->ra
.Lr2:
    HL.BSTART.STD CALL, .Lf_add
    hl.setret .Lr3, ->ra
.Lr3:
    HL.BSTART.FP CALL, .Lf_add
    c.setret .Lr4, ->ra
.Lr4:
    BSTART.STD FALL
%CHECK s2, 160
# indirect: ICALL with SETC.TGT, IND, RET
    hl.liu .Lf_add, ->a4
    BSTART.STD ICALL
    c.setret .Lr5, ->ra
    setc.tgt a4
.Lr5:
    BSTART.FP ICALL
    c.setret .Lr6, ->ra
    c.setc.tgt a4
.Lr6:
    BSTART.STD FALL
%CHECK s2, 240
    hl.liu .Lind1, ->a4
    BSTART.STD IND
    setc.tgt a4
    BSTOP
%FAIL
.Lind1:
    BSTART.FP FALL
    hl.liu .Lind2, ->a4
    BSTART.FP IND
    setc.tgt a4
    BSTOP
%FAIL
.Lind2:
    BSTART.STD FALL
    hl.lis 0, ->s3
    BSTART.STD CALL, .Lf_fpret
    c.setret .Lr7, ->ra
.Lr7:
    BSTART.STD FALL
%CHECK s3, 33
    hl.lis 0, ->s3
    BSTART.STD CALL, .Lf_fpret2
    c.setret .Lr9, ->ra
.Lr9:
    BSTART.STD FALL
%CHECK s3, 34
# ADDTPC: (pc & ~0xfff) + (imm20 << 12); HL.ADDTPC: + sext(imm32)
.Lat1:
    addtpc 2, ->s0
    hl.liu .Lat1, ->s1
    hl.andi s1, -4096, ->s1
    hl.addi s1, 0x2000, ->s1
.Lat2:
    hl.addtpc 0xfffff000, ->s2
    hl.liu .Lat2, ->s3
    hl.andi s3, -4096, ->s3
    subi s3, 4095, ->s3
    subi s3, 1, ->s3
%CHECKR s0, s1
%CHECKR s2, s3
# templates: FENTRY stores [ra ~ s2] below sp, FEXIT/FRET reload them
    hl.lis 0x1111, ->ra
    hl.lis 0x2222, ->s0
    hl.lis 0x3333, ->s1
    hl.lis 0x4444, ->s2
    c.movr sp, ->a5
    BSTART.STD CALL, .Lf_tpl
    c.setret .Lr8, ->ra
.Lr8:
    BSTART.STD FALL
    hl.liu .Lr8, ->a6
%CHECKR ra, a6
%CHECK s0, 0x2222
%CHECK s1, 0x3333
%CHECK s2, 0x4444
%CHECK a3, 0x2222
%CHECKR sp, a5
# MSET/MCOPY blocks
    hl.liu 0x80000000, ->a0
    hl.liu 0x80000100, ->a1
    hl.lis 0x5a, ->a2
    hl.lis 13, ->a3
    MSET [a0, a2, a3]
    MCOPY [a1, a0, a3]
    BSTART.STD FALL
    ldi [a1, 0], ->s0
    lbui [a1, 12], ->s1
    lbui [a1, 13], ->s2
%CHECK s0, 0x5a5a5a5a5a5a5a5a
%CHECK s1, 0x5a
%CHECK s2, 0
%PASS

# s2 += 40
.Lf_add:
    BSTART.STD FALL
    hl.addi s2, 40, ->s2
    BSTART.STD RET
    setc.tgt ra
    BSTOP
# FRET.RA returns through ra as it was before the reload
.Lf_fpret:
    FENTRY [ra ~ ra], sp!, 16
    BSTART.STD FALL
    hl.lis 33, ->s3
    FRET.RA [ra ~ ra], sp!, 16
# return through a BSTART.FP RET block
.Lf_fpret2:
    BSTART.FP FALL
    hl.lis 34, ->s3
    BSTART.FP RET
    setc.tgt ra
    BSTOP
# FENTRY/FEXIT, then a tail block returns with FRET.STK
.Lf_tpl:
    FENTRY [ra ~ s2], sp!, 48
    BSTART.STD FALL
    ldi [sp, 32], ->a3
    hl.lis 0, ->s0
    hl.lis 0, ->s1
    hl.lis 0, ->s2
    FEXIT [s0 ~ s2], sp!, 40
    FRET.STK [ra ~ ra], sp!, 8
