/*
 * bench-optest: the operator suite (tests/optest) under linx-optest
 * against a native C reference of the same operators at the same sizes,
 * in the same run (issue 12 "Speed", issue 16 item 3; docs/optest.md
 * "Speed").
 *
 *   bench-optest --optest LINX_OPTEST --data ROOT [-k GLOB] [--rounds N] DIR
 *
 * 1. Native: every case of the manifests under DIR is run in this process
 *    the way a native test harness runs it: read the inputs (.npy), compute
 *    the operator in plain C (the formulas of tests/optest/lib/linxref.py,
 *    from the same specification), compare with the goldens (the
 *    comparison proves it is the same operator: a case whose native output
 *    does not match is counted and named).  Timed end to end, and the
 *    operator alone.
 * 2. Emulated: 'linx-optest -q -j 1' and '-j 2' over the same cases
 *    (--json), timed (wall and CPU: the runner and its workers); the
 *    reports give each case's time and phases.
 * The three alternate for N rounds (default 3) and each figure is the best
 * of its rounds, so a machine shared with other work treats them alike.
 * The manifests under a directory named "large" (tests/optest/large: the
 * benchmark sizes) are measured as a set of their own and printed apart:
 * the headline is the operator suite's.
 * Prints the ratio emulated / native end to end (wall, and CPU time) per
 * suite and in all, the speed-up of -j 2 over -j 1, and the per-case
 * overhead: the case's time minus its guest run (machine set-up, program
 * build and input load, comparison, the runner <-> worker round trip).
 */
