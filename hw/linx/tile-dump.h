/*
 * Tile introspection: text dumps of tiles and the ACC for `-d tile`
 * logging, the gdb stub (monitor command / target description) and
 * tests.
 *
 * A dump is a header line (name, id, size, element type, layout, logical
 * shape, valid window) followed by the logical matrix row by row, decoded
 * through the tile's layout, so users see (row, col) values whatever the
 * fractal order in the tile bytes.  Tiles whose type or layout is unknown
 * are dumped as raw bytes.
 *
 *   linx_tile_dump(stderr, tiles, linx_tile_id(LINX_HAND_T, 1), NULL);
 *
 *   t#1 (tile 0): 4096 B FP32 NZ 32x32, valid 32x32
 *     [  0]  1 2 3 ...
 */
#ifndef LINX_HW_TILE_DUMP_H
#define LINX_HW_TILE_DUMP_H

#include <stdio.h>

#include "hw/linx/tile-regs.h"

enum {
    LINX_TILE_DUMP_HEX = 1 << 0,    /* element bits in hex instead of values */
    LINX_TILE_DUMP_FULL = 1 << 1,   /* the whole logical matrix, not just the valid window */
    LINX_TILE_DUMP_HEADER = 1 << 2, /* header line only */
};

typedef struct LinxTileDumpOpts {
    unsigned flags;    /* LINX_TILE_DUMP_* */
    unsigned max_rows; /* 0 = no limit */
    unsigned max_cols; /* 0 = no limit */
} LinxTileDumpOpts;

/* Dump tile @tile_id (0..31, or LINX_TILE_ACC_ID for the accumulator).
 * @opts may be NULL (values, valid window, at most 64 x 32 elements). */
void linx_tile_dump(FILE *out, const LinxTileState *ts, unsigned tile_id,
                    const LinxTileDumpOpts *opts);

/* One header line per written tile, then the ACC. */
void linx_tile_dump_summary(FILE *out, const LinxTileState *ts);

/* The header line of one tile into @buf (always NUL-terminated). */
void linx_tile_describe(char *buf, size_t len, const LinxTileState *ts, unsigned tile_id);

#endif /* LINX_HW_TILE_DUMP_H */
