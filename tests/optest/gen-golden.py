#!/usr/bin/env python3
"""Input tensors and golden outputs of the example operator suites
(docs/optest.md), in plain Python: no numpy.  Every suite uses a fixed
seed, so the files are the same on every build.

    gen-golden.py --outdir DIR [--suite NAME]... [--stamp FILE]

writes DIR/NAME/*.npy for each suite (all when none is named).

The goldens follow the operations the programs perform step by step in
IEEE single precision (each fp32 operation rounded to nearest even, as
the emulator's fpu library does): struct's 'f' format rounds a Python
double to float32, 'e' to float16.  exp() is computed in double and
rounded once, which is the correctly rounded result for these inputs;
the manifests allow a small tolerance for it anyway.
"""
import argparse
import math
import os
import random
import struct

NPY_DESCR = {'f4': '<f4', 'f2': '<f2', 'i4': '<i4', 'u4': '<u4', 'i1': '|i1', 'u2': '<u2'}
PACK = {'f4': 'f', 'f2': 'e', 'i4': 'i', 'u4': 'I', 'i1': 'b', 'u2': 'H'}


def f32(x):
    """x rounded to float32 (the value as a Python float)."""
    if math.isnan(x):
        return x
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f16(x):
    return struct.unpack('<e', struct.pack('<e', x))[0]


def write_npy(path, kind, values, shape):
    """A version 1.0 .npy file, C order."""
    descr = NPY_DESCR[kind]
    dims = ', '.join(str(d) for d in shape) + (',' if len(shape) == 1 else '')
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + ' ' * pad + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode('latin1'))
        f.write(struct.pack('<%d%s' % (len(values), PACK[kind]), *values))


def rnd_floats(rng, n, lo, hi):
    return [f32(rng.uniform(lo, hi)) for _ in range(n)]


# ---------------------------------------------------------------------------
# Suites

def vadd(out, rng):
    for name, n in (('n1', 1), ('n1000', 1000), ('n4096', 4096)):
        a = rnd_floats(rng, n, -100, 100)
        b = rnd_floats(rng, n, -100, 100)
        c = [f32(x + y) for x, y in zip(a, b)]
        write_npy(os.path.join(out, 'a_%s.npy' % name), 'f4', a, (n,))
        write_npy(os.path.join(out, 'b_%s.npy' % name), 'f4', b, (n,))
        write_npy(os.path.join(out, 'c_%s.npy' % name), 'f4', c, (n,))


def relu(out, rng):
    alpha = f32(0.1)
    for name, n in (('n7', 7), ('n2048', 2048)):
        x = rnd_floats(rng, n, -10, 10)
        if n > 4:
            x[0], x[1], x[2] = 0.0, -0.0, f32(-1e-30)
        y = [v if v > 0 else f32(v * alpha) for v in x]
        write_npy(os.path.join(out, 'x_%s.npy' % name), 'f4', x, (n,))
        write_npy(os.path.join(out, 'y_%s.npy' % name), 'f4', y, (n,))


def softmax(out, rng):
    for name, rows, cols in (('r4c16', 4, 16), ('r8c100', 8, 100), ('r3c1000', 3, 1000)):
        x = rnd_floats(rng, rows * cols, -8, 8)
        y = []
        for r in range(rows):
            row = x[r * cols:(r + 1) * cols]
            m = max(row)
            e = [f32(math.exp(f32(v - m))) for v in row]
            s = 0.0
            for v in e:
                s = f32(s + v)
            y += [f32(v / s) for v in e]
        write_npy(os.path.join(out, 'x_%s.npy' % name), 'f4', x, (rows, cols))
        write_npy(os.path.join(out, 'y_%s.npy' % name), 'f4', y, (rows, cols))


def matmul(out, rng):
    m, k, n = 16, 64, 16
    for name in ('seed1', 'seed2'):
        a = [f16(rng.uniform(-2, 2)) for _ in range(m * k)]
        b = [f16(rng.uniform(-2, 2)) for _ in range(k * n)]
        c = []
        for i in range(m):
            for j in range(n):
                # two K tiles of 32: TMATMUL, then TMATMUL.ACC adds the
                # second tile's sum to the ACC; fp16 products are exact in
                # fp32, each tile's sum runs in k order in fp32
                acc = 0.0
                for k0 in (0, 32):
                    part = 0.0
                    for kk in range(k0, k0 + 32):
                        part = f32(part + a[i * k + kk] * b[kk * n + j])
                    acc = f32(acc + part)
                c.append(acc)
        write_npy(os.path.join(out, 'a_%s.npy' % name), 'f2', a, (m, k))
        write_npy(os.path.join(out, 'b_%s.npy' % name), 'f2', b, (k, n))
        write_npy(os.path.join(out, 'c_%s.npy' % name), 'f4', c, (m, n))


def tepl(out, rng):
    s = f32(-1.5)
    for name in ('seed1', 'seed2'):
        x = rnd_floats(rng, 1024, -4, 4)
        y = rnd_floats(rng, 1024, -4, 4)
        z = [f32(f32(s * a) + b) for a, b in zip(x, y)]
        z = [v if v > 0 else 0.0 for v in z]
        write_npy(os.path.join(out, 'x_%s.npy' % name), 'f4', x, (32, 32))
        write_npy(os.path.join(out, 'y_%s.npy' % name), 'f4', y, (32, 32))
        write_npy(os.path.join(out, 'z_%s.npy' % name), 'f4', z, (32, 32))


SUITES = {'vadd': vadd, 'relu': relu, 'softmax': softmax, 'matmul': matmul, 'tepl': tepl}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--outdir', required=True)
    ap.add_argument('--suite', action='append')
    ap.add_argument('--stamp')
    args = ap.parse_args()
    for name in args.suite or sorted(SUITES):
        out = os.path.join(args.outdir, name)
        os.makedirs(out, exist_ok=True)
        SUITES[name](out, random.Random(name))
    if args.stamp:
        with open(args.stamp, 'w') as f:
            f.write('ok\n')


if __name__ == '__main__':
    main()
