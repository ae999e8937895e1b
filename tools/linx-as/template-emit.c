/*
 * Seed template blocks: expansion into header instructions.
 *
 * TSTORE / TLOAD (seed 000's encoding list, in this order):
 *   BSTART.TSTORE DataType | BSTART.TLOAD DataType    (= BSTART.TMA 1/0)
 *   B.DATR Layout                                    (+ Pad for TLOAD)
 *   B.DIM reg, imm, ->lb0 (ValidCol)   \  an immediate 0..255 becomes
 *   B.DIM reg, imm, ->lb1 (ValidRow)    > C.B.DIMI imm, ->lbN; defaults:
 *   B.DIM reg, imm, ->lb2 (Col)        /  ValidRow 1, Col = ValidCol
 *   TSTORE: B.IOT [Src0, Src1] ... [Src6, Src7], last  (no destination)
 *   TLOAD:  B.IOTI [], last ->Dst<Size>  (B.IOT with a size register;
 *           default ->t<4KB>)
 *   B.IOR [RegSrc0 = base, RegSrc1 = stride]  (stride omitted: contiguous)
 *   B.IOD DepSrc0, DepSrc1, DepSrc2, ->DepDst  (only when given)
 *
 * MPAR / MSEQ (seed 004):
 *   BSTART.MPAR|MSEQ VSize, or C.BSTART.MPAR|MSEQ when VSize is omitted
 *   (the compressed header implies VS16) or the mnemonic is C.MPAR/C.MSEQ
 *   B.ATTR DR                      (B.CATR DR; only when DR is given)
 *   B.TEXT .body
 *   B.DIM / C.B.DIMI ->lb0 (default 1), ->lb1 and ->lb2 when given
 *   B.IOT(I) [Src2i, Src2i+1], ->Dst_i<Size_i>  (last one: group 1)
 *   B.IOR [Get3i..Get3i+2],[Set_i]
 *   B.IOD deps
 *
 * Instruction forms and lengths are fixed in pass 1 (tmpl_plan), field
 * values in pass 2 (as_template_emit), with range checks that name the
 * operand.  Encoding goes straight through the generated form table.
 */
#include <stdio.h>
#include <string.h>

#include "as-internal.h"
#include "target/linx/insn-table.h"
#include "template.h"

#define TMPL_DIMI_MAX 255       /* C.B.DIMI imm8 */
#define TMPL_NO_DST_TILE 7      /* DstTile value of "no destination" */
#define TMPL_DEFAULT_SIZE_CODE 8 /* 4KB = 2^(8 + 4) */
#define TMPL_SRCS_PER_IOT 2
#define TMPL_SRCS_PER_IOR 3

static TmplInsn *add(AsTemplate *t, unsigned form, TmplRole role, unsigned arg)
{
    TmplInsn *in = &t->insn[t->ninsn++];

    memset(in, 0, sizeof(*in));
    in->form = (uint16_t)form;
    in->role = (uint8_t)role;
    in->arg = (uint8_t)arg;
    in->len = linx_form(form)->length;
    return in;
}

/* Pass 1: C.B.DIMI when the bound is a known small immediate. */
static void plan_lb(LinxAs *as, AsTemplate *t, unsigned i)
{
    TmplLb *lb = &t->lb[i];
    bool small = false;

    if (lb->reg < 0) {
        int64_t v = 1;
        if (lb->expr) {
            const char *p = lb->expr;
            char err[AS_ERRLEN];
            AsValue val;
            v = -1;
            if (as_expr(as, &p, &val, err, sizeof(err)) && val.known && val.sec == AS_SEC_ABS) {
                v = val.v;
            }
        }
        small = v >= 0 && v <= TMPL_DIMI_MAX;
    }
    lb->compressed = small;
    add(t, small ? LINX_F_C_B_DIMI
                 : (i == 0 ? LINX_F_B_DIM_LB0 : i == 1 ? LINX_F_B_DIM_LB1 : LINX_F_B_DIM_LB2),
        TMPL_R_LB, i);
}

