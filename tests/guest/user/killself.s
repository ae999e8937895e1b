# kill(getpid(), SIGTERM) with the default action: the process dies and
# linx-user exits with 128 + 15, naming the signal on stderr.
    .equ SIGTERM, 15

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
%SYSCALL getpid
    hl.lis SIGTERM, ->a1
%SYSCALL kill
%FAIL