#include <fnmatch.h>
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hw/linx/tile-dtype.h"
#include "tools/linx-optest/json.h"
#include "hw/linx/buffers.h"
#include "tools/linx-optest/optest.h"

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------------
 * Element types (the assembler's DataType names)
 * --------------------------------------------------------------------- */

typedef enum Kind { K_F, K_I, K_U } Kind;
typedef struct Dt {
    const char *name;
    unsigned size;
    Kind kind;
    int fmt; /* floats: 64, 32, 16 (fp16), 17 (bf16), 8 (e4m3) */
} Dt;

static const Dt dts[] = {
    { "FP64", 8, K_F, 64 }, { "FP32", 4, K_F, 32 }, { "FP16", 2, K_F, 16 },
    { "BF16", 2, K_F, 17 }, { "E4M3", 1, K_F, 8 },  { "S64", 8, K_I, 0 },
    { "S32", 4, K_I, 0 },   { "S16", 2, K_I, 0 },   { "S8", 1, K_I, 0 },
    { "U64", 8, K_U, 0 },   { "U32", 4, K_U, 0 },   { "U16", 2, K_U, 0 },
    { "U8", 1, K_U, 0 },
};

static const Dt *dt_find(const char *name)
{
    for (size_t i = 0; i < sizeof(dts) / sizeof(dts[0]); i++) {
        if (strcmp(dts[i].name, name) == 0) {
            return &dts[i];
        }
    }
    return NULL;
}

static uint64_t ld(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;

    memcpy(&v, p, size);
    return v;
}

static void st(uint8_t *p, unsigned size, uint64_t v)
{
    memcpy(p, &v, size);
}

static double fget(const Dt *t, const uint8_t *p)
{
    uint64_t b = ld(p, t->size);
    double d;
    float f;

    switch (t->fmt) {
    case 64: memcpy(&d, &b, 8); return d;
    case 32: memcpy(&f, &b, 4); return f;
    case 16: return linx_fp16_to_float((uint16_t)b);
    case 17: return linx_bf16_to_float((uint16_t)b);
    default: return 0;
    }
}

/* Round @v once per format step: double -> float -> half (innocuous for
 * the operations here: float has more than 2p + 2 bits). */
static void fset(const Dt *t, uint8_t *p, double v)
{
    float f = (float)v;
    uint64_t b = 0;

    switch (t->fmt) {
    case 64: memcpy(&b, &v, 8); break;
    case 32: memcpy(&b, &f, 4); break;
    case 16: b = linx_float_to_fp16(f); break;
    case 17: b = linx_float_to_bf16(f); break;
    default: break;
    }
    if (isnan(v)) {
        b = t->fmt == 64 ? UINT64_C(0x7ff8000000000000) : t->fmt == 32 ? 0x7fc00000
            : t->fmt == 16 ? 0x7e00 : 0x7fc0;
    }
    st(p, t->size, b);
}

static int64_t iget(const Dt *t, const uint8_t *p)
{
    uint64_t b = ld(p, t->size);
    unsigned sh = 64 - 8 * t->size;

    return t->kind == K_I ? (int64_t)(b << sh) >> sh : (int64_t)b;
}

/* ---------------------------------------------------------------------
 * Tile layouts (tile-semantics.md 2.1)
 * --------------------------------------------------------------------- */

static size_t tile_off(char layout, size_t r, size_t c, size_t rows, size_t cols, unsigned es)
{
    size_t c0 = 32 / es;

    switch (layout) {
    case 'z': return (c / c0) * rows * c0 + r * c0 + (c % c0);   /* NZ */
    case 'n': return (r / c0) * cols * c0 + c * c0 + (r % c0);   /* ZN */
    default: return r * cols + c;                                /* ND */
    }
}

/* selector -> GM DN?, tile layout */
static void selector(const char *sel, bool *dn, char *layout)
{
    *dn = strncmp(sel, "DN", 2) == 0;
    *layout = strstr(sel, "NZ") ? 'z' : strstr(sel, "ZN") ? 'n' : 'd';
}

/* ---------------------------------------------------------------------
 * A case: its inputs by symbol, its outputs
 * --------------------------------------------------------------------- */

typedef struct Mem {
    char *sym;
    uint8_t *data;
    size_t size;
} Mem;

typedef struct Run {
    const OptSuite *s;
    const OptCase *c;
    GHashTable *defs;   /* NAME -> VALUE */
    Mem mem[16];
    unsigned nmem;
    const int64_t *params;
    size_t nparams;
} Run;

/* The guest region of @sym (inputs copied in, the rest zero). */
static uint8_t *region(Run *r, const char *sym, size_t size)
{
    for (unsigned i = 0; i < r->nmem; i++) {
        if (strcmp(r->mem[i].sym, sym) == 0) {
            if (r->mem[i].size < size) {
                r->mem[i].data = g_realloc(r->mem[i].data, size);
                memset(r->mem[i].data + r->mem[i].size, 0, size - r->mem[i].size);
                r->mem[i].size = size;
            }
            return r->mem[i].data;
        }
    }
    if (r->nmem == 16) {
        abort();
    }
    r->mem[r->nmem].sym = g_strdup(sym);
    r->mem[r->nmem].data = g_malloc0(size ? size : 1);
    r->mem[r->nmem].size = size;
    return r->mem[r->nmem++].data;
}

/* The region of a place: its symbol or buffer ("?" for an address). */
static const char *place_name(const OptPlace *p)
{
    return p->buffer >= 0 ? linx_buffer_name(p->buffer) : p->symbol ? p->symbol : "?";
}

static const char *def(Run *r, const char *name)
{
    const char *v = g_hash_table_lookup(r->defs, name);

    return v ? v : "";
}

static int64_t P(Run *r, size_t i)
{
    return i < r->nparams ? r->params[i] : 0;
}

static uint64_t arg(Run *r, unsigned i)
{
    return i < r->c->nargs ? g_ascii_strtoull(r->c->args[i], NULL, 0) : 0;
}

/* ---------------------------------------------------------------------
 * Native operators
 * --------------------------------------------------------------------- */

static uint64_t pad_bits(const Dt *t, const char *pad)
{
    unsigned nb = 8 * t->size;
    uint64_t top = UINT64_C(1) << (nb - 1), all = nb == 64 ? ~UINT64_C(0) : (top << 1) - 1;
    bool max = strcmp(pad, "Max") == 0;

    if (strcmp(pad, "Max") != 0 && strcmp(pad, "Min") != 0) {
        return 0;
    }
    if (t->kind == K_F) {
        uint64_t inf = t->fmt == 64 ? UINT64_C(0x7ff0000000000000) : t->fmt == 32 ? 0x7f800000
                       : t->fmt == 16 ? 0x7c00 : t->fmt == 17 ? 0x7f80 : 0x7e;
        return max ? inf : inf | top;
    }
    if (t->kind == K_I) {
        return max ? top - 1 : top;
    }
    return max ? all : 0;
}

/* The TMA programs: tload.s, tstore.s, roundtrip.s. */
static void tma(Run *r)
{
    const Dt *t = dt_find(def(r, "DTYPE"));
    const char *prog = r->c->program ? r->c->program : r->s->program;
    bool dn;
    char lay;
    uint64_t lb0 = (uint64_t)P(r, 0), lb1 = (uint64_t)P(r, 1) ? (uint64_t)P(r, 1) : 1;
    uint64_t col = (uint64_t)P(r, 2), stride = (uint64_t)P(r, 3), tb = (uint64_t)P(r, 4);
    unsigned es = t->size;
    uint64_t vr, vc, rows;

    selector(def(r, "LAYOUT"), &dn, &lay);
    vr = dn ? lb0 : lb1;
    vc = dn ? lb1 : lb0;
    if (strstr(prog, "tload")) {
        uint8_t *gm = region(r, "gm", 65536) + P(r, 6);
        uint8_t *tile = region(r, "dump", tb);
        uint64_t pad = pad_bits(t, def(r, "PAD"));
        rows = tb / (col * es);
        for (uint64_t i = 0; i < rows; i++) {
            for (uint64_t j = 0; j < col; j++) {
                uint64_t v = pad;
                if (i < vr && j < vc) {
                    v = ld(gm + (dn ? j * stride + i * es : i * stride + j * es), es);
                }
                st(tile + tile_off(lay, i, j, rows, col, es) * es, es, v);
            }
        }
    } else if (strstr(prog, "tstore")) {
        uint64_t n = (uint64_t)P(r, 7);
        uint8_t *gm = region(r, "gm", 65536) + P(r, 6);
        uint8_t *img = region(r, "img", 32768);
        uint64_t sr, sc;
        rows = n * tb / (col * es);
        sr = dn ? rows / n : rows;
        sc = dn ? col : col / n;
        for (uint64_t i = 0; i < vr; i++) {
            for (uint64_t j = 0; j < vc; j++) {
                uint64_t k = dn ? i / sr : j / sc, ti = dn ? i % sr : i, tj = dn ? j : j % sc;
                uint64_t v = ld(img + k * tb + tile_off(lay, ti, tj, sr, sc, es) * es, es);
                st(gm + (dn ? j * stride + i * es : i * stride + j * es), es, v);
            }
        }
    } else {
        uint8_t *gm = region(r, "gm", 65536) + P(r, 6);
        uint8_t *dst = region(r, "dst", 65536);
        uint64_t sstride = (uint64_t)P(r, 5);
        for (uint64_t i = 0; i < vr; i++) {
            for (uint64_t j = 0; j < vc; j++) {
                uint64_t v = ld(gm + (dn ? j * stride + i * es : i * stride + j * es), es);
                st(dst + (dn ? j * sstride + i * es : i * sstride + j * es), es, v);
            }
        }
    }
}

static void loaddata(Run *r)
{
    const char *prog = r->c->program ? r->c->program : r->s->program;
    uint8_t *src = region(r, "src", 65536);
    uint8_t *out = region(r, "out", 65536);

    if (strstr(prog, "nz2zz")) {
        /* NZ (16 x c0 fractals, column-block major) -> ZZ (row-block major) */
        uint64_t mb = (uint64_t)P(r, 0), kb = (uint64_t)P(r, 1);
        for (uint64_t b = 0; b < mb; b++) {
            for (uint64_t k = 0; k < kb; k++) {
                memcpy(out + 512 * (b * kb + k), src + 512 * (k * mb + b), 512);
            }
        }
        return;
    }
    {
        uint64_t start = (uint64_t)P(r, 5), rep = (uint64_t)P(r, 6), stride = (uint64_t)P(r, 7);
        uint64_t gap = (uint64_t)P(r, 8);
        bool down = P(r, 3) != 0, tr = P(r, 2) != 0;
        memcpy(out, region(r, "init", 65536), (size_t)P(r, 10));
        for (uint64_t i = 0; i < rep; i++) {
            uint64_t s = down ? start - stride * i : start + stride * i, d = i * (gap + 1);
            if (tr) {
                const uint16_t *a = (const uint16_t *)(src + 512 * s);
                uint16_t *o = (uint16_t *)(out + 512 * d);
                for (int x = 0; x < 16; x++) {
                    for (int y = 0; y < 16; y++) {
                        o[x * 16 + y] = a[y * 16 + x];
                    }
                }
            } else {
                memcpy(out + 512 * d, src + 512 * s, 512);
            }
        }
    }
}

/* C (m x n) += A x B over one k tile, A row-major lda, B ldb, in fp32 k
 * order (or int32 wrapping). */
static void mm_tile(const Dt *t, const uint8_t *a, size_t lda, const uint8_t *b, size_t ldb,
                    uint64_t m, uint64_t n, uint64_t k, float *cf, int32_t *ci, bool first)
{
    for (uint64_t i = 0; i < m; i++) {
        for (uint64_t j = 0; j < n; j++) {
            if (t->kind == K_F) {
                float s = 0;
                for (uint64_t kk = 0; kk < k; kk++) {
                    s += (float)fget(t, a + i * lda + kk * t->size) *
                         (float)fget(t, b + kk * ldb + j * t->size);
                }
                cf[i * n + j] = first ? s : cf[i * n + j] + s;
            } else {
                uint32_t s = 0;
                for (uint64_t kk = 0; kk < k; kk++) {
                    s += (uint32_t)((int32_t)iget(t, a + i * lda + kk) *
                                    (int32_t)iget(t, b + kk * ldb + j));
                }
                ci[i * n + j] = (int32_t)(first ? s : (uint32_t)ci[i * n + j] + s);
            }
        }
    }
}

static double rne(double x)
{
    return nearbyint(x); /* the default rounding mode: to nearest even */
}

/* The buffers suite (tests/optest/buffers): what each program does to
 * the buffers, from the device headers' text (hw/linx/buffers-mmad.h,
 * buffers-datacopy.h); buffer places are regions named L1, L0A, ... */
static void buffers(Run *r)
{
    const char *prog = r->c->program ? r->c->program : r->s->program;
    uint64_t (*num)(const gchar *, gchar **, guint) = g_ascii_strtoull;

    if (g_str_has_suffix(prog, "mmad.s")) {
        uint64_t m = num(def(r, "M"), NULL, 0), n = num(def(r, "N"), NULL, 0);
        uint64_t k = num(def(r, "K"), NULL, 0);
        const Dt *t = dt_find(num(def(r, "DT"), NULL, 0) == 19 ? "S8" : "FP16");
        uint64_t c0 = 32 / t->size, mp = (m + 15) / 16 * 16, np = (n + 15) / 16 * 16;
        uint64_t kp = (k + c0 - 1) / c0 * c0;
        const uint8_t *la = region(r, "L0A", mp * kp * t->size);
        const uint8_t *lb = region(r, "L0B", kp * np * t->size);
        uint8_t *lc = region(r, "L0C", np * mp * 4);
        uint8_t *a = g_malloc(m * k * t->size), *b = g_malloc(k * n * t->size);
        float *cf = g_new0(float, m * n);
        int32_t *ci = g_new0(int32_t, m * n);

        /* A: ZZ, B: ZN, C: NZ of 16 x 16 fractals (buffers-mmad.h) */
        for (uint64_t i = 0; i < m; i++) {
            for (uint64_t j = 0; j < k; j++) {
                memcpy(a + (i * k + j) * t->size,
                       la + ((i / 16) * kp * 16 + (j / c0) * 16 * c0 + (i % 16) * c0 + j % c0) *
                                t->size, t->size);
            }
        }
        for (uint64_t i = 0; i < k; i++) {
            for (uint64_t j = 0; j < n; j++) {
                memcpy(b + (i * n + j) * t->size,
                       lb + ((i / c0) * np * c0 + j * c0 + i % c0) * t->size, t->size);
            }
        }
        mm_tile(t, a, k * t->size, b, n * t->size, m, n, k, cf, ci, true);
        for (uint64_t i = 0; i < m; i++) {
            for (uint64_t j = 0; j < n; j++) {
                memcpy(lc + ((j / 16) * mp * 16 + i * 16 + j % 16) * 4,
                       t->kind == K_F ? (void *)&cf[i * n + j] : (void *)&ci[i * n + j], 4);
            }
        }
        g_free(a);
        g_free(b);
        g_free(cf);
        g_free(ci);
    } else if (g_str_has_suffix(prog, "datacopy.s")) {
        uint64_t dst = num(def(r, "DST"), NULL, 0), blocks = num(def(r, "BLOCKS"), NULL, 0);
        uint64_t blen = num(def(r, "BLEN"), NULL, 0), sgap = num(def(r, "SGAP"), NULL, 0);
        uint64_t dgap = num(def(r, "DGAP"), NULL, 0);
        const uint8_t *src = region(r, "src", 2048);
        uint8_t *l1 = region(r, "L1", dst + blocks * (blen + dgap) * 32);

        if (dst % 32 == 0) { /* else datacopy-dst-align: nothing moves */
            for (uint64_t i = 0; i < blocks; i++) {
                memcpy(l1 + dst + i * (blen + dgap) * 32, src + i * (blen + sgap) * 32,
                       blen * 32);
            }
        }
    } else if (g_str_has_suffix(prog, "scalar.s")) {
        const uint8_t *ub = region(r, "UB", 0x40 + 64);
        uint8_t *l1 = region(r, "L1", 0x1000 + 64), *sum = region(r, "sum", 8);
        int64_t total = 0;

        for (unsigned i = 0; i < 16; i++) {
            int32_t v;
            uint32_t twice;
            memcpy(&v, ub + 0x40 + 4 * i, 4);
            total += v;
            twice = (uint32_t)v * 2u;
            memcpy(l1 + 0x1000 + 4 * i, &twice, 4);
        }
        memcpy(sum, &total, 8);
    }
    /* tile-rule.s, pagefault.s: a trap, nothing changes */
}

static void cube(Run *r)
{
    const Dt *t = dt_find(def(r, "DTYPE")), *o = dt_find(def(r, "OUT"));
    uint64_t m = (uint64_t)P(r, 0), n = (uint64_t)P(r, 1), kt = (uint64_t)P(r, 2);
    uint64_t nk = (uint64_t)P(r, 3), lda = (uint64_t)P(r, 4), ldb = (uint64_t)P(r, 5);
    uint64_t word = (uint64_t)P(r, 11);
    uint8_t *a = region(r, "ma", 65536), *b = region(r, "mb", 65536);
    uint8_t *c = region(r, "mc", 16384);
    float *cf = g_new0(float, m * n);
    int32_t *ci = g_new0(int32_t, m * n);
    bool quant = strcmp(def(r, "QUANT"), "ND2NZ") == 0, flat = strcmp(def(r, "STORE"), "NORM") == 0;
    uint32_t sb = (uint32_t)word & 0xffffe000u;
    float scale;
    int off = (int)((word >> 37) & 0x1ff);
    unsigned oes = o->size, oc0 = 32 / oes;
    uint64_t r16 = (m + 15) / 16 * 16, cc = (n + oc0 - 1) / oc0 * oc0;

    /* the 9-bit zero point is unsigned, 0..511 (linxref.quant_offset:
     * pto-isa extract_quant_params, (quant >> 37) & 0x1FF) */
    memcpy(&scale, &sb, 4);
    for (uint64_t kk = 0; kk < nk; kk++) {
        mm_tile(t, a + kk * kt * t->size, lda, b + kk * kt * ldb, ldb, m, n, kt, cf, ci,
                kk == 0);
    }
    if (flat) {
        memset(c, 0, r16 * cc * oes);
    }
    for (uint64_t i = 0; i < m; i++) {
        for (uint64_t j = 0; j < n; j++) {
            uint8_t *p = flat ? c + tile_off('z', i, j, r16, cc, oes) * oes : c + (i * n + j) * oes;
            double x = t->kind == K_F ? cf[i * n + j] : ci[i * n + j];
            if (!quant) {
                if (o->kind == K_F) {
                    fset(o, p, x);
                } else {
                    st(p, 4, (uint32_t)ci[i * n + j]);
                }
            } else if (o->kind == K_F) {
                fset(o, p, (float)((float)x * scale));
            } else {
                double q = rne((double)(float)((float)x * scale));
                q = (q < -256 ? -256 : q > 255 ? 255 : q) + off;
                q = o->kind == K_I ? (q < -128 ? -128 : q > 127 ? 127 : q)
                                   : (q < 0 ? 0 : q > 255 ? 255 : q);
                st(p, 1, (uint64_t)(int64_t)q);
            }
        }
    }
    g_free(cf);
    g_free(ci);
}

static void gemm(Run *r)
{
    const Dt *t = dt_find(def(r, "DTYPE"));
    uint64_t mt = (uint64_t)P(r, 0), nt = (uint64_t)P(r, 1), kn = (uint64_t)P(r, 2);
    uint64_t tm = (uint64_t)P(r, 3), tn = (uint64_t)P(r, 4), tk = (uint64_t)P(r, 5);
    uint64_t lda = (uint64_t)P(r, 6), ldb = (uint64_t)P(r, 7), n = nt * tn;
    uint8_t *a = region(r, "ma", 131072), *b = region(r, "mb", 131072);
    float *c = (float *)(void *)region(r, "mc", 262144), *tile = g_new(float, tm * tn);

    for (uint64_t bi = 0; bi < mt; bi++) {
        for (uint64_t bj = 0; bj < nt; bj++) {
            for (uint64_t kk = 0; kk < kn; kk++) {
                mm_tile(t, a + bi * tm * lda + kk * tk * t->size, lda,
                        b + kk * tk * ldb + bj * tn * t->size, ldb, tm, tn, tk, tile, NULL,
                        kk == 0);
            }
            for (uint64_t i = 0; i < tm; i++) {
                memcpy(c + (bi * tm + i) * n + bj * tn, tile + i * tn, tn * 4);
            }
        }
    }
    g_free(tile);
}

static void attention(Run *r)
{
    uint64_t lq = (uint64_t)P(r, 0), d = (uint64_t)P(r, 1), nb = (uint64_t)P(r, 2);
    uint32_t sb = (uint32_t)P(r, 5);
    const float *q = (const float *)(void *)region(r, "mq", 4096);
    const float *k = (const float *)(void *)region(r, "mk", 65536);
    const float *v = (const float *)(void *)region(r, "mv", 65536);
    float *out = (float *)(void *)region(r, "mo", 4096);
    float scale, m[32], l[32], o[32 * 32], s[32 * 32], p[32 * 32];

    memcpy(&scale, &sb, 4);
    for (uint64_t j = 0; j < nb; j++) {
        for (uint64_t i = 0; i < lq; i++) {
            float mb = -INFINITY, lb = 0, mn, alpha = 1;
            for (uint64_t c = 0; c < d; c++) {
                float acc = 0;
                for (uint64_t x = 0; x < d; x++) {
                    acc += q[i * d + x] * k[(j * d + c) * d + x];
                }
                s[i * d + c] = acc * scale;
                mb = c == 0 || s[i * d + c] > mb ? s[i * d + c] : mb;
            }
            mn = j == 0 ? mb : (m[i] > mb ? m[i] : mb);
            for (uint64_t c = 0; c < d; c++) {
                p[i * d + c] = (float)exp((double)(s[i * d + c] - mn));
                lb = c == 0 ? p[i * d + c] : lb + p[i * d + c];
            }
            if (j) {
                alpha = (float)exp((double)(m[i] - mn));
                l[i] = alpha * l[i] + lb;
            } else {
                l[i] = lb;
            }
            for (uint64_t c = 0; c < d; c++) {
                float pv = 0;
                for (uint64_t x = 0; x < d; x++) {
                    pv += p[i * d + x] * v[(j * d + x) * d + c];
                }
                o[i * d + c] = j ? o[i * d + c] * alpha + pv : pv;
            }
            m[i] = mn;
        }
    }
    for (uint64_t i = 0; i < lq; i++) {
        for (uint64_t c = 0; c < d; c++) {
            out[i * d + c] = o[i * d + c] / l[i];
        }
    }
}

/* maximumNumber / minimumNumber */
static double fmaxnum(double a, double b, bool max)
{
    if (isnan(a)) {
        return b;
    }
    if (isnan(b)) {
        return a;
    }
    if (a == b && a == 0) {
        return (signbit(a) != 0) == max ? b : a;
    }
    return max ? (a > b ? a : b) : (a < b ? a : b);
}

static int64_t wrap(const Dt *t, uint64_t v)
{
    unsigned sh = 64 - 8 * t->size;

    return t->kind == K_I ? (int64_t)(v << sh) >> sh : (int64_t)((v << sh) >> sh);
}

static double fbin(const char *op, double x, double y)
{
    if (!strcmp(op, "TADD")) return x + y;
    if (!strcmp(op, "TSUB")) return x - y;
    if (!strcmp(op, "TMUL")) return x * y;
    if (!strcmp(op, "TDIV")) return x / y;
    if (!strcmp(op, "TMAX")) return fmaxnum(x, y, true);
    if (!strcmp(op, "TMIN")) return fmaxnum(x, y, false);
    return x > 0 ? x : x * y; /* TPRELU */
}

static int64_t ibin(const Dt *t, const char *op, int64_t x, int64_t y)
{
    unsigned nb = 8 * t->size;
    uint64_t amount = (uint64_t)y & (nb == 64 ? ~UINT64_C(0) : (UINT64_C(1) << nb) - 1);

    if (!strcmp(op, "TADD")) return wrap(t, (uint64_t)x + (uint64_t)y);
    if (!strcmp(op, "TSUB")) return wrap(t, (uint64_t)x - (uint64_t)y);
    if (!strcmp(op, "TMUL")) return wrap(t, (uint64_t)x * (uint64_t)y);
    if (!strcmp(op, "TDIV")) {
        if (y == 0 || (t->kind == K_I && y == -1 && x == -(INT64_C(1) << (nb - 1)))) {
            return 0;
        }
        return wrap(t, (uint64_t)(x / y));
    }
    if (!strcmp(op, "TMAX")) return x > y ? x : y;
    if (!strcmp(op, "TMIN")) return x < y ? x : y;
    if (!strcmp(op, "TAND")) return x & y;
    if (!strcmp(op, "TOR")) return x | y;
    if (!strcmp(op, "TXOR")) return x ^ y;
    if (!strcmp(op, "TSHL")) return amount >= nb ? 0 : wrap(t, (uint64_t)x << amount);
    if (!strcmp(op, "TSHR")) {
        if (amount >= nb) {
            return t->kind == K_I && x < 0 ? -1 : 0;
        }
        return x >> amount; /* x is sign-extended for signed types, zero for unsigned */
    }
    return x > 0 ? x : wrap(t, (uint64_t)x * (uint64_t)y);
}

static double funary(const char *op, double x)
{
    if (!strcmp(op, "TRELU")) return x > 0 ? x : 0.0;
    if (!strcmp(op, "TEXP")) return exp(x);
    if (!strcmp(op, "TLOG")) return log(x);
    if (!strcmp(op, "TSQRT")) return sqrt(x);
    if (!strcmp(op, "TRSQRT")) return 1.0 / sqrt(x);
    return 1.0 / x; /* TRECIP */
}

static void eltwise(Run *r)
{
    const Dt *t = dt_find(def(r, "DTYPE"));
    const char *op = def(r, "OP");
    uint64_t vc = (uint64_t)P(r, 0), vr = (uint64_t)P(r, 1), cols = (uint64_t)P(r, 2);
    uint64_t tb = (uint64_t)P(r, 3), es = t->size, rows = tb / (cols * es);
    uint64_t sbits = (uint64_t)P(r, 8);
    bool dn;
    char lay;
    const uint8_t *gx = region(r, "gx", 8192), *gy = region(r, "gy", 8192);
    uint8_t *out = region(r, "out", 4096), sc[8];
    size_t olen = strlen(op);
    bool scalar = olen > 1 && op[olen - 1] == 'S' && strcmp(op, "TEXPANDS") != 0;
    char base[16];

    selector(def(r, "LAYOUT"), &dn, &lay);
    snprintf(base, sizeof(base), "%.*s", (int)(scalar ? olen - 1 : olen), op);
    st(sc, (unsigned)es, sbits);
    memset(out, 0, tb);
#define X(i, j) (gx + ((dn ? (j) * rows + (i) : (i) * cols + (j)) * es))
#define Y(i, j) (scalar ? sc : gy + ((dn ? (j) * rows + (i) : (i) * cols + (j)) * es))
#define O(i, j) (out + tile_off(lay, i, j, rows, cols, (unsigned)es) * es)
    if (!strcmp(op, "TTRANSPOSE")) {
        for (uint64_t i = 0; i < vr; i++) {
            for (uint64_t j = 0; j < vc; j++) {
                memcpy(out + (j * rows + i) * es, X(i, j), es);
            }
        }
        return;
    }
    if (!strncmp(op, "TROW", 4) || !strncmp(op, "TCOL", 4)) {
        bool row = op[1] == 'R';
        const char *what = op + 4;
        if (!strcmp(what, "EXPAND")) {
            for (uint64_t i = 0; i < vr; i++) {
                for (uint64_t j = 0; j < vc; j++) {
                    memcpy(O(i, j), row ? X(i, 0) : X(0, j), es);
                }
            }
            return;
        }
        for (uint64_t a = 0; a < (row ? vr : vc); a++) {
            uint8_t acc[8];
            memcpy(acc, row ? X(a, 0) : X(0, a), es);
            for (uint64_t b = 1; b < (row ? vc : vr); b++) {
                const uint8_t *e = row ? X(a, b) : X(b, a);
                if (t->kind == K_F) {
                    double x = fget(t, acc), y = fget(t, e);
                    fset(t, acc, !strcmp(what, "SUM") ? x + y
                                 : fmaxnum(x, y, !strcmp(what, "MAX")));
                } else {
                    int64_t x = iget(t, acc), y = iget(t, e);
                    st(acc, (unsigned)es, (uint64_t)(!strcmp(what, "SUM") ? ibin(t, "TADD", x, y)
                                                    : !strcmp(what, "MAX") ? (x > y ? x : y)
                                                                           : (x < y ? x : y)));
                }
            }
            memcpy(row ? O(a, 0) : O(0, a), acc, es);
        }
        return;
    }
    for (uint64_t i = 0; i < vr; i++) {
        for (uint64_t j = 0; j < vc; j++) {
            uint8_t *o = O(i, j);
            if (!strcmp(op, "TEXPANDS")) {
                memcpy(o, sc, es);
            } else if (t->kind == K_F) {
                double x = fget(t, X(i, j));
                fset(t, o, olen && (!strcmp(base, "TRELU") || !strcmp(base, "TEXP") ||
                                    !strcmp(base, "TLOG") || !strcmp(base, "TSQRT") ||
                                    !strcmp(base, "TRSQRT") || !strcmp(base, "TRECIP"))
                               ? funary(base, x) : fbin(base, x, fget(t, Y(i, j))));
            } else {
                int64_t x = iget(t, X(i, j));
                st(o, (unsigned)es, (uint64_t)(!strcmp(base, "TRELU") ? (x > 0 ? x : 0)
                                               : ibin(t, base, x, iget(t, Y(i, j)))));
            }
        }
    }
#undef X
#undef Y
#undef O
}

/* the kernels suite: LD/ST/TS defines name the element type */
static const Dt *lane_type(const char *ts)
{
    static const struct {
        const char *ts;
        const char *dt;
    } map[] = { { "sw", "S32" }, { "uw", "U32" }, { "sh", "S16" }, { "sb", "S8" },
                { "ub", "U8" },  { "fs", "FP32" }, { "fd", "FP64" }, { "fh", "FP16" } };

    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        if (!strcmp(map[i].ts, ts)) {
            return dt_find(map[i].dt);
        }
    }
    return dt_find("S32");
}

