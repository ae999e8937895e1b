#!/usr/bin/env python3
"""TSTORE AtomicAdd (B.ATTR atomic, seed 001) in guest programs under
linx-user, checked against numpy oracles written from the specification.

    tile_atomic.py --case NAME --linx-as AS --linx-user USER --lutest LUTEST.py
                   [--accel jit|interp] [--env VAR=VALUE]
    tile_atomic.py --list

Cases:
  add-DTYPE-LAYOUT  GM pre-filled with "old" values (and a sentinel in the
                    stride gaps and after the buffer), a tile TLOADed from
                    other values, TSTORE atomic with the same selector:
                    GM = old + tile over the window, in the type (S8, S16,
                    S32 wrap; FP32, FP16 round to nearest even; BF16 the
                    same, emulated on float32 bits); NORM, NZ2ND, ZN2ND.
  issue-int32       the issue's case: GM -7, tile 3i - 100 -> 3i - 107.
  splitk-int8       C (16 x 16 int32, pre-filled) += A[:, :32] B[:32, :]
                    then += A[:, 32:] B[32:, :]: two TMATMULs on NZ x ZN
                    int8 tiles, ACCCVT to an NZ int32 tile, TSTORE NZ2ND
                    atomic; the oracle is C0 + A B modulo 2^32.
  splitk-fp16       the same with fp16 inputs (small integers: every fp32
                    sum is exact) and an fp32 C.

The program writes the destination buffer (with its guard) to stdout; this
script compares every byte.  Exit 0 pass, 1 fail.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

GUARD = 64  # sentinel bytes after each buffer
SENT = 0xa5

DT = {  # name: (numpy dtype, asm DataType, esize)
    's8': (np.int8, 'INT8', 1), 's16': (np.int16, 'INT16', 2), 's32': (np.int32, 'INT32', 4),
    'fp32': (np.float32, 'FP32', 4), 'fp16': (np.float16, 'FP16', 2), 'bf16': (None, 'BF16', 2),
}
LAYOUTS = {'norm': 'NORM', 'nz': 'ND2NZ', 'zn': 'ND2ZN'}


def bf16_round(f32):
    """float32 array -> bf16 bits, round to nearest even (no NaN here)."""
    u = f32.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7fff + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def header(op, dt, lb0, lb1, lb2, barg, ior, iot, atomic=False):
    lines = ['    BSTART.TMA %s, %s' % (op, dt), '    C.B.DIMI %d, ->lb0' % lb0,
             '    C.B.DIMI %d, ->lb1' % lb1, '    C.B.DIMI %d, ->lb2' % lb2,
             '    B.ARG %s' % barg]
    if atomic:
        lines.append('    B.ATTR atomic')
    return lines + ['    B.IOR %s,[]' % ior, '    B.IOTI %s' % iot]


def li(reg, v):
    return ['    hl.lis %d, ->%s' % (v, reg)]


def addr(reg, label):
    return ['    addtpc %s, ->%s' % (label, reg), '    addi %s, %s, ->%s' % (reg, label, reg)]


def data(label, raw, align=6):
    out = ['    .p2align %d' % align, '%s:' % label]
    b = bytes(raw) + bytes([SENT]) * GUARD
    for i in range(0, len(b), 16):
        out.append('    .byte ' + ', '.join('0x%02x' % x for x in b[i:i + 16]))
    return out


def program(code, dst_label, dst_bytes, datas):
    lines = ['    .text', '    .globl _start', '_start:', '    C.BSTART.STD FALL'] + code
    lines += ['    C.BSTART.STD FALL'] + li('a0', 1) + addr('a1', dst_label)
    lines += ['    hl.liu %d, ->a2' % (dst_bytes + GUARD), '%SYSCALL write',
              '    hl.liu %d, ->a3' % (dst_bytes + GUARD), '%CHECKR a0, a3', '%EXIT 0', '',
              '    .data']
    for d in datas:
        lines += d
    return '\n'.join(lines) + '\n'


def case_add(dtname, lay):
    """Window 13 x 29 of a 2 KB tile with Col 32, stride 37 elements."""
    npt, asm_dt, es = DT[dtname]
    col, vr, vc, pad = 32, 13, 29, 8
    stride = (vc + pad) * es
    rng = np.random.default_rng(es * 7 + len(lay))
    if dtname == 'bf16':
        old = bf16_round(rng.integers(-2000, 2000, (vr, vc + pad)).astype(np.float32) / 4)
        new = bf16_round(rng.integers(-2000, 2000, (vr, vc + pad)).astype(np.float32) / 4)
        old[0, :4] = [0x4380, 0x4380, 0x3f80, 0xbf80]  # 256 + 1 ties to 256
        new[0, :4] = [0x3f80, 0x3f81, 0x3f80, 0xbf80]
        want = old.copy()
        s = bf16_to_f32(old[:, :vc]).astype(np.float64) + bf16_to_f32(new[:, :vc])
        want[:, :vc] = bf16_round(s.astype(np.float32))
        raw_old, raw_new, raw_want = old.view(np.uint8), new.view(np.uint8), want.view(np.uint8)
    else:
        if np.issubdtype(npt, np.integer):
            info = np.iinfo(npt)
            old = rng.integers(info.min, info.max + 1, (vr, vc + pad), dtype=np.int64).astype(npt)
            new = rng.integers(info.min, info.max + 1, (vr, vc + pad), dtype=np.int64).astype(npt)
            with np.errstate(over='ignore'):
                want = old.copy()
                want[:, :vc] = (old[:, :vc] + new[:, :vc]).astype(npt)  # wraps
        else:
            old = (rng.integers(-4000, 4000, (vr, vc + pad)) / 8).astype(npt)
            new = (rng.integers(-4000, 4000, (vr, vc + pad)) / 8).astype(npt)
            if npt == np.float16:
                old[0, :2] = [2048, -2048]
                new[0, :2] = [1, -3]  # 2049 ties to 2048, -2051 to -2052
            else:
                old[0, :2] = [2.0**24, 1.0]
                new[0, :2] = [1, 2.0**-30]
            want = old.copy()
            want[:, :vc] = old[:, :vc] + new[:, :vc]  # numpy: one rounding in the type
        raw_old, raw_new, raw_want = old.view(np.uint8), new.view(np.uint8), want.view(np.uint8)
    # The stride gaps hold the sentinel in both buffers.
    raw_old = raw_old.reshape(vr, -1).copy()
    raw_new = raw_new.reshape(vr, -1).copy()
    raw_want = raw_want.reshape(vr, -1).copy()
    for r in (raw_old, raw_new, raw_want):
        r[:, vc * es:] = SENT
    tile_kb = '2KB'
    code = (addr('s0', 'src') + addr('s1', 'dst') + li('s2', stride) +
            header('TLOAD', asm_dt, vc, vr, col, LAYOUTS[lay], '[s2, s0]', '[], last ->t<%s>'
                   % tile_kb) +
            header('TSTORE', asm_dt, vc, vr, col, LAYOUTS[lay], '[s2, s1]',
                   '[t#1], last ->t<%s>' % tile_kb, atomic=True))
    prog = program(code, 'dst', raw_want.size,
                   [data('src', raw_new.reshape(-1)), data('dst', raw_old.reshape(-1))])
    return prog, bytes(raw_want.reshape(-1)) + bytes([SENT]) * GUARD


def case_issue():
    n = 256
    old = np.full(n, -7, dtype=np.int32)
    new = (3 * np.arange(n) - 100).astype(np.int32)
    want = old + new
    code = (addr('s0', 'src') + addr('s1', 'dst') +
            header('TLOAD', 'INT32', 16, 16, 16, 'NORM', '[s0]', '[], last ->t<1KB>') +
            header('TSTORE', 'INT32', 16, 16, 16, 'NORM', '[s1]', '[t#1], last ->t<1KB>',
                   atomic=True))
    prog = program(code, 'dst', n * 4, [data('src', new.view(np.uint8)),
                                        data('dst', old.view(np.uint8))])
    return prog, bytes(want.view(np.uint8)) + bytes([SENT]) * GUARD


def case_splitk(kind):
    m, n, k = 16, 16, 64
    rng = np.random.default_rng(11 if kind == 'int8' else 12)
    if kind == 'int8':
        a = rng.integers(-128, 128, (m, k)).astype(np.int8)
        b = rng.integers(-128, 128, (k, n)).astype(np.int8)
        c0 = rng.integers(-2**31, 2**31, (m, n), dtype=np.int64).astype(np.int32)
        c0[0, 0] = 2**31 - 1  # the sum wraps
        a[0, :] = 127
        b[:, 0] = 127
        prod = a.astype(np.int64) @ b.astype(np.int64)
        want = ((c0.astype(np.int64) + prod) & 0xffffffff).astype(np.uint32).view(np.int32)
        in_dt, acc_dt, es, c_es = 'INT8', 'INT32', 1, 4
    else:
        a = rng.integers(-8, 8, (m, k)).astype(np.float16)
        b = rng.integers(-8, 8, (k, n)).astype(np.float16)
        c0 = rng.integers(-1000, 1000, (m, n)).astype(np.float32)
        want = c0 + (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
        in_dt, acc_dt, es, c_es = 'FP16', 'FP32', 2, 4
    kh = k // 2
    c0_col = 16                        # ACCCVT NZ output: Col = round_up(16, c0)
    out_kb = {4: '1KB'}[c_es]          # Row = 1 KB / (16 x 4) = 16
    a_tile = '%dB' % (m * kh * es) if m * kh * es < 1024 else '%dKB' % (m * kh * es // 1024)
    code = addr('s0', 'amat') + addr('s1', 'bmat') + addr('s3', 'dst')
    code += li('s2', k * es) + li('s4', n * es)
    for half in range(2):
        code += ['    C.BSTART.STD FALL', '    addi s0, %d, ->s5' % (half * kh * es),
                 '    hl.lis %d, ->s6' % (half * kh * n * es), '    add s1, s6, ->s6']
        # A half: m x kh (row stride k), B half: kh x n (dense rows of n).
        code += header('TLOAD', in_dt, kh, m, kh, 'ND2NZ', '[s2, s5]', '[], last ->u<%s>'
                       % a_tile)
        code += header('TLOAD', in_dt, n, kh, n, 'ND2ZN', '[s4, s6]', '[], last ->t<%s>'
                       % a_tile)
        code += ['    BSTART.CUBE TMATMUL, %s' % in_dt, '    C.B.DIMI %d, ->lb0' % m,
                 '    C.B.DIMI %d, ->lb1' % n, '    C.B.DIMI %d, ->lb2' % kh, '    B.ARG NORM',
                 '    B.IOTI [u#1, t#1], last ->acc<4KB>',
                 '    BSTART.CUBE ACCCVT, %s' % acc_dt, '    C.B.DIMI %d, ->lb0' % m,
                 '    C.B.DIMI %d, ->lb1' % n, '    C.B.DIMI %d, ->lb2' % kh, '    B.ARG NORM',
                 '    B.IOR [zero, zero, x0],[]', '    B.IOTI [], last ->m<%s>' % out_kb]
        code += header('TSTORE', acc_dt, n, m, c0_col, 'ND2NZ', '[s3]',
                       '[m#1], last ->t<%s>' % out_kb, atomic=True)
    prog = program(code, 'dst', m * n * c_es,
                   [data('amat', a.view(np.uint8)), data('bmat', b.view(np.uint8)),
                    data('dst', c0.view(np.uint8))])
    return prog, bytes(want.view(np.uint8)) + bytes([SENT]) * GUARD


def cases():
    c = {'issue-int32': case_issue, 'splitk-int8': lambda: case_splitk('int8'),
         'splitk-fp16': lambda: case_splitk('fp16')}
    for dt in DT:
        for lay in LAYOUTS:
            c['add-%s-%s' % (dt, lay)] = (lambda d=dt, l=lay: case_add(d, l))
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--case')
    ap.add_argument('--linx-as')
    ap.add_argument('--linx-user')
    ap.add_argument('--lutest')
    ap.add_argument('--accel', default='jit')
    ap.add_argument('--env', action='append', default=[])
    o = ap.parse_args()
    all_cases = cases()
    if o.list:
        print('\n'.join(all_cases))
        return 0
    prog, want = all_cases[o.case]()
    with tempfile.TemporaryDirectory() as tmp:
        src, gen, elf = (os.path.join(tmp, x) for x in ('t.s', 't.gen.s', 't'))
        with open(src, 'w') as f:
            f.write(prog)
        subprocess.run([sys.executable, o.lutest, src, '-o', gen], check=True)
        r = subprocess.run([o.linx_as, '-o', elf, gen], capture_output=True, text=True)
        if r.returncode:
            print('FAIL: linx-as: ' + r.stderr)
            return 1
        env = dict(os.environ)
        for kv in o.env:
            key, _, val = kv.partition('=')
            env[key] = val
        r = subprocess.run([o.linx_user, '-accel', o.accel, elf], capture_output=True, env=env,
                           timeout=60)
    if r.returncode:
        print('FAIL: linx-user exited %d: %s' % (r.returncode, r.stderr.decode(errors='replace')))
        return 1
    if r.stdout != want:
        got = r.stdout
        first = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]),
                     min(len(got), len(want)))
        print('FAIL: %s: %d bytes, expected %d; first difference at byte %d: got %s want %s'
              % (o.case, len(got), len(want), first, got[first:first + 8].hex(),
                 want[first:first + 8].hex()))
        return 1
    print('ok: %s (%d bytes)' % (o.case, len(want)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
