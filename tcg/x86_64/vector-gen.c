/*
 * Vector lane programs as host functions (tcg/vec.h, vector-gen.h): host
 * ISA detection, the function around the block body, register
 * allocation, the constant pool and per-lane loops.
 *
 *   prologue:  push rbx rbp r12-r15; r12 = f; align rsp to 64, reserve
 *              VG_FRAME bytes; rbp = pool; save the host MXCSR, load
 *              f->mxcsr; rbx = f->start, r13 = f->end, f->stop = end
 *   full:      while rbx + L <= end: body (no lane masks); rbx += L
 *   tail:      if rbx < end: k7 / the range vector = lanes < end; body
 *   done:      f->flags |= MXCSR flags (DE dropped); host MXCSR back;
 *              vzeroupper; restore rsp; pop; ret
 *   bail:      MXCSR = as at the block's start; f->stop = rbx; -> done
 *
 * Register allocation is a linear scan over the body (twice: full and
 * partial block), with each value's uses known in advance: a value lives
 * in registers from its definition to its last use; when registers run
 * out, the one whose next use is farthest is spilled to a stack slot.
 * Nothing is kept in registers from one block to the next.
 */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcg/code-buffer.h"
#include "vector-gen.h"
#include "x86-gen.h"

/* ---------------------------------------------------------------------
 * Host ISA
 * --------------------------------------------------------------------- */

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;

    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

static VecIsa detect_isa(void)
{
    unsigned a, b, c, d;
    bool avx2, avx512;
    uint64_t xcr0;

    if (!__get_cpuid(1, &a, &b, &c, &d)) {
        return VEC_ISA_NONE;
    }
    /* OSXSAVE 27, AVX 28, FMA 12, F16C 29 */
    if (!(c & (1u << 27)) || !(c & (1u << 28)) || !(c & (1u << 12)) || !(c & (1u << 29))) {
        return VEC_ISA_NONE;
    }
    xcr0 = xgetbv0();
    if ((xcr0 & 6) != 6 || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        return VEC_ISA_NONE;
    }
    avx2 = (b & (1u << 5)) && (b & (1u << 8)); /* AVX2, BMI2 */
    /* AVX512F 16, DQ 17, BW 30, VL 31; XCR0 opmask, ZMM_Hi256, Hi16_ZMM */
    avx512 = avx2 && (b & (1u << 16)) && (b & (1u << 17)) && (b & (1u << 30)) &&
             (b & (1u << 31)) && (xcr0 & 0xe0) == 0xe0;
    return avx512 ? VEC_ISA_AVX512 : avx2 ? VEC_ISA_AVX2 : VEC_ISA_NONE;
}

VecIsa vec_host_isa(void)
{
    VecIsa isa = detect_isa();
    const char *v = getenv("LINX_VEC_ISA");

    if (v && strcmp(v, "none") == 0) {
        return VEC_ISA_NONE;
    }
    if (v && strcmp(v, "avx2") == 0 && isa > VEC_ISA_AVX2) {
        return VEC_ISA_AVX2;
    }
    return isa;
}

const char *vec_isa_name(VecIsa isa)
{
    return isa == VEC_ISA_AVX512 ? "avx512" : isa == VEC_ISA_AVX2 ? "avx2" : "none";
}

unsigned vec_isa_lanes(VecIsa isa)
{
    return isa == VEC_ISA_AVX512 ? 16 : isa == VEC_ISA_AVX2 ? 8 : 0;
}

/* ---------------------------------------------------------------------
 * Small encoders
 * --------------------------------------------------------------------- */

bool vg_fail(VGen *g, const char *why)
{
    if (!g->failed) {
        g->failed = true;
        snprintf(g->why, sizeof(g->why), "%s", why);
    }
    return false;
}

void vg_rr(VGen *g, VxOpc o, int reg, int vvvv, int rm)
{
    vx_rr(g->e, g->evex, o, g->vl, reg, vvvv, rm, 0, false);
}

