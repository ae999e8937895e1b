/*
 * Run-time block engine for tile headers.
 *
 * Today the front end gathers a tile/kernel header into env->hdr as it
 * executes and, at block commit, calls env->block_engine
 * (docs/frontend.md, "Tile and kernel headers").  This engine runs TMA
 * headers (TLOAD/TSTORE/TMOV) and CUBE headers (TMATMUL, TMATMUL.ACC,
 * ACCCVT: tile-cube.h) from that record.  For TMA it turns env->hdr plus
 * LB0-2 into a TmaDesc whose dimensions are the run-time values, plans it
 * (a one-entry plan cache makes a loop's repeated header cheap), runs
 * tma_exec() and raises the architectural exception on a fault.  Headers
 * of other block types go to @next (the TEPL/MPAR engines), or raise
 * ILLEGAL_INST when there is none.
 *
 * When the front end plans TMA headers at translation time (tma.h) this
 * engine is only needed for the other path; nothing else changes.
 *
 *   static LinxTileEngine eng;                 // per CPU, in the machine
 *   linx_tile_engine_init(&eng, NULL);
 *   env->tiles = linx_tile_state_new();
 *   env->block_engine = linx_tile_block_engine;
 *   env->block_engine_opaque = &eng;
 */
#ifndef LINX_HW_TILE_ENGINE_H
#define LINX_HW_TILE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/tma.h"
#include "target/linx/cpu.h"

typedef struct LinxTileEngine {
    TmaOptions opts;
    LinxBlockEngineHook next;  /* for block types other than TMA (may be NULL) */
    void *next_opaque;
    /* one-entry plan cache: the last header's descriptor and plan */
    bool cached;
    TmaDesc cache_desc;
    TmaPlan cache_plan;
    /* statistics */
    uint64_t tma_blocks, cube_blocks, plan_hits;
} LinxTileEngine;

/* @opts may be NULL (defaults: specialised kernels). */
void linx_tile_engine_init(LinxTileEngine *e, const TmaOptions *opts);

/* The LinxBlockEngineHook; @opaque is a LinxTileEngine (NULL: defaults,
 * no plan cache).  Requires env->tiles and env->mem. */
void linx_tile_block_engine(CPULinxState *env, void *opaque);

/* A gathered TMA header as a descriptor plus run-time values: LB0-2 (from
 * @lb) become constants, B.IOR values and B.IOT size registers become
 * arguments.  Exposed for tests. */
void linx_tile_header_to_tma(const LinxBlockHeader *h, const uint64_t lb[3], TmaDesc *d,
                             uint64_t regs[4]);

/* A gathered CUBE header (TMATMUL / TMATMUL.ACC / ACCCVT) as a cube
 * operation: m/n/k = LB0-2, sources and destination from B.IOT(I), the
 * quant mode from B.ARG, the quant word from B.IOR (one value: the packed
 * word; two: fp32 scale bits and zero point).  False with an
 * E_BLOCK(EC_BLOCKFMT) fault for missing descriptors (B.ARG and B.DIM
 * always, B.IOT always, B.IOR for ACCCVT) or a B.TEXT. */
struct LinxCubeOp;
bool linx_tile_header_to_cube(const LinxBlockHeader *h, const uint64_t lb[3],
                              struct LinxCubeOp *op, TmaFault *f);

#endif /* LINX_HW_TILE_ENGINE_H */
