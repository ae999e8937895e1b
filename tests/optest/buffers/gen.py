#!/usr/bin/env python3
"""Inputs and goldens of the buffer-window suite (buffers.optest): data the
runner places straight into the tile buffers (docs/optest.md "Places")
and reads back from them.  The layouts and engine semantics come from the
device headers' text (hw/linx/buffers-mmad.h after shared/docs/
tile-semantics.md 2.1, buffers-datacopy.h for DataCopyParams bursts); the
products from tests/optest/lib/linxref.py's matmul_acc.

    gen.py mmad DTYPE M N K
    gen.py datacopy BLOCKS BLEN SGAP DGAP
    gen.py scalar
    gen.py zeros BYTES
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import numpy as np  # noqa: E402

import gencommon as gc  # noqa: E402
import linxref as ref  # noqa: E402


def up(v, to):
    return (v + to - 1) // to * to


def mmad(dtype, m, n, k):
    rng = gc.rng_for('mmad', dtype, m, n, k)
    if dtype == 'S8':
        a = rng.integers(-128, 128, size=(m, k), dtype=np.int64).astype(np.int8)
        b = rng.integers(-128, 128, size=(k, n), dtype=np.int64).astype(np.int8)
        c = ref.matmul_acc(a, b, 'i')
        es = 1
    else:  # FP16: small integers and halves, products exact in fp32
        a = (rng.integers(-16, 17, size=(m, k)) / 4).astype(np.float16)
        b = (rng.integers(-16, 17, size=(k, n)) / 2).astype(np.float16)
        c = ref.matmul_acc(a, b, 'f')
        es = 2
    c0 = 32 // es
    mp, np_, kp = up(m, 16), up(n, 16), up(k, c0)
    # A in L0A, ZZ (A2/A3): (r/16) Kp 16 + (c/c0) 16 c0 + (r%16) c0 + c%c0
    la = np.zeros(mp * kp, dtype=a.dtype)
    # B in L0B, ZN: (r/c0) Np c0 + c c0 + r%c0
    lb = np.zeros(kp * np_, dtype=b.dtype)
    # C in L0C, NZ of 16 x 16 fractals: (c/16) Mp 16 + r 16 + c%16
    lc = np.zeros(np_ * mp, dtype=c.dtype)
    for r in range(m):
        for cc in range(k):
            la[(r // 16) * kp * 16 + (cc // c0) * 16 * c0 + (r % 16) * c0 + cc % c0] = a[r, cc]
    for r in range(k):
        for cc in range(n):
            lb[(r // c0) * np_ * c0 + cc * c0 + r % c0] = b[r, cc]
    for r in range(m):
        for cc in range(n):
            lc[(cc // 16) * mp * 16 + r * 16 + cc % 16] = c[r, cc]
    gc.save('a.npy', la)
    gc.save('b.npy', lb)
    gc.save('c.npy', lc.reshape(np_ // 16, mp, 16))   # mismatches as [col block, row, col]


def datacopy(blocks, blen, sgap, dgap):
    rng = gc.rng_for('datacopy', blocks, blen, sgap, dgap)
    src = gc.random_bytes(rng, 2048)
    out = np.zeros(((blocks - 1) * (blen + dgap) + blen) * 32, dtype=np.uint8)
    for i in range(blocks):
        s, d = i * (blen + sgap) * 32, i * (blen + dgap) * 32
        out[d:d + blen * 32] = src[s:s + blen * 32]
    gc.save('src.npy', src)
    gc.save('l1.npy', out)


def scalar():
    rng = gc.rng_for('scalar')
    v = rng.integers(-2**31, 2**31, size=16, dtype=np.int64)
    gc.save('ub.npy', v.astype(np.int32))
    gc.save('sum.npy', np.array([v.sum()], dtype=np.int64))
    gc.save('twice.npy', ((v * 2) & 0xFFFFFFFF).astype(np.uint32).view(np.int32))


def zeros(nbytes):
    gc.save('zeros.npy', np.zeros(nbytes, dtype=np.uint8))


def main():
    what, args = sys.argv[1], sys.argv[2:]
    if what == 'mmad':
        mmad(args[0], *(int(x) for x in args[1:4]))
    elif what == 'datacopy':
        datacopy(*(int(x) for x in args[:4]))
    elif what == 'scalar':
        scalar()
    else:
        zeros(int(args[0]))


if __name__ == '__main__':
    main()
