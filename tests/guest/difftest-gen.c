/*
 * Random valid LinxISA programs as assembly text (difftest-gen.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "difftest-gen.h"
#include "target/linx/cpu.h"
#include "target/linx/decode.h"
#include "target/linx/disas.h"
#include "target/linx/insn-table.h"

enum {
    R_ZERO = 0,
    R_SP = 1,
    R_A0 = 2,
    R_RA = 10,
    R_S8 = 19,
    R_BASE = 21,
    R_IDX = 22,
    R_CNT = 23,
};

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

typedef struct Gen {
    Rng rng;
    DtProgram *p;
    DtGenOptions opt;
    unsigned forms[LINX_F__COUNT];
    unsigned nforms;
    unsigned labels;
    unsigned func[3];
    unsigned nfuncs;
} Gen;

/* ---- lines --------------------------------------------------------------- */

static void line(Gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(Gen *g, const char *fmt, ...)
{
    DtProgram *p = g->p;
    char buf[LINX_DISAS_MAX + 64];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 256;
        p->line = realloc(p->line, p->cap * sizeof(char *));
        p->keep = realloc(p->keep, p->cap * sizeof(bool));
        if (!p->line || !p->keep) {
            abort();
        }
    }
    p->line[p->n] = strdup(buf);
    p->keep[p->n++] = true;
}

static unsigned new_label(Gen *g)
{
    return g->labels++;
}

static void bind(Gen *g, unsigned l)
{
    line(g, "L%u:", l);
}

/* The disassembly of one packed instruction (position independent: no
 * PC-relative form gets here). */
static void line_packed(Gen *g, unsigned form, uint64_t packed)
{
    uint8_t bytes[8];
    char text[LINX_DISAS_MAX];
    LinxInsn insn;
    unsigned len = linx_form(form)->length;

    for (unsigned i = 0; i < len; i++) {
        bytes[i] = (uint8_t)(packed >> (8 * i));
    }
    if (linx_decode(bytes, len, &insn) != LINX_DECODE_OK) {
        return;
    }
    linx_disas_insn(&insn, DT_CODE_BASE, NULL, text, sizeof(text));
    line(g, "    %s", text);
}

/* ---- catalog forms ----------------------------------------------------- */

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

/* emit(g, form, FIELD, value, ..., -1) with int64_t values */
static void emit(Gen *g, unsigned form, ...)
{
    uint64_t packed = linx_form(form)->match;
    va_list ap;
    int id;

    va_start(ap, form);
    while ((id = va_arg(ap, int)) >= 0) {
        int64_t v = va_arg(ap, int64_t);
        const LinxFormField *f = find_field(form, id);
        if (!f || !linx_field_insert(f, v, &packed)) {
            fprintf(stderr, "difftest: %s: bad field value\n", linx_form(form)->mnemonic);
            abort();
        }
    }
    va_end(ap);
    line_packed(g, form, packed);
}

#define V(x) ((int64_t)(x))
#define END (-1)

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

/* Scalar, no control flow, no system effects, no PC-relative accesses. */
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
        if (strncmp(m, "CMP", 3) && strncmp(m, "HL.CMP", 6) && strncmp(m, "C.CMP", 5) &&
            strncmp(m, "SETC", 4) && strncmp(m, "HL.SETC", 7) && strncmp(m, "C.SETC.E", 8) &&
            strncmp(m, "C.SETC.N", 8)) {
            return false;
        }
        break;
    default:
        return false;
    }
    if (!strcmp(m, "C.SETRET") || !strcmp(m, "C.SETC.TGT") || strstr(m, ".PCR")) {
        return false;
    }
    return true;
}

unsigned difftest_body_forms(unsigned *forms, unsigned max)
{
    unsigned n = 0;

    for (unsigned f = 0; f < LINX_F__COUNT && n < max; f++) {
        if (body_form(f)) {
            forms[n++] = f;
        }
    }
    return n;
}

