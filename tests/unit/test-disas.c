/*
 * Disassembler tests.
 *
 * - Every instruction line of both shared llvm-objdump listings prints as
 *   the listing does (white space normalised), with the listing's labels
 *   as symbols; the legacy option is used only for the lines that need it
 *   and only for the documented legacy spellings (docs/disassembly.md).
 * - Known encodings print exact texts (v0.4 and legacy spellings, hidden
 *   fields, illegal words, symbols, the raw-bytes column).
 * - Every catalog form prints deterministic, bounded text for random
 *   field values.
 * - The whole .text of the shared C++ binary disassembles with no
 *   undecodable word.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "target/linx/disas.h"
#include "tests/unit/disas-listing.h"
#include "util/elf-file.h"

#define RANDOM_PER_FORM 64
#define EXPECTED_LISTING_LINES 1250

static void shared_path(char *buf, size_t len, const char *rel)
{
    const char *dir = getenv("LINX_SHARED_DIR");
    snprintf(buf, len, "%s/%s", dir ? dir : LINX_SHARED_DIR, rel);
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

/* Print @bytes at @pc; the text with white space normalised. */
static void disas_norm(const uint8_t *bytes, unsigned n, uint64_t pc, const LinxDisasEnv *env,
                       char *out, size_t len)
{
    char text[LINX_DISAS_MAX];
    unsigned used;

    linx_disas_bytes(bytes, n, pc, env, text, sizeof(text), &used);
    assert_int_equal(used, n);
    listing_normalise(text, out, len);
}

/* Mnemonics whose listing spelling is a documented legacy one. */
static bool legacy_category(const char *listing_text)
{
    static const char *const prefixes[] = {
        "BSTART.STD", "C.BSTART.STD", "BSTART.TMA", "BSTART.CUBE", "BSTART.VPAR", "B.IOTI",
        "C.BSTOP",
    };
    for (unsigned i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(listing_text, prefixes[i], n) == 0 &&
            (listing_text[n] == ' ' || listing_text[n] == '\0')) {
            return true;
        }
    }
    return false;
}

static void check_listing(const char *rel, unsigned *matched, unsigned *legacy_used)
{
    char path[1024], want[LINX_DISAS_MAX], got[LINX_DISAS_MAX], got_legacy[LINX_DISAS_MAX];
    Listing ls;
    unsigned misses = 0;

    shared_path(path, sizeof(path), rel);
    if (!listing_load(&ls, path)) {
        print_message("SKIP: %s not found\n", path);
        skip();
    }
    listing_add_annotation_symbols(&ls);
    /* The listing's own convention, linx-v0.4 (decided from its bytes
     * where there are enough register ALU forms). */
    bool decided;
    const LinxProfile *prof = listing_profile(&ls, &decided);
    assert_int_equal(prof->id, LINX_PROFILE_V04);
    assert_int_equal(decided, strstr(rel, "disasm_example") != NULL);
    LinxDisasEnv env = { 0, listing_lookup, &ls, prof };
    LinxDisasEnv legacy = { LINX_DISAS_F_LEGACY, listing_lookup, &ls, prof };
    for (unsigned i = 0; i < ls.nlines; i++) {
        const ListingLine *l = &ls.lines[i];
        listing_normalise(l->text, want, sizeof(want));
        disas_norm(l->bytes, l->nbytes, l->addr, &env, got, sizeof(got));
        if (strcmp(got, want) == 0) {
            (*matched)++;
            continue;
        }
        disas_norm(l->bytes, l->nbytes, l->addr, &legacy, got_legacy, sizeof(got_legacy));
        if (strcmp(got_legacy, want) == 0 && legacy_category(want)) {
            (*matched)++;
            (*legacy_used)++;
            continue;
        }
        if (misses++ < 20) {
            print_message("%s:%u: listing '%s'\n    v0.4     '%s'\n    legacy   '%s'\n", rel,
                          l->lineno, want, got, got_legacy);
        }
    }
    listing_free(&ls);
    if (misses) {
        fail_msg("%s: %u lines differ from the listing", rel, misses);
    }
}

