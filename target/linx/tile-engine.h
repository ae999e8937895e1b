/*
 * Run-time block engine for tile headers the translator does not plan.
 *
 * The front end gathers such a header into env->hdr as it executes and,
 * at block commit, calls env->block_engine (docs/frontend.md, "Tile and
 * kernel headers").  This engine runs CUBE headers (TMATMUL, TMATMUL.ACC,
 * ACCCVT: tile-cube.h) from that record and raises the architectural
 * exception on a fault.  Headers of other block types go to @next, or
 * raise ILLEGAL_INST when there is none.
 *
 * TMA headers (TLOAD/TSTORE/TMOV) never come here: the translator plans
 * them at translation time (tma-translate.h, docs/tile.md
 * "Translation"); one reaching the hook raises ILLEGAL_INST.
 *
 *   static LinxTileEngine eng;                 // per CPU, in the machine
 *   linx_tile_engine_init(&eng, NULL);
 *   env->tiles = linx_tile_state_new();
 *   env->block_engine = linx_tile_block_engine;
 *   env->block_engine_opaque = &eng;
 */
#ifndef LINX_TARGET_TILE_ENGINE_H
#define LINX_TARGET_TILE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/tma.h"
#include "cpu.h"

typedef struct LinxTileEngine {
    LinxBlockEngineHook next;  /* for block types other than TMA and CUBE (may be NULL) */
    void *next_opaque;
    /* statistics */
    uint64_t cube_blocks;
} LinxTileEngine;

/* @opts is not used any more (it chose TMA kernels, which the translator
 * now plans); kept so machine code need not change.  May be NULL. */
void linx_tile_engine_init(LinxTileEngine *e, const TmaOptions *opts);

/* The LinxBlockEngineHook; @opaque is a LinxTileEngine (may be NULL).
 * Requires env->tiles. */
void linx_tile_block_engine(CPULinxState *env, void *opaque);

/* A gathered CUBE header (TMATMUL / .ACC / .BIAS / ACCCVT) as a cube
 * operation: m/n/k = LB0-2, sources (A, B, bias) and destination from
 * B.IOT(I), the quant mode from B.ARG, the quant word from B.IOR (one
 * value: the packed word; two: fp32 scale bits and zero point).  False
 * with an E_BLOCK(EC_BLOCKFMT) fault for missing descriptors or a B.TEXT:
 * B.IOT always; B.ARG, B.DIM and (ACCCVT) B.IOR unless @compiled_forms
 * (the linx-toolchain profile, docs/decisions.md D8: the compiled PTO
 * kernels' CUBE headers have no B.ARG, their ACCCVT no B.DIM or B.IOR -
 * quant none - while TMATMUL keeps its B.DIM). */
struct LinxCubeOp;
bool linx_tile_header_to_cube(const LinxBlockHeader *h, const uint64_t lb[3],
                              bool compiled_forms, struct LinxCubeOp *op, TmaFault *f);

#endif /* LINX_TARGET_TILE_ENGINE_H */
