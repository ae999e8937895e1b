# virt trap delivery (docs/virt.md, "Traps"): an illegal instruction in
# ACR0 goes to the ACR0 handler at EVBASE_ACR0, which records TRAPNO,
# TRAPARG0, ECSTATE and the EBARG group and returns with ACRE to the next
# block (EBARG_BPC_CUR rewritten, ECSTATE_ACR0 = 0: ACR0, BI 0).  Twice:
# the handler returns and a second trap is delivered again.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu handler, ->a0
    ssrset a0, 0x0f01              # EVBASE_ACR0
    hl.lis 0, ->s5                 # traps taken
    hl.liu after1, ->s8            # where the handler resumes
blk1:
    C.BSTART.STD FALL
    hl.lis 7, ->a1
ill1:
    b.eq zero, zero, after1        # a BRU branch in a scalar block: illegal
after1:
    C.BSTART.STD FALL
%CHECK s5, 1
# ARGV | E_INST(EC_ILLEGAL) << 24 | 4
%CHECK s0, 0x4000000100000004
    hl.liu ill1, ->a2
# TRAPARG0 = the instruction
%CHECKR s1, a2
# ECSTATE: BI (in the block body), ACR0
%CHECK s2, 0x4000000000000000
    hl.liu blk1, ->a2
# EBARG_BPC_CUR
%CHECKR s3, a2
    hl.liu ill1, ->a2
# EBARG_TPC: the faulting instruction
%CHECKR s4, a2
# CSTATE in the handler: ACR0, I = 0
%CHECK s6, 0
# what retired before the trap stays
%CHECK a1, 7
# A data fault: TRAPARG0 = the address, CAUSE = DFSC 1 (no translation).
    hl.liu after2, ->s8
    C.BSTART.STD FALL
    hl.liu 0x20000000, ->a3
blk2:
    C.BSTART.STD FALL
    ldi [a3, 0], ->a4              # unmapped: trap 35, TRAPARG0 = address
after2:
    C.BSTART.STD FALL
%CHECK s5, 2
%CHECK s0, 0x4000000001000023
%CHECK s1, 0x20000000
%CHECK s2, 0x4000000000000000
    hl.liu blk2, ->a2
%CHECKR s3, a2
    addi a2, 2, ->a2
%CHECKR s4, a2
    ssrget 0x20, ->a5
# back in ACR0 after ACRE
%CHECK a5, 0
%PASS

# The handler: a block start in ACR0.
handler:
    C.BSTART.STD FALL
    ssrget 0x0f02, ->s0            # TRAPNO_ACR0
    ssrget 0x0f03, ->s1            # TRAPARG0_ACR0
    ssrget 0x0f00, ->s2            # ECSTATE_ACR0
    ssrget 0x0f41, ->s3            # EBARG_BPC_CUR_ACR0
    ssrget 0x0f43, ->s4            # EBARG_TPC_ACR0
    ssrget 0x20, ->s6              # CSTATE
    addi s5, 1, ->s5
    ssrset s8, 0x0f41              # resume at the next block
    ssrset zero, 0x0f00            # ECSTATE_ACR0: ACR0, BI 0
    acre 0
