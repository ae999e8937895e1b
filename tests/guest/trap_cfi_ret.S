# A return into the interior of a block: ra points past the marker.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.liu .Linside, ->ra
    C.BSTART.STD RET
    c.setc.tgt ra
    C.BSTOP
    C.BSTART.STD FALL
    hl.lis 1, ->a1
.Linside:
    hl.lis 2, ->a1
%FAIL
