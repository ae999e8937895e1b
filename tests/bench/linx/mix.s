# (a2) CoreMark-like integer mix: /work/shared/anchor/src/mix.c in
# LinxISA assembly (same algorithm, sizes and checksum 0x5c13).  Per
# iteration (10000):
#  - linked list: build 512 nodes with xorshift keys, bottom-up merge
#    sort by key, check the order and count keys ending in 0x5a, sort by
#    index, reverse;
#  - matrix: 48x48 int32 multiply and bit extraction;
#  - state machine over a 4096-character numeric-ish string (a jump
#    table: an IND block per character);
# folded into a CRC16.
#
# linx-run --ram-mib 1 mix.elf            full size
# linx-run --ram-mib 1 --arg K mix.elf    10000 >> K iterations (prints the
#                                         CRC, no expected value)
# Memory (RAM at 0x80000000): pool (512 x 16 bytes), matrices a, b, c
# (48 x 48 int32 each), the string (4097 bytes).

    .equ RAM, 0x80000000
    .equ ITERS, 10000
    .equ NLIST, 512
    .equ MN, 48
    .equ SLEN, 4096
    .equ MAT_BYTES, MN * MN * 4
    .equ NALPHA, 33

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    c.movr a0, ->s8                  # K
    hl.lis ITERS, ->t
    srl t#1, s8, ->s7                # s7 = iterations
    hl.liu RAM, ->s0                 # s0 = pool
    hl.liu RAM + NLIST * 16, ->s1    # s1 = a (b, c follow)
    hl.liu RAM + NLIST * 16 + 3 * MAT_BYTES, ->s2   # s2 = s
    hl.liu seed, ->s3                # s3 = &seed
    hl.lis 0x243f6a88, ->a0
    slli a0, 32, ->a0
    hl.liu 0x85a308d3, ->t
    or a0, t#1, ->a0                 # seed = 0x243F6A8885A308D3
    hl.liu alphabet, ->a3
    addi zero, NALPHA, ->a4
    c.movr s2, ->a1
    hl.liu SLEN, ->t
    add s2, t#1, ->a2
