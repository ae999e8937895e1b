#!/usr/bin/env python3
"""Inputs and goldens of the tiled GEMM (gemm.optest).

    gen.py DTYPE MxNxK TMxTNxTK

c.npy follows the kernel's own steps with tests/optest/lib/linxref.py
(tile-semantics.md 2.6: per k tile the products in fp32 summed in k
order, each tile's sum added to the ACC): exact.  c_f64.npy is A x B in
float64, checked with a relative tolerance: the tiles together are a
matrix product.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import numpy as np  # noqa: E402

import gencommon as gc  # noqa: E402
import linxref as ref  # noqa: E402


def main():
    dt = ref.dtype_name(sys.argv[1])
    m, n, k = (int(v) for v in sys.argv[2].split('x'))
    tm, tn, tk = (int(v) for v in sys.argv[3].split('x'))
    assert m % tm == 0 and n % tn == 0 and k % tk == 0
    es = ref.esize(dt)
    rng = gc.rng_for(*sys.argv[1:])
    if dt == 'bf16':
        abits = ref.bf16_round_f64(rng.uniform(-1, 1, (m, k)))
        bbits = ref.bf16_round_f64(rng.uniform(-1, 1, (k, n)))
        a, b = ref.bf16_to_f32(abits), ref.bf16_to_f32(bbits)
        astore, bstore = abits, bbits
    else:
        typ = {'f16': np.float16, 'f32': np.float32}[dt]
        astore = rng.uniform(-1, 1, (m, k)).astype(typ)
        bstore = rng.uniform(-1, 1, (k, n)).astype(typ)
        a, b = astore.astype(np.float32), bstore.astype(np.float32)
    c = np.zeros((m, n), dtype=np.float32)
    for i in range(0, m, tm):
        for j in range(0, n, tn):
            acc = None
            for kk in range(0, k, tk):
                part = ref.matmul_acc(a[i:i + tm, kk:kk + tk], b[kk:kk + tk, j:j + tn], 'f')
                acc = part if acc is None else ref.acc_add(acc, part, 'f')
            c[i:i + tm, j:j + tn] = acc
    gc.save('a.npy', astore)
    gc.save('b.npy', bstore)
    gc.save('c.npy', c)
    gc.save('c_f64.npy', (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32))
    c_tb = tm * tn * 4
    gc.save_params([m // tm, n // tn, k // tk, tm, tn, tk, k * es, n * es, n * 4,
                    tm * tk * es, tk * tn * es, c_tb, tn, tk * es, tk * n * es, tm * k * es,
                    tn * es, tm * n * 4, tn * 4])


if __name__ == '__main__':
    main()
