#!/usr/bin/env python3
"""Inputs and goldens of the LoadData 2D suite (loaddata.optest), from the
numpy reference tests/optest/lib/linxref.py (seed 003,
shared/docs/tile-semantics.md 2.5).

    gen.py move PATH PATTERN DTYPE [transpose]
    gen.py nz2zz DTYPE M K

move: one LoadData with the named parameters; PATH gm2l0a, gm2l0b,
l12l0a or l12l0b.  nz2zz: tile-semantics.md 2.5's standard use "A (m x k)
from L1 NZ to L0A ZZ", one LoadData per row block; the golden is the ZZ
image of A by the ZZ formula of 2.1 (not a LoadData simulation).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import numpy as np  # noqa: E402

import gencommon as gc  # noqa: E402
import linxref as ref  # noqa: E402

# LoadData element types (v0.4 tile DataType codes, docs/assembler.md)
DT_CODE = {'FP16': 2, 'BF16': 6, 'S8': 19, 'U8': 27, 'S16': 18, 'U16': 26, 'S32': 17,
           'U32': 25, 'FP32': 1}
# name: (startIndex, repeatTimes, srcStride, dstGap, addrMode)
PATTERNS = {
    'seq': (0, 4, 1, 0, 0),
    'strided': (1, 6, 3, 0, 0),
    'gapped': (2, 5, 2, 2, 0),
    'reread': (3, 3, 0, 0, 0),
    'backward': (9, 5, 2, 0, 1),
    'long': (0, 40, 1, 1, 0),
    'none': (0, 0, 1, 0, 0),
}
L1_OFF = 0x2020       # 32-byte aligned, not 512
L0_OFF = 1024         # 512-byte aligned


def move(path, pattern, dtype, transpose):
    rng = gc.rng_for(path, pattern, dtype, transpose)
    start, repeat, stride, gap, mode = PATTERNS[pattern]
    srcs = [start + stride * i if mode == 0 else start - stride * i for i in range(repeat)]
    nsrc = max(srcs + [start]) + 2          # a fractal past the last one read
    ndst = (repeat - 1) * (gap + 1) + 3 if repeat else 2
    src = gc.random_bytes(rng, nsrc * ref.FRACTAL)
    init = gc.random_bytes(rng, ndst * ref.FRACTAL)
    out = init.copy()
    ref.loaddata_2d(src, out, start, repeat, stride, gap, mode, transpose)
    from_l1 = path.startswith('l1')
    gc.save('src.npy', src)
    gc.save('init.npy', init)
    gc.save('out.npy', out.reshape(ndst, ref.FRACTAL))   # mismatches as [slot, byte]
    gc.save_params([int(from_l1), int(path.endswith('l0b')), int(transpose), mode,
                    DT_CODE[dtype], start, repeat, stride, gap, src.size, init.size, L1_OFF,
                    L0_OFF])


def nz2zz(dtype, m, k):
    rng = gc.rng_for('nz2zz', dtype, m, k)
    es = ref.esize(ref.dtype_name(dtype))
    c0 = ref.c0_of(es)
    a = rng.integers(0, 1 << (8 * es), size=(m, k), dtype=np.uint64).astype(ref.BITS[es])
    nz = ref.image(a, 'nz', es)                                   # A as L1 holds it
    zz = a.reshape(m // 16, 16, k // c0, c0).transpose(0, 2, 1, 3).ravel()   # the ZZ form
    gc.save('src.npy', nz.view(np.uint8))
    gc.save('out.npy', zz.reshape(m // 16, k // c0, 16, c0))    # [row block, col block, r, c]
    gc.save_params([m // 16, k // c0, DT_CODE[dtype], nz.nbytes, L1_OFF, L0_OFF])


def main():
    if sys.argv[1] == 'move':
        move(sys.argv[2], sys.argv[3], sys.argv[4], len(sys.argv) > 5)
    else:
        nz2zz(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))


if __name__ == '__main__':
    main()
