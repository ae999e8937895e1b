/*
 * linx-as error messages: many distinct bad inputs, each must fail with a
 * message that names file:line:column, the rule broken and the offending
 * text, and must produce no output.
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

typedef struct BadCase {
    const char *src;
    const char *where;   /* "t.s:LINE:COL" of the first message */
    const char *rule;    /* rule phrase */
    const char *text;    /* offending text quoted in the message */
} BadCase;

static const BadCase cases[] = {
    /* symbols */
    { ".word undefined_sym\n", "t.s:1:7", "undefined symbol", "'undefined_sym'" },
    { "x: .byte 1\nx: .byte 2\n", "t.s:2:1", "duplicate symbol", "'x'" },
    { "x: .byte 1\n.equ x, 2\n", "t.s:2:6", "duplicate symbol", "'x'" },
    { ".equ y, 1\n.equiv y, 2\n", "t.s:2:8", "duplicate symbol", "'.equiv y" },
    { ".equ a, b + 1\n.equ b, a + 1\n.word a\n", "t.s:1:8", "circular definition", "'b'" },
    { ".word 3b\n", "t.s:1:7", "undefined symbol", "'3b'" },
    { "1: .word 1f\n", "t.s:1:10", "undefined symbol", "'1f'" },
    /* directives */
    { ".foo 1\n", "t.s:1:1", "bad directive", "'.foo'" },
    { "  .p2align 99\n", "t.s:1:3", "bad directive", ".p2align 99" },
    { ".align 3\n", "t.s:1:1", "bad directive", "alignment 3" },
    { ".section\n", "t.s:1:9", "bad directive", "'.section' needs a section name" },
    { ".section .x, \"q\"\n", "t.s:1:1", "bad directive", "flag 'q'" },
    { ".section .x, \"a\", @weird\n", "t.s:1:20", "bad directive", "'weird'" },
    { ".equ\n", "t.s:1:5", "bad directive", "'.equ'" },
    { ".ascii \"abc\n", "t.s:1:8", "bad directive", "unterminated string" },
    { ".string\n", "t.s:1:8", "bad directive", "'.string' needs a string" },
    { ".word 1 2\n", "t.s:1:9", "bad directive", "'2'" },
    { ".byte 1\n.org 0\n", "t.s:2:6", "bad directive", ".org 0x0" },
    { ".type x, @weird\n", "t.s:1:11", "bad directive", "'weird'" },
    { ".popsection\n", "t.s:1:1", "bad directive", ".popsection" },
    { ".bss\n.word 1\n", "t.s:2:1", "bad directive", "'.word' puts data in NOBITS section '.bss'" },
    { ".include \"no-such-file.s\"\n", "t.s:1:1", "bad directive", "'no-such-file.s'" },
    { ".zero later\nlater:\n", "t.s:1:7", "expression not constant", "'later'" },
    /* values */
    { ".byte 300\n", "t.s:1:7", "immediate out of range", "300" },
    { ".half 70000\n", "t.s:1:7", "immediate out of range", "70000" },
    { ".word 0x100000000\n", "t.s:1:7", "immediate out of range", "0x100000000" },
    { ".zero -5\n", "t.s:1:1", "immediate out of range", "-5" },
    { ".word 1 << 99\n", "t.s:1:7", "immediate out of range", "shift count" },
    { ".quad 99999999999999999999\n", "t.s:1:7", "immediate out of range", "'99999999999999999999'" },
    /* expressions */
    { ".word 1/0\n", "t.s:1:7", "bad expression", "division by zero" },
    { ".word 0x\n", "t.s:1:7", "bad expression", "'0x'" },
    { ".word 09\n", "t.s:1:7", "bad expression", "'09'" },
    { ".word (1 + 2\n", "t.s:1:7", "bad expression", "expected ')'" },
    { ".quad 1, \n", "t.s:1:9", "bad expression", "expected an expression" },
    { ".zero 0x20000000\n", "t.s:1:1", "immediate out of range", "268435456 bytes" },
    /* template blocks */
    { "TSTORE.FOO <LB0:1, FP32>, T#1, [a0]\n", "t.s:1:8", "wrong operand kind", "'FOO'" },
    { "TSTORE <LB0:1, FP99>, T#1, [a0]\n", "t.s:1:16", "wrong operand kind", "'FP99'" },
    { "TSTORE <LB0:1, FP32>, T#9, [a0]\n", "t.s:1:23", "wrong operand kind", "'T#9'" },
    { "TSTORE <LB0:1, FP32>, [a0]\n", "t.s:1:8", "wrong operand kind", "at least one source tile" },
    { "TSTORE <LB1:1, FP32>, T#1, [a0]\n", "t.s:1:8", "wrong operand kind", "LB0 (ValidCol)" },
    { "TSTORE <LB0:1, FP32>, T#1, [q7]\n", "t.s:1:29", "wrong operand kind", "'q7'" },
    { "TSTORE <LB0:1, FP32>, T#1, [a0], ->T<4KB>\n", "t.s:1:36", "wrong operand kind", "'T<4KB>'" },
    { "TSTORE <LB0:1, FP32>, T#1, T#2, T#3, T#4, T#5, T#6, T#7, T#8, U#1, [a0]\n", "t.s:1:63",
      "wrong operand kind", "'U#1'" },
    { "TSTORE <LB0:200000, FP32>, T#1, [a0]\n", "t.s:1:13", "immediate out of range", "200000" },
    { "TSTORE <LB0:1, FP32>, T#1, [a0], 40\n", "t.s:1:34", "immediate out of range", "dependency tag 40" },
    { "TLOAD <LB0:1, FP32>, T#1, [a0]\n", "t.s:1:22", "wrong operand kind", "'T#1'" },
    { "TLOAD <LB0:1, FP32>, [a0], ->T<3KB>\n", "t.s:1:32", "immediate out of range", "tile size 3072" },
    { "MPAR .body, <LB0:64, VS32>, [a0]\n", "t.s:1:22", "wrong operand kind", "'VS32'" },
    { "MPAR .body <LB0:64>\n", "t.s:1:12", "wrong operand kind", "'<LB0:64>'" },
    { "MPAR odd, <LB0:1>\n.byte 1\nodd:\n", "t.s:1:6", "misaligned target", "0x10009" },
    { ".byte 1\nTSTORE <LB0:1, FP32>, T#1, [a0]\n", "t.s:2:1", "misaligned target",
      "odd offset 0x1" },
    /* instructions */
    { ".byte 1\nC.BSTOP\n", "t.s:2:1", "misaligned target", "odd offset 0x1" },
    { "addx a0, a1, ->t\n", "t.s:1:1", "unknown mnemonic", "addx" },
    { "  .text\n  addi a0, 5000, ->t\n", "t.s:2:12", "immediate out of range", "5000" },
};

