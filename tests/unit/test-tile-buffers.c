/*
 * Buffer device models: profiles (capacities, alignment), engine access
 * checks, guest windows (MMIO reads/writes land in the buffer, accesses
 * past the capacity fault), address lookup.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/linx/buffers.h"
#include "hw/linx/buffers-mmio.h"
#include "hw/linx/buffers-datacopy.h"
#include "hw/linx/buffers-mmad.h"

#define KB 1024u

static void test_profiles(void **state)
{
    LinxBuffers *a = linx_buffers_new(LINX_BUF_PROFILE_A2A3);
    LinxBuffers *b = linx_buffers_new(LINX_BUF_PROFILE_950);

    (void)state;
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->buf[LINX_BUF_L1].size, 512 * KB);
    assert_int_equal(a->buf[LINX_BUF_L0A].size, 64 * KB);
    assert_int_equal(a->buf[LINX_BUF_L0B].size, 64 * KB);
    assert_int_equal(a->buf[LINX_BUF_L0C].size, 128 * KB);
    assert_int_equal(a->buf[LINX_BUF_UB].size, 192 * KB);
    assert_int_equal(b->buf[LINX_BUF_L0C].size, 256 * KB);
    assert_int_equal(b->buf[LINX_BUF_UB].size, 248 * KB);
    assert_int_equal(a->buf[LINX_BUF_L1].align, 32);
    assert_int_equal(a->buf[LINX_BUF_L0A].align, 512);
    assert_int_equal(a->buf[LINX_BUF_L0B].align, 512);
    assert_int_equal(a->buf[LINX_BUF_L0C].align, 64);
    assert_int_equal(a->buf[LINX_BUF_UB].align, 32);
    assert_string_equal(a->buf[LINX_BUF_L0C].name, "L0C");
    assert_string_equal(linx_buffer_profile_name(LINX_BUF_PROFILE_950), "950");
    /* Windows hold the largest profile's capacity and do not overlap. */
    for (unsigned i = 0; i < LINX_BUF__COUNT; i++) {
        assert_true(b->buf[i].size <= b->buf[i].window_len);
        assert_true(b->buf[i].window + b->buf[i].window_len <= LINX_BUFFERS_WINDOW_SPAN);
        for (unsigned j = 0; j < i; j++) {
            assert_true(b->buf[j].window + b->buf[j].window_len <= b->buf[i].window);
        }
    }
    assert_null(linx_buffers_new((LinxBufferProfile)7));
    linx_buffers_free(a);
    linx_buffers_free(b);
}

static void test_engine_access(void **state)
{
    LinxBuffers *b = linx_buffers_new(LINX_BUF_PROFILE_A2A3);
    uint8_t *p;

    (void)state;
    assert_int_equal(linx_buffer_range(b, LINX_BUF_L0A, 512, 512, &p), LINX_BUF_OK);
    assert_ptr_equal(p, b->buf[LINX_BUF_L0A].data + 512);
    assert_int_equal(linx_buffer_range(b, LINX_BUF_L0A, 256, 512, &p), LINX_BUF_ERR_ALIGN);
    assert_int_equal(linx_buffer_range(b, LINX_BUF_L0B, 64 * KB - 512, 512, &p), LINX_BUF_OK);
    assert_int_equal(linx_buffer_range(b, LINX_BUF_L0B, 64 * KB - 512, 1024, &p),
                     LINX_BUF_ERR_RANGE);
    assert_int_equal(linx_buffer_range(b, LINX_BUF_L0B, UINT64_MAX - 511, 1024, &p),
                     LINX_BUF_ERR_RANGE);
    assert_int_equal(linx_buffer_range(b, LINX_BUF_L1, 32, 100, &p), LINX_BUF_OK);
    assert_int_equal(linx_buffer_range(b, LINX_BUF_L1, 16, 100, &p), LINX_BUF_ERR_ALIGN);
    assert_int_equal(linx_buffer_range(b, LINX_BUF_L0C, 64, 64, &p), LINX_BUF_OK);
    assert_int_equal(linx_buffer_range(b, LINX_BUF_UB, 192 * KB, 0, &p), LINX_BUF_OK);
    assert_string_equal(linx_buffer_error_name(LINX_BUF_ERR_ALIGN), "misaligned for the buffer");
    linx_buffers_free(b);
}

