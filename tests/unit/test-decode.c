/*
 * Decoder tests.
 *
 * - Every catalog form: encodings synthesised from its match bits and many
 *   random legal field values decode back to that form with those values.
 * - Overlapping encodings resolve by the documented rules only.
 * - A linear sweep of .text of the shared C++ binary decodes 100%.
 * - Random words and truncated buffers never crash the decoder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "target/linx/decode.h"
#include "util/elf-file.h"

#define ITERATIONS_PER_FORM 256

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

/* Bits of a field's value that some piece of the encoding holds. */
static uint64_t covered_value_bits(const LinxFormField *f)
{
    const LinxFieldPiece *p = linx_field_pieces(f);
    uint64_t m = 0;

    for (int i = 0; i < f->piece_count; i++) {
        m |= ((UINT64_C(1) << p[i].width) - 1) << p[i].value_lsb;
    }
    return m;
}

static int64_t random_field_value(const LinxFormField *f)
{
    uint64_t v = rng() & covered_value_bits(f);

    if (f->is_signed && (v >> (f->width - 1) & 1)) {
        v |= ~((UINT64_C(1) << f->width) - 1);
    }
    return (int64_t)v;
}

/* Synthesise an encoding of @form with random legal field values. */
static bool synthesise(unsigned form, uint64_t *packed, int64_t *vals)
{
    const LinxFormInfo *fi = linx_form(form);
    const LinxFormField *f = linx_form_fields(form);

    for (int attempt = 0; attempt < 1000; attempt++) {
        uint64_t p = fi->match;
        for (int i = 0; i < fi->field_count; i++) {
            vals[i] = random_field_value(&f[i]);
            assert_true(linx_field_insert(&f[i], vals[i], &p));
        }
        assert_int_equal(p & fi->mask, fi->match);
        if (linx_form_constraints_ok(form, p)) {
            *packed = p;
            return true;
        }
    }
    return false;
}

/* The one catalog collision that "most mask bits" settles in favour of a
 * different mnemonic (docs/decisions.md D3). */
static bool documented_overlap(unsigned expected, unsigned got)
{
    bool tepl = expected == LINX_F_BSTART_TEPL || expected == LINX_F_BSTART_PAR;
    bool kernel = got == LINX_F_BSTART_MPAR || got == LINX_F_BSTART_MSEQ ||
                  got == LINX_F_BSTART_VPAR || got == LINX_F_BSTART_VSEQ;
    return tepl && kernel;
}

static void test_form_count(void **state)
{
    (void)state;
    assert_int_equal(LINX_NUM_CATALOG_FORMS, 740);
    assert_int_equal(LINX_F__COUNT, 741); /* + B.DATR */
    unsigned per_len[9] = { 0 };
    for (unsigned i = 0; i < LINX_F__COUNT; i++) {
        if (!(linx_form(i)->flags & LINX_FORMF_EXTENSION)) {
            per_len[linx_form(i)->length]++;
        }
    }
    assert_int_equal(per_len[2], 39);
    assert_int_equal(per_len[4], 317);
    assert_int_equal(per_len[6], 200);
    assert_int_equal(per_len[8], 184);
}

static void test_all_forms_roundtrip(void **state)
{
    unsigned checked = 0, overlaps = 0;
    (void)state;

    for (unsigned form = 0; form < LINX_F__COUNT; form++) {
        const LinxFormInfo *fi = linx_form(form);
        int64_t vals[LINX_MAX_FIELDS];
        uint64_t packed = 0;

        for (int it = 0; it < ITERATIONS_PER_FORM; it++) {
            LinxInsn insn;
            if (!synthesise(form, &packed, vals)) {
                fail_msg("%s: no legal field values found", fi->asm_text);
            }
            if (fi->flags & LINX_FORMF_FUSED_PAIR) {
                uint8_t buf[8];
                for (int b = 0; b < 8; b++) {
                    buf[b] = (uint8_t)(packed >> (8 * b));
                }
                assert_true(linx_decode_fused_call(buf, fi->length, &insn));
                assert_int_equal(insn.form, form);
            } else {
                LinxDecodeStatus st = linx_decode_packed(packed, fi->length, &insn);
                if (st != LINX_DECODE_OK) {
                    fail_msg("%s: encoding 0x%llx does not decode", fi->asm_text,
                             (unsigned long long)packed);
                }
                if (insn.form != fi->canonical) {
                    if (!documented_overlap(form, insn.form)) {
                        fail_msg("%s: encoding 0x%llx decodes as %s", fi->asm_text,
                                 (unsigned long long)packed, linx_form(insn.form)->asm_text);
                    }
                    overlaps++;
                    continue;
                }
            }
            const LinxFormField *f = linx_form_fields(form);
            for (int i = 0; i < fi->field_count; i++) {
                bool present;
                int64_t v = linx_insn_field(&insn, f[i].id, &present);
                assert_true(present);
                if (v != vals[i]) {
                    fail_msg("%s: field %s decoded %lld, encoded %lld", fi->asm_text,
                             linx_field_names[f[i].id], (long long)v, (long long)vals[i]);
                }
            }
            assert_int_equal(insn.len, fi->length);
            checked++;
        }
    }
    printf("decode round trip: %u encodings over %d forms checked, %u resolved by the "
           "TEPL/kernel-header rule\n",
           checked, LINX_F__COUNT, overlaps);
}

