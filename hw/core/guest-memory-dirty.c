/*
 * Guest memory: dirty-page tracking and snapshots (the contract is in
 * guest-memory.h, "Dirty-page tracking and snapshots").
 *
 * Two page sets are kept while tracking is on:
 *   dirty    pages written since the last snapshot, restore or reset;
 *   touched  pages that may be non-zero: written since tracking began
 *            (or the last reset to zero) and not yet found to be zero.
 * Invariants: a RAM page in neither set is zero; after a snapshot or a
 * restore to it, a page outside `dirty` holds what the snapshot says
 * (its copy, or zero when it has none); `touched` covers every page the
 * current snapshot holds.
 *
 * A page set is a hash of 2 MiB chunks, each a 512-bit map, so marking a
 * range is a few word operations and an address space of any size costs
 * only the chunks it writes.
 *
 * Writing pages back: a page with a snapshot copy is compared first and
 * copied only when it differs; a run of pages that must become zero is
 * asked for residency (mincore): resident pages are compared with zero
 * and cleared when they are not, pages that are not resident (never
 * touched, or swapped out) are dropped with MADV_DONTNEED, which makes
 * them read as zero again without faulting anything in.  A code page is
 * announced (gm_code_range_event: its translations go) only when its
 * contents really change, so a program's translations survive the
 * restores between its runs.
 */
#include "hw/core/guest-memory-internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum {
    CHUNK_BITS = 9, /* pages per chunk: 512 (2 MiB) */
    CHUNK_PAGES = 1 << CHUNK_BITS,
    CHUNK_WORDS = CHUNK_PAGES / 64,
};

typedef struct PageSet {
    GHashTable *chunks; /* chunk number -> uint64_t[CHUNK_WORDS] */
    uint64_t last_key;  /* one-entry cache of the last chunk used */
    uint64_t *last;
} PageSet;

typedef struct GmDirty {
    PageSet dirty, touched;
    uint64_t layout_gen; /* gm->layout_gen when tracking began */
    uint64_t snap_id;    /* the snapshot memory matches outside `dirty` (0: none) */
    uint64_t next_id;
} GmDirty;

struct GuestMemSnapshot {
    GuestMemory *gm;
    uint64_t id;
    GHashTable *pages; /* page number -> GUEST_PAGE_SIZE bytes */
};

static const uint8_t zero_page[GUEST_PAGE_SIZE];

/* ---- Page sets ------------------------------------------------------- */

static gpointer chunk_key(uint64_t chunk)
{
    return (gpointer)(uintptr_t)chunk;
}

static void ps_init(PageSet *ps)
{
    ps->chunks = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    ps->last_key = UINT64_MAX;
    ps->last = NULL;
}

static void ps_fini(PageSet *ps)
{
    g_hash_table_destroy(ps->chunks);
}

static void ps_clear(PageSet *ps)
{
    g_hash_table_remove_all(ps->chunks);
    ps->last_key = UINT64_MAX;
    ps->last = NULL;
}

static uint64_t *ps_chunk(PageSet *ps, uint64_t chunk, bool create)
{
    uint64_t *bits;

    if (chunk == ps->last_key) {
        return ps->last;
    }
    bits = g_hash_table_lookup(ps->chunks, chunk_key(chunk));
    if (!bits && create) {
        bits = g_new0(uint64_t, CHUNK_WORDS);
        g_hash_table_insert(ps->chunks, chunk_key(chunk), bits);
    }
    if (bits) {
        ps->last_key = chunk;
        ps->last = bits;
    }
    return bits;
}

/* Pages @first .. @last (page numbers, inclusive). */
static void ps_add_range(PageSet *ps, uint64_t first, uint64_t last)
{
    for (uint64_t p = first;;) {
        uint64_t chunk = p >> CHUNK_BITS;
        uint64_t *bits = ps_chunk(ps, chunk, true);
        uint64_t end = (chunk << CHUNK_BITS) + CHUNK_PAGES - 1; /* last page of the chunk */
        unsigned lo = (unsigned)(p & (CHUNK_PAGES - 1));
        unsigned hi = (unsigned)((last < end ? last : end) & (CHUNK_PAGES - 1));

        for (unsigned w = lo / 64; w <= hi / 64; w++) {
            unsigned a = w == lo / 64 ? lo % 64 : 0, b = w == hi / 64 ? hi % 64 : 63;
            uint64_t m = (b == 63 ? UINT64_MAX : (UINT64_C(1) << (b + 1)) - 1) &
                         ~((UINT64_C(1) << a) - 1);
            bits[w] |= m;
        }
        if (last <= end) {
            break;
        }
        p = end + 1;
    }
}