bool tmpl_plan(LinxAs *as, AsStmt *st, AsTemplate *t)
{
    bool kernel = t->kind == TMPL_MPAR || t->kind == TMPL_MSEQ;
    int niot, nior;

    (void)st;
    t->ninsn = 0;
    if (kernel) {
        bool mpar = t->kind == TMPL_MPAR;
        if (t->vsize < 0) {
            t->compressed_header = true;
        }
        if (t->compressed_header) {
            add(t, mpar ? LINX_F_C_BSTART_MPAR : LINX_F_C_BSTART_MSEQ, TMPL_R_HEADER, 0);
        } else {
            add(t, mpar ? LINX_F_BSTART_MPAR : LINX_F_BSTART_MSEQ, TMPL_R_HEADER, 0);
        }
        if (t->dr) {
            add(t, LINX_F_B_ATTR, TMPL_R_ATTR, 0);
        }
        add(t, LINX_F_B_TEXT, TMPL_R_TEXT, 0);
        if (!t->lb[0].present) {
            t->lb[0].present = true; /* LB0 defaults to 1: no register, no expression */
            t->lb[0].reg = -1;
            t->lb[0].expr = NULL;
        }
        for (unsigned i = 0; i < 3; i++) {
            if (t->lb[i].present) {
                plan_lb(as, t, i);
            }
        }
        niot = (t->nsrc + TMPL_SRCS_PER_IOT - 1) / TMPL_SRCS_PER_IOT;
        niot = niot > t->ndst ? niot : t->ndst;
        for (int i = 0; i < niot; i++) {
            bool last = i == niot - 1;
            bool reg = i < t->ndst && t->dst[i].reg >= 0;
            unsigned form = reg ? (last ? LINX_F_B_IOT_G1 : LINX_F_B_IOT_G0)
                                : (last ? LINX_F_B_IOTI_G1 : LINX_F_B_IOTI_G0);
            add(t, form, TMPL_R_IOT, (unsigned)i);
        }
        nior = (t->nget + TMPL_SRCS_PER_IOR - 1) / TMPL_SRCS_PER_IOR;
        nior = nior > t->nset ? nior : t->nset;
        for (int i = 0; i < nior; i++) {
            add(t, LINX_F_B_IOR, TMPL_R_IOR, (unsigned)i);
        }
    } else {
        add(t, t->kind == TMPL_TSTORE ? LINX_F_BSTART_TSTORE : LINX_F_BSTART_TLOAD, TMPL_R_HEADER, 0);
        add(t, LINX_F_B_DATR, TMPL_R_DATR, 0);
        if (!t->lb[1].present) {
            t->lb[1].present = true; /* ValidRow defaults to 1 */
            t->lb[1].reg = -1;
        }
        if (!t->lb[2].present) {
            t->lb[2] = t->lb[0]; /* Col defaults to ValidCol */
        }
        for (unsigned i = 0; i < 3; i++) {
            plan_lb(as, t, i);
        }
        if (t->kind == TMPL_TSTORE) {
            niot = (t->nsrc + TMPL_SRCS_PER_IOT - 1) / TMPL_SRCS_PER_IOT;
            for (int i = 0; i < niot; i++) {
                add(t, i == niot - 1 ? LINX_F_B_IOT_G1 : LINX_F_B_IOT_G0, TMPL_R_IOT, (unsigned)i);
            }
        } else {
            if (t->ndst == 0) {
                t->ndst = 1; /* default ->t<4KB> */
                t->dst[0].kind = 0;
                t->dst[0].reg = -1;
                t->dst[0].size_code = TMPL_DEFAULT_SIZE_CODE;
            }
            add(t, t->dst[0].reg >= 0 ? LINX_F_B_IOT_G1 : LINX_F_B_IOTI_G1, TMPL_R_IOT, 0);
        }
        add(t, LINX_F_B_IOR, TMPL_R_IOR, 0);
    }
    if (t->ndep || t->depdst.expr) {
        add(t, LINX_F_B_IOD, TMPL_R_IOD, 0);
    }
    st->size = 0;
    for (int i = 0; i < t->ninsn; i++) {
        st->size += t->insn[i].len;
    }
    return true;
}

