/*
 * Tile register file: 4 hands (T, U, M, N) x 8 deep, plus the single ACC
 * (linxisa-digest section 2, shared/docs/decisions.md 8).
 *
 * Model:
 *   - tile-id = hand * 8 + (k - 1) for hand#k (t#1 = 0, u#1 = 8, m#1 = 16,
 *     n#1 = 24); assembly is 1-based, B.IOT SrcTile fields hold the id;
 *   - every tile producer pushes a new hand#1: older entries shift down and
 *     #8 drops.  Pushes never copy tile data: each hand is a ring of
 *     LINX_TILE_RING = 9 slots with a head index, so one slot is always
 *     spare.  A producer writes the spare slot (linx_tile_push_slot), which
 *     is none of the 8 visible tiles, so inputs are never modified in place
 *     even when a block reads hand#8 of the hand it pushes; then
 *     linx_tile_push_commit() makes it hand#1.  A fault before the commit
 *     leaves the register file unchanged (precise, restartable);
 *   - each tile tracks its size (512 B .. 4 KB; 0 = never written) and,
 *     for introspection and the cube, the element type, layout and logical
 *     shape it was produced with;
 *   - ACC is one implicit accumulator (m x n elements of 32 bits, stored
 *     row-major: its internal order is not architecturally observable).
 *
 * Tile data lives in one allocation; no slot starts on a 4 KB boundary
 * and slots are staggered by 64 B, so tile buffers do not 4K-alias with
 * page-aligned guest buffers (shared/docs/tile-limit.md 7).
 *
 * The machine owns the state (the CPU points to it); nothing here is
 * global.
 */
#ifndef LINX_HW_TILE_REGS_H
#define LINX_HW_TILE_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINX_TILE_HANDS 4
#define LINX_TILE_DEPTH 8
#define LINX_TILE_RING (LINX_TILE_DEPTH + 1)
#define LINX_TILE_COUNT (LINX_TILE_HANDS * LINX_TILE_DEPTH)
#define LINX_TILE_MIN_BYTES 512u
#define LINX_TILE_MAX_BYTES 4096u
/* ACC capacity: m x n 32-bit elements, m * n <= 4096 (the largest product
 * an ACCCVT to an 8-bit 4 KB tile can drain). */
#define LINX_ACC_MAX_ELEMS 4096u
#define LINX_ACC_BYTES (LINX_ACC_MAX_ELEMS * 4u)
/* Scratch for GM bounce copies: 8 merged 4 KB tiles. */
#define LINX_TILE_SCRATCH_BYTES (8u * LINX_TILE_MAX_BYTES)

typedef enum LinxTileHand {
    LINX_HAND_T = 0,
    LINX_HAND_U = 1,
    LINX_HAND_M = 2,
    LINX_HAND_N = 3,
} LinxTileHand;

/* Tile-side layouts (shared/docs/tile-semantics.md 2.1). */
typedef enum LinxTileLayout {
    LINX_TL_NONE = 0, /* unknown (e.g. never written) */
    LINX_TL_ND,       /* row-major */
    LINX_TL_DN,       /* column-major */
    LINX_TL_NZ,       /* 16 x c0 fractals, row-major inside, column-block-major */
    LINX_TL_ZN,       /* c0 x 16 fractals, column-major inside, row-block-major */
} LinxTileLayout;

typedef struct LinxTileMeta {
    uint32_t bytes;      /* tracked size; 0 = never written */
    uint8_t dtype;       /* LinxTileDType, LINX_DT_NONE when unknown */
    uint8_t layout;      /* LinxTileLayout */
    uint16_t rows, cols; /* logical matrix (0 when unknown) */
    uint16_t valid_rows, valid_cols;
} LinxTileMeta;

typedef struct LinxTileSlot {
    uint8_t *data; /* LINX_TILE_MAX_BYTES bytes, 64-byte aligned */
    LinxTileMeta meta;
} LinxTileSlot;

typedef struct LinxAccState {
    uint8_t *data;    /* LINX_ACC_BYTES, row-major m x n */
    uint16_t m, n;
    uint8_t dtype;    /* LINX_DT_FP32 or LINX_DT_S32; LINX_DT_NONE = empty */
    uint8_t layout;   /* layout family of the chain's operands: LINX_TL_NZ
                       * (NZ x ZN, the hardware's) or LINX_TL_ND (dense
                       * row-major operands); ACCCVT writes this layout */
    bool valid;       /* a TMATMUL started the chain */
} LinxAccState;

/* A guest RAM range [lo, hi) that guest_mem_window() validated as one
 * host-contiguous block for an access, valid while the address space's
 * generation is @gen (like a TLB entry: any mapping, permission or code
 * mark change bumps the generation).  Used by tma_exec() only. */
typedef struct LinxTileGmCache {
    const void *gm;   /* GuestMemory it belongs to (NULL = empty) */
    uint64_t gen;
    uint64_t lo, hi;
    uint8_t *host;    /* host address of lo */
} LinxTileGmCache;

typedef struct LinxTileState {
    LinxTileSlot slot[LINX_TILE_HANDS][LINX_TILE_RING];
    uint8_t head[LINX_TILE_HANDS]; /* ring index of hand#1 */
    /* view[id] = the slot tile-id @id names now (kept by push commits,
     * so reading a tile is one load, no ring arithmetic). */
    LinxTileSlot *view[LINX_TILE_COUNT];
    LinxAccState acc;
    uint8_t *scratch;              /* LINX_TILE_SCRATCH_BYTES */
    LinxTileGmCache gm_cache[2];   /* [0] reads (TLOAD), [1] writes (TSTORE) */
    uint64_t pushes;               /* statistics */
    /* TMA blocks the translated code ran through helper_tma (statistics:
     * a move the JIT emitted inline does not count, tcg/tile-move.h). */
    uint64_t helper_moves;
    void *storage;                 /* the one allocation behind all of it */
} LinxTileState;

LinxTileState *linx_tile_state_new(void);
void linx_tile_state_free(LinxTileState *ts);
/* All tiles empty (size 0, data zeroed), ACC empty. */
void linx_tile_state_reset(LinxTileState *ts);

static inline unsigned linx_tile_id(LinxTileHand hand, unsigned k)
{
    return (unsigned)hand * LINX_TILE_DEPTH + (k - 1);
}

/* Visible tile @tile_id (0..31; higher bits are ignored). */
static inline LinxTileSlot *linx_tile_get(LinxTileState *ts, unsigned tile_id)
{
    return ts->view[tile_id % LINX_TILE_COUNT];
}

static inline const LinxTileSlot *linx_tile_get_const(const LinxTileState *ts,
                                                      unsigned tile_id)
{
    return linx_tile_get((LinxTileState *)ts, tile_id);
}

/* The spare slot a producer writes before linx_tile_push_commit(). */
static inline LinxTileSlot *linx_tile_push_slot(LinxTileState *ts, LinxTileHand hand)
{
    return &ts->slot[hand][(ts->head[hand] + 1) % LINX_TILE_RING];
}

/* Make the spare slot hand#1 with @meta; the old hand#8 becomes spare. */
void linx_tile_push_commit(LinxTileState *ts, LinxTileHand hand, const LinxTileMeta *meta);

/* Element offset of logical (r, c) in a rows x cols tile of @layout with
 * @esize-byte elements (shared/docs/tile-semantics.md 2.1; c0 = 32/esize). */
static inline size_t linx_tile_elem_offset(unsigned layout, uint32_t r, uint32_t c, uint32_t rows,
                                           uint32_t cols, unsigned esize)
{
    size_t c0 = 32 / esize;

    switch (layout) {
    case LINX_TL_NZ:
        return (c / c0) * rows * c0 + (size_t)r * c0 + c % c0;
    case LINX_TL_ZN:
        return (r / c0) * cols * c0 + (size_t)c * c0 + r % c0;
    case LINX_TL_DN:
        return (size_t)c * rows + r;
    default:
        return (size_t)r * cols + c;
    }
}

/* "t#1", "u#8", ... for tile ids 0..31, "acc" for LINX_TILE_ACC_ID. */
#define LINX_TILE_ACC_ID 32u
const char *linx_tile_name(unsigned tile_id, char buf[8]);

/* Hand letter 't','u','m','n' of a hand index. */
char linx_tile_hand_char(unsigned hand);

const char *linx_tile_layout_name(unsigned layout);

#endif /* LINX_HW_TILE_REGS_H */
