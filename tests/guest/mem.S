# 32-bit and compressed loads and stores: register offset (SrcRType and
# shamt; stores scale the index by the size unless .U), scaled and
# unscaled immediates, PC-relative, prefetches.  Data lives in the
# harness RAM at 0x80000000 and in a page of its own after the code.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu 0x80000000, ->a0
    hl.lis 0x44332211, ->a2
    hl.liu 0x88776655, ->a3
    slli a3, 32, ->a3
    bxu a2, 0, 31, ->a2
    or a3, a2, ->a2            # a2 = 0x8877665544332211
    hl.lis 0x76543210, ->a3
    hl.liu 0xfedcba98, ->a4
    slli a4, 32, ->a4
    bxu a3, 0, 31, ->a3
    or a4, a3, ->a3            # a3 = 0xfedcba9876543210
    sdi a2, [a0, 0]
    sdi a3, [a0, 8]
    hl.lis 7, ->a1
    lb [a0, a1], ->s0
    lbu [a0, a1], ->s1
    hl.lis 3, ->a1
    lh [a0, a1<<1], ->s2
    lhu [a0, a1<<1], ->s3
    hl.lis 1, ->a1
    lw [a0, a1.sw<<2], ->s4
    lwu [a0, a1.uw<<2], ->s5
%CHECK s0, 0xffffffffffffff88
%CHECK s1, 0x88
%CHECK s2, 0xffffffffffff8877
%CHECK s3, 0x8877
%CHECK s4, 0xffffffff88776655
%CHECK s5, 0x88776655
    hl.lis 1, ->a1
    ld [a0, a1<<3], ->s0
    hl.lis -8, ->a1
    addi a0, 16, ->a4
    ld [a4, a1.neg<<0], ->s1   # [a0 + 16 - (-8) ... ] = .neg of -8 is +8: [a0+24]
    ld [a4, a1], ->s2          # [a0 + 8]
%CHECK s0, 0xfedcba9876543210
%CHECK s1, 0
%CHECK s2, 0xfedcba9876543210
    lbi [a0, 15], ->s0
    lbui [a0, 15], ->s1
    lhi [a0, 14], ->s2
    lhui [a0, 14], ->s3
    lwi [a0, 12], ->s4
    lwui [a0, 12], ->s5
%CHECK s0, -2
%CHECK s1, 0xfe
%CHECK s2, 0xfffffffffffffedc
%CHECK s3, 0xfedc
%CHECK s4, 0xfffffffffedcba98
%CHECK s5, 0xfedcba98
    ldi [a0, 8], ->s0
    lhi.u [a0, 2], ->s1
    lhui.u [a0, 2], ->s2
    lwi.u [a0, 4], ->s3
    lwui.u [a0, 4], ->s4
    ldi.u [a0, 8], ->s5
%CHECK s0, 0xfedcba9876543210
%CHECK s1, 0x4433
%CHECK s2, 0x4433
%CHECK s3, 0xffffffff88776655
%CHECK s4, 0x88776655
%CHECK s5, 0xfedcba9876543210
# PC-relative loads from the data page
    lb.pcr [.Ldata], ->s0
    lbu.pcr [.Ldata], ->s1
    lh.pcr [.Ldata], ->s2
    lhu.pcr [.Ldata], ->s3
    lw.pcr [.Ldata], ->s4
    lwu.pcr [.Ldata], ->s5
%CHECK s0, -127
%CHECK s1, 0x81
%CHECK s2, 0xffffffffffff8281
%CHECK s3, 0x8281
%CHECK s4, 0xffffffff84838281
%CHECK s5, 0x84838281
    ld.pcr [.Ldata], ->s0
%CHECK s0, 0x8887868584838281
# stores: register offset
    hl.liu 0x80000100, ->a0
    hl.lis 1, ->a1
    sb a2, [a0, a1]             # +1
    sh a2, [a0, a1]             # +2 (index << 1)
    sw a2, [a0, a1]             # +4 (index << 2)
    sd a3, [a0, a1]             # +8 (index << 3)
    ldi [a0, 0], ->s0
    ldi [a0, 8], ->s1
%CHECK s0, 0x4433221122111100
%CHECK s1, 0xfedcba9876543210
    hl.lis 16, ->a1
    sh.u a2, [a0, a1]           # +16
    hl.lis 20, ->a1
    sw.u a2, [a0, a1]           # +20
    hl.lis 24, ->a1
    sd.u a3, [a0, a1]           # +24
    ldi [a0, 16], ->s0
    ldi [a0, 24], ->s1
%CHECK s0, 0x4433221100002211
%CHECK s1, 0xfedcba9876543210
    sbi a2, [a0, 32]
    shi a2, [a0, 34]
    swi a2, [a0, 36]
    sdi a2, [a0, 40]
    ldi [a0, 32], ->s0
    ldi [a0, 40], ->s1
%CHECK s0, 0x4433221122110011
%CHECK s1, 0x8877665544332211
    shi.u a3, [a0, 48]
    swi.u a3, [a0, 52]
    sdi.u a3, [a0, 56]
    ldi [a0, 48], ->s0
    ldi [a0, 56], ->s1
%CHECK s0, 0x7654321000003210
%CHECK s1, 0xfedcba9876543210
# PC-relative stores into the data page
    sb.pcr a2, [.Ldata+8]
    sh.pcr a2, [.Ldata+10]
    sw.pcr a2, [.Ldata+12]
    sd.pcr a3, [.Ldata+16]
    ld.pcr [.Ldata+8], ->s0
    ld.pcr [.Ldata+16], ->s1
%CHECK s0, 0x443322112211c211
%CHECK s1, 0xfedcba9876543210
# prefetches never fault, even at an unmapped address
    hl.lis 0x10, ->a4
    prf [a4, a1]
    prfi.u [a4, 64]
    hl.lis 5, ->s0
%CHECK s0, 5
%PASS

    .p2align 12
.Ldata:
    .byte 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88
    .byte 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8
    .quad 0
