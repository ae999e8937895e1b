/*
 * Tile register file: allocation, reset and push commit.  The ring and
 * id mapping are described in tile-regs.h.
 */
#include "hw/linx/tile-regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"

enum {
    STORAGE_ALIGN = 4096,
    /* Slots start 1 KB into the block and are 64 B further apart than
     * their size, so no slot starts on a 4 KB boundary (4K aliasing with
     * page-aligned guest buffers) and slots start in different cache sets:
     * slot i begins at 1024 + 64 i (mod 4096), i < 36. */
    SLOT_BASE_OFFSET = 1024,
    SLOT_STRIDE = LINX_TILE_MAX_BYTES + 64,
};

#define SLOT_COUNT (LINX_TILE_HANDS * LINX_TILE_RING)
#define STORAGE_BYTES \
    (SLOT_BASE_OFFSET + SLOT_COUNT * SLOT_STRIDE + LINX_ACC_BYTES + LINX_TILE_SCRATCH_BYTES)

/* Recompute view[] for @hand from its ring head. */
static void update_view(LinxTileState *ts, unsigned hand)
{
    for (unsigned k = 0; k < LINX_TILE_DEPTH; k++) {
        unsigned idx = (ts->head[hand] + LINX_TILE_RING - k) % LINX_TILE_RING;

        ts->view[hand * LINX_TILE_DEPTH + k] = &ts->slot[hand][idx];
    }
}

LinxTileState *linx_tile_state_new(void)
{
    LinxTileState *ts = calloc(1, sizeof(*ts));
    uint8_t *p;

    if (!ts) {
        return NULL;
    }
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    ts->storage = aligned_alloc(STORAGE_ALIGN,
                                (STORAGE_BYTES + STORAGE_ALIGN - 1) / STORAGE_ALIGN * STORAGE_ALIGN);
    if (!ts->storage) {
        free(ts);
        return NULL;
    }
    p = (uint8_t *)ts->storage + SLOT_BASE_OFFSET;
    for (unsigned h = 0; h < LINX_TILE_HANDS; h++) {
        for (unsigned i = 0; i < LINX_TILE_RING; i++) {
            ts->slot[h][i].data = p;
            p += SLOT_STRIDE;
        }
    }
    ts->acc.data = p;
    p += LINX_ACC_BYTES;
    ts->scratch = p;
    linx_tile_state_reset(ts);
    return ts;
}

void linx_tile_state_free(LinxTileState *ts)
{
    if (ts) {
        free(ts->storage);
        free(ts);
    }
}

void linx_tile_state_reset(LinxTileState *ts)
{
    for (unsigned h = 0; h < LINX_TILE_HANDS; h++) {
        for (unsigned i = 0; i < LINX_TILE_RING; i++) {
            memset(ts->slot[h][i].data, 0, LINX_TILE_MAX_BYTES);
            memset(&ts->slot[h][i].meta, 0, sizeof(ts->slot[h][i].meta));
            ts->slot[h][i].meta.dtype = LINX_DT_NONE;
        }
        ts->head[h] = 0;
        update_view(ts, h);
    }
    memset(ts->acc.data, 0, LINX_ACC_BYTES);
    ts->acc.m = ts->acc.n = 0;
    ts->acc.dtype = LINX_DT_NONE;
    ts->acc.layout = LINX_TL_NONE;
    ts->acc.valid = false;
    ts->pushes = 0;
    memset(ts->gm_cache, 0, sizeof(ts->gm_cache));
}

void linx_tile_push_commit(LinxTileState *ts, LinxTileHand hand, const LinxTileMeta *meta)
{
    unsigned next = (ts->head[hand] + 1) % LINX_TILE_RING;
    LinxTileSlot **v = &ts->view[hand * LINX_TILE_DEPTH];

    ts->slot[hand][next].meta = *meta;
    ts->head[hand] = (uint8_t)next;
    /* hand#k+1 <- hand#k, hand#1 <- the new slot, old hand#8 drops
     * (an explicit loop: a libc memmove call costs more than 7 moves). */
    for (unsigned k = LINX_TILE_DEPTH - 1; k > 0; k--) {
        v[k] = v[k - 1];
    }
    v[0] = &ts->slot[hand][next];
    ts->pushes++;
}

char linx_tile_hand_char(unsigned hand)
{
    static const char hands[LINX_TILE_HANDS] = { 't', 'u', 'm', 'n' };

    return hand < LINX_TILE_HANDS ? hands[hand] : '?';
}

const char *linx_tile_name(unsigned tile_id, char buf[8])
{
    if (tile_id == LINX_TILE_ACC_ID) {
        snprintf(buf, 8, "acc");
    } else if (tile_id < LINX_TILE_COUNT) {
        snprintf(buf, 8, "%c#%u", linx_tile_hand_char(tile_id / LINX_TILE_DEPTH),
                 tile_id % LINX_TILE_DEPTH + 1);
    } else {
        snprintf(buf, 8, "?%u", tile_id % 100);
    }
    return buf;
}

const char *linx_tile_layout_name(unsigned layout)
{
    static const char *const names[] = {
        [LINX_TL_NONE] = "none", [LINX_TL_ND] = "ND", [LINX_TL_DN] = "DN",
        [LINX_TL_NZ] = "NZ",     [LINX_TL_ZN] = "ZN",
    };

    return layout < sizeof(names) / sizeof(names[0]) ? names[layout] : "?";
}
