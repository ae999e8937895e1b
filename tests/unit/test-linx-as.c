/*
 * linx-as tests: everything except instruction encoding (see
 * test-linx-as-insn.c) and the error messages (test-linx-as-errors.c).
 *
 * - data directives, expressions, symbols, numeric labels, .equ/.set;
 * - sections, alignment, .org, layout of ET_EXEC / ET_REL / raw output,
 *   read back with util/elf-file;
 * - base address and entry point options, .include;
 * - seed template blocks (TSTORE/TLOAD/MPAR/MSEQ): every expanded
 *   instruction decoded by the decoder and its fields checked (the B.DATR
 *   codes against the tile engine: test-linx-as-datr.c);
 * - the seed kernel-body rewrites;
 * - the listing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "as-internal.h"
#include "linx-as.h"
#include "target/linx/decode.h"
#include "util/elf-file.h"

static LinxAs *assemble_fmt(const char *src, LinxAsFormat fmt, uint64_t base, const char *entry)
{
    LinxAsOptions o;
    LinxAs *as;

    linx_as_default_options(&o);
    o.format = fmt;
    o.base = base;
    o.entry = entry;
    as = linx_as_new(&o);
    linx_as_add_source(as, "t.s", src, strlen(src));
    if (!linx_as_assemble(as)) {
        print_message("%s", linx_as_diagnostics(as));
        fail_msg("assembly failed");
    }
    return as;
}

static LinxAs *assemble(const char *src)
{
    return assemble_fmt(src, LINX_AS_FMT_EXEC, LINX_AS_DEFAULT_BASE, NULL);
}

static const uint8_t *section(LinxAs *as, const char *name, uint64_t *addr, uint64_t *size)
{
    const uint8_t *data = NULL;
    assert_true(linx_as_section(as, name, addr, size, &data));
    return data;
}

static uint64_t sym(LinxAs *as, const char *name)
{
    uint64_t v = 0;
    if (!linx_as_symbol_value(as, name, &v)) {
        fail_msg("symbol %s not defined", name);
    }
    return v;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

/* ---- data and expressions ---------------------------------------------------- */

static void test_data_directives(void **state)
{
    static const uint8_t expect[] = {
        0x01, 0x02, 0xff,                   /* .byte 1, 2, -1 */
        0x34, 0x12, 0xfe, 0xff,             /* .half 0x1234, -2 */
        0x78, 0x56, 0x34, 0x12,             /* .word */
        0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, /* .quad */
        'h', 'i', '\n', 'a', 'b', 0,        /* .ascii, .asciz */
        'x', 0,                             /* .string */
        0xaa, 0xaa, 0xaa,                   /* .zero 3, 0xaa */
        0x07, 0x00, 0x07, 0x00,             /* .fill 2, 2, 7 */
        'A', 0x0a, 0x5c, 0x27,              /* '.byte' of char literals */
        0x41, 0x42, 0x07, 0x1b, 0x01, 0x53, /* escapes: \101 \x42 \a \e \1 and 'S' */
    };
    LinxAs *as = assemble(".byte 1, 2, -1\n"
                          ".half 0x1234, -2\n"
                          ".word 0x12345678\n"
                          ".quad 0x0102030405060708\n"
                          ".ascii \"hi\\n\"\n"
                          ".asciz \"ab\"\n"
                          ".string \"x\"\n"
                          ".zero 3, 0xaa\n"
                          ".fill 2, 2, 7\n"
                          ".byte 'A', '\\n', '\\\\', '\\''\n"
                          ".ascii \"\\101\\x42\\a\\e\\1S\"\n");
    uint64_t addr, size;
    const uint8_t *d = section(as, ".text", &addr, &size);
    (void)state;

    assert_int_equal(addr, LINX_AS_DEFAULT_BASE);
    assert_int_equal(size, sizeof(expect));
    assert_memory_equal(d, expect, sizeof(expect));
    linx_as_free(as);
}

