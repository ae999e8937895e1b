/*
 * linx-optest tensors: element types, .npy and raw files, and the
 * dtype-aware comparison (docs/optest.md "Comparing").
 *
 * .npy: format versions 1.0 to 3.0, little-endian or single-byte types,
 * C order; the header's 'descr' gives the type (<f8 <f4 <f2 |i1 <i2 <i4
 * <i8 |u1 <u2 <u4 <u8 |b1) and 'shape' the shape.  bf16, which numpy does
 * not have, is stored as <u2 with dtype = bf16 in the manifest.
 *
 * Comparison: integers must be equal unless an absolute tolerance is
 * given; floats match when |got - want| <= atol + rtol x |want| (numpy's
 * isclose), or when they are at most `ulp` units in the last place apart,
 * infinities only themselves, NaN only NaN (unless nan_equal is off).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"
#include "optest.h"

static const struct {
    OptDType t;
    const char *names[3];
    unsigned size;
    const char *npy;
} dtypes[] = {
    { OPT_DT_F64, { "f64", "float64", "double" }, 8, "f8" },
    { OPT_DT_F32, { "f32", "float32", "float" }, 4, "f4" },
    { OPT_DT_F16, { "f16", "float16", "half" }, 2, "f2" },
    { OPT_DT_BF16, { "bf16", "bfloat16", NULL }, 2, NULL },
    { OPT_DT_I8, { "i8", "int8", "s8" }, 1, "i1" },
    { OPT_DT_I16, { "i16", "int16", "s16" }, 2, "i2" },
    { OPT_DT_I32, { "i32", "int32", "s32" }, 4, "i4" },
    { OPT_DT_I64, { "i64", "int64", "s64" }, 8, "i8" },
    { OPT_DT_U8, { "u8", "uint8", "bool" }, 1, "u1" },
    { OPT_DT_U16, { "u16", "uint16", NULL }, 2, "u2" },
    { OPT_DT_U32, { "u32", "uint32", NULL }, 4, "u4" },
    { OPT_DT_U64, { "u64", "uint64", NULL }, 8, "u8" },
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

static bool errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* The value of 'key': in the .npy header dictionary (a pointer into it). */
static const char *npy_field(const char *hdr, const char *key)
{
    const char *p = strstr(hdr, key);

    if (!p) {
        return NULL;
    }
    p = strchr(p + strlen(key), ':');
    if (!p) {
        return NULL;
    }
    p++;
    while (*p == ' ') {
        p++;
    }
    return p;
}

static bool npy_parse(const uint8_t *buf, size_t len, const char *path, OptTensor *t,
                      size_t *data_off, char *err, size_t errlen)
{
    static const uint8_t magic[6] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };
    size_t hlen, hoff;
    char *hdr;
    const char *d, *shape;
    bool ok = false;

    if (len < 10 || memcmp(buf, magic, sizeof(magic)) != 0) {
        return errf(err, errlen, "%s: not a .npy file", path);
    }
    if (buf[6] == 1) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        hoff = 10;
    } else if ((buf[6] == 2 || buf[6] == 3) && len >= 12) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 |
               (size_t)buf[11] << 24;
        hoff = 12;
    } else {
        return errf(err, errlen, "%s: unsupported .npy version %u", path, buf[6]);
    }
    if (hoff + hlen > len) {
        return errf(err, errlen, "%s: truncated .npy header", path);
    }
    hdr = malloc(hlen + 1);
    if (!hdr) {
        return errf(err, errlen, "out of memory");
    }
    memcpy(hdr, buf + hoff, hlen);
    hdr[hlen] = 0;
    d = npy_field(hdr, "'descr'");
    shape = npy_field(hdr, "'shape'");
    if (!d || !shape || (d[0] != '\'' && d[0] != '"')) {
        errf(err, errlen, "%s: .npy header without descr/shape: %s", path, hdr);
        goto out;
    }
    {
        const char *fo = npy_field(hdr, "'fortran_order'");
        if (fo && strncmp(fo, "True", 4) == 0) {
            errf(err, errlen, "%s: Fortran-order arrays are not supported (save with C order)",
                 path);
            goto out;
        }
    }
    t->dtype = OPT_DT_NONE;
    if (d[1] == '>' && d[3] != '1') {
        errf(err, errlen, "%s: big-endian .npy data is not supported", path);
        goto out;
    }
    for (size_t i = 0; i < NDTYPES; i++) {
        if (dtypes[i].npy && strncmp(d + 2, dtypes[i].npy, 2) == 0 && d[4] == d[0]) {
            t->dtype = dtypes[i].t;
        }
    }
    if (strncmp(d + 1, "|b1", 3) == 0) {
        t->dtype = OPT_DT_U8;
    }
    if (t->dtype == OPT_DT_NONE) {
        errf(err, errlen, "%s: .npy element type %.8s is not supported", path, d);
        goto out;
    }
    t->ndim = 0;
    if (*shape != '(') {
        errf(err, errlen, "%s: bad .npy shape", path);
        goto out;
    }
    for (const char *p = shape + 1; *p && *p != ')';) {
        char *end;
        unsigned long long v;
        while (*p == ' ' || *p == ',') {
            p++;
        }
        if (*p == ')') {
            break;
        }
        errno = 0;
        v = strtoull(p, &end, 10);
        if (end == p || errno || t->ndim == OPT_MAX_SHAPE) {
            errf(err, errlen, "%s: bad .npy shape", path);
            goto out;
        }
        t->shape[t->ndim++] = v;
        p = end;
    }
    *data_off = hoff + hlen;
    ok = true;