static bool ps_contains(PageSet *ps, uint64_t page)
{
    uint64_t *bits = ps_chunk(ps, page >> CHUNK_BITS, false);
    unsigned i = (unsigned)(page & (CHUNK_PAGES - 1));

    return bits && (bits[i / 64] >> (i % 64)) & 1;
}

static void merge_chunk(gpointer key, gpointer value, gpointer opaque)
{
    uint64_t *dst = ps_chunk(opaque, (uint64_t)(uintptr_t)key, true);
    const uint64_t *src = value;

    for (unsigned w = 0; w < CHUNK_WORDS; w++) {
        dst[w] |= src[w];
    }
}

/* dst |= src */
static void ps_merge(PageSet *dst, PageSet *src)
{
    g_hash_table_foreach(src->chunks, merge_chunk, dst);
}

static void count_chunk(gpointer key, gpointer value, gpointer opaque)
{
    const uint64_t *bits = value;

    for (unsigned w = 0; w < CHUNK_WORDS; w++) {
        *(uint64_t *)opaque += (uint64_t)__builtin_popcountll(bits[w]);
    }
}

static uint64_t ps_count(PageSet *ps)
{
    uint64_t n = 0;

    g_hash_table_foreach(ps->chunks, count_chunk, &n);
    return n;
}

