# Mmad (hw/linx/buffers-mmad.h): C = A x B with A (M x K) placed by the
# runner in L0A, B (K x N) in L0B, C (M x N) read back from L0C, all at
# offset 0 (docs/optest.md "Places": `at L0A`).  M, N, K and the DataType
# code DT come from the case's defines.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x18282000, ->s3
    sdi zero, [s3, 0]           # A: L0A offset
    sdi zero, [s3, 8]           # B: L0B offset
    sdi zero, [s3, 16]          # C: L0C offset
    hl.lis M, ->a0
    sdi a0, [s3, 24]
    hl.lis N, ->a0
    sdi a0, [s3, 32]
    hl.lis K, ->a0
    sdi a0, [s3, 40]
    hl.lis DT, ->a0
    sdi a0, [s3, 48]            # CTRL: DataType, accumulate clear
    hl.lis 1, ->a0
    sdi a0, [s3, 56]            # GO
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP
