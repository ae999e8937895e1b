/*
 * linx-optest tensors: element types, .npy and raw files, and the
 * dtype-aware comparison (docs/optest.md "Comparing").
 *
 * .npy (numpy's NEP 1 format): versions 1.0 to 3.0, a header dictionary
 * with 'descr', 'fortran_order' and 'shape'; little-endian or single-byte
 * types, C order.  'descr' gives the type (<f8 <f4 <f2 |i1 <i2 <i4 <i8 |u1
 * <u2 <u4 <u8 |b1; '=' counts as '<' on this little-endian host) and
 * 'shape' the shape (() is a scalar).  bf16, which numpy does not have, is
 * stored as <u2 with dtype = bf16 in the manifest.  The reader takes any
 * bytes (it is a fuzz target: tests/fuzz/fuzz-optest.c) and never reads
 * outside them.
 *
 * Comparison: integers must be equal unless an absolute tolerance is
 * given; floats match when |got - want| <= atol + rtol x |want| (numpy's
 * isclose), or when they are at most `ulp` units in the last place apart,
 * infinities only themselves, NaN only NaN (unless nan_equal is off).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"
#include "optest.h"

enum {
    MAX_TENSOR_FILE = 1 << 30, /* larger files are refused (guest RAM is smaller) */
    MAX_NPY_HEADER = 1 << 20,
};

static const struct {
    OptDType t;
    const char *names[3];
    unsigned size;
    char kind; /* .npy kind letter */
    bool is_signed;
} dtypes[] = {
    { OPT_DT_F64, { "f64", "float64", "double" }, 8, 'f', true },
    { OPT_DT_F32, { "f32", "float32", "float" }, 4, 'f', true },
    { OPT_DT_F16, { "f16", "float16", "half" }, 2, 'f', true },
    { OPT_DT_BF16, { "bf16", "bfloat16", NULL }, 2, 0, true },
    { OPT_DT_I8, { "i8", "int8", "s8" }, 1, 'i', true },
    { OPT_DT_I16, { "i16", "int16", "s16" }, 2, 'i', true },
    { OPT_DT_I32, { "i32", "int32", "s32" }, 4, 'i', true },
    { OPT_DT_I64, { "i64", "int64", "s64" }, 8, 'i', true },
    { OPT_DT_U8, { "u8", "uint8", "bool" }, 1, 'u', false },
    { OPT_DT_U16, { "u16", "uint16", NULL }, 2, 'u', false },
    { OPT_DT_U32, { "u32", "uint32", NULL }, 4, 'u', false },
    { OPT_DT_U64, { "u64", "uint64", NULL }, 8, 'u', false },
};
#define NDTYPES (sizeof(dtypes) / sizeof(dtypes[0]))

OptDType opt_dtype_parse(const char *s)
{
    for (size_t i = 0; i < NDTYPES; i++) {
        for (unsigned n = 0; n < 3; n++) {
            if (dtypes[i].names[n] && strcmp(s, dtypes[i].names[n]) == 0) {
                return dtypes[i].t;
            }
        }
    }
    return OPT_DT_NONE;
}

const char *opt_dtype_name(OptDType t)
{
    for (size_t i = 0; i < NDTYPES; i++) {
        if (dtypes[i].t == t) {
            return dtypes[i].names[0];
        }
    }
    return "bytes";
}

unsigned opt_dtype_size(OptDType t)
{
    for (size_t i = 0; i < NDTYPES; i++) {
        if (dtypes[i].t == t) {
            return dtypes[i].size;
        }
    }
    return 1;
}

bool opt_dtype_is_float(OptDType t)
{
    return t == OPT_DT_F64 || t == OPT_DT_F32 || t == OPT_DT_F16 || t == OPT_DT_BF16;
}

bool opt_dtype_is_signed(OptDType t)
{
    for (size_t i = 0; i < NDTYPES; i++) {
        if (dtypes[i].t == t) {
            return dtypes[i].is_signed;
        }
    }
    return false;
}

static bool errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* ---------------------------------------------------------------------
 * .npy header: a Python dict literal, e.g.
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * --------------------------------------------------------------------- */

typedef struct NpyHeader {
    char descr[16];
    bool have_descr, have_shape, fortran;
    unsigned ndim;
    uint64_t shape[OPT_MAX_SHAPE];
} NpyHeader;

typedef struct Cursor {
    const char *p, *end;
} Cursor;

static void skip_ws(Cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) {
        c->p++;
    }
}

static bool eat(Cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A quoted string ('...' or "...") into @buf (truncated, still consumed). */
static bool read_str(Cursor *c, char *buf, size_t len)
{
    char q;
    size_t n = 0;

    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) {
        return false;
    }
    q = *c->p++;
    while (c->p < c->end && *c->p != q) {
        if (n + 1 < len) {
            buf[n++] = *c->p;
        }
        c->p++;
    }
    if (c->p >= c->end) {
        return false;
    }
    c->p++;
    buf[n] = 0;
    return true;
}

static bool read_word(Cursor *c, const char *w)
{
    size_t n = strlen(w);

    skip_ws(c);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return true;
    }
    return false;
}

static bool read_shape(Cursor *c, NpyHeader *h)
{
    if (!eat(c, '(')) {
        return false;
    }
    h->ndim = 0;
    for (;;) {
        uint64_t v = 0;
        bool digits = false;

        if (eat(c, ')')) {
            return true;
        }
        skip_ws(c);
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            if (v > (UINT64_MAX - 9) / 10) {
                return false;
            }
            v = v * 10 + (uint64_t)(*c->p++ - '0');
            digits = true;
        }
        if (c->p < c->end && *c->p == 'L') { /* Python 2 longs */
            c->p++;
        }
        if (!digits || h->ndim == OPT_MAX_SHAPE) {
            return false;
        }
        h->shape[h->ndim++] = v;
        if (!eat(c, ',')) {
            return eat(c, ')');
        }
    }
}

static bool npy_header_parse(const char *text, size_t len, NpyHeader *h)
{
    Cursor c = { text, text + len };

    memset(h, 0, sizeof(*h));
    if (!eat(&c, '{')) {
        return false;
    }
    for (;;) {
        char key[32];

        if (eat(&c, '}')) {
            return true;
        }
        if (!read_str(&c, key, sizeof(key)) || !eat(&c, ':')) {
            return false;
        }
        if (strcmp(key, "descr") == 0) {
            if (!read_str(&c, h->descr, sizeof(h->descr))) {
                return false; /* structured dtypes (lists) are not supported */
            }
            h->have_descr = true;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (read_word(&c, "True")) {
                h->fortran = true;
            } else if (!read_word(&c, "False")) {
                return false;
            }
        } else if (strcmp(key, "shape") == 0) {
            if (!read_shape(&c, h)) {
                return false;
            }
            h->have_shape = true;
        } else {
            return false;
        }
        if (!eat(&c, ',')) {
            return eat(&c, '}');
        }
    }
}

/* '<f4' -> OPT_DT_F32; OPT_DT_NONE with the reason. */
static OptDType npy_dtype(const char *d, const char **why)
{
    size_t n = strlen(d);
    unsigned size;

    *why = "is not supported";
    if (n < 3 || !strchr("<>|=", d[0])) {
        return OPT_DT_NONE;
    }
    if (strcmp(d + 1, "b1") == 0) {
        return OPT_DT_U8;
    }
    if (n != 3 || d[2] < '1' || d[2] > '8') {
        return OPT_DT_NONE;
    }
    size = (unsigned)(d[2] - '0');
    if (d[0] == '>' && size > 1) {
        *why = "is big-endian (not supported)";
        return OPT_DT_NONE;
    }
    for (size_t i = 0; i < NDTYPES; i++) {
        if (dtypes[i].kind == d[1] && dtypes[i].size == size) {
            return dtypes[i].t;
        }
    }
    return OPT_DT_NONE;
}

static bool npy_parse(const char *name, const uint8_t *buf, size_t len, OptTensor *t,
                      size_t *data_off, char *err, size_t errlen)
{
    static const uint8_t magic[6] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };
    size_t hlen, hoff;
    NpyHeader h;
    const char *why;

    if (len < 10 || memcmp(buf, magic, sizeof(magic)) != 0) {
        return errf(err, errlen, "%s: not a .npy file (no \\x93NUMPY magic)", name);
    }
    if (buf[6] == 1) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        hoff = 10;
    } else if ((buf[6] == 2 || buf[6] == 3) && len >= 12) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 |
               (size_t)buf[11] << 24;
        hoff = 12;
    } else {
        return errf(err, errlen, "%s: unsupported .npy version %u.%u", name, buf[6], buf[7]);
    }
    if (hlen > MAX_NPY_HEADER || hlen > len - hoff) {
        return errf(err, errlen, "%s: truncated .npy header (%zu bytes announced)", name, hlen);
    }
    if (!npy_header_parse((const char *)buf + hoff, hlen, &h) || !h.have_descr ||
        !h.have_shape) {
        return errf(err, errlen, "%s: .npy header is not a dict with 'descr' and 'shape': %.*s",
                    name, (int)(hlen > 120 ? 120 : hlen), (const char *)buf + hoff);
    }
    if (h.fortran) {
        return errf(err, errlen,
                    "%s: Fortran-order arrays are not supported (save with C order)", name);
    }
    t->dtype = npy_dtype(h.descr, &why);
    if (t->dtype == OPT_DT_NONE) {
        return errf(err, errlen, "%s: .npy element type '%s' %s", name, h.descr, why);
    }
    t->ndim = h.ndim;
    memcpy(t->shape, h.shape, sizeof(h.shape));
    *data_off = hoff + hlen;
    return true;
}

bool opt_tensor_parse(const char *name, const uint8_t *buf, size_t len, bool is_npy,
                      OptDType want, OptTensor *t, char *err, size_t errlen)
{
    size_t off = 0, elems = 1, bytes;

    memset(t, 0, sizeof(*t));
    if (is_npy) {
        if (!npy_parse(name, buf, len, t, &off, err, errlen)) {
            memset(t, 0, sizeof(*t));
            return false;
        }
        if (want != OPT_DT_NONE && want != t->dtype) {
            if (opt_dtype_size(want) != opt_dtype_size(t->dtype)) {
                errf(err, errlen, "%s: holds %s, not %s (sizes differ)", name,
                     opt_dtype_name(t->dtype), opt_dtype_name(want));
                memset(t, 0, sizeof(*t));
                return false;
            }
            t->dtype = want; /* e.g. bf16 stored as uint16 */
        }
        for (unsigned i = 0; i < t->ndim; i++) {
            if (__builtin_mul_overflow(elems, t->shape[i], &elems)) {
                memset(t, 0, sizeof(*t));
                return errf(err, errlen, "%s: .npy shape is too large", name);
            }
        }
        if (__builtin_mul_overflow(elems, (size_t)opt_dtype_size(t->dtype), &bytes) ||
            bytes != len - off) {
            errf(err, errlen, "%s: the shape says %zu elements of %s, the file holds %zu bytes",
                 name, elems, opt_dtype_name(t->dtype), len - off);
            memset(t, 0, sizeof(*t));
            return false;
        }
    } else {
        t->dtype = want;
        if (len % opt_dtype_size(want)) {
            return errf(err, errlen, "%s: %zu bytes is not a whole number of %s elements", name,
                        len, opt_dtype_name(want));
        }
        t->ndim = 1;
        t->shape[0] = len / opt_dtype_size(want);
    }
    t->bytes = len - off;
    t->data = malloc(t->bytes ? t->bytes : 1);
    if (!t->data) {
        memset(t, 0, sizeof(*t));
        return errf(err, errlen, "%s: out of memory", name);
    }
    memcpy(t->data, buf + off, t->bytes);
    return true;
}

bool opt_tensor_read(const char *path, OptDType want, OptTensor *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, n;
    size_t plen = strlen(path);
    bool ok;

    memset(t, 0, sizeof(*t));
    if (!f) {
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    }
    do {
        if (len == cap) {
            uint8_t *nb;
            if (cap >= MAX_TENSOR_FILE) {
                free(buf);
                fclose(f);
                return errf(err, errlen, "%s: larger than %d MiB", path, MAX_TENSOR_FILE >> 20);
            }
            cap = cap ? 2 * cap : 65536;
            nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return errf(err, errlen, "%s: out of memory", path);
            }
            buf = nb;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return errf(err, errlen, "%s: read error", path);
    }
    fclose(f);
    ok = opt_tensor_parse(path, buf, len, plen >= 4 && strcmp(path + plen - 4, ".npy") == 0,
                          want, t, err, errlen);
    free(buf);
    return ok;
}

void opt_tensor_free(OptTensor *t)
{
    free(t->data);
    memset(t, 0, sizeof(*t));
}

size_t opt_tensor_count(const OptTensor *t)
{
    return t->bytes / opt_dtype_size(t->dtype);
}

static uint64_t get_bits(OptDType t, const uint8_t *p)
{
    uint64_t v = 0;

    memcpy(&v, p, opt_dtype_size(t)); /* little-endian host */
    return v;
}

static double get_elem(OptDType t, const uint8_t *p)
{
    uint64_t b = get_bits(t, p);
    union {
        uint64_t u;
        double d;
    } d64;
    union {
        uint32_t u;
        float f;
    } f32;

    switch (t) {
    case OPT_DT_F64:
        d64.u = b;
        return d64.d;
    case OPT_DT_F32:
        f32.u = (uint32_t)b;
        return f32.f;
    case OPT_DT_F16: return linx_fp16_to_float((uint16_t)b);
    case OPT_DT_BF16: return linx_bf16_to_float((uint16_t)b);
    case OPT_DT_I8: return (int8_t)b;
    case OPT_DT_I16: return (int16_t)b;
    case OPT_DT_I32: return (int32_t)b;
    case OPT_DT_I64: return (double)(int64_t)b;
    case OPT_DT_U16: return (uint16_t)b;
    case OPT_DT_U32: return (uint32_t)b;
    case OPT_DT_U64: return (double)b;
    default: return (uint8_t)b;
    }
}

double opt_tensor_get(const OptTensor *t, size_t i)
{
    return get_elem(t->dtype, t->data + i * opt_dtype_size(t->dtype));
}

/* Units in the last place between two finite floats of @size bytes,
 * through their ordered integer images (-0 and +0 are 0 apart). */
static uint64_t ulp_distance(unsigned size, uint64_t x, uint64_t y)
{
    uint64_t sign = UINT64_C(1) << (8 * size - 1);
    __int128 kx = (x & sign) ? -(__int128)(x & (sign - 1)) : (__int128)x;
    __int128 ky = (y & sign) ? -(__int128)(y & (sign - 1)) : (__int128)y;
    __int128 d = kx > ky ? kx - ky : ky - kx;

    return d > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)d;
}

