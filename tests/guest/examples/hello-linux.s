# hello-linux.s: "hello" for Linux user mode: write(1, msg, 6), exit(0).
#
#   build/tools/linx-as/linx-as -o hello-linux tests/guest/examples/hello-linux.s
#
# System calls (shared/docs/decisions.md item 10): the number in a7
# (asm-generic table: 64 write, 93 exit), arguments in a0..a2, then
# `acrc 1`, which must be the last instruction of its block: a C.BSTOP
# follows it.

    .equ SYS_WRITE, 64
    .equ SYS_EXIT, 93
    .equ STDOUT, 1

    .text
    .globl _start
    .type _start, @function
_start:
    C.BSTART.STD                    # write(STDOUT, msg, len)
    addi zero, STDOUT, ->a0
    addtpc msg, ->a1
    addi a1, msg, ->a1
    addi zero, .Lmsg_end - msg, ->a2
    addi zero, SYS_WRITE, ->a7
    acrc 1
    C.BSTOP

    C.BSTART.STD                    # exit(0)
    addi zero, 0, ->a0
    addi zero, SYS_EXIT, ->a7
    acrc 1
    C.BSTOP
.Lend:
    .size _start, .Lend - _start

    .section .rodata
    .type msg, @object
msg:
    .ascii "hello\n"
.Lmsg_end:
    .size msg, .Lmsg_end - msg