static void test_listings(void **state)
{
    unsigned matched = 0, legacy_used = 0;
    (void)state;

    check_listing("guest/disasm/disasm_example.objdump.s", &matched, &legacy_used);
    check_listing("guest/disasm/linxisa-v0.4-normalized.objdump.asm", &matched, &legacy_used);
    print_message("listing lines matched: %u (%u with -M legacy)\n", matched, legacy_used);
    assert_true(matched >= EXPECTED_LISTING_LINES);
}

typedef struct Known {
    const char *hex; /* bytes as the listing writes them */
    unsigned flags;
    uint64_t pc;
    const char *text;
} Known;

static const Known known[] = {
    /* The listing's spellings. */
    { "04000f95", 0, 0, "addi\tzero, 64, \t->t" },
    { "00063f89", 0, 0, "ld\t[s1, zero], \t->t" },
    { "1005b049", 0, 0, "sd\ta0, [s0, zero<<3]" },
    { "02b23059", 0, 0, "sdi\ta2, [s0, 8]" },
    { "419c2f85", 0, 0, "and\tt#1, t#2<<8, \t->t" },
    { "fffc0075", 0, 0, "setc.eqi\tt#1, -1" },
    { "40d50041", 0, 0, "FENTRY\t[ra ~ s2], sp!, 256" },
    { "0800", 0, 0, "C.BSTART.STD\t" },
    { "3000", 0, 0, "C.BSTART.STD\tICALL" },
    { "53d6", 0, 0xa2916, "c.setret\t0xa2934, ->ra" },
    { "00b4", 0, 0xa2934, "C.BSTART\tCOND, 0xa294a" },
    { "00b4", LINX_DISAS_F_LEGACY, 0xa2934, "C.BSTART.STD\tCOND, 0xa294a" },
    { "c2116393", 0, 0, "B.IOTI\t[t#3.reuse, t#2.reuse]\t->u<2KB>" },
    { "8eaaf013", 0, 0, "B.IOTI\t[m#6, u#3.reuse], last" },
    { "008b0013", 0, 0, "B.IOR\t[x2,a6],[]" },
    { "103c", 0, 0, "C.B.DIMI\t64, \t->lb0" },
    { "0129127f 01f92109", 0, 0, "v.lw\t[tc, lc0<<2, zero.sd], \t->vm.w" },
    { "b929107f 01fca049", 0, 0, "v.sw\tvt#1.reuse.sw, [to1, lc0<<2, zero.sd<<2]" },
    { "000500ff 00627f95", 0, 0, "v.slli\tlc1.uh, 6, \t->t.d" },
    { "3852027f 4000504b", 0, 0, "v.fmsub\tvt#1.fs, ri0.fs, vu#1.reuse.fs, \t->vt.w" },
    /* v0.4 versus legacy for the same bits (docs/disassembly.md). */
    { "02001181", 0, 0, "BSTART.MPAR\tVS16" },
    { "02001181", LINX_DISAS_F_LEGACY, 0, "BSTART.VPAR\tVCALL" },
    { "22109181", 0, 0, "BSTART.TEPL\tTSUBS, DT4" },
    { "22109181", LINX_DISAS_F_LEGACY, 0, "BSTART.TMA\tTLOAD, FP16" },
    { "22519181", LINX_DISAS_F_LEGACY, 0, "BSTART.VPAR\t163, FP16" },
    { "30007493", 0, 0, "B.IOTI\t[], last\t->t<8KB>" },
    { "30007493", LINX_DISAS_F_LEGACY, 0, "B.IOTI\t[], last\t->t<4KB>" },
    { "0000000f 00000001", 0, 0, ".insn\t0x000000010000000f" },
    { "0000000f 00000001", LINX_DISAS_F_LEGACY, 0, "C.BSTOP" },
    { "ffa04711", 0, 0xa2962, "BSTART\tDIRECT, 0x8aa7e" },
    { "ffa04711", LINX_DISAS_F_LEGACY, 0xa2962, "BSTART.STD\tDIRECT, 0x8aa7e" },
    /* v0.4 tile headers (BSTART.TMA Function 0, DataType FP16 = 2). */
    { "10011181", 0, 0, "BSTART.TMA\tTLOAD, FP16" },
    { "10011181", LINX_DISAS_F_LEGACY, 0, "BSTART.TMA\tTLOAD, DT2" },
    { "10031181", 0, 0, "BSTART.CUBE\tTMATMUL, FP16" },
    { "10031181", LINX_DISAS_F_LEGACY, 0, "BSTART.CUBE\tMAMULB, DT2" },
    /* FCVTA/M/N/P convert float to integer, as FCVTZ (the type after "2"
     * is an integer type: DstType 8 = sd, 9 = sw, 0 = ud). */
    { "400315eb", 0, 0, "fcvta.fd2sd\ta4, \t->s0" },
    { "4003266b", 0, 0, "fcvtm.fd2sd\ta4, \t->s1" },
    { "400336eb", 0, 0, "fcvtn.fd2sd\ta4, \t->s2" },
    { "4003476b", 0, 0, "fcvtp.fd2sd\ta4, \t->s3" },
    /* A hidden field: LR.W's SrcZero. */
    { "20520f8b", 0, 0, "lr.w\t[a2], \t->t {SrcZero=5}" },
    /* SETC immediates: one value, or imm<<shamt when not canonical. */
    { "40000375", 0, 0, "setc.eqi\tzero, 65536" },
    { "00100875", 0, 0, "setc.eqi\tzero, 1<<16" },
    { "00200875", 0, 0, "setc.eqi\tzero, 2<<16" },
};