static void kernels(Run *r)
{
    const char *prog = r->c->program ? r->c->program : r->s->program;
    const Dt *t = lane_type(def(r, "TS"));
    unsigned es = t->size;

    if (strstr(prog, "vbin")) {
        const char *op = def(r, "OP");
        uint64_t n = (uint64_t)P(r, 0);
        uint8_t *a = region(r, "va", 32768), *b = region(r, "vb", 32768);
        uint8_t *c = region(r, "vc", 32768);
        static const char *const map[][2] = {
            { "v.add", "TADD" }, { "v.sub", "TSUB" }, { "v.mul", "TMUL" }, { "v.and", "TAND" },
            { "v.or", "TOR" },   { "v.xor", "TXOR" }, { "v.max", "TMAX" }, { "v.min", "TMIN" },
            { "v.fadd", "TADD" }, { "v.fsub", "TSUB" }, { "v.fmul", "TMUL" },
            { "v.fdiv", "TDIV" }, { "v.fmax", "TMAX" }, { "v.fmin", "TMIN" } };
        const char *top = "TADD";
        for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
            if (!strcmp(map[i][0], op)) {
                top = map[i][1];
            }
        }
        for (uint64_t i = 0; i < n; i++) {
            if (t->kind == K_F) {
                fset(t, c + i * es, fbin(top, fget(t, a + i * es), fget(t, b + i * es)));
            } else {
                st(c + i * es, es, (uint64_t)ibin(t, top, iget(t, a + i * es), iget(t, b + i * es)));
            }
        }
    } else if (strstr(prog, "reduce") || strstr(prog, "matvec")) {
        bool mv = strstr(prog, "matvec") != NULL;
        const char *op = def(r, "RD");
        uint64_t cols = (uint64_t)P(r, 0), rows = (uint64_t)P(r, 1);
        const uint8_t *x = region(r, mv ? "ma" : "vx", 65536);
        const float *xv = (const float *)(void *)region(r, "vx", 8192);
        uint8_t *y = region(r, "vy", 65536);
        for (uint64_t i = 0; i < rows; i++) {
            float fa = 0;
            int64_t ia = 0;
            for (uint64_t j = 0; j < cols; j++) {
                const uint8_t *e = x + (i * cols + j) * 4;
                if (mv) {
                    float pr;
                    memcpy(&pr, e, 4);
                    pr = pr * xv[j];
                    fa = j ? fa + pr : pr;
                } else if (op[4] == 'f') {
                    float v;
                    memcpy(&v, e, 4);
                    fa = j == 0 ? v : !strcmp(op, "v.rdfadd") ? fa + v
                                    : (float)fmaxnum(fa, v, !strcmp(op, "v.rdfmax"));
                } else {
                    int64_t v = iget(t, e);
                    ia = j == 0 ? v : !strcmp(op, "v.rdadd") ? wrap(t, (uint64_t)ia + (uint64_t)v)
                                    : !strcmp(op, "v.rdmax") ? (ia > v ? ia : v)
                                    : !strcmp(op, "v.rdmin") ? (ia < v ? ia : v)
                                    : !strcmp(op, "v.rdand") ? (ia & v)
                                    : !strcmp(op, "v.rdor") ? (ia | v) : (ia ^ v);
                }
            }
            for (uint64_t j = 0; j < cols; j++) {
                if (mv || op[4] == 'f') {
                    memcpy(y + (i * cols + j) * 4, &fa, 4);
                } else {
                    st(y + (i * cols + j) * 4, 4, (uint64_t)ia);
                }
            }
        }
    } else {
        const char *act = def(r, "ACT");
        uint64_t n = (uint64_t)P(r, 0);
        uint8_t *x = region(r, "vx", 32768), *y = region(r, "vy", 32768), ab[8];
        double alpha;
        st(ab, es, (uint64_t)P(r, 1));
        alpha = fget(t, ab);
        for (uint64_t i = 0; i < n; i++) {
            double v = fget(t, x + i * es), res;
            if (!strcmp(act, "relu")) {
                res = fmaxnum(v, 0, true);
            } else {
                uint8_t tmp[8];
                fset(t, tmp, v * alpha);
                res = !strcmp(act, "leaky") ? fmaxnum(v, fget(t, tmp), true)
                                            : fget(t, y + i * es) + fget(t, tmp);
            }
            fset(t, y + i * es, res);
        }
    }
}