static void test_expressions(void **state)
{
    LinxAs *as = assemble("start:\n"
                          "  .word 1 + 2 * 3, (1 + 2) * 3, 7 / 2, -7 % 3, 1 << 4 | 1, 0xf0 >> 4\n"
                          "  .word ~0 & 0xff, !0, !5, 3 == 3, 3 != 3, 6 ^ 3, 1 && 0, 1 || 0\n"
                          "  .word 0b1010, 017, 'a' + 1, - - 4\n"
                          "  .word end - start, . - start, N * 2\n"
                          "  .equ N, 21\n"
                          "  .set V, 1\n"
                          "  .word V\n"
                          "  .set V, V + 1\n"
                          "  .word V\n"
                          "  W = V * 10\n"
                          "  .word W\n"
                          "  .quad start + 4, 0xffffffffffffffff, -9223372036854775807 - 1\n"
                          "end:\n");
    uint64_t addr, size;
    const uint8_t *d = section(as, ".text", &addr, &size);
    static const int32_t words[] = {
        7, 9, 3, -1, 17, 15, 0xff, 1, 0, 1, 0, 5, 0, 1, 10, 15, 'b', 4,
    };
    unsigned i;
    (void)state;

    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        assert_int_equal((int32_t)le(d + 4 * i, 4), words[i]);
    }
    /* end - start, . - start, N * 2 (N defined later) */
    assert_int_equal(le(d + 4 * i, 4), size);
    assert_int_equal(le(d + 4 * i + 4, 4), 4 * (i + 1));
    assert_int_equal(le(d + 4 * i + 8, 4), 42);
    i += 3;
    assert_int_equal(le(d + 4 * i, 4), 1);      /* V before .set V, V + 1 */
    assert_int_equal(le(d + 4 * i + 4, 4), 2);  /* after */
    assert_int_equal(le(d + 4 * i + 8, 4), 20); /* W = V * 10 */
    i += 3;
    assert_int_equal(le(d + 4 * i, 8), LINX_AS_DEFAULT_BASE + 4);
    assert_int_equal(le(d + 4 * i + 8, 8), UINT64_MAX);
    assert_int_equal(le(d + 4 * i + 16, 8), 0x8000000000000000ull);
    assert_int_equal(sym(as, "N"), 21);
    assert_int_equal(sym(as, "end"), LINX_AS_DEFAULT_BASE + size);
    linx_as_free(as);
}

static void test_numeric_labels(void **state)
{
    LinxAs *as = assemble("1: .word 1b\n"   /* 0x10000 -> itself */
                          "   .word 1f\n"   /* 0x10004 -> 0x1000c */
                          "   .word 2f\n"   /* -> 0x10010 */
                          "1: .word 1b\n"   /* 0x1000c -> itself */
                          "2: .word 1b, 2b\n"
                          "1: .word 1b\n");
    uint64_t addr, size;
    const uint8_t *d = section(as, ".text", &addr, &size);
    static const uint32_t expect[] = {
        0x10000, 0x1000c, 0x10010, 0x1000c, 0x1000c, 0x10010, 0x10018,
    };
    (void)state;

    assert_int_equal(size, sizeof(expect));
    for (unsigned i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
        assert_int_equal(le(d + 4 * i, 4), expect[i]);
    }
    linx_as_free(as);
}

static void test_comments_and_labels(void **state)
{
    LinxAs *as = assemble("# a clang comment line\n"
                          "a: b: .byte 1 # trailing comment\n"
                          "   .byte 2 ; objdump-style comment\n"
                          "   .byte 3 // C++ comment\n"
                          "/* block\n"
                          "   comment .byte 99 */ .byte 4\n"
                          "   .ascii \"#;//\"\n"
                          "   .byte '#', ';'\n"
                          "c:\n"
                          "   .byte c - a\n");
    uint64_t addr, size;
    const uint8_t *d = section(as, ".text", &addr, &size);
    static const uint8_t expect[] = { 1, 2, 3, 4, '#', ';', '/', '/', '#', ';', 10 };
    (void)state;

    assert_int_equal(size, sizeof(expect));
    assert_memory_equal(d, expect, sizeof(expect));
    assert_int_equal(sym(as, "a"), sym(as, "b"));
    linx_as_free(as);
}

/* ---- sections and layout ----------------------------------------------------- */

static void test_sections_exec_layout(void **state)
{
    LinxAs *as = assemble(".text\n_start: .word 1\n"
                          ".rodata\nro: .byte 2\n"
                          ".data\n .p2align 3\ndat: .quad 3\n"
                          ".bss\nbuf: .zero 64\n"
                          ".section .text.more, \"ax\"\nmore: .half 4\n"
                          ".section \".note.GNU-stack\",\"\",@progbits\n"
                          ".pushsection .data\nd2: .byte 5\n.popsection\n"
                          ".text\n .p2align 2\ntail: .word ro\n");
    uint64_t a_text, s_text, a_more, s_more, a_ro, s_ro, a_dat, s_dat, a_bss, s_bss;
    (void)state;

    section(as, ".text", &a_text, &s_text);
    section(as, ".text.more", &a_more, &s_more);
    section(as, ".rodata", &a_ro, &s_ro);
    section(as, ".data", &a_dat, &s_dat);
    section(as, ".bss", &a_bss, &s_bss);
    assert_int_equal(a_text, 0x10000);
    assert_int_equal(s_text, 8);
    assert_int_equal(a_more, 0x10008); /* executable group, packed */
    assert_int_equal(a_ro, 0x11000);   /* read-only group on its own page */
    assert_int_equal(a_dat, 0x12000);  /* writable group on its own page */
    assert_int_equal(s_dat, 9);
    assert_int_equal(a_bss, 0x12009);  /* NOBITS follows the data */
    assert_int_equal(s_bss, 64);
    assert_int_equal(sym(as, "d2"), 0x12008);
    assert_int_equal(sym(as, "tail"), 0x10004);
    assert_int_equal(sym(as, "more"), 0x10008);
    assert_int_equal(linx_as_entry(as), 0x10000);
    linx_as_free(as);
}