static unsigned parse_hex_bytes(const char *hex, uint8_t *out)
{
    ListingLine l;
    char tmp[64];

    snprintf(tmp, sizeof(tmp), "%s", hex);
    assert_true(listing_parse_bytes(tmp, tmp + strlen(tmp), &l));
    memcpy(out, l.bytes, l.nbytes);
    return l.nbytes;
}

static void test_known(void **state)
{
    (void)state;

    for (unsigned i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        uint8_t b[16];
        unsigned n = parse_hex_bytes(known[i].hex, b), used;
        char text[LINX_DISAS_MAX];
        /* Words from the shared listings: their convention, linx-v0.4. */
        LinxDisasEnv env = { known[i].flags, NULL, NULL, linx_profile(LINX_PROFILE_V04) };

        linx_disas_bytes(b, n, known[i].pc, &env, text, sizeof(text), &used);
        assert_int_equal(used, n);
        if (strcmp(text, known[i].text) != 0) {
            fail_msg("%s: got '%s', want '%s'", known[i].hex, text, known[i].text);
        }
    }
}

/* The same words under both ISA profiles (docs/decisions.md, "Profiles").
 * SrcRType bits 26:25 of "sub a4, a5" (0x?6731305): linx-toolchain reads
 * 0 .sw, 1 .uw, 2 .neg, 3 none (linx-isa code_density_and_dynamic_
 * reduction.md section 2, LinxCore exec_uop.py); linx-v0.4 reads 0 none,
 * 1 .sw, 2 .uw, 3 .neg (semantics_conventions.json).  The CSEL words are
 * from LinxCore's compiled coremark trace (SrcRType 3). */
static void test_known_profiles(void **state)
{
    static const struct {
        const char *hex, *toolchain, *v04;
    } cases[] = {
        { "06731305", "sub\ta4, a5, \t->a4", "sub\ta4, a5.neg, \t->a4" },
        { "00731305", "sub\ta4, a5.sw, \t->a4", "sub\ta4, a5, \t->a4" },
        { "02731305", "sub\ta4, a5.uw, \t->a4", "sub\ta4, a5.sw, \t->a4" },
        { "04731305", "sub\ta4, a5.neg, \t->a4", "sub\ta4, a5.uw, \t->a4" },
        { "e7860177", "csel\tu#1, s1, t#1, \t->a0", "csel\tu#1, s1, t#1.neg, \t->a0" },
    };
    (void)state;

    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t b[16];
        unsigned n = parse_hex_bytes(cases[i].hex, b), used;
        char text[LINX_DISAS_MAX];
        LinxDisasEnv tc = { 0, NULL, NULL, linx_profile(LINX_PROFILE_TOOLCHAIN) };
        LinxDisasEnv v04 = { 0, NULL, NULL, linx_profile(LINX_PROFILE_V04) };

        linx_disas_bytes(b, n, 0, &tc, text, sizeof(text), &used);
        assert_string_equal(text, cases[i].toolchain);
        linx_disas_bytes(b, n, 0, NULL, text, sizeof(text), &used); /* the default */
        assert_string_equal(text, cases[i].toolchain);
        linx_disas_bytes(b, n, 0, &v04, text, sizeof(text), &used);
        assert_string_equal(text, cases[i].v04);
    }
}

