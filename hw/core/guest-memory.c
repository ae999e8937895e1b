/*
 * Guest memory: sparse 64-bit address space of RAM and MMIO regions.
 * This file keeps the region map (map, unmap, protect, move, find_free,
 * listeners, code pages); guest-access.c does the accesses.
 *
 * Representation: a sorted array of non-overlapping, page-aligned regions.
 * Lookups are binary searches.  Permissions are per region; mprotect of
 * part of a region splits it, and neighbours that become identical merge
 * again, so "per-page permissions" cost one region per run of equal pages.
 *
 * RAM is backed by RamBlocks: one host mapping per guest map call, shared
 * (reference-counted) by the regions split from it.  Inside the direct
 * window (guest-memory-host.c) a block sits at window + guest address;
 * elsewhere it is an anonymous mapping anywhere.  Pieces that are
 * unmapped give their host pages back; a block outside the window is
 * unmapped from the host when its last region goes.  guest_mem_move
 * re-points regions at a new guest address without copying (mremap of the
 * host pages when the window is involved).
 *
 * Code pages (for self-modifying code) are a hash set of page numbers.
 *
 * Locking (guest-memory.h): every public change runs between
 * gm_change_begin and gm_change_end (the recursive mutex, then the rw lock
 * for writing once the space is threaded); the rw lock is dropped around
 * listener calls, and the dense ends[] array is rebuilt before it is
 * dropped, so readers never see it stale.
 *
 * Invariants (checked by the unit tests): regions[i].end <=
 * regions[i + 1].start; start < end <= limit; start and end are page
 * aligned; a RAM region's host bytes are host .. host + (end - start),
 * inside its block.
 */
#include "hw/core/guest-memory-internal.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic.h"
#include "util/fork-lock.h"

static uint64_t page_align_up(uint64_t v)
{
    return (v + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
}

const char *guest_fault_name(GuestFault f)
{
    switch (f) {
    case GM_OK:
        return "ok";
    case GM_FAULT_UNMAPPED:
        return "unmapped address";
    case GM_FAULT_PROT:
        return "permission denied";
    case GM_FAULT_ALIGN:
        return "misaligned access";
    case GM_FAULT_MMIO:
        return "device rejected the access";
    }
    return "unknown fault";
}

/* ------------------------------------------------------------------ */
/* Creation                                                            */
/* ------------------------------------------------------------------ */

static void init_locks(GuestMemory *gm)
{
    pthread_mutexattr_t a;

    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&gm->lock, &a);
    pthread_mutexattr_destroy(&a);
    pthread_rwlock_init(&gm->rw, NULL);
}

GuestMemory *guest_mem_new_window(uint64_t limit, uint64_t window_max)
{
    GuestMemory *gm = g_new0(GuestMemory, 1);
    long hps = sysconf(_SC_PAGESIZE);

    if (limit == 0 || limit > GUEST_MEM_LIMIT_MAX) {
        limit = GUEST_MEM_LIMIT_MAX;
    }
    gm->limit = limit & GUEST_PAGE_MASK;
    gm->host_page_size = hps > 0 ? (uint64_t)hps : GUEST_PAGE_SIZE;
    gm->code_pages = g_hash_table_new(g_direct_hash, g_direct_equal);
    init_locks(gm);
    gm_host_init(gm, window_max);
    return gm;
}

void guest_mem_lock(GuestMemory *gm)
{
    pthread_mutex_lock(&gm->lock);
}

void guest_mem_unlock(GuestMemory *gm)
{
    pthread_mutex_unlock(&gm->lock);
}

void guest_mem_set_threaded(GuestMemory *gm)
{
    guest_mem_lock(gm);
    gm->threaded = true;
    /* Host faults are one CPU's scheme (guest-memory.h): off, and every
     * cached access goes with the change notice (tcg/tb-cache.c drops the
     * translations that relied on them). */
    if (gm->host_faults) {
        gm_host_disable(gm);
        gm_notify_change(gm, 0, gm->limit, GM_CHANGE_MAP);
    }
    guest_mem_unlock(gm);
}

