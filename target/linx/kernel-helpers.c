/*
 * Run-time helpers of kernel blocks (kernel.h, docs/kernels.md): tile
 * binding at the header's commit and the output push at the body's end,
 * the floating-point lane operations (through the fpu library), and the
 * TEPL and CUBE blocks the translator turns into one call each.
 *
 * Cross-lane operations are in kernel-xlane.c.  Nothing here keeps state
 * outside env.
 */
#include <string.h>

#include "fpu/fpu.h"
#include "hw/linx/tepl.h"
#include "hw/linx/tile-cube.h"
#include "hw/linx/tile-dtype.h"
#include "hw/linx/tile-regs.h"
#include "kernel-ops.h"
#include "kernel.h"
#include "tcg/exec.h"
#include "tma-translate.h"

#include "helper-proto.h"

enum {
    IOT_SIZE_MIN = 512,
    IOT_SIZE_MAX = 4096,
};

static _Noreturn void kraise(CPULinxState *env, unsigned trapnum, unsigned cause, uint64_t arg,
                             uint64_t pc)
{
    linx_raise_exception(env, trapnum, cause, arg, pc);
}

static bool valid_tile_size(uint64_t bytes)
{
    return bytes >= IOT_SIZE_MIN && bytes <= IOT_SIZE_MAX && (bytes & (bytes - 1)) == 0;
}

/* ---------------------------------------------------------------------
 * Kernel tiles
 * --------------------------------------------------------------------- */

/* Bind TA..TD (@srcs: count | ids, LINX_KBIND_*), TO (hand @dst_hand,
 * @dst_size bytes, zero-filled) and TS for the body about to run. */
void helper_kernel_bind(CPULinxState *env, uint64_t srcs, uint64_t dst_hand, uint64_t dst_size)
{
    LinxKernelState *k = &env->kern;
    unsigned n = (unsigned)(srcs & LINX_KBIND_COUNT_MASK);

    for (unsigned i = 0; i < LINX_KTILE_TO; i++) {
        k->tbase[i] = 0;
        k->tsize[i] = 0;
    }
    k->out_hand = LINX_KTILE_NONE;
    k->out_bytes = 0;
    k->tbase[LINX_KTILE_TO] = 0;
    k->tsize[LINX_KTILE_TO] = 0;
    k->tbase[LINX_KTILE_TS] = (uint64_t)(uintptr_t)k->ts;
    k->tsize[LINX_KTILE_TS] = LINX_KERNEL_TS_BYTES;
    if ((n || dst_hand < LINX_TILE_HANDS) && !env->tiles) {
        /* Tile operands on a machine without a tile register file. */
        kraise(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), k->hdr_pc, k->hdr_pc);
    }
    for (unsigned i = 0; i < n && i < LINX_KTILE_TO; i++) {
        unsigned id = (unsigned)(srcs >> (LINX_KBIND_SRC_SHIFT + LINX_KBIND_SRC_BITS * i)) & 31;
        LinxTileSlot *s = linx_tile_get(env->tiles, id);
        k->tbase[i] = (uint64_t)(uintptr_t)s->data;
        k->tsize[i] = s->meta.bytes;
    }
    if (dst_hand < LINX_TILE_HANDS) {
        LinxTileSlot *s;
        if (!valid_tile_size(dst_size)) {
            kraise(env, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_BLOCKFMT, 0),
                   LINX_DESC_IOT | LINX_BLOCKFMT_BAD_VALUE << 8, k->hdr_pc);
        }
        s = linx_tile_push_slot(env->tiles, (LinxTileHand)dst_hand);
        memset(s->data, 0, dst_size);
        k->tbase[LINX_KTILE_TO] = (uint64_t)(uintptr_t)s->data;
        k->tsize[LINX_KTILE_TO] = dst_size;
        k->out_hand = dst_hand;
        k->out_bytes = dst_size;
    }
}

/* The body finished every lane: push TO. */
void helper_kernel_end(CPULinxState *env)
{
    LinxKernelState *k = &env->kern;
    uint64_t l1 = env->lb[1] ? env->lb[1] : 1, l2 = env->lb[2] ? env->lb[2] : 1;

    if (k->out_hand < LINX_TILE_HANDS && env->tiles) {
        LinxTileMeta m;
        memset(&m, 0, sizeof(m));
        m.bytes = (uint32_t)k->out_bytes;
        m.dtype = LINX_DT_NONE;
        m.layout = LINX_TL_NONE;
        linx_tile_push_commit(env->tiles, (LinxTileHand)k->out_hand, &m);
        k->out_hand = LINX_KTILE_NONE;
    }
    k->kernels++;
    k->lanes_run += env->lb[0] * l1 * l2;
}

/* ---------------------------------------------------------------------
 * Floating point
 * --------------------------------------------------------------------- */

