# linx-difftest found (minimised from seed 3): a data fault after the
# block-start marker counted 0 retired instructions in whole-block TBs and
# 1 with one instruction per TB.  The three runs must agree
# (tests/unit/test-fault-insn-count.c checks the values).
    .text
    .globl _start
_start:
L4:
    BSTART.STD COND, L4
    ld.smin.aqf	[x1], s6, 	->s0
    ebreak 0
    C.BSTOP
