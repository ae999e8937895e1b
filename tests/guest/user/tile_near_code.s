# Linux user mode: TSTOREs into RAM next to the code (issue 16, "no
# retranslation storms").  The program has the usual small static layout:
# .text with .bss right after it, in the same 2 MiB.  A 32 x 32
# INT32 matrix (src[i] = 3 i + 1) is TLOADed into t#1 once; then ITER
# times: TSTORE t#1 to dst, read dst[i mod 1024] into a sum and clear that
# element with a scalar store (so each TSTORE must really write it again).
# The sum must be sum(3 (i mod 1024) + 1) for i < ITER, and the test runs
# with -d stats and --stat-max tbs_translated: the code is translated once,
# not once per TSTORE (before the fix the cached 2 MiB write window raised
# a code-write event over all the code on every TSTORE).  Under linux-user
# the ELF segments are separate mappings (separate host blocks), so the
# storm needed code and data in one mapping and this program guards the
# layout the loader makes; virt/tile_near_code.S failed before the fix
# (6010 translations).  Expanded by lutest.py; exits 0.
    .equ N, 32
    .equ ITER, 3000

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc src, ->s0
    addi s0, src, ->s0
    addtpc dst, ->s1
    addi s1, dst, ->s1
    hl.lis 0, ->s2                  # i
    c.movr s0, ->s3
fill:
    C.BSTART COND, fill             # src[i] = 3 * i + 1
    slli s2, 1, ->a0
    add a0, s2, ->a0
    addi a0, 1, ->a0
    swi a0, [s3, 0]
    addi s3, 4, ->s3
    addi s2, 1, ->s2
    setc.nei s2, N * N

    BSTART.TMA TLOAD, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s0],[]
    B.IOTI [], last ->t<4KB>

    C.BSTART.STD FALL
    hl.lis 0, ->s2                  # i
    hl.lis 0, ->s4                  # sum
loop:
    BSTART.TMA TSTORE, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s1],[]
    B.IOTI [t#1], last ->t<4KB>

    C.BSTART COND, loop
    andi s2, N * N - 1, ->a0
    slli a0, 2, ->a0
    add s1, a0, ->a0
    lwi [a0, 0], ->a1
    add s4, a1, ->s4
    swi zero, [a0, 0]
    addi s2, 1, ->s2
    setc.nei s2, ITER

    C.BSTART.STD FALL
    hl.lis 4 * 517, ->a2
    add s1, a2, ->a2
    lwi [a2, 0], ->a3
%CHECK a3, 1552
%CHECK s4, 4503684
%EXIT 0

    .bss
    .p2align 6
src:
    .zero 4 * N * N
dst:
    .zero 4 * N * N
