/*
 * Scalar floating-point helpers.
 *
 * Host SSE arithmetic is IEEE-correct in the four directed/nearest modes,
 * so each operation runs on the host under FCSR.RM (fesetround) with the
 * host exception flags cleared first and folded into FCSR's sticky flags
 * after (FP exceptions never trap).  Operands and results pass through
 * volatile variables so the compiler cannot move the arithmetic across
 * the rounding-mode switches.
 *
 * Choices the v0.4 text leaves open (docs/frontend.md lists them):
 *   - RMM (ties away) is computed as RNE for arithmetic (exact for every
 *     result that is not a tie); FCVTA uses round();
 *   - NaN results are the canonical quiet NaN (0x7ff8.. / 0x7fc0..);
 *   - compares are ordered (any NaN gives 0, also for FNE); FEQ/FNE/FLT/
 *     FGE signal NV only for signalling NaNs, the *S forms for any NaN;
 *   - FMAX/FMIN are maxNum/minNum, +0 > -0;
 *   - float -> integer saturates, NaN gives 0, both raising NV;
 *   - FEXP is the host libm exp() (not correctly rounded; flags per libm).
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "helper-ops.h"
#include "helper-proto.h"

enum {
    FP_D = 0,
    FP_S = 1,
    FP_RM_RNE = 0,
    FP_RM_RDN = 1,
    FP_RM_RUP = 2,
    FP_RM_RTZ = 3,
    FP_RM_RMM = 4,
};

#define CANON_NAN_D UINT64_C(0x7ff8000000000000)
#define CANON_NAN_S UINT32_C(0x7fc00000)

static double d_of(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof(d));
    return d;
}

static uint64_t bits_d(double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof(v));
    return v;
}

static float s_of(uint64_t v)
{
    uint32_t w = (uint32_t)v;
    float f;
    memcpy(&f, &w, sizeof(f));
    return f;
}

static uint64_t bits_s(float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof(w));
    return w;
}

static bool snan_d(uint64_t v)
{
    return (v & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000) &&
           (v & UINT64_C(0x000fffffffffffff)) && !(v & UINT64_C(0x0008000000000000));
}

static bool snan_s(uint64_t v)
{
    uint32_t w = (uint32_t)v;
    return (w & 0x7f800000u) == 0x7f800000u && (w & 0x007fffffu) && !(w & 0x00400000u);
}

/* ---- FCSR rounding and flags ---- */

static int host_rm(unsigned rm)
{
    switch (rm) {
    case FP_RM_RDN:
        return FE_DOWNWARD;
    case FP_RM_RUP:
        return FE_UPWARD;
    case FP_RM_RTZ:
        return FE_TOWARDZERO;
    default:
        return FE_TONEAREST;
    }
}

static void fp_begin(CPULinxState *env)
{
    fesetround(host_rm((unsigned)(env->fcsr >> LINX_FCSR_RM_SHIFT) & 7));
    feclearexcept(FE_ALL_EXCEPT);
}

static void fp_end(CPULinxState *env)
{
    int x = fetestexcept(FE_ALL_EXCEPT);
    uint64_t f = 0;

    f |= (x & FE_INVALID) ? LINX_FFLAG_NV : 0;
    f |= (x & FE_DIVBYZERO) ? LINX_FFLAG_DZ : 0;
    f |= (x & FE_OVERFLOW) ? LINX_FFLAG_OF : 0;
    f |= (x & FE_UNDERFLOW) ? LINX_FFLAG_UF : 0;
    f |= (x & FE_INEXACT) ? LINX_FFLAG_NX : 0;
    env->fcsr |= f;
    fesetround(FE_TONEAREST);
}

static uint64_t canon_d(double r)
{
    return isnan(r) ? CANON_NAN_D : bits_d(r);
}

static uint64_t canon_s(float r)
{
    return isnan(r) ? CANON_NAN_S : bits_s(r);
}

/* ---- Arithmetic ---- */

static uint64_t minmax(CPULinxState *env, uint64_t a, uint64_t b, bool is_max, unsigned t)
{
    bool an, bn, sig;
    double x, y;

    if (t == FP_S) {
        x = s_of(a);
        y = s_of(b);
        sig = snan_s(a) || snan_s(b);
    } else {
        x = d_of(a);
        y = d_of(b);
        sig = snan_d(a) || snan_d(b);
    }
    an = isnan(x);
    bn = isnan(y);
    if (sig) {
        env->fcsr |= LINX_FFLAG_NV;
    }
    if (an && bn) {
        return t == FP_S ? CANON_NAN_S : CANON_NAN_D;
    }
    if (an || bn) {
        return an ? b : a;
    }
    if (x == y) {
        /* Equal, so only the zero signs can differ. */
        bool a_neg = signbit(x) != 0;
        return (is_max ? !a_neg : a_neg) ? a : b;
    }
    return ((x > y) == is_max) ? a : b;
}

uint64_t helper_fp_bin(CPULinxState *env, uint64_t a, uint64_t b, uint64_t desc)
{
    unsigned op = desc & 0xff;
    unsigned t = (desc >> 8) & 3;
    uint64_t r;

    if (op == LINX_FOP_MIN || op == LINX_FOP_MAX) {
        return minmax(env, a, b, op == LINX_FOP_MAX, t);
    }
    fp_begin(env);
    if (t == FP_S) {
        volatile float x = s_of(a), y = s_of(b), z;
        switch (op) {
        case LINX_FOP_ADD:
            z = x + y;
            break;
        case LINX_FOP_SUB:
            z = x - y;
            break;
        case LINX_FOP_MUL:
            z = x * y;
            break;
        default:
            z = x / y;
            break;
        }
        r = canon_s(z);
    } else {
        volatile double x = d_of(a), y = d_of(b), z;
        switch (op) {
        case LINX_FOP_ADD:
            z = x + y;
            break;
        case LINX_FOP_SUB:
            z = x - y;
            break;
        case LINX_FOP_MUL:
            z = x * y;
            break;
        default:
            z = x / y;
            break;
        }
        r = canon_d(z);
    }
    fp_end(env);
    return r;
}

/* MADD a*b+c, MSUB a*b-c, NMADD -(a*b)-c, NMSUB -(a*b)+c, one rounding. */
uint64_t helper_fp_fma(CPULinxState *env, uint64_t a, uint64_t b, uint64_t c, uint64_t desc)
{
    unsigned op = desc & 0xff;
    unsigned t = (desc >> 8) & 3;
    bool neg_prod = op == LINX_FOP_NMADD || op == LINX_FOP_NMSUB;
    bool neg_add = op == LINX_FOP_MSUB || op == LINX_FOP_NMADD;
    uint64_t r;

    fp_begin(env);
    if (t == FP_S) {
        volatile float x = s_of(a), y = s_of(b), z = s_of(c), w;
        x = neg_prod ? -x : x;
        z = neg_add ? -z : z;
        w = fmaf(x, y, z);
        r = canon_s(w);
    } else {
        volatile double x = d_of(a), y = d_of(b), z = d_of(c), w;
        x = neg_prod ? -x : x;
        z = neg_add ? -z : z;
        w = fma(x, y, z);
        r = canon_d(w);
    }
    fp_end(env);
    return r;
}

uint64_t helper_fp_un(CPULinxState *env, uint64_t a, uint64_t desc)
{
    unsigned op = desc & 0xff;
    unsigned t = (desc >> 8) & 3;
    uint64_t r;

    if (op == LINX_FOP_ABS) {
        return t == FP_S ? (a & 0x7fffffffu) : (a & ~(UINT64_C(1) << 63));
    }
    fp_begin(env);
    if (t == FP_S) {
        volatile float x = s_of(a), z;
        switch (op) {
        case LINX_FOP_SQRT:
            z = sqrtf(x);
            break;
        case LINX_FOP_RECIP:
            z = 1.0f / x;
            break;
        default:
            z = expf(x);
            break;
        }
        r = canon_s(z);
    } else {
        volatile double x = d_of(a), z;
        switch (op) {
        case LINX_FOP_SQRT:
            z = sqrt(x);
            break;
        case LINX_FOP_RECIP:
            z = 1.0 / x;
            break;
        default:
            z = exp(x);
            break;
        }
        r = canon_d(z);
    }
    fp_end(env);
    return r;
}

uint64_t helper_fp_cmp(CPULinxState *env, uint64_t a, uint64_t b, uint64_t desc)
{
    unsigned op = desc & 0x7f;
    bool signaling = desc & LINX_FOP_SIGNALING;
    unsigned t = (desc >> 8) & 3;
    double x = t == FP_S ? s_of(a) : d_of(a);
    double y = t == FP_S ? s_of(b) : d_of(b);
    bool sn = t == FP_S ? (snan_s(a) || snan_s(b)) : (snan_d(a) || snan_d(b));

    if (isnan(x) || isnan(y)) {
        if (signaling || sn) {
            env->fcsr |= LINX_FFLAG_NV;
        }
        return 0;
    }
    switch (op) {
    case LINX_FOP_EQ:
        return x == y;
    case LINX_FOP_NE:
        return x != y;
    case LINX_FOP_LT:
        return x < y;
    default:
        return x >= y;
    }
}

