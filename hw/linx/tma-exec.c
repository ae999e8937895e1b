/*
 * TMA run time: tma_exec() for a planned TLOAD / TSTORE / TMOV.
 *
 * Order of work, so that a fault leaves no architectural side effect:
 *   1. run-time values and the value rules that depend on them;
 *   2. source tiles (written, same size as the transfer, same layout);
 *   3. the whole GM footprint through guest_mem_window() (one check for
 *      rows x row bytes at the stride; a per-CPU cache of validated RAM
 *      blocks, checked against the address space's generation like a TLB,
 *      skips it when the footprint lies in a block seen before); only then
 *   4. the kernel: straight into guest RAM when the footprint is in one
 *      RAM region, otherwise through the scratch buffer with row-by-row
 *      guest_mem_read/write (footprints spanning regions, MMIO);
 *   5. TLOAD/TMOV: commit the push of the destination tile.
 */
#include <string.h>

#include "hw/linx/tile-dtype.h"
#include "hw/linx/tma-kernels.h"

static bool exec_fail(TmaFault *f, TmaRule rule, uint64_t value)
{
    tma_rule_fault(rule, value, f);
    return false;
}

/* The shape for this execution: the plan's when constant, else resolved
 * (running the rules with run-time inputs). */
static const TmaShape *exec_shape(const TmaPlan *p, const TmaRuntimeArgs *a, TmaShape *buf,
                                  TmaFault *f)
{
    uint64_t lb[3], size;

    if (p->shape_const) {
        const TmaShape *s = &p->shape;

        if (p->op == TMA_OP_TSTORE && p->stride_reg != 0 && s->gm_outer > 1 &&
            a->stride < (uint64_t)s->gm_inner * p->esize) {
            exec_fail(f, TMA_R_STORE_OVERLAP, a->stride);
            return NULL;
        }
        return s;
    }
    for (unsigned k = 0; k < 3; k++) {
        lb[k] = (p->dyn & (TMA_DYN_LB0 << k)) ? a->lb[k] : p->lb[k];
    }
    size = (p->dyn & TMA_DYN_SIZE) ? a->tile_bytes : p->tile_bytes;
    if (!tma_shape_resolve(p, lb, size, a->stride, true, buf, f)) {
        return NULL;
    }
    return buf;
}

static LinxTileMeta loaded_meta(const TmaPlan *p, const TmaShape *s)
{
    LinxTileMeta m;

    m.bytes = s->tile_bytes;
    m.dtype = p->dtype;
    m.layout = p->tile_layout;
    m.rows = (uint16_t)s->sub_rows;
    m.cols = (uint16_t)s->sub_cols;
    m.valid_rows = (uint16_t)s->valid_rows;
    m.valid_cols = (uint16_t)s->valid_cols;
    return m;
}

/*
 * Host address of a validated GM footprint, or NULL with *gf = GM_OK when
 * it is valid but not one host block (bounce path), or NULL with the
 * fault.  Hits in the per-CPU window cache skip guest_mem_window(): a
 * miss validates the exact footprint (precise fault address), then tries
 * to remember the largest aligned block around it that is one host block
 * for this access, valid until the address space's generation changes
 * (for writes in an address space that tracks dirty pages, the footprint
 * itself).
 * For writes the block is cut short of code pages, so that the probe
 * raises no code-write event beyond the footprint: a whole-block event
 * invalidated every translation in the 2 MiB around a TSTORE (and the
 * cache itself) on every call - a retranslation storm for a store next
 * to its code (issue 16).
 */
static const uint64_t cache_blocks[] = {
    UINT64_C(2) << 20, UINT64_C(256) << 10, UINT64_C(64) << 10,
};

static uint8_t *gm_window(LinxTileState *ts, GuestMemory *gm, uint64_t base, uint64_t rows,
                          uint64_t row_bytes, uint64_t stride, bool write, GuestFault *gf,
                          uint64_t *fa)
{
    LinxTileGmCache *c = &ts->gm_cache[write];
    int access = write ? GM_PROT_WRITE : GM_PROT_READ;
    uint64_t span, end, gen;
    uint8_t *host = NULL;

    *gf = GM_OK;
    if (__builtin_mul_overflow(rows - 1, stride, &span) ||
        __builtin_add_overflow(span, row_bytes, &span) ||
        __builtin_add_overflow(base, span, &end)) {
        *gf = guest_mem_window(gm, base, rows, row_bytes, stride, access, &host, fa);
        return host;
    }
    if (c->gm == gm && base >= c->lo && end <= c->hi && c->gen == guest_mem_generation(gm)) {
        return c->host + (base - c->lo);
    }
    *gf = guest_mem_window(gm, base, rows, row_bytes, stride, access, &host, fa);
    if (*gf != GM_OK || !host) {
        return host;
    }
    gen = guest_mem_generation(gm);
    /* A write window validates (and, with dirty tracking, records as
     * written: hw/core/guest-memory.h) its whole span: a machine reset by
     * its dirty pages (linx-optest's workers) caches the footprint only. */
    for (size_t i = 0; !(write && guest_mem_tracks_dirty(gm)) &&
                       i < sizeof(cache_blocks) / sizeof(cache_blocks[0]);
         i++) {
        uint64_t blk = cache_blocks[i], lo = base & ~(blk - 1), hi;
        uint8_t *h = NULL;

        if (__builtin_add_overflow(end, blk - 1, &hi)) {
            continue;
        }
        hi &= ~(blk - 1);
        /* A write window holds no code page: stores through a cached
         * window raise no code-write events, and a store near code must
         * not invalidate the code's translations (the block shrinks to
         * the code-free pages around the footprint, see
         * guest_mem_code_free_range; marking a page as code bumps the
         * generation, so the cached range stays code-free). */
        if (write && !guest_mem_code_free_range(gm, base, end, &lo, &hi)) {
            continue;
        }
        if (guest_mem_window(gm, lo, 1, hi - lo, hi - lo, access, &h, NULL) == GM_OK && h) {
            *c = (LinxTileGmCache){ gm, gen, lo, hi, h };
            return host;
        }
    }
    *c = (LinxTileGmCache){ gm, gen, base, end, host };
    return host;
}

/* Steps 3-4 for TLOAD/TSTORE: GM footprint check, then the kernel. */
static bool exec_gm(LinxTileState *ts, GuestMemory *gm, const TmaPlan *p, const TmaShape *s,
                    uint64_t base, uint64_t stride, TmaXfer *x, TmaFault *f)
{
    bool store = p->op == TMA_OP_TSTORE;
    uint64_t rows = s->gm_outer, row_bytes = (uint64_t)s->gm_inner * p->esize;
    uint64_t fa = base;
    GuestFault gf;
    uint8_t *host;

    if (p->atomic) {
        /* AtomicAdd reads the footprint as well: check that first, whole
         * (a fault leaves GM unchanged). */
        uint8_t *unused = NULL;

        gf = guest_mem_window(gm, base, rows, row_bytes, stride, GM_PROT_READ, &unused, &fa);
        if (gf != GM_OK) {
            return exec_fail(f, TMA_R_GM_FAULT, fa);
        }
    }
    host = gm_window(ts, gm, base, rows, row_bytes, stride, store, &gf, &fa);

    if (host) {
        x->gm = host;
        x->stride = stride;
        p->kernel(x);
        return true;
    }
    if (gf != GM_OK) {
        return exec_fail(f, TMA_R_GM_FAULT, fa);
    }
    /* Footprint valid but not one host block: bounce through scratch
     * (rows * row_bytes <= 8 merged 4 KB tiles, see the shape rules). */
    x->gm = ts->scratch;
    x->stride = row_bytes;
    if (!store || p->atomic) { /* AtomicAdd adds to what GM holds */
        for (uint64_t r = 0; r < rows; r++) {
            gf = guest_mem_read(gm, base + r * stride, ts->scratch + r * row_bytes, row_bytes,
                                GM_PROT_READ, &fa);
            if (gf != GM_OK) {
                return exec_fail(f, TMA_R_GM_FAULT, fa);
            }
        }
    }
    if (!store) {
        p->kernel(x);
        return true;
    }
    p->kernel(x);
    for (uint64_t r = 0; r < rows; r++) {
        gf = guest_mem_write(gm, base + r * stride, ts->scratch + r * row_bytes, row_bytes, &fa);
        if (gf != GM_OK) {
            return exec_fail(f, TMA_R_GM_FAULT, fa);
        }
    }
    return true;
}

/* Is the source tile laid out as the TSTORE reads it?  NZ fractals sit
 * where its Row puts them, ZN ones where its Col does: a tile recorded
 * with another Row (NZ) or Col (ZN) than the transfer derives would be
 * read at the wrong places (0 = the tracked shape is unknown). */
static inline uint32_t shape_mismatch(const LinxTileMeta *m, unsigned layout, const TmaShape *s)
{
    if (m->layout != layout) {
        return 0;
    }
    if (layout == LINX_TL_NZ && m->rows && m->rows != s->sub_rows) {
        return m->rows;
    }
    if (layout == LINX_TL_ZN && m->cols && m->cols != s->sub_cols) {
        return m->cols;
    }
    return 0;
}