/* Empty sections get no page (and no segment) of their own. */
static void test_empty_sections(void **state)
{
    LinxAs *as = assemble(".data\n.rodata\n.text\n_start: .word 1\n.bss\nb: .zero 8\n");
    uint64_t a, sz;
    uint8_t *buf;
    size_t len;
    ElfFile ef;
    char err[256];
    (void)state;

    section(as, ".bss", &a, &sz);
    assert_int_equal(a, 0x11000); /* one page after .text, not two or three */
    assert_true(linx_as_output(as, &buf, &len));
    assert_true(elf_file_parse(&ef, buf, len, "out", err, sizeof(err)));
    assert_int_equal(ef.nsegments, 2);
    assert_non_null(elf_file_section_by_name(&ef, ".data"));
    elf_file_close(&ef);
    free(buf);
    linx_as_free(as);
}

static void test_align_org(void **state)
{
    LinxAs *as = assemble(".byte 1\n"
                          ".p2align 2\n"
                          "a4: .byte 2\n"
                          ".balign 8, 0xcc\n"
                          "a8: .byte 3\n"
                          ".align 4\n"
                          "b4: .org 0x20, 0x11\n"
                          "o20: .byte 4\n"
                          ".org o20 + 4\n"
                          "o24: .p2align 4, 0, 2\n" /* would need 12: skipped */
                          "n: .byte 5\n");
    uint64_t addr, size;
    const uint8_t *d = section(as, ".text", &addr, &size);
    (void)state;

    assert_int_equal(sym(as, "a4") - addr, 4);
    assert_int_equal(sym(as, "a8") - addr, 8);
    assert_int_equal(d[5], 0xcc);
    assert_int_equal(sym(as, "b4") - addr, 12);
    assert_int_equal(d[12], 0x11);
    assert_int_equal(sym(as, "o20") - addr, 0x20);
    assert_int_equal(sym(as, "o24") - addr, 0x24);
    assert_int_equal(sym(as, "n") - addr, 0x24);
    assert_int_equal(size, 0x25);
    linx_as_free(as);
}

static void test_elf_exec(void **state)
{
    LinxAs *as = assemble_fmt("  .file \"t.c\"\n"
                              "  .text\n"
                              "  .globl main\n"
                              "  .type main, @function\n"
                              "main: .word 1, 2\n"
                              ".Lend:\n"
                              "  .size main, .Lend - main\n"
                              "local: .word 3\n"
                              "  .data\n"
                              "  .globl obj\n"
                              "  .type obj, @object\n"
                              "obj: .quad main\n"
                              "  .size obj, 8\n"
                              "  .equ K, 5\n",
                              LINX_AS_FMT_EXEC, 0x400000, "main");
    uint8_t *buf;
    size_t len;
    ElfFile ef;
    char err[256];
    const ElfSection *text, *data;
    bool seen_main = false, seen_obj = false, seen_local = false, seen_k = false;
    (void)state;

    assert_true(linx_as_output(as, &buf, &len));
    if (!elf_file_parse(&ef, buf, len, "out", err, sizeof(err))) {
        fail_msg("%s", err);
    }
    assert_int_equal(ef.type, ELF_ET_EXEC);
    assert_int_equal(ef.machine, EM_LINXISA);
    assert_int_equal(ef.entry, 0x400000);
    text = elf_file_section_by_name(&ef, ".text");
    data = elf_file_section_by_name(&ef, ".data");
    assert_non_null(text);
    assert_non_null(data);
    assert_int_equal(text->addr, 0x400000);
    assert_int_equal(text->flags, ELF_SHF_ALLOC | ELF_SHF_EXECINSTR);
    assert_int_equal(data->addr, 0x401000);
    assert_int_equal(le(elf_file_section_data(&ef, data), 8), 0x400000);
    assert_int_equal(ef.nsegments, 2);
    assert_int_equal(ef.segments[0].type, ELF_PT_LOAD);
    assert_int_equal(ef.segments[0].vaddr, 0x400000);
    assert_int_equal(ef.segments[0].flags, ELF_PF_R | ELF_PF_X);
    assert_int_equal(ef.segments[0].filesz, 12);
    assert_int_equal(ef.segments[0].offset % 0x1000, 0);
    assert_int_equal(ef.segments[1].flags, ELF_PF_R | ELF_PF_W);
    for (unsigned i = 0; i < ef.nsymbols; i++) {
        const ElfSymbol *s = &ef.symbols[i];
        assert_true(strncmp(s->name, ".L", 2) != 0);
        if (strcmp(s->name, "main") == 0) {
            seen_main = true;
            assert_int_equal(s->value, 0x400000);
            assert_int_equal(s->size, 8);
            assert_int_equal(s->type, 2 /* STT_FUNC */);
            assert_int_equal(s->bind, 1 /* STB_GLOBAL */);
        } else if (strcmp(s->name, "obj") == 0) {
            seen_obj = true;
            assert_int_equal(s->value, 0x401000);
            assert_int_equal(s->type, 1 /* STT_OBJECT */);
            assert_int_equal(s->size, 8);
        } else if (strcmp(s->name, "local") == 0) {
            seen_local = true;
            assert_int_equal(s->bind, 0);
            assert_int_equal(s->value, 0x400008);
        } else if (strcmp(s->name, "K") == 0) {
            seen_k = true;
            assert_int_equal(s->value, 5);
        }
    }
    assert_true(seen_main && seen_obj && seen_local && seen_k);
    elf_file_close(&ef);
    free(buf);
    linx_as_free(as);
}

static void test_elf_rel_and_bin(void **state)
{
    static const char src[] = ".globl _start\n_start: .word 0x11111111\n"
                              "next: .word next\n"
                              ".data\nd: .byte 7\n";
    LinxAs *as = assemble_fmt(src, LINX_AS_FMT_REL, LINX_AS_DEFAULT_BASE, NULL);
    uint8_t *buf;
    size_t len;
    ElfFile ef;
    char err[256];
    const ElfSection *text;
    (void)state;

    assert_true(linx_as_output(as, &buf, &len));
    if (!elf_file_parse(&ef, buf, len, "out", err, sizeof(err))) {
        fail_msg("%s", err);
    }
    assert_int_equal(ef.type, ELF_ET_REL);
    assert_int_equal(ef.machine, EM_LINXISA);
    assert_int_equal(ef.nsegments, 0);
    text = elf_file_section_by_name(&ef, ".text");
    assert_non_null(text);
    assert_int_equal(text->addr, 0x10000);
    /* Resolved as if loaded at 0x10000; no relocation sections. */
    assert_int_equal(le(elf_file_section_data(&ef, text) + 4, 4), 0x10004);
    for (unsigned i = 0; i < ef.nsections; i++) {
        assert_int_not_equal(ef.sections[i].type, ELF_SHT_RELA);
    }
    assert_int_equal(elf_file_section_by_name(&ef, ".data")->addr, 0x10008);
    for (unsigned i = 0; i < ef.nsymbols; i++) {
        if (strcmp(ef.symbols[i].name, "next") == 0) {
            assert_int_equal(ef.symbols[i].value, 4); /* section offset */
        }
    }
    elf_file_close(&ef);
    free(buf);
    linx_as_free(as);

    as = assemble_fmt(src, LINX_AS_FMT_BIN, 0x2000, NULL);
    assert_true(linx_as_output(as, &buf, &len));
    assert_int_equal(len, 9);
    assert_int_equal(le(buf, 4), 0x11111111);
    assert_int_equal(le(buf + 4, 4), 0x2004);
    assert_int_equal(buf[8], 7);
    free(buf);
    linx_as_free(as);
}

static void test_entry_options(void **state)
{
    LinxAs *as = assemble_fmt(".word 0\n_start: .word 1\n", LINX_AS_FMT_EXEC, 0x10000, NULL);
    (void)state;
    assert_int_equal(linx_as_entry(as), 0x10004);
    linx_as_free(as);
    as = assemble_fmt(".word 0\nfoo: .word 1\n", LINX_AS_FMT_EXEC, 0x10000, NULL);
    assert_int_equal(linx_as_entry(as), 0x10000);
    linx_as_free(as);
    as = assemble_fmt(".word 0\n", LINX_AS_FMT_EXEC, 0x10000, "0x12344");
    assert_int_equal(linx_as_entry(as), 0x12344);
    linx_as_free(as);
}

static void test_write_file_atomic(void **state)
{
    char dir[] = "/tmp/linx-as-test-XXXXXX";
    char path[128], inc[128], src[256];
    LinxAsOptions o;
    LinxAs *as;
    FILE *f;
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(inc, sizeof(inc), "%s/inc.s", dir);
    f = fopen(inc, "w");
    assert_non_null(f);
    fputs("incl: .byte 9\n", f);
    fclose(f);
    snprintf(path, sizeof(path), "%s/main.s", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(".byte 1\n.include \"inc.s\"\n.byte 2\n", f);
    fclose(f);

    linx_as_default_options(&o);
    o.format = LINX_AS_FMT_BIN;
    as = linx_as_new(&o);
    assert_true(linx_as_add_file(as, path));
    assert_true(linx_as_assemble(as));
    snprintf(path, sizeof(path), "%s/out.bin", dir);
    assert_true(linx_as_write_file(as, path));
    f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(src, 1, sizeof(src), f), 3);
    fclose(f);
    assert_int_equal(src[0], 1);
    assert_int_equal(src[1], 9);
    assert_int_equal(src[2], 2);
    linx_as_free(as);
    unlink(path);

    /* A failed assembly writes nothing. */
    as = linx_as_new(&o);
    linx_as_add_source(as, "bad.s", ".word nowhere\n", 14);
    assert_false(linx_as_assemble(as));
    assert_false(linx_as_write_file(as, path));
    assert_int_equal(access(path, F_OK), -1);
    linx_as_free(as);
    unlink(inc);
    snprintf(path, sizeof(path), "%s/main.s", dir);
    unlink(path);
    rmdir(dir);
}

/* ---- templates ----------------------------------------------------------------- */

typedef struct Expect {
    unsigned form;
    LinxFieldId field[6];
    int64_t value[6];
} Expect;

/* Decode the instructions at @d and check forms and fields. */
static void check_expansion(const uint8_t *d, uint64_t size, const Expect *e, unsigned n)
{
    uint64_t off = 0;

    for (unsigned i = 0; i < n; i++) {
        LinxInsn insn;
        assert_true(off < size);
        assert_int_equal(linx_decode(d + off, size - off, &insn), LINX_DECODE_OK);
        if (insn.form != e[i].form) {
            fail_msg("insn %u: form %s, expected %s", i, linx_form(insn.form)->mnemonic,
                     linx_form(e[i].form)->mnemonic);
        }
        for (unsigned k = 0; k < 6 && e[i].field[k]; k++) {
            bool present;
            int64_t v = linx_insn_field(&insn, e[i].field[k], &present);
            assert_true(present);
            if (v != e[i].value[k]) {
                fail_msg("insn %u (%s): field %s = %lld, expected %lld", i,
                         linx_form(insn.form)->mnemonic, linx_field_names[e[i].field[k]],
                         (long long)v, (long long)e[i].value[k]);
            }
        }
        off += insn.len;
    }
    assert_int_equal(off, size);
}

#define REG_A0 2
#define REG_A1 3
#define REG_A2 4
#define REG_A3 5
#define REG_S0 11

static void test_template_tstore_seed000(void **state)
{
    /* Seed 000's two assembly examples. */
    LinxAs *as = assemble("TSTORE.NORM <LB0:100, LB1:a0, LB2:a1+10, FP32>, T#1, [a2]\n"
                          "TSTORE.NZ2ND <LB0:100, LB1:a0, LB2:a1+10, FP32>, U#1, [a2, a1]\n");
    uint64_t addr, size;
    const uint8_t *d = section(as, ".text", &addr, &size);
    const Expect e[] = {
        { LINX_F_BSTART_TSTORE, { LINX_FLD_DataType }, { 1 } },
        { LINX_F_B_DATR, { LINX_FLD_Layout }, { 0 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8, LINX_FLD_LoopNest }, { 100, 0 } },
        { LINX_F_B_DIM_LB1, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { REG_A0, 0 } },
        { LINX_F_B_DIM_LB2, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { REG_A1, 10 } },
        { LINX_F_B_IOT_G1,
          { LINX_FLD_SrcTile0, LINX_FLD_S0V, LINX_FLD_S1V, LINX_FLD_S0R, LINX_FLD_DstTile,
            LINX_FLD_RegSrc },
          { 0, 0, 1, 0, 7, 0 } },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1 }, { REG_A2, 0 } },
        { LINX_F_BSTART_TSTORE, { LINX_FLD_DataType }, { 1 } },
        { LINX_F_B_DATR, { LINX_FLD_Layout }, { 27 } }, /* NZ2ND, store numbering */
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8 }, { 100 } },
        { LINX_F_B_DIM_LB1, { LINX_FLD_RegSrc }, { REG_A0 } },
        { LINX_F_B_DIM_LB2, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { REG_A1, 10 } },
        { LINX_F_B_IOT_G1, { LINX_FLD_SrcTile0, LINX_FLD_S1V }, { 8 /* u#1 */, 1 } },
        /* B.DATR header: RegSrc0 = base, RegSrc1 = stride (shared decisions 3). */
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1 }, { REG_A2, REG_A1 } },
    };
    (void)state;

    check_expansion(d, size, e, sizeof(e) / sizeof(e[0]));
    linx_as_free(as);
}