void vg_rrk(VGen *g, VxOpc o, int reg, int vvvv, int rm, int k, bool z)
{
    vx_rr(g->e, g->evex, o, g->vl, reg, vvvv, rm, k, z);
}

void vg_rm(VGen *g, VxOpc o, int reg, int vvvv, VxMem m, int k, bool z)
{
    vx_rm(g->e, g->evex, o, g->vl, reg, vvvv, m, k, z, false);
}

/* vmovdqa64 zmm / vmovdqa ymm */
void vg_mov(VGen *g, int d, int s)
{
    if (d != s) {
        vg_rr(g, VX(VX_0F, VX_66, 1, 0x6f), d, 0, s);
    }
}

/* vmovdqu64 / vmovdqu */
void vg_load_vec(VGen *g, int d, VxMem m)
{
    vg_rm(g, VX(VX_0F, VX_F3, g->evex, 0x6f), d, 0, m, 0, false);
}

void vg_store_vec(VGen *g, int s, VxMem m)
{
    vg_rm(g, VX(VX_0F, VX_F3, g->evex, 0x7f), s, 0, m, 0, false);
}

/* vpbroadcastd / vpbroadcastq from memory */
void vg_bcast(VGen *g, int d, VxMem m, unsigned size)
{
    vg_rm(g, size == 8 ? VX(VX_0F38, VX_66, g->evex, 0x59) : VX(VX_0F38, VX_66, 0, 0x58), d, 0, m,
          0, false);
}

int vg_scratch(const VGen *g, int i)
{
    return (g->evex ? 27 : 11) + i;
}

/* ---------------------------------------------------------------------
 * Constant pool
 * --------------------------------------------------------------------- */

int32_t vg_pool(VGen *g, const void *data, unsigned n, unsigned align)
{
    unsigned off = (g->pool_len + align - 1) & ~(align - 1);

    if (off + n > VG_POOL_MAX) {
        vg_fail(g, "constant pool full");
        return 0;
    }
    memcpy(g->pool + off, data, n);
    g->pool_len = off + n;
    return (int32_t)off;
}

int32_t vg_pool_splat(VGen *g, uint64_t v, unsigned size)
{
    uint8_t buf[64];

    for (unsigned i = 0; i < g->vbytes; i += size) {
        memcpy(buf + i, &v, size);
    }
    /* A repeat of an earlier entry costs nothing. */
    for (unsigned off = 0; off + g->vbytes <= g->pool_len; off += 64) {
        if (memcmp(g->pool + off, buf, g->vbytes) == 0) {
            return (int32_t)off;
        }
    }
    return vg_pool(g, buf, g->vbytes, 64);
}

/* ---------------------------------------------------------------------
 * Register allocation
 * --------------------------------------------------------------------- */

static unsigned next_use(const VGen *g, uint16_t v)
{
    for (unsigned i = 0; i < g->nuses[v]; i++) {
        if (g->uses[v][i] > g->cur) {
            return g->uses[v][i];
        }
    }
    return UINT32_MAX;
}

static int alloc_slot(VGen *g)
{
    for (int s = 0; s < VG_MAX_SLOTS; s++) {
        if (!g->slot_busy[s]) {
            g->slot_busy[s] = 1;
            return s;
        }
    }
    vg_fail(g, "out of spill slots");
    return 0;
}

static VxMem slot_mem(int s)
{
    return vx_mem(X86_RSP, -1, 0, VG_SLOTS + 64 * s);
}

/* kmovw k, m16 / kmovw m16, k */
static void kload(VGen *g, int k, VxMem m)
{
    vx_rm(g->e, false, VX(VX_0F, VX_NP, 0, 0x90), 0, k, 0, m, 0, false, false);
}

static void kstore(VGen *g, int k, VxMem m)
{
    vx_rm(g->e, false, VX(VX_0F, VX_NP, 0, 0x91), 0, k, 0, m, 0, false, false);
}

static void spill_vreg(VGen *g, int r)
{
    int32_t o = g->vowner[r];
    VGenVal *x = &g->val[o >> 1];
    int part = o & 1;

    if (x->slot[part] < 0) {
        x->slot[part] = (int16_t)alloc_slot(g);
        vg_store_vec(g, r, slot_mem(x->slot[part]));
    }
    x->reg[part] = -1;
    g->vowner[r] = -1;
}