static void run_case(const BadCase *c)
{
    LinxAs *as = linx_as_new(NULL);
    const char *diag, *nl;
    char first[1024];
    uint8_t *buf = NULL;
    size_t len = 0;

    linx_as_add_source(as, "t.s", c->src, strlen(c->src));
    if (linx_as_assemble(as)) {
        fail_msg("'%s' assembled without an error", c->src);
    }
    assert_false(linx_as_output(as, &buf, &len));
    diag = linx_as_diagnostics(as);
    nl = strchr(diag, '\n');
    snprintf(first, sizeof(first), "%.*s", nl ? (int)(nl - diag) : (int)strlen(diag), diag);
    if (strncmp(first, c->where, strlen(c->where)) != 0 || first[strlen(c->where)] != ':' ||
        !strstr(first, ": error: ") || !strstr(first, c->rule) || !strstr(first, c->text)) {
        fail_msg("input '%s':\n  got      %s\n  expected %s: error: %s ... %s", c->src, first,
                 c->where, c->rule, c->text);
    }
    /* The source line and a caret follow. */
    assert_non_null(nl);
    assert_non_null(strchr(nl + 1, '^'));
    linx_as_free(as);
}

static void test_bad_inputs(void **state)
{
    unsigned run = 0;
    (void)state;

    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        run_case(&cases[i]);
        run++;
    }
    assert_true(run >= 30);
}

/* A long chain of parentheses or unary minus: an error, no stack overflow. */
static void test_deep_expression(void **state)
{
    enum { DEPTH = 100000 };
    char *src = malloc(3 * DEPTH + 16);
    LinxAs *as;
    size_t n = 0;
    (void)state;

    assert_non_null(src);
    n += (size_t)sprintf(src, ".word ");
    for (int i = 0; i < DEPTH; i++) {
        src[n++] = i & 1 ? '(' : '-';
    }
    src[n++] = '1';
    src[n++] = '\n';
    as = linx_as_new(NULL);
    linx_as_add_source(as, "deep.s", src, n);
    assert_false(linx_as_assemble(as));
    assert_non_null(strstr(linx_as_diagnostics(as), "nested more than 200 levels"));
    linx_as_free(as);
    free(src);
}

