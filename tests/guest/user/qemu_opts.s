# Driven by tests/functional/user-qemu-options.py (linx-user's qemu-style
# options): writes to standard output, in order,
#   1. 16 bytes of getrandom() (-seed N makes them the splitmix64 stream of
#      N after AT_RANDOM's 16 bytes),
#   2. the value of the environment variable LINX_QTEST (-E, -U,
#      LINX_SET_ENV) and a newline ("-" when unset),
#   3. the first bytes of /linx-qtest-probe.txt (-L PREFIX) or "no file";
# and exits 0.  Expanded by lutest.py.
    .equ AT_FDCWD, -100

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    c.movr sp, ->s0                 # s0 -> argc
    addtpc buf, ->s1
    addi s1, buf, ->s1
    c.movr s1, ->a0
    hl.lis 16, ->a1
    hl.lis 0, ->a2
%SYSCALL getrandom
%CHECK a0, 16
    hl.lis 1, ->a0
    c.movr s1, ->a1
    hl.lis 16, ->a2
%SYSCALL write
# envp starts after argv's NULL: argc at [s0], argv at s0+8
    ldi [s0, 0], ->a3
    addi a3, 2, ->a3
    slli a3, 3, ->a3
    add s0, a3, ->s2                # s2 -> envp[0]
.Lenv:
    C.BSTART COND, .Lnone
    ldi [s2, 0], ->s3
    setc.eq s3, zero
    C.BSTART.STD FALL
    addtpc key, ->s6
    addi s6, key, ->s6
    hl.lis 0, ->s7                  # i
.Lcmp:                              # s3[i] == key[i] for i < 11
    C.BSTART COND, .Lnext
    add s3, s7, ->t
    lbui [t#1, 0], ->a4
    add s6, s7, ->t
    lbui [t#1, 0], ->a5
    setc.ne a4, a5
    C.BSTART COND, .Lcmp
    addi s7, 1, ->s7
    setc.nei s7, 11
    C.BSTART DIRECT, .Lcmp_ok
.Lnext:
    C.BSTART DIRECT, .Lenv
    addi s2, 8, ->s2
.Lcmp_ok:
    C.BSTART.STD FALL
    addi s3, 11, ->s4               # the value
    c.movr s4, ->a1
    hl.lis 0, ->a2
.Llen:
    C.BSTART COND, .Llen
    add a1, a2, ->t
    lbui [t#1, 0], ->t
    addi a2, 1, ->a2
    setc.nei t#1, 0
    C.BSTART.STD FALL
    subi a2, 1, ->a2
    hl.lis 1, ->a0
%SYSCALL write
    C.BSTART DIRECT, .Lnl
.Lnone:
    C.BSTART.STD FALL
    hl.lis 1, ->a0
    addtpc dash, ->a1
    addi a1, dash, ->a1
    hl.lis 1, ->a2
%SYSCALL write
.Lnl:
    C.BSTART.STD FALL
    hl.lis 1, ->a0
    addtpc nl, ->a1
    addi a1, nl, ->a1
    hl.lis 1, ->a2
%SYSCALL write
    hl.lis AT_FDCWD, ->a0
    addtpc probe, ->a1
    addi a1, probe, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
%SYSCALL openat
    C.BSTART COND, .Lnofile
    c.movr a0, ->s5
    setc.lti s5, 0
    C.BSTART.STD FALL
    c.movr s5, ->a0
    c.movr s1, ->a1
    hl.lis 64, ->a2
%SYSCALL read
    c.movr a0, ->a2
    hl.lis 1, ->a0
    c.movr s1, ->a1
%SYSCALL write
%EXIT 0
.Lnofile:
    C.BSTART.STD FALL
    hl.lis 1, ->a0
    addtpc nofile, ->a1
    addi a1, nofile, ->a1
    hl.lis 7, ->a2
%SYSCALL write
%EXIT 0

    .section .rodata
key:
    .ascii "LINX_QTEST="
dash:
    .ascii "-"
nl:
    .ascii "\n"
probe:
    .asciz "/linx-qtest-probe.txt"
nofile:
    .ascii "no file"
    .bss
buf:
    .zero 64
