# 16-bit forms: ALU ops that push ->t, moves, extensions, t#1 shifts and
# compares, SSR read, loads/stores through t, SETC/SETRET/SETC.TGT and the
# compressed block markers (STD, FP, SYS, DIRECT, COND, BSTOP).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis -100, ->a0
    hl.lis 3, ->a1
    hl.liu 0x800000ff, ->a2
    c.add a0, a1, ->t
    c.sub a0, a1, ->t
    c.and a0, a1, ->t
    c.or a0, a1, ->t
    c.movr t#4, ->s0
    c.movr t#3, ->s1
    c.movr t#2, ->s2
    c.movr t#1, ->s3
    c.addi a1, -16, ->t
    c.movr t#1, ->s4
%CHECK s0, -97
%CHECK s1, -103
%CHECK s2, 0
%CHECK s3, -97
%CHECK s4, -13
    c.movi 15, ->s0
    c.movi -16, ->u
    c.movr u#1, ->s1
    c.movr zero, ->s2
    c.sext.b a2, ->t
    c.movr t#1, ->s3
    c.sext.h a2, ->t
    c.movr t#1, ->s4
    c.sext.w a2, ->t
    c.movr t#1, ->s5
%CHECK s0, 15
%CHECK s1, -16
%CHECK s2, 0
%CHECK s3, -1
%CHECK s4, 0xff
%CHECK s5, 0xffffffff800000ff
    c.zext.b a0, ->t
    c.movr t#1, ->s0
    c.zext.h a0, ->t
    c.movr t#1, ->s1
    c.zext.w a0, ->t
    c.movr t#1, ->s2
    c.slli t#1, 31, ->t
    c.movr t#1, ->s3
    c.srli t#1, 20, ->t
    c.movr t#1, ->s4
%CHECK s0, 0x9c
%CHECK s1, 0xff9c
%CHECK s2, 0xffffff9c
%CHECK s3, 0x7fffffce00000000
%CHECK s4, 0x7fffffce000
    c.movi 5, ->t
    c.cmp.eqi t#1, 5, ->t
    c.movr t#1, ->s0
    c.cmp.nei t#1, 1, ->t
    c.movr t#1, ->s1
    c.cmp.nei t#1, 7, ->t
    c.movr t#1, ->s2
%CHECK s0, 1
%CHECK s1, 0
%CHECK s2, 1
    hl.liu 0x80000000, ->a3
    hl.lis -42, ->a4
    c.movr a4, ->t
    c.swi t#1, [a3, 8]
    c.sdi t#1, [a3, 16]
    c.lwi [a3, 8], ->t
    c.movr t#1, ->s0
    c.ldi [a3, 16], ->t
    c.movr t#1, ->s1
    ldi [a3, 8], ->s2
%CHECK s0, -42
%CHECK s1, -42
%CHECK s2, 0xffffffd6
    ssrset a4, 0
    c.ssrget 0, ->t
    c.movr t#1, ->s0
%CHECK s0, -42
# C.BSTART COND with c.setc.eq: taken, then not taken
    hl.lis 0, ->s0
    C.BSTART COND, .Lskip1
    c.setc.eq a1, a1
    C.BSTART.STD FALL
%FAIL
.Lskip1:
    C.BSTART COND, .Lskip2
    c.setc.ne a1, a1
    C.BSTART.STD FALL
    hl.lis 1, ->s0
.Lskip2:
    C.BSTART.FP FALL
%CHECK s0, 1
# C.BSTART DIRECT jumps; C.BSTOP ends a block in the middle of a line of code
    C.BSTART DIRECT, .Lover
    C.BSTOP
%FAIL
.Lover:
    C.BSTART.SYS
    hl.lis 2, ->s1
    C.BSTOP
    C.BSTART.STD FALL
%CHECK s1, 2
# C.BSTART DIRECT + c.setret is a call; return through C.BSTART.STD RET
    C.BSTART DIRECT, .Lfunc
    c.setret .Lret, ->ra
    hl.lis 0, ->s2
.Lret:
    C.BSTART.STD FALL
%CHECK s2, 77
%PASS
.Lfunc:
    C.BSTART.STD FALL
    hl.lis 77, ->s2
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP
