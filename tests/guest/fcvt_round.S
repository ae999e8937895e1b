# FCVTA/FCVTM/FCVTN/FCVTP: float to integer with the instruction's fixed
# rounding (A nearest ties away, M toward -inf, N nearest even, P toward
# +inf; FCVTZ toward zero), whatever FCSR's dynamic mode says (RTZ here),
# from FP64 and FP32 to signed and unsigned 64/32-bit integers, in the
# catalog's syntax fcvtX.{srcT2dstT} (fd/fs to sd/sw/ud/uw).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 0x100, ->a7             # FCSR.RM = RTZ: must not matter
    ssrset a7, 2
    hl.liu 0x40040000, ->a4
    slli a4, 32, ->a4              # 2.5
    fcvta.fd2sd a4, ->s0
    fcvtm.fd2sd a4, ->s1
    fcvtn.fd2sd a4, ->s2
    fcvtp.fd2sd a4, ->s3
    fcvtz.fd2sd a4, ->s4
%CHECK s0, 3
%CHECK s1, 2
%CHECK s2, 2
%CHECK s3, 3
%CHECK s4, 2
    hl.liu 0xc0040000, ->a4
    slli a4, 32, ->a4              # -2.5
    fcvta.fd2sd a4, ->s0
    fcvtm.fd2sd a4, ->s1
    fcvtn.fd2sd a4, ->s2
    fcvtp.fd2sd a4, ->s3
    fcvtz.fd2sw a4, ->s4
%CHECK s0, -3
%CHECK s1, -3
%CHECK s2, -2
%CHECK s3, -2
%CHECK s4, -2
    hl.liu 0x400c0000, ->a4
    slli a4, 32, ->a4              # 3.5: ties to even goes up
    fcvtn.fd2sd a4, ->s0
    fcvta.fd2uw a4, ->s1
    hl.liu 0xbfe00000, ->a4
    slli a4, 32, ->a4              # -0.5
    fcvta.fd2sd a4, ->s2
    fcvtn.fd2sd a4, ->s3
    fcvtp.fd2sw a4, ->s4           # -0 -> 0
    fcvtm.fd2sw a4, ->s5
%CHECK s0, 4
%CHECK s1, 4
%CHECK s2, -1
%CHECK s3, 0
%CHECK s4, 0
%CHECK s5, -1
    hl.liu 0x40200000, ->a4        # 2.5f
    fcvta.fs2sw a4, ->s0
    fcvtm.fs2uw a4, ->s1
    fcvtn.fs2ud a4, ->s2
    fcvtp.fs2sd a4, ->s3
    hl.liu 0x3fc00000, ->a4        # 1.5f
    fcvtn.fs2sw a4, ->s4
    fcvtm.fs2sw a4, ->s5
%CHECK s0, 3
%CHECK s1, 2
%CHECK s2, 2
%CHECK s3, 3
%CHECK s4, 2
%CHECK s5, 1
%PASS
