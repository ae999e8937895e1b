# (c) memcpy-heavy loop: /work/shared/anchor/src/memcpyb.c in LinxISA
# assembly (same sizes, offsets, checks and checksum 0x72398451).
# 15M small copies (8..512 bytes) and 30000 large ones (4 KiB..1 MiB)
# between two 4 MiB buffers at varying, unaligned offsets; each copy is
# spot-checked and a byte of it summed.
#
# memcpy is MCOPY, the ISA's block-level copy (the default), or a
# scalar memcpy in the style of a C library (align the destination,
# 8-byte words, shift-merge for a misaligned source, byte tail).
#
# linx-run --ram-mib 8 memcpy.elf              full size, MCOPY
# linx-run --ram-mib 8 --arg 256 memcpy.elf    full size, scalar memcpy
# --arg K (+ 256): calls >> K (prints the sum, no expected value)
# Memory (RAM at 0x80000000): src, dst (4 MiB each).

    .equ RAM, 0x80000000
    .equ BUF, 4 << 20
    .equ SMALL_CALLS, 15000000
    .equ LARGE_CALLS, 30000

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    andi a0, 255, ->s7               # s7 = K
    hl.liu memcpy_mcopy, ->s6        # s6 = memcpy
    BSTART COND, .Lmcopy
    srli a0, 8, ->t
    setc.eqi t#1, 0
    C.BSTART.STD FALL
    hl.liu memcpy_scalar, ->s6
.Lmcopy:
    C.BSTART.STD FALL
    hl.liu RAM, ->s0                 # s0 = src
    hl.liu BUF, ->t
    add s0, t#1, ->s1                # s1 = dst (zero: fresh RAM)
# src: xorshift words, seed 0xD1B54A32D192ED03
    hl.lis 0xd1b54a32 - (1 << 32), ->a0
    slli a0, 32, ->a0
    hl.liu 0xd192ed03, ->t
    or a0, t#1, ->a0
    c.movr s0, ->a1
.Lfill:
    BSTART COND, .Lfill
    slli a0, 13, ->t
    xor a0, t#1, ->a0
    srli a0, 7, ->t
    xor a0, t#1, ->a0
    slli a0, 17, ->t
    xor a0, t#1, ->a0
    sdi a0, [a1, 0]
    addi a1, 8, ->a1
    setc.ne a1, s1
    BSTART.STD CALL, bench_mark
    c.setret .Lr0, ->ra
.Lr0:
    C.BSTART.STD FALL
    addi zero, 0, ->s4               # sum
    addi zero, 1, ->s5               # ok
    hl.liu .Lsmall_sizes, ->x3
    hl.liu SMALL_CALLS, ->t
    srl t#1, s7, ->s2                # calls
    addi zero, 0, ->s3               # r
    BSTART COND, .Lsmall_done
    setc.eqi s2, 0
