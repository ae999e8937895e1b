/*
 * Tile introspection: text dumps (see tile-dump.h).
 */
#include "hw/linx/tile-dump.h"

#include <inttypes.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"

enum {
    DEFAULT_MAX_ROWS = 64,
    DEFAULT_MAX_COLS = 32,
    RAW_BYTES_PER_LINE = 32,
    ACC_ELEM_BYTES = 4,
};

/* A view of one tile (or the ACC) for printing. */
typedef struct TileView {
    const uint8_t *data;
    uint32_t bytes;
    uint8_t dtype;
    uint8_t layout;
    uint32_t rows, cols, valid_rows, valid_cols;
} TileView;

static bool view_of(const LinxTileState *ts, unsigned tile_id, TileView *v)
{
    memset(v, 0, sizeof(*v));
    if (tile_id == LINX_TILE_ACC_ID) {
        const LinxAccState *acc = &ts->acc;

        if (acc->dtype == LINX_DT_NONE) {
            return false;
        }
        v->data = acc->data;
        v->bytes = (uint32_t)acc->m * acc->n * ACC_ELEM_BYTES;
        v->dtype = acc->dtype;
        v->layout = LINX_TL_ND;
        v->rows = v->valid_rows = acc->m;
        v->cols = v->valid_cols = acc->n;
        return true;
    }
    if (tile_id >= LINX_TILE_COUNT) {
        return false;
    }
    {
        const LinxTileSlot *s = linx_tile_get_const(ts, tile_id);

        if (s->meta.bytes == 0) {
            return false;
        }
        v->data = s->data;
        v->bytes = s->meta.bytes;
        v->dtype = s->meta.dtype;
        v->layout = s->meta.layout;
        v->rows = s->meta.rows;
        v->cols = s->meta.cols;
        v->valid_rows = s->meta.valid_rows;
        v->valid_cols = s->meta.valid_cols;
    }
    return true;
}

void linx_tile_describe(char *buf, size_t len, const LinxTileState *ts, unsigned tile_id)
{
    char name[8];
    TileView v;

    linx_tile_name(tile_id, name);
    if (!view_of(ts, tile_id, &v)) {
        snprintf(buf, len, "%s (tile %u): empty", name, tile_id);
        return;
    }
    if (v.rows == 0 || v.cols == 0) {
        snprintf(buf, len, "%s (tile %u): %" PRIu32 " B %s %s", name, tile_id, v.bytes,
                 linx_dtype_name(v.dtype),
                 linx_tile_layout_name(v.layout));
        return;
    }
    snprintf(buf, len, "%s (tile %u): %" PRIu32 " B %s %s %" PRIu32 "x%" PRIu32
             ", valid %" PRIu32 "x%" PRIu32,
             name, tile_id, v.bytes, linx_dtype_name(v.dtype), linx_tile_layout_name(v.layout),
             v.rows, v.cols, v.valid_rows, v.valid_cols);
}

static void dump_raw(FILE *out, const TileView *v)
{
    for (uint32_t off = 0; off < v->bytes; off += RAW_BYTES_PER_LINE) {
        fprintf(out, "  %04" PRIx32 ":", off);
        for (uint32_t i = off; i < off + RAW_BYTES_PER_LINE && i < v->bytes; i++) {
            fprintf(out, " %02x", v->data[i]);
        }
        fputc('\n', out);
    }
}

static void print_elem(FILE *out, const LinxDTypeInfo *dt, const uint8_t *p, bool hex)
{
    if (hex) {
        uint64_t u = 0;

        memcpy(&u, p, dt->size);
        fprintf(out, " %0*" PRIx64, 2 * dt->size, u);
    } else if (dt->kind == LINX_DTK_FLOAT) {
        fprintf(out, " %11.6g", linx_dtype_load_double(dt, p));
    } else if (dt->kind == LINX_DTK_SINT) {
        fprintf(out, " %6" PRId64, linx_dtype_load_int(dt, p));
    } else {
        fprintf(out, " %6" PRIu64, (uint64_t)linx_dtype_load_int(dt, p));
    }
}

void linx_tile_dump(FILE *out, const LinxTileState *ts, unsigned tile_id,
                    const LinxTileDumpOpts *opts)
{
    LinxTileDumpOpts def = { 0, DEFAULT_MAX_ROWS, DEFAULT_MAX_COLS };
    const LinxDTypeInfo *dt;
    char head[128];
    TileView v;
    uint32_t nr, nc, show_r, show_c;

    if (!opts) {
        opts = &def;
    }
    linx_tile_describe(head, sizeof(head), ts, tile_id);
    fprintf(out, "%s\n", head);
    if ((opts->flags & LINX_TILE_DUMP_HEADER) || !view_of(ts, tile_id, &v)) {
        return;
    }
    dt = linx_dtype_info(v.dtype);
    if (!dt || v.layout == LINX_TL_NONE || v.rows == 0 || v.cols == 0 ||
        (uint64_t)v.rows * v.cols * dt->size > v.bytes) {
        dump_raw(out, &v);
        return;
    }
    nr = (opts->flags & LINX_TILE_DUMP_FULL) ? v.rows : v.valid_rows;
    nc = (opts->flags & LINX_TILE_DUMP_FULL) ? v.cols : v.valid_cols;
    show_r = opts->max_rows && nr > opts->max_rows ? opts->max_rows : nr;
    show_c = opts->max_cols && nc > opts->max_cols ? opts->max_cols : nc;
    for (uint32_t r = 0; r < show_r; r++) {
        fprintf(out, "  [%3" PRIu32 "]", r);
        for (uint32_t c = 0; c < show_c; c++) {
            size_t off = linx_tile_elem_offset(v.layout, r, c, v.rows, v.cols, dt->size);

            print_elem(out, dt, v.data + off * dt->size, opts->flags & LINX_TILE_DUMP_HEX);
        }
        fprintf(out, "%s\n", show_c < nc ? " ..." : "");
    }
    if (show_r < nr) {
        fprintf(out, "  ... (%" PRIu32 " more rows)\n", nr - show_r);
    }
}

void linx_tile_dump_summary(FILE *out, const LinxTileState *ts)
{
    char line[128];
    unsigned shown = 0;

    for (unsigned id = 0; id < LINX_TILE_COUNT; id++) {
        if (linx_tile_get_const(ts, id)->meta.bytes == 0) {
            continue;
        }
        linx_tile_describe(line, sizeof(line), ts, id);
        fprintf(out, "%s\n", line);
        shown++;
    }
    if (shown == 0) {
        fprintf(out, "all tiles empty\n");
    }
    linx_tile_describe(line, sizeof(line), ts, LINX_TILE_ACC_ID);
    fprintf(out, "%s\n", line);
}