static int alloc_vreg(VGen *g)
{
    int best = -1;
    unsigned far = 0;

    for (unsigned r = 0; r < g->nvreg; r++) {
        if (g->vowner[r] < 0 && !(g->vlocked & (1u << r))) {
            return (int)r;
        }
    }
    for (unsigned r = 0; r < g->nvreg; r++) {
        unsigned n;
        if (g->vlocked & (1u << r)) {
            continue;
        }
        n = next_use(g, (uint16_t)(g->vowner[r] >> 1));
        if (best < 0 || n > far) {
            best = (int)r;
            far = n;
        }
    }
    if (best < 0) {
        vg_fail(g, "no vector register");
        return 0;
    }
    spill_vreg(g, best);
    return best;
}

int vg_use(VGen *g, uint16_t v, int part)
{
    VGenVal *x = &g->val[v];
    int r;

    if (v >= g->p->nvals || x->k || part >= x->nparts) {
        vg_fail(g, "bad operand");
        return 0;
    }
    if (x->reg[part] >= 0) {
        g->vlocked |= 1u << x->reg[part];
        return x->reg[part];
    }
    if (x->slot[part] < 0) {
        vg_fail(g, "operand used before its definition");
        return 0;
    }
    r = alloc_vreg(g);
    vg_load_vec(g, r, slot_mem(x->slot[part]));
    x->reg[part] = (int8_t)r;
    g->vowner[r] = v << 1 | part;
    g->vlocked |= 1u << r;
    return r;
}

int vg_def(VGen *g, uint16_t v, int part)
{
    VGenVal *x = &g->val[v];
    int r;

    if (x->reg[part] >= 0) {
        g->vlocked |= 1u << x->reg[part];
        return x->reg[part];
    }
    r = alloc_vreg(g);
    x->reg[part] = (int8_t)r;
    g->vowner[r] = v << 1 | part;
    g->vlocked |= 1u << r;
    return r;
}

static int alloc_kreg(VGen *g)
{
    int best = -1;
    unsigned far = 0;

    for (int k = 1; k <= 5; k++) {
        if (g->kowner[k] < 0 && !(g->klocked & (1u << k))) {
            return k;
        }
    }
    for (int k = 1; k <= 5; k++) {
        unsigned n;
        if (g->klocked & (1u << k)) {
            continue;
        }
        n = next_use(g, (uint16_t)g->kowner[k]);
        if (best < 0 || n > far) {
            best = k;
            far = n;
        }
    }
    if (best < 0) {
        vg_fail(g, "no mask register");
        return 1;
    }
    {
        VGenVal *x = &g->val[g->kowner[best]];
        if (x->slot[0] < 0) {
            x->slot[0] = (int16_t)alloc_slot(g);
            kstore(g, best, slot_mem(x->slot[0]));
        }
        x->reg[0] = -1;
        g->kowner[best] = -1;
    }
    return best;
}

int vg_kuse(VGen *g, uint16_t v)
{
    VGenVal *x = &g->val[v];
    int k;

    if (v >= g->p->nvals || !x->k) {
        vg_fail(g, "bad mask operand");
        return 1;
    }
    if (x->reg[0] >= 0) {
        g->klocked |= 1u << x->reg[0];
        return x->reg[0];
    }
    if (x->slot[0] < 0) {
        vg_fail(g, "mask used before its definition");
        return 1;
    }
    k = alloc_kreg(g);
    kload(g, k, slot_mem(x->slot[0]));
    x->reg[0] = (int8_t)k;
    g->kowner[k] = v;
    g->klocked |= 1u << k;
    return k;
}

int vg_kdef(VGen *g, uint16_t v)
{
    VGenVal *x = &g->val[v];
    int k;

    if (x->reg[0] >= 0) {
        g->klocked |= 1u << x->reg[0];
        return x->reg[0];
    }
    k = alloc_kreg(g);
    x->reg[0] = (int8_t)k;
    g->kowner[k] = v;
    g->klocked |= 1u << k;
    return k;
}