void guest_mem_fork_prepare(GuestMemory *gm)
{
    pthread_mutex_lock(&gm->lock);
    if (gm->threaded) {
        pthread_rwlock_wrlock(&gm->rw);
    }
}

void guest_mem_fork_child(GuestMemory *gm)
{
    /* The recursive mutex and the rwlock record their owner, a thread of
     * the parent: unlocking them here would fail (EPERM), so they start
     * afresh, held once by the only thread. */
    linx_fork_lock_released(&gm->lock, 0);
    if (gm->threaded) {
        linx_fork_lock_released(&gm->rw, 1);
    }
    init_locks(gm);
    pthread_mutex_lock(&gm->lock);
}

void guest_mem_fork_after(GuestMemory *gm)
{
    if (gm->threaded) {
        pthread_rwlock_unlock(&gm->rw);
    }
    pthread_mutex_unlock(&gm->lock);
}

bool guest_mem_threaded(const GuestMemory *gm)
{
    return gm->threaded;
}

static void ends_rebuild(GuestMemory *gm);

static void wr_drop(GuestMemory *gm)
{
    if (gm->ends_dirty) {
        ends_rebuild(gm);
    }
    if (gm->threaded) {
        pthread_rwlock_unlock(&gm->rw);
    }
    gm->wr_held = false;
}

static void wr_take(GuestMemory *gm)
{
    if (gm->threaded) {
        pthread_rwlock_wrlock(&gm->rw);
    }
    gm->wr_held = true;
}

void gm_change_begin(GuestMemory *gm)
{
    unsigned d;

    pthread_mutex_lock(&gm->lock);
    d = gm->change_depth++;
    if (!gm->wr_held && d < 32) {
        wr_take(gm);
        gm->wr_taken |= UINT32_C(1) << d;
    }
}

void gm_change_end(GuestMemory *gm)
{
    unsigned d = --gm->change_depth;

    if (d < 32 && (gm->wr_taken & (UINT32_C(1) << d))) {
        gm->wr_taken &= ~(UINT32_C(1) << d);
        wr_drop(gm);
    }
    pthread_mutex_unlock(&gm->lock);
}

bool gm_call_out_begin(GuestMemory *gm)
{
    bool held = gm->wr_held;

    if (held) {
        wr_drop(gm);
    }
    return held;
}

void gm_call_out_end(GuestMemory *gm, bool held)
{
    if (held) {
        wr_take(gm);
    }
}

GuestMemory *guest_mem_new(uint64_t limit)
{
    return guest_mem_new_window(limit, GUEST_MEM_WINDOW_MAX);
}

uint8_t *guest_mem_direct_base(const GuestMemory *gm, uint64_t *size)
{
    if (size) {
        *size = gm->win_size;
    }
    return gm->win;
}

void guest_mem_free(GuestMemory *gm)
{
    if (!gm) {
        return;
    }
    for (size_t i = 0; i < gm->nregions; i++) {
        if (gm->regions[i].kind == REGION_RAM) {
            gm_block_unref(gm, gm->regions[i].block);
        }
    }
    gm_dirty_fini(gm);
    gm_host_fini(gm);
    g_free(gm->regions);
    g_free(gm->ends);
    g_hash_table_destroy(gm->code_pages);
    pthread_rwlock_destroy(&gm->rw);
    pthread_mutex_destroy(&gm->lock);
    g_free(gm);
}

uint64_t guest_mem_limit(const GuestMemory *gm)
{
    return gm->limit;
}

size_t guest_mem_region_count(const GuestMemory *cgm)
{
    GuestMemory *gm = (GuestMemory *)cgm;
    size_t n;

    gm_rd_lock(gm);
    n = gm->nregions;
    gm_rd_unlock(gm);
    return n;
}

uint64_t guest_mem_generation(GuestMemory *gm)
{
    return atomic_read(&gm->generation);
}

