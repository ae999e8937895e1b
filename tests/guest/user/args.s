# The initial stack under linx-user: run as `args alpha "beta gamma"` with
# exactly one environment variable, LINX_TEST=42.  Checks sp alignment,
# argc, the argv and envp strings and terminators, and the auxiliary
# vector: AT_PAGESZ 4096, AT_ENTRY = _start, AT_PHENT 56, AT_PHNUM > 0,
# AT_UID = getuid(), AT_RANDOM readable, AT_EXECFN = argv[0], AT_HWCAP 0.
# Expanded by lutest.py; exits 0.
    .equ AT_NULL, 0
    .equ AT_PHENT, 4
    .equ AT_PHNUM, 5
    .equ AT_PAGESZ, 6
    .equ AT_ENTRY, 9
    .equ AT_UID, 11
    .equ AT_HWCAP, 16
    .equ AT_RANDOM, 25
    .equ AT_EXECFN, 31
    .equ AT_KEYS, 64

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    c.movr sp, ->s0                 # s0 -> argc
    andi s0, 15, ->a0
%CHECK a0, 0
    ldi [s0, 0], ->a0
%CHECK a0, 3
    ldi [s0, 16], ->s1              # argv[1] = "alpha"
    lbui [s1, 0], ->a0
%CHECK a0, 'a'
    lbui [s1, 4], ->a0
%CHECK a0, 'a'
    lbui [s1, 5], ->a0
%CHECK a0, 0
    ldi [s0, 24], ->s1              # argv[2] = "beta gamma"
    lbui [s1, 4], ->a0
%CHECK a0, ' '
    lbui [s1, 9], ->a0
%CHECK a0, 'a'
    lbui [s1, 10], ->a0
%CHECK a0, 0
    ldi [s0, 32], ->a0              # argv[3] = NULL
%CHECK a0, 0
    ldi [s0, 40], ->s1              # envp[0] = "LINX_TEST=42"
    lbui [s1, 0], ->a0
%CHECK a0, 'L'
    lbui [s1, 9], ->a0
%CHECK a0, '='
    lbui [s1, 10], ->a0
%CHECK a0, '4'
    lbui [s1, 11], ->a0
%CHECK a0, '2'
    lbui [s1, 12], ->a0
%CHECK a0, 0
    ldi [s0, 48], ->a0              # envp[1] = NULL
%CHECK a0, 0

# Copy each auxv value into table[key] (keys below AT_KEYS).
    addi s0, 56, ->s1               # s1 -> auxv[0]
    addtpc table, ->s2
    addi s2, table, ->s2
auxv_loop:
    C.BSTART COND, auxv_done
    ldi [s1, 0], ->a0
    setc.eqi a0, AT_NULL
    C.BSTART COND, auxv_next
    ldi [s1, 0], ->a0
    setc.geui a0, AT_KEYS
    C.BSTART.STD FALL
    ldi [s1, 0], ->a0
    slli a0, 3, ->a0
    add s2, a0, ->a0
    ldi [s1, 8], ->a1
    sdi a1, [a0, 0]
auxv_next:
    C.BSTART DIRECT, auxv_loop
    addi s1, 16, ->s1
auxv_done:
    C.BSTART.STD FALL
    ldi [s2, AT_PAGESZ * 8], ->a0
%CHECK a0, 4096
    ldi [s2, AT_PHENT * 8], ->a0
%CHECK a0, 56
    ldi [s2, AT_PHNUM * 8], ->a0
    cmp.lti a0, 1, ->a0
%CHECK a0, 0
    ldi [s2, AT_HWCAP * 8], ->a0
%CHECK a0, 0
    ldi [s2, AT_ENTRY * 8], ->a0
    addtpc _start, ->a1
    addi a1, _start, ->a1
%CHECKR a0, a1
%SYSCALL getuid
    ldi [s2, AT_UID * 8], ->a1
%CHECKR a0, a1
    ldi [s2, AT_RANDOM * 8], ->a0   # 16 readable bytes
    ldi [a0, 8], ->a1
    ldi [s2, AT_EXECFN * 8], ->a0   # same text as argv[0]
    ldi [s0, 8], ->a1
    lbui [a0, 0], ->a2
    lbui [a1, 0], ->a3
%CHECKR a2, a3
    lbui [a0, 1], ->a2
    lbui [a1, 1], ->a3
%CHECKR a2, a3
%EXIT 0

    .bss
    .p2align 3
table:
    .zero AT_KEYS * 8
