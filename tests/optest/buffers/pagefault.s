# A load from ADDR, where the virt machine has no memory: a data page
# fault whose TRAPARG0 is the faulting address (docs/virt.md memory map).
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu ADDR, ->a0
    ldi [a0, 0], ->a1
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP
