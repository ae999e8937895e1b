/*
 * Tile register file, element types and dumps.
 *
 * - Push semantics: a producer writes the spare slot, the commit makes it
 *   hand#1, older entries shift, #8 drops; the 8 visible tiles are never
 *   the spare, so reading hand#8 while pushing the same hand is safe.
 * - Tile-id mapping t#k -> k-1, u#k -> 8+k-1, m#k -> 16+k-1, n#k -> 24+k-1.
 * - Element type table and the fp16 / bf16 / e4m3 conversions (IEEE round
 *   to nearest even, subnormals kept, E4M3 saturating).
 * - Text dumps decode the layout: (r, c) values in logical order.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/linx/tile-dtype.h"
#include "hw/linx/tile-dump.h"
#include "hw/linx/tile-regs.h"

static float f32(uint32_t bits)
{
    float f;

    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* Push a tile whose first byte is @tag onto @hand. */
static void push_tagged(LinxTileState *ts, LinxTileHand hand, uint8_t tag)
{
    LinxTileSlot *s = linx_tile_push_slot(ts, hand);
    LinxTileMeta m = { .bytes = 512, .dtype = LINX_DT_U8, .layout = LINX_TL_ND,
                       .rows = 16, .cols = 32, .valid_rows = 16, .valid_cols = 32 };

    for (unsigned id = 0; id < LINX_TILE_COUNT; id++) {
        assert_ptr_not_equal(s, linx_tile_get(ts, id)); /* spare is never visible */
    }
    s->data[0] = tag;
    linx_tile_push_commit(ts, hand, &m);
}

static void test_push_semantics(void **state)
{
    LinxTileState *ts = linx_tile_state_new();

    (void)state;
    assert_non_null(ts);
    for (unsigned id = 0; id < LINX_TILE_COUNT; id++) {
        assert_int_equal(linx_tile_get(ts, id)->meta.bytes, 0);
    }
    for (uint8_t v = 1; v <= 10; v++) {
        push_tagged(ts, LINX_HAND_U, v);
    }
    /* u#1 = 10 (newest) ... u#8 = 3; 1 and 2 dropped. */
    for (unsigned k = 1; k <= LINX_TILE_DEPTH; k++) {
        LinxTileSlot *s = linx_tile_get(ts, linx_tile_id(LINX_HAND_U, k));
        assert_int_equal(s->data[0], 11 - k);
        assert_int_equal(s->meta.bytes, 512);
    }
    /* Other hands untouched. */
    assert_int_equal(linx_tile_get(ts, linx_tile_id(LINX_HAND_T, 1))->meta.bytes, 0);
    assert_int_equal(linx_tile_get(ts, linx_tile_id(LINX_HAND_N, 8))->meta.bytes, 0);
    /* A producer reading u#8 while pushing u: the spare is another slot,
     * so u#8's bytes are intact until the commit drops it. */
    {
        LinxTileSlot *u8 = linx_tile_get(ts, linx_tile_id(LINX_HAND_U, 8));
        LinxTileSlot *spare = linx_tile_push_slot(ts, LINX_HAND_U);
        memcpy(spare->data, u8->data, 512);
        assert_int_equal(u8->data[0], 3);
        linx_tile_push_commit(ts, LINX_HAND_U, &u8->meta);
        assert_int_equal(linx_tile_get(ts, linx_tile_id(LINX_HAND_U, 1))->data[0], 3);
        assert_int_equal(linx_tile_get(ts, linx_tile_id(LINX_HAND_U, 8))->data[0], 4);
    }
    assert_int_equal(ts->pushes, 11);
    linx_tile_state_reset(ts);
    assert_int_equal(linx_tile_get(ts, linx_tile_id(LINX_HAND_U, 1))->meta.bytes, 0);
    assert_int_equal(linx_tile_get(ts, linx_tile_id(LINX_HAND_U, 1))->data[0], 0);
    linx_tile_state_free(ts);
}

static void test_tile_ids_and_names(void **state)
{
    char buf[8];

    (void)state;
    assert_int_equal(linx_tile_id(LINX_HAND_T, 1), 0);
    assert_int_equal(linx_tile_id(LINX_HAND_T, 8), 7);
    assert_int_equal(linx_tile_id(LINX_HAND_U, 1), 8);
    assert_int_equal(linx_tile_id(LINX_HAND_M, 3), 18);
    assert_int_equal(linx_tile_id(LINX_HAND_N, 8), 31);
    assert_string_equal(linx_tile_name(0, buf), "t#1");
    assert_string_equal(linx_tile_name(9, buf), "u#2");
    assert_string_equal(linx_tile_name(23, buf), "m#8");
    assert_string_equal(linx_tile_name(24, buf), "n#1");
    assert_string_equal(linx_tile_name(LINX_TILE_ACC_ID, buf), "acc");
}