static void test_template_tstore_defaults_multi(void **state)
{
    LinxAs *as = assemble("  .equ COLS, 300\n"
                          "TSTORE.ZN2DN <LB0:a3+4, E4M3>, T#1.reuse, T#2, U#3, M#8.reuse, N#5,"
                          " [a2, a1], 1, 2, 3, ->4\n"
                          "TSTORE <LB0:COLS, LB2:COLS, BF16>, t#1, [s0]\n");
    uint64_t addr, size;
    const uint8_t *d = section(as, ".text", &addr, &size);
    const Expect e[] = {
        { LINX_F_BSTART_TSTORE, { LINX_FLD_DataType }, { 3 } },
        { LINX_F_B_DATR, { LINX_FLD_Layout }, { 18 } }, /* ZN2DN */
        { LINX_F_B_DIM_LB0, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { REG_A3, 4 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8, LINX_FLD_LoopNest }, { 1, 1 } }, /* ValidRow 1 */
        { LINX_F_B_DIM_LB2, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { REG_A3, 4 } }, /* Col */
        { LINX_F_B_IOT_G0,
          { LINX_FLD_SrcTile0, LINX_FLD_S0R, LINX_FLD_SrcTile1, LINX_FLD_S1R, LINX_FLD_S0V,
            LINX_FLD_S1V },
          { 0, 1, 1, 0, 0, 0 } },
        { LINX_F_B_IOT_G0, { LINX_FLD_SrcTile0, LINX_FLD_SrcTile1, LINX_FLD_S1R }, { 10, 23, 1 } },
        { LINX_F_B_IOT_G1, { LINX_FLD_SrcTile0, LINX_FLD_S1V }, { 28, 1 } },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1 }, { REG_A2, REG_A1 } },
        { LINX_F_B_IOD,
          { LINX_FLD_DepSrc0, LINX_FLD_DepSrc1, LINX_FLD_DepSrc2, LINX_FLD_DepDst },
          { 1, 2, 3, 4 } },
        { LINX_F_BSTART_TSTORE, { LINX_FLD_DataType }, { 6 } },
        { LINX_F_B_DATR, { LINX_FLD_Layout }, { 0 } },
        { LINX_F_B_DIM_LB0, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { 0, 300 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8, LINX_FLD_LoopNest }, { 1, 1 } },
        { LINX_F_B_DIM_LB2, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { 0, 300 } },
        { LINX_F_B_IOT_G1, { LINX_FLD_SrcTile0 }, { 0 } },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1 }, { REG_S0, 0 } },
    };
    (void)state;

    check_expansion(d, size, e, sizeof(e) / sizeof(e[0]));
    linx_as_free(as);
}

static void test_template_tload(void **state)
{
    LinxAs *as = assemble("TLOAD.DN2NZ <LB0:64, LB1:a0, LB2:32, S16, Max>, [a1, a2], ->U<2KB>\n"
                          "TLOAD <LB0:8, U8>, [a0]\n"
                          "TLOAD.ND2ZN <LB0:8, FP16>, [a0], 7, ->m<a3>, ->9\n");
    uint64_t addr, size;
    const uint8_t *d = section(as, ".text", &addr, &size);
    const Expect e[] = {
        { LINX_F_BSTART_TLOAD, { LINX_FLD_DataType }, { 18 } },
        { LINX_F_B_DATR, { LINX_FLD_Layout, LINX_FLD_Pad }, { 9, 2 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8, LINX_FLD_LoopNest }, { 64, 0 } },
        { LINX_F_B_DIM_LB1, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { REG_A0, 0 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8, LINX_FLD_LoopNest }, { 32, 2 } },
        { LINX_F_B_IOTI_G1,
          { LINX_FLD_S0V, LINX_FLD_S1V, LINX_FLD_DstTile, LINX_FLD_imm5 },
          { 1, 1, 1, 7 } },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1 }, { REG_A1, REG_A2 } },
        { LINX_F_BSTART_TLOAD, { LINX_FLD_DataType }, { 27 } },
        { LINX_F_B_DATR, { LINX_FLD_Layout, LINX_FLD_Pad }, { 0, 0 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8 }, { 8 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8, LINX_FLD_LoopNest }, { 1, 1 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8, LINX_FLD_LoopNest }, { 8, 2 } },
        /* default destination ->t<4KB> */
        { LINX_F_B_IOTI_G1, { LINX_FLD_DstTile, LINX_FLD_imm5 }, { 0, 8 } },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0 }, { REG_A0 } },
        { LINX_F_BSTART_TLOAD, { LINX_FLD_DataType }, { 2 } },
        { LINX_F_B_DATR, { LINX_FLD_Layout }, { 3 } }, /* ND2ZN, load numbering */
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8 }, { 8 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8 }, { 1 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8 }, { 8 } },
        { LINX_F_B_IOT_G1, { LINX_FLD_DstTile, LINX_FLD_RegSrc }, { 2, REG_A3 } },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0 }, { REG_A0 } },
        { LINX_F_B_IOD, { LINX_FLD_DepSrc0, LINX_FLD_DepDst }, { 7, 9 } },
    };
    (void)state;

    check_expansion(d, size, e, sizeof(e) / sizeof(e[0]));
    linx_as_free(as);
}

