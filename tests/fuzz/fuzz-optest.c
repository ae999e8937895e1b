/*
 * Fuzz target for linx-optest's readers of outside input (issue 17): the
 * .npy reader (opt_tensor_parse), the manifest reader with its [matrix]
 * expansion (opt_suite_load) and the JSON reader of shard reports
 * (json_parse, which 'linx-optest merge' uses).
 *
 * The first byte of an input picks the reader (0: .npy, 1: manifest,
 * 2: JSON), the second the dtype the .npy reader is asked for; the rest is
 * the file.  Invariants: no crash, no leak (LeakSanitizer under
 * libFuzzer), no read outside the input; a refusal has a message; an
 * accepted .npy has elements x size = bytes and its shape's product as
 * the element count; an accepted manifest has cases, each with a name
 * without '/', an output (or an expected trap) and a program; an accepted JSON value can be
 * walked.
 *
 * Built two ways:
 *  - with clang -fsanitize=fuzzer -DLINX_FUZZ_LIBFUZZER
 *    (tests/fuzz/run-optest.sh): libFuzzer calls LLVMFuzzerTestOneInput;
 *  - as a normal program (meson test "fuzz-optest"): main() feeds COUNT
 *    generated inputs, mutations of valid .npy files, manifests and
 *    reports (bit flips, truncations, insertions, token swaps); given
 *    files or directories instead, it replays them (meson test
 *    "fuzz-optest-corpus": tests/fuzz/corpus/fuzz-optest/, where every
 *    reproducer libFuzzer found is kept as a regression test).
 */
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/linx-optest/json.h"
#include "tools/linx-optest/optest.h"

static void fuzz_fail(const char *what, const uint8_t *data, size_t size, const char *detail)
{
    fprintf(stderr, "fuzz-optest: %s\n  input (%zu bytes):", what, size);
    for (size_t i = 0; i < size && i < 48; i++) {
        fprintf(stderr, " %02x", data[i]);
    }
    fprintf(stderr, "\n  %s\n", detail ? detail : "");
    abort();
}

static const OptDType want_types[] = {
    OPT_DT_NONE, OPT_DT_F32, OPT_DT_BF16, OPT_DT_U16, OPT_DT_I8, OPT_DT_U64, OPT_DT_F64,
};

static void check_npy(const uint8_t *data, size_t size, uint8_t sel, const uint8_t *all,
                      size_t alln)
{
    OptDType want = want_types[sel % (sizeof(want_types) / sizeof(want_types[0]))];
    OptTensor t;
    char err[512];

    err[0] = 0;
    if (!opt_tensor_parse("fuzz.npy", data, size, true, want, &t, err, sizeof(err))) {
        if (!err[0] || t.data || t.bytes) {
            fuzz_fail("a refusal without a message or with data", all, alln, err);
        }
        return;
    }
    {
        size_t n = opt_tensor_count(&t), prod = 1;
        unsigned es = opt_dtype_size(t.dtype);
        volatile double sum = 0;

        for (unsigned i = 0; i < t.ndim; i++) {
            prod *= t.shape[i];
        }
        if (n * es != t.bytes || prod != n || t.bytes > size || t.ndim > OPT_MAX_SHAPE) {
            fuzz_fail("accepted .npy: sizes disagree", all, alln, NULL);
        }
        for (size_t i = 0; i < n; i++) {
            sum += opt_tensor_get(&t, i);
        }
        (void)sum; /* read every element (clang: set but not used otherwise) */
        if (n) {
            /* compare with itself: the comparison reads every element */
            OptTolerance tol = { 0, 0, 0, true };
            OptCompare c;
            char buf[256];
            if (!opt_compare(t.dtype, t.data, &t, &tol, &c)) {
                fuzz_fail("a tensor differs from itself", all, alln, NULL);
            }
            opt_format_coord(&c, buf, sizeof(buf));
            opt_format_values(t.dtype, &c, buf, sizeof(buf));
        }
    }
    opt_tensor_free(&t);
}

