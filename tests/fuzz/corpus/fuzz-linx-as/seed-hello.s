# hello.s: print "hello" on the virt machine's UART, then stop the run with
# exit code 0.  The bundled example of linx-as (docs/assembler.md).
#
#   build/tools/linx-as/linx-as -o hello.elf tests/guest/examples/hello.s
#   build/tools/linx-objdump -d hello.elf
#
# virt memory map (shared/docs/decisions.md item 10): the UART data
# register is at 0x10000000, writing the EXIT register at 0x10000004 ends
# the run with that value.  The program is position independent (ADDTPC),
# so it runs as ET_EXEC, as the ET_REL the virt machine loads (-r, .text
# at 0x10000), or as a raw binary (-f bin).

    .equ UART, 0x10000000
    .equ EXIT_OFFSET, 4             # EXIT = UART + 4

    .text
    .globl _start
    .type _start, @function
_start:
    C.BSTART.STD                    # FALL block: set up the pointers
    addtpc msg, ->a1                # a1 = page of msg ...
    addi a1, msg, ->a1              # ... + its low 12 bits
    lui UART >> 12, ->a0            # a0 = UART

putc:
    C.BSTART COND, putc             # loop block: once per character
    lbui [a1, 0], ->a2              # a2 = *a1
    sbi a2, [a0, 0]                 # UART <- a2
    addi a1, 1, ->a1                # a1++
    lbui [a1, 0], ->t               # next character ...
    setc.nei t#1, 0                 # ... not NUL: take the branch to putc

    C.BSTART.STD                    # FALL block: exit(0)
    swi zero, [a0, EXIT_OFFSET]     # EXIT <- 0 (the offset is in bytes)
    C.BSTOP
.Lend:
    .size _start, .Lend - _start

    # Kept in .text so that a loader of .text alone (ET_REL) has it too.
    .type msg, @object
msg:
    .asciz "hello\n"
    .size msg, . - msg
