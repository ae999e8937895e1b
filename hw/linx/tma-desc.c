/*
 * TMA header ingestion: the B.* descriptors, field by field, into a
 * TmaDesc (the target decodes the instructions and calls these:
 * target/linx/tma-header.c), and the selector encodings of B.ARG and
 * B.DATR.
 *
 * Ingestion records what the header says and never rejects anything:
 * every legality rule lives in tma_plan() (tma-plan.c), so a bad header
 * becomes a TB that raises the exception at its PC.
 *
 * Selector codes (docs/tile.md, "Encodings"):
 *   B.ARG format (v0.4, 5 bits; codes pinned by the fixed B.ARG words and
 *   the AVS tests, linxisa-digest 4.2): NORM 0, ND2NZ 1, ND2ZN 3, DN2ZN 8,
 *   DN2NZ 9, NZ2DN.canon 28 (= DN2NZ).  LinxISA's LLVM printer
 *   (LinxISAInstPrinter.cpp, layoutFormatName) names ND2NZ 2 instead, so
 *   TLOAD/TSTORE accept 2 as ND2NZ too (2 is free there).  v0.4 names TLOAD
 *   and TSTORE with the same selector; the pad policy of a B.ARG header is
 *   Null.  TMOV: 0 V2V, 2 A2V, 1/3/8/9 V2V with that layout conversion
 *   (2 stays A2V: in a TMOV header the two readings collide).
 *   B.DATR Layout (seed 000, at the LinxISA PTO-0.58 slot, so it uses that
 *   profile's numbering): NORM 0; TLOAD/TMOV ND2NZ 4, ND2ZN 3, DN2NZ 9,
 *   DN2ZN 8; TSTORE NZ2ND 27, ZN2ND 17, NZ2DN 28, ZN2DN 18.  A code of the
 *   other direction is a reserved selector.  Pad: 0 Null, 1 Zero, 2 Max,
 *   3 Min.
 */
#include <string.h>

#include "hw/linx/tma.h"

enum {
    BARG_NORM = 0,
    BARG_ND2NZ = 1,
    BARG_TMOV_A2V = 2,
    BARG_ND2NZ_LLVM = 2, /* TLOAD/TSTORE only: LinxISA LLVM's ND2NZ code */
    BARG_ND2ZN = 3,
    BARG_DN2ZN = 8,
    BARG_DN2NZ = 9,
    BARG_NZ2DN_CANON = 28,

    DATR_NORM = 0,
    DATR_ND2ZN = 3,
    DATR_ND2NZ = 4,
    DATR_DN2ZN = 8,
    DATR_DN2NZ = 9,
    DATR_ZN2ND = 17,
    DATR_ZN2DN = 18,
    DATR_NZ2ND = 27,
    DATR_NZ2DN = 28,

    IOTI_SIZE_BIAS = 4, /* bytes = 2^(SizeCode + 4) */
    FIELD5_MASK = 0x1f,
    BARG_FORMAT_SHIFT = 7,
    LOOPNEST_MAX = 2,
};

/* The fixed B.ARG words of the v0.4 catalog. */
static const uint32_t barg_fixed_words[] = {
    0x000fa023u, /* NORM.normal */
    0x180221a3u, /* ND2ZN.normal, FP16, Null */
    0x18022423u, /* DN2ZN.normal, FP16, Null */
    0x1800a4a3u, /* DN2NZ.normal, FP32, Null */
    0x020fae23u, /* NZ2DN.canon */
};

void tma_desc_init(TmaDesc *d, unsigned func, unsigned dtype)
{
    memset(d, 0, sizeof(*d));
    d->func = (uint8_t)func;
    d->dtype = (uint8_t)dtype;
}

void tma_desc_set_barg(TmaDesc *d, unsigned format)
{
    if (d->layout_src == TMA_LSRC_DATR) {
        d->layout_conflict = true;
    }
    d->layout_src = TMA_LSRC_BARG;
    d->layout_code = (uint8_t)(format & FIELD5_MASK);
    d->pad_code = TMA_PAD_NULL;
}

bool tma_desc_set_barg_word(TmaDesc *d, uint32_t word)
{
    for (size_t i = 0; i < sizeof(barg_fixed_words) / sizeof(barg_fixed_words[0]); i++) {
        if (word == barg_fixed_words[i]) {
            tma_desc_set_barg(d, (word >> BARG_FORMAT_SHIFT) & FIELD5_MASK);
            return true;
        }
    }
    return false;
}

void tma_desc_set_datr(TmaDesc *d, unsigned layout, unsigned pad)
{
    if (d->layout_src == TMA_LSRC_BARG) {
        d->layout_conflict = true;
    }
    d->layout_src = TMA_LSRC_DATR;
    d->layout_code = (uint8_t)(layout & FIELD5_MASK);
    d->pad_code = (uint8_t)(pad & 3);
}

void tma_desc_set_dim(TmaDesc *d, unsigned lb, unsigned reg, uint64_t imm)
{
    if (lb > LOOPNEST_MAX) {
        d->dim_bad = true;
        return;
    }
    d->dim_mask |= (uint8_t)(1u << lb);
    d->lb[lb].reg = (uint8_t)(reg & FIELD5_MASK);
    d->lb[lb].imm = imm;
}

void tma_desc_add_ior(TmaDesc *d, unsigned src0, unsigned src1, unsigned src2)
{
    d->nior++;
    d->ior[0] = (uint8_t)(src0 & FIELD5_MASK);
    d->ior[1] = (uint8_t)(src1 & FIELD5_MASK);
    d->ior[2] = (uint8_t)(src2 & FIELD5_MASK);
}

