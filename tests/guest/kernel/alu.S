# Kernel ALU: integer operations on typed RegId10 operands, immediates,
# shifts, multiply/divide, min/max, compares and selects, and the vector
# queue renaming (each result is pushed on vt and read back as vt#k).
# Four lanes; lane l stores result k at out[k * 4 + l] (64-bit).  The
# expected values are worked out by hand from docs/kernels.md "Operands"
# (typed reads, 64-bit operation, typed destination).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc out, ->s0
    addi s0, out, ->s0
    hl.lis 2, ->s1
    hl.lis 10, ->s2
    BSTART.MSEQ VS16
    B.TEXT .body
    B.IOR [s0, s1, s2],[]
    C.B.DIMI 4, ->lb0
    C.BSTART.STD FALL
    ldi [s0, 24], ->a0           # row 0, lane 3: A = l + 10
    ldi [s0, 56], ->a1           # row 1: B = A - 20
    ldi [s0, 88], ->a2          # row 2: C = B * A
    ldi [s0, 120], ->a3          # row 3: D = (C + l) as .w
    ldi [s0, 152], ->a4          # row 4: E = sext32(D) >> 2 (arithmetic)
    ldi [s0, 184], ->a5          # row 5: F = zext32(D) >> 2
    ldi [s0, 216], ->a6          # row 6: G = E / 2 (signed)
    ldi [s0, 248], ->a7          # row 7: H = D % 10 (unsigned)
%CHECK a0, 13
%CHECK a1, -7
%CHECK a2, -91
%CHECK a3, 4294967208
%CHECK a4, -22
%CHECK a5, 1073741802
%CHECK a6, -11
%CHECK a7, 8
    C.BSTART.STD FALL
    ldi [s0, 280], ->a0          # row 8: I = max(G, E) signed
    ldi [s0, 312], ->a1          # row 9: J = min(I, H) unsigned
    ldi [s0, 344], ->a2          # row 10: K = I < J signed
    ldi [s0, 376], ->a3          # row 11: L = I < J unsigned
    ldi [s0, 408], ->a4          # row 12: M = K ? l : ..
    ldi [s0, 440], ->a5          # row 13: N = M ^ -1
    ldi [s0, 472], ->a6          # row 14: O = l << 4
    ldi [s0, 504], ->a7          # row 15: P = O * N + l
%CHECK a0, -11
%CHECK a1, 8
%CHECK a2, 1
%CHECK a3, 0
%CHECK a4, 3
%CHECK a5, -4
%CHECK a6, 48
%CHECK a7, -189
    C.BSTART.STD FALL
    ldi [s0, 64], ->a0           # lane 0: row 2 (C = -100)
    ldi [s0, 192], ->a1          # lane 0: row 6 (G = -25 / 2 = -12)
    ldi [s0, 416], ->a2          # lane 0: row 13 (N = ~0)
%CHECK a0, -100
%CHECK a1, -12
%CHECK a2, -1
%PASS

.body:
    v.addi lc0.ud, 10, ->vt.d               # A                 vt: A
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 0]
    v.subi vt#1.sd, 20, ->vt.d              # B                 vt: B A
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 32]
    v.mul vt#1.sd, vt#2.sd, ->vt.d          # C                 vt: C B A
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 64]
    v.add vt#1.sw, lc0.ud, ->vt.w           # D (zero-extended) vt: D C B A
    v.sdi.brg vt#1.ud, [ri0, lc0<<3, 96]
    v.sra vt#1.sw, ri1.ud, ->vt.sd          # E                 vt: E D C B
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 128]
    v.srl vt#2.uw, ri1.ud, ->vt.d           # F                 vt: F E D C
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 160]
    v.div vt#2.sd, ri1.sd, ->vt.d           # G                 vt: G F E D
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 192]
    v.rem vt#4.ud, ri2.ud, ->vt.d           # H                 vt: H G F E
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 224]
    v.max vt#2.sd, vt#4.sd, ->vt.d          # I                 vt: I H G F
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 256]
    v.min vt#1.ud, vt#2.ud, ->vt.d          # J                 vt: J I H G
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 288]
    v.cmp.lt vt#2.sd, vt#1.sd, ->vt.d       # K                 vt: K J I H
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 320]
    v.cmp.ltu vt#3.ud, vt#2.ud, ->vt.d      # L                 vt: L K J I
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 352]
    v.csel vt#2.ud, lc0.ud, vt#4.sd, ->vt.d # M                 vt: M L K J
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 384]
    v.xori vt#1.sd, -1, ->vt.d              # N                 vt: N M L K
    v.sdi.brg vt#1.sd, [ri0, lc0<<3, 416]
    v.slli lc0.ud, 4, ->vu.d                # O                 vu: O
    v.sdi.brg vu#1.sd, [ri0, lc0<<3, 448]
    v.madd vu#1.sd, vt#1.sd, lc0.ud, ->vu.d # P                 vu: P O
    v.sdi.brg vu#1.sd, [ri0, lc0<<3, 480]
    C.BSTOP

    .data
    .p2align 4
out: .zero 8 * 4 * 16
    .text                           # gtest.py's stubs follow
