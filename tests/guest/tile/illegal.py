#!/usr/bin/env python3
"""One guest program per illegal-parameter rule of TMA blocks (docs/tile.md,
"Illegal parameters"; seed 000; the v0.4 manual) and for a few TEPL and
CUBE rules (docs/kernels.md), and the check of what linx-system /
linx-user report when it runs.

    illegal.py --list                       rule names, one per line
    illegal.py --gen RULE -o prog.s         the program for RULE
    illegal.py --check RULE --tool virt|user -- COMMAND...
                                            run COMMAND, check its report

Each program sets up its operands, runs the offending TMA block and, if
that did not trap, exits with status 99 (virt EXIT register; a fault under
linx-user).  The check wants the trap the rule raises: linx-system exits 1
and prints "illegal tile parameter: <rule> at PC <pc> (<disassembly>)",
then "unhandled trap <TRAPNUM> (cause <cause>) at pc <pc>" and
"traparg0 <TRAPARG0>" with the expected values; linx-user dies of SIGILL
(status 132) after printing the same first line.

Rules the decoder makes unreachable do not exist here: every rule of
hw/linx/tma.h but gm-fault (a page fault, not a parameter) has a program.
TEPL / CUBE: tepl-bad-op (decided at translation time), tepl-lb0-zero,
tepl-tile-empty, tepl-layouts, cube-bad-function, cube-tile-empty,
cube-left, cube-right, cube-acc-chain, cube-dst-size, cube-bias.
"""
import argparse
import re
import subprocess
import sys

TRAP_ILLEGAL = 4
TRAP_BLOCK = 5
EC_ILLEGAL = 0x100
EC_PARAM = 0x200      # E_INST(EC_PARAM); E_BLOCK(EC_BLOCKFMT) has the same value
SIGILL_STATUS = 128 + 4
VIRT_TRAP_STATUS = 1
NO_TRAP_STATUS = 99

# TmaRule numbers (hw/linx/tma.h): TRAPARG0 = rule | value << 32 for the
# E_INST(EC_PARAM) rules.
R = {name: i for i, name in enumerate([
    'ok', 'reserved-function', 'missing-barg', 'bad-barg', 'barg-and-datr',
    'btext-in-tma', 'missing-biot', 'bad-tile-size', 'bad-dst-tile',
    'biot-combination', 'mixed-tile-sizes', 'missing-bior', 'bad-bior',
    'missing-bdim', 'bad-bdim', 'bad-biod', 'bad-dtype', 'lb0-zero',
    'col-too-wide', 'validcol-gt-col', 'validrow-gt-row', 'merge-col',
    'merge-row', 'nz-col', 'nz-row', 'zn-row', 'zn-col', 'store-overlap',
    'tile-empty', 'tile-size-mismatch', 'mixed-tile-layouts', 'acc-empty',
    'mov-shape', 'atomic-op', 'atomic-dtype', 'tile-shape'])}


PC = 'pc'  # TRAPARG0 is the trap's pc

# TEPL / CUBE rule numbers (hw/linx/tepl.h, tile-cube.h)
R.update({name: 0x70 + i for i, name in enumerate([
    'tepl-bad-op', 'tepl-bad-dtype', 'tepl-lb0-zero', 'tepl-bad-size', 'tepl-shape',
    'tepl-tile-empty', 'tepl-tile-size', 'tepl-layouts'])})
R.update({name: 0x60 + i for i, name in enumerate([
    'cube-bad-function', 'cube-bad-dtype', 'cube-bad-dims', 'cube-operands',
    'cube-tile-empty', 'cube-left', 'cube-right', 'cube-acc-chain', 'cube-dst-size',
    'cube-bad-quant', 'cube-bias'])})


def param(rule, value):
    return (TRAP_ILLEGAL, EC_PARAM, R[rule] | value << 32)


def blockfmt(family, detail):
    return (TRAP_BLOCK, EC_PARAM, family | detail << 8)


LOAD = ['    TLOAD.NORM <LB0:32, LB1:32, LB2:32, FP32>, [s0], ->T<4KB>']


def tload(*lines, dt='FP32'):
    return ['    BSTART.TMA TLOAD, %s' % dt] + ['    ' + l for l in lines]


