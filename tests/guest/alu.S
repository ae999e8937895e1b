# Integer ALU forms: 64- and 32-bit register and immediate arithmetic,
# logic, shifts (including amounts >= width), SrcRType modifiers, LUI and
# the 48-bit immediates.  Expected values worked out by hand from
# semantics_conventions.json (SrcRType before shamt, *W sign-extends).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 100, ->a0
    hl.lis -7, ->a1
    hl.liu 0xffffffff, ->a2
    add a0, a1, ->s0
    add a0, a1<<3, ->s1
    add a0, a2.sw, ->s2
    add a0, a2.uw, ->s3
    add a0, a1.neg<<1, ->s4
%CHECK s0, 93
%CHECK s1, 44
%CHECK s2, 99
%CHECK s3, 0x100000063
%CHECK s4, 114
    sub a0, a1, ->s0
    sub a0, a2.sw<<4, ->s1
    and a2, a1, ->s2
    and a2, a1.not, ->s3
    or a0, a1.uw, ->s4
    xor a1, a2.not<<8, ->s5
%CHECK s0, 107
%CHECK s1, 116
%CHECK s2, 0xfffffff9
%CHECK s3, 6
%CHECK s4, 0xfffffffd
%CHECK s5, 0x000000fffffffff9
    addw a2, a0, ->s0
    subw a0, a1.neg, ->s1
    andw a1, a2, ->s2
    orw a0, a1<<31, ->s3
    xorw a2, a2, ->s4
%CHECK s0, 99
%CHECK s1, 93
%CHECK s2, -7
%CHECK s3, 0xffffffff80000064
%CHECK s4, 0
    addi a0, 4095, ->s0
    subi a0, 101, ->s1
    andi a2, -16, ->s2
    ori a0, -1, ->s3
    xori a1, 2047, ->s4
%CHECK s0, 4195
%CHECK s1, -1
%CHECK s2, 0xfffffff0
%CHECK s3, -1
%CHECK s4, -2042
    addiw a2, 1, ->s0
    subiw a0, 4095, ->s1
    andiw a2, -1, ->s2
    oriw zero, 0x7ff, ->s3
    xoriw a2, 0, ->s4
%CHECK s0, 0
%CHECK s1, -3995
%CHECK s2, -1
%CHECK s3, 2047
%CHECK s4, -1
    hl.addi a0, 0x800000, ->s0
    hl.subi a0, 0xffffff, ->s1
    hl.andi a2, 0x7fffff, ->s2
    hl.ori zero, -8388608, ->s3
    hl.xori a0, 0x123456, ->s4
%CHECK s0, 0x800064
%CHECK s1, -16777115
%CHECK s2, 0x7fffff
%CHECK s3, -8388608
%CHECK s4, 0x123432
    hl.addiw a2, 0x800000, ->s0
    hl.subiw zero, 1, ->s1
    hl.andiw a2, 0x7fffff, ->s2
    hl.oriw a0, -8388608, ->s3
    hl.xoriw a2, -1, ->s4
%CHECK s0, 0x7fffff
%CHECK s1, -1
%CHECK s2, 0x7fffff
%CHECK s3, 0xffffffffff800064
%CHECK s4, 0
# shifts: register amounts are taken mod 64 (mod 32 for *W)
    hl.lis 65, ->a3
    hl.lis 33, ->a4
    sll a0, a3, ->s0
    srl a1, a3, ->s1
    sra a1, a3, ->s2
    sllw a2, a4, ->s3
    srlw a2, a4, ->s4
    sraw a2, a4, ->s5
%CHECK s0, 200
%CHECK s1, 0x7ffffffffffffffc
%CHECK s2, -4
%CHECK s3, -2
%CHECK s4, 0x7fffffff
%CHECK s5, -1
    slli a0, 63, ->s0
    srli a1, 60, ->s1
    srai a1, 1, ->s2
    slliw a2, 31, ->s3
    srliw a2, 31, ->s4
    sraiw a0, 2, ->s5
%CHECK s0, 0
%CHECK s1, 15
%CHECK s2, -4
%CHECK s3, 0xffffffff80000000
%CHECK s4, 1
%CHECK s5, 25
# constants
    lui 0x12345, ->s0
    lui 0x80000, ->s1
    hl.lui 0x89abcdef, ->s2
    hl.lis -2, ->s3
    hl.liu 0xfffffffe, ->s4
%CHECK s0, 0x12345000
%CHECK s1, 0xffffffff80000000
%CHECK s2, 0xffffffff89abcdef
%CHECK s3, -2
%CHECK s4, 0xfffffffe
%PASS
