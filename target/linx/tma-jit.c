/*
 * Inline TMA moves (issue 16 item 5): the TcgTileMove plan (tcg/tile-move.h)
 * of a translated TMA block whose whole transfer is known at translation
 * time, so that the backend emits the move in the TB instead of a call.
 *
 * What is inlined: TSTORE NORM (ND tile), NZ2ND (NZ tile) and ZN2ND (ZN
 * tile, 2/4/8-byte elements, whole c0 x c0 blocks) of one source tile to
 * ND guest memory, and TLOAD NORM / ND2NZ / ND2ZN from it (with no pad fill:
 * pad Null or a window covering the tile), constant shape (B.DIM
 * immediates, B.IOTI size),
 * any element size, window and stride (immediate-less stride register or
 * none), no AtomicAdd, no -d tile logging, not the reference/portable
 * kernels (LINX_TMA_REFERENCE / LINX_TMA_PORTABLE keep the oracle).
 * Everything else, and every run-time case the inline checks refuse (tile
 * of another size or shape, footprint outside the cached RAM window: MMIO,
 * code pages, faults, first use), calls helper_tma as before: the helper
 * is the semantics, the inline code its fast case (tma-exec.c fast_run).
 *
 * Runs, in GM-row order (hw/linx/tile-regs.h linx_tile_elem_offset):
 *   ND  row r: vc * esize bytes from tile byte r * tc * esize; a dense
 *       window with no stride register is one run of vr rows;
 *   NZ  row r, fractal column b: 32 bytes from b * tr * 32 + r * 32 (the
 *       last one shorter when vc * esize is not a multiple of 32);
 *   ZN  block (R, C) of c0 x c0 elements (c0 = 32 / esize): GM rows R * c0
 *       .. + c0 - 1, bytes C * 32 .. + 31, tile bytes from R * tc * 32 +
 *       C * c0 * 32, transposed (tcg/tile-move.h transpose_esize).
 */
#include <stddef.h>
#include <string.h>

#include "hw/core/guest-memory.h"
#include "hw/linx/tile-regs.h"
#include "tcg/exec.h"
#include "tcg/tile-move.h"
#include "tma-translate.h"

_Static_assert(sizeof(LinxTileMeta) == 16 && LINX_TILE_DEPTH == 8,
               "tcg/tile-move.h writes a pushed tile's meta as 16 bytes, 8 views a hand");
_Static_assert(sizeof(LinxTileGmCache) == 40 && offsetof(LinxTileGmCache, gm) == 0 &&
                   offsetof(LinxTileGmCache, gen) == 8 && offsetof(LinxTileGmCache, lo) == 16 &&
                   offsetof(LinxTileGmCache, hi) == 24 && offsetof(LinxTileGmCache, host) == 32,
               "tcg/tile-move.h reads the window cache as five u64");

static bool add_run(TcgTileRun *runs, unsigned *n, uint32_t row, uint32_t gm_off,
                    uint32_t tile_off, uint32_t len)
{
    if (*n >= TCG_TILE_MOVE_MAX_RUNS || len == 0) {
        return len == 0;
    }
    runs[(*n)++] = (TcgTileRun){ (uint16_t)row, (uint16_t)gm_off, (uint16_t)tile_off,
                                 (uint16_t)len };
    return true;
}

static bool plan_runs(const TmaPlan *p, TcgTileRun *runs, unsigned *n)
{
    const TmaShape *s = &p->shape;
    uint32_t vr = s->valid_rows, vc = s->valid_cols, tr = s->sub_rows, tc = s->sub_cols;
    uint32_t es = p->esize, row_bytes = vc * es;

    *n = 0;
    if (p->tile_layout == LINX_TL_ZN) {
        /* whole c0 x c0 blocks only (tcg/tile-move.h transpose_esize) */
        uint32_t c0 = TMA_BLOCK_BYTES / es;

        if (vr % c0 || vc % c0) {
            return false;
        }
        for (uint32_t r = 0; r < vr; r += c0) {
            for (uint32_t c = 0; c < vc; c += c0) {
                if (!add_run(runs, n, r, c * es, r * tc * es + c * TMA_BLOCK_BYTES,
                             TMA_BLOCK_BYTES)) {
                    return false;
                }
            }
        }
        return true;
    }
    if (p->tile_layout == LINX_TL_ND) {
        if (!p->stride_reg && row_bytes == tc * es) {
            return add_run(runs, n, 0, 0, 0, vr * row_bytes);
        }
        for (uint32_t r = 0; r < vr; r++) {
            if (!add_run(runs, n, r, 0, r * tc * es, row_bytes)) {
                return false;
            }
        }
        return true;
    }
    for (uint32_t r = 0; r < vr; r++) {
        for (uint32_t b = 0; b * TMA_BLOCK_BYTES < row_bytes; b++) {
            uint32_t len = row_bytes - b * TMA_BLOCK_BYTES;

            if (!add_run(runs, n, r, b * TMA_BLOCK_BYTES,
                         b * tr * TMA_BLOCK_BYTES + r * TMA_BLOCK_BYTES,
                         len < TMA_BLOCK_BYTES ? len : TMA_BLOCK_BYTES)) {
                return false;
            }
        }
    }
    return true;
}

/* ZN transposes the backend emits: 16 x 16 words, 8 x 8 dwords, 4 x 4
 * qwords (32 x 32 bytes need more vector registers: the kernels). */