int32_t guest_mem_generation_offset(void)
{
    return (int32_t)offsetof(GuestMemory, generation);
}

/* ------------------------------------------------------------------ */
/* Region array                                                        */
/* ------------------------------------------------------------------ */

static void ends_rebuild(GuestMemory *gm)
{
    if (gm->ends_cap < gm->nregions) {
        gm->ends_cap = gm->cap;
        gm->ends = g_renew(uint64_t, gm->ends, gm->ends_cap);
    }
    for (size_t i = 0; i < gm->nregions; i++) {
        gm->ends[i] = gm->regions[i].end;
    }
    gm->ends_dirty = false;
}

/* Index of the first region whose end is above @addr (nregions if none). */
size_t gm_upper_region(const GuestMemory *cgm, uint64_t addr)
{
    GuestMemory *gm = (GuestMemory *)cgm; /* the ends cache is not state */
    const uint64_t *base;
    size_t n = gm->nregions;

    if (n == 0) {
        return 0;
    }
    if (gm->ends_dirty) {
        ends_rebuild(gm);
    }
    /* Branch-free lower bound (the compiler emits cmov): unpredictable
     * branches, not memory, dominate a plain binary search here. */
    base = gm->ends;
    while (n > 1) {
        size_t half = n / 2;
        base = base[half - 1] <= addr ? base + half : base;
        n -= half;
    }
    return (size_t)(base - gm->ends) + (*base <= addr);
}

GuestRegion *gm_find_region(const GuestMemory *cgm, uint64_t addr)
{
    GuestMemory *gm = (GuestMemory *)cgm; /* the hint is not state */
    size_t i = atomic_read(&gm->last_hit);

    /* Accesses cluster: try the region found last time first. */
    if (i < gm->nregions && gm->regions[i].start <= addr && addr < gm->regions[i].end) {
        return &gm->regions[i];
    }
    i = gm_upper_region(gm, addr);
    if (i < gm->nregions && gm->regions[i].start <= addr) {
        atomic_set(&gm->last_hit, i);
        return &gm->regions[i];
    }
    return NULL;
}

static void insert_region(GuestMemory *gm, size_t at, const GuestRegion *r)
{
    if (gm->nregions == gm->cap) {
        gm->cap = gm->cap ? gm->cap * 2 : 16;
        gm->regions = g_renew(GuestRegion, gm->regions, gm->cap);
    }
    memmove(&gm->regions[at + 1], &gm->regions[at], (gm->nregions - at) * sizeof(*r));
    gm->regions[at] = *r;
    gm->nregions++;
    gm->ends_dirty = true;
}

static void delete_regions(GuestMemory *gm, size_t at, size_t count)
{
    if (count == 0) {
        return; /* (regions may still be NULL: memmove must not see it) */
    }
    memmove(&gm->regions[at], &gm->regions[at + count],
            (gm->nregions - at - count) * sizeof(GuestRegion));
    gm->nregions -= count;
    gm->ends_dirty = true;
}

/* Split the region containing @addr so that a region starts at @addr. */
static void split_at(GuestMemory *gm, uint64_t addr)
{
    size_t i = gm_upper_region(gm, addr);
    GuestRegion hi;

    if (i >= gm->nregions || gm->regions[i].start >= addr) {
        return;
    }
    hi = gm->regions[i];
    hi.start = addr;
    if (hi.kind == REGION_RAM) {
        hi.host += addr - gm->regions[i].start;
        hi.block->refs++;
    }
    gm->regions[i].end = addr;
    insert_region(gm, i + 1, &hi);
}

static bool regions_mergeable(const GuestRegion *a, const GuestRegion *b)
{
    if (a->end != b->start || a->kind != b->kind || a->prot != b->prot) {
        return false;
    }
    if (a->kind == REGION_RAM) {
        return a->block == b->block && a->host + (a->end - a->start) == b->host;
    }
    return a->ops == b->ops && a->opaque == b->opaque && a->mmio_base == b->mmio_base;
}

