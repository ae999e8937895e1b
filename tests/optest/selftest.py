#!/usr/bin/env python3
"""Tests of linx-optest itself (docs/optest.md): every exit status and
message a user meets.

    selftest.py LINX_OPTEST LINX_AS

Cases: a passing suite with raw .bin inputs, symbol+offset places, an ulp
tolerance and --case/--list; a wrong golden (exit 1, the first differing
element named); a guest that traps (exit 1, the trap report shown); a
guest that loops (timed out); manifest errors (exit 2 with the rule);
a Linux user-mode program; a program given as an ELF file.
"""
import os
import struct
import subprocess
import sys
import tempfile

OPTEST, LINX_AS = sys.argv[1], sys.argv[2]
failures = []

# A virt program: out[i] = in[i] * 3 (int32) for n = a0 elements, then a
# float copy, then exit with status a1.
VIRT_PROG = r'''
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    addtpc vin, ->s0
    addi s0, vin, ->s0
    addtpc vout, ->s1
    addi s1, vout, ->s1
    c.movr a0, ->s2
    c.movr a1, ->s3
    hl.lis 3, ->s4
    BSTART.MPAR VS16
    B.TEXT .body
    B.IOR [s0, s1, s4],[]
    B.DIM s2, 0, ->lb0
    C.BSTART.STD FALL
    hl.lis 0x10000004, ->a1
    swi s3, [a1, 0]
    C.BSTOP
.body:
    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w
    v.mul vt#1.sw, ri2.sw, ->vt.w
    v.swi.brg vt#1.sw, [ri1, lc0<<2, 0]
    v.lwi.brg [ri0, lc0<<2, 64], ->vt.w
    v.swi.brg vt#1.uw, [ri1, lc0<<2, 64]
    C.BSTOP
    .data
    .p2align 4
vin: .zero 128
vout: .zero 128
'''

TRAP_PROG = r'''
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 0x30000000, ->a0
    ldi [a0, 0], ->a1
    C.BSTOP
vout: .zero 16
'''

LOOP_PROG = r'''
    .text
    .globl _start
_start:
    C.BSTART DIRECT, _start
    C.BSTOP
vout: .zero 16
'''

# Linux user mode: out[0] = in[0] + in[1] (64-bit), exit(0).
USER_PROG = r'''
    .text
    .globl _start
_start:
    C.BSTART.STD
    addtpc vin, ->s0
    addi s0, vin, ->s0
    ldi [s0, 0], ->a0
    ldi [s0, 8], ->a1
    add a0, a1, ->a0
    sdi a0, [s0, 16]
    C.BSTART.STD
    addi zero, 0, ->a0
    addi zero, 93, ->a7
    acrc 1
    C.BSTOP
    .data
    .p2align 3
vin: .zero 24
'''


def npy(path, descr, fmt, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(values))
    header += ' ' * (63 - (10 + len(header)) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode())
        f.write(struct.pack('<%d%s' % (len(values), fmt), *values))


def run(args, want_status, want_out=(), not_out=(), name=''):
    r = subprocess.run([OPTEST] + args, capture_output=True, text=True, timeout=120)
    text = r.stdout + r.stderr
    ok = r.returncode == want_status and all(w in text for w in want_out) and \
        not any(w in text for w in not_out)
    if not ok:
        failures.append('%s: status %d (want %d), output:\n%s' % (name, r.returncode,
                                                                   want_status, text))
    return text


def write(d, name, text):
    with open(os.path.join(d, name), 'w') as f:
        f.write(text)


