#!/usr/bin/env python3
"""Isolation of the cases a linx-optest worker runs one after another
(docs/optest.md "Running"): hostile cases leave memory, tile buffers,
registers and their own code changed, trap, spin into their time limit and
crash the worker; the cases after them must see a machine as fresh as a
process of their own gives.

Every case's verdict is checked against what the program does (the
oracle is the program's text: `check` ORs areas that must be zero and
runs a block that stores 7; `dirty` checks, then fills those areas with a
pattern, rewrites that block to store 9 and runs it), and the whole report of
-j 1 and -j 2 with workers must equal the report of --isolate (a process
per case), apart from times and translation counts.  The translation
count shows the worker really reuses its machine: the second `check` in a
row translates nothing.

    isolation.py LINX_OPTEST
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from selfprogs import VIRT_PROG, npy, run_tool, write  # noqa: E402

OPTEST = sys.argv[1]
failures = []

# a0 = mode: 0 check, 1 check then dirty, 2 the same then trap, 3 the same
# then spin (dirty writes what check has just read: a page read first must
# still be recorded when it is written).
# out (int64): [0] what the `patch` block stores (7; 9 once rewritten),
# [1] OR of the 64 KiB `scratch`, [2] OR of the first 4 KiB of the L1
# buffer, [3] OR of the 4 KiB below the boot sp, [4] s5 at entry.
ISO_PROG = r'''
    .equ L1, 0x18000000
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    c.movr a0, ->s0
    addtpc out, ->s1
    addi s1, out, ->s1
    c.movr s5, ->a3
    sdi a3, [s1, 32]
    hl.lis 8, ->a7
check:
    C.BSTART.STD FALL
    addtpc scratch, ->a0
    addi a0, scratch, ->a0
    hl.lis 65536, ->a1
    hl.lis 0, ->a4
orscr:
    C.BSTART COND, orscr
    ldi [a0, 0], ->a2
    or a4, a2, ->a4
    add a0, a7, ->a0
    sub a1, a7, ->a1
    setc.nei a1, 0
    C.BSTART.STD FALL
    sdi a4, [s1, 8]
    hl.liu L1, ->a0
    hl.lis 4096, ->a1
    hl.lis 0, ->a4
orl1:
    C.BSTART COND, orl1
    ldi [a0, 0], ->a2
    or a4, a2, ->a4
    add a0, a7, ->a0
    sub a1, a7, ->a1
    setc.nei a1, 0
    C.BSTART.STD FALL
    sdi a4, [s1, 16]
    hl.lis 4096, ->a1
    sub sp, a1, ->a0
    hl.lis 0, ->a4
orstk:
    C.BSTART COND, orstk
    ldi [a0, 0], ->a2
    or a4, a2, ->a4
    add a0, a7, ->a0
    sub a1, a7, ->a1
    setc.nei a1, 0
    C.BSTART.STD FALL
    sdi a4, [s1, 24]
    addtpc tdump, ->a0
    addi a0, tdump, ->a0
    hl.lis 4096, ->a1
    hl.lis 0, ->a4
ortd:
    C.BSTART COND, ortd
    ldi [a0, 0], ->a2
    or a4, a2, ->a4
    add a0, a7, ->a0
    sub a1, a7, ->a1
    setc.nei a1, 0
    C.BSTART.STD FALL
    sdi a4, [s1, 40]
    C.BSTART COND, dirty
    setc.nei s0, 0
    C.BSTART DIRECT, patch
dirty:
    C.BSTART.STD FALL
    addtpc scratch, ->a0
    addi a0, scratch, ->a0
    hl.lis 65536, ->a1
    hl.liu 0x5a5a5a5a, ->a4
fillscr:
    C.BSTART COND, fillscr
    sdi a4, [a0, 0]
    add a0, a7, ->a0
    sub a1, a7, ->a1
    setc.nei a1, 0
    C.BSTART.STD FALL
    hl.liu L1, ->a0
    hl.lis 4096, ->a1
filll1:
    C.BSTART COND, filll1
    sdi a4, [a0, 0]
    add a0, a7, ->a0
    sub a1, a7, ->a1
    setc.nei a1, 0
    C.BSTART.STD FALL
    hl.lis 4096, ->a1
    sub sp, a1, ->a0
fillstk:
    C.BSTART COND, fillstk
    sdi a4, [a0, 0]
    add a0, a7, ->a0
    sub a1, a7, ->a1
    setc.nei a1, 0
    C.BSTART.STD FALL
    addtpc scratch, ->s2
    addi s2, scratch, ->s2
    addtpc tdump, ->s3
    addi s3, tdump, ->s3
    hl.lis 32, ->a0
    hl.lis 128, ->a3
    hl.lis 4096, ->a5
    hl.lis 1024, ->a6
    TLOAD.NORM <LB0:a0, LB1:a0, LB2:a0, FP32, Zero>, [s2, a3], ->T<a5>
    TSTORE.NORM <LB0:a6, LB2:a6, FP32>, T#1, [s3]
    C.BSTART.STD FALL
    c.movr a4, ->s5
    addtpc alt, ->a0
    addi a0, alt, ->a0
    addtpc patch, ->a5
    addi a5, patch, ->a5
    addtpc alt_end, ->a1
    addi a1, alt_end, ->a1
    sub a1, a0, ->a1
    hl.lis 1, ->a6
copy:
    C.BSTART COND, copy
    lbui [a0, 0], ->a2
    sbi a2, [a5, 0]
    add a0, a6, ->a0
    add a5, a6, ->a5
    sub a1, a6, ->a1
    setc.nei a1, 0
    C.BSTART COND, patch
    setc.eqi s0, 1
    C.BSTART COND, spin
    setc.eqi s0, 3
    C.BSTART.STD FALL
    hl.lis 0x30000000, ->a0
    ldi [a0, 0], ->a1
spin:
    C.BSTART DIRECT, spin
patch:
    C.BSTART.STD FALL
    hl.lis 7, ->a2
    sdi a2, [s1, 0]
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi zero, [a1, 0]
    C.BSTOP
alt:
    C.BSTART.STD FALL
    hl.lis 9, ->a2
    sdi a2, [s1, 0]
alt_end:
    C.BSTOP
    .data
    .p2align 4
out: .zero 64
scratch: .zero 65536
tdump: .zero 4096
'''

# (case, mode, expected status, kind); the order is the run order.
CASES = [
    ('a01-check', 0, 'pass', None),
    ('a02-check', 0, 'pass', None),
    ('a03-dirty', 1, 'pass', None),
    ('a04-check', 0, 'pass', None),
    ('a05-trap', 2, 'fail', 'exit-status'),
    ('a06-check', 0, 'pass', None),
    ('a07-spin', 3, 'fail', 'timeout'),
    ('a08-check', 0, 'pass', None),
    ('a09-crash', 1, 'fail', 'signal'),
    ('a10-check', 0, 'pass', None),
    ('a11-dirty', 1, 'pass', None),
    ('a12-other', None, 'pass', None),
    ('a13-check', 0, 'pass', None),
    ('a14-dirty', 1, 'pass', None),
]


def check(cond, name, detail=''):
    if not cond:
        failures.append('%s %s' % (name, detail))


def suite(d):
    import struct
    write(d, 'iso.s', ISO_PROG)
    write(d, 'p.s', VIRT_PROG)
    npy(os.path.join(d, 'check.npy'), '<i8', 'q', [7, 0, 0, 0, 0, 0, 0, 0])
    npy(os.path.join(d, 'dirty.npy'), '<i8', 'q', [9, 0, 0, 0, 0, 0, 0, 0])
    ints = [i * 5 - 7 for i in range(16)]
    with open(os.path.join(d, 'in.bin'), 'wb') as f:
        f.write(struct.pack('<16i', *ints) + struct.pack('<16f', *[0.0] * 16))
    npy(os.path.join(d, 'want.npy'), '<i4', 'i', [v * 3 for v in ints])
    text = '[suite]\nname = iso\nprogram = iso.s\ntimeout = 20\n'
    for name, mode, _, _ in CASES:
        text += '[case %s]\n' % name
        if mode is None:
            text += ('program = p.s\nargs = 16 0\ninput.in = in.bin at vin dtype i32\n'
                     'output.out = golden want.npy at vout\n')
            continue
        text += 'args = %d\n' % mode
        text += 'output.out = golden %s.npy at out\n' % ('check' if mode == 0 else 'dirty')
        if mode == 3:
            text += 'timeout = 0.5\n'
    return write(d, 'iso.optest', text)


def strip(report):
    return {c['name']: {k: v for k, v in c.items()
                        if k not in ('time', 'phases', 'manifest', 'tbs_translated')}
            for c in report['cases']}


def main():
    env = {'LINX_OPTEST_TEST_CRASH': 'iso/a09-crash'}
    with tempfile.TemporaryDirectory() as d:
        manifest = suite(d)
        reports = {}
        for mode, args in (('isolate', ['--isolate', '-j', '2']), ('worker-j1', ['-j', '1']),
                           ('worker-j2', ['-j', '2'])):
            path = os.path.join(d, mode + '.json')
            status, text = run_tool(OPTEST, [manifest, '-q', '--json', path] + args, env=env)
            check(status == 1, '%s: exit status 1 (three cases fail)' % mode,
                  '%d\n%s' % (status, text))
            with open(path) as f:
                reports[mode] = json.load(f)
            cases = {c['case']: c for c in reports[mode]['cases']}
            for name, _, want, kind in CASES:
                c = cases.get(name)
                check(c is not None and c['status'] == want and c['kind'] == kind,
                      '%s: %s is %s (%s)' % (mode, name, want, kind),
                      json.dumps(c)[:2000] if c else 'missing')
            crash = cases.get('a09-crash', {})
            check('signal 11' in (crash.get('message') or ''), '%s: the crash is named' % mode,
                  crash.get('message'))
        check(strip(reports['worker-j1']) == strip(reports['isolate']),
              'workers (-j 1) report what a process per case reports')
        check(strip(reports['worker-j2']) == strip(reports['isolate']),
              'workers (-j 2) report what a process per case reports')
        # One worker, cases in order: the second check reuses the first's
        # translations (the machine was reused, not rebuilt).
        j1 = {c['case']: c for c in reports['worker-j1']['cases']}
        check(j1['a01-check']['tbs_translated'] > 0 and j1['a02-check']['tbs_translated'] == 0,
              'a worker keeps a program\'s translations',
              '%d then %d' % (j1['a01-check']['tbs_translated'],
                              j1['a02-check']['tbs_translated']))
        iso = {c['case']: c for c in reports['isolate']['cases']}
        check(iso['a02-check']['tbs_translated'] > 0, 'a process per case translates afresh')
    for f in failures:
        print('FAIL:', f)
    print('optest isolation: %d failure(s)' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