static void test_template_mpar_seed004(void **state)
{
    /* Seed 004's header examples (their bodies are in test-linx-as-insn.c). */
    LinxAs *as = assemble("hed:\n"
                          "    MPAR .foo, <LB0:64, LB1:10, VS8>, [a0, a1], ->T<8KB>\n"
                          "    MPAR .foo, <LB0:64, LB1:10, VS8>, [a0], ->T<8KB>\n"
                          "    MSEQ .foo, <LB0:a0+1, LB2:300, DR>, T#1, U#2.reuse, M#3, [a0, a1, a2, a3],"
                          " 5, ->T<a3>, M<4KB>, [s0], 6\n"
                          "    C.MPAR .foo, <LB0:a1>\n"
                          ".foo:\n");
    uint64_t addr, size;
    const uint8_t *d = section(as, ".text", &addr, &size);
    const int64_t body = (int64_t)sym(as, ".foo");
    const Expect e[] = {
        { LINX_F_BSTART_MPAR, { LINX_FLD_Mode }, { 0 } },
        { LINX_F_B_TEXT, { LINX_FLD_simm25 }, { (body - 0x10004) / 2 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8, LINX_FLD_LoopNest }, { 64, 0 } },
        { LINX_F_C_B_DIMI, { LINX_FLD_imm8, LINX_FLD_LoopNest }, { 10, 1 } },
        { LINX_F_B_IOTI_G1, { LINX_FLD_S0V, LINX_FLD_S1V, LINX_FLD_DstTile, LINX_FLD_imm5 },
          { 1, 1, 0, 9 } },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1, LINX_FLD_RegSrc2, LINX_FLD_RegDst },
          { REG_A0, REG_A1, 0, 0 } },
        { LINX_F_BSTART_MPAR, { LINX_FLD_Mode }, { 0 } },
        { LINX_F_B_TEXT },
        { LINX_F_C_B_DIMI },
        { LINX_F_C_B_DIMI },
        { LINX_F_B_IOTI_G1 },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1 }, { REG_A0, 0 } },
        /* MSEQ without VSize: compressed header (VS16). */
        { LINX_F_C_BSTART_MSEQ },
        { LINX_F_B_ATTR, { LINX_FLD_DR }, { 1 } },
        { LINX_F_B_TEXT },
        { LINX_F_B_DIM_LB0, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { REG_A0, 1 } },
        { LINX_F_B_DIM_LB2, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { 0, 300 } },
        { LINX_F_B_IOT_G0,
          { LINX_FLD_SrcTile0, LINX_FLD_SrcTile1, LINX_FLD_S1R, LINX_FLD_DstTile, LINX_FLD_RegSrc },
          { 0, 9, 1, 0, REG_A3 } },
        { LINX_F_B_IOTI_G1,
          { LINX_FLD_SrcTile0, LINX_FLD_S1V, LINX_FLD_DstTile, LINX_FLD_imm5 },
          { 18, 1, 2, 8 } },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1, LINX_FLD_RegSrc2, LINX_FLD_RegDst },
          { REG_A0, REG_A1, REG_A2, REG_S0 } },
        { LINX_F_B_IOR, { LINX_FLD_RegSrc0, LINX_FLD_RegDst }, { REG_A3, 0 } },
        { LINX_F_B_IOD, { LINX_FLD_DepSrc0, LINX_FLD_DepDst }, { 5, 6 } },
        { LINX_F_C_BSTART_MPAR },
        { LINX_F_B_TEXT },
        { LINX_F_B_DIM_LB0, { LINX_FLD_RegSrc, LINX_FLD_uimm17 }, { REG_A1, 0 } },
    };
    (void)state;

    check_expansion(d, size, e, sizeof(e) / sizeof(e[0]));
    assert_int_equal(body, (int64_t)(addr + size));
    linx_as_free(as);
}

/* ---- seed kernel bodies ------------------------------------------------------- */