/* ---- pass 2 ---------------------------------------------------------------- */

typedef struct Emit {
    LinxAs *as;
    AsStmt *st;
    AsTemplate *t;
    bool ok;
} Emit;

static void put(Emit *e, TmplInsn *in, LinxFieldId fid, int64_t v, unsigned col, const char *what)
{
    int slot = linx_form_field_slot(in->form, fid);
    const LinxFormField *f;

    if (!e->ok) {
        return;
    }
    if (slot < 0) {
        as_error(e->as, e->st, col, "internal error: %s has no field %s",
                 linx_form(in->form)->mnemonic, linx_field_names[fid]);
        e->ok = false;
        return;
    }
    f = &linx_form_fields(in->form)[slot];
    if (!linx_field_insert(f, v, &in->packed)) {
        long long lo = f->is_signed ? -(1ll << (f->width - 1)) : 0;
        long long hi = f->is_signed ? (1ll << (f->width - 1)) - 1 : (1ll << f->width) - 1;
        as_error(e->as, e->st, col, "immediate out of range: %s %lld not in [%lld, %lld]", what,
                 (long long)v, lo, hi);
        e->ok = false;
    }
}

static bool eval(Emit *e, const char *expr, unsigned col, int64_t *v)
{
    char err[AS_ERRLEN];
    AsValue val;
    const char *p = expr;

    if (!as_expr(e->as, &p, &val, err, sizeof(err))) {
        as_error(e->as, e->st, col, "%s", err);
        e->ok = false;
        return false;
    }
    *v = val.v;
    return true;
}

static void text_append(TmplInsn *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void text_append(TmplInsn *in, const char *fmt, ...)
{
    size_t n = strlen(in->text);
    va_list ap;

    if (n + 1 >= sizeof(in->text)) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(in->text + n, sizeof(in->text) - n, fmt, ap);
    va_end(ap);
}

static void tile_text(TmplInsn *in, const TmplTile *tl)
{
    static const char hands[] = "tumn";
    text_append(in, "%c#%d%s", hands[tl->id / 8], tl->id % 8 + 1, tl->reuse ? ".reuse" : "");
}

static void emit_header(Emit *e, TmplInsn *in)
{
    AsTemplate *t = e->t;

    switch (in->form) {
    case LINX_F_BSTART_TSTORE:
    case LINX_F_BSTART_TLOAD:
        put(e, in, LINX_FLD_DataType, t->dtype, e->st->col, "data type");
        text_append(in, "BSTART.%s %s", in->form == LINX_F_BSTART_TSTORE ? "TSTORE" : "TLOAD",
                    tmpl_dtype_name(t->dtype));
        break;
    case LINX_F_BSTART_MPAR:
    case LINX_F_BSTART_MSEQ:
        put(e, in, LINX_FLD_Mode, t->vsize, e->st->col, "VSize");
        text_append(in, "BSTART.%s VS%d", in->form == LINX_F_BSTART_MPAR ? "MPAR" : "MSEQ",
                    t->vsize ? 16 : 8);
        break;
    default:
        text_append(in, "%s", linx_form(in->form)->mnemonic);
        break;
    }
}

static void emit_lb(Emit *e, TmplInsn *in)
{
    const TmplLb *lb = &e->t->lb[in->arg];
    int64_t v = 1;

    if (lb->expr && !eval(e, lb->expr, lb->col, &v)) {
        return;
    }
    if (!lb->expr && lb->reg >= 0) {
        v = 0;
    }
    if (lb->compressed) {
        put(e, in, LINX_FLD_LoopNest, in->arg, lb->col, "loop nest");
        put(e, in, LINX_FLD_imm8, v, lb->col, "loop bound");
        text_append(in, "C.B.DIMI %lld, ->lb%u", (long long)v, in->arg);
        return;
    }
    put(e, in, LINX_FLD_RegSrc, lb->reg >= 0 ? lb->reg : 0, lb->col, "register");
    put(e, in, LINX_FLD_uimm17, v, lb->col, "loop bound");
    text_append(in, "B.DIM %s, %lld, ->lb%u", tmpl_gpr_name(lb->reg >= 0 ? lb->reg : 0),
                (long long)v, in->arg);
}

static void emit_iot(Emit *e, TmplInsn *in)
{
    AsTemplate *t = e->t;
    unsigned i = in->arg;
    bool last = in->form == LINX_F_B_IOT_G1 || in->form == LINX_F_B_IOTI_G1;
    bool immsize = in->form == LINX_F_B_IOTI_G0 || in->form == LINX_F_B_IOTI_G1;
    const TmplDst *d = (int)i < t->ndst ? &t->dst[i] : NULL;
    static const char *const kinds[] = { "t", "u", "m", "n", "acc" };
    unsigned col = e->st->col;

    text_append(in, "%s [", immsize ? "B.IOTI" : "B.IOT");
    for (unsigned k = 0; k < TMPL_SRCS_PER_IOT; k++) {
        int si = (int)(i * TMPL_SRCS_PER_IOT + k);
        bool present = si < t->nsrc;
        LinxFieldId tile = k ? LINX_FLD_SrcTile1 : LINX_FLD_SrcTile0;
        LinxFieldId valid = k ? LINX_FLD_S1V : LINX_FLD_S0V;
        LinxFieldId reuse = k ? LINX_FLD_S1R : LINX_FLD_S0R;
        /* SxV = 1 marks an absent source. */
        put(e, in, valid, present ? 0 : 1, col, "source valid");
        put(e, in, tile, present ? t->src[si].id : 0, col, "source tile");
        put(e, in, reuse, present && t->src[si].reuse, col, "reuse");
        if (present) {
            if (k) {
                text_append(in, ", ");
            }
            tile_text(in, &t->src[si]);
        }
    }
    text_append(in, "]%s", last ? ", last" : "");
    put(e, in, LINX_FLD_DstTile, d ? d->kind : TMPL_NO_DST_TILE, col, "destination tile");
    if (immsize) {
        put(e, in, LINX_FLD_imm5, d ? d->size_code : 0, col, "tile size code");
        if (d) {
            unsigned long long bytes = 1ull << (d->size_code + 4);
            text_append(in, bytes >= 1024 ? " ->%s<%lluKB>" : " ->%s<%lluB>", kinds[d->kind],
                        bytes >= 1024 ? bytes >> 10 : bytes);
        }
    } else {
        put(e, in, LINX_FLD_RegSrc, d ? d->reg : 0, col, "size register");
        if (d) {
            text_append(in, " ->%s<%s>", kinds[d->kind], tmpl_gpr_name(d->reg));
        }
    }
}

static void emit_ior(Emit *e, TmplInsn *in)
{
    AsTemplate *t = e->t;
    unsigned i = in->arg;
    static const LinxFieldId srcs[] = { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1, LINX_FLD_RegSrc2 };
    unsigned col = e->st->col;
    bool kernel = t->kind == TMPL_MPAR || t->kind == TMPL_MSEQ;

    text_append(in, "B.IOR [");
    for (unsigned k = 0; k < TMPL_SRCS_PER_IOR; k++) {
        int gi = (int)(i * TMPL_SRCS_PER_IOR + k);
        int r = gi < t->nget ? t->get[gi] : 0;
        put(e, in, srcs[k], r, col, "register");
        if (gi < t->nget) {
            text_append(in, "%s%s", k ? ", " : "", tmpl_gpr_name(r));
        }
    }
    put(e, in, LINX_FLD_RegDst, kernel && (int)i < t->nset ? t->set[i] : 0, col, "register");
    text_append(in, "],[%s]", kernel && (int)i < t->nset ? tmpl_gpr_name(t->set[i]) : "");
}

static void emit_iod(Emit *e, TmplInsn *in)
{
    static const LinxFieldId deps[] = { LINX_FLD_DepSrc0, LINX_FLD_DepSrc1, LINX_FLD_DepSrc2 };
    AsTemplate *t = e->t;
    int64_t v = 0;

    text_append(in, "B.IOD ");
    for (int k = 0; k < TMPL_MAX_DEPS; k++) {
        v = 0;
        if (k < t->ndep && !eval(e, t->dep[k].expr, t->dep[k].col, &v)) {
            return;
        }
        put(e, in, deps[k], v, k < t->ndep ? t->dep[k].col : e->st->col, "dependency tag");
        text_append(in, "%lld, ", (long long)v);
    }
    v = 0;
    if (t->depdst.expr && !eval(e, t->depdst.expr, t->depdst.col, &v)) {
        return;
    }
    put(e, in, LINX_FLD_DepDst, v, t->depdst.expr ? t->depdst.col : e->st->col, "DepDst tag");
    text_append(in, "->%lld", (long long)v);
}

static void emit_text(Emit *e, TmplInsn *in, uint64_t pc)
{
    int64_t target, off;

    if (!eval(e, e->t->body.expr, e->t->body.col, &target)) {
        return;
    }
    off = (int64_t)((uint64_t)target - pc);
    if (off & 1) {
        as_error(e->as, e->st, e->t->body.col,
                 "misaligned target: body at 0x%llx is not halfword aligned", (unsigned long long)target);
        e->ok = false;
        return;
    }
    put(e, in, LINX_FLD_simm25, off / 2, e->t->body.col, "body offset (halfwords)");
    text_append(in, "B.TEXT 0x%llx", (unsigned long long)target);
}

void as_template_emit(LinxAs *as, AsStmt *st)
{
    AsTemplate *t = st->tmpl;
    Emit e = { .as = as, .st = st, .t = t, .ok = true };
    uint64_t pc = as->secs[st->sec].addr + st->off;

    for (int i = 0; i < t->ninsn && e.ok; i++) {
        TmplInsn *in = &t->insn[i];
        uint8_t bytes[8];

        in->packed = linx_form(in->form)->match;
        in->text[0] = '\0';
        switch (in->role) {
        case TMPL_R_HEADER:
            emit_header(&e, in);
            break;
        case TMPL_R_ATTR:
            put(&e, in, LINX_FLD_DR, 1, st->col, "DR");
            text_append(in, "B.CATR DR");
            break;
        case TMPL_R_TEXT:
            emit_text(&e, in, pc);
            break;
        case TMPL_R_DATR:
            put(&e, in, LINX_FLD_Layout, t->layout, st->col, "layout");
            if (t->kind == TMPL_TLOAD) {
                put(&e, in, LINX_FLD_Pad, t->pad, st->col, "pad");
            }
            text_append(in, "B.DATR %s", tmpl_layout_name(t->kind == TMPL_TSTORE, (unsigned)t->layout));
            break;
        case TMPL_R_LB:
            emit_lb(&e, in);
            break;
        case TMPL_R_IOT:
            emit_iot(&e, in);
            break;
        case TMPL_R_IOR:
            emit_ior(&e, in);
            break;
        default:
            emit_iod(&e, in);
            break;
        }
        for (unsigned b = 0; b < in->len; b++) {
            bytes[b] = (uint8_t)(in->packed >> (8 * b));
        }
        as_emit(as, bytes, in->len);
        pc += in->len;
    }
}
