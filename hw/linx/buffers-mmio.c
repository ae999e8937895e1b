/*
 * The buffers' guest windows and the engines' register pages as MMIO
 * regions (see buffers-mmio.h).  This is where the buffer objects and the
 * engines that run on them (LoadData, DataCopy, Mmad, Fixpipe) meet: the
 * engines know buffers.h, buffers.c knows none of them.
 */
#include "hw/linx/buffers-mmio.h"

#include <string.h>

#include "hw/linx/buffers-datacopy.h"
#include "hw/linx/buffers-fixpipe.h"
#include "hw/linx/buffers-loaddata.h"
#include "hw/linx/buffers-mmad.h"

/* ------------------------------------------------------------------ */
/* Guest windows (MMIO)                                                */
/* ------------------------------------------------------------------ */

static bool buffer_read(void *opaque, uint64_t offset, unsigned size, uint64_t *value)
{
    LinxBuffer *x = opaque;

    if (offset >= x->size || size > x->size - offset) {
        return false; /* past the capacity: the guest gets a fault */
    }
    *value = 0;
    memcpy(value, x->data + offset, size); /* little-endian host */
    x->guest_reads++;
    return true;
}

static bool buffer_write(void *opaque, uint64_t offset, unsigned size, uint64_t value)
{
    LinxBuffer *x = opaque;

    if (offset >= x->size || size > x->size - offset) {
        return false;
    }
    memcpy(x->data + offset, &value, size);
    linx_buffer_mark_used(x, offset, size);
    x->guest_writes++;
    return true;
}

static const GuestMMIOOps buffer_ops = { buffer_read, buffer_write };

/* Engine register pages (DataCopy, Mmad, Fixpipe). */
static bool page_read(void *opaque, uint64_t offset, unsigned size, uint64_t *value)
{
    LinxEnginePage *pg = opaque;
    unsigned r = (unsigned)(offset / 8);

    if (size != 8 || offset % 8 || r >= pg->nregs) {
        return false;
    }
    *value = pg->regs[r];
    return true;
}

static bool page_write(void *opaque, uint64_t offset, unsigned size, uint64_t value)
{
    LinxEnginePage *pg = opaque;
    unsigned r = (unsigned)(offset / 8);

    if (size != 8 || offset % 8 || r >= pg->nregs) {
        return false;
    }
    if (r != pg->go) {
        pg->regs[r] = value;
        return true;
    }
    linx_engine_status_ok(&pg->b->status);
    if (!pg->run(pg->b, pg->regs)) {
        pg->regs[pg->go] = pg->b->status.rule;
        pg->b->status_addr = pg->b->base + pg->offset + offset;
        return false; /* the guest store faults; the report names the rule */
    }
    pg->regs[pg->go] = 0;
    return true;
}

static const GuestMMIOOps page_ops = { page_read, page_write };

/* The engine pages, filled when the buffers are mapped (only guest stores
 * through the mapping reach them). */
static void init_pages(LinxBuffers *b)
{
    static const struct {
        uint64_t offset;
        unsigned go;
        LinxEngineGo run;
    } defs[LINX_ENGINE__COUNT] = {
        [LINX_ENGINE_DATACOPY] = { LINX_DC_REGS_OFFSET, LINX_DC_REG_GO, linx_datacopy_go },
        [LINX_ENGINE_MMAD] = { LINX_MM_REGS_OFFSET, LINX_MM_REG_GO, linx_mmad_go },
        [LINX_ENGINE_FIXPIPE] = { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, linx_fixpipe_go },
    };
    uint64_t *regs[LINX_ENGINE__COUNT] = { b->dc_reg, b->mm_reg, b->fp_reg };

    for (unsigned i = 0; i < LINX_ENGINE__COUNT; i++) {
        b->pages[i] = (LinxEnginePage){ b, regs[i], LINX_BUFFERS_ENGINE_NREGS, defs[i].go,
                                        defs[i].offset, defs[i].run };
    }
}

/* Undo the first @nbuf buffer windows and @npages engine pages mapped at
 * @base (a failed linx_buffers_map). */
static void unmap_partial(LinxBuffers *b, GuestMemory *gm, uint64_t base, unsigned nbuf,
                          unsigned npages)
{
    for (unsigned j = 0; j < npages; j++) {
        guest_mem_unmap(gm, base + b->pages[j].offset, LINX_ENGINE_PAGE_LEN);
    }
    for (unsigned j = 0; j < nbuf; j++) {
        guest_mem_unmap(gm, base + b->buf[j].window, b->buf[j].window_len);
    }
}

bool linx_buffers_map(LinxBuffers *b, GuestMemory *gm, uint64_t base)
{
    uint64_t old_base = b->base;
    GuestMemory *old_gm = b->gm;
    unsigned i;

    init_pages(b);

    for (i = 0; i < LINX_BUF__COUNT; i++) {
        LinxBuffer *x = &b->buf[i];

        if (!guest_mem_map_mmio(gm, base + x->window, x->window_len, &buffer_ops, x)) {
            unmap_partial(b, gm, base, i, 0);
            return false;
        }
    }
    b->base = base;
    b->gm = gm;
    for (i = 0; i < LINX_ENGINE__COUNT; i++) {
        if (!guest_mem_map_mmio(gm, base + b->pages[i].offset, LINX_ENGINE_PAGE_LEN, &page_ops,
                                &b->pages[i])) {
            break;
        }
    }
    if (i == LINX_ENGINE__COUNT && linx_loaddata_map_regs(b, gm)) {
        return true;
    }
    unmap_partial(b, gm, base, LINX_BUF__COUNT, i);
    b->base = old_base;
    b->gm = old_gm;
    return false;
}
