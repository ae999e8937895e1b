#!/usr/bin/env python3
"""Inputs and goldens of the TEPL suite (eltwise.optest), from the numpy
reference tests/optest/lib/linxref.py (shared/docs/tile-semantics.md 2.7,
engine_ops.json for TDIV, IEEE for floats).

    gen.py OP DTYPE LAYOUT WINDOW

OP is the assembler's TileOpcode name (TADD, TROWSUM, TMULS, ...), LAYOUT
the TLOAD selector that makes the source tiles (NORM: ND, ND2NZ, ...),
WINDOW full or part.  The golden is the whole result tile: the operation
over the window, zero elsewhere, in the first source's layout.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import numpy as np  # noqa: E402

import gencommon as gc  # noqa: E402
import linxref as ref  # noqa: E402

BINARY = ('tadd', 'tsub', 'tmul', 'tdiv', 'tmax', 'tmin', 'tand', 'tor', 'txor', 'tshl',
          'tshr', 'tprelu')
UNARY = ('trelu', 'texp', 'tlog', 'tsqrt', 'trsqrt', 'trecip')
REDUCE = ('trowsum', 'trowmax', 'trowmin', 'tcolsum', 'tcolmax', 'tcolmin')


def geometry(dt, layout):
    es = ref.esize(dt)
    c0 = ref.c0_of(es)
    tb = 4096 if es >= 2 else 2048
    for col in (32, 64, 16, 128, 8):
        if tb % (col * es):
            continue
        rows = tb // (col * es)
        if layout == 'nz' and (col % c0 or rows % 16):
            continue
        if layout == 'zn' and (rows % c0 or col % 16):
            continue
        return rows, col, tb
    sys.exit('no geometry')


def float_values(rng, dt, op, shape, second):
    """Operands as float64 values exactly representable in @dt."""
    n = int(np.prod(shape))
    if op in ('tlog', 'tsqrt', 'trsqrt'):
        x = rng.uniform(0.01, 100, n)
        x[:3] = (-1.0, 0.0, 1.0)            # NaN, -inf / 0 / inf, exact
    elif op == 'texp':
        x = rng.uniform(-12, 12, n)
    elif op == 'tdiv' and second:
        x = rng.uniform(-10, 10, n)
        x[:2] = (0.0, -0.0)                 # x / 0 = inf, 0 / 0 = NaN
    elif op in ('tmax', 'tmin', 'trelu', 'tprelu'):
        x = rng.uniform(-50, 50, n)
        x[:4] = (0.0, -0.0, -0.0, 0.0) if not second else (-0.0, 0.0, -0.0, 0.0)
    else:
        x = rng.uniform(-100, 100, n)
    if op == 'tdiv' and not second:
        x[1] = 0.0
    x = x.reshape(shape)
    if dt == 'bf16':
        bits = ref.bf16_round_f64(x)
        return bits, ref.bf16_to_f32(bits).astype(np.float64)
    store = ref.round_to(dt, x).astype(ref.DTYPES[dt][2])
    return store, store.astype(np.float64)


def int_values(rng, dt, op, shape, second):
    es = ref.esize(dt)
    nb = 8 * es
    signed = ref.DTYPES[dt][1] == 'i'
    lo, hi = (-(1 << (nb - 1)), 1 << (nb - 1)) if signed else (0, 1 << nb)
    if op in ('tshl', 'tshr') and second:
        v = rng.integers(0, nb + 4, size=shape)     # past the width too
    elif op == 'tdiv' and second:
        v = rng.integers(-9 if signed else 0, 10, size=shape)
        v.flat[:3] = (0, -1 if signed else 0, 0)
    else:
        v = rng.integers(lo, hi, size=shape, dtype=np.int64 if nb < 64 else None)
        if op == 'tdiv' and signed:
            v.flat[1] = lo                           # MIN / -1 = 0
    return v.astype(ref.DTYPES[dt][2]), v


def apply(op, dt, x, y, scalar, vr, vc, rows, cols):
    """The result tile (rows x cols, storage type) per tile-semantics.md 2.7."""
    kind = ref.DTYPES[dt][1]
    store = np.uint16 if dt == 'bf16' else ref.DTYPES[dt][2]
    out = np.zeros((rows, cols), dtype=store)
    xs, ys = x[:vr, :vc], y[:vr, :vc]
    base = op[:-1] if op.endswith('s') and op not in ('tabs',) and op[:-1] in BINARY else op
    if op == 'texpands':
        out[:vr, :vc] = scalar
        return out
    if base in BINARY:
        rhs = ys if base == op else np.full(xs.shape, scalar, dtype=x.dtype)
        if kind == 'f':
            out[:vr, :vc] = ref.float_binary(base, xs, rhs, dt)
        else:
            out[:vr, :vc] = ref.int_binary(base, xs, rhs, dt)
    elif op in UNARY:
        if kind == 'f':
            out[:vr, :vc] = ref.float_unary(op, xs, dt)
        else:   # TRELU of integers: x > 0 ? x : 0
            out[:vr, :vc] = np.where(xs > 0, xs, 0)
    elif op in REDUCE:
        what = op[4:]
        if op.startswith('trow'):
            out[:vr, 0] = ref.reduce_seq(what, xs, dt, axis=1)
        else:
            out[0, :vc] = ref.reduce_seq(what, xs, dt, axis=0)
    elif op == 'trowexpand':
        out[:vr, :vc] = np.repeat(xs[:, :1], vc, axis=1)
    elif op == 'tcolexpand':
        out[:vr, :vc] = np.repeat(xs[:1, :], vr, axis=0)
    else:
        raise ValueError(op)
    return out


def main():
    op, dt_name, sel_name, window = (a.lower() for a in sys.argv[1:5])
    dt = ref.dtype_name(sys.argv[2])
    es = ref.esize(dt)
    sel = sel_name
    gm_layout, layout = ref.SELECTORS[sel]
    rng = gc.rng_for(*sys.argv[1:])
    rows, cols, tb = geometry(dt, layout)
    vr, vc = (rows, cols) if window == 'full' else ((rows * 5) // 7, (cols * 3) // 5)
    base_op = op[:-1] if op.endswith('s') and op[:-1] in BINARY else op
    if ref.DTYPES[dt][1] == 'f':
        xs, x = float_values(rng, dt, base_op, (rows, cols), False)
        ys, y = float_values(rng, dt, base_op, (rows, cols), True)
        scalar_store = ys.ravel()[5]
    else:
        xs, x = int_values(rng, dt, base_op, (rows, cols), False)
        ys, y = int_values(rng, dt, base_op, (rows, cols), True)
        scalar_store = ys.ravel()[5]
    bits = ref.BITS[es]
    scalar_bits = int(np.asarray(scalar_store).view(bits))
    if op == 'ttranspose':
        t = np.zeros((cols, rows), dtype=xs.dtype)     # an ND Col x Row destination
        t[:vc, :vr] = xs[:vr, :vc].T
        img = t.ravel()
    else:
        res = apply(op, dt, xs, ys, scalar_store, vr, vc, rows, cols)
        img = ref.image(res, layout, es)
    # the sources in memory: whole tiles, GM ND (rows x cols) or DN
    gx = np.zeros((rows * cols,), dtype=bits)
    gy = np.zeros((rows * cols,), dtype=bits)
    offs = ref.gm_offsets(sel, rows, cols, 0, (rows if gm_layout == 'dn' else cols) * es, es)
    gxb = gx.view(np.uint8)
    gyb = gy.view(np.uint8)
    ref.gm_write(gxb, offs, np.asarray(xs).view(bits), es)
    ref.gm_write(gyb, offs, np.asarray(ys).view(bits), es)
    lb0, lb1 = (rows, cols) if gm_layout == 'dn' else (cols, rows)
    gc.save('x.npy', gxb)
    gc.save('y.npy', gyb)
    gc.save('out.npy', np.asarray(img).reshape(rows, cols) if layout == 'nd' else img)
    gc.save_params([vc, vr, cols, tb, lb0, lb1, cols, lb0 * es, scalar_bits, tb // es])


if __name__ == '__main__':
    main()
