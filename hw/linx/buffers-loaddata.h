/*
 * LoadData 2D: the fractal mover between GM / L1 and L0A / L0B
 * (seed 003, Ascend C LoadData2DParams; shared/docs/tile-semantics.md 2.5).
 *
 * Reference semantics, in units of one 512-byte fractal: for repeat i in
 * [0, repeatTimes), source fractal s_i = startIndex + srcStride * i
 * (addrMode 0) or startIndex - srcStride * i (addrMode 1), destination slot
 * d_i = i * (dstGap + 1) (950 profile: dstGap has no effect, d_i = i);
 * copy 512 bytes from src + 512 s_i to dst + 512 d_i.  The copy ignores the
 * element type, except ifTranspose (b16, L1 -> L0 only): each 16 x 16
 * fractal is transposed, dst(a, b) = src(b, a).  repeatTimes = 0 is a NOP.
 *
 * Every check runs before any byte moves (a failure is a rule and the
 * offending value, or the faulting address for GM faults); the checks
 * and their rule names are listed in docs/tile.md ("LoadData 2D").
 *
 * Guests reach the engine through a register page mapped with the buffer
 * windows (linx_buffers_map): write the parameters, then GO; a failing
 * GO write is rejected (the guest store faults) and STATUS / FAULT say
 * why.  Registers are 64-bit, at LINX_LD_REGS_OFFSET from the base:
 *   0x00 SRC (GM address or L1 offset)   0x28 SRC_STRIDE
 *   0x08 DST (offset in L0A/L0B)         0x30 DST_GAP
 *   0x10 CTRL: bit 0 from L1 (else GM), bit 1 to L0B (else L0A),
 *        bit 2 transpose, bit 3 addrMode, bits 12:8 DataType
 *   0x18 START_INDEX                     0x38 GO (write) / STATUS (read: 0 or the rule)
 *   0x20 REPEAT_TIMES                    0x40 FAULT (last failure: rule | value << 32,
 *                                             or the address of a GM fault)
 */
#ifndef LINX_HW_BUFFERS_LOADDATA_H
#define LINX_HW_BUFFERS_LOADDATA_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/buffers.h"
#include "hw/linx/tma.h"

#define LINX_LD_FRACTAL_BYTES 512u
#define LINX_LD_REGS_OFFSET UINT64_C(0x280000)
#define LINX_LD_REGS_LEN UINT64_C(0x1000)

typedef enum LinxLdFrom {
    LINX_LD_FROM_GM = 0,
    LINX_LD_FROM_L1 = 1,
} LinxLdFrom;

typedef struct LinxLoadData2D {
    uint8_t from;          /* LinxLdFrom */
    uint8_t to;            /* LINX_BUF_L0A or LINX_BUF_L0B */
    uint8_t dtype;         /* element DataType (LinxTileDType) */
    bool transpose;        /* ifTranspose */
    uint8_t addr_mode;     /* 0 increment, 1 decrement */
    uint64_t src;          /* GM guest address, or L1 offset */
    uint64_t dst;          /* offset in the destination buffer */
    uint64_t start_index;  /* [0, 65535] */
    uint64_t repeat_times; /* [0, 255] */
    uint64_t src_stride;   /* [0, 65535] */
    uint64_t dst_gap;      /* [0, 65535] */
} LinxLoadData2D;

/* LoadData rules (numbered apart from the TMA rules: 0x40 + n). */
typedef enum LinxLdRule {
    LINX_LD_OK = 0,
    LINX_LD_BAD_PARAM = 0x40, /* a field outside its range */
    LINX_LD_BAD_PATH,         /* destination not L0A/L0B, or GM source on the 950 profile */
    LINX_LD_BAD_DTYPE,        /* element type not supported by LoadData */
    LINX_LD_TRANSPOSE,        /* ifTranspose with a non-16-bit type or from GM */
    LINX_LD_DST_ALIGN,        /* L0 offset not 512-byte aligned */
    LINX_LD_SRC_ALIGN,        /* L1 offset not 32-byte aligned */
    LINX_LD_NEG_INDEX,        /* addrMode 1 makes a source index negative */
    LINX_LD_SRC_RANGE,        /* source fractals outside L1 */
    LINX_LD_DST_RANGE,        /* destination slots outside L0A/L0B */
    LINX_LD_GM_FAULT,         /* GM access fault (value: the address) */
    LINX_LD__END
} LinxLdRule;

const char *linx_ld_rule_name(unsigned rule);

/* Run one LoadData 2D.  Returns true on success (or NOP); false with @f
 * filled (rule, value) and nothing written.  @gm may be
 * NULL when the source is L1. */
bool linx_loaddata_2d(LinxBuffers *b, GuestMemory *gm, const LinxLoadData2D *op, TmaFault *f);

/* Map the register page at b->base + LINX_LD_REGS_OFFSET (called by
 * linx_buffers_map). */
bool linx_loaddata_map_regs(LinxBuffers *b, GuestMemory *gm);

#endif /* LINX_HW_BUFFERS_LOADDATA_H */
