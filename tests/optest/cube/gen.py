#!/usr/bin/env python3
"""Inputs and goldens of the CUBE suite (cube.optest): C = A x B over k
tiles (TMATMUL, TMATMUL.ACC), converted by ACCCVT (none or scalar
quantisation) and stored as the m x n window or as the whole NZ tile.
The golden follows tests/optest/lib/linxref.py (tile-semantics.md 2.6:
products in fp32 summed in k order, each k tile's sum added to the ACC;
2.2: the conversions and QF322B8_PRE / REQ8 with ties to even).

    gen.py DTYPE OUT QUANT STORE MxNxK KTILE [SCALE OFFSET [ints]]

DTYPE FP16 BF16 FP32 S8 (inputs), OUT the ACCCVT type, QUANT NORM (none)
or ND2NZ (format 1: scalar), STORE ND2NZ (the window, NZ -> ND) or NORM
(the NZ tile flat).  "ints" makes float inputs small integers, so the
quantised products hit exact ties.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import numpy as np  # noqa: E402

import gencommon as gc  # noqa: E402
import linxref as ref  # noqa: E402

TILE_SIZES = (512, 1024, 2048, 4096)


def round_up(x, m):
    return -(-x // m) * m


def operand_tile(valid_rows, valid_cols, es, col_mult, row_mult):
    """(tile bytes, tile columns) of the smallest tile holding a valid_rows x
    valid_cols window with Col % col_mult = 0 and Row % row_mult = 0
    (NZ: c0 and 16, ZN: 16 and c0; tile-semantics.md 2.3)."""
    for tb in TILE_SIZES:
        col = round_up(valid_cols, col_mult)
        while col * es <= tb:
            if tb % (col * es) == 0:
                rows = tb // (col * es)
                if rows % row_mult == 0 and rows >= valid_rows:
                    return tb, col
            col += col_mult
    sys.exit('no operand tile for %d x %d' % (valid_rows, valid_cols))


def values(rng, dt, shape, ints):
    """Random inputs as (storage array, float64 or int64 values)."""
    if dt == 'i8':
        v = rng.integers(-128, 128, size=shape)
        return v.astype(np.int8), v
    if ints:
        x = rng.integers(-4, 5, size=shape).astype(np.float64)
    else:
        x = rng.uniform(-2, 2, size=shape)
    if dt == 'bf16':
        bits = ref.bf16_round_f64(x)
        return bits, ref.bf16_to_f32(bits).astype(np.float64)
    store = x.astype({'f16': np.float16, 'f32': np.float32}[dt])
    return store, store.astype(np.float64)


def main():
    dt_in, out_name, quant, store = (sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4])
    m, n, k = (int(v) for v in sys.argv[5].split('x'))
    kt = int(sys.argv[6])
    scale = float(sys.argv[7]) if len(sys.argv) > 7 else 1.0
    offset = int(sys.argv[8]) if len(sys.argv) > 8 else 0
    ints = len(sys.argv) > 9
    dt = ref.dtype_name(dt_in)
    out = ref.dtype_name(out_name)
    es, oes = ref.esize(dt), ref.esize(out)
    c0 = ref.c0_of(es)
    kind = 'i' if dt == 'i8' else 'f'
    assert k % kt == 0 and m * n <= 4096
    rng = gc.rng_for(*sys.argv[1:])
    a_store, a = values(rng, dt, (m, k), ints)
    b_store, b = values(rng, dt, (k, n), ints)

    acc = None
    for t in range(k // kt):
        part = ref.matmul_acc(a[:, t * kt:(t + 1) * kt], b[t * kt:(t + 1) * kt, :], kind)
        acc = part if acc is None else ref.acc_add(acc, part, kind)

    word = int(np.float32(scale).view(np.uint32)) | ((offset & 0x1FF) << 37)
    if quant == 'NORM':
        c = ref.acccvt_none(acc, out)
    elif out in ('i8', 'u8'):
        c = ref.quant_b8(acc.astype(np.float32), word, out)   # QF322B8_PRE / REQ8
    elif out == 'f16' and kind == 'i':
        # DEQF16: x * scale to half; the cases use values and scales for
        # which every rounding order gives the same half
        c = (acc.astype(np.float32) * ref.quant_scale(word)).astype(np.float16)
    else:
        sys.exit('no scalar quantisation to ' + out)

    a_tb, a_col = operand_tile(m, kt, es, c0, 16)           # A: NZ
    b_tb, b_col = operand_tile(kt, n, es, 16, c0)           # B: ZN
    oc0 = ref.c0_of(oes)
    r16, cc = round_up(m, 16), round_up(n, oc0)
    if store == 'NORM':
        out_tb = r16 * cc * oes
        assert out_tb in TILE_SIZES, (m, n, out)
        lbs = (out_tb // oes, 1, out_tb // oes, out_tb)
        golden = ref.acccvt_tile(c, m, n, oes).reshape(cc // oc0, r16, oc0)
    else:
        out_tb = next(tb for tb in TILE_SIZES if tb >= r16 * cc * oes and tb % (r16 * oes) == 0
                      and (tb // (r16 * oes)) % oc0 == 0)
        lbs = (n, m, out_tb // (r16 * oes), n * oes)
        golden = c
    gc.save('a.npy', a_store)
    gc.save('b.npy', b_store)
    gc.save('c.npy', golden)
    gc.save_params([m, n, kt, k // kt, k * es, n * es, a_tb, b_tb, a_col, b_col, out_tb, word]
                   + list(lbs) + [kt * es, kt * n * es])


if __name__ == '__main__':
    main()
