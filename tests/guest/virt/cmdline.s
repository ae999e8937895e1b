# virt machine: -append STRING puts the string below the boot stack and
# its address in a2 (docs/virt.md); echo it on the UART, then "|" and a
# newline, and exit 0.
    .equ UART, 0x10000000
    .equ EXIT_OFFSET, 4

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    lui UART >> 12, ->a0
    c.movr a2, ->a1
loop:
    C.BSTART COND, loop
    lbui [a1, 0], ->a3
    sbi a3, [a0, 0]
    addi a1, 1, ->a1
    lbui [a1, 0], ->t
    setc.nei t#1, 0
    C.BSTART.STD FALL
    addi zero, 124, ->a3
    sbi a3, [a0, 0]
    addi zero, 10, ->a3
    sbi a3, [a0, 0]
    swi zero, [a0, EXIT_OFFSET]
    C.BSTOP