static void check_manifest(const uint8_t *data, size_t size, const uint8_t *all, size_t alln,
                           const char *path)
{
    OptSuite s;
    char err[2048];
    FILE *f = fopen(path, "wb");

    if (!f) {
        fuzz_fail("cannot write the manifest file", all, alln, path);
    }
    if (size && fwrite(data, 1, size, f) != size) {
        fuzz_fail("cannot write the manifest file", all, alln, path);
    }
    fclose(f);
    err[0] = 0;
    if (!opt_suite_load(path, NULL, &s, err, sizeof(err))) {
        if (!err[0] || strncmp(err, path, strlen(path)) != 0) {
            fuzz_fail("a refusal that does not name the file", all, alln, err);
        }
        return;
    }
    if (s.ncases == 0 || !s.name || !s.name[0]) {
        fuzz_fail("accepted manifest without cases or name", all, alln, NULL);
    }
    for (unsigned i = 0; i < s.ncases; i++) {
        const OptCase *c = &s.cases[i];
        if (!c->name[0] || strchr(c->name, '/') || (c->noutputs == 0 && !c->expect_trap) ||
            (!c->program && !s.program)) {
            fuzz_fail("accepted manifest with a bad case", all, alln, c->name);
        }
        for (unsigned k = 0; k < c->noutputs; k++) {
            char *p = opt_case_file(&s, c, c->outputs[k].golden);
            g_free(p);
        }
    }
    opt_suite_free(&s);
}

static size_t walk(const JsonValue *v, unsigned depth)
{
    size_t n = 1;

    if (depth > 100) {
        return n;
    }
    for (size_t i = 0; i < v->n; i++) {
        n += walk(v->items[i], depth + 1);
        if (v->type == JSON_OBJECT && !v->keys[i]) {
            return 0;
        }
    }
    return n;
}

static void check_json(const uint8_t *data, size_t size, const uint8_t *all, size_t alln)
{
    char err[256];
    JsonValue *v;

    err[0] = 0;
    v = json_parse((const char *)data, size, err, sizeof(err));
    if (!v) {
        if (!err[0]) {
            fuzz_fail("a JSON refusal without a message", all, alln, NULL);
        }
        return;
    }
    if (walk(v, 0) == 0) {
        fuzz_fail("an object member without a key", all, alln, NULL);
    }
    json_get(v, "cases");
    json_string(json_get(v, "format"));
    json_free(v);
}

static const char *manifest_path(void)
{
    static char path[64]; /* one scratch file per process */

    if (!path[0]) {
        snprintf(path, sizeof(path), "/tmp/fuzz-optest-%d.optest", (int)getpid());
    }
    return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) {
        return 0;
    }
    switch (data[0] % 3) {
    case 0: check_npy(data + 2, size - 2, data[1], data, size); break;
    case 1: check_manifest(data + 2, size - 2, data, size, manifest_path()); break;
    default: check_json(data + 2, size - 2, data, size); break;
    }
    return 0;
}

#ifndef LINX_FUZZ_LIBFUZZER

