# virt trap delivery across rings: ACR0 enters ACR2 with ACRE
# (ECSTATE_ACR0.ACR = 2, EBARG_BPC_CUR_ACR0 = the user block, BI = 0);
# ACR2's ACRC 1 (SCT_SYS) goes to the ACR1 handler, whose ACRE returns to
# the BSTOP after the ACRC (EBARG_TPC, BI = 1); ACR2's ACRC 0 (SCT_MAC)
# goes to ACR0.  Then ACR1's ACRE to a more privileged ring raises
# EXEC_STATE_CHECK (0) in ACR1 with TRAPARG0 = the target.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu h1, ->a0
    hl.ssrset a0, 0x1f01           # EVBASE_ACR1
    hl.liu h0, ->a0
    ssrset a0, 0x0f01              # EVBASE_ACR0
    hl.lis 2, ->a0
    ssrset a0, 0x0f00              # ECSTATE_ACR0: enter ACR2
    hl.liu user, ->a0
    ssrset a0, 0x0f41
    acre 0
user:
    C.BSTART.STD FALL
    ssrget 0x20, ->s6
    hl.lis 11, ->a7
acrc1:
    acrc 1
acrc1_next:
    C.BSTOP
    C.BSTART.STD FALL
    ssrget 0x20, ->s7
    acrc 0
    C.BSTOP
    C.BSTART.STD FALL
%FAIL
final:
    C.BSTART.STD FALL
%CHECK a0, 111
    ssrget 0x20, ->a6
%CHECK a6, 0
%CHECK s6, 2
%CHECK s7, 2
%CHECK s0, 0x4000000001000006
%CHECK s1, 1
%CHECK s2, 0x4000000000000002
    hl.liu acrc1_next, ->a0
%CHECKR s3, a0
%CHECK s4, 1
%CHECK a1, 0x4000000000000006
%CHECK a2, 0
%CHECK a3, 0x4000000000000002
# ACR1: ACRE with ECSTATE_ACR1.ACR = 0 is refused.
    hl.liu h1b, ->a0
    hl.ssrset a0, 0x1f01
    hl.liu h0b, ->a0
    ssrset a0, 0x0f01
    hl.lis 1, ->a0
    ssrset a0, 0x0f00
    hl.liu acr1blk, ->a0
    ssrset a0, 0x0f41
    acre 0
acr1blk:
    C.BSTART.STD FALL
    hl.ssrset zero, 0x1f00
    acre 0
final2:
    C.BSTART.STD FALL
%CHECK s0, 0x4000000000000000
%CHECK s1, 0
%CHECK a1, 0x4000000000000006
%CHECK a3, 0x4000000000000001
    ssrget 0x20, ->a6
%CHECK a6, 0
%PASS

# ACR1: the system call (a0 = a7 + 100), back to the BSTOP after ACRC.
h1:
    C.BSTART.STD FALL
    hl.ssrget 0x1f02, ->s0
    hl.ssrget 0x1f03, ->s1
    hl.ssrget 0x1f00, ->s2
    hl.ssrget 0x1f43, ->s3
    ssrget 0x20, ->s4
    addi a7, 100, ->a0
    acre 0
# ACR0: the SCT_MAC request ends the user part.
h0:
    C.BSTART.STD FALL
    ssrget 0x0f02, ->a1
    ssrget 0x0f03, ->a2
    ssrget 0x0f00, ->a3
    ssrset zero, 0x0f00
    hl.liu final, ->a4
    ssrset a4, 0x0f41
    acre 0
# ACR1: record the refused ACRE, then ask ACR0 (SCT_MAC is valid in ACR1).
h1b:
    C.BSTART.STD FALL
    hl.ssrget 0x1f02, ->s0
    hl.ssrget 0x1f03, ->s1
    acrc 0
    C.BSTOP
    C.BSTART.STD FALL
%FAIL
h0b:
    C.BSTART.STD FALL
    ssrget 0x0f02, ->a1
    ssrget 0x0f00, ->a3
    ssrset zero, 0x0f00
    hl.liu final2, ->a4
    ssrset a4, 0x0f41
    acre 0