/* Slots are 64-byte aligned, distinct, and not 4 KB aligned (4K aliasing). */
static void test_slot_placement(void **state)
{
    LinxTileState *ts = linx_tile_state_new();

    (void)state;
    for (unsigned h = 0; h < LINX_TILE_HANDS; h++) {
        for (unsigned i = 0; i < LINX_TILE_RING; i++) {
            uintptr_t p = (uintptr_t)ts->slot[h][i].data;
            assert_int_equal(p % 64, 0);
            assert_int_not_equal(p % 4096, 0);
            for (unsigned j = 0; j < i; j++) {
                uintptr_t q = (uintptr_t)ts->slot[h][j].data;
                assert_true(p >= q + LINX_TILE_MAX_BYTES || q >= p + LINX_TILE_MAX_BYTES);
            }
        }
    }
    linx_tile_state_free(ts);
}

static void test_dtype_table(void **state)
{
    const LinxDTypeInfo *i;

    (void)state;
    i = linx_dtype_info(LINX_DT_FP32);
    assert_string_equal(i->name, "FP32");
    assert_int_equal(i->size, 4);
    assert_int_equal(i->max_bits, 0x7f800000u);
    assert_int_equal(i->min_bits, 0xff800000u);
    i = linx_dtype_info(LINX_DT_S16);
    assert_int_equal(i->max_bits, 0x7fff);
    assert_int_equal(i->min_bits, 0x8000);
    i = linx_dtype_info(LINX_DT_U8);
    assert_int_equal(i->max_bits, 0xff);
    assert_int_equal(i->min_bits, 0);
    i = linx_dtype_info(LINX_DT_FP8);
    assert_string_equal(i->name, "E4M3");
    assert_int_equal(i->max_bits, 0x7e);
    i = linx_dtype_info(LINX_DT_BF16);
    assert_int_equal(i->size, 2);
    assert_int_equal(i->max_bits, 0x7f80);
    assert_null(linx_dtype_info(4));
    assert_null(linx_dtype_info(20)); /* INT4 */
    assert_null(linx_dtype_info(99));
    assert_string_equal(linx_dtype_name(20), "INT4");
    assert_string_equal(linx_dtype_name(5), "?");
}

static void test_fp16(void **state)
{
    (void)state;
    assert_int_equal(linx_float_to_fp16(1.0f), 0x3c00);
    assert_int_equal(linx_float_to_fp16(-2.0f), 0xc000);
    assert_int_equal(linx_float_to_fp16(65504.0f), 0x7bff);
    assert_int_equal(linx_float_to_fp16(65519.0f), 0x7bff);
    assert_int_equal(linx_float_to_fp16(65520.0f), 0x7c00); /* tie to even: inf */
    assert_int_equal(linx_float_to_fp16(0x1p-24f), 0x0001);
    assert_int_equal(linx_float_to_fp16(0x1p-25f), 0x0000);       /* tie to even: 0 */
    assert_int_equal(linx_float_to_fp16(0x1.8p-24f), 0x0002);     /* tie to even: 2 */
    assert_int_equal(linx_float_to_fp16(0x1.ffcp-15f), 0x0400);   /* rounds up to min normal */
    assert_int_equal(linx_float_to_fp16(1.0f + 0x1p-11f), 0x3c00); /* tie, even */
    assert_int_equal(linx_float_to_fp16(1.0f + 0x3p-11f), 0x3c02); /* tie, up to even */
    assert_int_equal(linx_float_to_fp16(INFINITY), 0x7c00);
    assert_int_equal(linx_float_to_fp16(NAN) & 0x7e00, 0x7e00);
    assert_true(linx_fp16_to_float(0x3c00) == 1.0f);
    assert_true(linx_fp16_to_float(0x0001) == 0x1p-24f);
    assert_true(linx_fp16_to_float(0xfbff) == -65504.0f);
    assert_true(isinf(linx_fp16_to_float(0x7c00)));
    assert_true(isnan(linx_fp16_to_float(0x7e00)));
    /* Exhaustive round trip of every finite fp16. */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) != 0x7c00) {
            assert_int_equal(linx_float_to_fp16(linx_fp16_to_float((uint16_t)h)), h);
        }
    }
}