out:
    free(hdr);
    return ok;
}

bool opt_tensor_read(const char *path, OptDType want, OptTensor *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, off = 0, n;
    size_t dot = strlen(path) >= 4 ? strlen(path) - 4 : 0;

    memset(t, 0, sizeof(*t));
    if (!f) {
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    }
    do {
        if (len == cap) {
            uint8_t *nb;
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
    fclose(f);
    if (strcmp(path + dot, ".npy") == 0) {
        if (!npy_parse(buf, len, path, t, &off, err, errlen)) {
            free(buf);
            return false;
        }
        if (want != OPT_DT_NONE && want != t->dtype) {
            if (opt_dtype_size(want) != opt_dtype_size(t->dtype)) {
                free(buf);
                return errf(err, errlen, "%s: holds %s, not %s", path,
                            opt_dtype_name(t->dtype), opt_dtype_name(want));
            }
            t->dtype = want; /* e.g. bf16 stored as uint16 */
        }
    } else {
        t->dtype = want;
        t->ndim = 1;
        t->shape[0] = len / opt_dtype_size(want);
    }
    t->bytes = len - off;
    t->data = malloc(t->bytes ? t->bytes : 1);
    if (!t->data) {
        free(buf);
        return errf(err, errlen, "%s: out of memory", path);
    }
    memcpy(t->data, buf + off, t->bytes);
    free(buf);
    if (t->bytes % opt_dtype_size(t->dtype)) {
        opt_tensor_free(t);
        return errf(err, errlen, "%s: %zu bytes is not a whole number of %s elements", path,
                    len - off, opt_dtype_name(want));
    }
    {
        size_t elems = 1;
        for (unsigned i = 0; i < t->ndim; i++) {
            elems *= t->shape[i];
        }
        if (t->ndim && elems * opt_dtype_size(t->dtype) != t->bytes) {
            opt_tensor_free(t);
            return errf(err, errlen, "%s: shape and data size disagree", path);
        }
    }
    return true;
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

static double get_elem(OptDType t, const uint8_t *p)
{
    union {
        uint8_t b[8];
        double d;
        float f;
        uint16_t h;
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
    } u;

    memcpy(u.b, p, opt_dtype_size(t));
    switch (t) {
    case OPT_DT_F64: return u.d;
    case OPT_DT_F32: return u.f;
    case OPT_DT_F16: return linx_fp16_to_float(u.h);
    case OPT_DT_BF16: return linx_bf16_to_float(u.h);
    case OPT_DT_I8: return u.i8;
    case OPT_DT_I16: return u.i16;
    case OPT_DT_I32: return u.i32;
    case OPT_DT_I64: return (double)u.i64;
    case OPT_DT_U16: return u.u16;
    case OPT_DT_U32: return u.u32;
    case OPT_DT_U64: return (double)u.u64;
    default: return u.b[0];
    }
}

double opt_tensor_get(const OptTensor *t, size_t i)
{
    return get_elem(t->dtype, t->data + i * opt_dtype_size(t->dtype));
}

/* Units in the last place between two finite floats of type @t, through
 * their ordered integer images. */
static uint64_t ulp_distance(OptDType t, const uint8_t *a, const uint8_t *b)
{
    unsigned size = opt_dtype_size(t);
    uint64_t x = 0, y = 0, sign = UINT64_C(1) << (8 * size - 1);
    int64_t kx, ky;

    memcpy(&x, a, size);
    memcpy(&y, b, size);
    kx = (x & sign) ? -(int64_t)(x & (sign - 1)) : (int64_t)x;
    ky = (y & sign) ? -(int64_t)(y & (sign - 1)) : (int64_t)y;
    return kx > ky ? (uint64_t)(kx - ky) : (uint64_t)(ky - kx);
}

bool opt_compare(OptDType dtype, const uint8_t *got, const OptTensor *golden,
                 const OptTolerance *tol, OptCompare *res)
{
    unsigned size = opt_dtype_size(dtype);
    bool fp = opt_dtype_is_float(dtype);

    memset(res, 0, sizeof(*res));
    res->count = opt_tensor_count(golden);
    for (size_t i = 0; i < res->count; i++) {
        double g = get_elem(dtype, got + i * size);
        double w = opt_tensor_get(golden, i);
        double ad = fabs(g - w), rd = w != 0 ? ad / fabs(w) : (ad != 0 ? INFINITY : 0);
        bool ok;

        if (fp && (isnan(g) || isnan(w))) {
            ok = isnan(g) && isnan(w) && tol->nan_equal;
        } else if (fp && (isinf(g) || isinf(w))) {
            ok = g == w;
        } else if (fp) {
            ok = ad <= tol->atol + tol->rtol * fabs(w) ||
                 (tol->ulp && ulp_distance(dtype, got + i * size,
                                           golden->data + i * size) <= tol->ulp);
        } else {
            /* integers: exact unless an absolute tolerance is given (via
             * the 64-bit images, so large values compare exactly) */
            ok = tol->atol > 0 ? ad <= tol->atol
                               : memcmp(got + i * size, golden->data + i * size, size) == 0;
        }
        if (!isnan(ad) && ad > res->max_abs) {
            res->max_abs = ad;
        }
        if (!isnan(rd) && rd > res->max_rel && !isinf(rd)) {
            res->max_rel = rd;
        }
        if (!ok) {
            if (res->mismatches++ == 0) {
                res->first_bad = i;
                res->got = g;
                res->want = w;
            }
        }
    }
    return res->mismatches == 0;
}
