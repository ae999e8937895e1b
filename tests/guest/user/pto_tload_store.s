# Runs the compiled PTO kernel pto_tload_store_i32(src, dst) from
# ../shared/guest/asm/pto_tload_store.s (clang output, assembled together
# with this driver): TLOAD of a 4 KB INT32 tile from src, TSTORE of it to
# dst, both headers with "C.B.DIMI 0, ->lb0/lb1", which linx-toolchain
# reads as the whole tile in one row (docs/decisions.md "Profiles").  What
# the C++ kernel means: dst[0..1023] = src[0..1023], nothing else written.
# The driver fills src with i * 0x9e3779b1 + 7, dst (1024 + 2 words) with
# 0xdeadbeef, calls the kernel, then counts mismatches.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc src, ->s0
    addi s0, src, ->s0
    addtpc dst, ->s1
    addi s1, dst, ->s1
    hl.lis 0, ->s2                  # i
    hl.lis 1024, ->s3
    hl.liu 0xdeadbeef, ->s4
    hl.liu 0x9e3779b1, ->s5
.Lfill:
    C.BSTART COND, .Lfill
    mulw s2, s5, ->t
    addiw t#1, 7, ->t
    slli s2, 2, ->u
    add s0, u#1, ->a2
    swi t#1, [a2, 0]
    add s1, u#1, ->a2
    swi s4, [a2, 0]
    addi s2, 1, ->s2
    setc.ne s2, s3
    C.BSTART.STD FALL
    swi s4, [s1, 4096]              # dst[1024], dst[1025]
    swi s4, [s1, 4100]
    c.movr s0, ->a0
    c.movr s1, ->a1
    BSTART CALL, pto_tload_store_i32, ra=.Lback
.Lback:
    C.BSTART.STD FALL
    hl.lis 0, ->s2
    hl.lis 0, ->s6                  # mismatches
.Lcmp:
    C.BSTART COND, .Lcmp
    slli s2, 2, ->u
    add s0, u#1, ->a2
    lwi [a2, 0], ->t
    add s1, u#1, ->a2
    lwi [a2, 0], ->t
    cmp.ne t#1, t#2, ->t
    add s6, t#1, ->s6
    addi s2, 1, ->s2
    setc.ne s2, s3
    C.BSTART.STD FALL
%CHECK s6, 0
    lwui [s1, 4096], ->a3
    lwui [s1, 4100], ->a4
%CHECK a3, 0xdeadbeef
%CHECK a4, 0xdeadbeef
    lwi [s1, 4092], ->a5            # the last element, against the pattern
    hl.liu 1023, ->a6
    mulw a6, s5, ->a6
    addiw a6, 7, ->a6
%CHECKR a5, a6
%EXIT 0

    .data
    .p2align 6
src:
    .zero 4096
dst:
    .zero 4104