static void test_bf16(void **state)
{
    (void)state;
    assert_int_equal(linx_float_to_bf16(1.0f), 0x3f80);
    assert_int_equal(linx_float_to_bf16(f32(0x3f808000)), 0x3f80); /* tie, even */
    assert_int_equal(linx_float_to_bf16(f32(0x3f818000)), 0x3f82); /* tie, up */
    assert_int_equal(linx_float_to_bf16(f32(0x3f808001)), 0x3f81);
    assert_int_equal(linx_float_to_bf16(f32(0x7f7fffff)), 0x7f80); /* overflow to inf */
    assert_int_equal(linx_float_to_bf16(f32(0x7f800001)) & 0x7fc0, 0x7fc0); /* quiet NaN */
    assert_true(linx_bf16_to_float(0xc040) == -3.0f);
}

static void test_e4m3(void **state)
{
    (void)state;
    assert_int_equal(linx_float_to_e4m3(1.0f), 0x38);
    assert_int_equal(linx_float_to_e4m3(448.0f), 0x7e);
    assert_int_equal(linx_float_to_e4m3(1000.0f), 0x7e); /* saturates */
    assert_int_equal(linx_float_to_e4m3(-INFINITY), 0xfe);
    assert_int_equal(linx_float_to_e4m3(NAN) & 0x7f, 0x7f);
    assert_int_equal(linx_float_to_e4m3(0x1p-9f), 0x01); /* smallest subnormal */
    assert_int_equal(linx_float_to_e4m3(0x1p-10f), 0x00); /* tie to even */
    assert_int_equal(linx_float_to_e4m3(0x1.8p-9f), 0x02);
    assert_true(linx_e4m3_to_float(0x7e) == 448.0f);
    assert_true(linx_e4m3_to_float(0x01) == 0x1p-9f);
    assert_true(linx_e4m3_to_float(0xb8) == -1.0f);
    assert_true(isnan(linx_e4m3_to_float(0x7f)));
    for (uint32_t v = 0; v < 0x100; v++) {
        if ((v & 0x7f) != 0x7f) {
            assert_int_equal(linx_float_to_e4m3(linx_e4m3_to_float((uint8_t)v)), v);
        }
    }
}

static char *dump_to_string(const LinxTileState *ts, unsigned id, const LinxTileDumpOpts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    linx_tile_dump(f, ts, id, o);
    fclose(f);
    return buf;
}

static void test_dump(void **state)
{
    LinxTileState *ts = linx_tile_state_new();
    LinxTileSlot *s = linx_tile_push_slot(ts, LINX_HAND_M);
    LinxTileMeta m = { .bytes = 512, .dtype = LINX_DT_S32, .layout = LINX_TL_NZ,
                       .rows = 16, .cols = 8, .valid_rows = 2, .valid_cols = 3 };
    LinxTileDumpOpts hex = { LINX_TILE_DUMP_HEX, 0, 0 };
    char *text;

    (void)state;
    /* NZ 16 x 8 s32: element (r, c) at r * 8 + c; value 100 r + c. */
    for (uint32_t r = 0; r < 16; r++) {
        for (uint32_t c = 0; c < 8; c++) {
            int32_t v = (int32_t)(100 * r + c) * (r == 1 ? -1 : 1);
            memcpy(s->data + linx_tile_elem_offset(LINX_TL_NZ, r, c, 16, 8, 4) * 4, &v, 4);
        }
    }
    linx_tile_push_commit(ts, LINX_HAND_M, &m);
    text = dump_to_string(ts, linx_tile_id(LINX_HAND_M, 1), NULL);
    assert_non_null(strstr(text, "m#1 (tile 16): 512 B S32 NZ 16x8, valid 2x3\n"));
    assert_non_null(strstr(text, "[  0]      0      1      2\n"));
    assert_non_null(strstr(text, "[  1]   -100   -101   -102\n"));
    assert_null(strstr(text, "[  2]"));
    free(text);
    text = dump_to_string(ts, linx_tile_id(LINX_HAND_M, 1), &hex);
    assert_non_null(strstr(text, "[  1] ffffff9c ffffff9b ffffff9a\n"));
    free(text);
    text = dump_to_string(ts, linx_tile_id(LINX_HAND_T, 1), NULL);
    assert_string_equal(text, "t#1 (tile 0): empty\n");
    free(text);
    {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        linx_tile_dump_summary(f, ts);
        fclose(f);
        assert_non_null(strstr(buf, "m#1 (tile 16): 512 B S32 NZ 16x8, valid 2x3\n"));
        assert_non_null(strstr(buf, "acc (tile 32): empty\n"));
        free(buf);
    }
    linx_tile_state_free(ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_semantics),
        cmocka_unit_test(test_tile_ids_and_names),
        cmocka_unit_test(test_slot_placement),
        cmocka_unit_test(test_dtype_table),
        cmocka_unit_test(test_fp16),
        cmocka_unit_test(test_bf16),
        cmocka_unit_test(test_e4m3),
        cmocka_unit_test(test_dump),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