static int64_t rand_imm(Rng *r, const LinxFormField *f)
{
    uint64_t v = rnd(r);
    unsigned w = f->width;

    switch (rndn(r, 4)) {
    case 0:
        v &= 3;
        break;
    case 1:
        v = (uint64_t)-1;
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
    static const int8_t pool[] = { 0,  2,  3,  4,  5,  6,  7,  8,  9,  11, 12, 13, 14, 15,
                                   16, 17, 18, 19, 24, 25, 26, 27, 28, 29, 30, 31, 21, 22 };
    return pool[rndn(r, sizeof(pool))];
}

static int64_t rand_dst(Rng *r)
{
    static const int8_t pool[] = { 2,  3,  4,  5,  6,  7,  8,  9,  11, 12, 13, 14,
                                   15, 16, 17, 18, 19, 30, 31, 31, 30, 0,  25 };
    return pool[rndn(r, sizeof(pool))];
}

/* Fill @form's fields with random values that keep it valid. */
static bool rand_insn(Rng *r, unsigned form, uint64_t *packed)
{
    const LinxFormInfo *fi = linx_form(form);
    const LinxFormField *fl = linx_form_fields(form);
    unsigned size =
        (fi->uop == LINX_UOP_AGU || fi->uop == LINX_UOP_AMO) ? mem_size(fi->mnemonic) : 0;
    bool mem = size != 0;
    bool store_imm_base_r = false;

    *packed = fi->match;
    if (mem) {
        store_imm_base_r =
            fi->mnemonic[strncmp(fi->mnemonic, "HL.", 3) ? 0 : 3] == 'S' &&
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
                v = rand_src(r);
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
                v = R_IDX;
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

/* ---- scalar blocks --------------------------------------------------------- */

static void emit_fault(Gen *g)
{
    switch (rndn(&g->rng, 4)) {
    case 0: /* misaligned */
        emit(g, LINX_F_LWI_U, LINX_FLD_SrcL, V(R_BASE), LINX_FLD_simm12,
             V(2 * rndn(&g->rng, 2) + 1), LINX_FLD_RegDst, V(5), END);
        break;
    case 1: /* unmapped load */
        emit(g, LINX_F_LDI, LINX_FLD_SrcL, V(R_ZERO), LINX_FLD_simm12, V(rndn(&g->rng, 64)),
             LINX_FLD_RegDst, V(6), END);
        break;
    case 2: /* unmapped store */
        emit(g, LINX_F_SWI, LINX_FLD_SrcL, V(R_A0), LINX_FLD_SrcR, V(R_ZERO), LINX_FLD_simm12,
             V(rndn(&g->rng, 64)), END);
        break;
    default:
        emit(g, LINX_F_EBREAK, LINX_FLD_imm4, V(1 + rndn(&g->rng, 15)), END);
        break;
    }
}

static void emit_body(Gen *g, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint64_t packed;
        unsigned form, tries = 0;
        if (rndn(&g->rng, 500) == 0) {
            emit_fault(g);
            continue;
        }
        do {
            form = g->forms[rndn(&g->rng, g->nforms)];
        } while (!rand_insn(&g->rng, form, &packed) && ++tries < 8);
        if (tries < 8) {
            line_packed(g, form, packed);
        }
    }
}

static void emit_li(Gen *g, unsigned reg, int64_t v)
{
    emit(g, LINX_F_HL_LIS, LINX_FLD_RegDst, V(reg), LINX_FLD_simm32, V((int32_t)v), END);
}

static void emit_setc(Gen *g)
{
    static const unsigned setc[] = {
        LINX_F_SETC_EQ,     LINX_F_SETC_NE,   LINX_F_SETC_LT,   LINX_F_SETC_GE,  LINX_F_SETC_LTU,
        LINX_F_SETC_GEU,    LINX_F_SETC_AND,  LINX_F_SETC_OR,   LINX_F_SETC_EQI, LINX_F_SETC_LTUI,
        LINX_F_HL_SETC_NEI, LINX_F_C_SETC_EQ, LINX_F_C_SETC_NE,
    };
    uint64_t packed;
    unsigned form = setc[rndn(&g->rng, sizeof(setc) / sizeof(setc[0]))];

    if (rand_insn(&g->rng, form, &packed)) {
        line_packed(g, form, packed);
    }
}

static void fall_marker(Gen *g)
{
    static const unsigned fall[] = { LINX_F_C_BSTART_STD, LINX_F_BSTART_STD_FALL,
                                     LINX_F_HL_BSTART_STD_FALL, LINX_F_BSTART_FP_FALL };
    unsigned f = fall[rndn(&g->rng, 4)];

    if (f == LINX_F_C_BSTART_STD) {
        emit(g, f, LINX_FLD_BrType, V(LINX_BR_FALL), END);
    } else {
        emit(g, f, END);
    }
}

/* ---- tile blocks ----------------------------------------------------------- */

/* A TMA TLOAD or TSTORE header on the RAM buffer, legal (NORM layout,
 * shapes that fit the tile) or not (zero or too wide dimensions, bad data
 * types and tile sizes, a missing B.ARG or B.IOR, conversions with shapes
 * their rules may refuse): the runs must agree on the tile contents
 * written back and on the trap. */
static void emit_tile_block(Gen *g)
{
    static const char *const legal_dt[] = { "FP32", "FP16", "INT8", "INT32", "BF16" };
    static const char *const bad_dt[] = { "FP4", "FP64" };
    static const char *const convs[] = { "ND2NZ", "ND2ZN", "DN2NZ", "DN2ZN" };
    static const char *const bad_sizes[] = { "512B", "256B" };
    Rng *r = &g->rng;
    unsigned what = rndn(r, 10) == 0 ? rndn(r, 7) : 99; /* 99: legal */
    const char *dt = what == 0 ? bad_dt[rndn(r, 2)] : legal_dt[rndn(r, 5)];
    unsigned lb0 = what == 1 ? 0 : 1 + rndn(r, 16);
    unsigned lb1 = 1 + rndn(r, 16);
    const char *size = what == 2 ? bad_sizes[rndn(r, 2)] : "4KB";
    bool store = rndn(r, 3) == 0;

    if (store) { /* a tile to store: load one first */
        line(g, "    BSTART.TMA TLOAD, FP32");
        line(g, "    B.ARG NORM");
        line(g, "    C.B.DIMI 16, ->lb0");
        line(g, "    C.B.DIMI 16, ->lb1");
        line(g, "    B.IOR [x1],[]");
        line(g, "    B.IOTI [], last ->t<4KB>");
    }
    line(g, "    BSTART.TMA %s, %s", store ? "TSTORE" : "TLOAD", dt);
    if (what == 6) {
        line(g, "    B.ARG %s", convs[rndn(r, 4)]);
    } else if (what != 3) {
        line(g, "    B.ARG NORM");
    }
    line(g, "    C.B.DIMI %u, ->lb0", lb0);
    line(g, "    C.B.DIMI %u, ->lb1", lb1);
    if (what == 4) {
        line(g, "    B.DIM zero, %u, ->lb2", 2048 + rndn(r, 100));
    } else if (rndn(r, 2)) {
        line(g, "    B.DIM zero, %u, ->lb2", lb0 + rndn(r, 8));
    }
    if (what != 5) {
        line(g, "    B.IOR [x1],[]");
    }
    if (store) {
        line(g, "    B.IOTI [t#1], last ->t<%s>", size);
    } else {
        line(g, "    B.IOTI [], last ->t<%s>", size);
    }
}

/* ---- MPAR / MSEQ kernels ----------------------------------------------------- */

static void ksrc(Gen *g, char *out, size_t cap)
{
    static const char *const src[] = { "vt#1", "vt#2", "vu#1", "vu#2", "ri0",
                                       "ri1",  "lc0",  "zero", "t#1",  "vm#1" };
    static const char *const ty[] = { ".ud", ".sd", ".uw", ".sw", ".uh", ".sh", ".ub", ".sb" };

    snprintf(out, cap, "%s%s", src[rndn(&g->rng, 10)], ty[rndn(&g->rng, 8)]);
}

static const char *kdst(Gen *g)
{
    static const char *const d[] = { "->vt.d", "->vu.w", "->vm.d", "->vt.sw", "->vu.sh", "->vn.d" };
    return d[rndn(&g->rng, 6)];
}

static void kernel_op(Gen *g)
{
    static const char *const rr[] = { "add", "sub", "and", "or",  "xor", "sll",
                                      "srl", "sra", "mul", "max", "min" };
    static const char *const cmp[] = { "eq", "ne", "lt", "ge", "ltu", "geu" };
    char a[32], b[32], c[32];
    Rng *r = &g->rng;

    ksrc(g, a, sizeof(a));
    ksrc(g, b, sizeof(b));
    ksrc(g, c, sizeof(c));
    switch (rndn(r, 9)) {
    case 0:
    case 1:
    case 2:
        line(g, "    v.%s %s, %s, %s", rr[rndn(r, 11)], a, b, kdst(g));
        break;
    case 3:
        line(g, "    v.addi %s, %u, %s", a, rndn(r, 200), kdst(g));
        break;
    case 4:
        line(g, "    v.cmp.%s %s, %s, ->p", cmp[rndn(r, 6)], a, b);
        break;
    case 5:
        line(g, "    v.csel %s, %s, %s, %s", a, b, c, kdst(g));
        break;
    case 6:
        line(g, "    v.ldi.brg [ri0, lc0<<3, %u], ->vt.d", 8 * rndn(r, 64));
        break;
    case 7:
        line(g, "    v.sdi.brg %s, [ri0, lc0<<3, %u]", a, 8 * (64 + rndn(r, 256)));
        break;
    default:
        line(g, "    v.%s %s, ->t.d", rndn(r, 2) ? "rdadd" : "rdxor", a);
        break;
    }
}

static void emit_kernel_block(Gen *g)
{
    Rng *r = &g->rng;
    unsigned body = new_label(g), after = new_label(g);
    unsigned n = 1 + rndn(r, 10);

    line(g, "    %s VS16", rndn(r, 2) ? "BSTART.MPAR" : "BSTART.MSEQ");
    line(g, "    B.TEXT L%u", body);
    line(g, "    B.IOR [x1, x2],[]");
    line(g, "    C.B.DIMI %u, ->lb0", rndn(r, 12) == 0 ? 0 : 1 + rndn(r, 32));
    if (rndn(r, 3) == 0) {
        line(g, "    C.B.DIMI %u, ->lb1", rndn(r, 3));
    }
    line(g, "    C.BSTART DIRECT, L%u", after);
    line(g, "    C.BSTOP");
    bind(g, body);
    for (unsigned i = 0; i < n; i++) {
        if (rndn(r, 40) == 0) {
            line(g, "    v.lw.brg [ri0, lc0.ud<<22], ->vt.w"); /* faults beyond a lane */
        }
        kernel_op(g);
    }
    line(g, "    C.BSTOP");
    bind(g, after);
}

/* ---- programs ------------------------------------------------------------- */

static void emit_block(Gen *g, unsigned *pending, unsigned *npending)
{
    Rng *r = &g->rng;
    unsigned kind = rndn(r, 12);
    unsigned n = 1 + rndn(r, 12);

    if (kind == 10 && g->opt.tiles) {
        emit_tile_block(g);
    } else if (kind == 11 && g->opt.kernels) {
        emit_kernel_block(g);
    } else if (kind <= 3) { /* FALL */
        fall_marker(g);
        emit_body(g, n);
    } else if (kind <= 5) { /* forward COND */
        unsigned l = new_label(g);
        line(g, "    BSTART.STD COND, L%u", l);
        emit_body(g, n);
        emit_setc(g);
        if (*npending < 64) {
            pending[(*npending)++] = l;
        } else {
            bind(g, l); /* (unreachable: too many open targets) */
        }
    } else if (kind == 6) { /* counted loop */
        unsigned l = new_label(g);
        emit(g, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
        emit_li(g, R_CNT, 1 + rndn(r, 4));
        bind(g, l);
        line(g, "    BSTART.STD COND, L%u", l);
        emit_body(g, n);
        emit(g, LINX_F_SUBI, LINX_FLD_RegDst, V(R_CNT), LINX_FLD_SrcL, V(R_CNT), LINX_FLD_uimm12,
             V(1), END);
        emit(g, LINX_F_SETC_NE, LINX_FLD_SrcL, V(R_CNT), LINX_FLD_SrcR, V(R_ZERO), END);
    } else if (kind == 7 && g->nfuncs) { /* call */
        unsigned ret = new_label(g);
        line(g, "    BSTART.STD CALL, L%u", g->func[rndn(r, g->nfuncs)]);
        line(g, "    hl.setret L%u, ->ra", ret);
        emit_body(g, rndn(r, 4));
        bind(g, ret);
    } else if (kind == 8) { /* forward DIRECT over a skipped block */
        unsigned l = new_label(g);
        line(g, "    C.BSTART DIRECT, L%u", l);
        emit_body(g, n);
        emit(g, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
        emit_body(g, n);
        bind(g, l);
    } else {
        emit(g, LINX_F_BSTART_STD_FALL, END);
        emit_body(g, n);
    }
    /* Forward COND targets land on the next marker. */
    if (*npending && rndn(r, 2)) {
        bind(g, pending[--(*npending)]);
    }
}

void difftest_gen(DtProgram *p, uint64_t seed, const DtGenOptions *o)
{
    Gen *g = calloc(1, sizeof(*g));
    unsigned pending[64], npending = 0;
    unsigned main_l;

    if (!g) {
        abort();
    }
    memset(p, 0, sizeof(*p));
    g->p = p;
    g->opt = o ? *o : (DtGenOptions){ true, true };
    g->rng.s = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
    g->nforms = difftest_body_forms(g->forms, LINX_F__COUNT);
    line(g, "    .text");
    line(g, "    .globl _start");
    line(g, "_start:");
    main_l = new_label(g);
    line(g, "    BSTART.STD DIRECT, L%u", main_l);
    line(g, "    C.BSTOP");
    for (unsigned f = 0; f < 3; f++) {
        unsigned l = new_label(g);
        bind(g, l);
        g->func[g->nfuncs++] = l;
        if (f == 0) {
            emit(g, LINX_F_FENTRY, LINX_FLD_SrcBegin, V(R_RA), LINX_FLD_SrcEnd, V(12),
                 LINX_FLD_uimm, V(32), END);
            emit(g, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
            emit_body(g, 6);
            emit(g, LINX_F_FRET_STK, LINX_FLD_DstBegin, V(R_RA), LINX_FLD_DstEnd, V(12),
                 LINX_FLD_uimm, V(32), END);
        } else {
            emit(g, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
            emit_body(g, 5);
            emit(g, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_RET), END);
            emit(g, LINX_F_C_SETC_TGT, LINX_FLD_SrcL, V(R_RA), END);
            emit(g, LINX_F_C_BSTOP, END);
        }
    }
    bind(g, main_l);
    emit(g, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
    emit(g, LINX_F_HL_LIU, LINX_FLD_RegDst, V(R_BASE), LINX_FLD_uimm32, V(DT_RAM_BASE), END);
    emit_li(g, R_IDX, 8);
    for (unsigned reg = R_A0; reg <= R_S8; reg++) {
        if (reg != R_RA) {
            emit_li(g, reg, (int64_t)rnd(&g->rng));
        }
    }
    for (unsigned b = 0, nb = 6 + rndn(&g->rng, 10); b < nb; b++) {
        emit_block(g, pending, &npending);
    }
    emit(g, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
    while (npending) {
        bind(g, pending[--npending]);
    }
    emit(g, LINX_F_C_BSTART_STD, LINX_FLD_BrType, V(LINX_BR_FALL), END);
    line(g, "    ebreak 0");
    line(g, "    C.BSTOP");
    free(g);
}

void difftest_program_free(DtProgram *p)
{
    for (unsigned i = 0; i < p->n; i++) {
        free(p->line[i]);
    }
    free(p->line);
    free(p->keep);
    memset(p, 0, sizeof(*p));
}

char *difftest_program_text(const DtProgram *p)
{
    size_t len = 1;
    char *t, *q;

    for (unsigned i = 0; i < p->n; i++) {
        len += p->keep[i] ? strlen(p->line[i]) + 1 : 0;
    }
    t = q = malloc(len);
    if (!t) {
        abort();
    }
    for (unsigned i = 0; i < p->n; i++) {
        if (p->keep[i]) {
            size_t n = strlen(p->line[i]);
            memcpy(q, p->line[i], n);
            q[n] = '\n';
            q += n + 1;
        }
    }
    *q = 0;
    return t;
}

bool difftest_line_droppable(const DtProgram *p, unsigned i)
{
    const char *l = p->line[i];
    size_t n = strlen(l);

    if (n && l[n - 1] == ':') {
        return false; /* a label: branches name it */
    }
    if (strstr(l, "    .") == l || strstr(l, "ebreak\t0") || !strcmp(l, "    ebreak 0")) {
        return false;
    }
    return i + 1 < p->n; /* the final C.BSTOP stays */
}