/* ---------------------------------------------------------------------
 * Generated inputs: mutations of valid seeds
 * --------------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static GString *npy_seed(uint64_t *r)
{
    static const char *const descr[] = { "<f4", "<f2", "|i1", "<u2", "<i8", "<f8", "|b1",
                                         "|u1", ">i4", "<c8", "<U4", "=f4" };
    const char *d = descr[rng_next(r) % (sizeof(descr) / sizeof(descr[0]))];
    unsigned ndim = (unsigned)(rng_next(r) % 4), dims[3];
    size_t n = 1;
    unsigned es = (unsigned)(d[2] - '0');
    GString *h = g_string_new(NULL), *f = g_string_new(NULL);
    unsigned version = 1 + (unsigned)(rng_next(r) % 3);

    g_string_append_printf(h, "{'descr': '%s', 'fortran_order': %s, 'shape': (", d,
                           rng_next(r) % 8 ? "False" : "True");
    for (unsigned i = 0; i < ndim; i++) {
        dims[i] = (unsigned)(rng_next(r) % 6);
        n *= dims[i];
        g_string_append_printf(h, "%u%s", dims[i], ndim == 1 ? "," : i + 1 < ndim ? ", " : "");
    }
    g_string_append(h, "), }");
    while ((h->len + (version == 1 ? 11 : 13)) % 64) {
        g_string_append_c(h, ' ');
    }
    g_string_append_c(h, '\n');
    g_string_append_len(f, "\x93NUMPY", 6);
    g_string_append_c(f, (char)version);
    g_string_append_c(f, 0);
    if (version == 1) {
        uint16_t l = (uint16_t)h->len;
        g_string_append_len(f, (const char *)&l, 2);
    } else {
        uint32_t l = (uint32_t)h->len;
        g_string_append_len(f, (const char *)&l, 4);
    }
    g_string_append_len(f, h->str, h->len);
    for (size_t i = 0; i < n * (es ? es : 1) + (rng_next(r) % 4 == 0 ? 3 : 0); i++) {
        g_string_append_c(f, (char)rng_next(r));
    }
    g_string_free(h, TRUE);
    return f;
}

static const char *const manifests[] = {
    "[suite]\nname = s\nprogram = p.s\nrtol = 0\n[case a]\nargs = 1 2\n"
    "input.x = x.npy at vx+8 dtype f32\noutput.y = golden y.npy at vy ulp 2 nan-equal no\n",
    "[suite]\nprogram = p.S\ntimeout = 5\nram = 64\n[matrix m]\ndtype = f16, f32\n"
    "shape = 16x16, 40x50\nexclude = dtype=f16 shape=40*\nname = {matrix}-{dtype}-{shape.1}\n"
    "generate = gen.py {dtype} {shape.0} {out} {{x}}\ndefines = DT={dtype}\n"
    "input.x = x.npy at 0x1000\noutput.y = golden y.npy at vy atol 1e-3\n",
    "[suite]\nprogram = p.s\nmachine = user\n[case a]\nskip = later\nstatus = 3\n"
    "output.o = golden o.bin at out dtype u8\n[matrix]\nq = 2.5:0, 3:-1\n"
    "program = {q.0}.s\noutput.o = golden {q.1}.npy at o\n",
};

static const char *const reports[] = {
    "{\"format\": \"linx-optest-report\", \"version\": 1, \"cases\": [{\"name\": \"a/b\", "
    "\"got\": -1.5e-3, \"want\": \"nan\", \"s\": \"\\u00e9\\ud83d\\ude00\\n\", \"x\": [true, "
    "false, null, {}]}], \"shard\": {\"index\": 0, \"count\": 4}}",
    "[1, 2.0, -0, 1e+300, \"x\", [[[[]]]]]",
};

static GString *mutate(GString *g, uint64_t *r)
{
    unsigned n = 1 + (unsigned)(rng_next(r) % 6);

    for (unsigned k = 0; k < n && g->len; k++) {
        size_t at = rng_next(r) % g->len;
        switch (rng_next(r) % 6) {
        case 0: g->str[at] ^= (char)(1u << (rng_next(r) % 8)); break;
        case 1: g_string_truncate(g, at); break;
        case 2: g_string_insert_c(g, (gssize)at, (char)rng_next(r)); break;
        case 3: {
            size_t n = rng_next(r) % 8;
            g_string_erase(g, (gssize)at, (gssize)(n < g->len - at ? n : g->len - at));
            break;
        }
        case 4: {
            static const char *const tok[] = { "{", "}", "{{", "[", "]", ",", "=", "\n", "x",
                                               "\\", "\"", "'", "\xff", "(", ")", "999999999" };
            g_string_insert(g, (gssize)at, tok[rng_next(r) % 16]);
            break;
        }
        default:
            g->str[at] = (char)rng_next(r);
            break;
        }
    }
    return g;
}

static long replay(const char *path)
{
    long n = 0;

    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
        GDir *d = g_dir_open(path, 0, NULL);
        const char *e;
        while (d && (e = g_dir_read_name(d))) {
            char *p = g_build_filename(path, e, NULL);
            n += replay(p);
            g_free(p);
        }
        if (d) {
            g_dir_close(d);
        }
    } else {
        gchar *data = NULL;
        gsize len = 0;
        if (!g_file_get_contents(path, &data, &len, NULL)) {
            fprintf(stderr, "fuzz-optest: cannot read %s\n", path);
            exit(1);
        }
        LLVMFuzzerTestOneInput((const uint8_t *)data, len);
        g_free(data);
        n = 1;
    }
    return n;
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? strtol(argv[1], NULL, 0) : 20000;
    uint64_t r = 0x9e3779b97f4a7c15ull;

    if (argc > 1 && !g_ascii_isdigit(argv[1][0])) {
        long n = 0;
        for (int i = 1; i < argc; i++) {
            n += replay(argv[i]);
        }
        unlink(manifest_path());
        printf("fuzz-optest: %ld corpus inputs, no invariant broken\n", n);
        return n ? 0 : 1;
    }

    for (long i = 0; i < count; i++) {
        unsigned kind = (unsigned)(i % 3);
        GString *g, *in = g_string_new(NULL);

        if (kind == 0) {
            g = npy_seed(&r);
        } else if (kind == 1) {
            g = g_string_new(manifests[rng_next(&r) % 3]);
        } else {
            g = g_string_new(reports[rng_next(&r) % 2]);
        }
        if (rng_next(&r) % 4) {
            mutate(g, &r);
        }
        g_string_append_c(in, (char)kind);
        g_string_append_c(in, (char)rng_next(&r));
        g_string_append_len(in, g->str, g->len);
        LLVMFuzzerTestOneInput((const uint8_t *)in->str, in->len);
        g_string_free(g, TRUE);
        g_string_free(in, TRUE);
    }
    unlink(manifest_path());
    printf("fuzz-optest: %ld inputs, no invariant broken\n", count);
    return 0;
}

#endif /* LINX_FUZZ_LIBFUZZER */
