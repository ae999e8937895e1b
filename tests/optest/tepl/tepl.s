# Operator suite "tepl": z = relu(s * x + y) on 32 x 32 fp32 tiles with a
# chain of TEPL blocks (TMULS by the scalar s = a0's bits, TADD, TRELU)
# between a TLOAD of each input and a TSTORE of the result.
    .equ N, 32
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc mx, ->s0
    addi s0, mx, ->s0
    addtpc my, ->s1
    addi s1, my, ->s1
    addtpc mz, ->s2
    addi s2, mz, ->s2
    c.movr a0, ->s3

    BSTART.TMA TLOAD, FP32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s0],[]
    B.IOTI [], last ->t<4KB>
    BSTART.TMA TLOAD, FP32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s1],[]
    B.IOTI [], last ->t<4KB>
    BSTART.TEPL TMULS, FP32         # t#1 = s * x (x is t#2)
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    B.IOR [s3],[]
    B.IOTI [t#2], last ->t<4KB>
    BSTART.TEPL TADD, FP32          # t#1 = s * x + y (y is t#2 now)
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    B.IOTI [t#1, t#2], last ->t<4KB>
    BSTART.TEPL TRELU, FP32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    B.IOTI [t#1], last ->t<4KB>
    BSTART.TMA TSTORE, FP32
    C.B.DIMI N, ->lb0
    C.B.DIMI N, ->lb1
    C.B.DIMI N, ->lb2
    B.ARG NORM.normal
    B.IOR [s2],[]
    B.IOTI [t#1], last ->t<4KB>

    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .bss
    .p2align 6
mx: .zero 4 * N * N
my: .zero 4 * N * N
mz: .zero 4 * N * N
