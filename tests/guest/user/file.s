# File I/O through linx-user, in the temporary directory the runner makes
# the current directory: openat/write/close, openat/fstat/read/lseek/
# pread64/pwrite64, writev and readv, mkdirat/newfstatat/getdents64/
# faccessat, unlinkat (file and directory), ENOENT afterwards, and getcwd.
# Expanded by lutest.py (%SYSCALL, %CHECK); exits 0 when every check holds.
    .equ AT_FDCWD, -100
    .equ O_WRONLY_CREAT_TRUNC, 0x241
    .equ O_RDONLY, 0
    .equ O_DIRECTORY, 0x10000
    .equ AT_REMOVEDIR, 0x200
    .equ ENOENT, 2
    .equ S_IFMT, 0xf000
    .equ S_IFDIR, 0x4000
    .equ ST_MODE, 16                # asm-generic struct stat offsets
    .equ ST_SIZE, 48

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc buf, ->s0
    addi s0, buf, ->s0              # s0 = scratch buffer
    addtpc fname, ->s1
    addi s1, fname, ->s1            # s1 = "data.txt"
    addtpc hello, ->s2
    addi s2, hello, ->s2            # s2 = "hello, file\n"

# create and write
    hl.lis AT_FDCWD, ->a0
    c.movr s1, ->a1
    hl.lis O_WRONLY_CREAT_TRUNC, ->a2
    hl.lis 0644, ->a3
%SYSCALL openat
    c.movr a0, ->s3                 # s3 = fd
    cmp.lti s3, 3, ->a0
%CHECK a0, 0
    c.movr s3, ->a0
    c.movr s2, ->a1
    hl.lis 12, ->a2
%SYSCALL write
%CHECK a0, 12
    c.movr s3, ->a0                 # pwrite64 "HE" at offset 0
    addtpc upper, ->a1
    addi a1, upper, ->a1
    hl.lis 2, ->a2
    hl.lis 0, ->a3
%SYSCALL pwrite64
%CHECK a0, 2
    c.movr s3, ->a0
%SYSCALL close
%CHECK a0, 0

# read it back
    hl.lis AT_FDCWD, ->a0
    c.movr s1, ->a1
    hl.lis O_RDONLY, ->a2
    hl.lis 0, ->a3
%SYSCALL openat
    c.movr a0, ->s3
    c.movr s3, ->a0
    c.movr s0, ->a1
%SYSCALL fstat
%CHECK a0, 0
    ldi [s0, ST_SIZE], ->a0
%CHECK a0, 12
    c.movr s3, ->a0
    c.movr s0, ->a1
    hl.lis 64, ->a2
%SYSCALL read
%CHECK a0, 12
    lbui [s0, 0], ->a0
%CHECK a0, 'H'
    lbui [s0, 1], ->a0
%CHECK a0, 'E'
    lbui [s0, 2], ->a0
%CHECK a0, 'l'
    lbui [s0, 11], ->a0
%CHECK a0, '\n'
    c.movr s3, ->a0                 # at EOF
    c.movr s0, ->a1
    hl.lis 64, ->a2
%SYSCALL read
%CHECK a0, 0
    c.movr s3, ->a0                 # lseek(fd, 7, SEEK_SET)
    hl.lis 7, ->a1
    hl.lis 0, ->a2
%SYSCALL lseek
%CHECK a0, 7
    c.movr s3, ->a0
    c.movr s0, ->a1
    hl.lis 4, ->a2
%SYSCALL read
%CHECK a0, 4
    lbui [s0, 0], ->a0
%CHECK a0, 'f'
    c.movr s3, ->a0                 # pread64(fd, buf, 3, 4) = "o, "
    c.movr s0, ->a1
    hl.lis 3, ->a2
    hl.lis 4, ->a3
%SYSCALL pread64
%CHECK a0, 3
    lbui [s0, 0], ->a0
%CHECK a0, 'o'
    c.movr s3, ->a0
%SYSCALL close
%CHECK a0, 0

# a directory, its listing, and removing both
    hl.lis AT_FDCWD, ->a0
    addtpc dname, ->a1
    addi a1, dname, ->a1
    hl.lis 0755, ->a2
%SYSCALL mkdirat
%CHECK a0, 0
    hl.lis AT_FDCWD, ->a0
    addtpc dname, ->a1
    addi a1, dname, ->a1
    c.movr s0, ->a2
    hl.lis 0, ->a3
%SYSCALL newfstatat
%CHECK a0, 0
    lwui [s0, ST_MODE], ->a0
    hl.lis S_IFMT, ->a1
    and a0, a1, ->a0
%CHECK a0, S_IFDIR
    hl.lis AT_FDCWD, ->a0           # open "." and list it
    addtpc dot, ->a1
    addi a1, dot, ->a1
    hl.lis O_DIRECTORY, ->a2
    hl.lis 0, ->a3
%SYSCALL openat
    c.movr a0, ->s3
    c.movr s3, ->a0
    c.movr s0, ->a1
    hl.lis 1024, ->a2
%SYSCALL getdents64
    cmp.lti a0, 4 * 24, ->a0        # ".", "..", "data.txt", "sub": 4 entries
%CHECK a0, 0
    c.movr s3, ->a0
%SYSCALL close
    hl.lis AT_FDCWD, ->a0
    c.movr s1, ->a1
    hl.lis 0, ->a2
%SYSCALL unlinkat
%CHECK a0, 0
    hl.lis AT_FDCWD, ->a0
    addtpc dname, ->a1
    addi a1, dname, ->a1
    hl.lis AT_REMOVEDIR, ->a2
%SYSCALL unlinkat
%CHECK a0, 0
    hl.lis AT_FDCWD, ->a0           # gone
    c.movr s1, ->a1
    hl.lis 0, ->a2
    hl.lis 0, ->a3
%SYSCALL faccessat
%CHECK a0, -ENOENT
    hl.lis AT_FDCWD, ->a0
    c.movr s1, ->a1
    hl.lis O_RDONLY, ->a2
%SYSCALL openat
%CHECK a0, -ENOENT

# getcwd returns the length with the NUL; the runner's directory is
# /tmp/linx-guest-... so it starts with '/'
    c.movr s0, ->a0
    hl.lis 512, ->a1
%SYSCALL getcwd
    cmp.lti a0, 2, ->a1
%CHECK a1, 0
    lbui [s0, 0], ->a0
%CHECK a0, '/'

# writev "file ok\n" to stdout in two pieces
    addtpc iov, ->s4
    addi s4, iov, ->s4
    addtpc okmsg, ->a0
    addi a0, okmsg, ->a0
    sdi a0, [s4, 0]
    addi a0, 5, ->a0
    sdi a0, [s4, 16]
    hl.lis 1, ->a0
    c.movr s4, ->a1
    hl.lis 2, ->a2
%SYSCALL writev
%CHECK a0, 8
%EXIT 0

    .section .rodata
fname:
    .asciz "data.txt"
dname:
    .asciz "sub"
dot:
    .asciz "."
hello:
    .ascii "hello, file\n"
upper:
    .ascii "HE"
okmsg:
    .ascii "file ok\n"

    .data
    .p2align 3
iov:                                # { base, 5 }, { base + 5, 3 }
    .quad 0, 5, 0, 3

    .bss
    .p2align 3
buf:
    .zero 1024
