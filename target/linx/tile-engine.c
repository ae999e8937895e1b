/*
 * Run-time block engine for CUBE headers gathered in env->hdr (see
 * tile-engine.h).  TMA headers are planned at translation time
 * (tma-translate.h) and never come here.
 */
#include "tile-engine.h"

#include <string.h>

#include "hw/linx/tile-cube.h"
#include "tma-translate.h"
#include "tcg/exec.h"

enum {
    /* env->hdr marks recorded descriptors with a bit above the raw word
     * (trans_cmd.c.inc uses bit 62; cpu.h's comment says 63: accept both). */
    HDR_PRESENT_SHIFT = 62,
    BARG_FORMAT_MASK = 0x707f,
    BARG_FORMAT_MATCH = 0x3043,
    IOT_SIZE_SHIFT = 32,
};

static bool present(uint64_t v)
{
    return (v >> HDR_PRESENT_SHIFT) != 0;
}

static unsigned bits(uint32_t w, unsigned hi, unsigned lo)
{
    return (w >> lo) & ((1u << (hi - lo + 1)) - 1);
}

bool linx_tile_header_to_cube(const LinxBlockHeader *h, const uint64_t lb[3],
                              bool compiled_forms, LinxCubeOp *op, TmaFault *f)
{
    bool cvt = h->func == LINX_CUBE_ACCCVT;

    memset(op, 0, sizeof(*op));
    op->func = (uint8_t)h->func;
    op->dtype = (uint8_t)h->dtype;
    /* Mandatory descriptors, in the digest's order B.ARG > B.TEXT > B.IOT >
     * B.IOR > B.DIM (linxisa-digest 4.1). */
    if (!present(h->arg) && !compiled_forms) {
        tma_rule_fault(TMA_R_MISSING_ARG, 0, f);
        return false;
    }
    if (present(h->text)) {
        tma_rule_fault(TMA_R_TEXT_IN_TMA, 0, f);
        return false;
    }
    if (h->niot == 0) {
        tma_rule_fault(TMA_R_MISSING_IOT, 0, f);
        return false;
    }
    if (cvt && h->nior == 0 && !compiled_forms) {
        tma_rule_fault(TMA_R_MISSING_IOR, 0, f);
        return false;
    }
    if ((h->dim_mask & 7) != 7 && !(cvt && compiled_forms)) {
        tma_rule_fault(TMA_R_MISSING_DIM, 0, f);
        return false;
    }
    op->m = lb[0];
    op->n = lb[1];
    op->k = lb[2];
    /* B.ARG: the quant mode of ACCCVT (format field); TMATMUL's operand
     * layouts are fixed (decisions.md 6), so its B.ARG value is not read. */
    if (cvt) {
        uint32_t w = (uint32_t)h->arg;
        op->quant = present(h->arg) && (w & BARG_FORMAT_MASK) == BARG_FORMAT_MATCH
                        ? (uint8_t)bits(w, 11, 7)
                        : LINX_CUBE_QUANT_NONE;
        op->quant_word = h->nior >= 2 ? (h->ior[0] & 0xffffffffu) |
                                            (h->ior[1] & 0x1ff) << 37
                                      : h->nior == 1 ? h->ior[0] : 0;
    }
    for (uint64_t i = 0; i < h->niot && i < LINX_HDR_MAX_IOT; i++) {
        uint32_t w = (uint32_t)h->iot[i];
        unsigned f3 = bits(w, 14, 12);

        if (i == 0) {
            op->dst_kind = (uint8_t)bits(w, 27, 25);
            op->dst_bytes = f3 >= 6 ? 1u << (bits(w, 11, 7) + 4)
                                    : (uint32_t)(h->iot[i] >> IOT_SIZE_SHIFT);
        }
        for (unsigned s = 0; s < 2; s++) {
            if (!bits(w, 28 + s, 28 + s) && op->nsrc < 3) {
                op->src[op->nsrc++] = (uint8_t)bits(w, 19 + 5 * s, 15 + 5 * s);
            } else if (!bits(w, 28 + s, 28 + s) && op->nsrc < UINT8_MAX) {
                op->nsrc++; /* more than three: rejected by the cube */
            }
        }
    }
    return true;
}

void linx_tile_engine_init(LinxTileEngine *e, const TmaOptions *opts)
{
    (void)opts; /* TMA headers are planned by the translator */
    memset(e, 0, sizeof(*e));
}

static _Noreturn void raise_fault(CPULinxState *env, const TmaFault *f)
{
    linx_tile_fault_raise(env, f, env->pc); /* records the rule for the report */
}

void linx_tile_block_engine(CPULinxState *env, void *opaque)
{
    LinxTileEngine *e = opaque;
    const LinxBlockHeader *h = &env->hdr;
    TmaFault f;

    if (h->type == LINX_BLK_CUBE && env->tiles) {
        LinxCubeOp op;

        if (!linx_tile_header_to_cube(h, env->lb, (h->flags & LINX_HDR_F_COMPILED_FORMS) != 0, &op, &f) ||
            !linx_cube_exec(env->tiles, &op, &f)) {
            raise_fault(env, &f);
        }
        if (e) {
            e->cube_blocks++;
        }
        return;
    }
    if (e && e->next && h->type != LINX_BLK_TMA && h->type != LINX_BLK_CUBE) {
        e->next(env, e->next_opaque);
        return;
    }
    linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), env->pc,
                         env->pc);
}
