"""Programs and helpers shared by the runner's own tests (selftest.py,
reports.py): small LinxISA programs for the virt machine and Linux user
mode, and an .npy writer without numpy.
"""
import os
import struct
import subprocess

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


def npy(path, descr, fmt, values, shape=None):
    """A version 1.0 .npy file of @values (struct format @fmt), C order."""
    shape = shape or (len(values),)
    dims = ', '.join(str(n) for n in shape) + (',' if len(shape) == 1 else '')
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += ' ' * (63 - (10 + len(header)) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode())
        f.write(struct.pack('<%d%s' % (len(values), fmt), *values))


# Prints bytes on the virt UART (controls, invalid UTF-8, XML specials),
# then stops with status 3.
NOISY_PROG = r'''
    .text
    .globl _start
_start:
    C.BSTART.STD FALL
    hl.lis 0x10000000, ->a1
    hl.lis 0x3c, ->a2
    sbi a2, [a1, 0]
    hl.lis 0x26, ->a2
    sbi a2, [a1, 0]
    hl.lis 0x01, ->a2
    sbi a2, [a1, 0]
    hl.lis 0xff, ->a2
    sbi a2, [a1, 0]
    hl.lis 0x22, ->a2
    sbi a2, [a1, 0]
    hl.lis 0x0a, ->a2
    sbi a2, [a1, 0]
    hl.lis 0x10000004, ->a1
    hl.lis 3, ->a2
    swi a2, [a1, 0]
    C.BSTOP
vout: .zero 64
'''


def write(d, name, text):
    path = os.path.join(d, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    return path


def run_tool(tool, args, timeout=120, env=None, stdin=None):
    e = dict(os.environ)
    if env:
        e.update(env)
    r = subprocess.run([tool] + args, capture_output=True, text=True, timeout=timeout,
                       env=e, stdin=stdin, errors='replace')
    return r.returncode, r.stdout + r.stderr