static LinxFpFormat kfmt(uint64_t desc)
{
    unsigned f = (unsigned)(desc >> KFP_FMT_SHIFT) & 7;

    return f < LINX_FP_NUM_FORMATS ? (LinxFpFormat)f : LINX_FP64;
}

uint64_t helper_kfp2(CPULinxState *env, uint64_t a, uint64_t b, uint64_t desc)
{
    LinxFpFormat f = kfmt(desc);
    bool sig = desc & KFP_SIGNALING;
    LinxFpEnv fe;
    uint64_t r;

    linx_fpenv_from_fcsr(&fe, env->fcsr);
    switch (desc & KFP_OP_MASK) {
    case KFP_ADD: r = linx_fadd(&fe, a, b, f); break;
    case KFP_SUB: r = linx_fsub(&fe, a, b, f); break;
    case KFP_MUL: r = linx_fmul(&fe, a, b, f); break;
    case KFP_DIV: r = linx_fdiv(&fe, a, b, f); break;
    case KFP_MAX: r = linx_fmax(&fe, a, b, f); break;
    case KFP_MIN: r = linx_fmin(&fe, a, b, f); break;
    case KFP_EQ: r = sig ? linx_feqs(&fe, a, b, f) : linx_feq(&fe, a, b, f); break;
    case KFP_NE: r = sig ? linx_fnes(&fe, a, b, f) : linx_fne(&fe, a, b, f); break;
    case KFP_LT: r = sig ? linx_flts(&fe, a, b, f) : linx_flt(&fe, a, b, f); break;
    default: r = sig ? linx_fges(&fe, a, b, f) : linx_fge(&fe, a, b, f); break;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return r;
}

uint64_t helper_kfp3(CPULinxState *env, uint64_t a, uint64_t b, uint64_t c, uint64_t desc)
{
    LinxFpFormat f = kfmt(desc);
    LinxFpEnv fe;
    uint64_t r;

    linx_fpenv_from_fcsr(&fe, env->fcsr);
    switch (desc & KFP_OP_MASK) {
    case KFP_MADD: r = linx_fmadd(&fe, a, b, c, f); break;
    case KFP_MSUB: r = linx_fmsub(&fe, a, b, c, f); break;
    case KFP_NMADD: r = linx_fnmadd(&fe, a, b, c, f); break;
    default: r = linx_fnmsub(&fe, a, b, c, f); break;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return r;
}

/* Exponent and mantissa widths of the formats (FCLASS). */
static const struct {
    uint8_t ebits, mbits;
    bool has_inf;
} fp_layout[LINX_FP_NUM_FORMATS] = {
    [LINX_FP64] = { 11, 52, true }, [LINX_FP32] = { 8, 23, true },
    [LINX_FP16] = { 5, 10, true },  [LINX_BF16] = { 8, 7, true },
    [LINX_FP8_E4M3] = { 4, 3, false }, [LINX_FP8_E5M2] = { 5, 2, true },
};

/* RISC-V-style class mask: bit 0 -inf, 1 -normal, 2 -subnormal, 3 -0,
 * 4 +0, 5 +subnormal, 6 +normal, 7 +inf, 8 sNaN, 9 qNaN. */
static uint64_t fclass(uint64_t a, LinxFpFormat f)
{
    unsigned eb = fp_layout[f].ebits, mb = fp_layout[f].mbits;
    uint64_t m = a & ((UINT64_C(1) << mb) - 1);
    uint64_t e = (a >> mb) & ((UINT64_C(1) << eb) - 1);
    bool neg = (a >> (eb + mb)) & 1;
    uint64_t emax = (UINT64_C(1) << eb) - 1;

    if (linx_fp_is_nan(a, f)) {
        return linx_fp_is_snan(a, f) ? 1u << 8 : 1u << 9;
    }
    if (e == emax && fp_layout[f].has_inf) {
        return neg ? 1u << 0 : 1u << 7;
    }
    if (e == 0) {
        return m == 0 ? (neg ? 1u << 3 : 1u << 4) : (neg ? 1u << 2 : 1u << 5);
    }
    return neg ? 1u << 1 : 1u << 6;
}

uint64_t helper_kfp1(CPULinxState *env, uint64_t a, uint64_t desc)
{
    LinxFpFormat f = kfmt(desc);
    LinxFpEnv fe;
    uint64_t r;

    switch (desc & KFP_OP_MASK) {
    case KFP_ABS:
        return linx_fabs(a, f);
    case KFP_CLASS:
        return fclass(a & ((f == LINX_FP64) ? UINT64_MAX
                                            : (UINT64_C(1) << linx_fp_format_bits(f)) - 1), f);
    default:
        break;
    }
    linx_fpenv_from_fcsr(&fe, env->fcsr);
    switch (desc & KFP_OP_MASK) {
    case KFP_SQRT: r = linx_fsqrt(&fe, a, f); break;
    case KFP_RECIP: r = linx_frecip(&fe, a, f); break;
    default: r = linx_fexp(&fe, a, f); break;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return r;
}

/* Integer type code (u64 0 .. u8 3, s64 8 .. s8 11): width and sign. */
static uint64_t int_extend(uint64_t v, unsigned type)
{
    unsigned bits = 64u >> (type & 3);
    bool sign = type & 8;

    if (bits == 64) {
        return v;
    }
    v &= (UINT64_C(1) << bits) - 1;
    if (sign && (v >> (bits - 1))) {
        v |= ~((UINT64_C(1) << bits) - 1);
    }
    return v;
}

uint64_t helper_kcvt(CPULinxState *env, uint64_t a, uint64_t desc)
{
    unsigned kind = desc & KCVT_KIND_MASK;
    unsigned st = (desc >> KCVT_SRC_SHIFT) & 31;
    unsigned dt = (desc >> KCVT_DST_SHIFT) & 31;
    LinxFpFormat from = LINX_FP64, to = LINX_FP64;
    LinxFpEnv fe;
    uint64_t r;

    if (kind == KCVT_I2I) {
        return int_extend(int_extend(a, st), dt);
    }
    linx_fpenv_from_fcsr(&fe, env->fcsr);
    switch (kind) {
    case KCVT_F2F:
        linx_fp_format_from_cvt_type(st, &from);
        linx_fp_format_from_cvt_type(dt, &to);
        r = linx_fcvt_f2f(&fe, a, from, to);
        break;
    case KCVT_F2I:
        linx_fp_format_from_cvt_type(st, &from);
        r = linx_fcvt_f2i(&fe, a, from, (LinxIntType)dt, LINX_RM_RTZ);
        break;
    default:
        linx_fp_format_from_cvt_type(dt, &to);
        r = linx_fcvt_i2f(&fe, int_extend(a, st), (LinxIntType)st, to);
        break;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return r;
}

/* ---------------------------------------------------------------------
 * TEPL and CUBE blocks
 * --------------------------------------------------------------------- */

void helper_tepl(CPULinxState *env, uint64_t desc, uint64_t scalar, uint64_t size, uint64_t pc)
{
    LinxTeplOp op;
    TmaFault f;
    bool ref;

    if (!env->tiles) {
        kraise(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), pc, pc);
    }
    linx_tepl_unpack(desc, &op, &ref);
    op.scalar = scalar;
    op.dst_bytes = size > UINT32_MAX ? 0 : (uint32_t)size;
    memcpy(op.lb, env->lb, sizeof(op.lb));
    if (!linx_tepl_exec(env->tiles, &op, ref, &f)) {
        linx_tile_fault_raise(env, &f, pc); /* records the rule */
    }
}

/* desc: func[3:0] | dtype[8:4] | nsrc[11:9] | src0[16:12] | src1[21:17] |
 * src2[26:22] | dst_kind[29:27] | quant[34:30] | two quant values[35] |
 * reference[36] */
uint64_t linx_kcube_pack(unsigned func, unsigned dtype, unsigned nsrc, const uint8_t src[3],
                         unsigned dst_kind, unsigned quant, bool two_quant, bool reference)
{
    return (uint64_t)(func & 15) | (uint64_t)(dtype & 31) << 4 | (uint64_t)(nsrc & 7) << 9 |
           (uint64_t)(src[0] & 31) << 12 | (uint64_t)(src[1] & 31) << 17 |
           (uint64_t)(src[2] & 31) << 22 | (uint64_t)(dst_kind & 7) << 27 |
           (uint64_t)(quant & 31) << 30 | (uint64_t)two_quant << 35 | (uint64_t)reference << 36;
}

void helper_cube(CPULinxState *env, uint64_t desc, uint64_t q0, uint64_t q1, uint64_t size,
                 uint64_t pc)
{
    LinxCubeOp op;
    TmaFault f;

    if (!env->tiles) {
        kraise(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), pc, pc);
    }
    memset(&op, 0, sizeof(op));
    op.func = desc & 15;
    op.dtype = (desc >> 4) & 31;
    op.nsrc = (desc >> 9) & 7;
    op.src[0] = (desc >> 12) & 31;
    op.src[1] = (desc >> 17) & 31;
    op.src[2] = (desc >> 22) & 31;
    op.dst_kind = (desc >> 27) & 7;
    op.dst_bytes = size > UINT32_MAX ? 0 : (uint32_t)size;
    op.quant = (desc >> 30) & 31;
    op.quant_word = (desc >> 35) & 1 ? (q0 & 0xffffffffu) | (q1 & 0x1ff) << 37 : q0;
    op.m = env->lb[0];
    op.n = env->lb[1];
    op.k = env->lb[2];
    op.reference = (desc >> 36) & 1;
    if (!linx_cube_exec(env->tiles, &op, &f)) {
        linx_tile_fault_raise(env, &f, pc); /* records the rule */
    }
}
