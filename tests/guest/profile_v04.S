# The linx-v0.4 profile (the v0.4 catalog text, semantics_conventions.json;
# docs/decisions.md "Profiles"): assembled with -mcpu=linx-v0.4, so "no
# modifier" is SrcRType 0 and .neg is 3, and run under that profile
# (chosen by -cpu auto from these encodings, and given explicitly).  What
# differs from linx-toolchain (alu2.S checks that one):
#   - CSEL: SrcP != 0 selects SrcL; only .neg modifies SrcR;
#   - compares and SETC read .neg as no modifier ("11_as_00").
# The modifiers themselves (.sw, .uw, .neg on add/sub, .not on logic) mean
# the same in both profiles once assembled under the same one.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis -3, ->a0
    hl.lis 7, ->a1
    hl.lis 0, ->a2
    hl.lis 3, ->a3
    hl.liu 0x80000007, ->a4
    csel a1, a0, a2, ->s0
    csel a2, a0, a1.neg, ->s1
    csel a1, a0, a1.neg, ->s2
%CHECK s0, -3
%CHECK s1, -7
%CHECK s2, -3
    cmp.eq a3, a3.neg, ->s0
    cmp.eq a0, a3.neg, ->s1
    cmp.lt a0, a0.neg, ->s2
%CHECK s0, 1
%CHECK s1, 0
%CHECK s2, 0
    add a1, a4.sw, ->s0
    add a1, a4.uw, ->s1
    sub a1, a0.neg, ->s2
    and a4, a1.not, ->s3
    add a1, a0, ->s4
    sub a1, a0, ->s5
    or a2, a1, ->s6
    xor a1, a3, ->s7
%CHECK s0, 0xffffffff8000000e
%CHECK s1, 0x8000000e
%CHECK s2, 4
%CHECK s3, 0x80000000
%CHECK s4, 4
%CHECK s5, 10
%CHECK s6, 7
%CHECK s7, 4
    C.BSTART COND, taken
    setc.eq a3, a3.neg
    C.BSTART.STD FALL
%FAIL
taken:
    C.BSTART.STD FALL
%PASS