static void softmax_rows(const float *x, float *y, uint64_t rows, uint64_t cols)
{
    for (uint64_t i = 0; i < rows; i++) {
        float m = x[i * cols], s = 0;
        for (uint64_t j = 1; j < cols; j++) {
            m = x[i * cols + j] > m ? x[i * cols + j] : m;
        }
        for (uint64_t j = 0; j < cols; j++) {
            y[i * cols + j] = (float)exp((double)(x[i * cols + j] - m));
            s = j ? s + y[i * cols + j] : y[i * cols + j];
        }
        for (uint64_t j = 0; j < cols; j++) {
            y[i * cols + j] /= s;
        }
    }
}

/* The operator a suite holds: its name, or for the benchmark sizes of
 * tests/optest/large ("large-gemm") the suite whose programs they run. */
static const char *suite_kind(const OptSuite *s)
{
    return g_str_has_prefix(s->name, "large-") ? s->name + strlen("large-") : s->name;
}

/* The five first suites (hand-written manifests) and softmax shapes. */
static bool small_suites(Run *r)
{
    const char *name = suite_kind(r->s);

    if (!strcmp(name, "vadd")) {
        const float *a = (const float *)(void *)region(r, "va", 16384);
        const float *b = (const float *)(void *)region(r, "vb", 16384);
        float *c = (float *)(void *)region(r, "vc", 16384);
        for (uint64_t i = 0; i < arg(r, 0); i++) {
            c[i] = a[i] + b[i];
        }
    } else if (!strcmp(name, "relu")) {
        const float *x = (const float *)(void *)region(r, "vx", 16384);
        float *y = (float *)(void *)region(r, "vy", 16384), alpha;
        uint32_t ab = (uint32_t)arg(r, 1);
        memcpy(&alpha, &ab, 4);
        for (uint64_t i = 0; i < arg(r, 0); i++) {
            y[i] = x[i] > 0 ? x[i] : x[i] * alpha;
        }
    } else if (!strcmp(name, "softmax") ||
               (!strcmp(name, "kernels") && strstr(r->c->program ? r->c->program : "",
                                                   "softmax"))) {
        softmax_rows((const float *)(void *)region(r, "vx", 32768),
                     (float *)(void *)region(r, "vy", 32768), arg(r, 1), arg(r, 0));
    } else if (!strcmp(name, "matmul")) {
        const Dt *t = dt_find("FP16");
        float *c = (float *)(void *)region(r, "mc", 1024);
        mm_tile(t, region(r, "ma", 2048), 128, region(r, "mb", 2048), 32, 16, 16, 32, c, NULL,
                true);
        mm_tile(t, region(r, "ma", 2048) + 64, 128, region(r, "mb", 2048) + 1024, 32, 16, 16, 32,
                c, NULL, false);
    } else if (!strcmp(name, "tepl")) {
        const float *x = (const float *)(void *)region(r, "mx", 4096);
        const float *y = (const float *)(void *)region(r, "my", 4096);
        float *z = (float *)(void *)region(r, "mz", 4096), s;
        uint32_t sb = (uint32_t)arg(r, 0);
        memcpy(&s, &sb, 4);
        for (int i = 0; i < 1024; i++) {
            float v = s * x[i] + y[i];
            z[i] = v > 0 ? v : 0;
        }
    } else {
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------------
 * The native harness
 * --------------------------------------------------------------------- */

typedef struct Stat {
    char *suite;
    unsigned cases, matched;
    double native_e2e, native_op;  /* seconds */
    double emu_time, emu_run;      /* sums over the -j 1 report */
    double r_e2e, r_op, r_time, r_run; /* the same in the current round */
} Stat;

static bool native_case(const OptSuite *s, const OptCase *c, double *op_time, char *why,
                        size_t whylen)
{
    Run r;
    bool ok = true;
    double t0;
    OptTensor params = { 0 };

    memset(&r, 0, sizeof(r));
    r.s = s;
    r.c = c;
    r.defs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    if (c->defines) {
        gchar **d = g_strsplit_set(c->defines, " \t", -1);
        for (gchar **p = d; *p; p++) {
            char *eq = strchr(*p, '=');
            if (eq) {
                g_hash_table_insert(r.defs, g_strndup(*p, (gsize)(eq - *p)), g_strdup(eq + 1));
            }
        }
        g_strfreev(d);
    }
    for (unsigned i = 0; i < c->ninputs && ok; i++) {
        char *path = opt_case_file(s, c, c->inputs[i].file);
        OptTensor t;
        char err[256];
        ok = opt_tensor_read(path, c->inputs[i].dtype, &t, err, sizeof(err));
        g_free(path);
        if (!ok) {
            snprintf(why, whylen, "%s", err);
            break;
        }
        memcpy(region(&r, place_name(&c->inputs[i].at), c->inputs[i].at.addr + t.bytes + 8) +
                   c->inputs[i].at.addr,
               t.data, t.bytes);
        if (c->inputs[i].at.symbol && !strcmp(c->inputs[i].at.symbol, "params")) {
            params = t;
            r.params = (const int64_t *)(void *)params.data;
            r.nparams = t.bytes / 8;
        } else {
            opt_tensor_free(&t);
        }
    }
    t0 = now();
    if (ok && !small_suites(&r)) {
        const char *kind = suite_kind(s);
        if (!strcmp(kind, "tma")) {
            tma(&r);
        } else if (!strcmp(kind, "loaddata")) {
            loaddata(&r);
        } else if (!strcmp(kind, "cube")) {
            cube(&r);
        } else if (!strcmp(kind, "gemm")) {
            gemm(&r);
        } else if (!strcmp(kind, "attention")) {
            attention(&r);
        } else if (!strcmp(kind, "eltwise")) {
            eltwise(&r);
        } else if (!strcmp(kind, "kernels")) {
            kernels(&r);
        } else if (!strcmp(kind, "buffers")) {
            buffers(&r);
        } else {
            snprintf(why, whylen, "no native operator for suite %s", s->name);
            ok = false;
        }
    }
    *op_time = now() - t0;
    for (unsigned i = 0; i < c->noutputs && ok; i++) {
        const OptOutput *out = &c->outputs[i];
        char *path = opt_case_file(s, c, out->golden);
        OptTensor g;
        OptCompare cmp;
        char err[256];
        ok = opt_tensor_read(path, out->dtype, &g, err, sizeof(err));
        g_free(path);
        if (ok) {
            uint8_t *got = region(&r, place_name(&out->at), out->at.addr + g.bytes) +
                           out->at.addr;
            ok = opt_compare(g.dtype, got, &g, &out->tol, &cmp);
            if (!ok) {
                char coord[64], vals[160];
                opt_format_coord(&cmp, coord, sizeof(coord));
                opt_format_values(g.dtype, &cmp, vals, sizeof(vals));
                snprintf(why, whylen, "output %s: %zu of %zu differ, first at %s: %s", out->name,
                         cmp.mismatches, cmp.count, coord, vals);
            }
            opt_tensor_free(&g);
        } else {
            snprintf(why, whylen, "%s", err);
        }
    }
    for (unsigned i = 0; i < r.nmem; i++) {
        g_free(r.mem[i].sym);
        g_free(r.mem[i].data);
    }
    opt_tensor_free(&params);
    g_hash_table_destroy(r.defs);
    return ok;
}

static double cpu_children(void)
{
    struct rusage ru;

    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static double cpu_self(void)
{
    struct timespec t;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Run linx-optest; the wall time (and in @cpu the CPU time of it and its
 * workers), the report in @json. */
static double emulated(const char *optest, const char *data, GPtrArray *paths, const char *jobs,
                       const char *json, char **filters, unsigned nfilters, double *cpu)
{
    GPtrArray *argv = g_ptr_array_new();
    double t0 = now(), c0 = cpu_children(), t;
    gint status = 0;
    GError *ge = NULL;

    g_ptr_array_add(argv, (char *)optest);
    g_ptr_array_add(argv, "-q");
    g_ptr_array_add(argv, "--no-progress");
    g_ptr_array_add(argv, "-j");
    g_ptr_array_add(argv, (char *)jobs);
    g_ptr_array_add(argv, "-D");
    g_ptr_array_add(argv, (char *)data);
    g_ptr_array_add(argv, "--json");
    g_ptr_array_add(argv, (char *)json);
    for (unsigned i = 0; i < nfilters; i++) {
        g_ptr_array_add(argv, "-k");
        g_ptr_array_add(argv, filters[i]);
    }
    for (guint i = 0; i < paths->len; i++) {
        g_ptr_array_add(argv, g_ptr_array_index(paths, i));
    }
    g_ptr_array_add(argv, NULL);
    if (!g_spawn_sync(NULL, (gchar **)argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                      NULL, NULL, &status, &ge)) {
        fprintf(stderr, "bench-optest: cannot run %s: %s\n", optest, ge->message);
        exit(1);
    }
    t = now() - t0;
    *cpu = cpu_children() - c0;
    g_ptr_array_free(argv, TRUE);
    if (!g_spawn_check_wait_status(status, NULL)) {
        fprintf(stderr, "bench-optest: linx-optest -j %s failed (status %d): the suite must pass "
                "before it is timed\n", jobs, status);
        exit(1);
    }
    return t;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_manifests(const char *dir, GPtrArray *out)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *e;
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

    while (d && (e = g_dir_read_name(d))) {
        g_ptr_array_add(names, g_strdup(e));
    }
    if (d) {
        g_dir_close(d);
    }
    if (names->len > 1) {
        qsort(names->pdata, names->len, sizeof(char *), cmp_str);
    }
    for (guint i = 0; i < names->len; i++) {
        char *p = g_build_filename(dir, g_ptr_array_index(names, i), NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR)) {
            find_manifests(p, out);
            g_free(p);
        } else if (g_str_has_suffix(p, ".optest")) {
            g_ptr_array_add(out, p);
        } else {
            g_free(p);
        }
    }
    g_ptr_array_free(names, TRUE);
}

static Stat *stat_for(GPtrArray *stats, const char *suite)
{
    Stat *st;

    for (guint i = 0; i < stats->len; i++) {
        st = g_ptr_array_index(stats, i);
        if (!strcmp(st->suite, suite)) {
            return st;
        }
    }
    st = g_new0(Stat, 1);
    st->suite = g_strdup(suite);
    g_ptr_array_add(stats, st);
    return st;
}

/* One set of suites measured on its own: the operator suite, or the
 * benchmark sizes (manifests under a directory named "large"). */
typedef struct Set {
    const char *what;
    GPtrArray *manifests;          /* paths (not owned) */
    unsigned ncases, native_fail;
    double native_total, native_ops, native_cpu;
    double j1, j1_cpu, j2;
    double sum_time, sum_run, sum_start, sum_load, sum_check; /* the best -j 1 round */
} Set;

static bool selected(const char *full, const char *name, char **filters, unsigned nfilters)
{
    bool sel = nfilters == 0;

    for (unsigned k = 0; k < nfilters && !sel; k++) {
        sel = fnmatch(filters[k], full, 0) == 0 ||
              (!strchr(filters[k], '/') && fnmatch(filters[k], name, 0) == 0);
    }
    return sel;
}

/* One round of @set: native, then -j 1 and -j 2; best figures kept. */
static bool measure(Set *set, unsigned round, GPtrArray *stats, const OptDataOptions *dopt,
                    const char *optest, const char *data, char **filters, unsigned nfilters,
                    const char *json1, const char *json2)
{
    double t0 = now(), c0 = cpu_self(), ops = 0, t, cpu;

    set->native_fail = 0;
    set->ncases = 0;
    for (guint i = 0; i < stats->len; i++) {
        Stat *st = g_ptr_array_index(stats, i);
        st->r_e2e = st->r_op = 0;
    }
    for (guint m = 0; m < set->manifests->len; m++) {
        OptSuite s;
        char err[1024];
        if (!opt_suite_load(g_ptr_array_index(set->manifests, m), dopt, &s, err, sizeof(err))) {
            fprintf(stderr, "bench-optest: %s\n", err);
            return false;
        }
        for (unsigned i = 0; i < s.ncases; i++) {
            char full[512], why[512] = "";
            double op = 0, ct = now();
            Stat *st;
            snprintf(full, sizeof(full), "%s/%s", s.name, s.cases[i].name);
            if (!selected(full, s.cases[i].name, filters, nfilters) || s.cases[i].skip) {
                continue;
            }
            set->ncases++;
            st = stat_for(stats, s.name);
            if (native_case(&s, &s.cases[i], &op, why, sizeof(why))) {
                st->matched += round == 0;
            } else {
                set->native_fail++;
                if (round == 0) {
                    printf("native %s: %s\n", full, why);
                }
            }
            st->cases += round == 0;
            st->r_e2e += now() - ct;
            st->r_op += op;
            ops += op;
        }
        opt_suite_free(&s);
    }
    t = now() - t0;
    cpu = cpu_self() - c0;
    if (t < set->native_total) {
        set->native_total = t;
        set->native_ops = ops;
    }
    set->native_cpu = cpu < set->native_cpu ? cpu : set->native_cpu;
    for (guint i = 0; i < stats->len; i++) {
        Stat *st = g_ptr_array_index(stats, i);
        if (st->r_e2e > 0 && (st->native_e2e == 0 || st->r_e2e < st->native_e2e)) {
            st->native_e2e = st->r_e2e;
            st->native_op = st->r_op;
        }
    }
    if (set->ncases == 0) {
        return true;
    }

    /* emulated -j 1 (its report: per suite and per case figures) */
    t = emulated(optest, data, set->manifests, "1", json1, filters, nfilters, &cpu);
    set->j1_cpu = cpu < set->j1_cpu ? cpu : set->j1_cpu;
    {
        gchar *text = NULL;
        gsize len = 0;
        char err[256];
        JsonValue *rep;
        const JsonValue *cases;
        double r_time = 0, r_run = 0, r_start = 0, r_load = 0, r_check = 0;
        if (!g_file_get_contents(json1, &text, &len, NULL) ||
            !(rep = json_parse(text, len, err, sizeof(err)))) {
            fprintf(stderr, "bench-optest: cannot read %s\n", json1);
            return false;
        }
        for (guint i = 0; i < stats->len; i++) {
            Stat *st = g_ptr_array_index(stats, i);
            st->r_time = st->r_run = 0;
        }
        cases = json_get(rep, "cases");
        for (size_t i = 0; cases && i < cases->n; i++) {
            const JsonValue *c = cases->items[i], *ph = json_get(c, "phases");
            Stat *st = stat_for(stats, json_string(json_get(c, "suite")));
            double ct = json_number(json_get(c, "time"), 0);
            double run = json_number(json_get(ph, "run"), 0);
            st->r_time += ct;
            st->r_run += run;
            r_time += ct;
            r_run += run;
            r_start += json_number(json_get(ph, "start"), 0);
            r_load += json_number(json_get(ph, "load"), 0);
            r_check += json_number(json_get(ph, "check"), 0);
        }
        json_free(rep);
        g_free(text);
        for (guint i = 0; i < stats->len; i++) {
            Stat *st = g_ptr_array_index(stats, i);
            if (st->r_time > 0 && (st->emu_time == 0 || st->r_time < st->emu_time)) {
                st->emu_time = st->r_time;
                st->emu_run = st->r_run;
            }
        }
        if (t < set->j1) {
            set->j1 = t;
            set->sum_time = r_time;
            set->sum_run = r_run;
            set->sum_start = r_start;
            set->sum_load = r_load;
            set->sum_check = r_check;
        }
    }

    /* emulated -j 2 */
    t = emulated(optest, data, set->manifests, "2", json2, filters, nfilters, &cpu);
    set->j2 = t < set->j2 ? t : set->j2;
    return true;
}

static void print_set(const Set *set, GPtrArray *stats, bool large, bool headline)
{
    unsigned n = set->ncases;

    if (n == 0) {
        return;
    }
    printf("\n%s: %u cases, native reference matches the goldens in %u of them\n", set->what, n,
           n - set->native_fail);
    printf("%-16s %6s %12s %12s %14s %12s %8s\n", "suite", "cases", "native e2e", "native op",
           "emulated -j1", "guest run", "ratio");
    for (guint i = 0; i < stats->len; i++) {
        Stat *st = g_ptr_array_index(stats, i);
        if (g_str_has_prefix(st->suite, "large-") != large || st->cases == 0) {
            continue;
        }
        printf("%-16s %6u %9.2f ms %9.2f ms %11.2f ms %9.2f ms %7.1fx\n", st->suite, st->cases,
               st->native_e2e * 1e3, st->native_op * 1e3, st->emu_time * 1e3, st->emu_run * 1e3,
               st->native_e2e > 0 ? st->emu_time / st->native_e2e : 0);
    }
    printf("end to end: native %.3f s (operators %.3f s), linx-optest -j 1 %.3f s: "
           "emulated / native %.2fx%s\n",
           set->native_total, set->native_ops, set->j1, set->j1 / set->native_total,
           headline ? " (goal <= 1.5x)" : "");
    printf("CPU time: native %.3f s, linx-optest -j 1 %.3f s (runner and workers): "
           "emulated / native %.2fx\n",
           set->native_cpu, set->j1_cpu, set->j1_cpu / set->native_cpu);
    printf("-j 2 %.3f s: -j 2 / -j 1 speed-up %.2fx%s\n", set->j2, set->j1 / set->j2,
           headline ? " (goal >= 1.8x on 2 cores)" : "");
    printf("per case: %.3f ms in all, guest run (translation and execution) %.3f ms, "
           "overhead %.3f ms%s: machine set-up %.3f, program build and input load %.3f, "
           "comparison %.3f, runner <-> worker %.3f\n",
           set->sum_time / n * 1e3, set->sum_run / n * 1e3,
           (set->sum_time - set->sum_run) / n * 1e3, headline ? " (goal < 2 ms)" : "",
           set->sum_start / n * 1e3, set->sum_load / n * 1e3, set->sum_check / n * 1e3,
           (set->sum_time - set->sum_run - set->sum_start - set->sum_load - set->sum_check) / n *
               1e3);
}

int main(int argc, char **argv)
{
    const char *optest = NULL, *data = NULL, *dir = NULL;
    char *filters[16];
    unsigned nfilters = 0, rounds = 3;
    GPtrArray *manifests = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *stats = g_ptr_array_new();
    OptDataOptions dopt = { NULL, NULL };
    char tmpdir[] = "/tmp/bench-optest-XXXXXX";
    char *json1, *json2;
    Set sets[2];
    int rc = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--optest") && i + 1 < argc) {
            optest = argv[++i];
        } else if (!strcmp(argv[i], "--data") && i + 1 < argc) {
            data = argv[++i];
        } else if (!strcmp(argv[i], "-k") && i + 1 < argc && nfilters < 16) {
            filters[nfilters++] = argv[++i];
        } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = (unsigned)atoi(argv[++i]);
        } else if (argv[i][0] != '-') {
            dir = argv[i];
        } else {
            fprintf(stderr, "usage: bench-optest --optest LINX_OPTEST --data ROOT [-k GLOB] "
                    "[--rounds N] DIR\n");
            return 2;
        }
    }
    if (!optest || !data || !dir || rounds == 0) {
        fprintf(stderr, "usage: bench-optest --optest LINX_OPTEST --data ROOT [-k GLOB] "
                "[--rounds N] DIR\n");
        return 2;
    }
    dopt.data_root = data;
    find_manifests(dir, manifests);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    json1 = g_build_filename(tmpdir, "j1.json", NULL);
    json2 = g_build_filename(tmpdir, "j2.json", NULL);
    memset(sets, 0, sizeof(sets));
    sets[0].what = "operator suite";
    sets[1].what = "benchmark sizes (tests/optest/large: the operators' speed, not the headline)";
    for (int k = 0; k < 2; k++) {
        sets[k].manifests = g_ptr_array_new();
        sets[k].native_total = sets[k].native_cpu = sets[k].j1 = sets[k].j1_cpu = 1e30;
        sets[k].j2 = 1e30;
    }
    for (guint i = 0; i < manifests->len; i++) {
        char *m = g_ptr_array_index(manifests, i);
        g_ptr_array_add(sets[strstr(m, "/large/") ? 1 : 0].manifests, m);
    }

    /* Rounds interleave native, -j 1 and -j 2 of each set (the machine is
     * shared: each gets the same chances); every figure is the best of
     * its rounds, per suite too. */
    for (unsigned round = 0; round < rounds; round++) {
        for (int k = 0; k < 2; k++) {
            if (!measure(&sets[k], round, stats, &dopt, optest, data, filters, nfilters, json1,
                         json2)) {
                return 1;
            }
        }
    }
    unlink(json1);
    unlink(json2);
    rmdir(tmpdir);
    if (sets[0].ncases + sets[1].ncases == 0) {
        fprintf(stderr, "bench-optest: no case selected\n");
        return 2;
    }
    printf("bench-optest: best of %u interleaved rounds\n", rounds);
    print_set(&sets[0], stats, false, true);
    print_set(&sets[1], stats, true, false);
    for (int k = 0; k < 2; k++) {
        rc |= sets[k].native_fail != 0;
        g_ptr_array_free(sets[k].manifests, TRUE);
    }
    for (guint i = 0; i < stats->len; i++) {
        Stat *st = g_ptr_array_index(stats, i);
        g_free(st->suite);
        g_free(st);
    }
    g_ptr_array_free(stats, TRUE);
    g_ptr_array_free(manifests, TRUE);
    g_free(json1);
    g_free(json2);
    return rc;
}