static bool zn_inlined(unsigned esize)
{
    return esize == 2 || esize == 4 || esize == 8;
}

const TcgTileMove *linx_tma_jit_plan(LinxExecContext *ec, const LinxTmaBlock *b)
{
    const TmaPlan *p = &b->plan;
    TcgTileRun runs[TCG_TILE_MOVE_MAX_RUNS];
    TmaOptions opts;
    TcgTileMove *m;
    unsigned n;

    tma_options_from_env(&opts);
    if (!ec || !b->prepared || b->flags != 0 || opts.reference || opts.portable ||
        (p->op == TMA_OP_TSTORE ? p->nsrc != 1 : p->op != TMA_OP_TLOAD) ||
        (p->op == TMA_OP_TLOAD && p->pad != TMA_PAD_NULL &&
         (p->shape.valid_rows != p->shape.sub_rows ||
          p->shape.valid_cols != p->shape.sub_cols)) || /* pad fill: the kernels */
        p->dst_hand >= LINX_TILE_HANDS || p->atomic || !p->shape_const || !p->fast ||
        p->gm_dn ||
        (p->tile_layout != LINX_TL_ND && p->tile_layout != LINX_TL_NZ &&
         !(p->tile_layout == LINX_TL_ZN && zn_inlined(p->esize))) ||
        p->shape.tile_bytes > LINX_TILE_MAX_BYTES || p->shape.valid_rows == 0 ||
        p->shape.gm_outer != p->shape.valid_rows || p->shape.gm_inner != p->shape.valid_cols ||
        !plan_runs(p, runs, &n) || n == 0) {
        return NULL;
    }
    m = linx_exec_tb_alloc(ec, sizeof(*m) + n * sizeof(runs[0]));
    if (!m) {
        return NULL;
    }
    memset(m, 0, sizeof(*m));
    m->store = p->op == TMA_OP_TSTORE;
    m->stride_reg = p->stride_reg != 0;
    m->rows = p->shape.gm_outer;
    m->row_bytes = p->shape.gm_inner * p->esize;
    m->tile_bytes = p->shape.tile_bytes;
    m->meta_layout = p->tile_layout;
    m->meta_dim = (uint16_t)p->shape.sub_rows;
    /* tma-exec.c shape_mismatch: NZ tracks Row, ZN Col */
    m->meta_dim_off =
        p->tile_layout == LINX_TL_NZ
            ? (int32_t)(offsetof(LinxTileSlot, meta) + offsetof(LinxTileMeta, rows))
        : p->tile_layout == LINX_TL_ZN
            ? (int32_t)(offsetof(LinxTileSlot, meta) + offsetof(LinxTileMeta, cols))
            : -1;
    if (p->tile_layout == LINX_TL_ZN) {
        m->meta_dim = (uint16_t)p->shape.sub_cols;
        m->transpose_esize = (uint8_t)p->esize;
    }
    m->meta_layout_off = (int32_t)(offsetof(LinxTileSlot, meta) + offsetof(LinxTileMeta, layout));
    m->meta_bytes_off = (int32_t)(offsetof(LinxTileSlot, meta) + offsetof(LinxTileMeta, bytes));
    m->slot_data_off = (int32_t)offsetof(LinxTileSlot, data);
    m->env_tiles_off = (int32_t)offsetof(CPULinxState, tiles);
    m->env_mem_off = (int32_t)offsetof(CPULinxState, engine.mem);
    m->gen_off = guest_mem_generation_offset();
    m->cache_off = (int32_t)(offsetof(LinxTileState, gm_cache) +
                             sizeof(LinxTileGmCache) * (m->store ? 1 : 0));
    if (m->store) {
        m->view_off = (int32_t)(offsetof(LinxTileState, view) +
                                sizeof(LinxTileSlot *) * (p->src[0] % LINX_TILE_COUNT));
    } else {
        LinxTileMeta meta;

        /* tma-exec.c loaded_meta */
        memset(&meta, 0, sizeof(meta));
        meta.bytes = p->shape.tile_bytes;
        meta.dtype = p->dtype;
        meta.layout = p->tile_layout;
        meta.rows = (uint16_t)p->shape.sub_rows;
        meta.cols = (uint16_t)p->shape.sub_cols;
        meta.valid_rows = (uint16_t)p->shape.valid_rows;
        meta.valid_cols = (uint16_t)p->shape.valid_cols;
        memcpy(m->meta, &meta, sizeof(meta));
        m->view_off = (int32_t)(offsetof(LinxTileState, view) +
                                sizeof(LinxTileSlot *) * LINX_TILE_DEPTH * p->dst_hand);
        m->head_off = (int32_t)(offsetof(LinxTileState, head) + p->dst_hand);
        m->slot_off = (int32_t)offsetof(LinxTileState, slot[p->dst_hand][0]);
        m->slot_size = (int32_t)sizeof(LinxTileSlot);
        m->ring = LINX_TILE_RING;
        m->meta_off = (int32_t)offsetof(LinxTileSlot, meta);
        m->pushes_off = (int32_t)offsetof(LinxTileState, pushes);
        m->meta_dim_off = -1;
    }
    m->nruns = n;
    memcpy(m->runs, runs, n * sizeof(runs[0]));
    return m;
}