/* After an insn: drop values past their last use; unlock. */
static void end_insn(VGen *g)
{
    for (unsigned r = 0; r < 32; r++) {
        int32_t o = g->vowner[r];
        if (o >= 0 && g->val[o >> 1].last <= g->cur) {
            VGenVal *x = &g->val[o >> 1];
            for (unsigned p = 0; p < x->nparts; p++) {
                if (x->slot[p] >= 0) {
                    g->slot_busy[x->slot[p]] = 0;
                    x->slot[p] = -1;
                }
            }
            x->reg[o & 1] = -1;
            g->vowner[r] = -1;
        }
    }
    for (unsigned k = 0; k < 8; k++) {
        int32_t o = g->kowner[k];
        if (o >= 0 && g->val[o].last <= g->cur) {
            VGenVal *x = &g->val[o];
            if (x->slot[0] >= 0) {
                g->slot_busy[x->slot[0]] = 0;
                x->slot[0] = -1;
            }
            x->reg[0] = -1;
            g->kowner[k] = -1;
        }
    }
    /* Spilled values whose last use is past. */
    for (unsigned v = 0; v < g->p->nvals; v++) {
        VGenVal *x = &g->val[v];
        if (x->last <= g->cur) {
            for (unsigned p = 0; p < 2; p++) {
                if (x->slot[p] >= 0 && x->reg[p] < 0) {
                    g->slot_busy[x->slot[p]] = 0;
                    x->slot[p] = -1;
                }
            }
        }
    }
    g->vlocked = 0;
    g->klocked = 0;
}

static void reset_alloc(VGen *g)
{
    for (unsigned i = 0; i < 32; i++) {
        g->vowner[i] = -1;
    }
    for (unsigned i = 0; i < 8; i++) {
        g->kowner[i] = -1;
    }
    for (unsigned v = 0; v < g->p->nvals; v++) {
        g->val[v].reg[0] = g->val[v].reg[1] = -1;
        g->val[v].slot[0] = g->val[v].slot[1] = -1;
    }
    memset(g->slot_busy, 0, sizeof(g->slot_busy));
    g->vlocked = g->klocked = 0;
}

void vg_save_live(VGen *g)
{
    for (unsigned r = 0; r < g->nvreg; r++) {
        if (g->vowner[r] >= 0) {
            vg_store_vec(g, (int)r, vx_mem(X86_RSP, -1, 0, VG_SAVE + 64 * (int)r));
        }
    }
    if (g->evex) {
        for (int k = 1; k < 8; k++) {
            if (g->kowner[k] >= 0 || (k == 7 && g->tail)) {
                kstore(g, k, vx_mem(X86_RSP, -1, 0, VG_KSAVE + 8 * k));
            }
        }
    }
}

void vg_restore_live(VGen *g)
{
    for (unsigned r = 0; r < g->nvreg; r++) {
        if (g->vowner[r] >= 0) {
            vg_load_vec(g, (int)r, vx_mem(X86_RSP, -1, 0, VG_SAVE + 64 * (int)r));
        }
    }
    if (g->evex) {
        for (int k = 1; k < 8; k++) {
            if (g->kowner[k] >= 0 || (k == 7 && g->tail)) {
                kload(g, k, vx_mem(X86_RSP, -1, 0, VG_KSAVE + 8 * k));
            }
        }
    }
}

void vg_call_host(VGen *g, uint64_t fn)
{
    x86_movi(g->e, X86_RAX, fn);
    x86_modrm_rr(g->e, OPC_GRP5_Ev, X86_EXT5_CALL, X86_RAX);
}

void vg_jcc_bail(VGen *g, X86Cond cc)
{
    size_t f = x86_jcc_rel32(g->e, cc);

    if (!x86_grow((void **)&g->bail_fix, &g->bail_cap, g->nbail + 1, sizeof(size_t))) {
        vg_fail(g, "out of memory");
        return;
    }
    g->bail_fix[g->nbail++] = f;
}

