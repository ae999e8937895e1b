/*
 * Private layout of a GuestMemory, shared by hw/core/guest-memory.c (the
 * region map: map, unmap, protect, move, listeners, code pages),
 * hw/core/guest-access.c (checked copies, MMIO, TLB-fill lookups,
 * windows) and hw/core/guest-memory-host.c (where RAM lives on the host:
 * the direct window, blocks).  Nothing outside hw/core includes this.
 *
 * Invariants: regions[] is sorted, regions do not overlap, start < end <=
 * limit, both page aligned; a RAM region's host bytes are host .. host +
 * (end - start), inside its block; ends[] mirrors regions[].end whenever
 * ends_dirty is false.  A block is in_window exactly when its regions
 * are direct: region.host == win + region.start.
 */
#ifndef LINX_HW_GUEST_MEMORY_INTERNAL_H
#define LINX_HW_GUEST_MEMORY_INTERNAL_H

#include <glib.h>
#include <pthread.h>
#include <stdbool.h>

#include "hw/core/guest-memory.h"

typedef enum RegionKind {
    REGION_RAM,
    REGION_MMIO,
} RegionKind;

typedef struct RamBlock {
    uint8_t *host;
    uint64_t size;
    unsigned refs;  /* regions pointing into the block */
    bool in_window; /* placed at win + guest address (never munmapped alone) */
} RamBlock;

typedef struct GuestRegion {
    uint64_t start;
    uint64_t end; /* exclusive */
    RegionKind kind;
    int prot;
    RamBlock *block;   /* RAM */
    uint8_t *host;     /* RAM: host address of start (inside block) */
    const GuestMMIOOps *ops; /* MMIO */
    void *opaque;
    uint64_t mmio_base; /* MMIO: guest address of device offset 0 */
} GuestRegion;

struct GuestMemory {
    uint64_t limit;
    uint64_t host_page_size;
    /* The direct window (guest-memory-host.c): host [win, win + win_size)
     * mirrors guest [0, win_size); NULL when none could be reserved. */
    uint8_t *win;
    uint64_t win_size;
    GuestRegion *regions;
    size_t nregions, cap;
    /* Region ends in a dense array, for a cache-friendly binary search;
     * rebuilt on the first lookup after the region array changed. */
    uint64_t *ends;
    size_t ends_cap;
    bool ends_dirty;
    /* Bumped by every change of the region map or its permissions (not
     * by code marks): dirty tracking refuses to restore across one. */
    uint64_t layout_gen;
    /* Dirty-page tracking (guest-memory-dirty.c); NULL while off. */
    struct GmDirty *dirty;
    size_t last_hit; /* index find_region returned last (a hint; atomic) */
    uint64_t generation; /* atomic */
    /* Locking (guest-memory.h): @lock (recursive) serialises changes and
     * listener calls; @rw keeps readers out while the arrays change
     * (readers take it only once @threaded is set). */
    pthread_mutex_t lock;
    pthread_rwlock_t rw;
    bool threaded;
    bool wr_held; /* the changing thread holds @rw for writing (under @lock) */
    unsigned change_depth; /* nested gm_change_begin (a listener changing marks) */
    uint32_t wr_taken;     /* bit d: the begin at depth d took @rw */
    GHashTable *code_pages; /* page number (as pointer) -> itself */
    /* Host faults (guest_mem_enable_host_faults): the host protection of
     * every window page mirrors what a TLB entry would allow a fast access
     * to do there (gm_host_sync keeps it so on every change). */
    bool host_faults;
    GuestMemListener listeners[GUEST_MEM_MAX_LISTENERS];
    unsigned nlisteners;
};

/* Reader side: around lookups and copies by threads that do not hold
 * gm->lock (no-ops until the space is threaded). */
static inline void gm_rd_lock(GuestMemory *gm)
{
    if (gm->threaded) {
        pthread_rwlock_rdlock(&gm->rw);
    }
}

static inline void gm_rd_unlock(GuestMemory *gm)
{
    if (gm->threaded) {
        pthread_rwlock_unlock(&gm->rw);
    }
}

/* Writer side: take gm->lock, then the rw lock for writing.  Listener
 * calls drop the rw lock around the call (gm_call_out_begin/end), so a
 * listener may read guest memory and change code marks. */
