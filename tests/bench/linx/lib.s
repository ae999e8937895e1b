# Common routines of the LinxISA benchmark programs (included at the end
# of each).  Devices are linx-run's: UART data at 0x10000000, EXIT at +4,
# MARK at +8 (a store records the host time; linx-run prints the time
# between the first and the last mark as kernel_s).
#
# Calling convention: arguments in a0..a3, return address in ra; the
# routines clobber a0..a7 and x0..x3 and keep s0..s8.

    .text
    .p2align 1
# bench_mark: record the host time.
bench_mark:
    C.BSTART.STD RET
    hl.lis 0x10000000, ->x2
    swi zero, [x2, 8]
    c.setc.tgt ra
    C.BSTOP

# print_str(a0 = NUL-terminated string)
print_str:
    C.BSTART.STD FALL
    hl.lis 0x10000000, ->x2
.Lps_loop:
    BSTART COND, .Lps_done
    lbui [a0, 0], ->x3
    setc.eqi x3, 0
    BSTART DIRECT, .Lps_loop
    sbi x3, [x2, 0]
    addi a0, 1, ->a0
.Lps_done:
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

# print_hex(a0 = value): 16 hex digits
print_hex:
    C.BSTART.STD FALL
    hl.lis 0x10000000, ->x2
    hl.liu .Lhex_digits, ->x0
    addi zero, 60, ->x1
.Lph_loop:
    BSTART COND, .Lph_loop
    srl a0, x1, ->t
    andi t#1, 15, ->t
    lbu [x0, t#1], ->t
    sbi t#1, [x2, 0]
    subi x1, 4, ->x1
    setc.gei x1, 0
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP

# bench_finish(a0 = name, a1 = checksum, a2 = expected (0: none),
#              a3 = other checks passed): prints the anchor's line
#   NAME: checksum=0x... expected=0x... SELFCHECK PASS|FAIL
# and exits with status 0 (pass) or 1.  Does not return.
bench_finish:
    C.BSTART.STD FALL
    c.movr a1, ->s1
    c.movr a2, ->s2
    c.movr a3, ->s3
    BSTART.STD CALL, print_str
    c.setret .Lbf_1, ->ra
.Lbf_1:
    BSTART.STD CALL, print_str
    c.setret .Lbf_2, ->ra
    hl.liu .Lstr_checksum, ->a0
.Lbf_2:
    BSTART.STD CALL, print_hex
    c.setret .Lbf_3, ->ra
    c.movr s1, ->a0
.Lbf_3:
    BSTART.STD CALL, print_str
    c.setret .Lbf_4, ->ra
    hl.liu .Lstr_expected, ->a0
.Lbf_4:
    BSTART.STD CALL, print_hex
    c.setret .Lbf_5, ->ra
    c.movr s2, ->a0
# ok = s3 != 0 && (s2 == 0 || s1 == s2)
.Lbf_5:
    C.BSTART.STD FALL
    cmp.eq s1, s2, ->t
    cmp.eqi s2, 0, ->t
    or t#1, t#2, ->t
    cmp.nei s3, 0, ->t
    and t#1, t#2, ->s4
    hl.liu .Lstr_pass, ->a0
    hl.liu .Lstr_fail, ->t
    csel s4, a0, t#1, ->a0
    BSTART.STD CALL, print_str
    c.setret .Lbf_6, ->ra
.Lbf_6:
    C.BSTART.STD FALL
    xori s4, 1, ->t
    hl.lis 0x10000000, ->x2
    swi t#1, [x2, 4]
    C.BSTOP

.Lhex_digits:
    .ascii "0123456789abcdef"
.Lstr_checksum:
    .asciz ": checksum=0x"
.Lstr_expected:
    .asciz " expected=0x"
.Lstr_pass:
    .asciz " SELFCHECK PASS\n"
.Lstr_fail:
    .asciz " SELFCHECK FAIL\n"
    .p2align 1
