/*
 * Model-based random test of guest memory: thousands of random map,
 * unmap, protect, move, read, write, window, find_free and code-mark
 * operations on a 48-page window, checked after every step against a
 * plain per-page model (mapped?, permissions, bytes, code mark).  It
 * exercises the region splitting and merging, the shared host blocks
 * behind split regions, and every fault address rule at once.  It runs
 * with the default direct window, without one, and with a window ending
 * in the middle of the pages (moves into, out of and within the window;
 * every mapped page inside the window must be direct: host = base +
 * guest address).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "hw/core/guest-memory.h"

#define PAGE GUEST_PAGE_SIZE
#define NPAGES 48
#define BASE UINT64_C(0x400000)
#define STEPS 20000

typedef struct ModelPage {
    bool mapped;
    int prot;
    bool code;
    uint8_t bytes[4096];
} ModelPage;

typedef struct Model {
    ModelPage page[NPAGES];
} Model;

static uint64_t rng_state;

/* How often each kind of operation succeeded / faulted (the generator
 * must reach both outcomes). */
static struct {
    unsigned map_ok, protect_ok, move_ok, write_ok, write_fault, read_ok, read_fault;
    unsigned window_host, window_ok, window_fault;
} stats;

static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

static unsigned rnd(unsigned n)
{
    return (unsigned)(rng() % n);
}

static uint64_t page_addr(unsigned p)
{
    return BASE + (uint64_t)p * PAGE;
}

/* First byte of [addr, addr + len) the model refuses for @access (0 =
 * debugger: any mapped page), or UINT64_MAX when all is fine. */
static uint64_t model_fault(const Model *m, uint64_t addr, uint64_t len, int access,
                            GuestFault *kind)
{
    for (uint64_t a = addr; a < addr + len;) {
        uint64_t off = a - BASE;
        const ModelPage *pg;
        if (a < BASE || off >= (uint64_t)NPAGES * PAGE) {
            *kind = GM_FAULT_UNMAPPED;
            return a;
        }
        pg = &m->page[off / PAGE];
        if (!pg->mapped) {
            *kind = GM_FAULT_UNMAPPED;
            return a;
        }
        if (access && (pg->prot & access) != access) {
            *kind = GM_FAULT_PROT;
            return a;
        }
        a = (a & GUEST_PAGE_MASK) + PAGE;
    }
    return UINT64_MAX;
}

static void check_all(GuestMemory *gm, const Model *m, unsigned step)
{
    static uint8_t buf[4096];
    uint64_t win_size;
    uint8_t *win = guest_mem_direct_base(gm, &win_size);

    for (unsigned p = 0; p < NPAGES; p++) {
        const ModelPage *pg = &m->page[p];
        int prot = guest_mem_prot(gm, page_addr(p));
        if (prot != (pg->mapped ? pg->prot : -1)) {
            fail_msg("step %u: page %u prot %d, model %d", step, p, prot,
                     pg->mapped ? pg->prot : -1);
        }
        if (guest_mem_is_code(gm, page_addr(p)) != pg->code) {
            fail_msg("step %u: page %u code mark %d, model %d", step, p,
                     guest_mem_is_code(gm, page_addr(p)), pg->code);
        }
        if (pg->mapped && win && page_addr(p) < win_size) {
            uint8_t *host = NULL;
            int hprot;
            bool code, mmio;
            assert_true(guest_mem_page_info(gm, page_addr(p), &host, &hprot, &code, &mmio));
            if (host != win + page_addr(p)) {
                fail_msg("step %u: page %u in the window is not direct", step, p);
            }
        }
        if (pg->mapped) {
            assert_int_equal(guest_mem_debug_rw(gm, page_addr(p), buf, PAGE, false), GM_OK);
            if (memcmp(buf, pg->bytes, PAGE) != 0) {
                fail_msg("step %u: page %u contents differ", step, p);
            }
        }
    }
}

static void step_map(GuestMemory *gm, Model *m)
{
    unsigned first = rnd(NPAGES), n = 1 + rnd(6);
    int prot = (int)rnd(8);
    bool replace = rnd(2), overlap = false;

    if (first + n > NPAGES) {
        n = NPAGES - first;
    }
    for (unsigned p = first; p < first + n; p++) {
        overlap |= m->page[p].mapped;
    }
    assert_int_equal(guest_mem_map(gm, page_addr(first), (uint64_t)n * PAGE, prot, replace),
                     replace || !overlap);
    if (replace || !overlap) {
        stats.map_ok++;
        for (unsigned p = first; p < first + n; p++) {
            m->page[p].mapped = true;
            m->page[p].prot = prot;
            m->page[p].code = false;
            memset(m->page[p].bytes, 0, PAGE);
        }
    }
}