static void collect_chunk_key(gpointer key, gpointer value, gpointer opaque)
{
    uint64_t chunk = (uint64_t)(uintptr_t)key;

    g_array_append_val((GArray *)opaque, chunk);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* The set's page numbers in ascending order. */
static GArray *ps_pages(PageSet *ps)
{
    GArray *chunks = g_array_new(false, false, sizeof(uint64_t));
    GArray *pages = g_array_new(false, false, sizeof(uint64_t));

    g_hash_table_foreach(ps->chunks, collect_chunk_key, chunks);
    if (chunks->len > 1) {
        qsort(chunks->data, chunks->len, sizeof(uint64_t), cmp_u64);
    }
    for (guint i = 0; i < chunks->len; i++) {
        uint64_t chunk = g_array_index(chunks, uint64_t, i);
        const uint64_t *bits = ps_chunk(ps, chunk, false);
        for (unsigned w = 0; w < CHUNK_WORDS; w++) {
            uint64_t m = bits[w];
            while (m) {
                uint64_t page = (chunk << CHUNK_BITS) + w * 64 + (unsigned)__builtin_ctzll(m);
                g_array_append_val(pages, page);
                m &= m - 1;
            }
        }
    }
    g_array_free(chunks, true);
    return pages;
}

/* ---- Marking ----------------------------------------------------------- */

void gm_dirty_mark_range(GuestMemory *gm, uint64_t addr, uint64_t len)
{
    uint64_t last = addr + (len - 1);

    if (last < addr) {
        last = UINT64_MAX; /* callers check ranges; be safe anyway */
    }
    ps_add_range(&gm->dirty->dirty, addr >> GUEST_PAGE_BITS, last >> GUEST_PAGE_BITS);
}

bool guest_mem_track_dirty(GuestMemory *gm)
{
    GmDirty *d;

    if (gm->dirty || gm->host_page_size != GUEST_PAGE_SIZE) {
        return false;
    }
    d = g_new0(GmDirty, 1);
    ps_init(&d->dirty);
    ps_init(&d->touched);
    d->layout_gen = gm->layout_gen;
    d->next_id = 1;
    gm->dirty = d;
    /* Host-fault stores would bypass the recording (guest-memory.h):
     * off, and translated code that relied on them goes with the change
     * notice (tcg/tb-cache.c). */
    gm_host_disable(gm);
    /* Write entries cached before now were never recorded. */
    gm_notify_change(gm, 0, gm->limit, GM_CHANGE_MAP);
    return true;
}

bool guest_mem_tracks_dirty(const GuestMemory *gm)
{
    return gm->dirty != NULL;
}

void gm_dirty_fini(GuestMemory *gm)
{
    if (gm->dirty) {
        ps_fini(&gm->dirty->dirty);
        ps_fini(&gm->dirty->touched);
        g_free(gm->dirty);
        gm->dirty = NULL;
    }
}

bool guest_mem_is_dirty(const GuestMemory *gm, uint64_t addr)
{
    return gm->dirty && ps_contains(&gm->dirty->dirty, addr >> GUEST_PAGE_BITS);
}

uint64_t guest_mem_dirty_count(const GuestMemory *gm)
{
    return gm->dirty ? ps_count(&gm->dirty->dirty) : 0;
}

bool guest_mem_dirty_write_ok(GuestMemory *gm, uint64_t addr, bool is_write)
{
    uint64_t page = addr >> GUEST_PAGE_BITS;

    if (!gm->dirty) {
        return true;
    }
    if (is_write) {
        ps_add_range(&gm->dirty->dirty, page, page);
        return true;
    }
    return ps_contains(&gm->dirty->dirty, page);
}

/* ---- Writing pages back ------------------------------------------------ */

static bool page_is_zero(const uint8_t *p)
{
    return memcmp(p, zero_page, GUEST_PAGE_SIZE) == 0;
}

static bool is_code(GuestMemory *gm, uint64_t addr)
{
    return g_hash_table_size(gm->code_pages) != 0 &&
           g_hash_table_contains(gm->code_pages, gm_page_key(addr));
}

/* Give page @addr (host @host) the contents @want. */
static void write_page(GuestMemory *gm, uint64_t addr, uint8_t *host, const uint8_t *want,
                       GuestMemResetStats *st)
{
    if (memcmp(host, want, GUEST_PAGE_SIZE) == 0) {
        return;
    }
    if (is_code(gm, addr)) {
        gm_code_range_event(gm, addr, GUEST_PAGE_SIZE);
        st->code_pages++;
    }
    memcpy(host, want, GUEST_PAGE_SIZE);
    st->written++;
}

/* Make @n pages from @addr (host @host, one RAM region) zero. */
static void zero_run(GuestMemory *gm, uint64_t addr, uint8_t *host, uint64_t n,
                     GuestMemResetStats *st)
{
    unsigned char vec[64];

    for (uint64_t done = 0; done < n;) {
        uint64_t k = n - done < sizeof(vec) ? n - done : sizeof(vec);
        uint8_t *h = host + done * GUEST_PAGE_SIZE;
        bool known = mincore(h, k * GUEST_PAGE_SIZE, vec) == 0;

        for (uint64_t i = 0; i < k;) {
            uint64_t a = addr + (done + i) * GUEST_PAGE_SIZE;
            if (known && !(vec[i] & 1)) {
                /* Not resident: never touched (zero already) or swapped
                 * out; dropping it makes it zero either way. */
                uint64_t j = i + 1;
                while (j < k && !(vec[j] & 1)) {
                    j++;
                }
                if (g_hash_table_size(gm->code_pages) != 0) {
                    for (uint64_t q = i; q < j; q++) {
                        if (is_code(gm, addr + (done + q) * GUEST_PAGE_SIZE)) {
                            gm_code_range_event(gm, addr + (done + q) * GUEST_PAGE_SIZE,
                                                GUEST_PAGE_SIZE);
                            st->code_pages++;
                        }
                    }
                }
                if (madvise(h + i * GUEST_PAGE_SIZE, (j - i) * GUEST_PAGE_SIZE,
                            MADV_DONTNEED) == 0) {
                    st->dropped += j - i;
                } else {
                    for (uint64_t q = i; q < j; q++) {
                        write_page(gm, addr + (done + q) * GUEST_PAGE_SIZE,
                                   h + q * GUEST_PAGE_SIZE, zero_page, st);
                    }
                }
                i = j;
                continue;
            }
            write_page(gm, a, h + i * GUEST_PAGE_SIZE, zero_page, st);
            i++;
        }
        done += k;
    }
}

/* Write back every page of @pages (ascending page numbers): its copy in
 * @s, else zero.  Then drop cached host pointers over them. */
static void write_back(GuestMemory *gm, GArray *pages, GuestMemSnapshot *s,
                       GuestMemResetStats *st)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    guint i = 0;

    st->pages += pages->len;
    while (i < pages->len) {
        uint64_t page = g_array_index(pages, uint64_t, i);
        uint64_t addr = page << GUEST_PAGE_BITS;
        const GuestRegion *r = gm_find_region(gm, addr);
        const uint8_t *copy;
        uint8_t *host;
        guint j;

        if (!r || r->kind != REGION_RAM) {
            i++; /* a device page under a recorded range: nothing to keep */
            continue;
        }
        lo = addr < lo ? addr : lo;
        hi = addr + GUEST_PAGE_SIZE > hi ? addr + GUEST_PAGE_SIZE : hi;
        host = r->host + (addr - r->start);
        copy = s ? g_hash_table_lookup(s->pages, gm_page_key(addr)) : NULL;
        if (copy) {
            write_page(gm, addr, host, copy, st);
            i++;
            continue;
        }
        /* A run of pages to zero, consecutive in one region. */
        for (j = i + 1; j < pages->len; j++) {
            uint64_t p = g_array_index(pages, uint64_t, j);
            if (p != g_array_index(pages, uint64_t, j - 1) + 1 ||
                (p << GUEST_PAGE_BITS) >= r->end ||
                (s && g_hash_table_contains(s->pages, gm_page_key(p << GUEST_PAGE_BITS)))) {
                break;
            }
        }
        zero_run(gm, addr, host, j - i, st);
        hi = ((g_array_index(pages, uint64_t, j - 1) + 1) << GUEST_PAGE_BITS);
        i = j;
    }
    if (lo < hi) {
        /* TLB write entries and window caches of these pages go: the
         * next write records its page again. */
        gm_notify_change(gm, lo, hi - lo, GM_CHANGE_MAP);
    }
}

