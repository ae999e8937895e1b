# System-call continuation, the shape every `acrc` in compiled LinxISA code
# has (musl arch/linx64/syscall_arch.h: "acrc 1; c.bstop; C.BSTART"): under
# linx-toolchain the C.BSTOP after the acrc does not commit the block and
# the C.BSTART.STD after it starts none, so the code after the system call
# continues the enclosing block (docs/decisions.md "Profiles"):
#   1. T-queue entries pushed before the call are read after it;
#   2. a COND block whose SETC comes after the call branches on it (taken
#      and not taken);
#   3. a C.BSTOP not after an acrc still commits (the FALL block ends and
#      the next one starts with empty queues).
# Expanded by lutest.py; exits 0.  Run under -cpu linx-v0.4 it must fail
# at its first check (that profile commits at the C.BSTOP).
    .equ SYS_GETPID, 172

    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addi zero, 11, ->t
    addi zero, 22, ->t
    addi zero, 33, ->u
    addi zero, SYS_GETPID, ->a7
    acrc 1
    C.BSTOP
    C.BSTART.STD
    c.movr t#1, ->s0
    c.movr t#2, ->s1
    c.movr u#1, ->s2
    c.movr a0, ->s3
    C.BSTART.STD FALL
%CHECK s0, 22
%CHECK s1, 11
%CHECK s2, 33

# 2a. taken: the pid is not 0
    C.BSTART COND, .Ltaken
    addi zero, 5, ->t
    addi zero, SYS_GETPID, ->a7
    acrc 1
    C.BSTOP
    C.BSTART.STD
    c.movr a0, ->s4
    c.setc.ne s4, zero
    C.BSTART.STD FALL
%FAIL
.Ltaken:
    C.BSTART.STD FALL
%CHECKR s4, s3

# 2b. not taken: pid == 0 is false
    C.BSTART COND, .Lwrong
    addi zero, SYS_GETPID, ->a7
    acrc 1
    C.BSTOP
    C.BSTART.STD
    c.movr a0, ->s5
    c.setc.eq s5, zero
    C.BSTART.STD FALL
    addi zero, 1, ->s6
    C.BSTART DIRECT, .Ldone
.Lwrong:
    C.BSTART.STD FALL
%FAIL
.Ldone:
    C.BSTART.STD FALL
%CHECK s6, 1

# 3. an ordinary C.BSTOP commits: the next block's t#1 is empty (0)
    C.BSTART.STD FALL
    addi zero, 77, ->t
    C.BSTOP
    C.BSTART.STD
    c.movr t#1, ->s7
    C.BSTART.STD FALL
%CHECK s7, 0
%EXIT 0