static bool exec_tstore(LinxTileState *ts, GuestMemory *gm, const TmaPlan *p,
                        const TmaRuntimeArgs *a, const TmaShape *s, TmaFault *f)
{
    TmaXfer x;
    unsigned layout = LINX_TL_NONE;
    uint64_t stride = p->stride_reg ? a->stride : (uint64_t)s->gm_inner * p->esize;

    tma_xfer_init(&x, p, s);
    x.ntiles = p->nsrc;
    for (unsigned i = 0; i < p->nsrc; i++) {
        LinxTileSlot *slot = linx_tile_get(ts, p->src[i]);

        if (slot->meta.bytes != s->tile_bytes) {
            return exec_fail(f, slot->meta.bytes ? TMA_R_TILE_SIZE : TMA_R_TILE_EMPTY,
                             slot->meta.bytes ? slot->meta.bytes : p->src[i]);
        }
        if (shape_mismatch(&slot->meta, p->tile_layout, s)) {
            return exec_fail(f, TMA_R_TILE_SHAPE, shape_mismatch(&slot->meta, p->tile_layout, s));
        }
        if (slot->meta.layout != LINX_TL_NONE) {
            if (layout == LINX_TL_NONE) {
                layout = slot->meta.layout;
            } else if (slot->meta.layout != layout) {
                return exec_fail(f, TMA_R_MIXED_LAYOUT, p->src[i]);
            }
        }
        x.tile[i] = slot->data;
    }
    return exec_gm(ts, gm, p, s, a->base, stride, &x, f);
}

static bool exec_tload(LinxTileState *ts, GuestMemory *gm, const TmaPlan *p,
                       const TmaRuntimeArgs *a, const TmaShape *s, TmaFault *f)
{
    TmaXfer x;
    LinxTileSlot *slot = linx_tile_push_slot(ts, (LinxTileHand)p->dst_hand);
    uint64_t stride = p->stride_reg ? a->stride : (uint64_t)s->gm_inner * p->esize;
    LinxTileMeta m;

    tma_xfer_init(&x, p, s);
    x.ntiles = 1;
    x.tile[0] = slot->data;
    if (!exec_gm(ts, gm, p, s, a->base, stride, &x, f)) {
        return false;
    }
    m = loaded_meta(p, s);
    linx_tile_push_commit(ts, (LinxTileHand)p->dst_hand, &m);
    return true;
}

static bool exec_tmov(LinxTileState *ts, const TmaPlan *p, const TmaRuntimeArgs *a, TmaFault *f)
{
    LinxTileSlot *dst = linx_tile_push_slot(ts, (LinxTileHand)p->dst_hand);
    uint64_t size = (p->dyn & TMA_DYN_SIZE) ? a->tile_bytes : p->tile_bytes;
    LinxTileMeta m;

    if (size < LINX_TILE_MIN_BYTES || size > LINX_TILE_MAX_BYTES) {
        return exec_fail(f, TMA_R_BAD_TILE_SIZE, size);
    }
    if (p->mov_mode == TMA_MOV_A2V) {
        const LinxAccState *acc = &ts->acc;
        size_t n;

        if (acc->dtype == LINX_DT_NONE) {
            return exec_fail(f, TMA_R_ACC_EMPTY, 0);
        }
        n = (size_t)acc->m * acc->n * 4;
        n = n < size ? n : size;
        memcpy(dst->data, acc->data, n);
        memset(dst->data + n, 0, size - n);
        memset(&m, 0, sizeof(m));
        m.bytes = (uint32_t)size;
        m.dtype = acc->dtype;
        m.layout = LINX_TL_ND;
        m.rows = acc->m;
        m.cols = acc->n;
        m.valid_rows = acc->m;
        m.valid_cols = acc->n;
    } else {
        const LinxTileSlot *src = linx_tile_get(ts, p->src[0]);

        if (src->meta.bytes == 0) {
            return exec_fail(f, TMA_R_TILE_EMPTY, p->src[0]);
        }
        if (p->layout == TMA_LAYOUT_NORM) {
            size_t n = src->meta.bytes < size ? src->meta.bytes : size;

            memcpy(dst->data, src->data, n);
            memset(dst->data + n, 0, size - n);
            m = src->meta;
            m.bytes = (uint32_t)size;
        } else {
            TmaShape buf;
            const TmaShape *s = exec_shape(p, a, &buf, f);
            TmaXfer x;

            if (!s) {
                return false;
            }
            if ((uint64_t)s->gm_inner * s->gm_outer * p->esize > src->meta.bytes) {
                return exec_fail(f, TMA_R_MOV_SHAPE, (uint64_t)s->gm_inner * s->gm_outer);
            }
            tma_xfer_init(&x, p, s);
            x.ntiles = 1;
            x.tile[0] = dst->data;
            x.gm = src->data;
            x.stride = (size_t)s->gm_inner * p->esize;
            p->kernel(&x);
            m = loaded_meta(p, s);
        }
    }
    linx_tile_push_commit(ts, (LinxTileHand)p->dst_hand, &m);
    return true;
}

