# Memory through linx-user: brk (grow, use, shrink), mmap of anonymous
# memory, mprotect, mremap growing with MREMAP_MAYMOVE (contents kept),
# madvise(MADV_DONTNEED) zeroing, munmap, and EINVAL for bad arguments.
# Expanded by lutest.py; exits 0.
    .equ PROT_READ, 1
    .equ PROT_RW, 3
    .equ MAP_PRIVATE_ANON, 0x22
    .equ MREMAP_MAYMOVE, 1
    .equ MADV_DONTNEED, 4
    .equ EINVAL, 22
    .equ PAGE, 4096

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 0, ->a0
%SYSCALL brk
    c.movr a0, ->s0                 # s0 = the initial break
    hl.andi s0, 4095, ->a0
%CHECK a0, 0
    hl.lis 0x10000, ->a1
    add s0, a1, ->s1                # s1 = break + 64 KiB
    c.movr s1, ->a0
%SYSCALL brk
%CHECKR a0, s1
    subi s1, 8, ->a3                # the last word of the new area
    hl.lis 0x1234, ->a2
    sdi a2, [a3, 0]
    ldi [a3, 0], ->a4
%CHECK a4, 0x1234
    sdi a2, [s0, 0]                 # and the first
    ldi [s0, 0], ->a4
%CHECK a4, 0x1234
    c.movr s0, ->a0
%SYSCALL brk
%CHECKR a0, s0

# mmap three pages, use them
    hl.lis 0, ->a0
    hl.lis 3 * PAGE, ->a1
    hl.lis PROT_RW, ->a2
    hl.lis MAP_PRIVATE_ANON, ->a3
    hl.lis -1, ->a4
    hl.lis 0, ->a5
%SYSCALL mmap
    c.movr a0, ->s2
    hl.cmp.ltui s2, 4096, ->a0      # an address, not an error (or NULL)
%CHECK a0, 0
    hl.lis 2 * PAGE, ->a0
    add s2, a0, ->s3                # s3 = third page
    ldi [s3, 8], ->a1               # fresh memory reads 0
%CHECK a1, 0
    hl.lis 0x5a5a, ->a1
    sdi a1, [s3, 8]
    ldi [s3, 8], ->a2
%CHECK a2, 0x5a5a
    c.movr s2, ->a0                 # first page read-only
    hl.lis PAGE, ->a1
    hl.lis PROT_READ, ->a2
%SYSCALL mprotect
%CHECK a0, 0
    ldi [s2, 0], ->a0
%CHECK a0, 0

# grow to 16 pages: it may move, the data comes along
    c.movr s2, ->a0
    hl.lis 3 * PAGE, ->a1
    hl.lis 16 * PAGE, ->a2
    hl.lis MREMAP_MAYMOVE, ->a3
%SYSCALL mremap
    c.movr a0, ->s4
    hl.cmp.ltui s4, 4096, ->a0
%CHECK a0, 0
    hl.lis 2 * PAGE, ->a0
    add s4, a0, ->s5
    ldi [s5, 8], ->a1
%CHECK a1, 0x5a5a
    hl.lis 15 * PAGE, ->a0          # the new tail is usable
    add s4, a0, ->a3
    sdi a1, [a3, 0]
    ldi [a3, 0], ->a2
%CHECK a2, 0x5a5a

# MADV_DONTNEED: the page reads 0 again
    c.movr s5, ->a0
    hl.lis PAGE, ->a1
    hl.lis MADV_DONTNEED, ->a2
%SYSCALL madvise
%CHECK a0, 0
    ldi [s5, 8], ->a1
%CHECK a1, 0

    c.movr s4, ->a0
    hl.lis 16 * PAGE, ->a1
%SYSCALL munmap
%CHECK a0, 0
    addi s4, 1, ->a0                # misaligned
    hl.lis PAGE, ->a1
%SYSCALL munmap
%CHECK a0, -EINVAL
    hl.lis 0, ->a0                  # length 0
    hl.lis 0, ->a1
    hl.lis PROT_RW, ->a2
    hl.lis MAP_PRIVATE_ANON, ->a3
    hl.lis -1, ->a4
    hl.lis 0, ->a5
%SYSCALL mmap
%CHECK a0, -EINVAL
%EXIT 0