static void test_seed_body_rewrite(void **state)
{
    static const struct {
        const char *in, *out; /* out NULL: unchanged */
    } cases[] = {
        { "v.lwi [ri0, lc0<<2, 0], ->vt.w", "v.lwi.brg [ri0, lc0<<2, 0], ->vt.w" },
        { "v.lwi [ri1, lc0<<2, 4], ->vu.w", "v.lwi.brg [ri1, lc0<<2, 4], ->vu.w" },
        { "v.sw vt#1.sw, [TO, lc0<<2]", "v.swi vt#1.sw, [to, lc0<<2, 0]" },
        { "v.mul vt#1,.sw, vt#2.sw, ->vt.w", "v.mul vt#1.sw, vt#2.sw, ->vt.w" },
        { "v.add vm#1,.sw, vn#1.sw, ->vt.w", "v.add vm#1.sw, vn#1.sw, ->vt.w" },
        { "v.sw.brg vt#1, [ri0, lc0<<2, lc1<<10]", NULL },
        { "v.lwi.brg [ri0, lc0<<2, 4], ->vt.w", NULL },
        { "v.lwi [ta, lc0<<2, 256], ->vt.w", NULL },
        { "v.lw [tc, lc0<<2, zero.sd], ->vm.w", NULL },
        { "v.add lc0, lc1.sw, ->vt", NULL },
        { "addi a0, 1, ->t", NULL },
        { "v.sll vt#1, 2, ->vt", NULL },
        /* the register-index form [base, idx<<k] is not a two-part address */
        { "v.lb [vm#1.ub, vm#4.sd<<31], ->vr44.sd", NULL },
        { "v.sw vt#1.sw, [to, lc0<<2, zero.sd<<2]", NULL },
    };
    (void)state;

    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *r = as_seed_body_rewrite(cases[i].in);
        if (!cases[i].out) {
            if (r) {
                fail_msg("'%s' rewritten to '%s'", cases[i].in, r);
            }
            continue;
        }
        assert_non_null(r);
        assert_string_equal(r, cases[i].out);
        free(r);
    }
}

/* ---- listing ---------------------------------------------------------------------- */

static void test_listing(void **state)
{
    LinxAs *as = assemble("# head\n"
                          "start: .word 0x11223344\n"
                          "\n"
                          "  TSTORE <LB0:4, FP32>, T#1, [a0]\n"
                          "  .bss\n"
                          "  .zero 16\n");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    (void)state;

    assert_non_null(f);
    linx_as_listing(as, f);
    fclose(f);
    assert_non_null(strstr(text, "     1                                    # head\n"));
    assert_non_null(strstr(text, "     2  00010000  44 33 22 11             start: .word 0x11223344\n"));
    assert_non_null(strstr(text, "     4  00010004  08111181                  TSTORE <LB0:4, FP32>, T#1, [a0]\n"));
    assert_non_null(strstr(text, "+ C.B.DIMI 4, ->lb0"));
    assert_non_null(strstr(text, "+ B.IOT [t#1], last"));
    assert_non_null(strstr(text, "(16 bytes)"));
    free(text);
    linx_as_free(as);
}

/* Reading sources never depends on a terminating newline; CR LF ends a
 * line like LF.  (A NUL byte inside a line is an error:
 * test-linx-as-limits.c.) */
static void test_odd_input(void **state)
{
    static const char src[] = ".byte 1\r\n.byte 2\n\r\n.byte 4";
    LinxAs *as = linx_as_new(NULL);
    uint64_t addr, size;
    const uint8_t *d;
    (void)state;

    linx_as_add_source(as, "odd.s", src, sizeof(src) - 1);
    assert_true(linx_as_assemble(as));
    d = section(as, ".text", &addr, &size);
    assert_int_equal(size, 3);
    assert_int_equal(d[0], 1);
    assert_int_equal(d[1], 2);
    assert_int_equal(d[2], 4);
    assert_int_equal(linx_as_line_count(as), 4);
    linx_as_free(as);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_directives),
        cmocka_unit_test(test_expressions),
        cmocka_unit_test(test_numeric_labels),
        cmocka_unit_test(test_comments_and_labels),
        cmocka_unit_test(test_sections_exec_layout),
        cmocka_unit_test(test_empty_sections),
        cmocka_unit_test(test_align_org),
        cmocka_unit_test(test_elf_exec),
        cmocka_unit_test(test_elf_rel_and_bin),
        cmocka_unit_test(test_entry_options),
        cmocka_unit_test(test_write_file_atomic),
        cmocka_unit_test(test_template_tstore_seed000),
        cmocka_unit_test(test_template_tstore_defaults_multi),
        cmocka_unit_test(test_template_tload),
        cmocka_unit_test(test_template_mpar_seed004),
        cmocka_unit_test(test_seed_body_rewrite),
        cmocka_unit_test(test_listing),
        cmocka_unit_test(test_odd_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