static void test_error_limit(void **state)
{
    LinxAsOptions o;
    LinxAs *as;
    char src[4096] = "";
    (void)state;

    for (int i = 0; i < 100; i++) {
        strcat(src, ".foo\n");
    }
    linx_as_default_options(&o);
    o.max_errors = 5;
    as = linx_as_new(&o);
    linx_as_add_source(as, "t.s", src, strlen(src));
    assert_false(linx_as_assemble(as));
    assert_non_null(strstr(linx_as_diagnostics(as), "too many errors"));
    assert_null(strstr(linx_as_diagnostics(as), "t.s:6:"));
    linx_as_free(as);
}

static void test_bad_entry(void **state)
{
    LinxAsOptions o;
    LinxAs *as;
    (void)state;

    linx_as_default_options(&o);
    o.entry = "missing";
    as = linx_as_new(&o);
    linx_as_add_source(as, "t.s", ".word 0\n", 8);
    assert_false(linx_as_assemble(as));
    assert_non_null(strstr(linx_as_diagnostics(as), "undefined symbol: entry point 'missing'"));
    linx_as_free(as);
}

/* Messages come out in source order even when pass 2 finds the first one. */
static void test_message_order(void **state)
{
    LinxAs *as = linx_as_new(NULL);
    const char *d;
    static const char src[] = ".word nosuch\n.foo\n";
    (void)state;

    linx_as_add_source(as, "t.s", src, strlen(src));
    assert_false(linx_as_assemble(as));
    d = linx_as_diagnostics(as);
    assert_non_null(strstr(d, "t.s:1:"));
    assert_non_null(strstr(d, "t.s:2:"));
    assert_true(strstr(d, "t.s:1:") < strstr(d, "t.s:2:"));
    assert_int_equal(linx_as_error_count(as), 2);
    linx_as_free(as);
}

/* Random token soup and random bytes: never a crash, a hang or a silent
 * failure (every failed assembly has messages). */
static void test_random_inputs(void **state)
{
    static const char *const tokens[] = {
        ".word", ".byte", ".quad", ".ascii", ".section", ".text", ".data", ".bss", ".equ",
        ".set", ".org", ".p2align", ".zero", ".insn", ".globl", ".type", ".size", ".include",
        "TSTORE", "TSTORE.NZ2ND", "TLOAD", "MPAR", "MSEQ", "C.MPAR", "<", ">", "<LB0:", "LB1:",
        "FP32", "VS8", "DR", "T#1", "U#9", ".reuse", "[", "]", "->", "->T<4KB>", "addi", "a0",
        "t#1", "C.BSTART", "COND", "C.BSTOP", "v.lwi", "ri0", "lc0<<2", "x", "1b", "2f", "1:",
        "x:", ".", "+", "-", "*", "/", "%", "<<", ">>", "(", ")", ",", "\"", "'", "#", ";",
        "/*", "*/", "0x", "0b1", "07", "99999999999999999999", "-1", "4096", "\n", "\t",
        "=", "{", "}", "addtpc", "setc.eqi", "1<<63", "@function", "\"ax\"",
    };
    uint64_t x = 0x243f6a8885a308d3ull;
    char src[2048];
    (void)state;

    for (int iter = 0; iter < 3000; iter++) {
        size_t n = 0;
        int ntok;
        LinxAsOptions o;
        LinxAs *as;

        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ntok = (int)(x % 60);
        for (int k = 0; k < ntok && n + 64 < sizeof(src); k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if (iter % 5 == 4) {
                src[n++] = (char)(x >> 24); /* raw bytes */
                continue;
            }
            n += (size_t)snprintf(src + n, sizeof(src) - n, "%s%s",
                                  tokens[x % (sizeof(tokens) / sizeof(tokens[0]))],
                                  (x >> 40) % 4 == 0 ? "\n" : " ");
        }
        linx_as_default_options(&o);
        o.format = (LinxAsFormat)(iter % 3);
        as = linx_as_new(&o);
        linx_as_add_source(as, "r.s", src, n);
        if (linx_as_assemble(as)) {
            uint8_t *buf = NULL;
            size_t len = 0;
            assert_true(linx_as_output(as, &buf, &len));
            free(buf);
        } else {
            assert_true(linx_as_error_count(as) > 0);
            assert_true(strlen(linx_as_diagnostics(as)) > 0);
        }
        linx_as_free(as);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_error_limit),
        cmocka_unit_test(test_bad_entry),
        cmocka_unit_test(test_message_order),
        cmocka_unit_test(test_random_inputs),
        cmocka_unit_test(test_deep_expression),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
