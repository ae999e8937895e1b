/*
 * Block moves between guest memory and a tile register that the backend
 * may emit inline (issue 16 item 5: TSTORE/TLOAD with a shape known at
 * translation time become host code in the TB, no call, no dispatch).
 *
 * A front end that wants it calls a helper carrying IR_CALL_TILE_MOVE
 * (tcg/ir.h) whose arguments are
 *
 *     (env, block, base, stride, size, plan)
 *
 * with @plan a constant pointer to a TcgTileMove that lives as long as the
 * TB.  The helper is the whole semantics (the interpreter, and the JIT when
 * it does not inline, just call it); the backend may instead emit the fast
 * case inline and call the helper only when a run-time check fails:
 *
 *   1. ts = *(env + env_tiles_off), not NULL; gm = *(env + env_mem_off);
 *   2. the window cache c = ts + cache_off (struct of five u64: gm,
 *      generation, lo, hi, host): c.gm == gm, c.generation ==
 *      *(gm + gen_off), [base, base + span) inside [c.lo, c.hi), where
 *      span = (rows - 1) * stride + row_bytes (stride = the argument when
 *      @stride_reg, else row_bytes; a stride argument below row_bytes with
 *      rows > 1, or >= 2^31, fails the check);
 *   3. stores: the tile slot s = *(ts + view_off) (a pointer): *(u32 *)(s +
 *      meta_bytes_off) == tile_bytes, and when @meta_dim_off >= 0: if
 *      *(u8 *)(s + meta_layout_off) == meta_layout, the u16 at @meta_dim_off
 *      is 0 or @meta_dim;
 *   4. copy every run (or transpose it, @transpose_esize): run k moves
 *      len bytes between guest host address c.host + (base - c.lo) + row *
 *      stride + gm_off and tile address *(s + slot_data_off) + tile_off, in
 *      the direction @store says.
 *
 * Runs are sorted by row (rows ascending), so a backend walking rows with
 * a running pointer adds the stride between them.  The cache is the one
 * the helper fills and keeps coherent (hw/linx/tma-exec.c gm_window: RAM
 * only, code pages cut out of write windows, valid for one generation of
 * the address space), so MMIO, code pages, watchpoints and faults always
 * take the helper, which validates the whole footprint before any side
 * effect: a fault leaves nothing written (precise), as the kernel path.
 */
#ifndef LINX_TCG_TILE_MOVE_H
#define LINX_TCG_TILE_MOVE_H

#include <stdbool.h>
#include <stdint.h>

enum {
    TCG_TILE_MOVE_MAX_RUNS = 320, /* more: the front end does not inline */
};

typedef struct TcgTileRun {
    uint16_t row;     /* GM row (0 .. rows-1) */
    uint16_t gm_off;  /* byte offset inside the GM row */
    uint16_t tile_off; /* byte offset inside the tile */
    uint16_t len;     /* bytes, 1 .. 4096 */
} TcgTileRun;

typedef struct TcgTileMove {
    bool store;          /* tile -> guest memory (TSTORE), else a load */
    bool stride_reg;     /* the stride is the call's stride argument */
    uint32_t rows;       /* GM rows of the footprint */
    uint32_t row_bytes;  /* bytes per GM row */
    uint32_t tile_bytes; /* the slot's meta.bytes must equal it */
    uint8_t meta_layout;
    uint16_t meta_dim;
    int32_t meta_dim_off; /* -1: no shape check */
    int32_t meta_layout_off, meta_bytes_off, slot_data_off;
    int32_t env_tiles_off, env_mem_off, gen_off, cache_off, view_off;
    /* Loads push a new tile on one hand (step 3 and after step 4):
     * h = u8 at ts + head_off; n = (h + 1) % ring; the slot s = ts +
     * slot_off + n * slot_size receives the bytes; then its meta (16 bytes
     * at s + meta_off) = meta[], the u8 at head_off = n, the hand's eight
     * view pointers at ts + view_off shift up by one (the last drops) and
     * view[0] = s, the u64 at ts + pushes_off += 1. */
    int32_t head_off, slot_off, slot_size, ring, meta_off, pushes_off;
    uint64_t meta[2];
    /* 0: runs are byte copies.  2, 4 or 8: runs are c0 x c0 element
     * blocks (c0 = 32 / transpose_esize) transposed on the way (ZN tiles):
     * run k covers GM rows row .. row + c0 - 1, 32 bytes from gm_off in
     * each, and tile bytes tile_off .. tile_off + 32 * c0 - 1 (32-byte tile
     * rows); GM row row + i, element j <-> tile row j, element i; len is
     * 32. */
    uint8_t transpose_esize;
    uint32_t nruns;
    TcgTileRun runs[]; /* nruns of them */
} TcgTileMove;

#endif /* LINX_TCG_TILE_MOVE_H */
