/*
 * Vector mode of kernel bodies (kernel-internal.h, docs/performance.md
 * "Kernel blocks"): a straight-line body made only of integer ALU ops,
 * FP arithmetic and bridged lane-strided loads/stores runs up to
 * KV_CHUNK lanes at a time, instruction by instruction over arrays of
 * lane values, in one helper call (helper_kvec) instead of once per lane
 * in translated code.
 *
 * The translator compiles such a body into a KVProg (allocated with the
 * TB) and emits, where the lc0 loop starts,
 *
 *     lc0 = helper_kvec(env, prog)      ; lanes [0, lc0) are done
 *     if lc0 >=u LB0 goto done
 *     lane: <the ordinary per-lane code>  ; the rest, exactly as before
 *
 * Results are those of the per-lane code, bit for bit:
 *   - every memory access of a chunk is checked before anything of the
 *     chunk runs (alignment, guest_mem_window for the lanes' whole range,
 *     no translated code under a store, a contiguous host range), or of
 *     all chunks at once when the whole kernel's ranges pass; when a
 *     check fails the helper returns the first lane of that chunk and the
 *     per-lane code runs from there, so faults (the faulting lane, the
 *     lanes before it done, insn_count) are the per-lane code's;
 *   - order: the per-lane code runs lane after lane, this runs instruction
 *     after instruction; the two differ only when one access's range
 *     overlaps a store's range of another instruction, and such a chunk
 *     is left to the per-lane code too;
 *   - FP: the same fpu library calls with the rounding mode of FCSR;
 *     flags are sticky, so accumulating them per chunk is the same;
 *   - p is never written, so every lane is active (no merge values);
 *     nothing of a lane's queues outlives the lane.
 * LINX_KERNEL_LANEWISE=1 (read when a body is translated) turns the mode
 * off, for tests and benchmarks.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fpu/fpu.h"
#include "hw/core/guest-memory.h"
#include "kernel-internal.h"
#include "kernel-ops.h"
#include "tcg/exec.h"

#include "helper-proto.h"

/* The FP32 shortcut needs every double operation rounded on its own. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

enum {
    KV_CHUNK = 256,                             /* lanes per step */
    KV_SLOTS = LINX_KQUEUES * LINX_KQUEUE_DEPTH, /* one array per ring position */
    KV_MAX_INSNS = 64,                          /* longest body taken */
    KV_MAX_MEM = 16,                            /* memory instructions */
    KV_WHOLE_MAX = 1 << 16,                     /* lanes checked at once */
};

typedef enum KVSrcKind { KV_ZERO, KV_SLOT, KV_SCALAR, KV_LC0 } KVSrcKind;

typedef struct KVSrc {
    uint8_t kind;    /* KVSrcKind */
    uint8_t slot;    /* KV_SLOT */
    uint8_t lg;      /* integer reads: extend the low 8 << lg bits (3: none) */
    bool sign;
    uint32_t off;    /* KV_SCALAR: env offset of the 64-bit value */
} KVSrc;

typedef enum KVOp {
    KVO_ADD, KVO_SUB, KVO_AND, KVO_OR, KVO_XOR, KVO_SHL, KVO_SHR, KVO_SAR, KVO_MUL, KVO_MADD,
    KVO_FP2, KVO_FP3, KVO_LOAD, KVO_STORE,
} KVOp;

typedef struct KVInsn {
    uint8_t op;       /* KVOp */
    int8_t dst;       /* slot, -1: no destination (zero) */
    uint8_t dlg;      /* destination type */
    bool dsign;
    uint8_t rtype;    /* ALU: SrcRType as a LinxSrcRMod (1 .sw, 2 .uw, 3 .neg/.not) */
    uint8_t rshift;   /* ALU: SrcR << rshift */
    bool imm;         /* ALU: b is the constant @value */
    uint8_t mlg;      /* memory: access size; FP: desc */
    bool msign;
    uint8_t mem;      /* memory: index into the chunk's host pointers */
    uint64_t value;   /* ALU immediate; FP: helper_kfp* desc; memory: offset */
    KVSrc a, b, c;    /* memory: a base, b stored value */
} KVInsn;

typedef struct KVProg {
    unsigned n;       /* instructions */
    unsigned nmem;
    bool uses_lc0;    /* some source reads lc0 */
    KVInsn insn[KV_MAX_INSNS];
} KVProg;

/* ---------------------------------------------------------------------
 * Compiling a body
 * --------------------------------------------------------------------- */

