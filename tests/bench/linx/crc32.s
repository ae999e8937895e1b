# (a1) CRC-32 (IEEE, reflected, table driven) over 64 MiB of xorshift
# bytes, chained over 6 passes: /work/shared/anchor/src/crc32.c in LinxISA
# assembly (same algorithm, sizes and checks: the check value of
# "123456789", table against bitwise CRC on a 64 KiB prefix, final CRC
# 0x4faa1cab).
#
# linx-run --ram-mib 65 crc32.elf        full size
# linx-run --ram-mib 65 --arg K ...      one pass over 64 MiB >> K (K <= 10;
#                                        prints the CRC, no expected value)
# The buffer is the RAM at 0x80000000; MARK brackets the timed passes.

    .equ BUF, 0x80000000
    .equ BUF_BYTES, 64 << 20
    .equ PASSES, 6
    .equ PREFIX, 65536

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    c.movr a0, ->s8                  # s8 = K (0: full size)
    hl.liu BUF_BYTES, ->s7           # s7 = bytes per pass
    srl s7, s8, ->s7
    addi zero, PASSES, ->s6          # s6 = passes
    BSTART COND, .Lfull
    setc.eqi s8, 0
    C.BSTART.STD FALL
    addi zero, 1, ->s6
.Lfull:
# make_table
    BSTART.STD CALL, make_table
    c.setret .Lr0, ->ra
# ok = crc_update(0, "123456789", 9) == 0xCBF43926
.Lr0:
    BSTART.STD CALL, crc_update
    c.setret .Lr1, ->ra
    addi zero, 0, ->a0
    hl.liu .Lcheck, ->a1
    addi zero, 9, ->a2
.Lr1:
    C.BSTART.STD FALL
    hl.liu 0xcbf43926, ->t
    cmp.eq a0, t#1, ->s5             # s5 = ok
# fill the buffer: for i += 8: buf[i..i+7] = xs64(&s)
    hl.lis 0x9e3779b9 - (1 << 32), ->a0
    slli a0, 32, ->a0
    hl.liu 0x7f4a7c15, ->t
    or a0, t#1, ->a0                 # s = 0x9E3779B97F4A7C15
    hl.liu BUF, ->a1
    add a1, s7, ->a2
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
    setc.ne a1, a2
# ok &= crc_update(0, buf, 65536) == crc_bitwise(0, buf, 65536)
    BSTART.STD CALL, crc_update
    c.setret .Lr2, ->ra
    addi zero, 0, ->a0
    hl.liu BUF, ->a1
    hl.liu PREFIX, ->a2
.Lr2:
    BSTART.STD CALL, crc_bitwise
    c.setret .Lr3, ->ra
    c.movr a0, ->s4
    addi zero, 0, ->a0
    hl.liu BUF, ->a1
    hl.liu PREFIX, ->a2
.Lr3:
    BSTART.STD CALL, bench_mark
    c.setret .Lr4, ->ra
    cmp.eq a0, s4, ->t
    and s5, t#1, ->s5
# timed: crc = 0; for p < passes: crc = crc_update(crc, buf, bytes)
.Lr4:
    C.BSTART.STD FALL
    addi zero, 0, ->s0               # crc
    addi zero, 0, ->s1               # p
.Lpass:
    BSTART.STD CALL, crc_update
    c.setret .Lr5, ->ra
    c.movr s0, ->a0
    hl.liu BUF, ->a1
    c.movr s7, ->a2
.Lr5:
    BSTART COND, .Lpass
    c.movr a0, ->s0
    addi s1, 1, ->s1
    setc.ne s1, s6
    BSTART.STD CALL, bench_mark
    c.setret .Lr6, ->ra
.Lr6:
    C.BSTART.STD FALL
    hl.liu 0x4faa1cab, ->a2
    BSTART COND, .Lr7
    setc.eqi s8, 0
    C.BSTART.STD FALL
    addi zero, 0, ->a2
.Lr7:
    BSTART.STD DIRECT, bench_finish
    hl.liu .Lname, ->a0
    c.movr s0, ->a1
    c.movr s5, ->a3

# make_table: crc_table[i] = CRC of byte i (bitwise, reflected)
make_table:
    C.BSTART.STD FALL
    hl.liu crc_table, ->a3
    hl.liu 0xedb88320, ->a4
    addi zero, 0, ->a0               # i
.Lmt_i:
    C.BSTART.STD FALL
    c.movr a0, ->a1                  # c = i
    addi zero, 8, ->a2               # k
.Lmt_k:
    BSTART COND, .Lmt_k
    andi a1, 1, ->t
    sub zero, t#1, ->t
    and t#1, a4, ->t
    srli a1, 1, ->a1
    xor a1, t#1, ->a1
    subi a2, 1, ->a2
    setc.nei a2, 0
    BSTART COND, .Lmt_i
    sw a1, [a3, a0<<2]
    addi a0, 1, ->a0
    setc.nei a0, 256
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

# crc_update(a0 = crc, a1 = p, a2 = n) -> a0
crc_update:
    C.BSTART.STD FALL
    hl.liu 0xffffffff, ->a4
    xor a0, a4, ->a0
    hl.liu crc_table, ->a3
    add a1, a2, ->a2
    BSTART COND, .Lcu_done
    setc.eq a1, a2
.Lcu_loop:
    BSTART COND, .Lcu_loop
    lbui [a1, 0], ->t
    xor a0, t#1, ->t
    andi t#1, 255, ->t
    lwu [a3, t#1<<2], ->t
    srli a0, 8, ->a0
    xor a0, t#1, ->a0
    addi a1, 1, ->a1
    setc.ne a1, a2
.Lcu_done:
    C.BSTART.STD RET
    xor a0, a4, ->a0
    c.setc.tgt ra
    C.BSTOP

# crc_bitwise(a0 = crc, a1 = p, a2 = n) -> a0
crc_bitwise:
    C.BSTART.STD FALL
    hl.liu 0xffffffff, ->a4
    xor a0, a4, ->a0
    hl.liu 0xedb88320, ->a5
    add a1, a2, ->a2
    BSTART COND, .Lcb_done
    setc.eq a1, a2
.Lcb_byte:
    C.BSTART.STD FALL
    lbui [a1, 0], ->t
    xor a0, t#1, ->a0
    addi zero, 8, ->a3
.Lcb_bit:
    BSTART COND, .Lcb_bit
    andi a0, 1, ->t
    sub zero, t#1, ->t
    and t#1, a5, ->t
    srli a0, 1, ->a0
    xor a0, t#1, ->a0
    subi a3, 1, ->a3
    setc.nei a3, 0
    BSTART COND, .Lcb_byte
    addi a1, 1, ->a1
    setc.ne a1, a2
.Lcb_done:
    C.BSTART.STD RET
    xor a0, a4, ->a0
    c.setc.tgt ra
    C.BSTOP

.Lname:
    .asciz "crc32"
.Lcheck:
    .ascii "123456789"

    .include "lib.s"

    .bss
    .p2align 2
crc_table:
    .zero 1024
