/*
 * linx-as on hostile inputs (issue 17): long .equ chains, unbounded
 * includes, section floods and NUL bytes inside a line.  Each input either
 * assembles to the value a hand computation gives or fails with a message
 * naming file:line:col and the rule; none crashes or runs away.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "linx-as.h"

enum { CHAIN = 20000 };

typedef struct Buf {
    char *p;
    size_t n, cap;
} Buf;

static void bprintf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void bprintf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    int k;

    if (b->cap - b->n < 256) {
        b->cap = b->cap ? 2 * b->cap : 1 << 16;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    va_start(ap, fmt);
    k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    assert_true(k > 0 && (size_t)k < b->cap - b->n);
    b->n += (size_t)k;
}

/* Assemble @src as a raw binary (base 0x10000); the first 8 bytes of the
 * image, or fail with the messages. */
static uint64_t first_quad(const char *src, size_t n)
{
    LinxAsOptions o;
    LinxAs *as;
    uint8_t *img = NULL;
    size_t len = 0;
    uint64_t v = 0;

    linx_as_default_options(&o);
    o.format = LINX_AS_FMT_BIN;
    as = linx_as_new(&o);
    linx_as_add_source(as, "chain.s", src, n);
    if (!linx_as_assemble(as)) {
        fail_msg("did not assemble:\n%s", linx_as_diagnostics(as));
    }
    assert_true(linx_as_output(as, &img, &len));
    assert_true(len >= 8);
    for (int i = 7; i >= 0; i--) {
        v = v << 8 | img[i];
    }
    free(img);
    linx_as_free(as);
    return v;
}

/* Each .equ names the next one, defined later: evaluating the first walks
 * the whole chain (it overflowed the C stack at about 20,000 links). */
static void test_equ_chain_forward_refs(void **state)
{
    Buf b = { 0 };
    (void)state;

    bprintf(&b, ".data\n.quad a0\n");
    for (int i = 0; i < CHAIN; i++) {
        bprintf(&b, ".equ a%d, a%d + 1\n", i, i + 1);
    }
    bprintf(&b, ".equ a%d, 5\n", CHAIN);
    assert_int_equal(first_quad(b.p, b.n), CHAIN + 5);
    free(b.p);
}

/* The chain ends at a label, so it is only known once sections have
 * addresses (pass 2): .data starts at 0x10000, lab is 8 bytes in. */
static void test_equ_chain_to_label(void **state)
{
    Buf b = { 0 };
    (void)state;

    bprintf(&b, ".data\n.quad x0\n");
    for (int i = 0; i < CHAIN; i++) {
        bprintf(&b, ".set x%d, x%d + 2\n", i, i + 1);
    }
    bprintf(&b, "x%d = lab - 8\nlab: .quad 0\n", CHAIN);
    assert_int_equal(first_quad(b.p, b.n), 0x10000 + 2 * CHAIN);
    free(b.p);
}

/* A cycle at the end of a long chain is still reported as a cycle. */
static void test_equ_chain_cycle(void **state)
{
    Buf b = { 0 };
    LinxAs *as = linx_as_new(NULL);
    (void)state;

    bprintf(&b, ".data\n.quad c0\n");
    for (int i = 0; i < CHAIN; i++) {
        bprintf(&b, ".equ c%d, c%d + 1\n", i, i + 1);
    }
    bprintf(&b, ".equ c%d, c100 * 2\n", CHAIN);
    linx_as_add_source(as, "cyc.s", b.p, b.n);
    assert_false(linx_as_assemble(as));
    assert_non_null(strstr(linx_as_diagnostics(as), "error: bad expression: circular definition"));
    linx_as_free(as);
    free(b.p);
}

/* An include of an endless file stops at the input size limit with a
 * message at the directive (it grew to gigabytes before). */
static void test_include_dev_zero(void **state)
{
    static const char src[] = ".data\n.byte 1\n  .include \"/dev/zero\"\n";
    LinxAs *as = linx_as_new(NULL);
    const char *d;
    (void)state;

    linx_as_add_source(as, "inc.s", src, strlen(src));
    assert_false(linx_as_assemble(as));
    d = linx_as_diagnostics(as);
    assert_non_null(strstr(d, "inc.s:3:3: error: bad directive: cannot read include file "
                              "'/dev/zero': larger than 128 MiB (the input size limit)"));
    linx_as_free(as);
}

