/*
 * linx-difftest: differential testing of the JIT against the interpreter
 * (and of whole-block TBs against one-instruction TBs, which exercises the
 * mid-block resume path) on random valid block programs.
 *
 *   linx-difftest [-n COUNT] [-s SEED] [-v] [-l]
 *
 * -l lists the forms random bodies draw from.
 *
 * Each program is a chain of random blocks - FALL, forward COND/DIRECT,
 * counted backward COND loops, CALLs of small functions (FENTRY/FRET.STK
 * or RET blocks, fused SETRET headers) - whose bodies are random scalar
 * instructions of every class: integer (32/64-bit, 48-bit, compressed),
 * loads and stores of every addressing mode, atomics, floating point,
 * compares and SETC.  Operands are random within rules that keep the
 * program valid: x1 holds the base of a 4 KiB RAM buffer and is never
 * written, x2 a small aligned index, x3 loop counters; memory offsets are
 * aligned and in range.  The program ends with EBREAK (or an earlier
 * trap, which every run must agree on).
 *
 * The same program runs three ways - interpreter, JIT, interpreter with
 * one instruction per TB - and the final GPRs, FCSR, CARG/TGT, trap state,
 * retired-instruction count (between the two whole-block runs) and the RAM
 * buffer must match.  Exit status 1 on the first mismatch, with the seed
 * that reproduces it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"
#include "target/linx/insn-table.h"
#include "tcg/exec.h"

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x20000)
#define RAM_BASE UINT64_C(0x80000000)
#define RAM_SIZE UINT64_C(0x1000)
#define STACK_TOP UINT64_C(0x7ff00000)
#define STACK_SIZE UINT64_C(0x10000)
#define MAX_BYTES 65536
#define MAX_FIXUPS 1024
#define MAX_LABELS 512

enum {
    R_ZERO = 0, R_SP = 1, R_A0 = 2, R_RA = 10, R_S8 = 19,
    R_X0 = 20, R_BASE = 21, R_IDX = 22, R_CNT = 23,
    R_T1 = 24, R_U1 = 28, D_U = 30, D_T = 31,
};

/* ---------------------------------------------------------------------- */
/* Random numbers (xorshift*, explicit state)                              */
/* ---------------------------------------------------------------------- */

typedef struct Rng {
    uint64_t s;
} Rng;

static uint64_t rnd(Rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * UINT64_C(0x2545F4914F6CDD1D);
}

static unsigned rndn(Rng *r, unsigned n)
{
    return (unsigned)(rnd(r) % n);
}

/* ---------------------------------------------------------------------- */
/* Program builder                                                         */
/* ---------------------------------------------------------------------- */

typedef struct Fixup {
    size_t off;
    unsigned form;
    int field;
    int scale;
    unsigned label;
    uint64_t packed;
} Fixup;

typedef struct Prog {
    uint8_t buf[MAX_BYTES];
    size_t len;
    int64_t label[MAX_LABELS];
    unsigned nlabels;
    Fixup fix[MAX_FIXUPS];
    unsigned nfix;
    bool full;
} Prog;

static const LinxFormField *find_field(unsigned form, int id)
{
    const LinxFormField *f = linx_form_fields(form);

    for (unsigned i = 0; i < linx_form(form)->field_count; i++) {
        if (f[i].id == id) {
            return &f[i];
        }
    }
    return NULL;
}

static bool set_field(unsigned form, int id, int64_t v, uint64_t *packed)
{
    const LinxFormField *f = find_field(form, id);

    return f && linx_field_insert(f, v, packed);
}

static void put(Prog *p, size_t off, unsigned form, uint64_t packed)
{
    for (unsigned i = 0; i < linx_form(form)->length; i++) {
        p->buf[off + i] = (uint8_t)(packed >> (8 * i));
    }
}

static bool room(Prog *p, unsigned form)
{
    if (p->len + linx_form(form)->length + 64 > MAX_BYTES) {
        p->full = true;
        return false;
    }
    return true;
}

static void emit_packed(Prog *p, unsigned form, uint64_t packed)
{
    if (room(p, form)) {
        put(p, p->len, form, packed);
        p->len += linx_form(form)->length;
    }
}

