"""Reference semantics of the operators the suites in tests/optest check,
in numpy, written from the specification text - never from linxemu's
output or code.  Each function names the text it follows:

  TS   ../shared/docs/tile-semantics.md (the seeds and the v0.4 manual as
       testable facts): 2.1 layouts, 2.3 TSTORE, 2.4 TLOAD, 2.5 LoadData
       2D, 2.6 matmul, 2.2 ACC conversion and quantisation, 2.7 TEPL
  DEC  ../shared/docs/decisions.md (conflicts settled: 3 B.IOR order, 4
       fractal layouts, 5 multi-input TSTORE, 6 cube operands, 7 IEEE)
  DG   ../shared/docs/linxisa-digest.md 4.1 (TEPL opcodes), 4.2 (TLOAD /
       TSTORE), scalar DIV rules
  EO   ../shared/isa/v0.4/state/engine_ops.json (TDIV: x/0 and MIN/-1 give 0)
  S000 seed 000 (TSTORE, multi-input merge), S003 seed 003 (LoadData 2D)

Where the text leaves a choice open, the choice docs/tile.md or
docs/kernels.md records is named (LX: ...), so a test never depends on an
unwritten convention.  Values are numpy arrays; bit-exact data movement
works on unsigned integer images of the element size.
"""
import math
import struct

import numpy as np

# ---------------------------------------------------------------------------
# Element types (TS 2.1: esize, c0 = 32 / esize)

# name: (size in bytes, kind, numpy type or None, assembler DataType)
DTYPES = {
    'f64': (8, 'f', np.float64, 'FP64'),
    'f32': (4, 'f', np.float32, 'FP32'),
    'f16': (2, 'f', np.float16, 'FP16'),
    'bf16': (2, 'f', None, 'BF16'),
    'e4m3': (1, 'f', None, 'E4M3'),
    'i64': (8, 'i', np.int64, 'S64'),
    'i32': (4, 'i', np.int32, 'S32'),
    'i16': (2, 'i', np.int16, 'S16'),
    'i8': (1, 'i', np.int8, 'S8'),
    'u64': (8, 'u', np.uint64, 'U64'),
    'u32': (4, 'u', np.uint32, 'U32'),
    'u16': (2, 'u', np.uint16, 'U16'),
    'u8': (1, 'u', np.uint8, 'U8'),
}
BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
# the assembler's DataType names (digest 4.1) -> the names above
ASM_DTYPES = {v[3]: k for k, v in DTYPES.items()}


def dtype_name(name):
    """'FP16' or 'f16' -> 'f16'."""
    return ASM_DTYPES.get(name, name)


def esize(dt):
    return DTYPES[dt][0]


def c0_of(es):
    """Elements per 32-byte block (TS 2.1)."""
    return 32 // es


def bits_type(dt):
    return BITS[esize(dt)]


# TLOAD pad values as bit patterns (TS 2.4: Zero 0; Max +inf for floats,
# the type maximum for integers; Min -inf / the type minimum.  E4M3 has no
# infinity: its largest finite value 448 = 0x7e (OCP FP8 E4M3), LX docs/tile.md).
_FMAX = {'f64': 0x7FF0000000000000, 'f32': 0x7F800000, 'f16': 0x7C00, 'bf16': 0x7F80,
         'e4m3': 0x7E}


def pad_bits(dt, pad):
    es, kind = DTYPES[dt][0], DTYPES[dt][1]
    nbits = 8 * es
    if pad in ('zero', 'null'):
        return 0
    if kind == 'f':
        v = _FMAX[dt]
        return v if pad == 'max' else v | (1 << (nbits - 1))
    if kind == 'i':
        return (1 << (nbits - 1)) - 1 if pad == 'max' else 1 << (nbits - 1)
    return (1 << nbits) - 1 if pad == 'max' else 0


# ---------------------------------------------------------------------------
# Tile layouts (TS 2.1 table, "numpy form of the linear tile image"; DEC 4)

