#!/usr/bin/env python3
"""linx-optest's tile-test ergonomics (docs/optest.md "Places" and
"Expected traps"): what a case gets when its trap expectation is wrong,
and what the buffer places refuse.

    expect-trap.py LINX_OPTEST SRCDIR USER_EXIT42 USER_SEGV

The programs are tests/optest/buffers/*.s (the passing cases are in that
suite); here each is paired with a wrong expectation, and the runner
must fail the case with kind 'trap' and say what happened and what was
expected.  Data are written by hand (no numpy): the goldens are plain
arithmetic on the inputs.
"""
import json
import os
import struct
import sys
import tempfile

from selfprogs import npy, run_tool, write

OPTEST, SRC = sys.argv[1], os.path.abspath(sys.argv[2])
USER_EXIT42, USER_SEGV = os.path.abspath(sys.argv[3]), os.path.abspath(sys.argv[4])
PROGS = os.path.join(SRC, 'tests', 'optest', 'buffers')
failures = []
checks = 0


def check(cond, name, detail=''):
    global checks
    checks += 1
    if not cond:
        failures.append('%s: %s' % (name, detail))


def run(d, manifest, args=()):
    path = write(d, 'm.optest', manifest)
    report = os.path.join(d, 'r.json')
    if os.path.exists(report):
        os.unlink(report)
    status, text = run_tool(OPTEST, ['-j', '1', '--json', report] + list(args) + [path])
    cases = {}
    if os.path.exists(report):
        with open(report) as f:
            cases = {c['case']: c for c in json.load(f)['cases']}
    return status, text, cases


def prog(name):
    return os.path.join(PROGS, name)


def wrong_expectations(d):
    npy(os.path.join(d, 'zeros.npy'), '|u1', 'B', [0] * 64)
    status, text, cases = run(d, '''[suite]
name = wrong
program = %s

[case wrong-rule]
expect-trap = validrow-gt-row
output.dst = golden zeros.npy at dst

[case wrong-trapnum]
expect-trap = validcol-gt-col
trapnum = 5
output.dst = golden zeros.npy at dst

[case right]
expect-trap = validcol-gt-col
trapnum = 4
output.dst = golden zeros.npy at dst

[case no-trap]
program = %s
defines = ADDR=0x1000
expect-trap = any

[case wrong-traparg0]
program = %s
defines = ADDR=0x70000008
trapnum = 35
traparg0 = 0x70000010

[case unexpected-trap]
program = %s
defines = ADDR=0x70000008
output.dst = golden zeros.npy at 0x1000
''' % (prog('tile-rule.s'), prog('pagefault.s'), prog('pagefault.s'), prog('pagefault.s')))
    check(status == 1, 'wrong: exit status', '%d\n%s' % (status, text))
    want = {
        'wrong-rule': ('trap', ['got trap 4 (', 'rule validcol-gt-col',
                                'expected rule validrow-gt-row']),
        'wrong-trapnum': ('trap', ['got trap 4 (', 'expected rule validcol-gt-col, trap 5']),
        'no-trap': ('trap', ['expected a trap, but the program exited with status 0']),
        'wrong-traparg0': ('trap', ['got trap 35 (', 'traparg0 0x70000008',
                                    'expected any rule, trap 35, traparg0 0x70000010']),
        'unexpected-trap': ('exit-status', ['exit status 1, expected 0']),
    }
    for name, (kind, words) in want.items():
        c = cases.get(name)
        check(c is not None and c['status'] == 'fail' and c['kind'] == kind and
              all(w in (c['message'] or '') for w in words), 'wrong: ' + name,
              json.dumps(c))
    check(cases.get('right', {}).get('status') == 'pass', 'wrong: right',
          json.dumps(cases.get('right')))