static bool usable(GuestMemory *gm)
{
    return gm->dirty && gm->dirty->layout_gen == gm->layout_gen;
}

GuestMemSnapshot *guest_mem_snapshot_take(GuestMemory *gm)
{
    GmDirty *d = gm->dirty;
    GuestMemSnapshot *s;
    GArray *pages;

    if (!usable(gm)) {
        return NULL;
    }
    ps_merge(&d->touched, &d->dirty);
    ps_clear(&d->dirty);
    pages = ps_pages(&d->touched);
    ps_clear(&d->touched);
    s = g_new0(GuestMemSnapshot, 1);
    s->gm = gm;
    s->id = d->next_id++;
    s->pages = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    for (guint i = 0; i < pages->len; i++) {
        uint64_t page = g_array_index(pages, uint64_t, i);
        uint64_t addr = page << GUEST_PAGE_BITS;
        const GuestRegion *r = gm_find_region(gm, addr);
        const uint8_t *host;

        if (!r || r->kind != REGION_RAM) {
            continue;
        }
        host = r->host + (addr - r->start);
        if (!page_is_zero(host)) {
            g_hash_table_insert(s->pages, gm_page_key(addr), g_memdup2(host, GUEST_PAGE_SIZE));
            ps_add_range(&d->touched, page, page);
        }
    }
    g_array_free(pages, true);
    d->snap_id = s->id;
    return s;
}

bool guest_mem_snapshot_restore(GuestMemory *gm, GuestMemSnapshot *s, GuestMemResetStats *st)
{
    GuestMemResetStats dummy;
    GArray *pages;

    if (!usable(gm) || !s || s->gm != gm || s->id != gm->dirty->snap_id) {
        return false;
    }
    memset(st ? st : &dummy, 0, sizeof(dummy));
    pages = ps_pages(&gm->dirty->dirty);
    ps_clear(&gm->dirty->dirty);
    write_back(gm, pages, s, st ? st : &dummy);
    g_array_free(pages, true);
    return true;
}

bool guest_mem_reset_zero(GuestMemory *gm, GuestMemResetStats *st)
{
    GuestMemResetStats dummy;
    GmDirty *d = gm->dirty;
    GArray *pages;

    if (!usable(gm)) {
        return false;
    }
    memset(st ? st : &dummy, 0, sizeof(dummy));
    ps_merge(&d->touched, &d->dirty);
    ps_clear(&d->dirty);
    pages = ps_pages(&d->touched);
    ps_clear(&d->touched);
    write_back(gm, pages, NULL, st ? st : &dummy);
    g_array_free(pages, true);
    d->snap_id = 0;
    return true;
}

uint64_t guest_mem_snapshot_pages(const GuestMemSnapshot *s)
{
    return s ? g_hash_table_size(s->pages) : 0;
}

void guest_mem_snapshot_free(GuestMemSnapshot *s)
{
    if (s) {
        g_hash_table_destroy(s->pages);
        g_free(s);
    }
}