/* ---------------------------------------------------------------------
 * Masks and lane arrays
 * --------------------------------------------------------------------- */

/* kshiftrw k, k, imm (VEX.L0.66.0F3A.W1 30 /r ib) */
static void kshiftr(VGen *g, int d, int s, unsigned n)
{
    vx_rr(g->e, false, VX(VX_0F3A, VX_66, 1, 0x30), 0, d, 0, s, 0, false);
    x86_byte(g->e, (uint8_t)n);
}

int vg_kmask(VGen *g, uint16_t m, int part)
{
    int km;

    if (m == VEC_NONE) {
        if (!g->tail) {
            return 0;
        }
        if (part <= 0) {
            return 7;
        }
        kshiftr(g, 6, 7, g->lanes / 2);
        return 6;
    }
    km = vg_kuse(g, m);
    if (!g->tail) {
        if (part <= 0) {
            return km;
        }
        kshiftr(g, 6, km, g->lanes / 2);
        return 6;
    }
    /* kandw k6, km, k7 (VEX.L1.0F.W0 41) */
    vx_rr(g->e, false, VX(VX_0F, VX_NP, 0, 0x41), 1, 6, km, 7, 0, false);
    if (part > 0) {
        kshiftr(g, 6, 6, g->lanes / 2);
    }
    return 6;
}

bool vg_vmask(VGen *g, uint16_t m, int part, int si)
{
    int s = vg_scratch(g, si);

    if (m == VEC_NONE && !g->tail) {
        return false;
    }
    if (m == VEC_NONE) {
        vg_load_vec(g, s, vx_mem(X86_RSP, -1, 0, VG_RANGE_VEC));
    } else if (g->tail) {
        /* vpand s, m, [range] */
        vg_rm(g, VX(VX_0F, VX_66, 0, 0xdb), s, vg_use(g, m, 0),
              vx_mem(X86_RSP, -1, 0, VG_RANGE_VEC), 0, false);
    } else {
        vg_mov(g, s, vg_use(g, m, 0));
    }
    if (part >= 0) {
        if (part == 1) {
            /* vextracti128 xmm_s, ymm_s, 1 */
            vx_rr(g->e, false, VX(VX_0F3A, VX_66, 0, 0x39), VX_256, s, 0, s, 0, false);
            x86_byte(g->e, 1);
        }
        /* vpmovsxdq ymm_s, xmm_s */
        vx_rr(g->e, false, VX(VX_0F38, VX_66, 0, 0x25), VX_256, s, 0, s, 0, false);
    }
    return true;
}

void vg_lane_bits(VGen *g, uint16_t m)
{
    X86Emitter *e = g->e;

    if (m == VEC_NONE) {
        if (g->tail) {
            x86_ld(e, OPC_MOV_GvEv, VG_BITS_REG, X86_RSP, VG_RANGE_BITS);
        } else {
            x86_movi(e, VG_BITS_REG, (1u << g->lanes) - 1);
        }
        return;
    }
    if (g->evex) {
        /* kmovw r32, k (VEX.L0.0F.W0 93 /r) */
        vx_rr(e, false, VX(VX_0F, VX_NP, 0, 0x93), 0, VG_BITS_REG, 0, vg_kuse(g, m), 0, false);
    } else {
        /* vmovmskps r32, ymm (VEX.256.0F 50 /r) */
        vx_rr(e, false, VX(VX_0F, VX_NP, 0, 0x50), VX_256, VG_BITS_REG, 0, vg_use(g, m, 0), 0,
              false);
    }
    if (g->tail) {
        x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_AND), VG_BITS_REG, X86_RSP, X86_NO_REG, 0,
                      VG_RANGE_BITS);
    }
}

void vg_store_arr(VGen *g, uint16_t v, unsigned arr)
{
    for (unsigned p = 0; p < g->val[v].nparts; p++) {
        vg_store_vec(g, vg_use(g, v, (int)p),
                     vx_mem(X86_RSP, -1, 0, vg_arr(arr) + (int32_t)(p * g->vbytes)));
    }
}

void vg_load_arr(VGen *g, uint16_t v, unsigned arr)
{
    for (unsigned p = 0; p < g->val[v].nparts; p++) {
        vg_load_vec(g, vg_def(g, v, (int)p),
                    vx_mem(X86_RSP, -1, 0, vg_arr(arr) + (int32_t)(p * g->vbytes)));
    }
}

/* ---------------------------------------------------------------------
 * The function
 * --------------------------------------------------------------------- */

static const uint8_t saved_regs[] = { X86_RBX, X86_RBP, X86_R12, X86_R13, X86_R14, X86_R15 };

static bool gen_body(VGen *g, bool tail)
{
    const VecProg *p = g->p;

    g->tail = tail;
    reset_alloc(g);
    for (unsigned i = 0; i < p->n && !g->failed; i++) {
        g->cur = i;
        if (!vg_insn(g, &p->insn[i])) {
            return vg_fail(g, "unsupported instruction");
        }
        end_insn(g);
    }
    return !g->failed;
}

static bool analyse(VGen *g)
{
    const VecProg *p = g->p;

    g->val = calloc(p->nvals ? p->nvals : 1, sizeof(*g->val));
    g->uses = calloc(p->nvals ? p->nvals : 1, sizeof(*g->uses));
    g->nuses = calloc(p->nvals ? p->nvals : 1, sizeof(*g->nuses));
    if (!g->val || !g->uses || !g->nuses) {
        return vg_fail(g, "out of memory");
    }
    for (unsigned i = 0; i < p->n; i++) {
        const VecInsn *in = &p->insn[i];
        uint16_t ops[4] = { in->a, in->b, in->c, in->m };
        if (in->d != VEC_NONE) {
            VGenVal *x = &g->val[in->d];
            x->type = in->type;
            x->nparts = in->type == VT_W64 ? 2 : 1;
            x->k = in->type == VT_MASK && g->evex;
            x->last = (uint16_t)i;
        }
        for (unsigned k = 0; k < 4; k++) {
            uint16_t v = ops[k];
            if (v == VEC_NONE) {
                continue;
            }
            g->val[v].last = (uint16_t)i;
            if (g->nuses[v] == 0 || g->uses[v][g->nuses[v] - 1] != i) {
                uint16_t *u = realloc(g->uses[v], (g->nuses[v] + 1u) * sizeof(uint16_t));
                if (!u) {
                    return vg_fail(g, "out of memory");
                }
                u[g->nuses[v]++] = (uint16_t)i;
                g->uses[v] = u;
            }
        }
    }
    return true;
}

static void range_setup(VGen *g)
{
    X86Emitter *e = g->e;

    /* ecx = end - rbx (1 .. L-1); eax = (1 << ecx) - 1 */
    x86_modrm_rr(e, OPC_MOV_GvEv, X86_RCX, VG_END_REG);
    x86_modrm_rr(e, OPC_ALU_GvEv(X86_ALU_SUB), X86_RCX, VG_LANE_REG);
    x86_movi(e, X86_RAX, 1);
    x86_modrm_rr(e, OPC_SHIFT_EvCL, X86_SHIFT_SHL, X86_RAX);
    x86_modrm_rr(e, OPC_GRP1_EvIb, X86_ALU_SUB, X86_RAX);
    x86_byte(e, 1);
    x86_st(e, OPC_MOV_EvGv, X86_RAX, X86_RSP, VG_RANGE_BITS);
    if (g->evex) {
        /* kmovw k7, eax (VEX.L0.0F.W0 92 /r) */
        vx_rr(e, false, VX(VX_0F, VX_NP, 0, 0x92), 0, 7, 0, X86_RAX, 0, false);
    } else {
        static const uint32_t iota[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
        int32_t io = vg_pool(g, iota, sizeof(iota), 32);
        int s = vg_scratch(g, 0);
        /* vmovd xmm_s, ecx; vpbroadcastd ymm_s, xmm_s; vpcmpgtd s, s, [iota] */
        vx_rr(e, false, VX(VX_0F, VX_66, 0, 0x6e), VX_128, s, 0, X86_RCX, 0, false);
        vx_rr(e, false, VX(VX_0F38, VX_66, 0, 0x58), VX_256, s, 0, s, 0, false);
        vx_rm(e, false, VX(VX_0F, VX_66, 0, 0x66), VX_256, s, s, vx_mem(VG_POOL_REG, -1, 0, io), 0,
              false, false);
        vg_store_vec(g, s, vx_mem(X86_RSP, -1, 0, VG_RANGE_VEC));
    }
}

static void block_mxcsr(VGen *g)
{
    if (g->p->n) {
        for (unsigned i = 0; i < g->p->n; i++) {
            if (g->p->insn[i].op == VO_GATHER) {
                vx_stmxcsr(g->e, X86_RSP, VG_BLOCK_MXCSR);
                return;
            }
        }
    }
}

static bool gen_function(VGen *g)
{
    X86Emitter *e = g->e;
    size_t lea_fix, to_tail, to_loop, to_done, tail_skip, bail_pos, done_pos, pool_pos;

    /* prologue */
    for (unsigned i = 0; i < sizeof(saved_regs); i++) {
        x86_push(e, saved_regs[i]);
    }
    x86_mov_rr(e, VG_FRAME_REG, X86_RDI);
    x86_mov_rr(e, X86_RAX, X86_RSP);
    x86_alu_ri(e, X86_ALU_AND, X86_RSP, -64);
    x86_alu_ri(e, X86_ALU_SUB, X86_RSP, VG_FRAME);
    x86_st(e, OPC_MOV_EvGv | X86_P_W, X86_RAX, X86_RSP, VG_SAVED_RSP);
    /* lea rbp, [rip + pool] (patched below) */
    x86_byte(e, 0x48);
    x86_byte(e, OPC_LEA_GvM);
    x86_byte(e, (uint8_t)(0x00 | ((VG_POOL_REG & 7) << 3) | 5));
    lea_fix = e->pos;
    x86_u32(e, 0);
    vx_stmxcsr(e, X86_RSP, VG_HOST_MXCSR);
    x86_ld(e, OPC_MOV_GvEv, X86_RAX, VG_FRAME_REG, (int32_t)offsetof(VecFrame, mxcsr));
    x86_st(e, OPC_MOV_EvGv, X86_RAX, X86_RSP, VG_CUR_MXCSR);
    vx_ldmxcsr(e, X86_RSP, VG_CUR_MXCSR);
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, VG_LANE_REG, VG_FRAME_REG, (int32_t)offsetof(VecFrame, start));
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, VG_END_REG, VG_FRAME_REG, (int32_t)offsetof(VecFrame, end));
    x86_st(e, OPC_MOV_EvGv | X86_P_W, VG_END_REG, VG_FRAME_REG, (int32_t)offsetof(VecFrame, stop));

    /* full blocks */
    x86_align(e, 16, 0);
    {
        size_t loop_pos = e->pos;
        x86_lea(e, X86_RAX, VG_LANE_REG, X86_NO_REG, 0, (int32_t)g->lanes);
        x86_alu_rr(e, X86_ALU_CMP, X86_RAX, VG_END_REG);
        to_tail = x86_jcc_rel32(e, X86_CC_A);
        block_mxcsr(g);
        if (!gen_body(g, false)) {
            return false;
        }
        x86_alu_ri(e, X86_ALU_ADD, VG_LANE_REG, (int32_t)g->lanes);
        to_loop = x86_jmp_rel32(e);
        x86_patch_rel32(e, to_loop, loop_pos);
    }
    /* the partial block */
    x86_patch_rel32(e, to_tail, e->pos);
    x86_alu_rr(e, X86_ALU_CMP, VG_LANE_REG, VG_END_REG);
    tail_skip = x86_jcc_rel32(e, X86_CC_AE);
    range_setup(g);
    block_mxcsr(g);
    if (!gen_body(g, true)) {
        return false;
    }
    to_done = x86_jmp_rel32(e);
    /* bail-out */
    bail_pos = e->pos;
    vx_ldmxcsr(e, X86_RSP, VG_BLOCK_MXCSR);
    x86_st(e, OPC_MOV_EvGv | X86_P_W, VG_LANE_REG, VG_FRAME_REG, (int32_t)offsetof(VecFrame, stop));
    for (unsigned i = 0; i < g->nbail; i++) {
        x86_patch_rel32(e, g->bail_fix[i], bail_pos);
    }
    /* done */
    done_pos = e->pos;
    x86_patch_rel32(e, to_done, done_pos);
    x86_patch_rel32(e, tail_skip, done_pos);
    vx_stmxcsr(e, X86_RSP, VG_TMP32);
    x86_ld(e, OPC_MOV_GvEv, X86_RAX, X86_RSP, VG_TMP32);
    x86_alu_ri(e, X86_ALU_AND, X86_RAX, 0x3d);
    x86_modrm_mem(e, OPC_ALU_EvGv(X86_ALU_OR), X86_RAX, VG_FRAME_REG, X86_NO_REG, 0,
                  (int32_t)offsetof(VecFrame, flags));
    vx_ldmxcsr(e, X86_RSP, VG_HOST_MXCSR);
    vx_vzeroupper(e);
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_RSP, X86_RSP, VG_SAVED_RSP);
    for (unsigned i = sizeof(saved_regs); i-- > 0;) {
        x86_pop(e, saved_regs[i]);
    }
    x86_ret(e);
    /* pool */
    x86_align(e, 64, 0);
    pool_pos = e->pos;
    for (unsigned i = 0; i < g->pool_len; i++) {
        x86_byte(e, g->pool[i]);
    }
    x86_patch_u32(e, lea_fix, (uint32_t)(pool_pos - (lea_fix + 4)));
    return !g->failed;
}

bool vec_gen_x86(X86Emitter *e, const VecProg *p, VecIsa isa)
{
    VGen *g;
    bool ok;
    char why[160];

    if (isa == VEC_ISA_NONE || !vec_prog_check(p, why, sizeof(why))) {
        return false;
    }
    g = calloc(1, sizeof(*g));
    if (!g) {
        return false;
    }
    g->e = e;
    g->p = p;
    g->isa = isa;
    g->evex = isa == VEC_ISA_AVX512;
    g->lanes = vec_isa_lanes(isa);
    g->vl = g->evex ? VX_512 : VX_256;
    g->vbytes = g->evex ? 64 : 32;
    g->nvreg = g->evex ? 27 : 11;
    ok = analyse(g) && gen_function(g);
    if (!ok && getenv("LINX_VEC_DEBUG")) {
        fprintf(stderr, "vec_gen_x86 (%s): %s\n", vec_isa_name(isa), g->why);
    }
    for (unsigned v = 0; g->uses && v < p->nvals; v++) {
        free(g->uses[v]);
    }
    free(g->uses);
    free(g->nuses);
    free(g->val);
    free(g->bail_fix);
    free(g);
    return ok;
}

VecFn vec_gen_code(CodeBuffer *cb, const VecProg *p, VecIsa isa, void *log)
{
    size_t start = (cb->used + 63) & ~(size_t)63;
    X86Emitter e;

    if (start >= cb->size) {
        return NULL;
    }
    e = (X86Emitter){ .buf = cb->rw + start, .rx_base = (uintptr_t)cb->rx + start,
                      .cap = cb->size - start };
    if (!vec_gen_x86(&e, p, isa) || e.overflow) {
        return NULL;
    }
    cb->used = start + e.pos;
    cb->start = cb->cur = cb->used;
    cb->overflow = false;
    if (log) {
        char title[64];
        snprintf(title, sizeof(title), "vector lane program, %s", vec_isa_name(isa));
        fprintf(log, "VEC: %u insns\n", p->n);
        vec_prog_dump(p, log);
        x86_disas_code(log, title, cb->rw + start, e.pos, (uint64_t)(uintptr_t)(cb->rx + start));
    }
    return (VecFn)(uintptr_t)(cb->rx + start);
}
