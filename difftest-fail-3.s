    .text
    .globl _start
_start:
L1:
L2:
L3:
L0:
L4:
    BSTART.STD COND, L4
    ld.smin.aqf	[x1], s6, 	->s0
L6:
L5:
L7:
    ebreak 0
    C.BSTOP
