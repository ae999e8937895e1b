# Commit-trace block fields (docs/engine.md, "Commit trace"): one block of
# each kind the shared traces lack - a CALL block and the callee's RET
# block, SSRGET/FADD (sys in any block) and FMAX (not in the peer's FP/SYS
# class), C.BSTART.SYS, TMA loads with B.IOTI, a TEPL TSUB block, a CUBE
# TMATMUL/ACCCVT pair, MPAR/VPAR/VSEQ headers and their bodies -
# for tests/guest/trace-kinds.py, which lists the expected fields of every
# row.  Ends with status 0 through the virt EXIT register.
    .equ EXIT, 0x10000004
    .equ N, 32
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc tiles, ->s0
    addi s0, tiles, ->s0
    ssrget 0, ->s1
    fadd.fd zero, zero, ->s2
    fmax.fd zero, zero, ->s3
    BSTART.STD CALL, .Lfunc
    c.setret .Lret, ->ra
.Lret:
    C.BSTART.SYS
    hl.lis 1, ->a1
# two 32 x 32 INT32 tiles, then TADD of them
    BSTART.TMA TLOAD, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s0],[]
    B.IOTI [], last ->t<4KB>
    BSTART.TMA TLOAD, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s0],[]
    B.IOTI [], last ->t<4KB>
    BSTART.TEPL TSUB, INT32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    B.IOTI [t#2, t#1], last ->t<4KB>
# INT8 A (16 x 32, NZ) x B (32 x 16, ZN), ACC converted to an NZ tile
    BSTART.TMA TLOAD, INT8
    C.B.DIMI 32, ->lb0
    C.B.DIMI 16, ->lb1
    C.B.DIMI 32, ->lb2
    B.ARG ND2NZ
    B.IOR [s0],[]
    B.IOTI [], last ->t<512B>
    BSTART.TMA TLOAD, INT8
    C.B.DIMI 16, ->lb0
    C.B.DIMI 32, ->lb1
    C.B.DIMI 16, ->lb2
    B.ARG ND2ZN
    B.IOR [s0],[]
    B.IOTI [], last ->u<512B>
    BSTART.CUBE TMATMUL, INT8
    C.B.DIMI 16, ->lb0
    C.B.DIMI 16, ->lb1
    C.B.DIMI 32, ->lb2
    B.ARG NORM
    B.IOTI [t#1, u#1], last
    BSTART.CUBE ACCCVT, INT32
    C.B.DIMI 16, ->lb0
    C.B.DIMI 16, ->lb1
    C.B.DIMI 32, ->lb2
    B.ARG NORM
    B.IOR [zero, zero, x0],[]
    B.IOTI [], last ->n<1KB>
# kernel headers: MPAR rows are scalar, VPAR/VSEQ rows vpar/vseq, lane 0;
# then the body: one row per instruction per lane, lanes in order, the
# header's kind (MPAR vpar, MSEQ vseq), lane 0; a cross-lane instruction
# one row per lane of the group after the phase before it
    BSTART.MPAR VS16
    B.TEXT .body2
    C.B.DIMI 2, ->lb0
    BSTART.VPAR VS16
    B.TEXT .body
    C.B.DIMI 3, ->lb0
    C.BSTART.VSEQ
    B.TEXT .body3
    C.B.DIMI 2, ->lb0
    C.BSTART.STD FALL
    hl.liu EXIT, ->a0
    swi zero, [a0, 0]
    C.BSTOP

.Lfunc:
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

.body:
    v.addi lc0.ud, 1, ->vt.d
    C.BSTOP

.body2:
    v.addi lc0.ud, 1, ->vt.d
    v.subi vt#1.sd, 2, ->vt.d
    C.BSTOP

.body3:
    v.addi lc0.ud, 1, ->vt.d
    v.rdadd vt#1.sw, ->t.d
    C.BSTOP

    .data
    .p2align 12
tiles:
    .zero 4 * N * N