def tstore(*lines, dt='FP32'):
    return ['    BSTART.TMA TSTORE, %s' % dt] + ['    ' + l for l in lines]


def tepl(op, *lines):
    return ['    BSTART.TEPL %s' % op] + ['    ' + l for l in lines]


def cube(op, *lines):
    """A CUBE header with m = n = 16, k = 32."""
    return (['    BSTART.CUBE %s' % op, '    C.B.DIMI 16, ->lb0', '    C.B.DIMI 16, ->lb1',
             '    C.B.DIMI 32, ->lb2', '    B.ARG NORM'] + ['    ' + l for l in lines])


GOOD_LOAD_TAIL = ['B.IOR [s0],[]', 'B.IOTI [], last ->t<4KB>']

# rule: (trap, cause, traparg0), disassembly of the header, program lines
RULES = {
    'reserved-function': ((TRAP_ILLEGAL, EC_ILLEGAL, R['reserved-function'] | 3 << 32),
                          'BSTART.TMA 3, FP32',
                          ['    BSTART.TMA 3, FP32', '    B.ARG NORM', '    C.B.DIMI 32, ->lb0',
                           '    B.IOR [s0],[]', '    B.IOTI [], last ->t<4KB>']),
    'missing-barg': (blockfmt(3, 0), 'BSTART.TMA TLOAD, FP32',
                     tload('C.B.DIMI 32, ->lb0', *GOOD_LOAD_TAIL)),
    'bad-barg': (blockfmt(3, 1), 'BSTART.TMA TLOAD, FP32',
                 tload('B.ARG 5', 'C.B.DIMI 32, ->lb0', *GOOD_LOAD_TAIL)),
    'barg-and-datr': (blockfmt(3, 2), 'BSTART.TMA TLOAD, FP32',
                      tload('B.ARG NORM', '.insn 0x00001023   # B.DATR NORM',
                            'C.B.DIMI 32, ->lb0', *GOOD_LOAD_TAIL)),
    'btext-in-tma': (blockfmt(2, 2), 'BSTART.TMA TLOAD, FP32',
                     tload('B.ARG NORM', 'B.TEXT _start', 'C.B.DIMI 32, ->lb0',
                           *GOOD_LOAD_TAIL)),
    'missing-biot': (blockfmt(5, 0), 'BSTART.TMA TLOAD, FP32',
                     tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'B.IOR [s0],[]')),
    'bad-tile-size': (blockfmt(5, 1), 'BSTART.TMA TLOAD, FP32',
                      tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'B.IOR [s0],[]',
                            'B.IOTI [], last ->t<256B>')),
    'bad-dst-tile': (blockfmt(5, 1), 'BSTART.TMA TLOAD, FP32',
                     tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'B.IOR [s0],[]',
                           'B.IOTI [], last ->acc<4KB>')),
    'biot-combination': (blockfmt(5, 2), 'BSTART.TMA TLOAD, FP32',
                         LOAD + tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'B.IOR [s0],[]',
                                      'B.IOTI [t#1], last ->t<4KB>')),
    'mixed-tile-sizes': (blockfmt(5, 2), 'BSTART.TMA TSTORE, FP32',
                         LOAD + LOAD + tstore('B.ARG NORM', 'C.B.DIMI 32, ->lb0',
                                              'B.IOR [s1],[]', 'B.IOTI [t#1] ->t<4KB>',
                                              'B.IOTI [t#2], last ->t<2KB>')),
    'missing-bior': (blockfmt(4, 0), 'BSTART.TMA TLOAD, FP32',
                     tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'B.IOTI [], last ->t<4KB>')),
    'bad-bior': (blockfmt(4, 1), 'BSTART.TMA TLOAD, FP32',
                 tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'B.IOR [zero],[]',
                       'B.IOTI [], last ->t<4KB>')),
    'missing-bdim': (blockfmt(1, 0), 'BSTART.TMA TLOAD, FP32',
                     tload('B.ARG NORM', *GOOD_LOAD_TAIL)),
    'bad-bdim': (blockfmt(1, 1), 'BSTART.TMA TLOAD, FP32',
                 tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0',
                       '.insn 0xd8bc   # C.B.DIM a0, LoopNest 3: no LB register',
                       *GOOD_LOAD_TAIL)),
    'bad-biod': (blockfmt(0, 1), 'BSTART.TMA TLOAD, FP32',
                 tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'B.IOD 1, 0, 0, ->4',
                       'B.IOD 2, 0, 0, ->5', *GOOD_LOAD_TAIL)),
    'bad-dtype': (param('bad-dtype', 11), 'BSTART.TMA TLOAD, FP4',
                  tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', *GOOD_LOAD_TAIL, dt='FP4')),
    'lb0-zero': (param('lb0-zero', 0), 'BSTART.TMA TLOAD, FP32',
                 tload('B.ARG NORM', 'C.B.DIMI 0, ->lb0', *GOOD_LOAD_TAIL)),
    'col-too-wide': (param('col-too-wide', 2048), 'BSTART.TMA TLOAD, FP32',
                     tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'B.DIM zero, 2048, ->lb2',
                           *GOOD_LOAD_TAIL)),
    'validcol-gt-col': (param('validcol-gt-col', 40), 'BSTART.TMA TLOAD, FP32',
                        tload('B.ARG NORM', 'C.B.DIMI 40, ->lb0', 'C.B.DIMI 32, ->lb2',
                              *GOOD_LOAD_TAIL)),
    'validrow-gt-row': (param('validrow-gt-row', 64), 'BSTART.TMA TLOAD, FP32',
                        tload('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'C.B.DIMI 64, ->lb1',
                              'C.B.DIMI 32, ->lb2', *GOOD_LOAD_TAIL)),
    # seed syntax: three sources merged along the columns need Col % 3 == 0
    'merge-col': (param('merge-col', 32), 'BSTART.TMA TSTORE, FP32',
                  LOAD + ['    TSTORE.NORM <LB0:32, LB1:1, LB2:32, FP32>, T#1, T#2, T#3, [s1]']),
    # two sources merged along the rows: Row = 2 * 4096 / (24 * 4) = 85
    'merge-row': (param('merge-row', 85), 'BSTART.TMA TSTORE, FP32',
                  tstore('B.ARG DN2NZ', 'C.B.DIMI 16, ->lb0', 'C.B.DIMI 16, ->lb1',
                         'C.B.DIMI 24, ->lb2', 'B.IOR [s1],[]',
                         'B.IOTI [t#1, t#2], last ->t<4KB>')),
    'nz-col': (param('nz-col', 12), 'BSTART.TMA TLOAD, FP32',
               tload('B.ARG ND2NZ', 'C.B.DIMI 12, ->lb0', 'C.B.DIMI 12, ->lb2',
                     *GOOD_LOAD_TAIL)),
    # seed 000's second example as written: Col = 94 + 10 = 104, Row = 9
    'nz-row': (param('nz-row', 9), 'BSTART.TMA TSTORE, FP32',
               ['    TLOAD.NORM <LB0:128, LB1:8, LB2:128, FP32>, [s0], ->U<4KB>',
                '    C.BSTART.STD FALL', '    hl.lis 4, ->a0', '    hl.lis 94, ->a1',
                '    c.movr s1, ->a2',
                '    TSTORE.NZ2ND <LB0:100, LB1:a0, LB2:a1+10, FP32>, U#1, [a2, a1]']),
    'zn-row': (param('zn-row', 21), 'BSTART.TMA TLOAD, FP32',
               tload('B.ARG ND2ZN', 'C.B.DIMI 48, ->lb0', 'C.B.DIMI 48, ->lb2',
                     *GOOD_LOAD_TAIL)),
    'zn-col': (param('zn-col', 8), 'BSTART.TMA TLOAD, FP32',
               tload('B.ARG ND2ZN', 'C.B.DIMI 8, ->lb0', 'C.B.DIMI 8, ->lb2',
                     *GOOD_LOAD_TAIL)),
    'store-overlap': (param('store-overlap', 64), 'BSTART.TMA TSTORE, FP32',
                      LOAD + ['    C.BSTART.STD FALL', '    hl.lis 64, ->a1'] +
                      tstore('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'C.B.DIMI 2, ->lb1',
                             'C.B.DIMI 32, ->lb2', 'B.IOR [a1, s1],[]',
                             'B.IOTI [t#1], last ->t<4KB>')),
    'tile-empty': (param('tile-empty', 4), 'BSTART.TMA TSTORE, FP32',
                   tstore('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'B.IOR [s1],[]',
                          'B.IOTI [t#5], last ->t<4KB>')),
    'tile-size-mismatch': (param('tile-size-mismatch', 4096), 'BSTART.TMA TSTORE, FP32',
                           LOAD + tstore('B.ARG NORM', 'C.B.DIMI 32, ->lb0',
                                         'C.B.DIMI 16, ->lb1', 'B.IOR [s1],[]',
                                         'B.IOTI [t#1], last ->t<2KB>')),
    # t#2 is ND (NORM), t#1 NZ: the second source's id is reported
    'mixed-tile-layouts': (param('mixed-tile-layouts', 1), 'BSTART.TMA TSTORE, FP32',
                           LOAD +
                           ['    TLOAD.ND2NZ <LB0:32, LB1:32, LB2:32, FP32>, [s0], ->T<4KB>'] +
                           tstore('B.ARG NORM', 'C.B.DIMI 32, ->lb0', 'C.B.DIMI 32, ->lb1',
                                  'C.B.DIMI 32, ->lb2', 'B.IOR [s1],[]',
                                  'B.IOTI [t#1, t#2], last ->t<4KB>')),
    'acc-empty': (param('acc-empty', 0), 'BSTART.TMA TMOV, FP32',
                  ['    BSTART.TMOV FP32', '    B.ARG 2   # A2V', '    B.IOTI [], last ->t<4KB>']),
    # a 32 x 32 FP32 window does not fit the 2 KB source tile
    'mov-shape': (param('mov-shape', 1024), 'BSTART.TMA TMOV, FP32',
                  ['    TLOAD.NORM <LB0:32, LB1:16, LB2:32, FP32>, [s0], ->T<2KB>',
                   '    BSTART.TMOV FP32', '    B.ARG ND2NZ', '    C.B.DIMI 32, ->lb0',
                   '    C.B.DIMI 32, ->lb1', '    C.B.DIMI 32, ->lb2',
                   '    B.IOTI [t#1], last ->u<4KB>']),

    # TEPL and CUBE headers (docs/kernels.md "TEPL", "CUBE"): engine rules
    # 0x70.. and 0x60.. (hw/linx/tepl.h, tile-cube.h).  Tile ids: t#1 is 0
    # after one push, u#1 8, u#2 9.  tepl-bad-op is decided at translation
    # time (TRAPARG0 = the header's BPC).
    'tepl-bad-op': ((TRAP_ILLEGAL, EC_ILLEGAL, PC), 'BSTART.TEPL TCVT, INT32',
                    tepl('TCVT, INT32', 'C.B.DIMI 32, ->lb0', 'B.IOTI [t#1], last ->u<4KB>')),
    'tepl-lb0-zero': (param('tepl-lb0-zero', 0), 'BSTART.TEPL TADD, INT32',
                      tepl('TADD, INT32', 'C.B.DIMI 0, ->lb0',
                           'B.IOTI [u#2, u#1], last ->t<4KB>')),
    'tepl-tile-empty': (param('tepl-tile-empty', 9), 'BSTART.TEPL TADD, INT32',
                        tepl('TADD, INT32', 'C.B.DIMI 32, ->lb0', 'C.B.DIMI 32, ->lb1',
                             'B.IOTI [u#2, u#1], last ->t<4KB>')),
    # t#1 NZ, t#2 ND: the second source's id is reported
    'tepl-layouts': (param('tepl-layouts', 1), 'BSTART.TEPL TADD, FP32',
                     LOAD +
                     ['    TLOAD.ND2NZ <LB0:32, LB1:32, LB2:32, FP32>, [s0], ->T<4KB>'] +
                     tepl('TADD, FP32', 'C.B.DIMI 32, ->lb0', 'C.B.DIMI 32, ->lb1',
                          'B.IOTI [t#1, t#2], last ->u<4KB>')),
    'cube-bad-function': ((TRAP_ILLEGAL, EC_ILLEGAL, R['cube-bad-function'] | 5 << 32),
                          'BSTART.CUBE 5, INT8',
                          cube('5, INT8', 'B.IOTI [u#2, t#1], last')),
    'cube-tile-empty': (param('cube-tile-empty', 9), 'BSTART.CUBE TMATMUL, INT8',
                        cube('TMATMUL, INT8', 'B.IOTI [u#2, t#1], last')),
    # A (u#1) is a ZN tile: neither NZ nor ND
    'cube-left': (param('cube-left', 8), 'BSTART.CUBE TMATMUL, INT8',
                  ['    TLOAD.ND2ZN <LB0:32, LB1:32, LB2:32, INT8>, [s0], ->U<1KB>'] +
                  cube('TMATMUL, INT8', 'B.IOTI [u#1, t#1], last')),
    # A (u#1) NZ, B (t#1) ND: the families do not mix; B is named
    'cube-right': (param('cube-right', 0), 'BSTART.CUBE TMATMUL, INT8',
                   ['    TLOAD.ND2NZ <LB0:32, LB1:32, LB2:32, INT8>, [s0], ->U<1KB>',
                    '    TLOAD.NORM <LB0:32, LB1:32, LB2:32, INT8>, [s0], ->T<1KB>'] +
                   cube('TMATMUL, INT8', 'B.IOTI [u#1, t#1], last')),
    # a 16 x 16 S32 result (1 KB as NZ) in a 512 B tile
    'cube-dst-size': (param('cube-dst-size', 1024), 'BSTART.CUBE ACCCVT, INT32',
                      ['    TLOAD.ND2NZ <LB0:32, LB1:32, LB2:32, INT8>, [s0], ->U<1KB>',
                       '    TLOAD.ND2ZN <LB0:32, LB1:32, LB2:32, INT8>, [s0], ->T<1KB>'] +
                      cube('TMATMUL, INT8', 'B.IOTI [u#1, t#1], last') +
                      cube('ACCCVT, INT32', 'B.IOR [zero, zero, x0],[]',
                           'B.IOTI [], last ->n<512B>')),
    # ACCCVT of a 16 x 16 S32 result to a 4 KB NZ tile (16 rows), TSTORE
    # NZ2ND with Col 16: the TSTORE derives Row 4096 / 64 = 64, the tile's
    # fractals are laid out for 16 (a silent wrong store before)
    'tile-shape': (param('tile-shape', 16), 'BSTART.TMA TSTORE, INT32',
                   ['    TLOAD.ND2NZ <LB0:32, LB1:32, LB2:32, INT8>, [s0], ->U<1KB>',
                    '    TLOAD.ND2ZN <LB0:32, LB1:32, LB2:32, INT8>, [s0], ->T<1KB>'] +
                   cube('TMATMUL, INT8', 'B.IOTI [u#1, t#1], last') +
                   cube('ACCCVT, INT32', 'B.IOR [zero, zero, x0],[]',
                        'B.IOTI [], last ->n<4KB>') +
                   tstore('B.ARG ND2NZ', 'C.B.DIMI 16, ->lb0', 'C.B.DIMI 16, ->lb1',
                          'C.B.DIMI 16, ->lb2', 'B.IOR [s1],[]', 'B.IOTI [n#1], last ->t<4KB>',
                          dt='INT32')),
    # TMATMUL.BIAS with an FP32 bias (m#1) for an S32 ACC
    'cube-bias': (param('cube-bias', 16), 'BSTART.CUBE TMATMUL.BIAS, INT8',
                  ['    TLOAD.ND2NZ <LB0:32, LB1:32, LB2:32, INT8>, [s0], ->U<1KB>',
                   '    TLOAD.ND2ZN <LB0:32, LB1:32, LB2:32, INT8>, [s0], ->T<1KB>',
                   '    TLOAD.NORM <LB0:32, LB1:1, LB2:128, FP32>, [s0], ->M<512B>'] +
                  cube('TMATMUL.BIAS, INT8', 'B.IOTI [u#1, t#1] ->acc<4KB>',
                       'B.IOTI [m#1], last')),
    'cube-acc-chain': (param('cube-acc-chain', 0), 'BSTART.CUBE ACCCVT, INT32',
                       cube('ACCCVT, INT32', 'B.IOR [zero, zero, x0],[]',
                            'B.IOTI [], last ->n<1KB>')),
}

