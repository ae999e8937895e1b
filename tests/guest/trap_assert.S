# ASSERT of zero in a SYS block with ECONFIG[3] set raises ASSERT_FAIL (52).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 8, ->a0
    ssrset a0, 0x0f07
    C.BSTART.SYS
    assert zero
    C.BSTART.STD FALL
%FAIL
