/*
 * Vector lane programs (tcg/vec.h): building, checking and listing them.
 * Host code generation is in tcg/x86_64/vector-*.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vec.h"

static const char *const op_names[VO__COUNT] = {
    [VO_CONST] = "const", [VO_SCALAR] = "scalar", [VO_LANE] = "lane", [VO_ADD] = "add",
    [VO_SUB] = "sub", [VO_MUL] = "mul", [VO_AND] = "and", [VO_OR] = "or", [VO_XOR] = "xor",
    [VO_SHLV] = "shlv", [VO_SHRV] = "shrv", [VO_SARV] = "sarv", [VO_SMAX] = "smax",
    [VO_SMIN] = "smin", [VO_UMAX] = "umax", [VO_UMIN] = "umin", [VO_SHLI] = "shli",
    [VO_SHRI] = "shri", [VO_SARI] = "sari", [VO_SEXT] = "sext", [VO_ZEXT] = "zext",
    [VO_WIDEN] = "widen", [VO_NARROW] = "narrow", [VO_CMP] = "cmp", [VO_TESTNZ] = "testnz",
    [VO_MAND] = "mand", [VO_MOR] = "mor", [VO_MANDN] = "mandn", [VO_MNOT] = "mnot",
    [VO_MASK2INT] = "mask2int", [VO_BLEND] = "blend", [VO_FADD] = "fadd", [VO_FSUB] = "fsub",
    [VO_FMUL] = "fmul", [VO_FDIV] = "fdiv", [VO_FMAX] = "fmax", [VO_FMIN] = "fmin",
    [VO_FSQRT] = "fsqrt", [VO_FABS] = "fabs", [VO_FMA] = "fma", [VO_FCMP] = "fcmp",
    [VO_LOAD] = "load", [VO_STORE] = "store", [VO_GATHER] = "gather", [VO_CALL] = "call",
    [VO_RED] = "red", [VO_FRED] = "fred", [VO_VCALL] = "vcall",
};

/* Operand needs of each op: which of a, b, c are values, and their types
 * relative to the insn (S: same as type, A: type aux, W: W64, M: mask,
 * 3: W32, -: none, ?: any). */
typedef struct OpShape {
    char a, b, c, m; /* m: 'M' when the mask operand is allowed */
    bool result;
} OpShape;

static OpShape shape(const VecInsn *in)
{
    switch (in->op) {
    case VO_CONST: case VO_SCALAR: case VO_LANE: return (OpShape){ '-', '-', '-', '-', true };
    case VO_ADD: case VO_SUB: case VO_MUL: case VO_AND: case VO_OR: case VO_XOR:
    case VO_SHLV: case VO_SHRV: case VO_SARV: case VO_SMAX: case VO_SMIN: case VO_UMAX:
    case VO_UMIN: case VO_FADD: case VO_FSUB: case VO_FMUL: case VO_FDIV: case VO_FMAX:
    case VO_FMIN:
        return (OpShape){ 'S', 'S', '-', '-', true };
    case VO_SHLI: case VO_SHRI: case VO_SARI: case VO_SEXT: case VO_ZEXT: case VO_FSQRT:
    case VO_FABS:
        return (OpShape){ 'S', '-', '-', '-', true };
    case VO_WIDEN: return (OpShape){ '3', '-', '-', '-', true };
    case VO_NARROW: return (OpShape){ 'W', '-', '-', '-', true };
    case VO_CMP: case VO_TESTNZ: case VO_FCMP: return (OpShape){ 'A', 'A', '-', '-', true };
    case VO_MAND: case VO_MOR: case VO_MANDN: return (OpShape){ 'M', 'M', '-', '-', true };
    case VO_MNOT: return (OpShape){ 'M', '-', '-', '-', true };
    case VO_MASK2INT: return (OpShape){ 'M', '-', '-', '-', true };
    case VO_BLEND: return (OpShape){ 'S', 'S', '-', 'N', true };
    case VO_FMA: return (OpShape){ 'S', 'S', 'S', '-', true };
    case VO_LOAD: return (OpShape){ '-', '-', '-', 'M', true };
    case VO_STORE: return (OpShape){ 'S', '-', '-', 'M', false };
    case VO_GATHER: return (OpShape){ 'W', '-', '-', 'M', true };
    case VO_CALL: return (OpShape){ '?', '?', '?', '-', true };
    case VO_VCALL: return (OpShape){ 'S', '-', '-', '-', true };
    case VO_RED: case VO_FRED: return (OpShape){ 'S', '-', '-', 'M', false };
    default: return (OpShape){ '-', '-', '-', '-', false };
    }
}

void vec_prog_init(VecProg *p)
{
    memset(p, 0, sizeof(*p));
}

uint16_t vec_prog_emit(VecProg *p, const VecInsn *in)
{
    VecInsn *x;
    bool result = shape(in).result;

    if (p->n >= VEC_MAX_INSNS || (result && p->nvals >= VEC_MAX_VALS)) {
        return VEC_NONE;
    }
    x = &p->insn[p->n++];
    *x = *in;
    x->d = result ? (uint16_t)p->nvals++ : VEC_NONE;
    return x->d;
}

uint16_t vec_prog_op(VecProg *p, VecOp op, VecType type, uint16_t a, uint16_t b, uint16_t c,
                uint16_t m, int64_t imm, uint8_t aux)
{
    VecInsn in;

    memset(&in, 0, sizeof(in));
    in.op = (uint8_t)op;
    in.type = (uint8_t)type;
    in.a = a;
    in.b = b;
    in.c = c;
    in.m = m;
    in.imm = imm;
    in.aux = aux;
    return vec_prog_emit(p, &in);
}

unsigned vec_prog_stream(VecProg *p, int64_t stride)
{
    if (p->nstreams >= VEC_MAX_STREAMS) {
        return VEC_MAX_STREAMS;
    }
    p->stream[p->nstreams].stride = stride;
    return p->nstreams++;
}

static bool bad(char *why, size_t len, unsigned i, const char *what)
{
    snprintf(why, len, "insn %u: %s", i, what);
    return false;
}

bool vec_prog_check(const VecProg *p, char *why, size_t len)
{
    uint8_t types[VEC_MAX_VALS];
    bool defined[VEC_MAX_VALS];

    if (p->n > VEC_MAX_INSNS || p->nvals > VEC_MAX_VALS || p->nstreams > VEC_MAX_STREAMS ||
        p->nacc > VEC_MAX_ACC || p->ngather_checks > VEC_MAX_GATHER_CHECKS ||
        p->nscalars > VEC_MAX_SCALARS) {
        snprintf(why, len, "program exceeds a limit");
        return false;
    }
    memset(defined, 0, sizeof(defined));
    for (unsigned i = 0; i < p->n; i++) {
        const VecInsn *in = &p->insn[i];
        OpShape s;
        uint16_t ops[3] = { in->a, in->b, in->c };
        char want[3];
        if (in->op >= VO__COUNT) {
            return bad(why, len, i, "unknown op");
        }
        s = shape(in);
        want[0] = s.a;
        want[1] = s.b;
        want[2] = s.c;
        if (in->type > VT_MASK) {
            return bad(why, len, i, "bad type");
        }
        for (unsigned k = 0; k < 3; k++) {
            VecType t;
            if (want[k] == '-') {
                continue;
            }
            if (ops[k] == VEC_NONE) {
                if (want[k] == '?') {
                    continue;
                }
                return bad(why, len, i, "missing operand");
            }
            if (ops[k] >= p->nvals || !defined[ops[k]]) {
                return bad(why, len, i, "operand not defined before");
            }
            t = (VecType)types[ops[k]];
            switch (want[k]) {
            case 'S': if (t != in->type) return bad(why, len, i, "operand type"); break;
            case 'A': if (t != in->aux || t == VT_MASK) return bad(why, len, i, "operand type"); break;
            case 'W': if (t != VT_W64) return bad(why, len, i, "operand not W64"); break;
            case '3': if (t != VT_W32) return bad(why, len, i, "operand not W32"); break;
            case 'M': if (t != VT_MASK) return bad(why, len, i, "operand not a mask"); break;
            default: if (t == VT_MASK) return bad(why, len, i, "mask as call argument"); break;
            }
        }
        if (in->m != VEC_NONE) {
            if (s.m == '-' || in->m >= p->nvals || !defined[in->m] || types[in->m] != VT_MASK) {
                return bad(why, len, i, "bad mask operand");
            }
        } else if (s.m == 'N') {
            return bad(why, len, i, "blend without a mask");
        }
        switch (in->op) {
        case VO_LOAD: case VO_STORE:
            if (in->imm < 0 || in->imm >= (int64_t)p->nstreams) {
                return bad(why, len, i, "bad stream");
            }
            /* fall through */
        case VO_GATHER:
            if ((in->aux & 3) == 3 && in->type != VT_W64) {
                return bad(why, len, i, "64-bit element in 32-bit lanes");
            }
            break;
        case VO_SCALAR:
            if (in->imm < 0 || in->imm >= VEC_MAX_SCALARS) {
                return bad(why, len, i, "bad scalar");
            }
            break;
        case VO_RED: case VO_FRED:
            if (in->imm < 0 || in->imm >= (int64_t)p->nacc) {
                return bad(why, len, i, "bad accumulator");
            }
            if ((in->op == VO_RED) != (in->aux < VR_FADD)) {
                return bad(why, len, i, "bad reduction op");
            }
            break;
        case VO_CALL: case VO_FMA: case VO_VCALL:
            if (in->fn == 0) {
                return bad(why, len, i, "call without a function");
            }
            break;
        case VO_WIDEN:
        case VO_NARROW:
            if (in->type != (in->op == VO_WIDEN ? VT_W64 : VT_W32)) {
                return bad(why, len, i, "bad result type");
            }
            break;
        case VO_CMP: case VO_TESTNZ: case VO_FCMP: case VO_MAND: case VO_MOR: case VO_MANDN:
        case VO_MNOT:
            if (in->type != VT_MASK) {
                return bad(why, len, i, "compare result not a mask");
            }
            break;
        default:
            if (s.result && in->type == VT_MASK) {
                return bad(why, len, i, "mask result");
            }
            break;
        }
        if (in->d != VEC_NONE) {
            if (in->d >= p->nvals || defined[in->d]) {
                return bad(why, len, i, "bad result value");
            }
            defined[in->d] = true;
            types[in->d] = in->type;
        }
    }
    return true;
}

void vec_prog_dump(const VecProg *p, void *file)
{
    FILE *f = file;
    static const char *const tn[] = { "w32", "w64", "mask" };

    for (unsigned i = 0; i < p->n; i++) {
        const VecInsn *in = &p->insn[i];
        fprintf(f, "%4u: ", i);
        if (in->d != VEC_NONE) {
            fprintf(f, "v%u = ", in->d);
        }
        fprintf(f, "%s.%s", in->op < VO__COUNT && op_names[in->op] ? op_names[in->op] : "?",
                in->type <= VT_MASK ? tn[in->type] : "?");
        if (in->a != VEC_NONE) {
            fprintf(f, " v%u", in->a);
        }
        if (in->b != VEC_NONE) {
            fprintf(f, " v%u", in->b);
        }
        if (in->c != VEC_NONE) {
            fprintf(f, " v%u", in->c);
        }
        if (in->m != VEC_NONE) {
            fprintf(f, " m=v%u", in->m);
        }
        fprintf(f, " imm=%" PRId64 " aux=%u\n", in->imm, in->aux);
    }
}
