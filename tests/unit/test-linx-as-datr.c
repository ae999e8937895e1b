/*
 * linx-as's B.DATR layout codes (tools/linx-as/template.c) are the ones
 * the tile engine decodes (hw/linx/tma.h): both directions, both
 * spellings.  A separate test so that the assembler's own tests do not
 * need the tile sources.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "as-internal.h"
#include "hw/linx/tma.h"
#include "template.h"

/* The B.DATR layout codes are the ones the tile engine decodes. */
static void test_datr_codes_match_tile_engine(void **state)
{
    static const char *const store_names[] = { "NORM", "NZ2ND", "ZN2ND", "NZ2DN", "ZN2DN" };
    static const char *const load_names[] = { "NORM", "ND2NZ", "ND2ZN", "DN2NZ", "DN2ZN" };
    (void)state;

    for (unsigned l = 0; l < TMA_LAYOUT__COUNT; l++) {
        TmaLayout got;
        unsigned st = tmpl_datr_code(true, store_names[l], strlen(store_names[l]));
        unsigned ld = tmpl_datr_code(false, load_names[l], strlen(load_names[l]));
        assert_int_equal(st, tma_datr_code(TMA_OP_TSTORE, (TmaLayout)l));
        assert_int_equal(ld, tma_datr_code(TMA_OP_TLOAD, (TmaLayout)l));
        assert_true(tma_layout_from_datr(TMA_OP_TSTORE, st, &got));
        assert_int_equal(got, l);
        assert_true(tma_layout_from_datr(TMA_OP_TLOAD, ld, &got));
        assert_int_equal(got, l);
        /* Either spelling names the same layout. */
        assert_int_equal(tmpl_datr_code(true, load_names[l], strlen(load_names[l])), st);
        assert_int_equal(tmpl_datr_code(false, store_names[l], strlen(store_names[l])), ld);
        assert_string_equal(tma_layout_name(TMA_OP_TSTORE, (TmaLayout)l), store_names[l]);
    }
    assert_int_equal(tmpl_datr_code(true, "XY2Z", 4), TMPL_BAD_LAYOUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_datr_codes_match_tile_engine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