/* emit(p, form, FIELD, value, ..., -1) with int64_t values */
static void emit(Prog *p, unsigned form, ...)
{
    uint64_t packed = linx_form(form)->match;
    va_list ap;
    int id;

    va_start(ap, form);
    while ((id = va_arg(ap, int)) >= 0) {
        int64_t v = va_arg(ap, int64_t);
        if (!set_field(form, id, v, &packed)) {
            fprintf(stderr, "difftest: %s: bad field value\n", linx_form(form)->mnemonic);
            abort();
        }
    }
    va_end(ap);
    emit_packed(p, form, packed);
}

static unsigned new_label(Prog *p)
{
    p->label[p->nlabels] = -1;
    return p->nlabels++;
}

static void bind(Prog *p, unsigned l)
{
    p->label[l] = (int64_t)p->len;
}

/* A branch-like form whose @field gets (label - pc) / scale. */
static void emit_to(Prog *p, unsigned form, int field, int scale, unsigned label)
{
    Fixup *fx;

    if (!room(p, form) || p->nfix >= MAX_FIXUPS) {
        p->full = true;
        return;
    }
    fx = &p->fix[p->nfix++];
    fx->off = p->len;
    fx->form = form;
    fx->field = field;
    fx->scale = scale;
    fx->label = label;
    fx->packed = linx_form(form)->match;
    p->len += linx_form(form)->length;
}

static bool resolve(Prog *p)
{
    for (unsigned i = 0; i < p->nfix; i++) {
        Fixup *fx = &p->fix[i];
        uint64_t packed = fx->packed;
        if (p->label[fx->label] < 0 ||
            !set_field(fx->form, fx->field, (p->label[fx->label] - (int64_t)fx->off) / fx->scale,
                       &packed)) {
            return false;
        }
        put(p, fx->off, fx->form, packed);
    }
    return true;
}

#define V(x) ((int64_t)(x))
#define END (-1)

/* ---------------------------------------------------------------------- */
/* Random instructions                                                     */
/* ---------------------------------------------------------------------- */

/* Access size of a memory form from its mnemonic, 0 if not one. */
static unsigned mem_size(const char *m)
{
    const char *p = m;

    if (!strncmp(p, "HL.", 3)) {
        p += 3;
    } else if (!strncmp(p, "C.", 2)) {
        p += 2;
    }
    if (!strncmp(p, "SWAP", 4)) {
        p += 3;
    } else if (!strncmp(p, "CAS", 3)) {
        p += 2;
    } else if (!strncmp(p, "LR.", 3) || !strncmp(p, "SC.", 3)) {
        p += 2;
    } else if (p[0] != 'L' && p[0] != 'S') {
        return 0;
    }
    switch (p[1]) {
    case 'B':
        return 1;
    case 'H':
        return 2;
    case 'W':
        return 4;
    case 'D':
        return 8;
    default:
        return 0;
    }
}

static bool is_unscaled(const char *m)
{
    return strstr(m, ".U") != NULL || strstr(m, "_U") != NULL;
}

/* The forms random bodies draw from: scalar, no control flow, no system
 * effects, no PC-relative stores (they would write the code). */
static bool body_form(unsigned f)
{
    const LinxFormInfo *fi = linx_form(f);
    const char *m = fi->mnemonic;

    if (fi->flags & (LINX_FORMF_FUSED_PAIR | LINX_FORMF_ALIAS | LINX_FORMF_EXTENSION)) {
        return false;
    }
    switch (fi->uop) {
    case LINX_UOP_ALU:
    case LINX_UOP_AGU:
    case LINX_UOP_AMO:
    case LINX_UOP_FSU:
        break;
    case LINX_UOP_BRU:
        /* compares and SETC only (no branches, no SETRET) */
        if (strncmp(m, "CMP", 3) && strncmp(m, "HL.CMP", 6) && strncmp(m, "C.CMP", 5) &&
            strncmp(m, "SETC", 4) && strncmp(m, "HL.SETC", 7) && strncmp(m, "C.SETC.E", 8) &&
            strncmp(m, "C.SETC.N", 8)) {
            return false;
        }
        break;
    default:
        return false;
    }
    /* no return-address setup, no targets, no PC-relative accesses (the
     * stores would write the code, the loads read it) */
    if (!strcmp(m, "C.SETRET") || !strcmp(m, "C.SETC.TGT") || strstr(m, ".PCR")) {
        return false;
    }
    return true;
}