bool opt_compare(OptDType dtype, const uint8_t *got, const OptTensor *golden,
                 const OptTolerance *tol, OptCompare *res)
{
    unsigned size = opt_dtype_size(dtype);
    bool fp = opt_dtype_is_float(dtype);

    memset(res, 0, sizeof(*res));
    res->count = opt_tensor_count(golden);
    for (size_t i = 0; i < res->count; i++) {
        uint64_t gb = get_bits(dtype, got + i * size);
        uint64_t wb = get_bits(dtype, golden->data + i * size);
        double g = get_elem(dtype, got + i * size);
        double w = get_elem(dtype, golden->data + i * size);
        double ad, rd;
        bool ok;

        if (fp) {
            ad = fabs(g - w);
            rd = w != 0 ? ad / fabs(w) : (ad != 0 ? INFINITY : 0);
        } else if (opt_dtype_is_signed(dtype)) {
            int64_t gs = (int64_t)(gb << (64 - 8 * size)) >> (64 - 8 * size);
            int64_t ws = (int64_t)(wb << (64 - 8 * size)) >> (64 - 8 * size);
            ad = gs > ws ? (double)((uint64_t)gs - (uint64_t)ws)
                         : (double)((uint64_t)ws - (uint64_t)gs);
            rd = ws != 0 ? ad / fabs((double)ws) : (ad != 0 ? INFINITY : 0);
        } else {
            ad = gb > wb ? (double)(gb - wb) : (double)(wb - gb);
            rd = wb != 0 ? ad / (double)wb : (ad != 0 ? INFINITY : 0);
        }
        if (fp && (isnan(g) || isnan(w))) {
            ok = isnan(g) && isnan(w) && tol->nan_equal;
        } else if (fp && (isinf(g) || isinf(w))) {
            ok = g == w;
        } else if (fp && tol->atol == 0 && tol->rtol == 0 && tol->ulp == 0) {
            ok = gb == wb; /* exact: the same number, -0 and +0 differ */
        } else if (fp) {
            ok = ad <= tol->atol + tol->rtol * fabs(w) ||
                 (tol->ulp && ulp_distance(size, gb, wb) <= tol->ulp);
        } else {
            /* integers: exact unless an absolute tolerance is given */
            ok = tol->atol > 0 ? ad <= tol->atol : gb == wb;
        }
        if (!isnan(ad) && ad > res->max_abs) {
            res->max_abs = ad;
        }
        if (!isnan(rd) && !isinf(rd) && rd > res->max_rel) {
            res->max_rel = rd;
        }
        if (!ok && res->mismatches++ == 0) {
            size_t rest = i;

            res->first_bad = i;
            res->got = g;
            res->want = w;
            res->got_bits = gb;
            res->want_bits = wb;
            res->ulp_valid = fp && isfinite(g) && isfinite(w);
            res->ulp = res->ulp_valid ? ulp_distance(size, gb, wb) : 0;
            res->ndim = golden->ndim;
            for (unsigned d = golden->ndim; d-- > 0;) {
                uint64_t dim = golden->shape[d] ? golden->shape[d] : 1;
                res->coord[d] = rest % dim;
                rest /= dim;
            }
        }
    }
    return res->mismatches == 0;
}

void opt_format_coord(const OptCompare *c, char *buf, size_t len)
{
    size_t n = 0;

    n += (size_t)snprintf(buf, len, "[");
    if (c->ndim == 0) {
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%zu", c->first_bad);
    }
    for (unsigned d = 0; d < c->ndim && n < len; d++) {
        n += (size_t)snprintf(buf + n, len - n, "%s%" PRIu64, d ? ", " : "", c->coord[d]);
    }
    if (n < len) {
        snprintf(buf + n, len - n, "]");
    }
}

static void format_one(OptDType t, double v, uint64_t bits, char *buf, size_t len)
{
    unsigned width = 2 * opt_dtype_size(t);

    if (opt_dtype_is_float(t)) {
        snprintf(buf, len, "%.*g (0x%0*" PRIx64 ")", t == OPT_DT_F64 ? 17 : 9, v, (int)width,
                 bits);
    } else if (opt_dtype_is_signed(t)) {
        unsigned sh = 64 - 8 * opt_dtype_size(t);
        snprintf(buf, len, "%" PRId64 " (0x%0*" PRIx64 ")", (int64_t)(bits << sh) >> sh,
                 (int)width, bits);
    } else {
        snprintf(buf, len, "%" PRIu64 " (0x%0*" PRIx64 ")", bits, (int)width, bits);
    }
}

void opt_format_values(OptDType dtype, const OptCompare *c, char *buf, size_t len)
{
    char g[64], w[64];

    format_one(dtype, c->got, c->got_bits, g, sizeof(g));
    format_one(dtype, c->want, c->want_bits, w, sizeof(w));
    if (c->ulp_valid) {
        snprintf(buf, len, "got %s, want %s, %" PRIu64 " ulp apart", g, w, c->ulp);
    } else {
        snprintf(buf, len, "got %s, want %s", g, w);
    }
}
