/*
 * Tile engine status -> architectural trap (tile-trap.h).
 */
#include "tile-trap.h"

#include "cpu.h"
#include "hw/linx/buffers-loaddata.h"
#include "hw/linx/tepl.h"
#include "hw/linx/tile-cube.h"

enum {
    TRAPARG_VALUE_SHIFT = 32, /* E_INST: rule | value << 32 */
    FAMILY_DETAIL_SHIFT = 8,  /* E_BLOCK(EC_BLOCKFMT): family | detail << 8 */
};

/* The TMA descriptor rules: which B.* family, which detail. */
static const struct {
    uint8_t valid, family, detail;
} tma_blockfmt[TMA_R__COUNT] = {
    [TMA_R_MISSING_ARG] = { 1, LINX_DESC_ARG, LINX_BLOCKFMT_MISSING },
    [TMA_R_BAD_ARG] = { 1, LINX_DESC_ARG, LINX_BLOCKFMT_BAD_VALUE },
    [TMA_R_ARG_CONFLICT] = { 1, LINX_DESC_ARG, LINX_BLOCKFMT_COMBO },
    [TMA_R_TEXT_IN_TMA] = { 1, LINX_DESC_TEXT, LINX_BLOCKFMT_COMBO },
    [TMA_R_MISSING_IOT] = { 1, LINX_DESC_IOT, LINX_BLOCKFMT_MISSING },
    [TMA_R_BAD_TILE_SIZE] = { 1, LINX_DESC_IOT, LINX_BLOCKFMT_BAD_VALUE },
    [TMA_R_BAD_DST_TILE] = { 1, LINX_DESC_IOT, LINX_BLOCKFMT_BAD_VALUE },
    [TMA_R_IOT_COMBINATION] = { 1, LINX_DESC_IOT, LINX_BLOCKFMT_COMBO },
    [TMA_R_MIXED_SIZES] = { 1, LINX_DESC_IOT, LINX_BLOCKFMT_COMBO },
    [TMA_R_MISSING_IOR] = { 1, LINX_DESC_IOR, LINX_BLOCKFMT_MISSING },
    [TMA_R_BAD_IOR] = { 1, LINX_DESC_IOR, LINX_BLOCKFMT_BAD_VALUE },
    [TMA_R_MISSING_DIM] = { 1, LINX_DESC_DIM, LINX_BLOCKFMT_MISSING },
    [TMA_R_BAD_DIM] = { 1, LINX_DESC_DIM, LINX_BLOCKFMT_BAD_VALUE },
    [TMA_R_BAD_IOD] = { 1, LINX_DESC_GENERIC, LINX_BLOCKFMT_BAD_VALUE },
};

void linx_tile_fault_trap(const TmaFault *f, LinxTileTrap *t)
{
    unsigned rule = f->rule;

    if (rule == TMA_R_GM_FAULT || rule == LINX_LD_GM_FAULT) {
        t->trapnum = LINX_TRAP_DATA_PAGE_FAULT;
        t->cause = 0;
        t->traparg0 = f->value;
        return;
    }
    if (rule < TMA_R__COUNT && tma_blockfmt[rule].valid) {
        t->trapnum = LINX_TRAP_BLOCK;
        t->cause = LINX_CAUSE(LINX_EC_BLOCKFMT, 0);
        t->traparg0 = tma_blockfmt[rule].family |
                      (uint64_t)tma_blockfmt[rule].detail << FAMILY_DETAIL_SHIFT;
        return;
    }
    t->trapnum = LINX_TRAP_ILLEGAL_INST;
    if (rule == TMA_R_RESERVED_FUNC || rule == LINX_CUBE_BAD_FUNC || rule == LINX_TEPL_BAD_OP) {
        t->cause = LINX_CAUSE(LINX_EC_ILLEGAL, 0);
    } else {
        t->cause = LINX_CAUSE(LINX_EC_PARAM, 0);
    }
    t->traparg0 = (uint64_t)rule | f->value << TRAPARG_VALUE_SHIFT;
}