typedef struct KVComp {
    KCtx k;                                    /* only .bi, .ctx: kop_fld & co. */
    int ring[LINX_KQUEUES][LINX_KQUEUE_DEPTH]; /* entry #(e+1): slot, -1 zero */
    uint8_t head[LINX_KQUEUES];                /* next ring position */
    uint8_t slot_lg[KV_SLOTS];                 /* a slot's values are extended */
    bool slot_sign[KV_SLOTS];                  /* from 8 << lg bits (3: no) */
    KVProg *p;
} KVComp;

bool linx_kernel_lanewise_from_env(void)
{
    const char *v = getenv("LINX_KERNEL_LANEWISE");

    return v && v[0] && strcmp(v, "0") != 0;
}

/* Source @code: false when this mode does not take it. */
static bool kv_src(KVComp *c, unsigned code, bool fp, KVSrc *s)
{
    LinxKReg r;

    memset(s, 0, sizeof(*s));
    if (!linx_kreg_src(code, &r)) {
        return false;
    }
    s->lg = fp ? 3 : r.size_log2;
    s->sign = r.st;
    switch (r.kind) {
    case LINX_KR_VEC:
    case LINX_KR_HAND: {
        int slot = c->ring[r.queue][r.k - 1];
        s->kind = slot < 0 ? KV_ZERO : KV_SLOT;
        s->slot = (uint8_t)(slot < 0 ? 0 : slot);
        if (slot >= 0 && c->slot_lg[slot] <= s->lg && c->slot_sign[slot] == s->sign) {
            s->lg = 3; /* already extended so: the read changes nothing */
        }
        return true;
    }
    case LINX_KR_RI:
        s->kind = KV_SCALAR;
        s->off = (uint32_t)(offsetof(CPULinxState, kern.ri) + 8 * r.index);
        return true;
    case LINX_KR_LB:
        s->kind = KV_SCALAR;
        s->off = (uint32_t)(offsetof(CPULinxState, lb) + 8 * r.index);
        return true;
    case LINX_KR_LC:
        s->kind = r.index ? KV_SCALAR : KV_LC0;
        s->off = (uint32_t)(offsetof(CPULinxState, lc) + 8 * r.index);
        return true;
    case LINX_KR_ZERO:
        s->kind = KV_ZERO;
        return true;
    default:
        return false; /* p, tile bases */
    }
}

static bool kv_field(KVComp *c, LinxFieldId id, bool fp, KVSrc *s)
{
    return kop_has(&c->k, id) && kv_src(c, (unsigned)kop_fld(&c->k, id), fp, s);
}

/* The destination (RegDst), as kop_write takes it with p known set. */
static bool kv_dst(KVComp *c, KVInsn *vi)
{
    LinxKReg d;
    unsigned q;

    if (!linx_kreg_dst((unsigned)kop_fld(&c->k, LINX_FLD_RegDst), &d)) {
        return false;
    }
    if (d.kind == LINX_KR_ZERO) {
        vi->dst = -1;
        return true;
    }
    if (d.kind != LINX_KR_VEC && d.kind != LINX_KR_HAND) {
        return false;
    }
    if (d.kind == LINX_KR_HAND && kop_vdomain(&c->k)) {
        return false;
    }
    q = d.queue;
    /* The push: the oldest entry's ring position takes the value. */
    vi->dst = (int8_t)(q * LINX_KQUEUE_DEPTH + c->head[q]);
    vi->dlg = d.size_log2;
    vi->dsign = d.st;
    c->slot_lg[vi->dst] = vi->dlg;
    c->slot_sign[vi->dst] = vi->dsign;
    for (unsigned e = LINX_KQUEUE_DEPTH - 1; e > 0; e--) {
        c->ring[q][e] = c->ring[q][e - 1];
    }
    c->ring[q][0] = vi->dst;
    c->head[q] = (uint8_t)((c->head[q] + 1) % LINX_KQUEUE_DEPTH);
    return true;
}

/* Integer source @s feeding only the low @lg (< 3) type bits of a
 * result: its extension (from 8 << s->lg >= 8 << lg bits) changes none
 * of them, so it is read as it is. */
static void kv_low_only(KVSrc *s, unsigned lg)
{
    if (lg < 3 && s->lg >= lg) {
        s->lg = 3;
    }
}