static const char *one_symbol(void *opaque, uint64_t addr, uint64_t *off)
{
    (void)opaque;
    if (addr < 0x1000 || addr >= 0x2000) {
        return NULL;
    }
    *off = addr - 0x1000;
    return "func";
}

/* Report text: tabs as spaces, runs of spaces as one, no leading space. */
static void test_squeeze(void **state)
{
    char a[] = "ldi\t[a1, 0], \t->a0", b[] = "\t  C.BSTART.STD\t", c[] = "";

    (void)state;
    linx_disas_squeeze(a);
    assert_string_equal(a, "ldi [a1, 0], ->a0");
    linx_disas_squeeze(b);
    assert_string_equal(b, "C.BSTART.STD ");
    linx_disas_squeeze(c);
    assert_string_equal(c, "");
}

static void test_symbols_and_hex(void **state)
{
    /* C.BSTART DIRECT, simm12 = 8 (halfwords): target pc + 16. */
    uint8_t cb[2] = { 0x82, 0x00 };
    char text[LINX_DISAS_MAX];
    unsigned used;
    LinxDisasEnv env = { 0, one_symbol, NULL };
    (void)state;

    linx_disas_bytes(cb, 2, 0x1000 - 16, &env, text, sizeof(text), &used);
    assert_string_equal(text, "C.BSTART\tDIRECT, 0x1000 <func>");
    linx_disas_bytes(cb, 2, 0x1010, &env, text, sizeof(text), &used);
    assert_string_equal(text, "C.BSTART\tDIRECT, 0x1020 <func+0x20>");
    linx_disas_bytes(cb, 2, 0x3000, &env, text, sizeof(text), &used);
    assert_string_equal(text, "C.BSTART\tDIRECT, 0x3010");

    static const uint8_t b8[8] = { 0x7f, 0x12, 0x29, 0x01, 0x09, 0x21, 0xf9, 0x01 };
    linx_disas_hex(b8, 2, text, sizeof(text));
    assert_string_equal(text, "127f");
    linx_disas_hex(b8, 4, text, sizeof(text));
    assert_string_equal(text, "0129127f");
    linx_disas_hex(b8, 6, text, sizeof(text));
    assert_string_equal(text, "127f 21090129");
    linx_disas_hex(b8, 8, text, sizeof(text));
    assert_string_equal(text, "0129127f 01f92109");

    /* Truncated input: one byte, and a 64-bit prefix with 4 bytes. */
    assert_int_equal(linx_disas_bytes(b8, 1, 0, NULL, text, sizeof(text), &used),
                     LINX_DECODE_TRUNCATED);
    assert_int_equal(used, 1);
    assert_int_equal(linx_disas_bytes(b8, 4, 0, NULL, text, sizeof(text), &used),
                     LINX_DECODE_TRUNCATED);
    assert_string_equal(text, "<truncated>");

    /* A small buffer still gets a terminated prefix and the full length. */
    LinxInsn insn;
    char small[8];
    linx_decode(b8, 8, &insn);
    size_t full = linx_disas_insn(&insn, 0, NULL, text, sizeof(text));
    assert_int_equal(linx_disas_insn(&insn, 0, NULL, small, sizeof(small)), full);
    assert_int_equal(strlen(small), sizeof(small) - 1);
    assert_memory_equal(small, text, sizeof(small) - 1);
}

