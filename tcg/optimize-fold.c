/*
 * The value of each pure IR op on constants (ir_fold_op) and of each
 * condition (ir_eval_cond): the optimiser's constant folder, written from
 * the op descriptions in tcg/ir-ops.h.  Shifts and rotates take their
 * count modulo 64; clz/ctz of 0 is 64; the high multiplies are the top 64
 * bits of the 128-bit product.
 */
#include "optimize.h"

bool ir_eval_cond(IRCond cond, uint64_t a, uint64_t b)
{
    switch (cond) {
    case IR_COND_NEVER:
        return false;
    case IR_COND_ALWAYS:
        return true;
    case IR_COND_EQ:
        return a == b;
    case IR_COND_NE:
        return a != b;
    case IR_COND_LT:
        return (int64_t)a < (int64_t)b;
    case IR_COND_GE:
        return (int64_t)a >= (int64_t)b;
    case IR_COND_LE:
        return (int64_t)a <= (int64_t)b;
    case IR_COND_GT:
        return (int64_t)a > (int64_t)b;
    case IR_COND_LTU:
        return a < b;
    case IR_COND_GEU:
        return a >= b;
    case IR_COND_LEU:
        return a <= b;
    case IR_COND_GTU:
        return a > b;
    case IR_COND_TSTEQ:
        return (a & b) == 0;
    case IR_COND_TSTNE:
        return (a & b) != 0;
    }
    return false;
}

static uint64_t fold_clz(uint64_t x)
{
    return x ? (uint64_t)__builtin_clzll(x) : 64;
}

static uint64_t fold_ctz(uint64_t x)
{
    return x ? (uint64_t)__builtin_ctzll(x) : 64;
}

bool ir_fold_op(IROpcode op, IRCond cond, const uint64_t *in, uint64_t *out)
{
    uint64_t a = in[0];
    uint64_t b = 0;
    unsigned sh;

    if (op < IR_NB_OPS && ir_op_info[op].nin >= 2) {
        b = in[1];
    }
    sh = (unsigned)(b & 63);
    switch (op) {
    case IR_mov:
        *out = a;
        return true;
    case IR_setcond:
        *out = ir_eval_cond(cond, a, b);
        return true;
    case IR_movcond:
        *out = ir_eval_cond(cond, a, b) ? in[2] : in[3];
        return true;
    case IR_add:
        *out = a + b;
        return true;
    case IR_sub:
        *out = a - b;
        return true;
    case IR_mul:
        *out = a * b;
        return true;
    case IR_mulsh:
        *out = (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
        return true;
    case IR_muluh:
        *out = (uint64_t)(((unsigned __int128)a * b) >> 64);
        return true;
    case IR_neg:
        *out = -a;
        return true;
    case IR_and:
        *out = a & b;
        return true;
    case IR_or:
        *out = a | b;
        return true;
    case IR_xor:
        *out = a ^ b;
        return true;
    case IR_andc:
        *out = a & ~b;
        return true;
    case IR_not:
        *out = ~a;
        return true;
    case IR_shl:
        *out = a << sh;
        return true;
    case IR_shr:
        *out = a >> sh;
        return true;
    case IR_sar:
        *out = (uint64_t)((int64_t)a >> sh);
        return true;
    case IR_rotr:
        *out = sh ? (a >> sh) | (a << (64 - sh)) : a;
        return true;
    case IR_clz:
        *out = fold_clz(a);
        return true;
    case IR_ctz:
        *out = fold_ctz(a);
        return true;
    case IR_ctpop:
        *out = (uint64_t)__builtin_popcountll(a);
        return true;
    case IR_bswap64:
        *out = __builtin_bswap64(a);
        return true;
    case IR_ext8s:
        *out = (uint64_t)(int64_t)(int8_t)a;
        return true;
    case IR_ext8u:
        *out = (uint8_t)a;
        return true;
    case IR_ext16s:
        *out = (uint64_t)(int64_t)(int16_t)a;
        return true;
    case IR_ext16u:
        *out = (uint16_t)a;
        return true;
    case IR_ext32s:
        *out = (uint64_t)(int64_t)(int32_t)a;
        return true;
    case IR_ext32u:
        *out = (uint32_t)a;
        return true;
    default:
        return false;
    }
}