def main():
    with tempfile.TemporaryDirectory() as d:
        write(d, 'p.s', VIRT_PROG)
        write(d, 'trap.s', TRAP_PROG)
        write(d, 'loop.s', LOOP_PROG)
        write(d, 'user.s', USER_PROG)
        ints = [i * 7 - 20 for i in range(16)]
        floats = [0.5 * i - 1.0 for i in range(16)]
        with open(os.path.join(d, 'in.bin'), 'wb') as f:
            f.write(struct.pack('<16i', *ints) + struct.pack('<16f', *floats))
        npy(os.path.join(d, 'want.npy'), '<i4', 'i', [v * 3 for v in ints])
        npy(os.path.join(d, 'wrong.npy'), '<i4', 'i', [v * 3 + (i == 5) for i, v in enumerate(ints)])
        # the float copy, each golden value one ulp off: passes with ulp 1 only
        off = [struct.unpack('<f', struct.pack('<I', struct.unpack('<I', struct.pack('<f', v))[0] + 1))[0]
               if v > 0 else v for v in floats]
        npy(os.path.join(d, 'fl.npy'), '<f4', 'f', off)
        write(d, 'ok.optest', '''[suite]
name = self
program = p.s
rtol = 0

[case ints]
args = 16 0
input.in = in.bin at vin dtype i32
output.out = golden want.npy at vout

[case floats]
args = 16 7
status = 7
input.in = in.bin at vin dtype i32
output.out = golden fl.npy at vout+64 ulp 1

[case wrong]
args = 16 0
input.in = in.bin at vin
output.out = golden wrong.npy at vout
''')
        text = run([os.path.join(d, 'ok.optest')], 1,
                   ['PASS self/ints', 'PASS self/floats',
                    'FAIL self/wrong: output out (i32 [16]): 1 of 16 elements differ, first at '
                    '[5]: got 45 (0x0000002d), want 46 (0x0000002e)', 'self: 2 passed, 1 failed'],
                   name='mixed suite')
        run([os.path.join(d, 'ok.optest'), '--case', 'ints'], 0, ['PASS self/ints'],
            ['self/floats'], name='--case')
        run([os.path.join(d, 'ok.optest'), '--list'], 0, ['self/ints\nself/floats\nself/wrong'],
            name='--list')
        run([os.path.join(d, 'ok.optest'), '-a', 'interp', '-c', 'floats', '-q'], 0,
            ['linx-optest: 1 passed, 0 failed'], ['PASS'], name='quiet interp')
        write(d, 'trap.optest', '''[suite]
program = trap.s
[case t]
output.o = golden want.npy at vout
''')
        run([os.path.join(d, 'trap.optest')], 1,
            ['exit status 1, expected 0', 'unhandled trap 35'], name='trap')
        write(d, 'loop.optest', '''[suite]
program = loop.s
timeout = 1
[case t]
output.o = golden want.npy at vout
''')
        run([os.path.join(d, 'loop.optest')], 1, ['FAIL loop.optest/t: timed out'],
            name='timeout')
        for bad, msg in (('[suite]\nprogram = p.s\n', 'no cases ([case NAME] or [matrix] groups)'),
                         ('[suite]\n[case a]\noutput.o = golden x at y\n', 'has no program'),
                         ('[suite]\nprogram = p.s\n[case a]\nouput.o = golden x at y\n',
                          "unknown key 'ouput.o'"),
                         ('[suite]\nprogram = p.s\n[case a]\noutput.o = golden x\n',
                          "expected 'golden FILE at PLACE"),
                         ('[suite]\nprogram = p.s\nmachine = vrit\n[case a]\n', 'machine'),
                         ('[suite]\nprogram = p.s\n[cases a]\n', 'unknown group'),
                         ('not a manifest\n', 'bad.optest')):
            write(d, 'bad.optest', bad)
            run([os.path.join(d, 'bad.optest')], 2, [msg], name='manifest: ' + msg)
        run([os.path.join(d, 'missing.optest')], 2, ['missing.optest'], name='no manifest')
        run([], 2, ['usage'], name='no arguments')
        run(['-a', 'fast', os.path.join(d, 'ok.optest')], 2, ['--accel'], name='bad accel')
        # Linux user mode
        npy(os.path.join(d, 'uin.npy'), '<i8', 'q', [40, 2, 0])
        npy(os.path.join(d, 'uout.npy'), '<i8', 'q', [42])
        write(d, 'user.optest', '''[suite]
program = user.s
machine = user
[case add]
input.v = uin.npy at vin
output.r = golden uout.npy at vin+16
''')
        run([os.path.join(d, 'user.optest')], 0, ['PASS user.optest/add'], name='user mode')
        # an ELF program
        subprocess.run([LINX_AS, '-o', os.path.join(d, 'p.elf'), os.path.join(d, 'p.s')],
                       check=True)
        write(d, 'elf.optest', '''[suite]
program = p.elf
[case ints]
args = 16
input.in = in.bin at vin dtype i32
output.out = golden want.npy at vout
''')
        run([os.path.join(d, 'elf.optest')], 0, ['PASS elf.optest/ints'], name='ELF program')
    for f in failures:
        print('FAIL:', f)
    print('optest selftest: %d failure(s)' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
