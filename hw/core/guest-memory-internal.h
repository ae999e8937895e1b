/*
 * Private layout of a GuestMemory, shared by hw/core/guest-memory.c (the
 * region map: map, unmap, protect, move, listeners, code pages) and
 * hw/core/guest-access.c (checked copies, MMIO, TLB-fill lookups,
 * windows).  Nothing outside hw/core includes this.
 *
 * Invariants: regions[] is sorted, regions do not overlap, start < end <=
 * limit, both page aligned; a RAM region's host bytes are host .. host +
 * (end - start), inside its block; ends[] mirrors regions[].end whenever
 * ends_dirty is false.
 */
#ifndef LINX_HW_GUEST_MEMORY_INTERNAL_H
#define LINX_HW_GUEST_MEMORY_INTERNAL_H

#include <glib.h>

#include "hw/core/guest-memory.h"

typedef enum RegionKind {
    REGION_RAM,
    REGION_MMIO,
} RegionKind;

typedef struct RamBlock {
    uint8_t *host;
    uint64_t size;
    unsigned refs; /* regions pointing into the block */
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
    GuestRegion *regions;
    size_t nregions, cap;
    /* Region ends in a dense array, for a cache-friendly binary search;
     * rebuilt on the first lookup after the region array changed. */
    uint64_t *ends;
    size_t ends_cap;
    bool ends_dirty;
    size_t last_hit; /* index find_region returned last (a hint) */
    uint64_t generation;
    GHashTable *code_pages; /* page number (as pointer) -> itself */
    GuestMemListener listeners[GUEST_MEM_MAX_LISTENERS];
    unsigned nlisteners;
};

/* Index of the first region whose end is above @addr (nregions if none). */
size_t gm_upper_region(const GuestMemory *gm, uint64_t addr);
/* The region holding @addr, or NULL. */
GuestRegion *gm_find_region(const GuestMemory *gm, uint64_t addr);
/* Tell the listeners that code pages in [addr, addr + len) are about to
 * be written (and drop their marks). */
void gm_code_range_event(GuestMemory *gm, uint64_t addr, uint64_t len);
/* Hash-set key of the page holding @addr. */
static inline gpointer gm_page_key(uint64_t addr)
{
    return (gpointer)(uintptr_t)(addr >> GUEST_PAGE_BITS);
}

#endif /* LINX_HW_GUEST_MEMORY_INTERNAL_H */