static int64_t rand_imm(Rng *r, const LinxFormField *f)
{
    uint64_t v = rnd(r);
    unsigned w = f->width;

    switch (rndn(r, 4)) {
    case 0:
        v &= 3; /* small values */
        break;
    case 1:
        v = (uint64_t)-1; /* all ones: min signed / max unsigned */
        break;
    default:
        break;
    }
    if (w < 64) {
        v &= (UINT64_C(1) << w) - 1;
        if (f->is_signed && (v >> (w - 1)) & 1) {
            v |= ~((UINT64_C(1) << w) - 1);
        }
    }
    return (int64_t)v;
}

static int64_t rand_src(Rng *r)
{
    static const int8_t pool[] = { 0, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                   24, 25, 26, 27, 28, 29, 30, 31, 21, 22 };
    return pool[rndn(r, sizeof(pool))];
}

static int64_t rand_dst(Rng *r)
{
    static const int8_t pool[] = { 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                   30, 31, 31, 30, 0, 25 };
    return pool[rndn(r, sizeof(pool))];
}

/* Fill @form's fields with random values that keep it valid. */
static bool rand_insn(Rng *r, unsigned form, uint64_t *packed)
{
    const LinxFormInfo *fi = linx_form(form);
    const LinxFormField *fl = linx_form_fields(form);
    unsigned size = (fi->uop == LINX_UOP_AGU || fi->uop == LINX_UOP_AMO) ? mem_size(fi->mnemonic) : 0;
    bool mem = size != 0;
    bool store_imm_base_r = false;

    *packed = fi->match;
    if (mem) {
        /* Stores with an immediate offset keep the base in SrcR. */
        store_imm_base_r = fi->mnemonic[strncmp(fi->mnemonic, "HL.", 3) ? 0 : 3] == 'S' &&
                           (find_field(form, LINX_FLD_simm12) || find_field(form, LINX_FLD_simm22) ||
                            find_field(form, LINX_FLD_simm17)) &&
                           !find_field(form, LINX_FLD_SrcRType);
    }
    for (unsigned i = 0; i < fi->field_count; i++) {
        const LinxFormField *f = &fl[i];
        int64_t v;
        switch (f->id) {
        case LINX_FLD_RegDst:
        case LINX_FLD_RegDst0:
        case LINX_FLD_RegDst1:
            v = rand_dst(r);
            break;
        case LINX_FLD_SrcL:
            v = mem && !store_imm_base_r ? R_BASE : rand_src(r);
            if (mem && fi->uop == LINX_UOP_AMO && !strncmp(fi->mnemonic, "SC.", 3)) {
                v = rand_src(r); /* SC: SrcL is the value */
            }
            if (!strncmp(fi->mnemonic, "C.", 2) && mem) {
                v = R_BASE;
            }
            break;
        case LINX_FLD_SrcR:
            if (mem && store_imm_base_r) {
                v = R_BASE;
            } else if (mem && fi->uop == LINX_UOP_AMO && !strncmp(fi->mnemonic, "SC.", 3)) {
                v = R_BASE;
            } else if (mem && fi->uop == LINX_UOP_AGU) {
                v = R_IDX; /* index: small and aligned for every scale */
            } else {
                v = rand_src(r);
            }
            break;
        case LINX_FLD_SrcRType:
            v = mem ? 0 : (int64_t)rndn(r, 4);
            break;
        case LINX_FLD_shamt:
            v = mem ? 0 : rand_imm(r, f);
            break;
        case LINX_FLD_SrcType:
            v = rndn(r, 2);
            break;
        case LINX_FLD_DstType:
            if (!strcmp(fi->mnemonic, "FCVT") || !strcmp(fi->mnemonic, "SCVTF") ||
                !strcmp(fi->mnemonic, "UCVTF")) {
                v = rndn(r, 2);
            } else {
                static const int8_t it[] = { 0, 1, 2, 3, 8, 9, 10, 11 };
                v = it[rndn(r, sizeof(it))];
            }
            break;
        case LINX_FLD_simm12:
        case LINX_FLD_simm22:
        case LINX_FLD_simm17:
        case LINX_FLD_simm5:
            if (mem) {
                /* aligned EA inside the buffer: offset in elements, or
                 * bytes that are a multiple of the size (.U) */
                v = (int64_t)rndn(r, 16);
                if (is_unscaled(fi->mnemonic)) {
                    v *= size;
                }
            } else {
                v = rand_imm(r, f);
            }
            break;
        default:
            v = rand_imm(r, f);
            break;
        }
        if (!linx_field_insert(f, v, packed)) {
            return false;
        }
    }
    return linx_form_constraints_ok(form, *packed);
}

/* ---------------------------------------------------------------------- */
/* Programs                                                                */
/* ---------------------------------------------------------------------- */

typedef struct Gen {
    Rng rng;
    Prog *p;
    unsigned forms[LINX_F__COUNT];
    unsigned nforms;
    unsigned func_label[4];
    unsigned nfuncs;
} Gen;

/* A faulting instruction: the runs must agree on the precise trap state. */
static void emit_fault(Gen *g)
{
    Prog *p = g->p;

    switch (rndn(&g->rng, 4)) {
    case 0: /* misaligned */
        emit(p, LINX_F_LWI_U, LINX_FLD_SrcL, V(R_BASE), LINX_FLD_simm12, V(2 * rndn(&g->rng, 2) + 1),
             LINX_FLD_RegDst, V(5), END);
        break;
    case 1: /* unmapped load */
        emit(p, LINX_F_LDI, LINX_FLD_SrcL, V(R_ZERO), LINX_FLD_simm12, V(rndn(&g->rng, 64)),
             LINX_FLD_RegDst, V(6), END);
        break;
    case 2: /* unmapped store */
        emit(p, LINX_F_SWI, LINX_FLD_SrcL, V(R_A0), LINX_FLD_SrcR, V(R_ZERO), LINX_FLD_simm12,
             V(rndn(&g->rng, 64)), END);
        break;
    default:
        emit(p, LINX_F_EBREAK, LINX_FLD_imm4, V(1 + rndn(&g->rng, 15)), END);
        break;
    }
}

static void emit_body(Gen *g, unsigned n)
{
    for (unsigned i = 0; i < n && !g->p->full; i++) {
        uint64_t packed;
        unsigned form;
        unsigned tries = 0;
        if (rndn(&g->rng, 500) == 0) {
            emit_fault(g);
            continue;
        }
        do {
            form = g->forms[rndn(&g->rng, g->nforms)];
        } while (!rand_insn(&g->rng, form, &packed) && ++tries < 8);
        if (tries < 8) {
            emit_packed(g->p, form, packed);
        }
    }
}

static void emit_li(Prog *p, unsigned reg, int64_t v)
{
    emit(p, LINX_F_HL_LIS, LINX_FLD_RegDst, V(reg), LINX_FLD_simm32, V((int32_t)v), END);
}

static void emit_setc(Gen *g)
{
    static const unsigned setc[] = {
        LINX_F_SETC_EQ, LINX_F_SETC_NE, LINX_F_SETC_LT, LINX_F_SETC_GE, LINX_F_SETC_LTU,
        LINX_F_SETC_GEU, LINX_F_SETC_AND, LINX_F_SETC_OR, LINX_F_SETC_EQI, LINX_F_SETC_LTUI,
        LINX_F_HL_SETC_NEI, LINX_F_C_SETC_EQ, LINX_F_C_SETC_NE,
    };
    uint64_t packed;
    unsigned form = setc[rndn(&g->rng, sizeof(setc) / sizeof(setc[0]))];

    if (rand_insn(&g->rng, form, &packed)) {
        emit_packed(g->p, form, packed);
    }
}