static bool kv_alu(KVComp *c, KVInsn *vi, unsigned op, int how)
{
    /* how: 0 rr with SrcR modifiers, 1 rr plain, 2 immediate uimm12,
     * 3 immediate simm12, 4 immediate shamt, 5 madd */
    vi->op = (uint8_t)op;
    if (!kv_field(c, LINX_FLD_SrcL, false, &vi->a)) {
        return false;
    }
    switch (how) {
    case 0:
        vi->rtype = (uint8_t)kop_srcr_mod(&c->k);
        vi->rshift = (uint8_t)(kop_fld(&c->k, LINX_FLD_shamt) & 63);
        /* fall through */
    case 1:
        if (!kv_field(c, LINX_FLD_SrcR, false, &vi->b)) {
            return false;
        }
        break;
    case 2:
        vi->imm = true;
        vi->value = (uint64_t)kop_fld(&c->k, LINX_FLD_uimm12);
        break;
    case 3:
        vi->imm = true;
        vi->value = (uint64_t)kop_fld(&c->k, LINX_FLD_simm12);
        break;
    case 4:
        vi->imm = true;
        vi->value = (uint64_t)kop_fld(&c->k, LINX_FLD_shamt) & 63;
        break;
    default:
        if (!kv_field(c, LINX_FLD_SrcR, false, &vi->b) ||
            !kv_field(c, LINX_FLD_SrcD, false, &vi->c)) {
            return false;
        }
        break;
    }
    if (!kv_dst(c, vi)) {
        return false;
    }
    /* The low bits of these results depend only on the operands' low bits
     * (SrcR modifiers and left shifts included), and the destination keeps
     * only the low 8 << dlg bits. */
    if (vi->dst >= 0 && op != KVO_SHR && op != KVO_SAR) {
        kv_low_only(&vi->a, vi->dlg);
        kv_low_only(&vi->b, vi->dlg);
        kv_low_only(&vi->c, vi->dlg);
    }
    return true;
}

static bool kv_fp(KVComp *c, KVInsn *vi, unsigned op, bool three)
{
    static const unsigned by_lg[4] = { LINX_FP8_E4M3, LINX_FP16, LINX_FP32, LINX_FP64 };
    LinxKReg r;

    if (!linx_kreg_src((unsigned)kop_fld(&c->k, LINX_FLD_SrcL), &r) || r.st) {
        return false;
    }
    vi->op = three ? KVO_FP3 : KVO_FP2;
    vi->value = op | by_lg[r.size_log2 & 3] << KFP_FMT_SHIFT;
    if (!kv_field(c, LINX_FLD_SrcL, true, &vi->a) || !kv_field(c, LINX_FLD_SrcR, true, &vi->b) ||
        (three && !kv_field(c, LINX_FLD_SrcA, true, &vi->c))) {
        return false;
    }
    return kv_dst(c, vi);
}

/* Bridged immediate-offset loads and stores with the lane term (C):
 * EA = base + (lc0 << size) + offset, base lane-invariant. */
static bool kv_mem(KVComp *c, KVInsn *vi, unsigned lg, bool load, bool sign, bool unscaled)
{
    LinxFieldId base_f = load ? LINX_FLD_SrcL : LINX_FLD_SrcR;
    LinxKReg d;
    int64_t off = kop_fld(&c->k, LINX_FLD_simm24);

    if (c->p->nmem == KV_MAX_MEM || kop_fld(&c->k, LINX_FLD_L) != 0 ||
        !kop_fld(&c->k, LINX_FLD_C) || !kv_field(c, base_f, false, &vi->a) ||
        (vi->a.kind != KV_SCALAR && vi->a.kind != KV_ZERO)) {
        return false;
    }
    vi->op = load ? KVO_LOAD : KVO_STORE;
    vi->mlg = (uint8_t)lg;
    vi->msign = sign;
    vi->mem = (uint8_t)c->p->nmem++;
    vi->value = unscaled ? (uint64_t)off : (uint64_t)off << lg;
    if (!load) {
        vi->dst = -1;
        if (!kv_field(c, LINX_FLD_SrcL, false, &vi->b)) {
            return false;
        }
        kv_low_only(&vi->b, lg); /* only the low 8 << lg bits are stored */
        return true;
    }
    if (!linx_kreg_dst((unsigned)kop_fld(&c->k, LINX_FLD_RegDst), &d) || d.kind == LINX_KR_P) {
        return false;
    }
    return kv_dst(c, vi);
}

