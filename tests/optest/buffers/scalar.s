# Scalar loads and stores through the buffer windows: the 16 int32 values
# the runner put at UB+0x40 are summed into `sum` (int64, GM) and written
# doubled to L1+0x1000, which the runner reads back.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x18200040, ->a1     # UB + 0x40
    hl.liu 0x18001000, ->a2     # L1 + 0x1000
    addi a1, 64, ->a3           # end of the 16 values
    hl.lis 0, ->a4              # the sum
.Lloop:
    C.BSTART COND, .Lloop
    lwi [a1, 0], ->a0
    add a4, a0, ->a4
    add a0, a0, ->a0
    swi a0, [a2, 0]
    addi a1, 4, ->a1
    addi a2, 4, ->a2
    cmp.ne a1, a3, ->t
    setc.ne t#1, zero
    C.BSTART.STD FALL
    addtpc sum, ->a0
    addi a0, sum, ->a0
    sdi a4, [a0, 0]
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP

    .data
    .p2align 6
sum: .zero 64