/* One random block (its marker and body). */
static void emit_block(Gen *g, unsigned *pending_labels, unsigned *npending)
{
    Prog *p = g->p;
    Rng *r = &g->rng;
    unsigned kind = rndn(r, 10);
    unsigned n = 1 + rndn(r, 12);

    if (kind <= 3) { /* FALL */
        static const unsigned fall[] = { LINX_F_C_BSTART_STD, LINX_F_BSTART_STD_FALL,
                                         LINX_F_HL_BSTART_STD_FALL, LINX_F_BSTART_FP_FALL };
        unsigned f = fall[rndn(r, 4)];
        if (f == LINX_F_C_BSTART_STD) {
            emit(p, f, LINX_FLD_BrType, V(LINX_BR_FALL), END);
        } else {
            emit(p, f, END);
        }
        emit_body(g, n);
    } else if (kind <= 5) { /* forward COND */
        unsigned l = new_label(p);
        emit_to(p, LINX_F_BSTART_COND, LINX_FLD_simm25, 2, l);
        emit_body(g, n);
        emit_setc(g);
        pending_labels[(*npending)++] = l;
    } else if (kind == 6) { /* counted loop: x3 iterations */
        unsigned l = new_label(p);
        emit(p, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
        emit_li(p, R_CNT, 1 + rndn(r, 4));
        bind(p, l);
        emit_to(p, LINX_F_BSTART_COND, LINX_FLD_simm25, 2, l);
        emit_body(g, n);
        emit(p, LINX_F_SUBI, LINX_FLD_RegDst, V(R_CNT), LINX_FLD_SrcL, V(R_CNT), LINX_FLD_uimm12,
             V(1), END);
        emit(p, LINX_F_SETC_NE, LINX_FLD_SrcL, V(R_CNT), LINX_FLD_SrcR, V(R_ZERO), END);
    } else if (kind == 7 && g->nfuncs) { /* call */
        unsigned ret = new_label(p);
        emit_to(p, LINX_F_BSTART_DIRECT, LINX_FLD_simm25, 2, g->func_label[rndn(r, g->nfuncs)]);
        emit_to(p, LINX_F_HL_SETRET, LINX_FLD_imm32, 2, ret);
        emit_body(g, rndn(r, 4));
        bind(p, ret);
    } else if (kind == 8) { /* forward DIRECT over a skipped block */
        unsigned l = new_label(p);
        emit_to(p, LINX_F_C_BSTART_DIRECT, LINX_FLD_simm12, 2, l);
        emit_body(g, n);
        emit(p, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
        emit_body(g, n);
        bind(p, l);
    } else {
        emit(p, LINX_F_BSTART_STD_FALL, END);
        emit_body(g, n);
    }
    /* Forward COND targets land on the next marker. */
    if (*npending && rndn(r, 2)) {
        bind(p, pending_labels[--(*npending)]);
    }
}

static bool gen_program(Gen *g, uint64_t seed)
{
    Prog *p = g->p;
    unsigned pending[64];
    unsigned npending = 0;
    unsigned main_l;

    memset(p, 0, sizeof(*p));
    g->rng.s = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
    g->nfuncs = 0;
    main_l = new_label(p);
    /* entry: jump over the functions */
    emit_to(p, LINX_F_BSTART_DIRECT, LINX_FLD_simm25, 2, main_l);
    emit(p, LINX_F_C_BSTOP, END);
    for (unsigned f = 0; f < 3; f++) {
        unsigned l = new_label(p);
        bind(p, l);
        g->func_label[g->nfuncs++] = l;
        if (f == 0) {
            emit(p, LINX_F_FENTRY, LINX_FLD_SrcBegin, V(R_RA), LINX_FLD_SrcEnd, V(12),
                 LINX_FLD_uimm, V(32), END);
            emit(p, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
            emit_body(g, 6);
            emit(p, LINX_F_FRET_STK, LINX_FLD_DstBegin, V(R_RA), LINX_FLD_DstEnd, V(12),
                 LINX_FLD_uimm, V(32), END);
        } else {
            emit(p, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
            emit_body(g, 5);
            emit(p, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_RET), END);
            emit(p, LINX_F_C_SETC_TGT, LINX_FLD_SrcL, V(R_RA), END);
            emit(p, LINX_F_C_BSTOP, END);
        }
    }
    bind(p, main_l);
    emit(p, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
    emit(p, LINX_F_HL_LIU, LINX_FLD_RegDst, V(R_BASE), LINX_FLD_uimm32, V(RAM_BASE), END);
    emit_li(p, R_IDX, 8);
    for (unsigned reg = R_A0; reg <= R_S8; reg++) {
        if (reg != R_RA) {
            emit_li(p, reg, (int64_t)rnd(&g->rng));
        }
    }
    for (unsigned b = 0; b < 6 + rndn(&g->rng, 10) && !p->full; b++) {
        emit_block(g, pending, &npending);
    }
    /* Close outstanding forward targets at the final block. */
    emit(p, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
    while (npending) {
        bind(p, pending[--npending]);
    }
    emit(p, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
    emit(p, LINX_F_EBREAK, LINX_FLD_imm4, V(0), END);
    return !p->full && resolve(p);
}

/* ---------------------------------------------------------------------- */
/* Running and comparing                                                   */
/* ---------------------------------------------------------------------- */

typedef struct Result {
    uint64_t gpr[LINX_NUM_GPRS];
    uint64_t fcsr, carg, tgt, insn_count, trapno, traparg0, trap_pc, pc;
    int excp;
    uint8_t ram[RAM_SIZE];
} Result;

typedef struct Runner {
    LinxExecContext *ec;
    CPULinxState *env;
    LinxAccel accel;
    bool one_insn;
} Runner;

static bool runner_init(Runner *rn, LinxAccel accel, bool one_insn)
{
    LinxExecOptions opts;
    char err[256];

    linx_exec_options_init(&opts);
    opts.accel = accel;
    opts.one_insn_per_tb = one_insn;
    opts.trace_commit_path = NULL;
    rn->ec = linx_exec_new(&opts, err, sizeof(err));
    rn->env = calloc(1, sizeof(CPULinxState));
    rn->accel = accel;
    rn->one_insn = one_insn;
    if (!rn->ec || !rn->env) {
        fprintf(stderr, "difftest: %s\n", rn->ec ? "out of memory" : err);
        return false;
    }
    return true;
}

static bool run_prog(Runner *rn, const Prog *p, Result *res)
{
    GuestMemory *gm = guest_mem_new(UINT64_C(1) << 40);
    CPULinxState *env = rn->env;
    LinxExecContext *ec = rn->ec;
    uint8_t zero[RAM_SIZE];

    memset(zero, 0, sizeof(zero));
    if (!gm || !guest_mem_map(gm, CODE_BASE, CODE_SIZE, GM_PROT_READ | GM_PROT_EXEC, false) ||
        !guest_mem_map(gm, RAM_BASE, RAM_SIZE, GM_PROT_READ | GM_PROT_WRITE, false) ||
        !guest_mem_map(gm, STACK_TOP - STACK_SIZE, STACK_SIZE, GM_PROT_READ | GM_PROT_WRITE,
                       false) ||
        guest_mem_debug_rw(gm, CODE_BASE, (void *)p->buf, p->len, true) != GM_OK) {
        fprintf(stderr, "difftest: cannot set up memory\n");
        return false;
    }
    memset(env, 0, sizeof(*env));
    env->mem = gm;
    linx_cpu_reset(env, CODE_BASE, 0);
    env->gpr[R_SP] = STACK_TOP;
    env->exec = ec;
    linx_exec_attach_cpu(ec, env);
    linx_tb_flush(env);
    res->excp = cpu_exec(env);
    memcpy(res->gpr, env->gpr, sizeof(res->gpr));
    res->fcsr = env->fcsr;
    res->carg = env->carg;
    res->tgt = env->tgt;
    res->insn_count = env->insn_count;
    res->trapno = env->trapno;
    res->traparg0 = env->traparg0;
    res->trap_pc = env->trap_pc;
    res->pc = env->pc;
    guest_mem_read(gm, RAM_BASE, res->ram, RAM_SIZE, GM_PROT_READ, NULL);
    linx_exec_detach_cpu(ec, env);
    guest_mem_free(gm);
    return true;
}

static void runner_free(Runner *rn)
{
    if (rn->ec) {
        linx_exec_free(rn->ec);
    }
    free(rn->env);
}

static bool compare(const char *what, const Result *a, const Result *b, bool counts)
{
    bool ok = true;

#define CMP(field)                                                                        \
    if (a->field != b->field) {                                                          \
        fprintf(stderr, "  %s: " #field " 0x%" PRIx64 " vs 0x%" PRIx64 "\n", what,         \
                (uint64_t)a->field, (uint64_t)b->field);                                 \
        ok = false;                                                                      \
    }
    CMP(excp);
    CMP(trapno);
    CMP(traparg0);
    CMP(trap_pc);
    CMP(pc);
    CMP(fcsr);
    if (counts) {
        CMP(insn_count);
    }
#undef CMP
    for (unsigned i = 0; i < LINX_NUM_GPRS; i++) {
        if (a->gpr[i] != b->gpr[i]) {
            fprintf(stderr, "  %s: r%u 0x%" PRIx64 " vs 0x%" PRIx64 "\n", what, i, a->gpr[i],
                    b->gpr[i]);
            ok = false;
        }
    }
    for (unsigned i = 0; i < RAM_SIZE; i++) {
        if (a->ram[i] != b->ram[i]) {
            fprintf(stderr, "  %s: RAM[0x%x] 0x%02x vs 0x%02x\n", what, i, a->ram[i], b->ram[i]);
            ok = false;
            break;
        }
    }
    return ok;
}

int main(int argc, char **argv)
{
    unsigned count = 1000;
    uint64_t seed0 = 1;
    bool verbose = false, list = false;
    static Prog prog;
    static Result res[3];
    Gen g;
    Runner rn[3];
    unsigned traps = 0, ran = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            count = (unsigned)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            seed0 = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "-v")) {
            verbose = true;
        } else if (!strcmp(argv[i], "-l")) {
            list = true;
        } else {
            fprintf(stderr, "usage: linx-difftest [-n COUNT] [-s SEED] [-v] [-l]\n");
            return 2;
        }
    }
    memset(&g, 0, sizeof(g));
    g.p = &prog;
    for (unsigned f = 0; f < LINX_F__COUNT; f++) {
        if (body_form(f)) {
            g.forms[g.nforms++] = f;
            if (list) {
                printf("%s\n", linx_form(f)->mnemonic);
            }
        }
    }
    if (list) {
        return 0;
    }
    if (!runner_init(&rn[0], LINX_ACCEL_INTERP, false) ||
        !runner_init(&rn[1], LINX_ACCEL_JIT, false) ||
        !runner_init(&rn[2], LINX_ACCEL_INTERP, true)) {
        return 1;
    }
    for (unsigned i = 0; i < count; i++) {
        uint64_t seed = seed0 + i;
        if (!gen_program(&g, seed)) {
            continue;
        }
        for (unsigned k = 0; k < 3; k++) {
            if (!run_prog(&rn[k], &prog, &res[k])) {
                return 1;
            }
        }
        ran++;
        traps += (res[0].trapno & 0x3f) != LINX_TRAP_SW_BREAKPOINT;
        if (!compare("interp vs jit", &res[0], &res[1], true) |
            !compare("blocks vs one-insn", &res[0], &res[2], false)) {
            fprintf(stderr, "difftest: mismatch for seed %" PRIu64 " (%zu bytes of code)\n", seed,
                    prog.len);
            return 1;
        }
        if (verbose) {
            printf("seed %" PRIu64 ": %zu bytes, %" PRIu64 " insns, trap %u\n", seed, prog.len,
                   res[0].insn_count, (unsigned)(res[0].trapno & 0x3f));
        }
    }
    for (unsigned k = 0; k < 3; k++) {
        runner_free(&rn[k]);
    }
    printf("difftest: %u programs agree (%u of them ended in a fault), %u forms\n",
           ran, traps, g.nforms);
    return 0;
}