static void step_unmap(GuestMemory *gm, Model *m)
{
    unsigned first = rnd(NPAGES), n = 1 + rnd(8);

    if (first + n > NPAGES) {
        n = NPAGES - first;
    }
    assert_true(guest_mem_unmap(gm, page_addr(first), (uint64_t)n * PAGE));
    for (unsigned p = first; p < first + n; p++) {
        m->page[p].mapped = false;
        m->page[p].code = false;
    }
}

static void step_protect(GuestMemory *gm, Model *m)
{
    unsigned first = rnd(NPAGES), n = 1 + rnd(6);
    int prot = (int)rnd(8);
    bool all = true;

    if (first + n > NPAGES) {
        n = NPAGES - first;
    }
    for (unsigned p = first; p < first + n; p++) {
        all &= m->page[p].mapped;
    }
    assert_int_equal(guest_mem_protect(gm, page_addr(first), (uint64_t)n * PAGE, prot), all);
    if (all) {
        stats.protect_ok++;
        for (unsigned p = first; p < first + n; p++) {
            if (m->page[p].prot != prot) {
                m->page[p].code = false; /* a protection change drops translations */
            }
            m->page[p].prot = prot;
        }
    }
}

static void step_move(GuestMemory *gm, Model *m)
{
    unsigned from = rnd(NPAGES), to = rnd(NPAGES), n = 1 + rnd(4);
    bool ok = from + n <= NPAGES && to + n <= NPAGES && (from + n <= to || to + n <= from);
    static ModelPage tmp[4];

    for (unsigned k = 0; ok && k < n; k++) {
        ok = m->page[from + k].mapped && !m->page[to + k].mapped;
    }
    if (from + n > NPAGES || to + n > NPAGES) {
        return; /* outside the window: the model cannot say */
    }
    assert_int_equal(guest_mem_move(gm, page_addr(from), (uint64_t)n * PAGE, page_addr(to)), ok);
    if (ok) {
        stats.move_ok++;
        for (unsigned k = 0; k < n; k++) {
            tmp[k] = m->page[from + k];
            tmp[k].code = false;
            m->page[from + k].mapped = false;
            m->page[from + k].code = false;
        }
        for (unsigned k = 0; k < n; k++) {
            m->page[to + k] = tmp[k];
        }
    }
}

static void step_write(GuestMemory *gm, Model *m)
{
    uint64_t addr = BASE - 64 + rng() % ((uint64_t)NPAGES * PAGE + 128);
    uint64_t len = 1 + rnd(rnd(4) == 0 ? 3 * PAGE : 64);
    static uint8_t data[3 * 4096];
    GuestFault kind = GM_OK, got;
    uint64_t want_fa = model_fault(m, addr, len, GM_PROT_WRITE, &kind), fa = 0;
    bool debug = rnd(8) == 0;

    for (uint64_t i = 0; i < len; i++) {
        data[i] = (uint8_t)rng();
    }
    if (debug) {
        want_fa = model_fault(m, addr, len, 0, &kind);
        got = guest_mem_debug_rw(gm, addr, data, len, true);
    } else {
        got = guest_mem_write(gm, addr, data, len, &fa);
    }
    if (want_fa == UINT64_MAX) {
        assert_int_equal(got, GM_OK);
        stats.write_ok++;
        for (uint64_t i = 0; i < len; i++) {
            uint64_t off = addr + i - BASE;
            m->page[off / PAGE].bytes[off % PAGE] = data[i];
            m->page[off / PAGE].code = false;
        }
    } else {
        stats.write_fault++;
        assert_int_equal(got, kind);
        if (!debug) {
            assert_int_equal(fa, want_fa);
        }
    }
}

static void step_read(GuestMemory *gm, Model *m)
{
    uint64_t addr = BASE - 64 + rng() % ((uint64_t)NPAGES * PAGE + 128);
    uint64_t len = 1 + rnd(rnd(4) == 0 ? 3 * PAGE : 64);
    static const int accesses[] = { GM_PROT_READ, GM_PROT_WRITE, GM_PROT_EXEC };
    int access = accesses[rnd(3)];
    static uint8_t data[3 * 4096];
    GuestFault kind = GM_OK;
    uint64_t want_fa = model_fault(m, addr, len, access, &kind), fa = 0;

    assert_int_equal(guest_mem_read(gm, addr, data, len, access, &fa),
                     want_fa == UINT64_MAX ? GM_OK : kind);
    if (want_fa == UINT64_MAX) {
        stats.read_ok++;
        for (uint64_t i = 0; i < len; i++) {
            uint64_t off = addr + i - BASE;
            assert_int_equal(data[i], m->page[off / PAGE].bytes[off % PAGE]);
        }
    } else {
        stats.read_fault++;
        assert_int_equal(fa, want_fa);
    }
}