/* ---- Conversions ---- */

/* Integer type codes of FCVT*'s DstType: 0 u64, 1 u32, 2 u16, 3 u8,
 * 8 s64 .. 11 s8. */
static void int_range(unsigned code, bool *is_signed, double *lo, double *hi_excl,
                      uint64_t *min_v, uint64_t *max_v)
{
    unsigned bits = 64u >> (code & 3);
    uint64_t half = UINT64_C(1) << (bits - 1);

    *is_signed = code >= 8;
    if (*is_signed) {
        *lo = -ldexp(1.0, (int)bits - 1);
        *hi_excl = ldexp(1.0, (int)bits - 1);
        *min_v = (uint64_t)0 - half; /* sign-extended minimum */
        *max_v = half - 1;
    } else {
        *lo = 0.0;
        *hi_excl = ldexp(1.0, (int)bits);
        *min_v = 0;
        *max_v = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    }
}

static uint64_t fp_to_int(CPULinxState *env, double x, unsigned kind, unsigned code)
{
    bool is_signed;
    double lo, hi, r;
    uint64_t min_v, max_v;

    int_range(code, &is_signed, &lo, &hi, &min_v, &max_v);
    if (isnan(x)) {
        env->fcsr |= LINX_FFLAG_NV;
        return 0;
    }
    switch (kind) {
    case LINX_FCVT_F2I_A:
        r = round(x);
        break;
    case LINX_FCVT_F2I_M:
        r = floor(x);
        break;
    case LINX_FCVT_F2I_P:
        r = ceil(x);
        break;
    case LINX_FCVT_F2I_N:
        r = nearbyint(x); /* fp_begin is not active: FE_TONEAREST */
        break;
    default:
        r = trunc(x);
        break;
    }
    if (r < lo) {
        env->fcsr |= LINX_FFLAG_NV;
        return min_v;
    }
    if (r >= hi) {
        env->fcsr |= LINX_FFLAG_NV;
        return max_v;
    }
    if (r != x) {
        env->fcsr |= LINX_FFLAG_NX;
    }
    return is_signed ? (uint64_t)(int64_t)r : (uint64_t)r;
}

/* Integer source of SCVTF/UCVTF: SrcType 0 = 64, 1 = 32, 2 = 16, 3 = 8 bits. */
static uint64_t int_src(uint64_t v, unsigned code, bool is_signed)
{
    unsigned bits = 64u >> (code & 3);

    if (bits == 64) {
        return v;
    }
    if (is_signed) {
        return (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
    }
    return v & ((UINT64_C(1) << bits) - 1);
}

/* @desc = kind | SrcType << 8 | DstType << 16. */
uint64_t helper_fp_cvt(CPULinxState *env, uint64_t a, uint64_t desc)
{
    unsigned kind = desc & 0xff;
    unsigned st = (desc >> 8) & 0x1f;
    unsigned dt = (desc >> 16) & 0x1f;
    uint64_t r;

    if (kind == LINX_FCVT_S2F || kind == LINX_FCVT_U2F) {
        bool sgn = kind == LINX_FCVT_S2F;
        uint64_t v = int_src(a, st, sgn);
        fp_begin(env);
        if (dt == FP_S) {
            volatile float z = sgn ? (float)(int64_t)v : (float)v;
            r = bits_s(z);
        } else {
            volatile double z = sgn ? (double)(int64_t)v : (double)v;
            r = bits_d(z);
        }
        fp_end(env);
        return r;
    }
    if (kind == LINX_FCVT_F2F) {
        if (st == dt) {
            bool sn = st == FP_S ? snan_s(a) : snan_d(a);
            if (sn) {
                env->fcsr |= LINX_FFLAG_NV;
            }
            return st == FP_S ? canon_s(s_of(a)) : canon_d(d_of(a));
        }
        fp_begin(env);
        if (dt == FP_S) {
            volatile double x = d_of(a);
            volatile float z = (float)x;
            r = canon_s(z);
        } else {
            volatile float x = s_of(a);
            volatile double z = (double)x;
            r = canon_d(z);
        }
        fp_end(env);
        return r;
    }
    return fp_to_int(env, st == FP_S ? (double)s_of(a) : d_of(a), kind, dt);
}
