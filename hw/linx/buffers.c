/*
 * L1 / L0A / L0B / L0C / UB buffer device models (see buffers.h): storage,
 * checked engine access, lookup.  Their guest windows and the engines'
 * register pages are buffers-mmio.c.
 */
#include "hw/linx/buffers.h"

#include <stdlib.h>
#include <string.h>

#define KB (UINT32_C(1) << 10)

enum {
    L1_ALIGN = 32,   /* Ascend C "General Restrictions": L1 32 B */
    L0AB_ALIGN = 512, /* L0A/L0B 512 B (one fractal) */
    L0C_ALIGN = 64,
    UB_ALIGN = 32,
    STORAGE_ALIGN = 4096,
};

typedef struct BufferLayout {
    uint32_t align;
    uint64_t window, window_len;
} BufferLayout;

static const BufferLayout layouts[LINX_BUF__COUNT] = {
    [LINX_BUF_L1] = { L1_ALIGN, 0x000000, 0x100000 },
    [LINX_BUF_L0A] = { L0AB_ALIGN, 0x100000, 0x40000 },
    [LINX_BUF_L0B] = { L0AB_ALIGN, 0x140000, 0x40000 },
    [LINX_BUF_L0C] = { L0C_ALIGN, 0x180000, 0x80000 },
    [LINX_BUF_UB] = { UB_ALIGN, 0x200000, 0x80000 },
};

/* Capacities per profile (docs/tile.md lists the sources). */
static const uint32_t capacities[LINX_BUF_PROFILE__COUNT][LINX_BUF__COUNT] = {
    [LINX_BUF_PROFILE_A2A3] = { 512 * KB, 64 * KB, 64 * KB, 128 * KB, 192 * KB },
    [LINX_BUF_PROFILE_950] = { 512 * KB, 64 * KB, 64 * KB, 256 * KB, 248 * KB },
};

LinxBuffers *linx_buffers_new(LinxBufferProfile profile)
{
    LinxBuffers *b;

    if ((unsigned)profile >= LINX_BUF_PROFILE__COUNT) {
        return NULL;
    }
    b = calloc(1, sizeof(*b));
    if (!b) {
        return NULL;
    }
    b->profile = profile;
    linx_engine_status_ok(&b->status);
    for (unsigned i = 0; i < LINX_BUF__COUNT; i++) {
        LinxBuffer *x = &b->buf[i];

        x->name = linx_buffer_name((int)i);
        x->size = capacities[profile][i];
        x->align = layouts[i].align;
        x->window = layouts[i].window;
        x->window_len = layouts[i].window_len;
        x->data = aligned_alloc(STORAGE_ALIGN, x->size);
        if (!x->data) {
            linx_buffers_free(b);
            return NULL;
        }
        memset(x->data, 0, x->size);
    }
    return b;
}

void linx_buffers_free(LinxBuffers *b)
{
    if (!b) {
        return;
    }
    for (unsigned i = 0; i < LINX_BUF__COUNT; i++) {
        free(b->buf[i].data);
    }
    free(b);
}

void linx_buffer_mark_used(LinxBuffer *x, uint64_t offset, uint64_t len)
{
    if (len == 0) {
        return;
    }
    if (x->used_hi == 0 || offset < x->used_lo) {
        x->used_lo = (uint32_t)offset;
    }
    if (offset + len > x->used_hi) {
        x->used_hi = (uint32_t)(offset + len);
    }
}

void linx_buffers_reset(LinxBuffers *b)
{
    for (unsigned i = 0; i < LINX_BUF__COUNT; i++) {
        LinxBuffer *x = &b->buf[i];
        if (x->used_hi > x->used_lo) {
            memset(x->data + x->used_lo, 0, x->used_hi - x->used_lo);
        }
        x->used_lo = x->used_hi = 0;
        x->guest_reads = x->guest_writes = 0;
    }
    memset(b->ld_reg, 0, sizeof(b->ld_reg));
    memset(b->dc_reg, 0, sizeof(b->dc_reg));
    memset(b->mm_reg, 0, sizeof(b->mm_reg));
    memset(b->fp_reg, 0, sizeof(b->fp_reg));
    linx_engine_status_ok(&b->status);
    b->status_addr = 0;
}

/* ------------------------------------------------------------------ */
/* Engine access                                                       */
/* ------------------------------------------------------------------ */

LinxBufferError linx_buffer_range(LinxBuffers *b, LinxBufferId id, uint64_t offset,
                                  uint64_t len, uint8_t **host)
{
    LinxBuffer *x;

    if ((unsigned)id >= LINX_BUF__COUNT) {
        return LINX_BUF_ERR_RANGE;
    }
    x = &b->buf[id];
    if (offset % x->align != 0) {
        return LINX_BUF_ERR_ALIGN;
    }
    if (offset > x->size || len > x->size - offset) {
        return LINX_BUF_ERR_RANGE;
    }
    linx_buffer_mark_used(x, offset, len);
    *host = x->data + offset;
    return LINX_BUF_OK;
}

bool linx_buffers_lookup(const LinxBuffers *b, uint64_t addr, LinxBufferId *id,
                         uint64_t *offset)
{
    if (b->base == 0 || addr < b->base) {
        return false;
    }
    for (unsigned i = 0; i < LINX_BUF__COUNT; i++) {
        const LinxBuffer *x = &b->buf[i];
        uint64_t off = addr - b->base - x->window;

        if (addr - b->base >= x->window && off < x->size) {
            *id = (LinxBufferId)i;
            *offset = off;
            return true;
        }
    }
    return false;
}

bool linx_buffers_fault_report(FILE *f, const LinxBuffers *b, uint64_t fault_addr)
{
    if (!b || b->status_addr == 0 || fault_addr != b->status_addr || b->status.rule == 0) {
        return false;
    }
    fprintf(f, "buffer engine: %s: %s\n", b->status.name, b->status.text);
    return true;
}

const char *linx_buffer_profile_name(LinxBufferProfile profile)
{
    static const char *const names[LINX_BUF_PROFILE__COUNT] = { "a2a3", "950" };

    return (unsigned)profile < LINX_BUF_PROFILE__COUNT ? names[profile] : "?";
}

const char *linx_buffer_error_name(LinxBufferError err)
{
    switch (err) {
    case LINX_BUF_OK:
        return "ok";
    case LINX_BUF_ERR_RANGE:
        return "outside the buffer";
    case LINX_BUF_ERR_ALIGN:
        return "misaligned for the buffer";
    }
    return "?";
}