# s[i] = alphabet[xs64(&seed) % 33]
.Linit:
    BSTART COND, .Linit
    slli a0, 13, ->t
    xor a0, t#1, ->a0
    srli a0, 7, ->t
    xor a0, t#1, ->a0
    slli a0, 17, ->t
    xor a0, t#1, ->a0
    remu a0, a4, ->t
    lbu [a3, t#1], ->t
    sbi t#1, [a1, 0]
    addi a1, 1, ->a1
    setc.ne a1, a2
    BSTART.STD CALL, bench_mark
    c.setret .Lr0, ->ra
    sdi a0, [s3, 0]
    sbi zero, [a2, 0]                # s[SLEN] = 0
.Lr0:
    C.BSTART.STD FALL
    hl.liu 0xffff, ->s4              # crc
    addi zero, 1, ->s5               # ok
    addi zero, 0, ->s6               # it
    BSTART COND, .Lit_done
    setc.eqi s7, 0
.Lit:
    BSTART.STD CALL, list_work
    c.setret .Lr1, ->ra
    c.movr s0, ->a0
    c.movr s3, ->a1
    c.movr s4, ->a2
.Lr1:
    BSTART.STD CALL, matrix_work
    c.setret .Lr2, ->ra
    cmp.nei a0, 0, ->t
    and s5, t#1, ->s5                # ok &= c1 != 0
    c.movr a0, ->a3
    c.movr s1, ->a0
    hl.liu MAT_BYTES, ->t
    add s1, t#1, ->a1
    add a1, t#1, ->a2
    c.movr s6, ->a4
.Lr2:
    BSTART.STD CALL, state_work
    c.setret .Lr3, ->ra
    c.movr a0, ->a1
    c.movr s2, ->a0
# s[it % SLEN] = alphabet[(it * 7) % 33]
.Lr3:
    BSTART COND, .Lit
    c.movr a0, ->s4
    addi zero, 7, ->t
    mul s6, t#1, ->t
    addi zero, NALPHA, ->t
    remu t#2, t#1, ->t
    hl.liu alphabet, ->t
    lbu [t#1, t#2], ->t
    bxu s6, 0, 11, ->t               # it % SLEN
    sb t#2, [s2, t#1]
    addi s6, 1, ->s6
    setc.ne s6, s7
.Lit_done:
    BSTART.STD CALL, bench_mark
    c.setret .Lr4, ->ra
.Lr4:
    C.BSTART.STD FALL
    hl.liu 0x5c13, ->a2
    BSTART COND, .Lr5
    setc.eqi s8, 0
    C.BSTART.STD FALL
    addi zero, 0, ->a2
.Lr5:
    BSTART.STD DIRECT, bench_finish
    hl.liu .Lname, ->a0
    c.movr s4, ->a1
    c.movr s5, ->a3

# crc16_u32(a0 = crc, a1 = v) -> a0: 32 bits of v, LSB first, poly 0xA001
crc16_u32:
    C.BSTART.STD FALL
    addi zero, 32, ->a2
    hl.liu 0xa001, ->a3
.Lc16:
    BSTART COND, .Lc16
    xor a0, a1, ->t
    andi t#1, 1, ->t
    sub zero, t#1, ->t
    and t#1, a3, ->t
    srli a0, 1, ->a0
    xor a0, t#1, ->a0
    srli a1, 1, ->a1
    subi a2, 1, ->a2
    setc.nei a2, 0
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

# merge_sort(a0 = h, a1 = by_key) -> a0: bottom-up merge sort of a list
# of nodes { next +0, key +8, idx +12 } by key or by idx (leaf)
merge_sort:
    C.BSTART.STD FALL
    addi zero, 8, ->t
    addi zero, 12, ->t
    csel a1, t#2, t#1, ->a1          # field offset
    BSTART COND, .Lms_ret
    setc.eqi a0, 0
    BSTART COND, .Lms_ret
    ldi [a0, 0], ->t
    setc.eqi t#1, 0
    C.BSTART.STD FALL
    addi zero, 1, ->a2               # k
.Lms_pass:
    C.BSTART.STD FALL
    c.movr a0, ->a3                  # p = h
    addi zero, 0, ->a4               # tail
    addi zero, 0, ->a5               # merges
.Lms_outer:
    C.BSTART.STD FALL
    addi a5, 1, ->a5
    c.movr a3, ->a6                  # q = p
    addi zero, 0, ->a7               # ps
.Lms_step:
    BSTART COND, .Lms_step
    ldi [a6, 0], ->a6                # q = q->next
    addi a7, 1, ->a7                 # ps++
    cmp.ne a7, a2, ->t
    cmp.nei a6, 0, ->t
    setc.and t#1, t#2                # ps < k && q
    C.BSTART.STD FALL
    c.movr a2, ->x0                  # qs = k
.Lms_merge:
    BSTART COND, .Lms_merge_done
    cmp.nei x0, 0, ->t
    cmp.nei a6, 0, ->t
    and t#1, t#2, ->t
    or t#1, a7, ->t
    setc.eqi t#1, 0                  # !(ps > 0 || (qs > 0 && q))
    BSTART COND, .Lms_take_q
    setc.eqi a7, 0                   # ps == 0
    BSTART COND, .Lms_take_p
    cmp.eqi x0, 0, ->t
    cmp.eqi a6, 0, ->t
    setc.or t#1, t#2                 # qs == 0 || !q
    BSTART COND, .Lms_take_q
    lw [a3, a1], ->t
    lw [a6, a1], ->t
    setc.lt t#1, t#2                 # q's < p's
.Lms_take_p:
    BSTART DIRECT, .Lms_link
    c.movr a3, ->x1                  # e = p
    ldi [a3, 0], ->a3
    subi a7, 1, ->a7
.Lms_take_q:
    C.BSTART.STD FALL
    c.movr a6, ->x1                  # e = q
    ldi [a6, 0], ->a6
    subi x0, 1, ->x0
.Lms_link:
    BSTART COND, .Lms_link_tail
    setc.nei a4, 0
    BSTART DIRECT, .Lms_merge
    c.movr x1, ->a0                  # h = e
    c.movr x1, ->a4
.Lms_link_tail:
    BSTART DIRECT, .Lms_merge
    sdi x1, [a4, 0]                  # tail->next = e
    c.movr x1, ->a4
.Lms_merge_done:
    BSTART COND, .Lms_outer
    c.movr a6, ->a3                  # p = q
    setc.nei a3, 0
    BSTART COND, .Lms_pass
    sdi zero, [a4, 0]                # tail->next = NULL
    slli a2, 1, ->a2                 # k *= 2
    setc.geui a5, 2                  # merges > 1
.Lms_ret:
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

# list_work(a0 = pool, a1 = &seed, a2 = crc) -> a0 (0: sort broken)
list_work:
    FENTRY [ra ~ s3], sp!, 48
    C.BSTART.STD FALL
    c.movr a0, ->s0
    c.movr a1, ->s1
    c.movr a2, ->s2
    ldi [a1, 0], ->a3                # seed
    addi zero, 0, ->a4               # h
    addi zero, 0, ->a5               # i
    c.movr a0, ->a6                  # &pool[i]
    hl.liu 0xffff, ->a7
.Llw_build:
    BSTART COND, .Llw_build
    slli a3, 13, ->t
    xor a3, t#1, ->a3
    srli a3, 7, ->t
    xor a3, t#1, ->a3
    slli a3, 17, ->t
    xor a3, t#1, ->a3
    and a3, a7, ->t
    hl.lis 0x8000, ->t
    sub t#2, t#1, ->t
    swi t#1, [a6, 8]                 # key = (x & 0xffff) - 0x8000
    swi a5, [a6, 12]                 # idx = i
    sdi a4, [a6, 0]                  # next = h
    c.movr a6, ->a4                  # h = &pool[i]
    addi a6, 16, ->a6
    addi a5, 1, ->a5
    setc.nei a5, NLIST
    BSTART.STD CALL, merge_sort
    c.setret .Llw_r1, ->ra
    sdi a3, [s1, 0]
    c.movr a4, ->a0
    addi zero, 1, ->a1
# check the order; found = keys with low byte 0x5a
.Llw_r1:
    C.BSTART.STD FALL
    c.movr a0, ->s3                  # sorted list
    hl.lis -0x80000000, ->a2         # prev
    addi zero, 0, ->a3               # found
    c.movr a0, ->a4                  # p
    BSTART COND, .Llw_checked
    setc.eqi a4, 0
.Llw_check:
    BSTART COND, .Llw_broken
    lwi [a4, 8], ->a5
    setc.lt a5, a2                   # p->key < prev
    BSTART COND, .Llw_check
    c.movr a5, ->a2
    andi a5, 255, ->t
    cmp.eqi t#1, 0x5a, ->t
    add a3, t#1, ->a3
    ldi [a4, 0], ->a4
    setc.nei a4, 0
.Llw_checked:
    BSTART.STD CALL, merge_sort
    c.setret .Llw_r2, ->ra
    c.movr a3, ->s1                  # found (seed pointer no longer needed)
    c.movr s3, ->a0
    addi zero, 0, ->a1
# reverse
.Llw_r2:
    C.BSTART.STD FALL
    addi zero, 0, ->a1               # r
.Llw_rev:
    BSTART COND, .Llw_rev
    ldi [a0, 0], ->t                 # n = h->next
    sdi a1, [a0, 0]                  # h->next = r
    c.movr a0, ->a1                  # r = h
    c.movr t#1, ->a0                 # h = n
    setc.nei a0, 0
    BSTART.STD CALL, crc16_u32
    c.setret .Llw_r3, ->ra
    c.movr a1, ->s3
    c.movr s2, ->a0
    c.movr s1, ->a1
.Llw_r3:
    BSTART.STD CALL, crc16_u32
    c.setret .Llw_r4, ->ra
    lwi [s3, 12], ->a1
.Llw_r4:
    BSTART.STD CALL, crc16_u32
    c.setret .Llw_r5, ->ra
    lwi [s3, 8], ->a1
.Llw_r5:
    C.BSTART.STD FALL
    FRET.STK [ra ~ s3], sp!, 48
.Llw_broken:
    C.BSTART.STD FALL
    addi zero, 0, ->a0
    FRET.STK [ra ~ s3], sp!, 48

# matrix_work(a0 = a, a1 = b, a2 = c, a3 = crc, a4 = it) -> a0
matrix_work:
    C.BSTART.STD FALL
    addi zero, 0, ->a5               # i
    addi zero, 0, ->a6               # i * 7 + it ... computed below
.Lmw_init:
    BSTART COND, .Lmw_init
    addi zero, 7, ->t
    mul a5, t#1, ->t
    add t#1, a4, ->t
    andi t#1, 0x3ff, ->t
    sw t#1, [a0, a5<<2]
    addi zero, 13, ->t
    mul a5, t#1, ->t
    sub t#1, a4, ->t
    andi t#1, 0x3ff, ->t
    sw t#1, [a1, a5<<2]
    addi a5, 1, ->a5
    setc.nei a5, MN * MN
# c[i][j] = sum_k a[i][k] * b[k][j]
    C.BSTART.STD FALL
    c.movr a0, ->x0                  # &a[i][0]
    c.movr a2, ->x2                  # &c[i][j]
    hl.liu MAT_BYTES, ->t
    add a2, t#1, ->a7                # end of c
.Lmw_i:
    C.BSTART.STD FALL
    c.movr a1, ->x1                  # &b[0][j]
    addi x0, MN * 4, ->a6            # end of row i of a
.Lmw_j:
    C.BSTART.STD FALL
    c.movr x0, ->a4                  # pa
    c.movr x1, ->a5                  # pb
    addi zero, 0, ->x3               # acc
.Lmw_k:
    BSTART COND, .Lmw_k
    lwi [a4, 0], ->t
    lwi [a5, 0], ->t
    mulw t#1, t#2, ->t
    addw x3, t#1, ->x3
    addi a4, 4, ->a4
    addi a5, MN * 4, ->a5
    setc.ne a4, a6
    BSTART COND, .Lmw_j
    swi x3, [x2, 0]
    addi x2, 4, ->x2
    addi x1, 4, ->x1
    hl.liu MAT_BYTES / MN, ->t       # one row of b
    add a1, t#1, ->t
    setc.ne x1, t#1
    BSTART COND, .Lmw_i
    c.movr a6, ->x0
    setc.ne x2, a7
# bits = sum (c[i] >> 3) & 0x7f
    C.BSTART.STD FALL
    addi zero, 0, ->a1
.Lmw_bits:
    BSTART COND, .Lmw_bits
    lwi [a2, 0], ->t
    srai t#1, 3, ->t
    andi t#1, 0x7f, ->t
    addw a1, t#1, ->a1
    addi a2, 4, ->a2
    setc.ne a2, a7
    BSTART.STD DIRECT, crc16_u32     # tail call: crc16_u32(crc, bits)
    c.movr a3, ->a0

# state_work(a0 = s, a1 = crc) -> a0
state_work:
    FENTRY [ra ~ s1], sp!, 64
    C.BSTART.STD FALL
    c.movr a1, ->s0                  # crc
    sdi zero, [sp, 0]                # counts[0..6] (+ pad)
    sdi zero, [sp, 8]
    sdi zero, [sp, 16]
    sdi zero, [sp, 24]
    hl.liu SLEN + 1, ->t
    add a0, t#1, ->a1                # end
    addi zero, 0, ->a3               # st = S_START
    hl.liu .Lsw_table, ->x3
# per character: the state's case, or the separator case (index 7)
.Lsw_loop:
    C.BSTART.STD IND
    lbui [a0, 0], ->a2
    addi a0, 1, ->a0
    cmp.eqi a2, 44, ->t              # ','
    cmp.eqi a2, 0, ->t
    or t#1, t#2, ->t
    addi zero, 7, ->t
    csel t#2, t#1, a3, ->t
    ld [x3, t#1<<3], ->t
    c.setc.tgt t#1
.Lsw_start:                          # digit -> INT, '+'/'-' -> SIGN, else BAD
    BSTART COND, .Lsw_loop
    subi a2, 48, ->t
    cmp.ltui t#1, 10, ->a4
    cmp.eqi a2, 45, ->t
    cmp.eqi a2, 43, ->t
    or t#1, t#2, ->t
    addi zero, 5, ->t
    addi zero, 6, ->t
    csel t#3, t#2, t#1, ->t
    addi zero, 1, ->t
    csel a4, t#1, t#2, ->a3
    setc.ne a0, a1
    BSTART DIRECT, .Lsw_done
.Lsw_int:                            # digit -> INT, '.' -> FRAC, e/E -> EXP0, else BAD
    BSTART COND, .Lsw_loop
    subi a2, 48, ->t
    cmp.ltui t#1, 10, ->a4
    ori a2, 32, ->t
    cmp.eqi t#1, 101, ->a5           # 'e' or 'E'
    cmp.eqi a2, 46, ->a6             # '.'
    addi zero, 6, ->t
    addi zero, 3, ->t
    csel a5, t#1, t#2, ->t
    addi zero, 2, ->t
    csel a6, t#1, t#2, ->t
    addi zero, 1, ->t
    csel a4, t#1, t#2, ->a3
    setc.ne a0, a1
    BSTART DIRECT, .Lsw_done
.Lsw_frac:                           # digit -> FRAC, e/E -> EXP0, else BAD
    BSTART COND, .Lsw_loop
    subi a2, 48, ->t
    cmp.ltui t#1, 10, ->a4
    ori a2, 32, ->t
    cmp.eqi t#1, 101, ->a5
    addi zero, 6, ->t
    addi zero, 3, ->t
    csel a5, t#1, t#2, ->t
    addi zero, 2, ->t
    csel a4, t#1, t#2, ->a3
    setc.ne a0, a1
    BSTART DIRECT, .Lsw_done
.Lsw_exp0:                           # digit or '-' -> EXP, else BAD
    BSTART COND, .Lsw_loop
    subi a2, 48, ->t
    cmp.ltui t#1, 10, ->t
    cmp.eqi a2, 45, ->t
    or t#1, t#2, ->t
    addi zero, 4, ->t
    addi zero, 6, ->t
    csel t#3, t#2, t#1, ->a3
    setc.ne a0, a1
    BSTART DIRECT, .Lsw_done
.Lsw_exp:                            # digit -> EXP, else BAD
    BSTART COND, .Lsw_loop
    subi a2, 48, ->t
    cmp.ltui t#1, 10, ->t
    addi zero, 4, ->t
    addi zero, 6, ->t
    csel t#3, t#2, t#1, ->a3
    setc.ne a0, a1
    BSTART DIRECT, .Lsw_done
.Lsw_sign:                           # digit -> INT, else BAD
    BSTART COND, .Lsw_loop
    subi a2, 48, ->t
    cmp.ltui t#1, 10, ->t
    addi zero, 1, ->t
    addi zero, 6, ->t
    csel t#3, t#2, t#1, ->a3
    setc.ne a0, a1
    BSTART DIRECT, .Lsw_done
.Lsw_bad:                            # BAD stays BAD
    BSTART COND, .Lsw_loop
    setc.ne a0, a1
    BSTART DIRECT, .Lsw_done
.Lsw_sep:                            # counts[st]++, st = START
    BSTART COND, .Lsw_loop
    lw [sp, a3<<2], ->t
    addi t#1, 1, ->t
    sw t#1, [sp, a3<<2]
    addi zero, 0, ->a3
    setc.ne a0, a1
# crc = crc16_u32(crc, counts[k]) for k < 7
.Lsw_done:
    C.BSTART.STD FALL
    addi zero, 0, ->s1               # k
.Lsw_crc:
    BSTART.STD CALL, crc16_u32
    c.setret .Lsw_crc_ret, ->ra
    c.movr s0, ->a0
    lw [sp, s1<<2], ->a1
.Lsw_crc_ret:
    BSTART COND, .Lsw_crc
    c.movr a0, ->s0
    addi s1, 1, ->s1
    setc.nei s1, 7
    C.BSTART.STD FALL
    FRET.STK [ra ~ s1], sp!, 64

.Lname:
    .asciz "mix"
alphabet:
    .ascii "0123456789012345678901234.e-+,,,x"
    .p2align 3
.Lsw_table:
    .quad .Lsw_start, .Lsw_int, .Lsw_frac, .Lsw_exp0, .Lsw_exp, .Lsw_sign, .Lsw_bad, .Lsw_sep

    .include "lib.s"

    .data
    .p2align 3
seed:
    .quad 0