PROLOGUE = """# GENERATED by tests/guest/tile/illegal.py --gen %s -- do not edit.
# Expects the %s rule's exception at the last tile block.
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc buf, ->s0
    addi s0, buf, ->s0
    hl.lis 8192, ->t
    add s0, t#1, ->s1
"""

EPILOGUE = """    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a0
    addi zero, %d, ->a1
    swi a1, [a0, 0]                 # no trap: exit 99
    C.BSTOP

    .bss
    .p2align 6
buf:
    .zero 16384
""" % NO_TRAP_STATUS


def gen(rule, path):
    _, _, lines = RULES[rule]
    with open(path, 'w') as f:
        f.write(PROLOGUE % (rule, rule))
        f.write('\n'.join(lines) + '\n')
        f.write(EPILOGUE)


def check(rule, tool, cmd):
    (trapnum, cause, traparg0), disas, _ = RULES[rule]
    r = subprocess.run(cmd, capture_output=True, timeout=60)
    err = r.stderr.decode(errors='replace')
    problems = []
    m = re.search(r'^illegal tile parameter: (\S+) at PC 0x([0-9a-f]+) \((.*)\)$', err, re.M)
    if not m:
        problems.append('no "illegal tile parameter" line')
    else:
        if m.group(1) != rule:
            problems.append('rule %s, expected %s' % (m.group(1), rule))
        if m.group(3) != disas:
            problems.append('disassembly %r, expected %r' % (m.group(3), disas))
    if tool == 'virt':
        if r.returncode != VIRT_TRAP_STATUS:
            problems.append('exit status %d, expected %d' % (r.returncode, VIRT_TRAP_STATUS))
        t = re.search(r'unhandled trap (\d+) \(cause 0x([0-9a-f]+)\) at pc 0x([0-9a-f]+)'
                      r'.*\n  traparg0 0x([0-9a-f]+)', err)
        if not t:
            problems.append('no trap report')
        else:
            got = (int(t.group(1)), int(t.group(2), 16), int(t.group(4), 16))
            if traparg0 == PC:
                traparg0 = int(t.group(3), 16)
            if got != (trapnum, cause, traparg0):
                problems.append('trap %d cause 0x%x traparg0 0x%x, expected %d 0x%x 0x%x' %
                                (got + (trapnum, cause, traparg0)))
            if m and t.group(3) != m.group(2):
                problems.append('trap pc 0x%s differs from the message pc' % t.group(3))
    else:
        if r.returncode != SIGILL_STATUS:
            problems.append('exit status %d, expected %d (SIGILL)' %
                            (r.returncode, SIGILL_STATUS))
        if 'killed by signal 4 (SIGILL)' not in err:
            problems.append('not killed by SIGILL')
    if problems:
        print('FAIL %s: %s' % (rule, ' '.join(cmd)))
        for p in problems:
            print('  ' + p)
        print('--- stderr ---\n' + err)
        return 1
    print('ok: %s raised %s' % (' '.join(cmd), rule))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--gen')
    ap.add_argument('-o', '--output')
    ap.add_argument('--check')
    ap.add_argument('--tool', choices=['virt', 'user'], default='virt')
    ap.add_argument('command', nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.list:
        print('\n'.join(RULES))
        return 0
    if args.gen:
        if args.gen not in RULES or not args.output:
            ap.error('--gen RULE -o FILE')
        gen(args.gen, args.output)
        return 0
    if args.check:
        cmd = args.command[1:] if args.command[:1] == ['--'] else args.command
        if args.check not in RULES or not cmd:
            ap.error('--check RULE -- COMMAND')
        return check(args.check, args.tool, cmd)
    ap.error('nothing to do')
    return 2


if __name__ == '__main__':
    sys.exit(main())