void tma_desc_add_iot(TmaDesc *d, const TmaIot *iot)
{
    if (d->last_seen) {
        d->iot_after_last = true;
    }
    if (d->niot == 0) {
        d->dst_kind = iot->dst;
        d->size_is_reg = iot->size_is_reg;
        d->size = iot->size;
    } else if (iot->size_is_reg != d->size_is_reg || iot->size != d->size) {
        d->size_mixed = true;
    }
    d->niot++;
    for (unsigned k = 0; k < 2; k++) {
        if (iot->src_absent[k]) {
            continue;
        }
        if (d->nsrc < TMA_MAX_SRC_TILES) {
            d->src[d->nsrc] = (uint8_t)(iot->src[k] & FIELD5_MASK);
        }
        if (d->nsrc < UINT8_MAX) {
            d->nsrc++;
        }
    }
    if (iot->last) {
        d->last_seen = true;
    }
}

void tma_desc_add_iod(TmaDesc *d, unsigned dep0, unsigned dep1, unsigned dep2, unsigned dst)
{
    unsigned deps[3] = { dep0 & FIELD5_MASK, dep1 & FIELD5_MASK, dep2 & FIELD5_MASK };

    if (d->niod == 0) {
        for (unsigned i = 0; i < 3; i++) {
            d->iod[i] = (uint8_t)deps[i];
        }
        d->iod[3] = (uint8_t)(dst & FIELD5_MASK);
    }
    d->niod++;
    /* Well-formed: non-zero tags distinct, and not depending on itself. */
    for (unsigned i = 0; i < 3; i++) {
        if (deps[i] == 0) {
            continue;
        }
        if (deps[i] == (dst & FIELD5_MASK)) {
            d->iod_dup = true;
        }
        for (unsigned j = i + 1; j < 3; j++) {
            if (deps[i] == deps[j]) {
                d->iod_dup = true;
            }
        }
    }
}

void tma_desc_set_atomic(TmaDesc *d)
{
    d->atomic = true;
}

void tma_desc_add_text(TmaDesc *d)
{
    d->ntext++;
}

/* ------------------------------------------------------------------ */
/* Selector encodings                                                  */
/* ------------------------------------------------------------------ */

bool tma_layout_from_barg(unsigned op, unsigned format, TmaLayout *layout, TmaMovMode *mode)
{
    TmaMovMode m = TMA_MOV_V2V;

    switch (format) {
    case BARG_NORM:
        *layout = TMA_LAYOUT_NORM;
        break;
    case BARG_ND2NZ:
        *layout = TMA_LAYOUT_ND_NZ;
        break;
    case BARG_ND2ZN:
        *layout = TMA_LAYOUT_ND_ZN;
        break;
    case BARG_DN2ZN:
        *layout = TMA_LAYOUT_DN_ZN;
        break;
    case BARG_DN2NZ:
    case BARG_NZ2DN_CANON:
        *layout = TMA_LAYOUT_DN_NZ;
        break;
    case BARG_TMOV_A2V: /* = BARG_ND2NZ_LLVM */
        if (op != TMA_OP_TMOV) {
            *layout = TMA_LAYOUT_ND_NZ;
            break;
        }
        *layout = TMA_LAYOUT_NORM;
        m = TMA_MOV_A2V;
        break;
    default:
        return false;
    }
    if (mode) {
        *mode = m;
    }
    return true;
}

static const uint8_t datr_load_codes[TMA_LAYOUT__COUNT] = {
    [TMA_LAYOUT_NORM] = DATR_NORM,   [TMA_LAYOUT_ND_NZ] = DATR_ND2NZ,
    [TMA_LAYOUT_ND_ZN] = DATR_ND2ZN, [TMA_LAYOUT_DN_NZ] = DATR_DN2NZ,
    [TMA_LAYOUT_DN_ZN] = DATR_DN2ZN,
};

static const uint8_t datr_store_codes[TMA_LAYOUT__COUNT] = {
    [TMA_LAYOUT_NORM] = DATR_NORM,   [TMA_LAYOUT_ND_NZ] = DATR_NZ2ND,
    [TMA_LAYOUT_ND_ZN] = DATR_ZN2ND, [TMA_LAYOUT_DN_NZ] = DATR_NZ2DN,
    [TMA_LAYOUT_DN_ZN] = DATR_ZN2DN,
};

bool tma_layout_from_datr(unsigned op, unsigned code, TmaLayout *layout)
{
    const uint8_t *codes = op == TMA_OP_TSTORE ? datr_store_codes : datr_load_codes;

    for (unsigned l = 0; l < TMA_LAYOUT__COUNT; l++) {
        if (codes[l] == code) {
            *layout = (TmaLayout)l;
            return true;
        }
    }
    return false;
}

unsigned tma_datr_code(unsigned op, TmaLayout layout)
{
    const uint8_t *codes = op == TMA_OP_TSTORE ? datr_store_codes : datr_load_codes;

    return layout < TMA_LAYOUT__COUNT ? codes[layout] : DATR_NORM;
}

const char *tma_layout_name(unsigned op, TmaLayout layout)
{
    static const char *const load_names[TMA_LAYOUT__COUNT] = {
        "NORM", "ND2NZ", "ND2ZN", "DN2NZ", "DN2ZN",
    };
    static const char *const store_names[TMA_LAYOUT__COUNT] = {
        "NORM", "NZ2ND", "ZN2ND", "NZ2DN", "ZN2DN",
    };

    if (layout >= TMA_LAYOUT__COUNT) {
        return "?";
    }
    return op == TMA_OP_TSTORE ? store_names[layout] : load_names[layout];
}