/* Merge equal neighbours among regions [from, to] (indices clamped). */
static void merge_range(GuestMemory *gm, size_t from, size_t to)
{
    size_t i = from > 0 ? from - 1 : 0;

    while (i + 1 < gm->nregions && i <= to) {
        GuestRegion *a = &gm->regions[i];
        GuestRegion *b = &gm->regions[i + 1];
        if (regions_mergeable(a, b)) {
            a->end = b->end;
            if (b->kind == REGION_RAM) {
                b->block->refs--; /* still >= 1: a holds it */
            }
            delete_regions(gm, i + 1, 1);
            if (to > 0) {
                to--;
            }
        } else {
            i++;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Listeners and code pages                                            */
/* ------------------------------------------------------------------ */

/* Called with gm->lock held (the rw lock is dropped around the calls). */
void gm_notify_change(GuestMemory *gm, uint64_t addr, uint64_t len, unsigned kind)
{
    bool held;

    gm_host_sync(gm, addr, len);
    atomic_add_relaxed(&gm->generation, 1);
    held = gm_call_out_begin(gm);
    for (unsigned i = 0; i < gm->nlisteners; i++) {
        if (gm->listeners[i].on_change) {
            gm->listeners[i].on_change(gm->listeners[i].opaque, addr, len, kind);
        }
    }
    gm_call_out_end(gm, held);
}

/* The code page @page is written, unmapped or re-protected: let the exec
 * layer drop its translations, then forget the mark.  gm->lock held. */
static void code_page_event(GuestMemory *gm, uint64_t page)
{
    bool held = gm_call_out_begin(gm);

    for (unsigned i = 0; i < gm->nlisteners; i++) {
        if (gm->listeners[i].on_code_write) {
            gm->listeners[i].on_code_write(gm->listeners[i].opaque, page);
        }
    }
    gm_call_out_end(gm, held);
    gm_change_begin(gm);
    g_hash_table_remove(gm->code_pages, gm_page_key(page));
    gm_change_end(gm);
    gm_notify_change(gm, page, GUEST_PAGE_SIZE, GM_CHANGE_CODE);
}

typedef struct CodeScan {
    uint64_t lo, hi;
    GArray *found;
} CodeScan;

static void collect_code_page(gpointer key, gpointer value, gpointer opaque)
{
    CodeScan *s = opaque;
    uint64_t page = (uint64_t)(uintptr_t)key << GUEST_PAGE_BITS;

    if (page >= s->lo && page < s->hi) {
        g_array_append_val(s->found, page);
    }
}

/* Run code_page_event for every code page meeting [addr, addr + len). */
void gm_code_range_event(GuestMemory *gm, uint64_t addr, uint64_t len)
{
    unsigned ncode = g_hash_table_size(gm->code_pages);
    uint64_t lo = addr & GUEST_PAGE_MASK;
    uint64_t hi = addr + len; /* callers guarantee no overflow */
    uint64_t npages;

    if (ncode == 0 || len == 0) {
        return;
    }
    npages = (page_align_up(hi) - lo) >> GUEST_PAGE_BITS;
    if (npages <= ncode) {
        for (uint64_t p = lo; p < hi; p += GUEST_PAGE_SIZE) {
            if (g_hash_table_contains(gm->code_pages, gm_page_key(p))) {
                code_page_event(gm, p);
            }
        }
    } else {
        CodeScan s = { lo, hi, g_array_new(false, false, sizeof(uint64_t)) };
        g_hash_table_foreach(gm->code_pages, collect_code_page, &s);
        for (unsigned i = 0; i < s.found->len; i++) {
            code_page_event(gm, g_array_index(s.found, uint64_t, i));
        }
        g_array_free(s.found, true);
    }
}

typedef struct CodeClip {
    uint64_t keep_lo, keep_hi; /* [keep_lo, keep_hi) must stay inside */
    uint64_t lo, hi;           /* shrinks around it */
    bool hit;                  /* a code page meets [keep_lo, keep_hi) */
} CodeClip;

static void clip_code_page(CodeClip *c, uint64_t page)
{
    if (page >= c->hi || page + GUEST_PAGE_SIZE <= c->lo) {
        return;
    }
    if (page < c->keep_hi && page + GUEST_PAGE_SIZE > c->keep_lo) {
        c->hit = true;
    } else if (page + GUEST_PAGE_SIZE <= c->keep_lo) {
        c->lo = page + GUEST_PAGE_SIZE;
    } else {
        c->hi = page;
    }
}

static void clip_code_key(gpointer key, gpointer value, gpointer opaque)
{
    (void)value;
    clip_code_page(opaque, (uint64_t)(uintptr_t)key << GUEST_PAGE_BITS);
}

bool guest_mem_code_free_range(GuestMemory *gm, uint64_t keep_lo, uint64_t keep_hi,
                               uint64_t *lo, uint64_t *hi)
{
    unsigned ncode = g_hash_table_size(gm->code_pages);
    CodeClip c = { keep_lo, keep_hi, *lo, *hi, false };
    uint64_t npages;

    if (keep_lo >= keep_hi || keep_lo < *lo || keep_hi > *hi) {
        return false;
    }
    if (ncode == 0) {
        return true;
    }
    npages = (page_align_up(*hi) - (*lo & GUEST_PAGE_MASK)) >> GUEST_PAGE_BITS;
    if (npages <= ncode) {
        /* Walk the pages outwards from the kept range: the nearest code
         * page on each side decides. */
        for (uint64_t p = (*lo & GUEST_PAGE_MASK); p < *hi && !c.hit; p += GUEST_PAGE_SIZE) {
            if (g_hash_table_contains(gm->code_pages, gm_page_key(p))) {
                clip_code_page(&c, p);
            }
        }
    } else {
        g_hash_table_foreach(gm->code_pages, clip_code_key, &c);
    }
    if (c.hit) {
        return false;
    }
    *lo = c.lo;
    *hi = c.hi;
    return true;
}

void guest_mem_set_code(GuestMemory *gm, uint64_t page_addr)
{
    GuestRegion *r;
    bool added = false;

    gm_change_begin(gm);
    r = gm_find_region(gm, page_addr);
    page_addr &= GUEST_PAGE_MASK;
    if (r && r->kind == REGION_RAM) {
        added = g_hash_table_add(gm->code_pages, gm_page_key(page_addr));
    }
    if (added) {
        gm_notify_change(gm, page_addr, GUEST_PAGE_SIZE, GM_CHANGE_CODE);
    }
    gm_change_end(gm);
}

bool guest_mem_is_code(GuestMemory *gm, uint64_t page_addr)
{
    bool r;

    gm_rd_lock(gm);
    r = g_hash_table_contains(gm->code_pages, gm_page_key(page_addr & GUEST_PAGE_MASK));
    gm_rd_unlock(gm);
    return r;
}

void guest_mem_clear_code(GuestMemory *gm, uint64_t page_addr)
{
    bool removed;

    gm_change_begin(gm);
    removed = g_hash_table_remove(gm->code_pages, gm_page_key(page_addr & GUEST_PAGE_MASK));
    if (removed) {
        gm_notify_change(gm, page_addr & GUEST_PAGE_MASK, GUEST_PAGE_SIZE, GM_CHANGE_CODE);
    }
    gm_change_end(gm);
}

bool guest_mem_add_listener(GuestMemory *gm, const GuestMemListener *l)
{
    bool ok = false;

    gm_change_begin(gm);
    if (gm->nlisteners < GUEST_MEM_MAX_LISTENERS) {
        gm->listeners[gm->nlisteners++] = *l;
        ok = true;
    }
    gm_change_end(gm);
    return ok;
}

void guest_mem_remove_listener(GuestMemory *gm, void *opaque)
{
    gm_change_begin(gm);
    for (unsigned i = 0; i < gm->nlisteners; i++) {
        if (gm->listeners[i].opaque == opaque) {
            memmove(&gm->listeners[i], &gm->listeners[i + 1],
                    (gm->nlisteners - i - 1) * sizeof(GuestMemListener));
            gm->nlisteners--;
            i--;
        }
    }
    gm_change_end(gm);
}

void guest_mem_set_code_write_hook(GuestMemory *gm,
                                   void (*hook)(void *opaque, uint64_t page_addr),
                                   void *opaque)
{
    GuestMemListener l = { .on_code_write = hook, .opaque = opaque };

    guest_mem_remove_listener(gm, opaque);
    if (hook) {
        guest_mem_add_listener(gm, &l);
    }
}

/* ------------------------------------------------------------------ */
/* Map, unmap, protect, move                                           */
/* ------------------------------------------------------------------ */

/* Check a page-aligned range: @addr aligned, 0 < len, end <= limit.
 * Rounds *len up to pages. */
static bool range_valid(const GuestMemory *gm, uint64_t addr, uint64_t *len)
{
    uint64_t l = *len;

    if (l == 0 || (addr & ~GUEST_PAGE_MASK) || addr >= gm->limit) {
        return false;
    }
    if (l > gm->limit - addr) {
        return false;
    }
    l = page_align_up(l); /* cannot overflow: l <= limit - addr */
    if (l > gm->limit - addr) {
        return false;
    }
    *len = l;
    return true;
}

static bool range_overlaps(const GuestMemory *gm, uint64_t addr, uint64_t end)
{
    size_t i = gm_upper_region(gm, addr);

    return i < gm->nregions && gm->regions[i].start < end;
}

/* Remove every piece of [addr, end) (code events first).  @replaced: a
 * new block in the window already took the window's host pages of the
 * range (MAP_FIXED), so its direct pieces keep no pages to give back. */
static void remove_range(GuestMemory *gm, uint64_t addr, uint64_t end, bool replaced)
{
    size_t first, n = 0;

    gm_code_range_event(gm, addr, end - addr);
    split_at(gm, addr);
    split_at(gm, end);
    first = gm_upper_region(gm, addr);
    while (first + n < gm->nregions && gm->regions[first + n].start < end) {
        GuestRegion *r = &gm->regions[first + n];
        if (r->kind == REGION_RAM) {
            if (!(replaced && r->block->in_window)) {
                gm_release_piece(gm, r);
            }
            gm_block_unref(gm, r->block);
        }
        n++;
    }
    delete_regions(gm, first, n);
}

static void insert_ram(GuestMemory *gm, uint64_t start, uint64_t end, int prot, RamBlock *b)
{
    GuestRegion r = { 0 };

    r.start = start;
    r.end = end;
    r.kind = REGION_RAM;
    r.prot = prot;
    r.block = b;
    r.host = b->host;
    insert_region(gm, gm_upper_region(gm, start), &r);
}

static bool map_locked(GuestMemory *gm, uint64_t addr, uint64_t len, int prot, bool replace)
{
    uint64_t end, mid;
    RamBlock *lo, *hi = NULL;
    bool fresh;

    if (!range_valid(gm, addr, &len) || (prot & ~GM_PROT_ALL)) {
        return false;
    }
    fresh = !range_overlaps(gm, addr, addr + len);
    if (!replace && !fresh) {
        return false;
    }
    /* A range across the window's end becomes two regions, so the part
     * inside is direct.  The block outside first: it has no side effect
     * to undo when the window part then fails. */
    end = addr + len;
    mid = gm->win && addr < gm->win_size && end > gm->win_size ? gm->win_size : end;
    if (mid < end && !(hi = gm_block_new(gm, mid, end - mid))) {
        return false;
    }
    lo = gm_block_new(gm, addr, mid - addr);
    if (!lo) {
        if (hi) {
            gm_block_unref(gm, hi);
        }
        return false;
    }
    if (replace) {
        remove_range(gm, addr, end, lo->in_window);
    }
    insert_ram(gm, addr, mid, prot, lo);
    if (hi) {
        insert_ram(gm, mid, end, prot, hi);
    }
    gm->layout_gen++;
    gm_notify_change(gm, addr, len, fresh ? GM_CHANGE_NEW : GM_CHANGE_MAP);
    return true;
}

bool guest_mem_map(GuestMemory *gm, uint64_t addr, uint64_t len, int prot, bool replace)
{
    bool ok;

    gm_change_begin(gm);
    ok = map_locked(gm, addr, len, prot, replace);
    gm_change_end(gm);
    return ok;
}

static bool map_mmio_locked(GuestMemory *gm, uint64_t addr, uint64_t len,
                            const GuestMMIOOps *ops, void *opaque)
{
    GuestRegion r = { 0 };

    if (!ops || !range_valid(gm, addr, &len) || range_overlaps(gm, addr, addr + len)) {
        return false;
    }
    r.start = addr;
    r.end = addr + len;
    r.kind = REGION_MMIO;
    r.prot = GM_PROT_READ | GM_PROT_WRITE;
    r.ops = ops;
    r.opaque = opaque;
    r.mmio_base = addr;
    insert_region(gm, gm_upper_region(gm, addr), &r);
    gm->layout_gen++;
    gm_notify_change(gm, addr, len, GM_CHANGE_NEW);
    return true;
}

bool guest_mem_map_mmio(GuestMemory *gm, uint64_t addr, uint64_t len, const GuestMMIOOps *ops,
                        void *opaque)
{
    bool ok;

    gm_change_begin(gm);
    ok = map_mmio_locked(gm, addr, len, ops, opaque);
    gm_change_end(gm);
    return ok;
}

bool guest_mem_unmap(GuestMemory *gm, uint64_t addr, uint64_t len)
{
    if (!range_valid(gm, addr, &len)) {
        return false;
    }
    gm_change_begin(gm);
    if (range_overlaps(gm, addr, addr + len)) {
        remove_range(gm, addr, addr + len, false);
        gm->layout_gen++;
        gm_notify_change(gm, addr, len, GM_CHANGE_MAP);
    }
    gm_change_end(gm);
    return true;
}

/* Is [addr, end) fully covered by regions (RAM only if @ram_only)? */
static bool range_covered(const GuestMemory *gm, uint64_t addr, uint64_t end, bool ram_only)
{
    uint64_t cur = addr;
    size_t i = gm_upper_region(gm, addr);

    while (cur < end) {
        if (i >= gm->nregions || gm->regions[i].start > cur) {
            return false;
        }
        if (ram_only && gm->regions[i].kind != REGION_RAM) {
            return false;
        }
        cur = gm->regions[i].end;
        i++;
    }
    return true;
}

static bool protect_locked(GuestMemory *gm, uint64_t addr, uint64_t len, int prot)
{
    uint64_t end;
    size_t first, i;

    if (!range_valid(gm, addr, &len) || (prot & ~GM_PROT_ALL)) {
        return false;
    }
    end = addr + len;
    if (!range_covered(gm, addr, end, true)) {
        return false;
    }
    split_at(gm, addr);
    split_at(gm, end);
    first = gm_upper_region(gm, addr);
    for (i = first; i < gm->nregions && gm->regions[i].start < end; i++) {
        GuestRegion *r = &gm->regions[i];
        if (r->prot != prot) {
            uint64_t s = r->start, e = r->end;
            r->prot = prot;
            /* Translations made under the old permissions are stale
             * (losing EXEC must stop cached code from running). */
            gm_code_range_event(gm, s, e - s);
        }
    }
    merge_range(gm, first, i);
    gm->layout_gen++;
    gm_notify_change(gm, addr, len, GM_CHANGE_MAP);
    return true;
}

bool guest_mem_protect(GuestMemory *gm, uint64_t addr, uint64_t len, int prot)
{
    bool ok;

    gm_change_begin(gm);
    ok = protect_locked(gm, addr, len, prot);
    gm_change_end(gm);
    return ok;
}

static bool move_locked(GuestMemory *gm, uint64_t old_addr, uint64_t len, uint64_t new_addr)
{
    uint64_t new_len = len;
    uint64_t delta;
    size_t first, n = 0, at;
    GuestRegion *moved;

    if (!range_valid(gm, old_addr, &len) || !range_valid(gm, new_addr, &new_len)) {
        return false;
    }
    if (old_addr < new_addr + len && new_addr < old_addr + len) {
        return false;
    }
    if (!range_covered(gm, old_addr, old_addr + len, true) ||
        range_overlaps(gm, new_addr, new_addr + len)) {
        return false;
    }
    gm_code_range_event(gm, old_addr, len);
    split_at(gm, old_addr);
    split_at(gm, old_addr + len);
    if (gm->win && new_addr < gm->win_size && new_addr + len > gm->win_size) {
        /* The pieces landing inside the window become direct regions. */
        split_at(gm, old_addr + (gm->win_size - new_addr));
    }
    first = gm_upper_region(gm, old_addr);
    while (first + n < gm->nregions && gm->regions[first + n].start < old_addr + len) {
        n++;
    }
    moved = g_memdup2(&gm->regions[first], n * sizeof(GuestRegion));
    delete_regions(gm, first, n);
    delta = new_addr - old_addr; /* modulo 2^64 */
    at = gm_upper_region(gm, new_addr);
    for (size_t k = 0; k < n; k++) {
        GuestRegion *r = &moved[k];
        if (r->kind == REGION_RAM &&
            (r->block->in_window || gm_in_window(gm, r->start + delta, r->end - r->start))) {
            /* The window's host pages follow their guest addresses. */
            gm_region_move(gm, r, r->start + delta);
        }
        r->start += delta;
        r->end += delta;
        insert_region(gm, at + k, r);
    }
    g_free(moved);
    merge_range(gm, at, at + n);
    gm->layout_gen++;
    gm_notify_change(gm, old_addr, len, GM_CHANGE_MAP);
    gm_notify_change(gm, new_addr, len, GM_CHANGE_MAP);
    return true;
}

bool guest_mem_move(GuestMemory *gm, uint64_t old_addr, uint64_t len, uint64_t new_addr)
{
    bool ok;

    gm_change_begin(gm);
    ok = move_locked(gm, old_addr, len, new_addr);
    gm_change_end(gm);
    return ok;
}

int guest_mem_prot(GuestMemory *gm, uint64_t addr)
{
    GuestRegion *r;
    int prot;

    gm_rd_lock(gm);
    r = gm_find_region(gm, addr);
    prot = r ? r->prot : -1;
    gm_rd_unlock(gm);
    return prot;
}

static uint64_t find_free_locked(GuestMemory *gm, uint64_t hint, uint64_t len);

uint64_t guest_mem_find_free(GuestMemory *gm, uint64_t hint, uint64_t len)
{
    uint64_t r;

    gm_rd_lock(gm);
    r = find_free_locked(gm, hint, len);
    gm_rd_unlock(gm);
    return r;
}

static uint64_t find_free_locked(GuestMemory *gm, uint64_t hint, uint64_t len)
{
    uint64_t cur;
    size_t i;

    if (len == 0 || len > gm->limit) {
        return UINT64_MAX;
    }
    len = page_align_up(len);
    if (hint >= gm->limit) {
        return UINT64_MAX;
    }
    cur = page_align_up(hint);
    i = gm_upper_region(gm, cur);
    for (;;) {
        uint64_t gap_end = i < gm->nregions ? gm->regions[i].start : gm->limit;
        if (cur > gm->limit || len > gm->limit - cur) {
            return UINT64_MAX;
        }
        if (gap_end >= cur && gap_end - cur >= len) {
            return cur;
        }
        if (i >= gm->nregions) {
            return UINT64_MAX;
        }
        if (gm->regions[i].end > cur) {
            cur = gm->regions[i].end;
        }
        i++;
    }
}

