# Calls written the way clang prints them, "BSTART CALL, callee, ra=.Lret"
# (the call header and the SETRET of the return label as one line; linx-isa
# docs/reference/examples/v0.4/generated/pto_gemm_auto.s), with the 32-bit
# and the 48-bit header: each callee returns through FRET.STK to .Lret.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 5, ->a0
    BSTART CALL, twice, ra=.Lret1
.Lret1:
    C.BSTART.STD FALL
%CHECK a0, 10
    HL.BSTART.STD CALL, add7, ra=.Lret2
    addi a0, 1, ->a0
.Lret2:
    C.BSTART.STD FALL
%CHECK a0, 18
%EXIT 0

twice:
    FENTRY [ra ~ ra], sp!, 16
    C.BSTART.STD FALL
    add a0, a0, ->a0
    FRET.STK [ra ~ ra], sp!, 16

add7:
    FENTRY [ra ~ ra], sp!, 16
    C.BSTART.STD FALL
    addi a0, 7, ->a0
    FRET.STK [ra ~ ra], sp!, 16
