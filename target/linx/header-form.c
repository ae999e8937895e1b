/* Header marker forms and the blocks they start (header-form.h). */
#include "header-form.h"

bool linx_header_form(const LinxInsn *insn, LinxBlockType *type, unsigned *func)
{
    LinxFieldId field = LINX_FLD__COUNT; /* the func operand, if any */

    switch (insn->form) {
    case LINX_F_BSTART_TMA: *type = LINX_BLK_TMA; field = LINX_FLD_Function; break;
    case LINX_F_BSTART_TLOAD: *type = LINX_BLK_TMA; *func = 0; break;
    case LINX_F_BSTART_TSTORE: *type = LINX_BLK_TMA; *func = 1; break;
    case LINX_F_BSTART_TMOV: *type = LINX_BLK_TMA; *func = 2; break;
    case LINX_F_BSTART_CUBE: *type = LINX_BLK_CUBE; field = LINX_FLD_Function; break;
    case LINX_F_BSTART_TMATMUL: *type = LINX_BLK_CUBE; *func = 0; break;
    case LINX_F_BSTART_TMATMUL_ACC: *type = LINX_BLK_CUBE; *func = 2; break;
    case LINX_F_BSTART_ACCCVT: *type = LINX_BLK_CUBE; *func = 8; break;
    case LINX_F_BSTART_TEPL:
    case LINX_F_BSTART_PAR: *type = LINX_BLK_TEPL; field = LINX_FLD_TileOpcode; break;
    case LINX_F_BSTART_FIXP: *type = LINX_BLK_FIXP; field = LINX_FLD_Function; break;
    case LINX_F_BSTART_MPAR: *type = LINX_BLK_MPAR; field = LINX_FLD_Mode; break;
    case LINX_F_BSTART_MSEQ: *type = LINX_BLK_MSEQ; field = LINX_FLD_Mode; break;
    case LINX_F_BSTART_VPAR: *type = LINX_BLK_VPAR; field = LINX_FLD_Mode; break;
    case LINX_F_BSTART_VSEQ: *type = LINX_BLK_VSEQ; field = LINX_FLD_Mode; break;
    case LINX_F_C_BSTART_MPAR: *type = LINX_BLK_MPAR; *func = LINX_HDR_MODE_VS16; break;
    case LINX_F_C_BSTART_MSEQ: *type = LINX_BLK_MSEQ; *func = LINX_HDR_MODE_VS16; break;
    case LINX_F_C_BSTART_VPAR: *type = LINX_BLK_VPAR; *func = LINX_HDR_MODE_VS16; break;
    case LINX_F_C_BSTART_VSEQ: *type = LINX_BLK_VSEQ; *func = LINX_HDR_MODE_VS16; break;
    default:
        return false;
    }
    if (field != LINX_FLD__COUNT) {
        *func = (unsigned)linx_insn_field(insn, field, NULL);
    }
    return true;
}