def places(d):
    # 16 int32 at UB+0x40, given as two inputs (4 bytes, then 60 at the
    # unaligned UB+0x44): scalar.s sums them and writes them doubled to
    # L1+0x1000.
    vals = [(i * 2654435761) % (1 << 32) - (1 << 31) for i in range(16)]
    npy(os.path.join(d, 'first.npy'), '<i4', 'i', vals[:1])
    npy(os.path.join(d, 'rest.npy'), '<i4', 'i', vals[1:])
    npy(os.path.join(d, 'sum.npy'), '<i8', 'q', [sum(vals)])
    npy(os.path.join(d, 'twice.npy'), '<i4', 'i',
        [struct.unpack('<i', struct.pack('<I', (2 * v) % (1 << 32)))[0] for v in vals])
    npy(os.path.join(d, 'ones.npy'), '<u4', 'I', [0xffffffff] * 16)
    npy(os.path.join(d, 'zero16.npy'), '<u4', 'I', [0] * 16)
    status, text, cases = run(d, '''[suite]
name = places
program = %s

[case unaligned]
input.a = first.npy at UB+0x40
input.b = rest.npy at UB+0x44
output.sum = golden sum.npy at sum
output.twice = golden twice.npy at L1+0x1000

# a worker runs both on one machine: the first leaves ones in L0C, the
# second must find L0C zero again
[case dirty]
input.c = ones.npy at L0C+0x40
output.c = golden ones.npy at L0C+0x40
[case clean]
output.c = golden zero16.npy at L0C+0x40

[case past-the-end]
input.a = ones.npy at L0A+0xffc0
input.b = ones.npy at L0A+0xfff0
output.sum = golden sum.npy at sum
''' % prog('scalar.s'))
    check(status == 1, 'places: exit status', '%d\n%s' % (status, text))
    for name in ('unaligned', 'dirty', 'clean'):
        check(cases.get(name, {}).get('status') == 'pass', 'places: ' + name,
              json.dumps(cases.get(name)))
    c = cases.get('past-the-end', {})
    check(c.get('kind') == 'setup' and 'input b: 64 bytes at L0A+0xfff0 pass the end of L0A '
          '(65536 bytes in the a2a3 profile)' in (c.get('message') or ''),
          'places: past-the-end', json.dumps(c))
    # Linux user mode has no buffer windows
    status, text, cases = run(d, '''[suite]
name = user
program = %s
machine = user

[case ub]
input.a = first.npy at UB
output.sum = golden sum.npy at sum
''' % prog('scalar.s'))
    c = cases.get('ub', {})
    check(status == 1 and c.get('kind') == 'setup' and
          'input a: the tile buffer windows (UB) exist on the virt machine only' in
          (c.get('message') or ''), 'places: user', '%d %s' % (status, json.dumps(c)))


def user_machine(d):
    # Linux user mode: a death by a fault's signal is the trap (segv.s
    # loads from address 0: DATA_PAGE_FAULT, TRAPARG0 0); a normal exit is
    # not.  (The emulator itself died of the thread-kick signal here once.)
    status, text, cases = run(d, '''[suite]
name = user
program = %s
machine = user

[case segv]
expect-trap = any
trapnum = 35
traparg0 = 0

[case exit42]
program = %s
expect-trap = any
''' % (USER_SEGV, USER_EXIT42))
    check(status == 1, 'user: exit status', '%d\n%s' % (status, text))
    check(cases.get('segv', {}).get('status') == 'pass', 'user: segv', json.dumps(cases.get('segv')))
    c = cases.get('exit42', {})
    check(c.get('kind') == 'trap' and 'expected a trap, but the program exited with status 42' in
          (c.get('message') or ''), 'user: exit42', json.dumps(c))


def manifest_errors(d):
    for body, words in (
            ('trapnum = 99\n', "trapnum: expected a TRAPNUM 0..63, got '99'"),
            ('traparg0 = x\n', "traparg0: expected an integer, got 'x'"),
            ('args = 1\n', 'no output.* and no expect-trap to check'),
            ('input.a = first.npy at L0A+\n', "input.a: expected 'FILE at PLACE")):
        status, text, _ = run(d, '[suite]\nname = bad\nprogram = %s\n\n[case c]\n%s' %
                              (prog('scalar.s'), body))
        check(status == 2 and words in text, 'manifest: ' + body.strip(),
              '%d\n%s' % (status, text))


def main():
    with tempfile.TemporaryDirectory() as d:
        wrong_expectations(d)
        places(d)
        user_machine(d)
        manifest_errors(d)
    for f in failures:
        print('FAIL:', f)
    print('expect-trap: %d checks, %d failed' % (checks, len(failures)))
    sys.exit(1 if failures or checks == 0 else 0)


if __name__ == '__main__':
    main()
