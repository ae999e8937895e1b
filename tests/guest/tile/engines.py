#!/usr/bin/env python3
"""The Ascend pipeline on the virt machine: GM -> L1 (DataCopy, ND -> NZ and
bursts) -> L0A / L0B (LoadData 2D) -> Mmad -> L0C -> GM (Fixpipe), driven
through the engines' register pages by guest programs, checked against
numpy oracles written from the specification (docs/tile.md "Buffers",
shared/docs/tile-semantics.md 2.1, 2.2, 2.5; seeds 001 and 003); and the
trap report of refused engine operations (the rule, the fields, values).

    engines.py --list
    engines.py --case NAME --linx-as AS --linx-system SYS [--accel jit|interp]

Chain cases write the destination buffer (and a guard after it) to the
UART; this script compares every byte.  Report cases expect linx-system to
stop with status 1 and print "buffer engine: <rule>: <line>".
Exit 0 pass, 1 fail.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

BASE = 0x18000000
L1, L0A, L0B, L0C = BASE, BASE + 0x100000, BASE + 0x140000, BASE + 0x180000
LD, DC, MM, FP = BASE + 0x280000, BASE + 0x281000, BASE + 0x282000, BASE + 0x283000
UART = 0x10000000
GUARD = 32
SENT = 0x5a
DT = {'S8': 19, 'S16': 18, 'S32': 17, 'FP32': 1, 'FP16': 2, 'BF16': 6, 'U8': 27}


class Prog:
    def __init__(self):
        self.code = ['    .text', '    .globl _start', '_start:', '    C.BSTART.STD FALL',
                     '    hl.liu 0x%x, ->s1' % LD, '    hl.liu 0x%x, ->s2' % DC,
                     '    hl.liu 0x%x, ->s3' % MM, '    hl.liu 0x%x, ->s4' % FP]
        self.data = []

    def reg(self, page, off, value):
        page_reg = {LD: 's1', DC: 's2', MM: 's3', FP: 's4'}[page]
        if isinstance(value, str):  # a label
            self.code += ['    addtpc %s, ->a0' % value, '    addi a0, %s, ->a0' % value]
        elif value < 2**31:
            self.code.append('    hl.lis %d, ->a0' % value)
        else:
            hi, lo = value >> 32, value & 0xffffffff
            self.code += ['    hl.liu 0x%x, ->a0' % hi, '    slli a0, 32, ->a0',
                          '    hl.liu 0x%x, ->a1' % lo, '    or a0, a1, ->a0']
        self.code.append('    sdi a0, [%s, %d]' % (page_reg, off))

    # Engines (register offsets: hw/linx/buffers-*.h).
    def datacopy_nd2nz(self, src, l1_off, dtype, n, d, src_d, c0_stride):
        for off, v in ((0x00, src), (0x08, l1_off), (0x10, 1 | DT[dtype] << 8), (0x18, n),
                       (0x20, d), (0x28, src_d), (0x30, c0_stride), (0x38, 1), (0x40, 1),
                       (0x48, 1), (0x50, 1), (0x58, 1)):
            self.reg(DC, off, v)

    def datacopy_bursts(self, src, l1_off, blocks, block_len):
        for off, v in ((0x00, src), (0x08, l1_off), (0x10, 0), (0x18, blocks),
                       (0x20, block_len), (0x28, 0), (0x30, 0), (0x58, 1)):
            self.reg(DC, off, v)

    def loaddata(self, src, dst, to_l0b, dtype, start, repeat, stride, gap=0, addr_mode=0):
        ctrl = 1 | (2 if to_l0b else 0) | (8 if addr_mode else 0) | DT[dtype] << 8
        for off, v in ((0x00, src), (0x08, dst), (0x10, ctrl), (0x18, start), (0x20, repeat),
                       (0x28, stride), (0x30, gap), (0x38, 1)):
            self.reg(LD, off, v)

    def mmad(self, a, b, c, m, n, k, dtype, accumulate):
        for off, v in ((0x00, a), (0x08, b), (0x10, c), (0x18, m), (0x20, n), (0x28, k),
                       (0x30, DT[dtype] | accumulate << 8), (0x38, 1)):
            self.reg(MM, off, v)

    def fixpipe(self, dst, m, n, acc, out, nz=False, quant=0, relu=False, bias=None,
                atomic=False, qword=0, qaddr=0, stride=0):
        ctrl = (DT[acc] | DT[out] << 8 | nz << 16 | quant << 17 | relu << 19 |
                (bias is not None) << 20 | atomic << 21)
        for off, v in ((0x00, 0), (0x08, dst), (0x10, m), (0x18, n), (0x20, 0), (0x28, stride),
                       (0x30, ctrl), (0x38, qword), (0x40, qaddr), (0x48, bias or 0),
                       (0x50, 1)):
            self.reg(FP, off, v)

    def buf(self, label, raw):
        self.data += ['    .p2align 6', '%s:' % label]
        b = bytes(raw)
        for i in range(0, len(b), 16):
            self.data.append('    .byte ' + ', '.join('0x%02x' % x for x in b[i:i + 16]))

    def text(self, dump_label=None, dump_bytes=0):
        code = list(self.code)
        if dump_label:
            code += ['    C.BSTART.STD FALL', '    addtpc %s, ->a1' % dump_label,
                     '    addi a1, %s, ->a1' % dump_label, '    hl.liu %d, ->a3' % dump_bytes,
                     '    add a1, a3, ->a3', '    lui %d, ->a0' % (UART >> 12), '.Ldump:',
                     '    C.BSTART COND, .Ldump', '    lbui [a1, 0], ->a2', '    sbi a2, [a0, 0]',
                     '    addi a1, 1, ->a1', '    cmp.ne a1, a3, ->t', '    setc.ne t#1, zero']
        code += ['    C.BSTART.STD FALL', '    lui %d, ->a0' % (UART >> 12),
                 '    swi zero, [a0, 4]', '    C.BSTOP', '    .data'] + self.data
        return '\n'.join(code) + '\n'


def up(v, to):
    return (v + to - 1) // to * to


def rne(x):
    return np.round(x)  # numpy rounds half to even


def quant8(x_f32, words, signed):
    """pto-isa qf2b8_pre: fp19 scale (bits 31:13), unsigned 9-bit offset
    (bits 45:37); t = clip(round(x * m1), -256, 255) + offset, clipped."""
    w = np.asarray(words, dtype=np.uint64)
    sbits = (w & np.uint64(0xffffe000)).astype(np.uint32)
    m1 = sbits.view(np.float32)
    off = ((w >> np.uint64(37)) & np.uint64(0x1ff)).astype(np.int64)
    t = (x_f32.astype(np.float32) * m1).astype(np.float32)
    t = np.clip(rne(np.clip(t.astype(np.float64), -512, 510)), -256, 255) + off
    return np.clip(t, -128, 127).astype(np.int8) if signed else np.clip(t, 0, 255).astype(np.uint8)


def load_chain(p, a_label, bt_label, m, n, k, dtype, es):
    """A (m x k, ND in GM) -> L1 NZ -> L0A ZZ; B given as Bt (n x k, ND) ->
    L1 NZ (byte-identical to B's ZN fractals) -> L0B."""
    c0 = 32 // es
    mp, np_, kp = up(m, 16), up(n, 16), up(k, c0)
    bt_l1 = 0x20000
    p.datacopy_nd2nz(a_label, 0, dtype, m, k, k, mp)
    p.datacopy_nd2nz(bt_label, bt_l1, dtype, n, k, k, np_)
    # L1 NZ -> L0A ZZ, one row block of 16 at a time (tile-semantics 2.5).
    for blk in range(mp // 16):
        p.loaddata(L1 - L1 + 512 * blk, 512 * blk * (kp // c0), False, dtype, 0, kp // c0,
                   mp // 16)
    p.loaddata(bt_l1, 0, True, dtype, 0, (np_ * kp * es) // 512, 1)
    return mp


def case_chain_int8():
    """S8 x S8 -> S32 + bias -> per-channel quant to S8, ReLU, NZ output."""
    m, n, k = 32, 32, 64
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    bias = rng.integers(-20000, 20000, n).astype(np.int32)
    scales = rng.integers(1, 8, n).astype(np.float32) / 4096
    words = scales.view(np.uint32).astype(np.uint64) | (
        rng.integers(0, 40, n).astype(np.uint64) << np.uint64(37))
    acc = (a.astype(np.int64) @ b.astype(np.int64) + bias).astype(np.int32)
    y = quant8(acc.astype(np.float32), words[None, :], True)
    y = np.maximum(y, 0).astype(np.int8)
    c0 = 32
    want = y.reshape(m // 16, 16, n // c0, c0).transpose(2, 0, 1, 3).reshape(-1)
    p = Prog()
    p.buf('amat', a.tobytes())
    p.buf('btmat', np.ascontiguousarray(b.T).tobytes())
    p.buf('words', words.tobytes())
    p.buf('bias', bias.tobytes())
    p.buf('out', bytes([SENT]) * (m * n + GUARD))
    load_chain(p, 'amat', 'btmat', m, n, k, 'S8', 1)
    p.datacopy_bursts('words', 0x30000, n * 8 // 32, 1)
    p.datacopy_bursts('bias', 0x30400, n * 4 // 32, 1)
    p.mmad(0, 0, 0, m, n, k, 'S8', 0)
    p.fixpipe('out', m, n, 'S32', 'S8', nz=True, quant=2, relu=True, bias=0x30400,
              qaddr=0x30000)
    return p.text('out', m * n + GUARD), want.tobytes() + bytes([SENT]) * GUARD


def case_chain_fp16():
    """FP16 (small integers: exact) with k split over two Mmads (the second
    accumulates), FP32 ACC -> FP16 ND output with a padded stride, added
    atomically into a pre-filled GM."""
    m, n, k = 20, 24, 48
    stride = 28
    rng = np.random.default_rng(2)
    a = rng.integers(-6, 7, (m, k)).astype(np.float16)
    b = rng.integers(-6, 7, (k, n)).astype(np.float16)
    old = (rng.integers(-500, 500, (m, stride)) / 4).astype(np.float16)
    acc = a.astype(np.float64) @ b.astype(np.float64)
    want = old.copy()
    want[:, :n] = (old[:, :n].astype(np.float32) + acc.astype(np.float32)).astype(np.float16)
    kh = k // 2
    p = Prog()
    p.buf('amat1', np.ascontiguousarray(a[:, :kh]).tobytes())
    p.buf('amat2', np.ascontiguousarray(a[:, kh:]).tobytes())
    p.buf('btmat1', np.ascontiguousarray(b[:kh, :].T).tobytes())
    p.buf('btmat2', np.ascontiguousarray(b[kh:, :].T).tobytes())
    p.buf('out', old.tobytes() + bytes([SENT]) * GUARD)
    for half, (al, bl) in enumerate((('amat1', 'btmat1'), ('amat2', 'btmat2'))):
        load_chain(p, al, bl, m, n, kh, 'FP16', 2)
        p.mmad(0, 0, 0, m, n, kh, 'FP16', half)
    p.fixpipe('out', m, n, 'FP32', 'FP16', atomic=True, stride=stride)
    return p.text('out', old.nbytes + GUARD), want.tobytes() + bytes([SENT]) * GUARD


def case_chain_bf16():
    """FP32 inputs, scalar quant FP32 -> BF16 (QF322BF16_PRE), NZ output (c0 16)."""
    m, n, k = 16, 32, 8
    rng = np.random.default_rng(3)
    a = (rng.integers(-64, 64, (m, k)) / 8).astype(np.float32)
    b = (rng.integers(-64, 64, (k, n)) / 8).astype(np.float32)
    acc = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)  # exact
    scale = np.float32(0.75)
    t = (acc * scale).astype(np.float32)
    u = t.view(np.uint32).astype(np.uint64)
    bf = ((u + 0x7fff + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    c0 = 16
    want = bf.reshape(m // 16, 16, n // c0, c0).transpose(2, 0, 1, 3).reshape(-1)
    p = Prog()
    p.buf('amat', a.tobytes())
    p.buf('btmat', np.ascontiguousarray(b.T).tobytes())
    p.buf('out', bytes([SENT]) * (want.nbytes + GUARD))
    load_chain(p, 'amat', 'btmat', m, n, k, 'FP32', 4)
    p.mmad(0, 0, 0, m, n, k, 'FP32', 0)
    word = int(np.array([scale], dtype=np.float32).view(np.uint32)[0])
    p.fixpipe('out', m, n, 'FP32', 'BF16', nz=True, quant=1, qword=word)
    return p.text('out', want.nbytes + GUARD), want.tobytes() + bytes([SENT]) * GUARD


# Report cases: program, expected "buffer engine: <rule>: <line>" regex.
def case_report(which):
    p = Prog()
    p.buf('pad', bytes(64))
    if which == 'loaddata-neg-index':
        p.loaddata(0, 0, False, 'FP16', 2, 3, 2, addr_mode=1)
        want = (r'buffer engine: loaddata-neg-index: loaddata: start index -2 < 0 '
                r'\(START_INDEX 2, SRC_STRIDE 2, REPEAT 3, ')
    elif which == 'loaddata-dst-align':
        p.loaddata(0, 256, False, 'FP16', 0, 1, 0)
        want = r'loaddata-dst-align: loaddata: destination offset 0x100 is not 512-byte aligned'
    elif which == 'datacopy-src-stride':
        p.datacopy_nd2nz('pad', 0, 'FP16', 4, 16, 8, 16)
        want = r'datacopy-src-stride: datacopy: source row stride 8 < D_VALUE 16'
    elif which == 'mmad-bad-dims':
        p.mmad(0, 0, 0, 16, 4096, 16, 'FP16', 0)
        want = r'mmad-bad-dims: mmad: n 4096 outside 1\.\.4095'
    elif which == 'fixpipe-bad-dtype':
        p.fixpipe('pad', 16, 16, 'S32', 'BF16')
        want = r'fixpipe-bad-dtype: fixpipe: S32 ACC -> BF16 is not a conversion of quant mode 0'
    elif which == 'fixpipe-atomic-dtype':
        p.fixpipe('pad', 16, 16, 'S32', 'U8', quant=1, atomic=True, qword=0x3f800000)
        want = r'fixpipe-atomic-dtype: fixpipe: AtomicAdd of U8'
    else:
        raise KeyError(which)
    return p.text(), want


CHAINS = {'chain-int8-nz-vquant-relu-bias': case_chain_int8,
          'chain-fp16-nd-splitk-atomic': case_chain_fp16,
          'chain-fp32-bf16-scalar-nz': case_chain_bf16}
REPORTS = ['loaddata-neg-index', 'loaddata-dst-align', 'datacopy-src-stride', 'mmad-bad-dims',
           'fixpipe-bad-dtype', 'fixpipe-atomic-dtype']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--case')
    ap.add_argument('--linx-as')
    ap.add_argument('--linx-system')
    ap.add_argument('--accel', default='jit')
    o = ap.parse_args()
    if o.list:
        print('\n'.join(list(CHAINS) + ['report-' + r for r in REPORTS]))
        return 0
    report = o.case.startswith('report-')
    prog, want = case_report(o.case[7:]) if report else CHAINS[o.case]()
    with tempfile.TemporaryDirectory() as tmp:
        src, elf = os.path.join(tmp, 't.s'), os.path.join(tmp, 't')
        with open(src, 'w') as f:
            f.write(prog)
        r = subprocess.run([o.linx_as, '-o', elf, src], capture_output=True, text=True)
        if r.returncode:
            print('FAIL: linx-as: ' + r.stderr)
            return 1
        r = subprocess.run([o.linx_system, '-M', 'virt', '-accel', o.accel, '-kernel', elf],
                           capture_output=True, timeout=120)
    err = r.stderr.decode(errors='replace')
    if report:
        if r.returncode != 1 or not re.search(want, err):
            print('FAIL: %s: status %d, expected 1 and /%s/ in:\n%s' % (o.case, r.returncode,
                                                                      want, err))
            return 1
        print('ok: ' + o.case)
        return 0
    if r.returncode != 0:
        print('FAIL: linx-system exited %d:\n%s' % (r.returncode, err))
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
