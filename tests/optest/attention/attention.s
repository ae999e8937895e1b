# Whole kernel: flash-attention-style O = softmax(Q K^T / sqrt(d)) V for
# one block of Lq queries (Lq <= 32) over Lk keys in blocks of bk = d
# (16 or 32) with the online softmax: a running row maximum m and sum l,
# and O rescaled by exp(m_old - m_new) at each block (Dao et al.,
# FlashAttention).  Everything is fp32 and stays in tiles: Q and each K
# block are TLOADed (K^T through DN2ZN: a row-major K is K^T in DN), S =
# Q K^T by TMATMUL and ACCCVT (an NZ tile), the softmax steps are TEPL
# blocks on NZ tiles (TMULS, TROWMAX, TMAX, TROWEXPAND, TSUB, TEXP, TROWSUM,
# TMUL, TADD, TADDS 0 as a copy), P V by TMATMUL with P itself as the left
# operand, and the result O / l is stored with TSTORE NZ2ND.
# Tile hands: t temporaries, u the state (u#1 = l, u#2 = m), m the running
# O (m#1), n the ACCCVT results.
# Parameters (int64 at `params`): 0 Lq, 1 d, 2 key blocks, 3 tile bytes
# (R16 x d x 4), 4 row bytes (d x 4), 5 the scale 1/sqrt(d) (fp32 bits),
# 6 bytes per key block (d x d x 4), 7 K and V tile bytes (d x d x 4).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc params, ->s0
    addi s0, params, ->s0
    ldi [s0, 0], ->s1               # Lq (valid rows)
    ldi [s0, 8], ->s2               # d = bk (valid columns, tile columns)
    ldi [s0, 16], ->s3              # key blocks
    ldi [s0, 24], ->a4              # S/P/O tile bytes
    ldi [s0, 32], ->a6              # row bytes
    ldi [s0, 40], ->a5              # scale
    ldi [s0, 48], ->a7              # bytes per key block
    ldi [s0, 56], ->x2              # operand tile bytes
    hl.lis 0, ->x3
    hl.lis 1, ->x0
    addtpc mq, ->s4
    addi s4, mq, ->s4
    addtpc mk, ->s5
    addi s5, mk, ->s5
    addtpc mv, ->s6
    addi s6, mv, ->s6

    # ---- the first key block: m = rowmax(S'), P = exp(S' - m), l = rowsum(P), O = P V
    BSTART.TMA TLOAD, FP32          # Q -> NZ (Lq x d)
    B.ARG ND2NZ
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [a6, s4],[]
    B.IOT [], last ->t<a4>
    BSTART.TMA TLOAD, FP32          # K^T -> ZN (d x bk): K's block in DN
    B.ARG DN2ZN
    B.DIM s2, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [a6, s5],[]
    B.IOT [], last ->t<x2>
    BSTART.CUBE TMATMUL, FP32       # S = Q K^T
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.ARG NORM
    B.IOTI [t#2, t#1], last
    BSTART.CUBE ACCCVT, FP32
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.ARG NORM
    B.IOR [zero, zero, x0],[]
    B.IOT [], last ->n<a4>
    BSTART.TEPL TMULS, FP32         # t#1 = S' = S / sqrt(d)
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [a5],[]
    B.IOT [n#1], last ->t<a4>
    BSTART.TEPL TROWMAX, FP32       # t#1 = m0, t#2 = S'
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1], last ->t<a4>
    BSTART.TEPL TROWEXPAND, FP32    # t#1 = M, t#2 = m0, t#3 = S'
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1], last ->t<a4>
    BSTART.TEPL TSUB, FP32          # t#1 = S' - M
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#3, t#1], last ->t<a4>
    BSTART.TEPL TEXP, FP32          # t#1 = P
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1], last ->t<a4>
    BSTART.TEPL TROWSUM, FP32       # t#1 = l0, t#2 = P, ..., t#5 = m0
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1], last ->t<a4>
    BSTART.TEPL TADDS, FP32         # u#1 = m0
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [x3],[]
    B.IOT [t#5], last ->u<a4>
    BSTART.TEPL TADDS, FP32         # u#1 = l0, u#2 = m0
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [x3],[]
    B.IOT [t#1], last ->u<a4>
    BSTART.TMA TLOAD, FP32          # t#1 = V's block -> ZN (bk x d), t#3 = P
    B.ARG ND2ZN
    B.DIM s2, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [a6, s6],[]
    B.IOT [], last ->t<x2>
    BSTART.CUBE TMATMUL, FP32       # P V
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.ARG NORM
    B.IOTI [t#3, t#1], last
    BSTART.CUBE ACCCVT, FP32
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.ARG NORM
    B.IOR [zero, zero, x0],[]
    B.IOT [], last ->n<a4>
    BSTART.TEPL TADDS, FP32         # m#1 = O
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [x3],[]
    B.IOT [n#1], last ->m<a4>
    C.BSTART COND, done
    sub s3, x0, ->s3
    setc.eqi s3, 0

blocks:
    C.BSTART.STD FALL
    add s5, a7, ->s5
    add s6, a7, ->s6
    BSTART.TMA TLOAD, FP32          # Q
    B.ARG ND2NZ
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [a6, s4],[]
    B.IOT [], last ->t<a4>
    BSTART.TMA TLOAD, FP32          # K_j^T
    B.ARG DN2ZN
    B.DIM s2, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [a6, s5],[]
    B.IOT [], last ->t<x2>
    BSTART.CUBE TMATMUL, FP32
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.ARG NORM
    B.IOTI [t#2, t#1], last
    BSTART.CUBE ACCCVT, FP32        # n#1 = S
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.ARG NORM
    B.IOR [zero, zero, x0],[]
    B.IOT [], last ->n<a4>
    BSTART.TEPL TMULS, FP32         # t#1 = S'
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [a5],[]
    B.IOT [n#1], last ->t<a4>
    BSTART.TEPL TROWMAX, FP32       # t#1 = mb, t#2 = S'
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1], last ->t<a4>
    BSTART.TEPL TMAX, FP32          # u#1 = m_new, u#2 = l_old, u#3 = m_old
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [u#2, t#1], last ->u<a4>
    BSTART.TEPL TROWEXPAND, FP32    # t#1 = M, t#2 = mb, t#3 = S'
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [u#1], last ->t<a4>
    BSTART.TEPL TSUB, FP32          # t#1 = S' - M
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#3, t#1], last ->t<a4>
    BSTART.TEPL TEXP, FP32          # t#1 = P
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1], last ->t<a4>
    BSTART.TEPL TROWSUM, FP32       # t#1 = lb, t#2 = P
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1], last ->t<a4>
    BSTART.TEPL TSUB, FP32          # t#1 = m_old - m_new, t#2 = lb, t#3 = P
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [u#3, u#1], last ->t<a4>
    BSTART.TEPL TEXP, FP32          # t#1 = alpha, t#3 = lb, t#4 = P
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1], last ->t<a4>
    BSTART.TEPL TMUL, FP32          # t#1 = alpha l_old, t#2 = alpha, t#4 = lb, t#5 = P
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1, u#2], last ->t<a4>
    BSTART.TEPL TADD, FP32          # u#1 = l_new, u#2 = m_new
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#1, t#4], last ->u<a4>
    BSTART.TEPL TROWEXPAND, FP32    # t#1 = A (alpha per row), t#6 = P
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [t#2], last ->t<a4>
    BSTART.TEPL TMUL, FP32          # m#1 = O A
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [m#1, t#1], last ->m<a4>
    BSTART.TMA TLOAD, FP32          # t#1 = V_j, t#7 = P
    B.ARG ND2ZN
    B.DIM s2, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [a6, s6],[]
    B.IOT [], last ->t<x2>
    BSTART.CUBE TMATMUL, FP32       # P V_j
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.ARG NORM
    B.IOTI [t#7, t#1], last
    BSTART.CUBE ACCCVT, FP32
    B.DIM s1, 0, ->lb0
    B.DIM s2, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.ARG NORM
    B.IOR [zero, zero, x0],[]
    B.IOT [], last ->n<a4>
    BSTART.TEPL TADD, FP32          # m#1 = O A + P V_j
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [m#1, n#1], last ->m<a4>
    C.BSTART COND, blocks
    sub s3, x0, ->s3
    setc.nei s3, 0

done:
    BSTART.TEPL TROWEXPAND, FP32    # t#1 = L (l per row)
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [u#1], last ->t<a4>
    BSTART.TEPL TDIV, FP32          # t#1 = O / L
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOT [m#1, t#1], last ->t<a4>
    C.BSTART.STD FALL
    addtpc mo, ->s7
    addi s7, mo, ->s7
    BSTART.TMA TSTORE, FP32         # O (Lq x d) -> row-major
    B.ARG ND2NZ
    B.DIM s2, 0, ->lb0
    B.DIM s1, 0, ->lb1
    B.DIM s2, 0, ->lb2
    B.IOR [a6, s7],[]
    B.IOT [t#1], last ->t<a4>
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
params: .zero 64
mq: .zero 4096
mk: .zero 65536
mv: .zero 65536
mo: .zero 4096
