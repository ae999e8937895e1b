# virt machine: print a line on the UART data register, then end the run
# with status 0 through the EXIT register.  Built as ET_EXEC and ET_REL.
    .equ UART, 0x10000000
    .equ EXIT_OFFSET, 4

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc msg, ->a1
    addi a1, msg, ->a1
    lui UART >> 12, ->a0
loop:
    C.BSTART COND, loop
    lbui [a1, 0], ->a2
    sbi a2, [a0, 0]
    addi a1, 1, ->a1
    lbui [a1, 0], ->t
    setc.nei t#1, 0
    C.BSTART.STD FALL
    swi zero, [a0, EXIT_OFFSET]
    C.BSTOP
msg:
    .asciz "virt uart ok\n"