/*
 * Fast path (plans with p->fast): constant shape, one tile, footprint in
 * the cached RAM block, source tile of the right size.  Anything else -
 * including every fault - returns false and takes the general path, which
 * reports it and refills the cache.  @x holds the plan's constant fields
 * (tma_xfer_init); the per-call ones are written here.  Every store on
 * this path counts: a 4 KB TSTORE is bound by the host's store
 * throughput, so the per-call work writes as little as it can.
 */
static inline __attribute__((always_inline)) bool
fast_run(LinxTileState *ts, GuestMemory *gm, const TmaPlan *p, TmaXfer *x, uint64_t base,
         uint64_t stride_arg)
{
    /* First, while few values are live: the call spills nothing then. */
    uint64_t gen = guest_mem_generation(gm);
    bool store = p->op == TMA_OP_TSTORE;
    const TmaShape *s = &p->shape;
    uint64_t row_bytes = (uint64_t)s->gm_inner * p->esize;
    uint64_t stride = p->stride_reg ? stride_arg : row_bytes;
    const LinxTileGmCache *c = &ts->gm_cache[store];
    uint64_t span, end;
    LinxTileSlot *slot;

    if (store && stride < row_bytes && s->gm_outer > 1) {
        return false; /* overlapping rows: the general path raises */
    }
    if (__builtin_mul_overflow((uint64_t)s->gm_outer - 1, stride, &span) ||
        __builtin_add_overflow(span, row_bytes, &span) ||
        __builtin_add_overflow(base, span, &end) ||
        c->gm != gm || base < c->lo || end > c->hi || c->gen != gen) {
        return false;
    }
    if (store) {
        slot = linx_tile_get(ts, p->src[0]);
        if (slot->meta.bytes != s->tile_bytes || shape_mismatch(&slot->meta, p->tile_layout, s)) {
            return false;
        }
    } else {
        slot = linx_tile_push_slot(ts, (LinxTileHand)p->dst_hand);
    }
    x->gm = c->host + (base - c->lo);
    if (p->stride_reg) {
        x->stride = stride; /* else the prepared row_bytes */
    }
    x->tile[0] = slot->data;
    p->kernel(x);
    if (!store) {
        LinxTileMeta m = loaded_meta(p, s);

        linx_tile_push_commit(ts, (LinxTileHand)p->dst_hand, &m);
    }
    return true;
}

/* The constant part of a fast-path transfer. */
static inline void fast_xfer_init(const TmaPlan *p, TmaXfer *x)
{
    tma_xfer_init(x, p, &p->shape);
    x->ntiles = 1;
    x->stride = (size_t)p->shape.gm_inner * p->esize;
}

static inline bool exec_fast(LinxTileState *ts, GuestMemory *gm, const TmaPlan *p,
                             const TmaRuntimeArgs *a)
{
    TmaXfer x;

    fast_xfer_init(p, &x);
    return fast_run(ts, gm, p, &x, a->base, a->stride);
}

bool tma_xfer_prepare(const TmaPlan *p, TmaXfer *x)
{
    if (!p->fast || p->fault.rule != TMA_OK) {
        return false;
    }
    fast_xfer_init(p, x);
    return true;
}

bool tma_exec_prepared(LinxTileState *ts, GuestMemory *gm, const TmaPlan *p, TmaXfer *x,
                       uint64_t base, uint64_t stride)
{
    return fast_run(ts, gm, p, x, base, stride);
}

bool tma_exec(LinxTileState *ts, GuestMemory *gm, const TmaPlan *p, const TmaRuntimeArgs *a,
              TmaFault *f)
{
    TmaShape buf;
    const TmaShape *s;

    if (p->fast && exec_fast(ts, gm, p, a)) {
        f->rule = TMA_OK;
        return true;
    }
    if (p->fault.rule != TMA_OK) {
        *f = p->fault;
        return false;
    }
    f->rule = TMA_OK;
    if (p->op == TMA_OP_TMOV) {
        return exec_tmov(ts, p, a, f);
    }
    s = exec_shape(p, a, &buf, f);
    if (!s) {
        return false;
    }
    if (p->op == TMA_OP_TSTORE) {
        return exec_tstore(ts, gm, p, a, s, f);
    }
    return exec_tload(ts, gm, p, a, s, f);
}
