#!/usr/bin/env python3
"""Inputs and goldens of the flash-attention-style kernel (attention.optest).

    gen.py LQ D BLOCKS      (keys: BLOCKS x D)

o.npy follows the kernel's steps one operation at a time with
tests/optest/lib/linxref.py (fp32 TEPL operations rounded once each, exp
computed in double and rounded once, the cube's k-order fp32 sums):
compared within 2 ulp (the host libm's exp).  o_f64.npy is
softmax(Q K^T / sqrt(d)) V in float64: the online algorithm computes
attention, checked with a relative tolerance.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import numpy as np  # noqa: E402

import gencommon as gc  # noqa: E402
import linxref as ref  # noqa: E402


def f(op, a, b):
    return ref.float_binary(op, a, b, 'f32').astype(np.float32)


def rowmax(x):
    return ref.reduce_seq('max', x, 'f32', axis=1).astype(np.float32)


def rowsum(x):
    return ref.reduce_seq('sum', x, 'f32', axis=1).astype(np.float32)


def texp(x):
    return ref.float_unary('texp', x, 'f32').astype(np.float32)


def main():
    lq, d, nblocks = (int(v) for v in sys.argv[1:4])
    lk = nblocks * d
    assert lq <= 32 and d in (16, 32)
    rng = gc.rng_for(*sys.argv[1:])
    q = rng.uniform(-1, 1, (lq, d)).astype(np.float32)
    k = rng.uniform(-1, 1, (lk, d)).astype(np.float32)
    v = rng.uniform(-1, 1, (lk, d)).astype(np.float32)
    scale = np.float32(1 / math.sqrt(d))
    m = l = o = None
    for j in range(lk // d):
        kj, vj = k[j * d:(j + 1) * d], v[j * d:(j + 1) * d]
        s = ref.matmul_acc(q, kj.T, 'f')
        s = f('tmul', s, np.full(s.shape, scale, np.float32))
        mb = rowmax(s)
        if j == 0:
            m_new = mb
        else:
            m_new = f('tmax', m, mb)
        p = texp(f('tsub', s, np.repeat(m_new[:, None], d, axis=1)))
        lb = rowsum(p)
        pv = ref.matmul_acc(p, vj, 'f')
        if j == 0:
            l, o = lb, pv
        else:
            alpha = texp(f('tsub', m, m_new))
            l = f('tadd', f('tmul', alpha, l), lb)
            o = f('tadd', f('tmul', o, np.repeat(alpha[:, None], d, axis=1)), pv)
        m = m_new
    o = f('tdiv', o, np.repeat(l[:, None], d, axis=1))
    s64 = (q.astype(np.float64) @ k.astype(np.float64).T) / math.sqrt(d)
    e = np.exp(s64 - s64.max(axis=1, keepdims=True))
    o64 = (e / e.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    r16 = -(-lq // 16) * 16
    gc.save('q.npy', q)
    gc.save('k.npy', k)
    gc.save('v.npy', v)
    gc.save('o.npy', o)
    gc.save('o_f64.npy', o64.astype(np.float32))
    gc.save_params([lq, d, lk // d, r16 * d * 4, d * 4, int(scale.view(np.uint32)),
                    d * d * 4, d * d * 4])


if __name__ == '__main__':
    main()