static void test_overlap_rules(void **state)
{
    LinxInsn insn;
    (void)state;

    /* 0x02001181 is both BSTART.MPAR VS16 and BSTART.TEPL TADD/FP64. */
    assert_int_equal(linx_decode_packed(0x02001181, 4, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, LINX_F_BSTART_MPAR);
    assert_int_equal(linx_insn_field(&insn, LINX_FLD_Mode, NULL), 1);
    /* TEPL with a non-zero data type is TEPL. */
    assert_int_equal(linx_decode_packed(0x22519181, 4, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, LINX_F_BSTART_TEPL);
    assert_int_equal(linx_insn_field(&insn, LINX_FLD_TileOpcode, NULL), 163);
    /* C.BSTOP is 0x0000; C.BSTART.STD FALL is 0x0800. */
    assert_int_equal(linx_decode_packed(0x0000, 2, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, LINX_F_C_BSTOP);
    assert_int_equal(linx_decode_packed(0x0800, 2, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, LINX_F_C_BSTART_STD);
    assert_int_equal(linx_insn_field(&insn, LINX_FLD_BrType, NULL), 1);
    /* c.movi with RegDst = ra is C.SETRET. */
    assert_int_equal(linx_decode_packed(0x5056, 2, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, LINX_F_C_SETRET);
    /* BSTART.TMA Function 1 is the TSTORE alias, Function 5 stays TMA. */
    assert_int_equal(linx_decode_packed(0x22109181u | (1u << 20), 4, &insn), LINX_DECODE_OK);
    assert_int_equal(linx_decode_packed(0x00111181, 4, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, LINX_F_BSTART_TSTORE);
    assert_int_equal(linx_decode_packed(0x00511181, 4, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, LINX_F_BSTART_TMA);
    /* B.DATR (extension) at opcode 0x23 funct3 001. */
    assert_int_equal(linx_decode_packed(0x00001023 | (2u << 7), 4, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, LINX_F_B_DATR);
    assert_int_equal(linx_insn_field(&insn, LINX_FLD_Layout, NULL), 2);
}

static void test_lengths(void **state)
{
    (void)state;
    assert_int_equal(linx_insn_length(0x0000), 2);
    assert_int_equal(linx_insn_length(0x100e), 6);
    assert_int_equal(linx_insn_length(0x1181), 4);
    assert_int_equal(linx_insn_length(0x127f), 8);
}

static const char *shared_path(const char *rel, char *buf, size_t len)
{
    const char *dir = getenv("LINX_SHARED_DIR");
    snprintf(buf, len, "%s/%s", dir ? dir : LINX_SHARED_DIR, rel);
    return buf;
}

static void test_sweep_shared_binary(void **state)
{
    char path[4096], err[512];
    ElfFile ef;
    (void)state;

    shared_path("guest/linux-user/02_algorithms.static", path, sizeof(path));
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        printf("SKIP: %s not present\n", path);
        skip();
    }
    fclose(probe);
    assert_true(elf_file_open(&ef, path, err, sizeof(err)));
    const ElfSection *text = elf_file_section_by_name(&ef, ".text");
    assert_non_null(text);
    const uint8_t *bytes = elf_file_section_data(&ef, text);
    unsigned n = 0, bad = 0;
    for (uint64_t off = 0; off < text->size;) {
        LinxInsn insn;
        LinxDecodeStatus st = linx_decode(bytes + off, text->size - off, &insn);
        if (st != LINX_DECODE_OK) {
            bad++;
            printf("undecodable at 0x%llx\n", (unsigned long long)(text->addr + off));
        }
        assert_int_not_equal(st, LINX_DECODE_TRUNCATED);
        off += insn.len;
        n++;
    }
    printf("linear sweep of .text: %u instructions, %u undecodable (%.2f%% decoded)\n", n, bad,
           100.0 * (n - bad) / n);
    assert_int_equal(bad, 0);
    assert_int_equal(n, 1930);
    elf_file_close(&ef);
}

static void test_random_and_truncated(void **state)
{
    uint8_t buf[16];
    unsigned ok = 0;
    (void)state;

    for (int i = 0; i < 200000; i++) {
        uint64_t a = rng(), b = rng();
        memcpy(buf, &a, 8);
        memcpy(buf + 8, &b, 8);
        size_t avail = rng() % 10;
        LinxInsn insn;
        LinxDecodeStatus st = linx_decode(buf, avail, &insn);
        if (st == LINX_DECODE_OK) {
            assert_true(insn.len <= avail);
            assert_true(insn.form < LINX_F__COUNT);
            ok++;
        } else if (st == LINX_DECODE_TRUNCATED) {
            assert_true(avail < 2 || insn.len > avail);
        }
        linx_decode_fused_call(buf, avail, &insn);
    }
    printf("random words: %u of 200000 decode\n", ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_form_count),
        cmocka_unit_test(test_lengths),
        cmocka_unit_test(test_overlap_rules),
        cmocka_unit_test(test_all_forms_roundtrip),
        cmocka_unit_test(test_sweep_shared_binary),
        cmocka_unit_test(test_random_and_truncated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