static void test_all_forms_print(void **state)
{
    (void)state;

    for (unsigned form = 0; form < LINX_F__COUNT; form++) {
        const LinxFormInfo *fi = linx_form(form);
        for (int it = 0; it < RANDOM_PER_FORM; it++) {
            uint64_t p = fi->match;
            LinxInsn insn;
            char a[LINX_DISAS_MAX], b[LINX_DISAS_MAX];
            uint64_t len_mask = fi->length == 8 ? ~UINT64_C(0)
                                                : (UINT64_C(1) << (8 * fi->length)) - 1;
            /* Any bits outside the fixed ones. */
            p |= rng() & ~fi->mask & len_mask;
            linx_insn_fill(&insn, form, p);
            size_t n = linx_disas_insn(&insn, 0x10000, NULL, a, sizeof(a));
            linx_disas_insn(&insn, 0x10000, NULL, b, sizeof(b));
            assert_true(n > 0 && n < sizeof(a));
            assert_string_equal(a, b);
            assert_null(strstr(a, "(null)"));
        }
    }
}

static void test_binary_sweep(void **state)
{
    char path[1024], err[256], text[LINX_DISAS_MAX];
    ElfFile ef;
    unsigned count = 0;
    (void)state;

    shared_path(path, sizeof(path), "guest/linux-user/02_algorithms.static");
    if (!elf_file_open(&ef, path, err, sizeof(err))) {
        print_message("SKIP: %s\n", err);
        skip();
    }
    const ElfSection *text_sec = elf_file_section_by_name(&ef, ".text");
    assert_non_null(text_sec);
    const uint8_t *b = elf_file_section_data(&ef, text_sec);
    for (uint64_t off = 0; off < text_sec->size;) {
        unsigned used;
        LinxDecodeStatus st = linx_disas_bytes(b + off, text_sec->size - off,
                                               text_sec->addr + off, NULL, text, sizeof(text),
                                               &used);
        assert_int_equal(st, LINX_DECODE_OK);
        assert_null(strstr(text, ".insn"));
        off += used;
        count++;
    }
    print_message("02_algorithms .text: %u instructions\n", count);
    assert_int_equal(count, 1930);
    elf_file_close(&ef);
}

/* ACCCVT's B.ARG is its quant mode: with the listing's header state the
 * disassembler names it (QSCALAR), without it (or in a TMA header) the
 * same word reads as the layout selector ND2NZ (failed before: ND2NZ in
 * ACCCVT headers).  The header state follows the instruction stream. */
static void test_acccvt_quant(void **state)
{
    static const uint32_t words[] = { 0x98831181, /* BSTART.CUBE ACCCVT, INT8 */
                                      0x000030c3, /* B.ARG format 1 */
                                      0x08011181, /* BSTART.TMA TLOAD, FP32 */
                                      0x000030c3 };
    static const char *const want[] = { "BSTART.CUBE\tACCCVT, INT8", "B.ARG\tQSCALAR",
                                        "BSTART.TMA\tTLOAD, FP32", "B.ARG\tND2NZ" };
    LinxDisasHeader hdr = { 0, 0 };
    LinxDisasEnv env = { 0, NULL, NULL, NULL, &hdr };
    char text[LINX_DISAS_MAX];
    unsigned len;

    (void)state;
    for (unsigned i = 0; i < 4; i++) {
        uint8_t b[4] = { (uint8_t)words[i], (uint8_t)(words[i] >> 8), (uint8_t)(words[i] >> 16),
                         (uint8_t)(words[i] >> 24) };

        linx_disas_bytes(b, 4, 0x1000 + 4 * i, &env, text, sizeof(text), &len);
        assert_string_equal(text, want[i]);
    }
    {
        uint8_t b[4] = { 0xc3, 0x30, 0, 0 };

        linx_disas_bytes(b, 4, 0, NULL, text, sizeof(text), &len);
        assert_string_equal(text, "B.ARG\tND2NZ"); /* no header state */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listings),
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_known_profiles),
        cmocka_unit_test(test_squeeze),
        cmocka_unit_test(test_acccvt_quant),
        cmocka_unit_test(test_symbols_and_hex),
        cmocka_unit_test(test_all_forms_print),
        cmocka_unit_test(test_binary_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