void gm_change_begin(GuestMemory *gm);
void gm_change_end(GuestMemory *gm);
bool gm_call_out_begin(GuestMemory *gm);
void gm_call_out_end(GuestMemory *gm, bool held);

/* Index of the first region whose end is above @addr (nregions if none). */
size_t gm_upper_region(const GuestMemory *gm, uint64_t addr);
/* The region holding @addr, or NULL. */
GuestRegion *gm_find_region(const GuestMemory *gm, uint64_t addr);
/* Tell the listeners that code pages in [addr, addr + len) are about to
 * be written (and drop their marks). */
void gm_code_range_event(GuestMemory *gm, uint64_t addr, uint64_t len);
/* Tell the listeners that [addr, addr + len) changed (bumps the
 * generation). */
void gm_notify_change(GuestMemory *gm, uint64_t addr, uint64_t len, unsigned kind);

/* guest-memory-dirty.c: record that [addr, addr + len) is about to be
 * written (or handed out for writing) while tracking is on. */
void gm_dirty_mark_range(GuestMemory *gm, uint64_t addr, uint64_t len);
static inline void gm_dirty_mark(GuestMemory *gm, uint64_t addr, uint64_t len)
{
    if (gm->dirty && len) {
        gm_dirty_mark_range(gm, addr, len);
    }
}
/* Free the tracking state (guest_mem_free). */
void gm_dirty_fini(GuestMemory *gm);

/* guest-memory-host.c: host memory behind RAM regions. */
/* Reserve the direct window (at most @max bytes; 0: none). */
void gm_host_init(GuestMemory *gm, uint64_t max);
/* Unmap the window (after the blocks are gone). */
void gm_host_fini(GuestMemory *gm);
/* A new zero-filled block for guest [addr, addr + len): inside the window
 * when the range is (MAP_FIXED over whatever is there), else anywhere.
 * NULL when the host refuses. */
RamBlock *gm_block_new(GuestMemory *gm, uint64_t addr, uint64_t len);
void gm_block_unref(GuestMemory *gm, RamBlock *b);
/* The RAM region @r leaves the map: give its host pages back (zero them:
 * a later mapping of the same window range must read zeros). */
void gm_release_piece(GuestMemory *gm, const GuestRegion *r);
/* Move RAM region @r's bytes to where guest address @new_start lives on
 * the host and point @r at them (a new block); @r keeps its old guest
 * addresses (the caller updates them).  Only needed when the source or
 * the destination is in the window; elsewhere regions are re-pointed
 * without touching the host. */
void gm_region_move(GuestMemory *gm, GuestRegion *r, uint64_t new_start);
/* Host faults: give the window pages of [addr, addr + len) the host
 * protection the guest's mappings, permissions and code marks allow
 * (readable: RAM with GM_PROT_READ; writable: RAM with GM_PROT_WRITE and
 * no code mark; everything else PROT_NONE).  No-op without host faults.
 * On a host refusal host faults are switched off for good (the exec
 * layer then drops the code that relied on them). */
void gm_host_sync(GuestMemory *gm, uint64_t addr, uint64_t len);
/* Host faults off (dirty tracking starts): window RAM read-write again;
 * the change notice that follows tells the listeners. */
void gm_host_disable(GuestMemory *gm);
/* Host faults: may C code read (@write false) or write the host bytes of
 * RAM region @r's [addr, addr + len) as they are protected now?  When not,
 * gm_host_open/gm_host_sync bracket the copy. */
bool gm_host_allows(const GuestMemory *gm, const GuestRegion *r, bool write);
void gm_host_open(GuestMemory *gm, uint8_t *host, uint64_t len);
/* Is guest [addr, addr + len) inside the window? */
static inline bool gm_in_window(const GuestMemory *gm, uint64_t addr, uint64_t len)
{
    return gm->win && addr < gm->win_size && len <= gm->win_size - addr;
}

/* Hash-set key of the page holding @addr. */
static inline gpointer gm_page_key(uint64_t addr)
{
    return (gpointer)(uintptr_t)(addr >> GUEST_PAGE_BITS);
}

#endif /* LINX_HW_GUEST_MEMORY_INTERNAL_H */
