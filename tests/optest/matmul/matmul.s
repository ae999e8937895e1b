# Operator suite "matmul": C (16 x 16 fp32) = A (16 x 64 fp16) x B (64 x 16
# fp16), all row-major in memory, as two K tiles of 32: TLOAD A's tile
# (ND2NZ) and B's tile (ND2ZN), TMATMUL for the first K tile and
# TMATMUL.ACC for the second, ACCCVT to an fp32 NZ tile, TSTORE NZ2ND
# (docs/kernels.md "CUBE").
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc ma, ->s0
    addi s0, ma, ->s0
    addtpc mb, ->s1
    addi s1, mb, ->s1
    addtpc mc, ->s2
    addi s2, mc, ->s2
    hl.lis 128, ->s5                # A's row pitch (64 fp16)
    hl.lis 32, ->s6                 # B's row pitch (16 fp16)
    addi s0, 64, ->s7               # A's second K tile (columns 32..63)
    hl.lis 1024, ->a0
    add s1, a0, ->s8                # B's second K tile (rows 32..63)

    BSTART.TMA TLOAD, FP16          # A[:, 0:32] -> NZ 16 x 32
    C.B.DIMI 32, ->lb0
    C.B.DIMI 16, ->lb1
    C.B.DIMI 32, ->lb2
    B.ARG ND2NZ
    B.IOR [s5, s0],[]
    B.IOTI [], last ->t<1KB>
    BSTART.TMA TLOAD, FP16          # B[0:32, :] -> ZN 32 x 16
    C.B.DIMI 16, ->lb0
    C.B.DIMI 32, ->lb1
    C.B.DIMI 16, ->lb2
    B.ARG ND2ZN
    B.IOR [s6, s1],[]
    B.IOTI [], last ->u<1KB>
    BSTART.CUBE TMATMUL, FP16
    C.B.DIMI 16, ->lb0
    C.B.DIMI 16, ->lb1
    C.B.DIMI 32, ->lb2
    B.ARG NORM
    B.IOTI [t#1, u#1], last

    BSTART.TMA TLOAD, FP16          # A[:, 32:64]
    C.B.DIMI 32, ->lb0
    C.B.DIMI 16, ->lb1
    C.B.DIMI 32, ->lb2
    B.ARG ND2NZ
    B.IOR [s5, s7],[]
    B.IOTI [], last ->t<1KB>
    BSTART.TMA TLOAD, FP16          # B[32:64, :]
    C.B.DIMI 16, ->lb0
    C.B.DIMI 32, ->lb1
    C.B.DIMI 16, ->lb2
    B.ARG ND2ZN
    B.IOR [s6, s8],[]
    B.IOTI [], last ->u<1KB>
    BSTART.CUBE TMATMUL.ACC, FP16
    C.B.DIMI 16, ->lb0
    C.B.DIMI 16, ->lb1
    C.B.DIMI 32, ->lb2
    B.ARG NORM
    B.IOTI [t#1, u#1], last

    BSTART.CUBE ACCCVT, FP32
    C.B.DIMI 16, ->lb0
    C.B.DIMI 16, ->lb1
    C.B.DIMI 32, ->lb2
    B.ARG NORM
    B.IOR [zero, zero, x0],[]
    B.IOTI [], last ->n<1KB>
    BSTART.TMA TSTORE, FP32         # NZ 16 x 16 -> C row-major
    C.B.DIMI 16, ->lb0
    C.B.DIMI 16, ->lb1
    C.B.DIMI 16, ->lb2
    B.ARG ND2NZ
    B.IOR [s2],[]
    B.IOTI [n#1], last ->t<1KB>

    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
ma: .zero 2 * 16 * 64
mb: .zero 2 * 64 * 16
mc: .zero 4 * 16 * 16