static void step_window(GuestMemory *gm, Model *m)
{
    uint64_t base = BASE + rng() % ((uint64_t)NPAGES * PAGE);
    uint64_t rows = 1 + rnd(12), row_bytes = 1 + rnd(600), stride = rnd(3 * PAGE);
    int access = rnd(2) ? GM_PROT_READ : GM_PROT_WRITE;
    uint64_t fa = 0, want_fa = UINT64_MAX;
    GuestFault kind = GM_OK, want = GM_OK, got;
    uint8_t *host = NULL;

    for (uint64_t r = 0; r < rows && want_fa == UINT64_MAX; r++) {
        want_fa = model_fault(m, base + r * stride, row_bytes, access, &kind);
        want = kind;
    }
    got = guest_mem_window(gm, base, rows, row_bytes, stride, access, &host, &fa);
    if (want_fa == UINT64_MAX) {
        assert_int_equal(got, GM_OK);
        stats.window_ok++;
        if (access == GM_PROT_WRITE) {
            /* A write window drops the translations under its whole span. */
            uint64_t end = base + (rows - 1) * stride + row_bytes;
            for (uint64_t a = base & GUEST_PAGE_MASK; a < end; a += PAGE) {
                m->page[(a - BASE) / PAGE].code = false;
            }
        }
        stats.window_host += host != NULL;
        if (host) {
            /* A host pointer must show the guest bytes of every row. */
            for (uint64_t r = 0; r < rows; r++) {
                uint64_t off = base + r * stride - BASE;
                assert_int_equal(host[r * stride], m->page[off / PAGE].bytes[off % PAGE]);
            }
        }
    } else {
        stats.window_fault++;
        assert_int_equal(got, want);
        assert_int_equal(fa, want_fa);
    }
}

static void step_find_free(GuestMemory *gm, Model *m)
{
    unsigned hint = rnd(NPAGES + 2), n = 1 + rnd(5), want = hint;
    uint64_t got = guest_mem_find_free(gm, page_addr(hint), (uint64_t)n * PAGE);

    /* The first run of n free pages at or after the hint (pages past the
     * window are free). */
    for (;; want++) {
        bool free_run = true;
        for (unsigned k = 0; k < n && free_run; k++) {
            free_run = want + k >= NPAGES || !m->page[want + k].mapped;
        }
        if (free_run) {
            break;
        }
    }
    assert_int_equal(got, page_addr(want));
}

static void step_code(GuestMemory *gm, Model *m)
{
    unsigned p = rnd(NPAGES);

    guest_mem_set_code(gm, page_addr(p) + rnd(PAGE));
    if (m->page[p].mapped) {
        m->page[p].code = true;
    }
}

static void run_model(uint64_t window_max)
{
    GuestMemory *gm = guest_mem_new_window(GUEST_MEM_LIMIT_DEFAULT, window_max);
    Model *m = g_new0(Model, 1);
    size_t max_regions = 0;

    memset(&stats, 0, sizeof(stats));
    rng_state = 0x9e3779b97f4a7c15ull;
    for (unsigned step = 0; step < STEPS; step++) {
        switch (rnd(20)) {
        case 0:
        case 1:
        case 2:
            step_map(gm, m);
            break;
        case 3:
        case 4:
            step_unmap(gm, m);
            break;
        case 5:
        case 6:
        case 7:
            step_protect(gm, m);
            break;
        case 8:
            step_move(gm, m);
            break;
        case 9:
        case 10:
        case 11:
            step_write(gm, m);
            break;
        case 12:
        case 13:
        case 14:
            step_read(gm, m);
            break;
        case 15:
        case 16:
            step_window(gm, m);
            break;
        case 17:
            step_find_free(gm, m);
            break;
        default:
            step_code(gm, m);
            break;
        }
        if (step % 16 == 0) {
            check_all(gm, m, step);
        }
        max_regions = MAX(max_regions, guest_mem_region_count(gm));
        /* Never more regions than pages: splitting never leaks pieces. */
        assert_true(guest_mem_region_count(gm) <= NPAGES);
    }
    check_all(gm, m, STEPS);
    printf("guest-memory model: %u steps, up to %zu regions; ok/fault: map %u, protect %u, "
           "move %u, write %u/%u, read %u/%u, window %u (%u with a host pointer)/%u\n", STEPS,
           max_regions, stats.map_ok, stats.protect_ok, stats.move_ok, stats.write_ok,
           stats.write_fault, stats.read_ok, stats.read_fault, stats.window_ok,
           stats.window_host, stats.window_fault);
    assert_true(stats.move_ok > 10 && stats.protect_ok > 100 && stats.write_ok > 100 &&
                stats.write_fault > 100 && stats.read_ok > 100 && stats.read_fault > 100 &&
                stats.window_host > 20 && stats.window_fault > 20);
    guest_mem_free(gm);
    g_free(m);
}

static void test_model(void **state)
{
    run_model(GUEST_MEM_WINDOW_MAX);
}

static void test_model_no_window(void **state)
{
    run_model(0);
}

/* The window ends halfway through the pages. */
static void test_model_window_edge(void **state)
{
    run_model(page_addr(NPAGES / 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_model_no_window),
        cmocka_unit_test(test_model_window_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