# small phase: n = small[r % 7], os = (r * 2654435761u) % (BUF - n),
# od = (r * 40503u + 17) % (BUF - n)
.Lsmall:
    C.BSTART.STD FALL
    addi zero, 7, ->t
    remu s3, t#1, ->t
    ld [x3, t#1<<3], ->x0            # n
    hl.liu BUF, ->t
    sub t#1, x0, ->a4                # BUF - n
    hl.liu 0x9e3779b1, ->t
    mul s3, t#1, ->t
    add zero, t#1.uw, ->t
    remu t#1, a4, ->x1               # os
    hl.liu 40503, ->t
    mul s3, t#1, ->t
    addi t#1, 17, ->t
    add zero, t#1.uw, ->t
    remu t#1, a4, ->x2               # od
    BSTART.STD ICALL
    c.setret .Lsmall_ret, ->ra
    add s1, x2, ->a0
    add s0, x1, ->a1
    c.movr x0, ->a2
    c.setc.tgt s6
# ok &= dst[od + n - 1] == src[os + n - 1]; sum += dst[od + n / 2]
.Lsmall_ret:
    BSTART COND, .Lsmall
    add s1, x2, ->t
    add t#1, x0, ->t
    lbui [t#1, -1], ->a1
    add s0, x1, ->t
    add t#1, x0, ->t
    lbui [t#1, -1], ->t
    cmp.eq a1, t#1, ->t
    and s5, t#1, ->s5
    srli x0, 1, ->t
    add t#1, x2, ->t
    lbu [s1, t#1], ->t
    add s4, t#1, ->s4
    addi s3, 1, ->s3
    setc.ne s3, s2
.Lsmall_done:
    C.BSTART.STD FALL
    hl.liu .Llarge_sizes, ->x3
    hl.liu LARGE_CALLS, ->t
    srl t#1, s7, ->s2
    addi zero, 0, ->s3
    BSTART COND, .Llarge_done
    setc.eqi s2, 0
# large phase: n = large[r % 5], os = (r * 2654435761u) % (BUF - n),
# od = (r * 97u + 3) % (BUF - n)
.Llarge:
    C.BSTART.STD FALL
    addi zero, 5, ->t
    remu s3, t#1, ->t
    ld [x3, t#1<<3], ->x0
    hl.liu BUF, ->t
    sub t#1, x0, ->a4
    hl.liu 0x9e3779b1, ->t
    mul s3, t#1, ->t
    add zero, t#1.uw, ->t
    remu t#1, a4, ->x1
    addi zero, 97, ->t
    mul s3, t#1, ->t
    addi t#1, 3, ->t
    add zero, t#1.uw, ->t
    remu t#1, a4, ->x2
    BSTART.STD ICALL
    c.setret .Llarge_ret, ->ra
    add s1, x2, ->a0
    add s0, x1, ->a1
    c.movr x0, ->a2
    c.setc.tgt s6
# ok &= dst[od] == src[os] && dst[od + n - 1] == src[os + n - 1]
.Llarge_ret:
    BSTART COND, .Llarge
    lbu [s1, x2], ->a1
    lbu [s0, x1], ->t
    cmp.eq a1, t#1, ->t
    and s5, t#1, ->s5
    add s1, x2, ->t
    add t#1, x0, ->t
    lbui [t#1, -1], ->a1
    add s0, x1, ->t
    add t#1, x0, ->t
    lbui [t#1, -1], ->t
    cmp.eq a1, t#1, ->t
    and s5, t#1, ->s5
    srli x0, 1, ->t
    add t#1, x2, ->t
    lbu [s1, t#1], ->t
    add s4, t#1, ->s4
    addi s3, 1, ->s3
    setc.ne s3, s2
.Llarge_done:
    BSTART.STD CALL, bench_mark
    c.setret .Lr1, ->ra
.Lr1:
    C.BSTART.STD FALL
    hl.liu 0x72398451, ->a2
    BSTART COND, .Lr2
    setc.eqi s7, 0
    C.BSTART.STD FALL
    addi zero, 0, ->a2
.Lr2:
    BSTART.STD DIRECT, bench_finish
    hl.liu .Lname, ->a0
    c.movr s4, ->a1
    c.movr s5, ->a3

# memcpy_mcopy(a0 = dst, a1 = src, a2 = n)
memcpy_mcopy:
    MCOPY [a0, a1, a2]
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

# memcpy_scalar(a0 = dst, a1 = src, a2 = n): uses a0..a7 only
memcpy_scalar:
    C.BSTART.STD FALL
    add a0, a2, ->a7                 # dst end
    BSTART COND, .Lms_bytes
    setc.ltui a2, 16
# align the destination to 8 bytes
    C.BSTART.STD FALL
    sub zero, a0, ->t
    andi t#1, 7, ->t
    add a0, t#1, ->a3
    BSTART COND, .Lms_head_done
    setc.eq a0, a3
.Lms_head:
    BSTART COND, .Lms_head
    lbui [a1, 0], ->t
    sbi t#1, [a0, 0]
    addi a0, 1, ->a0
    addi a1, 1, ->a1
    setc.ne a0, a3
.Lms_head_done:
    BSTART COND, .Lms_misaligned
    andi a7, -8, ->a4                # end of the words
    andi a1, 7, ->a5                 # source misalignment
    setc.nei a5, 0
.Lms_words:
    BSTART COND, .Lms_words
    ldi [a1, 0], ->t
    sdi t#1, [a0, 0]
    addi a0, 8, ->a0
    addi a1, 8, ->a1
    setc.ne a0, a4
    BSTART DIRECT, .Lms_bytes
# misaligned source: whole aligned source words, shifted and merged
.Lms_misaligned:
    C.BSTART.STD FALL
    slli a5, 3, ->a5                 # sh = 8 * off
    addi zero, 64, ->t
    sub t#1, a5, ->a3                # 64 - sh
    andi a1, -8, ->a6                # aligned source
    ldi [a6, 0], ->a2                # previous word
.Lms_mis:
    BSTART COND, .Lms_mis
    ldi [a6, 8], ->t                 # next word
    srl a2, a5, ->t
    sll t#2, a3, ->t
    or t#1, t#2, ->t
    sdi t#1, [a0, 0]
    c.movr t#4, ->a2
    addi a6, 8, ->a6
    addi a0, 8, ->a0
    setc.ne a0, a4
    C.BSTART.STD FALL
    srli a5, 3, ->t
    add a6, t#1, ->a1
.Lms_bytes:
    BSTART COND, .Lms_done
    setc.eq a0, a7
.Lms_byte:
    BSTART COND, .Lms_byte
    lbui [a1, 0], ->t
    sbi t#1, [a0, 0]
    addi a0, 1, ->a0
    addi a1, 1, ->a1
    setc.ne a0, a7
.Lms_done:
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

.Lname:
    .asciz "memcpy"
    .p2align 3
.Lsmall_sizes:
    .quad 8, 13, 32, 64, 100, 256, 512
.Llarge_sizes:
    .quad 4096, 16384, 65536, 262144, 1048576

    .include "lib.s"
