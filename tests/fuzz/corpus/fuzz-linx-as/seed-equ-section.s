    .data
    .equ a, b + 1
    .equ b, 2
    .quad a
    .section .x,"a"
    .byte 1
