/*
 * RegId10 operand decoding for kernel-body (V.*) instructions.
 *
 * RegId10 = st[9] | width[8:7] | class[6:5] | index[4:0] (manual 05b,
 * isa/v0.4-draft/registers/regid10.json):
 *   class 0 vector queues: index 0-3 vt#1-4, 8-11 vu#1-4, 16-19 vm#1-4,
 *           24-27 vn#1-4; as a destination index 0-3 push vt vu vm vn
 *   class 1 ri0-ri11 (0-11), t#1-t#4 (24-27), u#1-u#4 (28-31); as a
 *           destination 31 push t, 30 push u (the 5-bit code's rule)
 *   class 2 lc0 0, lb0 1, lc1 4, lb1 5, lc2 8, lb2 9, TA-TD 16-19, TO 24,
 *           TS 25 (regid10.json's "TO1, alt TS"), p 28, zero 31
 *   class 3 class 0 with the .reuse hint (no architectural effect)
 * Width 00 d, 01 w, 10 h, 11 b.  TE-TH (20-23), TO2 and TO3 (26, 27) are
 * reserved in v0.4 (kernel_execution.json "reserved_legacy"), as is every
 * code the tables do not list.  The destination table is the one the
 * project's disassembler prints (docs/disassembly.md "kernel
 * destination"); everything else a destination cannot name.
 */
#include <string.h>

#include "kernel.h"

enum {
    R10_INDEX_MASK = 31,
    R10_CLASS_SHIFT = 5,
    R10_WIDTH_SHIFT = 7,
    R10_ST_SHIFT = 9,
    R10_CLASS_VEC = 0,
    R10_CLASS_SCALAR = 1,
    R10_CLASS_MISC = 2,
    R10_CLASS_REUSE = 3,
    R10_QUEUE_STRIDE = 8,
    R10_NUM_RI = 12,
    R10_HAND_T1 = 24,
    R10_HAND_U1 = 28,
    R10_PUSH_U = 30,
    R10_PUSH_T = 31,
    R10_MISC_TILE0 = 16,   /* TA..TD */
    R10_MISC_TO = 24,
    R10_MISC_TS = 25,
    R10_MISC_P = 28,
    R10_MISC_ZERO = 31,
    R10_MISC_DIM_STRIDE = 4, /* lc0 0, lb0 1, lc1 4, lb1 5, lc2 8, lb2 9 */
};

static void decode_common(unsigned code, LinxKReg *r)
{
    memset(r, 0, sizeof(*r));
    r->kind = LINX_KR_RESERVED;
    r->st = (code >> R10_ST_SHIFT) & 1;
    /* width 0 = d (8 bytes) .. 3 = b (1 byte) */
    r->size_log2 = (uint8_t)(3 - ((code >> R10_WIDTH_SHIFT) & 3));
}

bool linx_kreg_src(unsigned code, LinxKReg *r)
{
    unsigned cls = (code >> R10_CLASS_SHIFT) & 3, idx = code & R10_INDEX_MASK;

    decode_common(code, r);
    switch (cls) {
    case R10_CLASS_VEC:
    case R10_CLASS_REUSE:
        if (idx % R10_QUEUE_STRIDE < LINX_KQUEUE_DEPTH) {
            r->kind = LINX_KR_VEC;
            r->queue = (uint8_t)(idx / R10_QUEUE_STRIDE);
            r->k = (uint8_t)(idx % R10_QUEUE_STRIDE + 1);
            r->reuse = cls == R10_CLASS_REUSE;
        }
        break;
    case R10_CLASS_SCALAR:
        if (idx < R10_NUM_RI) {
            r->kind = LINX_KR_RI;
            r->index = (uint8_t)idx;
        } else if (idx >= R10_HAND_T1) {
            r->kind = LINX_KR_HAND;
            r->queue = idx >= R10_HAND_U1 ? LINX_KQ_U : LINX_KQ_T;
            r->k = (uint8_t)((idx - R10_HAND_T1) % LINX_KQUEUE_DEPTH + 1);
        }
        break;
    default:
        if (idx < 3 * R10_MISC_DIM_STRIDE && idx % R10_MISC_DIM_STRIDE < 2) {
            r->kind = idx % R10_MISC_DIM_STRIDE ? LINX_KR_LB : LINX_KR_LC;
            r->index = (uint8_t)(idx / R10_MISC_DIM_STRIDE);
        } else if (idx >= R10_MISC_TILE0 && idx < R10_MISC_TILE0 + 4) {
            r->kind = LINX_KR_TILE;
            r->index = (uint8_t)(idx - R10_MISC_TILE0);
        } else if (idx == R10_MISC_TO || idx == R10_MISC_TS) {
            r->kind = LINX_KR_TILE;
            r->index = idx == R10_MISC_TO ? LINX_KTILE_TO : LINX_KTILE_TS;
        } else if (idx == R10_MISC_P) {
            r->kind = LINX_KR_P;
        } else if (idx == R10_MISC_ZERO) {
            r->kind = LINX_KR_ZERO;
        }
        break;
    }
    return r->kind != LINX_KR_RESERVED;
}

bool linx_kreg_dst(unsigned code, LinxKReg *r)
{
    unsigned cls = (code >> R10_CLASS_SHIFT) & 3, idx = code & R10_INDEX_MASK;

    decode_common(code, r);
    if (cls == R10_CLASS_VEC && idx < LINX_KQUEUE_DEPTH) {
        r->kind = LINX_KR_VEC;
        r->queue = (uint8_t)idx;
    } else if (cls == R10_CLASS_SCALAR && (idx == R10_PUSH_T || idx == R10_PUSH_U)) {
        r->kind = LINX_KR_HAND;
        r->queue = idx == R10_PUSH_T ? LINX_KQ_T : LINX_KQ_U;
    } else if (cls == R10_CLASS_MISC && idx == R10_MISC_P) {
        r->kind = LINX_KR_P;
    } else if (cls == R10_CLASS_MISC && idx == R10_MISC_ZERO) {
        r->kind = LINX_KR_ZERO;
    }
    return r->kind != LINX_KR_RESERVED;
}