def image(t, layout, es):
    """The linear image of the logical Rows x Cols tile matrix @t."""
    rows, cols = t.shape
    c0 = c0_of(es)
    if layout == 'nd':
        return t.ravel().copy()
    if layout == 'dn':
        return t.T.ravel().copy()
    if layout == 'nz':      # reshape (Rows, Cols/c0, c0), move axis 1 first
        assert cols % c0 == 0 and rows % 16 == 0, (rows, cols, c0)
        return t.reshape(rows, cols // c0, c0).transpose(1, 0, 2).ravel().copy()
    if layout == 'zn':      # reshape (Rows/c0, c0, Cols), swap the last two axes
        assert rows % c0 == 0 and cols % 16 == 0, (rows, cols, c0)
        return t.reshape(rows // c0, c0, cols).transpose(0, 2, 1).ravel().copy()
    raise ValueError(layout)


def unimage(img, layout, rows, cols, es):
    """The logical Rows x Cols matrix of the linear image @img (inverse of image)."""
    c0 = c0_of(es)
    img = np.asarray(img)[:rows * cols]
    if layout == 'nd':
        return img.reshape(rows, cols).copy()
    if layout == 'dn':
        return img.reshape(cols, rows).T.copy()
    if layout == 'nz':
        return img.reshape(cols // c0, rows, c0).transpose(1, 0, 2).reshape(rows, cols).copy()
    if layout == 'zn':
        return img.reshape(rows // c0, cols, c0).transpose(0, 2, 1).reshape(rows, cols).copy()
    raise ValueError(layout)


# (GM layout, tile layout) of the five selectors (TS 2.3/2.4, DG 4.2; the
# store spellings NZ2ND, ZN2ND, NZ2DN, ZN2DN name the same pairs, DEC 4)
SELECTORS = {
    'norm': ('nd', 'nd'),
    'nd2nz': ('nd', 'nz'),
    'nd2zn': ('nd', 'zn'),
    'dn2nz': ('dn', 'nz'),
    'dn2zn': ('dn', 'zn'),
}


def tma_window(sel, lb0, lb1):
    """(ValidRow, ValidCol): ND GM: LB0 = columns (inner), LB1 = rows; DN GM:
    LB0 = rows (inner), LB1 = columns (DG 4.2: LB0 = GM inner count).  LB1 = 0
    counts as 1 (LX docs/tile.md: value-based defaults, seed 000 ValidRow 1)."""
    outer = lb1 if lb1 else 1
    return (lb0, outer) if SELECTORS[sel][0] == 'dn' else (outer, lb0)


def gm_offsets(sel, vr, vc, base, stride, es):
    """Byte offsets of GM(i, j) for the window: ND base + i*stride + j*es,
    DN base + j*stride + i*es (TS 2.3)."""
    i = np.arange(vr).reshape(vr, 1)
    j = np.arange(vc).reshape(1, vc)
    if SELECTORS[sel][0] == 'dn':
        return base + j * stride + i * es
    return base + i * stride + j * es


def gm_read(gm, offs, es):
    """Elements (unsigned images) at byte offsets @offs of the byte array @gm."""
    b = np.stack([gm[offs + k] for k in range(es)], axis=-1).astype(np.uint64)
    v = np.zeros(offs.shape, dtype=np.uint64)
    for k in range(es):
        v |= b[..., k] << np.uint64(8 * k)
    return v.astype(BITS[es])


def gm_write(gm, offs, vals, es):
    v = vals.astype(np.uint64)
    for k in range(es):
        gm[offs + k] = ((v >> np.uint64(8 * k)) & np.uint64(0xff)).astype(np.uint8)


def tile_shape(lb0, lb2, tile_bytes, es, n=1):
    """(Row, Col): Col = LB2 (0 means LB0), Row = n x TileBytes / (Col x esize)
    (DG 4.2: TR_outer = TileBytes / esz / LB2; S000 multi-input)."""
    col = lb2 if lb2 else lb0
    return (n * tile_bytes) // (col * es), col


def tload(gm, base, stride, sel, dt, lb0, lb1, lb2, tile_bytes, pad):
    """TLOAD: the tile image (unsigned, TileBytes / esize elements).
    tile(i, j) = GM(i, j) over the ValidRow x ValidCol window, every other
    cell of the Row x Col logical matrix the pad value (TS 2.4).  Stride 0
    means contiguous: ValidCol x esize for ND, ValidRow x esize for DN
    (DEC 3)."""
    es = esize(dt)
    vr, vc = tma_window(sel, lb0, lb1)
    if stride == 0:
        stride = lb0 * es
    rows, cols = tile_shape(lb0, lb2, tile_bytes, es)
    assert vr <= rows and vc <= cols and rows * cols * es == tile_bytes
    t = np.full((rows, cols), pad_bits(dt, pad), dtype=BITS[es])
    t[:vr, :vc] = gm_read(gm, gm_offsets(sel, vr, vc, base, stride, es), es)
    return image(t, SELECTORS[sel][1], es)


def tstore(gm, base, stride, sel, dt, lb0, lb1, lb2, tiles, tile_bytes):
    """TSTORE of the source tile images @tiles (operand order) into the byte
    array @gm (changed in place): GM(i, j) = M(i, j) over the window only
    (TS 2.3).  n > 1 sources are merged (S000, DEC 5): along columns for ND
    GM (sub-tile t holds columns [t*Col/n, (t+1)*Col/n)), along rows for DN
    GM; each sub-tile is a tile of its own in the selector's layout (LX
    docs/tile.md "Semantics")."""
    es = esize(dt)
    n = len(tiles)
    vr, vc = tma_window(sel, lb0, lb1)
    if stride == 0:
        stride = lb0 * es
    rows, cols = tile_shape(lb0, lb2, tile_bytes, es, n)
    gm_dn, layout = SELECTORS[sel]
    m = np.zeros((rows, cols), dtype=BITS[es])
    for t, img in enumerate(tiles):
        if gm_dn == 'dn':
            r = rows // n
            m[t * r:(t + 1) * r, :] = unimage(img, layout, r, cols, es)
        else:
            c = cols // n
            m[:, t * c:(t + 1) * c] = unimage(img, layout, rows, c, es)
    assert vr <= rows and vc <= cols
    gm_write(gm, gm_offsets(sel, vr, vc, base, stride, es), m[:vr, :vc], es)


# ---------------------------------------------------------------------------
# LoadData 2D (S003, TS 2.5)

FRACTAL = 512


def loaddata_2d(src, dst, start, repeat, src_stride, dst_gap, addr_mode, transpose):
    """Copy fractals from the byte array @src into @dst (in place): repeat i
    moves source fractal s_i = start +/- src_stride * i (addrMode 0/1) to
    destination slot d_i = i * (dst_gap + 1); ifTranspose (b16) transposes
    each 16 x 16 fractal, dst(a, b) = src(b, a)."""
    for i in range(repeat):
        s = start + src_stride * i if addr_mode == 0 else start - src_stride * i
        d = i * (dst_gap + 1)
        frac = src[FRACTAL * s:FRACTAL * (s + 1)].copy()
        if transpose:
            frac = frac.view(np.uint16).reshape(16, 16).T.copy().view(np.uint8).ravel()
        dst[FRACTAL * d:FRACTAL * (d + 1)] = frac


# ---------------------------------------------------------------------------
# Floating point helpers (DEC 7: IEEE, round to nearest even)

def f32(x):
    return np.float32(x)


def bf16_bits_from_f32(x):
    """Round float32 values to bfloat16 (nearest even); NaN stays NaN."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    rounded = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    out = np.where(nan, (b >> 16) | 0x40, rounded)
    return out.astype(np.uint16)


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32)


def round_to(dt, x64):
    """Float64 values rounded once to @dt's format (as a value array of
    numpy type, bf16 as float32 values)."""
    if dt == 'f64':
        return np.asarray(x64, dtype=np.float64)
    if dt == 'f32':
        return np.asarray(x64, dtype=np.float64).astype(np.float32)
    if dt == 'f16':
        return np.asarray(x64, dtype=np.float64).astype(np.float16)
    if dt == 'bf16':
        # double -> bf16 in one rounding: through float32 would round twice;
        # go through the exact binary expansion instead
        return bf16_to_f32(bf16_round_f64(np.asarray(x64, dtype=np.float64)))
    raise ValueError(dt)


def bf16_round_f64(x):
    """float64 -> bfloat16 bits, one rounding to nearest even."""
    out = np.zeros(x.shape, dtype=np.uint16)
    for idx, v in np.ndenumerate(x):
        out[idx] = _bf16_one(float(v))
    return out


def _bf16_one(v):
    if math.isnan(v):
        return 0x7FC0
    sign = 0x8000 if math.copysign(1.0, v) < 0 else 0
    a = abs(v)
    if a == 0:
        return sign
    if math.isinf(a):
        return sign | 0x7F80
    m, e = math.frexp(a)            # a = m * 2^e, 0.5 <= m < 1
    # bf16: 8 significant bits; normal exponent range of float32
    if e - 1 < -126:                # subnormal: fixed quantum 2^-133
        q = a / 2.0 ** -133
    else:
        q = m * 2.0 ** 8            # 8 significant bits
    r = math.floor(q)
    frac = q - r
    if frac > 0.5 or (frac == 0.5 and r % 2 == 1):
        r += 1
    val = r * (2.0 ** -133 if e - 1 < -126 else 2.0 ** (e - 8))
    if val >= 2.0 ** 128:
        return sign | 0x7F80
    return sign | (struct.unpack('<I', struct.pack('<f', val))[0] >> 16)


# ---------------------------------------------------------------------------
# CUBE (TS 2.6, DEC 6) and ACCCVT (TS 2.2)

def matmul_acc(a, b, kind):
    """ACC contribution of one TMATMUL: C(i, j) = sum over k of A(i, k) B(k, j).
    kind 'f': each product rounded to fp32, summed in k order from +0 in fp32
    (TS 2.6: "the CPU simulator accumulates in k order"; fp16/bf16 products
    are exact in fp32); kind 'i': exact int32, wrapping."""
    m, k = a.shape
    n = b.shape[1]
    if kind == 'i':
        s = a.astype(np.int64) @ b.astype(np.int64)
        return (s & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
    af = a.astype(np.float32)
    bf = b.astype(np.float32)
    s = np.zeros((m, n), dtype=np.float32)
    for kk in range(k):
        s = (s + (af[:, kk:kk + 1] * bf[kk:kk + 1, :]).astype(np.float32)).astype(np.float32)
    return s


def acc_add(acc, part, kind):
    """TMATMUL.ACC: old ACC + the new sum (TS 2.6: out = acc_in + product)."""
    if kind == 'i':
        return ((acc.astype(np.int64) + part.astype(np.int64)) & 0xFFFFFFFF).astype(
            np.uint32).view(np.int32)
    return (acc + part).astype(np.float32)


def quant_scale(word):
    """The fp32 scale of a quant word: bits 31:13 (TS 2.2, "effectively an fp19")."""
    return np.uint32(word & 0xFFFFE000).view(np.float32)


def quant_offset(word):
    """Bits 45:37: the 9-bit zero point, unsigned 0..511 (pto-isa
    tests/npu/a2a3/src/st/testcase/tstore_acc2gm/gen_data.py,
    extract_quant_params: (quant_gm >> 37) & 0x1FF; LX docs/tile.md)."""
    return (word >> 37) & 0x1FF


def quant_b8(x, word, out):
    """QF322B8_PRE / REQ8 (TS 2.2): t = clip(round(x * scale), -256, 255) with
    round half to even on the fp32 product, t += offset, clip to the output
    type's range."""
    prod = (np.asarray(x, dtype=np.float32) * quant_scale(word)).astype(np.float32)
    t = np.clip(np.rint(prod.astype(np.float64)), -256, 255) + quant_offset(word)
    lo, hi = (-128, 127) if out == 'i8' else (0, 255)
    return np.clip(t, lo, hi).astype(np.int8 if out == 'i8' else np.uint8)


def acccvt_none(acc, out):
    """ACCCVT without quantisation (TS 2.2 table): fp32 ACC -> f32/f16/bf16
    (round to nearest even), int32 ACC -> int32.  Values as the output
    type's storage (bf16 as uint16 bits)."""
    if out == 'f32':
        return acc.astype(np.float32)
    if out == 'f16':
        return acc.astype(np.float16)
    if out == 'bf16':
        return bf16_bits_from_f32(acc)
    if out == 'i32':
        return acc.astype(np.int32)
    raise ValueError(out)


def acccvt_tile(vals, m, n, out_es):
    """ACCCVT's destination: an NZ tile (c0 = 32 / output size) of
    round_up(m, 16) x round_up(n, c0), zero outside m x n (DEC 6: ACC/L0C is
    NZ; LX docs/tile.md "Cube")."""
    c0 = c0_of(out_es)
    rows = -(-m // 16) * 16
    cols = -(-n // c0) * c0
    t = np.zeros((rows, cols), dtype=vals.dtype)
    t[:m, :n] = vals
    return image(t, 'nz', out_es)


# ---------------------------------------------------------------------------
# TEPL element-wise operations (TS 2.7, DG 4.1, EO; LX docs/kernels.md "TEPL")

def _int_info(dt):
    nb = 8 * esize(dt)
    return nb, DTYPES[dt][1] == 'i'


def _wrap(v, dt):
    nb, signed = _int_info(dt)
    v = np.asarray(v, dtype=object)
    mask = (1 << nb) - 1
    r = np.vectorize(lambda x: ((int(x) & mask) - (1 << nb)) if signed and (int(x) & mask) >> (nb - 1)
                     else (int(x) & mask), otypes=[object])(v)
    return r.astype(DTYPES[dt][2])


def int_binary(op, a, b, dt):
    """Integer TEPL ops: results wrap in the element type (TS 2.7).  TDIV
    truncates toward zero (the scalar DIV rule, DG) and gives 0 for x / 0 and
    MIN / -1 (EO div_by_zero_result, div_overflow_result).  Shifts take the
    amount as the element's unsigned value; by the width or more they give 0,
    TSHR of a signed type fills with the sign (LX docs/kernels.md)."""
    nb, signed = _int_info(dt)
    A = [int(x) for x in np.asarray(a).ravel()]
    B = [int(x) for x in np.asarray(b).ravel()]
    umask = (1 << nb) - 1
    out = []
    for x, y in zip(A, B):
        if op == 'tadd':
            r = x + y
        elif op == 'tsub':
            r = x - y
        elif op == 'tmul':
            r = x * y
        elif op == 'tdiv':
            if y == 0 or (signed and y == -1 and x == -(1 << (nb - 1))):
                r = 0
            else:
                q = abs(x) // abs(y)
                r = q if (x >= 0) == (y >= 0) else -q
        elif op == 'tmax':
            r = max(x, y)
        elif op == 'tmin':
            r = min(x, y)
        elif op == 'tand':
            r = x & y
        elif op == 'tor':
            r = x | y
        elif op == 'txor':
            r = x ^ y
        elif op in ('tshl', 'tshr'):
            amount = y & umask
            if op == 'tshl':
                r = 0 if amount >= nb else x << amount
            elif amount >= nb:
                r = -1 if (signed and x < 0) else 0
            else:
                r = x >> amount   # Python's >> on a signed int is arithmetic
        elif op == 'tprelu':
            r = x if x > 0 else x * y
        else:
            raise ValueError(op)
        out.append(r)
    return _wrap(np.array(out, dtype=object).reshape(np.asarray(a).shape), dt)


def _fvals(x, dt):
    """Values of a float tile as float64 (bf16 given as uint16 bits)."""
    if dt == 'bf16':
        return bf16_to_f32(x).astype(np.float64)
    return np.asarray(x).astype(np.float64)


def _fstore(v64, dt):
    """Exact float64 results of one operation rounded to @dt, in storage form."""
    if dt == 'bf16':
        return bf16_round_f64(np.asarray(v64, dtype=np.float64))
    return round_to(dt, v64).astype(DTYPES[dt][2])


def _max_number(a, b, is_max):
    """maximumNumber / minimumNumber (IEEE 754-2019): a NaN operand loses to a
    number; -0 < +0."""
    out = np.empty_like(a)
    for idx in np.ndindex(a.shape):
        x, y = a[idx], b[idx]
        if math.isnan(x):
            out[idx] = y
        elif math.isnan(y):
            out[idx] = x
        elif x == y == 0:
            neg_x = math.copysign(1, x) < 0
            neg_y = math.copysign(1, y) < 0
            if is_max:
                out[idx] = x if not neg_x else y
            else:
                out[idx] = x if neg_x else y
        else:
            out[idx] = max(x, y) if is_max else min(x, y)
    return out


def float_binary(op, a, b, dt):
    """Float TEPL ops: IEEE, one rounding to the element type (TS 2.7, DEC 7).
    The sums, differences, products and quotients of two floats of these
    formats are exact in float64 for f16/bf16/f32 up to the final rounding
    (products: 2p <= 53 bits; sums/quotients: correctly rounded double then
    the narrow rounding is innocuous, 53 >= 2p + 2).  f64 uses numpy's own
    IEEE float64 arithmetic."""
    if dt == 'f64':
        x, y = np.asarray(a, np.float64), np.asarray(b, np.float64)
        with np.errstate(all='ignore'):
            r = {'tadd': x + y, 'tsub': x - y, 'tmul': x * y, 'tdiv': x / y}.get(op)
        if r is None:
            if op in ('tmax', 'tmin'):
                r = _max_number(x, y, op == 'tmax')
            elif op == 'tprelu':
                r = np.where(x > 0, x, x * y)
        return r
    x, y = _fvals(a, dt), _fvals(b, dt)
    with np.errstate(all='ignore'):
        if op == 'tadd':
            r = x + y
        elif op == 'tsub':
            r = x - y
        elif op == 'tmul':
            r = x * y
        elif op == 'tdiv':
            r = x / y
        elif op in ('tmax', 'tmin'):
            r = _max_number(x, y, op == 'tmax')
        elif op == 'tprelu':
            # x > 0 ? x : x * alpha, the product rounded once
            r = np.where(x > 0, x, x * y)
        else:
            raise ValueError(op)
    return _fstore(r, dt)


def float_unary(op, a, dt):
    """TRELU x > 0 ? x : +0; TEXP, TLOG, TSQRT, TRSQRT, TRECIP correctly rounded
    (computed in float64 and rounded once: LX docs/kernels.md TEPL numbers)."""
    x = _fvals(a, dt)
    with np.errstate(all='ignore'):
        if op == 'trelu':
            r = np.where(x > 0, x, 0.0)
        elif op == 'texp':
            r = np.exp(x)
        elif op == 'tlog':
            r = np.log(x)
        elif op == 'tsqrt':
            r = np.sqrt(x)
        elif op == 'trsqrt':
            r = 1.0 / np.sqrt(x)
        elif op == 'trecip':
            r = 1.0 / x
        else:
            raise ValueError(op)
    return _fstore(r, dt)


def reduce_seq(op, vals, dt, axis):
    """TROW*/TCOL*: accumulate in index order in the element type (LX
    docs/kernels.md): one rounding per step for floats, wrapping for ints."""
    vals = np.asarray(vals)
    if axis == 1:
        vals = vals.T
    acc = vals[0].copy()
    for k in range(1, vals.shape[0]):
        v = vals[k]
        if op == 'sum':
            if DTYPES[dt][1] == 'f':
                acc = _fstore(_fvals(acc, dt) + _fvals(v, dt), dt) if dt != 'f64' else acc + v
            else:
                acc = int_binary('tadd', acc, v, dt)
        else:
            if DTYPES[dt][1] == 'f':
                if dt == 'bf16':
                    a64 = _max_number(_fvals(acc, dt), _fvals(v, dt), op == 'max')
                    acc = bf16_round_f64(a64)
                else:
                    acc = _max_number(np.asarray(acc, np.float64), np.asarray(v, np.float64),
                                      op == 'max').astype(DTYPES[dt][2])
            else:
                acc = int_binary('t' + op, acc, v, dt)
    return acc