static bool kv_insn(KVComp *c, KVInsn *vi)
{
    switch (kop_cur(&c->k)->form) {
    case LINX_F_V_ADD: return kv_alu(c, vi, KVO_ADD, 0);
    case LINX_F_V_SUB: return kv_alu(c, vi, KVO_SUB, 0);
    case LINX_F_V_AND: return kv_alu(c, vi, KVO_AND, 0);
    case LINX_F_V_OR: return kv_alu(c, vi, KVO_OR, 0);
    case LINX_F_V_XOR: return kv_alu(c, vi, KVO_XOR, 0);
    case LINX_F_V_ADDI: return kv_alu(c, vi, KVO_ADD, 2);
    case LINX_F_V_SUBI: return kv_alu(c, vi, KVO_SUB, 2);
    case LINX_F_V_ANDI: return kv_alu(c, vi, KVO_AND, 3);
    case LINX_F_V_ORI: return kv_alu(c, vi, KVO_OR, 3);
    case LINX_F_V_XORI: return kv_alu(c, vi, KVO_XOR, 3);
    case LINX_F_V_SLLI: return kv_alu(c, vi, KVO_SHL, 4);
    case LINX_F_V_SRLI: return kv_alu(c, vi, KVO_SHR, 4);
    case LINX_F_V_SRAI: return kv_alu(c, vi, KVO_SAR, 4);
    case LINX_F_V_MUL: return kv_alu(c, vi, KVO_MUL, 1);
    case LINX_F_V_MADD: return kv_alu(c, vi, KVO_MADD, 5);
    case LINX_F_V_FADD: return kv_fp(c, vi, KFP_ADD, false);
    case LINX_F_V_FSUB: return kv_fp(c, vi, KFP_SUB, false);
    case LINX_F_V_FMUL: return kv_fp(c, vi, KFP_MUL, false);
    case LINX_F_V_FDIV: return kv_fp(c, vi, KFP_DIV, false);
    case LINX_F_V_FMAX: return kv_fp(c, vi, KFP_MAX, false);
    case LINX_F_V_FMIN: return kv_fp(c, vi, KFP_MIN, false);
    case LINX_F_V_FMADD: return kv_fp(c, vi, KFP_MADD, true);
    case LINX_F_V_FMSUB: return kv_fp(c, vi, KFP_MSUB, true);
    case LINX_F_V_FNMADD: return kv_fp(c, vi, KFP_NMADD, true);
    case LINX_F_V_FNMSUB: return kv_fp(c, vi, KFP_NMSUB, true);
    case LINX_F_V_LBI_BRG: return kv_mem(c, vi, 0, true, true, false);
    case LINX_F_V_LBUI_BRG: return kv_mem(c, vi, 0, true, false, false);
    case LINX_F_V_LHI_BRG: return kv_mem(c, vi, 1, true, true, false);
    case LINX_F_V_LHUI_BRG: return kv_mem(c, vi, 1, true, false, false);
    case LINX_F_V_LWI_BRG: return kv_mem(c, vi, 2, true, true, false);
    case LINX_F_V_LWUI_BRG: return kv_mem(c, vi, 2, true, false, false);
    case LINX_F_V_LDI_BRG: return kv_mem(c, vi, 3, true, false, false);
    case LINX_F_V_LHI_U_BRG: return kv_mem(c, vi, 1, true, true, true);
    case LINX_F_V_LHUI_U_BRG: return kv_mem(c, vi, 1, true, false, true);
    case LINX_F_V_LWI_U_BRG: return kv_mem(c, vi, 2, true, true, true);
    case LINX_F_V_LWUI_U_BRG: return kv_mem(c, vi, 2, true, false, true);
    case LINX_F_V_LDI_U_BRG: return kv_mem(c, vi, 3, true, false, true);
    case LINX_F_V_SBI_BRG: return kv_mem(c, vi, 0, false, false, false);
    case LINX_F_V_SHI_BRG: return kv_mem(c, vi, 1, false, false, false);
    case LINX_F_V_SWI_BRG: return kv_mem(c, vi, 2, false, false, false);
    case LINX_F_V_SDI_BRG: return kv_mem(c, vi, 3, false, false, false);
    case LINX_F_V_SHI_U_BRG: return kv_mem(c, vi, 1, false, false, true);
    case LINX_F_V_SWI_U_BRG: return kv_mem(c, vi, 2, false, false, true);
    case LINX_F_V_SDI_U_BRG: return kv_mem(c, vi, 3, false, false, true);
    default:
        return false;
    }
}

const KVProg *kv_compile(KCtx *k)
{
    const KBody *b = k->body;
    LinxExecContext *ec = k->ctx->env->engine.exec;
    KVComp *c;
    KVProg *p = NULL;

    if (b->nphases != 1 || b->n == 0 || b->n > KV_MAX_INSNS || !ec ||
        linx_kernel_lanewise_from_env()) {
        return NULL;
    }
    c = calloc(1, sizeof(*c) + sizeof(KVProg));
    if (!c) {
        return NULL;
    }
    c->p = (KVProg *)(c + 1);
    c->k.ctx = k->ctx;
    memset(c->ring, 0xff, sizeof(c->ring));
    for (unsigned i = 0; i < b->n; i++) {
        const KBodyInsn *bi = &b->insns[i];
        KVInsn *vi = &c->p->insn[i];
        c->k.bi = bi;
        if (bi->kind != KI_OP || bi->is_target || !kv_insn(c, vi)) {
            free(c);
            return NULL;
        }
    }
    c->p->n = b->n;
    for (unsigned i = 0; i < b->n; i++) {
        const KVInsn *vi = &c->p->insn[i];
        if (vi->a.kind == KV_LC0 || vi->b.kind == KV_LC0 || vi->c.kind == KV_LC0) {
            c->p->uses_lc0 = true;
        }
    }
    p = linx_exec_tb_alloc(ec, sizeof(*p));
    memcpy(p, c->p, sizeof(*p));
    free(c);
    return p;
}

/* ---------------------------------------------------------------------
 * Running a program
 * --------------------------------------------------------------------- */

typedef struct KVRun {
    uint64_t v[KV_SLOTS][KV_CHUNK];
    uint64_t lc0[KV_CHUNK];
    uint8_t *host[KV_MAX_MEM];  /* host address of lane 0 of the chunk */
    uint8_t mlg[KV_MAX_MEM];    /* log2 of the access size */
    uint64_t lo[KV_MAX_MEM], hi[KV_MAX_MEM];
} KVRun;

/* d[i] = kop_lane_ext(s[i]) for every lane, the type's case hoisted out. */
static void ext_vec(uint64_t *d, const uint64_t *s, unsigned lg, bool sign, unsigned n)
{
#define EXT_LOOP(T) for (unsigned i = 0; i < n; i++) { d[i] = (uint64_t)(T)s[i]; } break
    switch (lg * 2 + sign) {
    case 0: EXT_LOOP(uint8_t);
    case 1: EXT_LOOP(int8_t);
    case 2: EXT_LOOP(uint16_t);
    case 3: EXT_LOOP(int16_t);
    case 4: EXT_LOOP(uint32_t);
    case 5: EXT_LOOP(int32_t);
    default:
        if (d != s) {
            memcpy(d, s, n * sizeof(*d));
        }
        break;
    }
#undef EXT_LOOP
}

/* Lane values of source @s (integer reads extended by its type). */
static const uint64_t *src_vals(CPULinxState *env, KVRun *r, const KVSrc *s, unsigned n,
                                uint64_t *buf)
{
    uint64_t x = 0;

    switch (s->kind) {
    case KV_SLOT:
        if (s->lg >= 3) {
            return r->v[s->slot];
        }
        ext_vec(buf, r->v[s->slot], s->lg, s->sign, n);
        return buf;
    case KV_LC0:
        ext_vec(buf, r->lc0, s->lg, s->sign, n);
        return buf;
    case KV_SCALAR:
        memcpy(&x, (const uint8_t *)env + s->off, 8);
        x = kop_lane_ext(x, s->lg, s->sign);
        break;
    default:
        break;
    }
    for (unsigned i = 0; i < n; i++) {
        buf[i] = x;
    }
    return buf;
}

static uint64_t scalar(CPULinxState *env, const KVSrc *s)
{
    uint64_t x = 0;

    if (s->kind == KV_SCALAR) {
        memcpy(&x, (const uint8_t *)env + s->off, 8);
        x = kop_lane_ext(x, s->lg, s->sign);
    }
    return x;
}

/* Check every access of lanes [lc0, lc0 + n): false leaves the chunk to
 * the per-lane code. */
static bool check_mem(CPULinxState *env, const KVProg *p, KVRun *r, uint64_t lc0, unsigned n)
{
    bool store[KV_MAX_MEM] = { false };

    for (unsigned i = 0; i < p->n; i++) {
        const KVInsn *vi = &p->insn[i];
        uint64_t size = UINT64_C(1) << vi->mlg, base, len = (uint64_t)n << vi->mlg;
        uint64_t fault = 0;
        int access;
        if (vi->op != KVO_LOAD && vi->op != KVO_STORE) {
            continue;
        }
        base = scalar(env, &vi->a) + (lc0 << vi->mlg) + vi->value;
        if ((base & (size - 1)) || base + len < base) {
            return false;
        }
        access = vi->op == KVO_STORE ? GM_PROT_WRITE : GM_PROT_READ;
        if (vi->op == KVO_STORE) {
            for (uint64_t pg = base & GUEST_PAGE_MASK; pg < base + len; pg += GUEST_PAGE_SIZE) {
                /* Code pages and debugger watchpoints: the per-lane path
                 * (stores there invalidate code, or stop before). */
                if (guest_mem_is_code(env->engine.mem, pg) ||
                    (env->engine.exec && linx_exec_page_watched(env->engine.exec, pg))) {
                    return false;
                }
            }
        }
        if (guest_mem_window(env->engine.mem, base, 1, len, len, access, &r->host[vi->mem],
                             &fault) != GM_OK ||
            !r->host[vi->mem]) {
            return false;
        }
        r->mlg[vi->mem] = vi->mlg;
        r->lo[vi->mem] = base;
        r->hi[vi->mem] = base + len;
        store[vi->mem] = vi->op == KVO_STORE;
    }
    for (unsigned a = 0; a < p->nmem; a++) {
        for (unsigned b = 0; b < p->nmem; b++) {
            if (a != b && store[a] && r->lo[a] < r->hi[b] && r->lo[b] < r->hi[a]) {
                return false;
            }
        }
    }
    return true;
}

/* The host's MXCSR as the C runtime leaves it (RNE, no FTZ/DAZ): the
 * double arithmetic below rounds as IEEE says. */
static bool host_fp_default(void)
{
#if defined(__x86_64__)
    uint32_t m;

    __asm__ volatile("stmxcsr %0" : "=m"(m));
    return (m & 0xe040) == 0;
#else
    return false;
#endif
}

static float f32_of(uint64_t x)
{
    uint32_t w = (uint32_t)x;
    float f;

    memcpy(&f, &w, 4);
    return f;
}

/* FP32 add/sub/mul in RNE through double: the double result of two
 * floats, rounded to float, is the correctly rounded float result (53 >=
 * 2 * 24 + 2; a product of floats is even exact in double).  Taken only
 * for a normal result above the smallest normal (no OF, UF, NV or DZ
 * possible, and no NaN or infinite operand gives one); NX when the float
 * differs from the exact value: for products (exact in double) when it
 * differs from the double, for sums also when the double sum was inexact
 * (TwoSum).  False: the library decides. */
static bool f32_fast(unsigned op, uint64_t a, uint64_t b, uint64_t *res, uint8_t *flags)
{
    double x = f32_of(a), y = f32_of(b), s, t;
    float r;
    uint32_t w;
    unsigned e;
    bool exact;

    if (op == KFP_SUB) {
        y = -y;
    }
    if (op == KFP_MUL) {
        s = x * y;
        r = (float)s;
        exact = (double)r == s;
    } else {
        double bv;
        s = x + y;
        r = (float)s;
        bv = s - x;
        t = (x - (s - bv)) + (y - bv);
        exact = (double)r == s && t == 0;
    }
    memcpy(&w, &r, 4);
    e = (w >> 23) & 0xff;
    if (e < 2 || e > 254) {
        return false;
    }
    if (!exact) {
        *flags |= LINX_FPF_NX;
    }
    *res = w;
    return true;
}

static void run_fp(LinxFpEnv *fe, const KVInsn *vi, uint64_t *d, const uint64_t *a,
                   const uint64_t *b, const uint64_t *c, unsigned n, bool fast)
{
    LinxFpFormat f = (LinxFpFormat)((vi->value >> KFP_FMT_SHIFT) & 7);
    unsigned op = (unsigned)(vi->value & KFP_OP_MASK);

    if (fast && f == LINX_FP32 && fe->rm == LINX_RM_RNE && fe->impl == LINX_FP_IMPL_AUTO &&
        (op == KFP_ADD || op == KFP_SUB || op == KFP_MUL)) {
        for (unsigned i = 0; i < n; i++) {
            if (!f32_fast(op, a[i], b[i], &d[i], &fe->flags)) {
                d[i] = op == KFP_MUL   ? linx_fmul(fe, a[i], b[i], f)
                       : op == KFP_ADD ? linx_fadd(fe, a[i], b[i], f)
                                       : linx_fsub(fe, a[i], b[i], f);
            }
        }
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        uint64_t x;
        switch (op) {
        case KFP_ADD: x = linx_fadd(fe, a[i], b[i], f); break;
        case KFP_SUB: x = linx_fsub(fe, a[i], b[i], f); break;
        case KFP_MUL: x = linx_fmul(fe, a[i], b[i], f); break;
        case KFP_DIV: x = linx_fdiv(fe, a[i], b[i], f); break;
        case KFP_MAX: x = linx_fmax(fe, a[i], b[i], f); break;
        case KFP_MIN: x = linx_fmin(fe, a[i], b[i], f); break;
        case KFP_MADD: x = linx_fmadd(fe, a[i], b[i], c[i], f); break;
        case KFP_MSUB: x = linx_fmsub(fe, a[i], b[i], c[i], f); break;
        case KFP_NMADD: x = linx_fnmadd(fe, a[i], b[i], c[i], f); break;
        default: x = linx_fnmsub(fe, a[i], b[i], c[i], f); break;
        }
        d[i] = x;
    }
}

/* d[i] = the loaded value (memory type T) in the destination type @dt
 * (dst_type): (D)(T)x is kop_lane_ext(kop_lane_ext(x, mlg, msign), dlg, dsign). */
static void run_load(const KVInsn *vi, const uint8_t *h, uint64_t *d, unsigned n, unsigned dt)
{
#define LD_TD(T, D) for (unsigned i = 0; i < n; i++) { T t; memcpy(&t, h + i * sizeof(T), sizeof(T)); \
                                                       d[i] = (uint64_t)(D)t; } break
#define LD_LOOP(T)                                                                                \
    switch (dt) {                                                                                 \
    case 0: LD_TD(T, uint8_t);                                                                    \
    case 1: LD_TD(T, int8_t);                                                                     \
    case 2: LD_TD(T, uint16_t);                                                                   \
    case 3: LD_TD(T, int16_t);                                                                    \
    case 4: LD_TD(T, uint32_t);                                                                   \
    case 5: LD_TD(T, int32_t);                                                                    \
    default: LD_TD(T, uint64_t);                                                                  \
    }                                                                                             \
    break
    switch (vi->mlg * 2 + vi->msign) {
    case 0: LD_LOOP(uint8_t);
    case 1: LD_LOOP(int8_t);
    case 2: LD_LOOP(uint16_t);
    case 3: LD_LOOP(int16_t);
    case 4: LD_LOOP(uint32_t);
    case 5: LD_LOOP(int32_t);
    default: LD_LOOP(uint64_t);
    }
#undef LD_LOOP
#undef LD_TD
}

static void run_store(const KVInsn *vi, uint8_t *h, const uint64_t *v, unsigned n)
{
#define ST_LOOP(T) for (unsigned i = 0; i < n; i++) { T t = (T)v[i]; \
                                                      memcpy(h + i * sizeof(T), &t, sizeof(T)); } break
    switch (vi->mlg) {
    case 0: ST_LOOP(uint8_t);
    case 1: ST_LOOP(uint16_t);
    case 2: ST_LOOP(uint32_t);
    default: ST_LOOP(uint64_t);
    }
#undef ST_LOOP
}

/* SrcR as op_rr takes it: its SrcRType and shift (in place in @buf). */
static const uint64_t *srcr_mod(const KVInsn *vi, const uint64_t *b, uint64_t *buf, unsigned n)
{
    bool logic = vi->op == KVO_AND || vi->op == KVO_OR || vi->op == KVO_XOR;
    unsigned sh = vi->rshift;

    if (vi->rtype == 0 && sh == 0) {
        return b;
    }
    switch (vi->rtype) {
    case 1: for (unsigned i = 0; i < n; i++) { buf[i] = (uint64_t)(int64_t)(int32_t)b[i] << sh; } break;
    case 2: for (unsigned i = 0; i < n; i++) { buf[i] = (uint64_t)(uint32_t)b[i] << sh; } break;
    case 3:
        if (logic) {
            for (unsigned i = 0; i < n; i++) { buf[i] = ~b[i] << sh; }
        } else {
            for (unsigned i = 0; i < n; i++) { buf[i] = -b[i] << sh; }
        }
        break;
    default: for (unsigned i = 0; i < n; i++) { buf[i] = b[i] << sh; } break;
    }
    return buf;
}

/* The destination's type as kop_lane_ext() takes it: 0..5 (u8 s8 u16 s16 u32
 * s32), 6 none. */
static unsigned dst_type(const KVInsn *vi)
{
    return vi->dst < 0 || vi->dlg >= 3 ? 6 : vi->dlg * 2u + vi->dsign;
}

/* d[i] = the operation, extended to the destination type @dt in the same
 * loop (one loop per operation and type, no extension pass). */
