# Kernel headers with no descriptor at all, "C.BSTART.VPAR; C.BSTOP": the
# LinxISA cycle model and the peer's own tests (first_use_exception_
# contract.s) use them as harmless markers, and under linx-toolchain they
# run as no-ops (docs/decisions.md "Profiles"); the v0.4 text requires a
# B.TEXT in every such header, so under -cpu linx-v0.4 the first one
# raises E_BLOCK(EC_BLOCKFMT) (guest-empty_kernel-v04).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 5, ->s0
    C.BSTART.VPAR
    C.BSTOP
    C.BSTART.MPAR
    C.BSTOP
    C.BSTART.MSEQ
    C.BSTOP
    BSTART.VPAR 0
    C.BSTOP
    C.BSTART.STD FALL
    addi s0, 1, ->s0
%CHECK s0, 6
%PASS
