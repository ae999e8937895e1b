/*
 * Commit trace: the block fields of a record (block_kind, lane_id,
 * tile_meta, tile_ref_src, tile_ref_dst), decided at translation time
 * (trace-translate.c) and handed to helper_trace_insn packed into one
 * 64-bit constant next to the instruction length.  The rule is the LinxISA
 * QEMU peer's (docs/engine.md, "Commit trace"):
 *
 *   block_kind  sys  for the peer's FP/SYS opcode class (ACRC ACRE EBREAK
 *                    SSRGET SSRSET SSRSWAP HL.SSRGET HL.SSRSET FABS FADD
 *                    FSUB FMUL FDIV FEQ FLT FGE FCVT FCVTZ), in any block;
 *               else tma|cube|tepl|vpar|vseq by the type of the block the
 *                    instruction belongs to (a header belongs to the block
 *                    it starts);
 *               else sys for C.BSTART.SYS itself;
 *               else call (block BrType CALL/ICALL), ret (RET);
 *               else scalar.
 *   lane_id     0 in vpar/vseq rows, -1 otherwise.
 *   tile_meta   tma/cube/tepl rows: "func=F,dtype=D,iot_valid=V,iot_count=N"
 *               (header Function / TileOpcode and DataType; B.IOT/B.IOTI
 *               retired so far in the block, this row included); "" else.
 *   tile_ref_*  tma/cube/tepl rows: SrcTile0 / SrcTile1 of the block's last
 *               B.IOT/B.IOTI (0 before one); 0 else.
 *
 * Packed word (bits): 0-7 instruction length, 8-11 kind, 12-21 func,
 * 22-26 dtype, 27-34 B.IOT count, 35-39 src0, 40-44 src1.
 *
 *   uint64_t w = linx_trace_info_pack(len, &info);
 *   LinxTraceInfo back; unsigned l = linx_trace_info_unpack(w, &back);
 */
#ifndef LINX_TARGET_TRACE_INFO_H
#define LINX_TARGET_TRACE_INFO_H

#include <stdint.h>

typedef enum LinxTraceKind {
    LINX_TK_SCALAR,
    LINX_TK_VPAR,
    LINX_TK_VSEQ,
    LINX_TK_TMA,
    LINX_TK_CUBE,
    LINX_TK_TEPL,
    LINX_TK_CALL,
    LINX_TK_RET,
    LINX_TK_SYS,
    LINX_TK_COUNT,
} LinxTraceKind;

typedef struct LinxTraceInfo {
    uint8_t kind;  /* LinxTraceKind */
    uint16_t func; /* tile header Function / TileOpcode (10 bits) */
    uint8_t dtype; /* tile header DataType (5 bits) */
    uint8_t niot;  /* B.IOT/B.IOTI in the block so far */
    uint8_t src0;  /* SrcTile0 of the last one */
    uint8_t src1;  /* SrcTile1 of the last one */
} LinxTraceInfo;

static inline uint64_t linx_trace_info_pack(unsigned len, const LinxTraceInfo *t)
{
    return (uint64_t)(len & 0xff) | (uint64_t)(t->kind & 0xf) << 8 |
           (uint64_t)(t->func & 0x3ff) << 12 | (uint64_t)(t->dtype & 0x1f) << 22 |
           (uint64_t)t->niot << 27 | (uint64_t)(t->src0 & 0x1f) << 35 |
           (uint64_t)(t->src1 & 0x1f) << 40;
}

/* Returns the instruction length. */
static inline unsigned linx_trace_info_unpack(uint64_t w, LinxTraceInfo *t)
{
    t->kind = (uint8_t)(w >> 8 & 0xf);
    t->func = (uint16_t)(w >> 12 & 0x3ff);
    t->dtype = (uint8_t)(w >> 22 & 0x1f);
    t->niot = (uint8_t)(w >> 27 & 0xff);
    t->src0 = (uint8_t)(w >> 35 & 0x1f);
    t->src1 = (uint8_t)(w >> 40 & 0x1f);
    return (unsigned)(w & 0xff);
}

static inline const char *linx_trace_kind_name(unsigned kind)
{
    static const char *const names[LINX_TK_COUNT] = {
        "scalar", "vpar", "vseq", "tma", "cube", "tepl", "call", "ret", "sys",
    };
    return kind < LINX_TK_COUNT ? names[kind] : "scalar";
}

static inline int linx_trace_kind_is_tile(unsigned kind)
{
    return kind == LINX_TK_TMA || kind == LINX_TK_CUBE || kind == LINX_TK_TEPL;
}

#endif /* LINX_TARGET_TRACE_INFO_H */