static void run_alu(const KVInsn *vi, uint64_t *d, const uint64_t *a, const uint64_t *b,
                    const uint64_t *c, unsigned n, unsigned dt)
{
#define ALU_T(T, expr) for (unsigned i = 0; i < n; i++) { d[i] = (uint64_t)(T)(expr); } break
#define ALU_LOOP(expr)                                                                            \
    switch (dt) {                                                                                 \
    case 0: ALU_T(uint8_t, expr);                                                                 \
    case 1: ALU_T(int8_t, expr);                                                                  \
    case 2: ALU_T(uint16_t, expr);                                                                \
    case 3: ALU_T(int16_t, expr);                                                                 \
    case 4: ALU_T(uint32_t, expr);                                                                \
    case 5: ALU_T(int32_t, expr);                                                                 \
    default: ALU_T(uint64_t, expr);                                                               \
    }                                                                                             \
    break
    if (vi->imm) {
        uint64_t y = vi->value;
        switch (vi->op) {
        case KVO_ADD: ALU_LOOP(a[i] + y);
        case KVO_SUB: ALU_LOOP(a[i] - y);
        case KVO_AND: ALU_LOOP(a[i] & y);
        case KVO_OR: ALU_LOOP(a[i] | y);
        case KVO_XOR: ALU_LOOP(a[i] ^ y);
        case KVO_SHL: ALU_LOOP(a[i] << (y & 63));
        case KVO_SHR: ALU_LOOP(a[i] >> (y & 63));
        default: ALU_LOOP((uint64_t)((int64_t)a[i] >> (y & 63)));
        }
        return;
    }
    switch (vi->op) {
    case KVO_ADD: ALU_LOOP(a[i] + b[i]);
    case KVO_SUB: ALU_LOOP(a[i] - b[i]);
    case KVO_AND: ALU_LOOP(a[i] & b[i]);
    case KVO_OR: ALU_LOOP(a[i] | b[i]);
    case KVO_XOR: ALU_LOOP(a[i] ^ b[i]);
    case KVO_MUL: ALU_LOOP(a[i] * b[i]);
    default: ALU_LOOP(a[i] * b[i] + c[i]);
    }
#undef ALU_LOOP
#undef ALU_T
}

static void run_chunk(CPULinxState *env, const KVProg *p, KVRun *r, LinxFpEnv *fe, unsigned n,
                      bool fast)
{
    uint64_t ba[KV_CHUNK], bb[KV_CHUNK], bc[KV_CHUNK], bm[KV_CHUNK], out[KV_CHUNK];

    for (unsigned i = 0; i < p->n; i++) {
        const KVInsn *vi = &p->insn[i];
        const uint64_t *a = NULL, *b = NULL, *c = NULL;
        uint64_t *d = vi->dst >= 0 ? r->v[vi->dst] : out;

        switch (vi->op) {
        case KVO_LOAD:
            run_load(vi, r->host[vi->mem], d, n, dst_type(vi));
            continue;
        case KVO_STORE:
            run_store(vi, r->host[vi->mem], src_vals(env, r, &vi->b, n, bb), n);
            continue;
        case KVO_FP2:
        case KVO_FP3:
            a = src_vals(env, r, &vi->a, n, ba);
            b = src_vals(env, r, &vi->b, n, bb);
            c = vi->op == KVO_FP3 ? src_vals(env, r, &vi->c, n, bc) : NULL;
            run_fp(fe, vi, d, a, b, c, n, fast);
            break;
        default:
            a = src_vals(env, r, &vi->a, n, ba);
            if (!vi->imm) {
                b = srcr_mod(vi, src_vals(env, r, &vi->b, n, bb), bm, n);
            }
            if (vi->op == KVO_MADD) {
                c = src_vals(env, r, &vi->c, n, bc);
            }
            run_alu(vi, d, a, b, c, n, dst_type(vi));
            continue;
        }
        if (vi->dst >= 0 && vi->dlg < 3) {
            ext_vec(d, d, vi->dlg, vi->dsign, n);
        }
    }
}

/* Run lanes from lc0 = 0 in chunks while their accesses check out;
 * returns the first lane not run. */
uint64_t helper_kvec(CPULinxState *env, uint64_t prog)
{
    const KVProg *p = (const KVProg *)(uintptr_t)prog;
    uint64_t lb0 = env->lb[0], lc0 = 0;
    KVRun run;
    KVRun *r = &run;
    LinxFpEnv fe;
    bool fast = host_fp_default();
    /* All lanes' accesses checked at once: the steps run without checks
     * (the per-step ranges are within the whole ones, and no store range
     * overlapping another instruction's over all lanes means none does
     * within a step or across steps).  Otherwise step by step. */
    bool whole = p->nmem && lb0 > KV_CHUNK && lb0 <= KV_WHOLE_MAX &&
                 check_mem(env, p, r, 0, lb0);

    linx_fpenv_from_fcsr(&fe, env->fcsr);
    while (lc0 < lb0) {
        unsigned n = lb0 - lc0 < KV_CHUNK ? (unsigned)(lb0 - lc0) : KV_CHUNK;
        if (p->nmem && !whole && !check_mem(env, p, r, lc0, n)) {
            break;
        }
        if (p->uses_lc0) {
            for (unsigned i = 0; i < n; i++) {
                r->lc0[i] = lc0 + i;
            }
        }
        run_chunk(env, p, r, &fe, n, fast);
        if (whole) {
            for (unsigned m = 0; m < p->nmem; m++) {
                r->host[m] += (size_t)n << r->mlg[m];
            }
        }
        lc0 += n;
        env->insn_count += (uint64_t)n * p->n;
        env->kern.vec_lanes += n;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return lc0;
}
