/*
 * TMA headers and operands, the target's side of hw/linx/tma.h: decoded
 * BSTART.TMA (TLOAD/TSTORE/TMOV) and B.* descriptor instructions into the
 * device's TmaDesc (field by field through tma_desc_set_*()), and the
 * run-time operands of a plan from the GPRs.
 */
#include "tma-header.h"

#include <string.h>

#include "header-form.h"

static int64_t fld(const LinxInsn *insn, LinxFieldId id)
{
    return linx_insn_field(insn, id, NULL);
}

bool tma_desc_begin(TmaDesc *d, const LinxInsn *insn)
{
    LinxBlockType type;
    unsigned func;

    if (!linx_header_form(insn, &type, &func) || type != LINX_BLK_TMA) {
        return false;
    }
    tma_desc_init(d, func, (unsigned)fld(insn, LINX_FLD_DataType));
    return true;
}

static void add_iot_insn(TmaDesc *d, const LinxInsn *insn, bool imm_size, bool last)
{
    TmaIot iot;

    iot.src_absent[0] = fld(insn, LINX_FLD_S0V) != 0;
    iot.src_absent[1] = fld(insn, LINX_FLD_S1V) != 0;
    iot.reuse[0] = fld(insn, LINX_FLD_S0R) != 0;
    iot.reuse[1] = fld(insn, LINX_FLD_S1R) != 0;
    iot.src[0] = (uint8_t)fld(insn, LINX_FLD_SrcTile0);
    iot.src[1] = (uint8_t)fld(insn, LINX_FLD_SrcTile1);
    iot.dst = (uint8_t)fld(insn, LINX_FLD_DstTile);
    iot.size_is_reg = !imm_size;
    iot.size = (uint8_t)fld(insn, imm_size ? LINX_FLD_imm5 : LINX_FLD_RegSrc);
    iot.last = last;
    tma_desc_add_iot(d, &iot);
}

bool tma_desc_add(TmaDesc *d, const LinxInsn *insn)
{
    switch (insn->form) {
    case LINX_F_B_ARG_FORMAT:
        tma_desc_set_barg(d, (unsigned)fld(insn, LINX_FLD_format));
        return true;
    case LINX_F_B_ARG_NORM_NORMAL:
    case LINX_F_B_ARG_ND2ZN_NORMAL:
    case LINX_F_B_ARG_DN2ZN_NORMAL:
    case LINX_F_B_ARG_DN2NZ_NORMAL:
    case LINX_F_B_ARG_NZ2DN_CANON:
        return tma_desc_set_barg_word(d, (uint32_t)insn->raw);
    case LINX_F_B_DATR:
        tma_desc_set_datr(d, (unsigned)fld(insn, LINX_FLD_Layout),
                          (unsigned)fld(insn, LINX_FLD_Pad));
        return true;
    case LINX_F_B_DIM_LB0:
    case LINX_F_B_DIM_LB1:
    case LINX_F_B_DIM_LB2:
        tma_desc_set_dim(d, (unsigned)(insn->form - LINX_F_B_DIM_LB0),
                         (unsigned)fld(insn, LINX_FLD_RegSrc),
                         (uint64_t)fld(insn, LINX_FLD_uimm17));
        return true;
    case LINX_F_C_B_DIM:
        tma_desc_set_dim(d, (unsigned)fld(insn, LINX_FLD_LoopNest),
                         (unsigned)fld(insn, LINX_FLD_RegSrc), 0);
        return true;
    case LINX_F_C_B_DIMI:
        tma_desc_set_dim(d, (unsigned)fld(insn, LINX_FLD_LoopNest), 0,
                         (uint64_t)fld(insn, LINX_FLD_imm8));
        return true;
    case LINX_F_B_IOR:
        tma_desc_add_ior(d, (unsigned)fld(insn, LINX_FLD_RegSrc0),
                         (unsigned)fld(insn, LINX_FLD_RegSrc1),
                         (unsigned)fld(insn, LINX_FLD_RegSrc2));
        return true;
    case LINX_F_B_IOT_G0:
        add_iot_insn(d, insn, false, false);
        return true;
    case LINX_F_B_IOT_G1:
        add_iot_insn(d, insn, false, true);
        return true;
    case LINX_F_B_IOTI_G0:
        add_iot_insn(d, insn, true, false);
        return true;
    case LINX_F_B_IOTI_G1:
        add_iot_insn(d, insn, true, true);
        return true;
    case LINX_F_B_IOD:
        tma_desc_add_iod(d, (unsigned)fld(insn, LINX_FLD_DepSrc0),
                         (unsigned)fld(insn, LINX_FLD_DepSrc1),
                         (unsigned)fld(insn, LINX_FLD_DepSrc2),
                         (unsigned)fld(insn, LINX_FLD_DepDst));
        return true;
    case LINX_F_B_TEXT:
        tma_desc_add_text(d);
        return true;
    case LINX_F_B_ATTR:
        /* atomic: TSTORE AtomicAdd (seed 001); the other attributes are
         * not read by TMA (v0.4 section 9). */
        if (fld(insn, LINX_FLD_atom)) {
            tma_desc_set_atomic(d);
        }
        return true;
    case LINX_F_B_HINT_BR:
    case LINX_F_B_HINT_TRACE:
        return true; /* TMA does not read them (v0.4 section 9) */
    default:
        return false;
    }
}

static bool operand_gpr(uint8_t reg, const uint64_t *gpr, uint64_t *v)
{
    if (reg >= LINX_NUM_GPRS) {
        return false;
    }
    *v = reg == LINX_REG_ZERO ? 0 : gpr[reg];
    return true;
}

bool tma_args_from_gprs(const TmaPlan *p, const uint64_t *gpr, TmaRuntimeArgs *a)
{
    uint64_t v;

    memset(a, 0, sizeof(*a));
    for (unsigned k = 0; k < 3; k++) {
        if (p->dim_mask & (1u << k)) {
            if (!operand_gpr(p->lb_reg[k], gpr, &v)) {
                return false;
            }
            a->lb[k] = v + p->lb_imm[k];
        }
    }
    if (!operand_gpr(p->base_reg, gpr, &a->base) ||
        !operand_gpr(p->stride_reg, gpr, &a->stride) ||
        !operand_gpr(p->size_reg, gpr, &a->tile_bytes)) {
        return false;
    }
    return true;
}