/* The same limit for a source given directly. */
static void test_source_size_limits(void **state)
{
    size_t big = (size_t)LINX_AS_MAX_SOURCE_BYTES + 1;
    char *text = malloc(big);
    LinxAs *as;
    (void)state;

    assert_non_null(text);
    memset(text, '\n', big);
    as = linx_as_new(NULL);
    linx_as_add_source(as, "big.s", text, big);
    assert_false(linx_as_assemble(as));
    assert_non_null(strstr(linx_as_diagnostics(as), "'big.s' is larger than 128 MiB"));
    linx_as_free(as);
    free(text);
}

/* More sections than the writers take: the first one too many is an error
 * at its directive, and the flood stays cheap (70,000 distinct names took
 * over 10 s, each lookup walking every section). */
static void test_section_flood(void **state)
{
    Buf b = { 0 };
    LinxAs *as = linx_as_new(NULL);
    const char *d;
    (void)state;

    for (int i = 0; i < 70000; i++) {
        bprintf(&b, ".section .s%d, \"a\"\n.byte 1\n", i);
    }
    linx_as_add_source(as, "flood.s", b.p, b.n);
    assert_false(linx_as_assemble(as));
    d = linx_as_diagnostics(as);
    /* .text exists from the start: .s255 on line 511 is the 257th. */
    assert_non_null(strstr(d, "flood.s:511:1: error: bad directive: too many sections: '.s255' "
                              "would be number 257, at most 256"));
    linx_as_free(as);
    free(b.p);
}

/* Switching among a few sections 70,000 times is fine. */
static void test_section_switches(void **state)
{
    Buf b = { 0 };
    (void)state;

    bprintf(&b, ".data\n.quad 0\n");
    for (int i = 0; i < 70000; i++) {
        bprintf(&b, ".section .r%d, \"a\"\n.pushsection .data\n.popsection\n", i % 3);
    }
    bprintf(&b, ".data\n.quad 7\n");
    /* The .r sections stay empty: the image is .data, 0 then 7. */
    {
        LinxAsOptions o;
        LinxAs *as;
        uint8_t *img = NULL;
        size_t len = 0;
        linx_as_default_options(&o);
        o.format = LINX_AS_FMT_BIN;
        as = linx_as_new(&o);
        linx_as_add_source(as, "sw.s", b.p, b.n);
        if (!linx_as_assemble(as)) {
            fail_msg("%s", linx_as_diagnostics(as));
        }
        assert_true(linx_as_output(as, &img, &len));
        assert_int_equal(len, 16);
        assert_int_equal(img[8], 7);
        free(img);
        linx_as_free(as);
    }
    free(b.p);
}

/* Text after a NUL byte in a line is an error, not silently dropped. */
static void test_nul_in_line(void **state)
{
    static const char src[] = ".data\n.byte 1\0, 2\n.byte 3\n";
    LinxAs *as = linx_as_new(NULL);
    const char *d;
    (void)state;

    linx_as_add_source(as, "nul.s", src, sizeof(src) - 1);
    assert_false(linx_as_assemble(as));
    d = linx_as_diagnostics(as);
    assert_non_null(strstr(d, "nul.s:2:8: error: bad character: NUL byte in the line"));
    assert_int_equal(linx_as_error_count(as), 1);
    linx_as_free(as);
}

/* A NUL at the very end of the file (no newline after it) too. */
static void test_nul_at_end(void **state)
{
    static const char src[] = ".data\n.byte 1\0";
    LinxAs *as = linx_as_new(NULL);
    (void)state;

    linx_as_add_source(as, "end.s", src, sizeof(src) - 1);
    assert_false(linx_as_assemble(as));
    assert_non_null(strstr(linx_as_diagnostics(as), "end.s:2:8: error: bad character"));
    linx_as_free(as);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equ_chain_forward_refs),
        cmocka_unit_test(test_equ_chain_to_label),
        cmocka_unit_test(test_equ_chain_cycle),
        cmocka_unit_test(test_include_dev_zero),
        cmocka_unit_test(test_source_size_limits),
        cmocka_unit_test(test_section_flood),
        cmocka_unit_test(test_section_switches),
        cmocka_unit_test(test_nul_in_line),
        cmocka_unit_test(test_nul_at_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
