# A TSTORE whose ValidCol (LB0 = 40) exceeds its Col (LB2 = 32): the
# illegal-parameter trap of rule validcol-gt-col (shared/docs/
# linxisa-digest.md: E_INST(EC_PARAM), TRAPNUM 4), and nothing stored.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc img, ->s1
    addi s1, img, ->s1
    addtpc dst, ->s2
    addi s2, dst, ->s2
    hl.lis 40, ->a0
    hl.lis 32, ->a1
    TLOAD.NORM <LB0:32, LB1:32, LB2:32, FP32>, [s1], ->T<4KB>
    TSTORE.NORM <LB0:a0, LB1:a1, LB2:a1, FP32>, T#1, [s2]
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .data
    .p2align 6
img: .zero 4096
dst: .zero 4096