static void test_guest_windows(void **state)
{
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    LinxBuffers *b = linx_buffers_new(LINX_BUF_PROFILE_A2A3);
    const uint64_t base = LINX_BUFFERS_DEFAULT_BASE;
    uint64_t v = 0x1122334455667788ull, r = 0, fa = 0, off;
    LinxBufferId id;

    (void)state;
    assert_true(linx_buffers_map(b, gm, base));
    /* A guest store into UB lands in the buffer, and reads back. */
    assert_int_equal(guest_mem_write(gm, base + 0x200000 + 0x100, &v, 8, NULL), GM_OK);
    assert_memory_equal(b->buf[LINX_BUF_UB].data + 0x100, &v, 8);
    assert_int_equal(guest_mem_read(gm, base + 0x200000 + 0x100, &r, 8, GM_PROT_READ, NULL),
                     GM_OK);
    assert_int_equal(r, v);
    assert_int_equal(b->buf[LINX_BUF_UB].guest_writes, 1);
    /* Unaligned multi-byte copies work too (split in aligned pieces). */
    assert_int_equal(guest_mem_write(gm, base + 0x100000 + 3, "abcdefghij", 10, NULL), GM_OK);
    assert_memory_equal(b->buf[LINX_BUF_L0A].data + 3, "abcdefghij", 10);
    /* Past L0C's 128 KB capacity (inside its 512 KB window): fault. */
    assert_int_not_equal(guest_mem_write(gm, base + 0x180000 + 128 * KB, &v, 8, &fa), GM_OK);
    assert_int_equal(fa, base + 0x180000 + 128 * KB);
    /* Lookup. */
    assert_true(linx_buffers_lookup(b, base + 0x140000 + 0x2000, &id, &off));
    assert_int_equal(id, LINX_BUF_L0B);
    assert_int_equal(off, 0x2000);
    assert_false(linx_buffers_lookup(b, base + 0x180000 + 128 * KB, &id, &off));
    assert_false(linx_buffers_lookup(b, base - 1, &id, &off));
    /* Mapping twice overlaps: refused, nothing changes. */
    assert_false(linx_buffers_map(b, gm, base));
    /* Reset clears the contents. */
    linx_buffers_reset(b);
    assert_int_equal(b->buf[LINX_BUF_UB].data[0x100], 0);
    guest_mem_free(gm);
    linx_buffers_free(b);
}

/* An engine page that cannot be mapped (RAM already there): the map is
 * refused and undone - the buffer windows mapped before it are gone again,
 * the device keeps its previous address space - and once the obstacle is
 * gone the same call succeeds. */
static void test_map_undone_on_engine_page(void **state)
{
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    LinxBuffers *b = linx_buffers_new(LINX_BUF_PROFILE_A2A3);
    const uint64_t base = LINX_BUFFERS_DEFAULT_BASE;
    uint64_t v = 7;

    (void)state;
    assert_true(guest_mem_map(gm, base + LINX_MM_REGS_OFFSET, LINX_ENGINE_PAGE_LEN,
                              GM_PROT_READ | GM_PROT_WRITE, false));
    assert_false(linx_buffers_map(b, gm, base));
    assert_null(b->gm);
    assert_int_equal(b->base, 0);
    /* No buffer window and no engine page before the obstacle is left. */
    for (unsigned i = 0; i < LINX_BUF__COUNT; i++) {
        assert_int_not_equal(guest_mem_write(gm, base + b->buf[i].window, &v, 8, NULL), GM_OK);
    }
    assert_int_not_equal(guest_mem_write(gm, base + LINX_DC_REGS_OFFSET, &v, 8, NULL), GM_OK);
    assert_true(guest_mem_unmap(gm, base + LINX_MM_REGS_OFFSET, LINX_ENGINE_PAGE_LEN));
    assert_true(linx_buffers_map(b, gm, base));
    assert_ptr_equal(b->gm, gm);
    assert_int_equal(guest_mem_write(gm, base + b->buf[LINX_BUF_UB].window, &v, 8, NULL), GM_OK);
    assert_int_equal(b->buf[LINX_BUF_UB].data[0], 7);
    guest_mem_free(gm);
    linx_buffers_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_engine_access),
        cmocka_unit_test(test_guest_windows),
        cmocka_unit_test(test_map_undone_on_engine_page),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
