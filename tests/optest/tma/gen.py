#!/usr/bin/env python3
"""Inputs and goldens of the TMA suite (tests/optest/tma/tma.optest):
TLOAD and TSTORE through every layout selector and element type, partial
windows with unaligned strides, the pad policies, multi-input stores and
Null-pad round trips.  The golden follows tests/optest/lib/linxref.py
(tile-semantics.md 2.1-2.4, seed 000); the emulator is never consulted.

    gen.py tload DTYPE SELECTOR WINDOW PAD
    gen.py tstore DTYPE SELECTOR WINDOW NSRC
    gen.py roundtrip DTYPE SELECTOR WINDOW

DTYPE and SELECTOR are the assembler's names (FP16, ND2NZ, ...), WINDOW
full (the whole tile, dense rows) or part (a window with odd sides, an
unaligned base and stride).  Writes params.npy (what the program reads),
the inputs and the golden into the working directory.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import numpy as np  # noqa: E402

import gencommon as gc  # noqa: E402
import linxref as ref  # noqa: E402

# tile column counts tried, in an order that varies with the case
COLS = (32, 16, 64, 8, 128, 48, 24, 256, 4, 512, 1024, 2048, 4096, 2, 1)


def geometry(dt, sel, window, nsrc, rng):
    """A legal (Row, Col, tile bytes) for the selector's layout rules
    (tile-semantics.md 2.3: NZ Col % c0 = 0 and Row % 16 = 0, ZN Row % c0 = 0
    and Col % 16 = 0, on each sub-tile of a merge) and the window."""
    es = ref.esize(dt)
    c0 = ref.c0_of(es)
    gm, layout = ref.SELECTORS[sel]
    tb = {1: 4096 if window == 'full' else 2048, 8: 512}.get(nsrc, 1024)
    order = list(COLS)
    k = int(rng.integers(0, 4))
    order = order[k:] + order[:k]
    for col in order:
        total = nsrc * tb
        if total % (col * es):
            continue
        rows = total // (col * es)
        if gm == 'nd':
            if col % nsrc:
                continue
            sr, sc = rows, col // nsrc
        else:
            if rows % nsrc:
                continue
            sr, sc = rows // nsrc, col
        if sr * sc * es != tb:
            continue
        if layout == 'nz' and (sc % c0 or sr % 16):
            continue
        if layout == 'zn' and (sr % c0 or sc % 16):
            continue
        if nsrc > 1 and min(sr, sc) < 2:
            continue
        return rows, col, tb
    sys.exit('no legal geometry for %s %s %s x%d' % (dt, sel, window, nsrc))


def window_of(rows, cols, window):
    if window == 'full':
        return rows, cols
    return max(1, (rows * 5) // 7), max(1, (cols * 3) // 5)


def lbs(sel, vr, vc, col):
    """LB0 = the GM inner count (columns of ND, rows of DN), LB1 the outer."""
    if ref.SELECTORS[sel][0] == 'dn':
        return vr, vc, col
    return vc, vr, col


def gm_lines(sel, vr, vc, es, window, extra):
    """(lines, inner bytes, stride) of the GM window."""
    inner_n, outer = (vr, vc) if ref.SELECTORS[sel][0] == 'dn' else (vc, vr)
    inner = inner_n * es
    stride = inner if window == 'full' else inner + extra
    return outer, inner, stride


def main():
    kind, dt_name, sel_name, window = sys.argv[1:5]
    dt = ref.dtype_name(dt_name)
    sel = sel_name.lower()
    es = ref.esize(dt)
    rng = gc.rng_for(*sys.argv[1:])
    nsrc = int(sys.argv[5]) if kind == 'tstore' else 1
    rows, col, tb = geometry(dt, sel, window, nsrc, rng)
    vr, vc = window_of(rows, col, window)
    lb0, lb1, lb2 = lbs(sel, vr, vc, col)
    base = 0 if window == 'full' else 3
    lines, inner, stride = gm_lines(sel, vr, vc, es, window, 5)
    # the GM image: a 2-D (lines + 1) x stride array of bytes, so a
    # mismatch is named [line, byte]
    gsize = (lines + 1) * stride
    if kind == 'tload':
        pad = sys.argv[5].lower()
        gm = gc.random_bytes(rng, gsize)
        tile = ref.tload(gm, base, stride, sel, dt, lb0, lb1, lb2, tb, pad)
        gc.save('gm.npy', gm)
        # shaped as the layout's numpy form, so a mismatch is named by
        # [row, col] (ND), [column block, row, c] (NZ), [row block, col, r] (ZN)
        c0 = ref.c0_of(es)
        shape = {'nd': (rows, col), 'nz': (col // c0, rows, c0),
                 'zn': (rows // c0, col, c0)}[ref.SELECTORS[sel][1]]
        gc.save('tile.npy', tile.reshape(shape))
        gc.save_params([lb0, lb1, lb2, stride, tb, tb // es, base])
    elif kind == 'tstore':
        img = gc.random_bytes(rng, nsrc * tb)
        gm = gc.random_bytes(rng, gsize)
        tiles = [img[k * tb:(k + 1) * tb].view(ref.BITS[es]) for k in range(nsrc)]
        want = gm.copy()
        ref.tstore(want, base, stride, sel, dt, lb0, lb1, lb2, tiles, tb)
        gc.save('img.npy', img)
        gc.save('gm.npy', gm)
        gc.save('gm_after.npy', want.reshape(lines + 1, stride))
        gc.save_params([lb0, lb1, lb2, stride, tb, tb // es, base, nsrc])
    elif kind == 'roundtrip':
        src = gc.random_bytes(rng, gsize)
        # the store goes to another pitch: 2 elements more per line
        sstride = inner + 2 * es
        dsize = (lines + 1) * sstride
        dst = gc.random_bytes(rng, dsize)
        win = ref.gm_read(src, ref.gm_offsets(sel, vr, vc, base, stride, es), es)
        want = dst.copy()
        ref.gm_write(want, ref.gm_offsets(sel, vr, vc, 0, sstride, es), win, es)
        gc.save('gm.npy', src)
        gc.save('dst.npy', dst)
        gc.save('dst_after.npy', want.reshape(lines + 1, sstride))
        gc.save_params([lb0, lb1, lb2, stride, tb, sstride, base])
    else:
        sys.exit('unknown kind ' + kind)


if __name__ == '__main__':
    main()
