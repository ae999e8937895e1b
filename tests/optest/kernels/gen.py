#!/usr/bin/env python3
"""Inputs and goldens of the kernel-block suite (kernels.optest), from the
numpy reference tests/optest/lib/linxref.py and the lane semantics of
docs/kernels.md written down from kernel_execution.json and the scalar
ISA: integer operands read extended by their type, the operation on 64
bits, the result truncated to the destination width; floats IEEE in the
operand format with round to nearest even (FCSR's default); reductions
combine the lanes in lc0 order; FMAX/FMIN are maximumNumber/minimumNumber.

    gen.py vbin OP TYPE N
    gen.py reduce OP TYPE ROWSxCOLS
    gen.py matvec ROWSxCOLS
    gen.py act ACT TYPE N
    gen.py softmax ROWSxCOLS
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import numpy as np  # noqa: E402

import gencommon as gc  # noqa: E402
import linxref as ref  # noqa: E402

NP = {'i32': np.int32, 'u32': np.uint32, 'i16': np.int16, 'i8': np.int8, 'u8': np.uint8,
      'f32': np.float32, 'f64': np.float64, 'f16': np.float16}


def operands(rng, ty, n, op):
    if ty.startswith('f'):
        x = rng.uniform(-100, 100, n)
        if op in ('v.fmax', 'v.fmin') and n > 4:
            x[:4] = (0.0, -0.0, 0.0, -0.0)
        if op == 'v.fdiv' and n > 2:
            x[:2] = (0.0, -0.0)
        return x.astype(NP[ty])
    info = np.iinfo(NP[ty])
    return rng.integers(info.min, info.max + 1, n, dtype=np.int64).astype(NP[ty])


def int_op(op, a, b, ty):
    """64-bit operation on the extended operands, truncated to the type."""
    x = a.astype(np.int64) if ty[0] == 'i' else a.astype(np.uint64).astype(np.int64)
    y = b.astype(np.int64) if ty[0] == 'i' else b.astype(np.uint64).astype(np.int64)
    with np.errstate(over='ignore'):
        r = {'v.add': lambda: x + y, 'v.sub': lambda: x - y, 'v.mul': lambda: x * y,
             'v.and': lambda: x & y, 'v.or': lambda: x | y, 'v.xor': lambda: x ^ y,
             'v.max': lambda: np.maximum(x, y), 'v.min': lambda: np.minimum(x, y)}[op]()
    nb = 8 * np.dtype(NP[ty]).itemsize
    return (r.astype(np.uint64) & np.uint64((1 << nb) - 1)).astype(
        {8: np.uint8, 16: np.uint16, 32: np.uint32}[nb]).view(NP[ty])


def float_op(op, a, b, ty):
    dt = ty
    name = {'v.fadd': 'tadd', 'v.fsub': 'tsub', 'v.fmul': 'tmul', 'v.fdiv': 'tdiv',
            'v.fmax': 'tmax', 'v.fmin': 'tmin'}[op]
    return np.asarray(ref.float_binary(name, a, b, dt)).astype(NP[ty])


def vbin(op, ty, n):
    rng = gc.rng_for('vbin', op, ty, n)
    a = operands(rng, ty, n, op)
    b = operands(rng, ty, n, op)
    c = float_op(op, a, b, ty) if ty[0] == 'f' else int_op(op, a, b, ty)
    gc.save('a.npy', a)
    gc.save('b.npy', b)
    gc.save('c.npy', c)
    gc.save_params([n])


def reduce_rows(op, ty, rows, cols):
    rng = gc.rng_for('reduce', op, ty, rows, cols)
    if ty == 'f32':
        x = rng.uniform(-1000, 1000, (rows, cols)).astype(np.float32)
    else:
        x = rng.integers(-(1 << 31), 1 << 31, (rows, cols), dtype=np.int64).astype(
            np.int32 if ty == 'i32' else np.int64).astype(np.int32)
        if ty == 'u32':
            x = x.view(np.uint32)
    y = np.zeros((rows, cols), dtype=x.dtype)
    for r in range(rows):
        acc = x[r, 0]
        for c in range(1, cols):
            v = x[r, c]
            if op == 'v.rdfadd':
                acc = np.float32(acc + v)
            elif op in ('v.rdfmax', 'v.rdfmin'):
                acc = np.float32(ref._max_number(np.array([acc], np.float64),
                                                 np.array([v], np.float64),
                                                 op == 'v.rdfmax')[0])
            elif op == 'v.rdadd':
                acc = int_op('v.add', np.array([acc]), np.array([v]), ty)[0]
            elif op == 'v.rdmax':
                acc = max(acc, v)
            elif op == 'v.rdmin':
                acc = min(acc, v)
            elif op == 'v.rdand':
                acc = acc & v
            elif op == 'v.rdor':
                acc = acc | v
            elif op == 'v.rdxor':
                acc = acc ^ v
        y[r, :] = acc
    gc.save('x.npy', x)
    gc.save('y.npy', y)
    gc.save_params([cols, rows])


def matvec(rows, cols):
    rng = gc.rng_for('matvec', rows, cols)
    a = rng.uniform(-4, 4, (rows, cols)).astype(np.float32)
    x = rng.uniform(-4, 4, cols).astype(np.float32)
    y = np.zeros((rows, cols), dtype=np.float32)
    for r in range(rows):
        p = (a[r] * x).astype(np.float32)          # each product rounded
        s = p[0]
        for c in range(1, cols):                   # lc0 order
            s = np.float32(s + p[c])
        y[r, :] = s
    gc.save('a.npy', a)
    gc.save('x.npy', x)
    gc.save('y.npy', y)
    gc.save_params([cols, rows])


def act(kind, ty, n):
    rng = gc.rng_for('act', kind, ty, n)
    x = rng.uniform(-50, 50, n).astype(NP[ty])
    if n > 4:
        x[:3] = (0.0, -0.0, 1.0)
    y = rng.uniform(-50, 50, n).astype(NP[ty])
    alpha = NP[ty](0.125 if kind == 'leaky' else -1.75)
    name = 'f' + ty[1:]
    if kind == 'relu':
        out = ref.float_binary('tmax', x, np.zeros(n, NP[ty]), ty)
    elif kind == 'leaky':
        ax = ref.float_binary('tmul', x, np.full(n, alpha, NP[ty]), ty)
        out = ref.float_binary('tmax', x, ax, ty)
    else:
        ax = ref.float_binary('tmul', x, np.full(n, alpha, NP[ty]), ty)
        out = ref.float_binary('tadd', y, ax, ty)
    del name
    gc.save('x.npy', x)
    gc.save('y.npy', y)
    gc.save('out.npy', np.asarray(out).astype(NP[ty]))
    bits = int(np.asarray(alpha).view({2: np.uint16, 4: np.uint32, 8: np.uint64}
                                      [np.dtype(NP[ty]).itemsize]))
    gc.save_params([n, bits])


def softmax(rows, cols):
    """The program's steps (tests/optest/softmax/softmax.s): m = row max,
    e = exp(x - m) (fp32 difference, exp rounded once), s = sum of e in lane
    order, y = e / s."""
    rng = gc.rng_for('softmax', rows, cols)
    x = rng.uniform(-8, 8, (rows, cols)).astype(np.float32)
    y = np.zeros_like(x)
    for r in range(rows):
        m = x[r].max()
        e = np.array([np.float32(math.exp(float(np.float32(v - m)))) for v in x[r]],
                     dtype=np.float32)
        s = np.float32(0)
        s = e[0]
        for v in e[1:]:
            s = np.float32(s + v)
        y[r] = (e / s).astype(np.float32)
    gc.save('x.npy', x)
    gc.save('y.npy', y)


def main():
    kind = sys.argv[1]
    if kind == 'vbin':
        vbin(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif kind == 'reduce':
        rows, cols = (int(v) for v in sys.argv[4].split('x'))
        reduce_rows(sys.argv[2], sys.argv[3], rows, cols)
    elif kind == 'matvec':
        rows, cols = (int(v) for v in sys.argv[2].split('x'))
        matvec(rows, cols)
    elif kind == 'act':
        act(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif kind == 'softmax':
        rows, cols = (int(v) for v in sys.argv[2].split('x'))
        softmax(rows, cols)
    else:
        sys.exit('unknown kind ' + kind)


if __name__ == '__main__':
    main()
