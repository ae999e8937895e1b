/*
 * LinxISA disassembler (see disas.h): walks a form's syntax template
 * (disas-syntax.h) and prints each operand kind from the decoded fields.
 *
 * Invariants: the printed text names every non-zero field (through the
 * template or the trailing "{Field=value}" list), so the assembler can
 * rebuild the exact encoding; nothing here keeps state between calls.
 */
#include "disas.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "disas-syntax.h"
#include "header-form.h"

/* ---- Output buffer ----------------------------------------------------- */

typedef struct DisasOut {
    char *buf;
    size_t len; /* capacity */
    size_t pos; /* length of the full text so far (may exceed len) */
} DisasOut;

static void out_putc(DisasOut *o, char c)
{
    if (o->pos + 1 < o->len) {
        o->buf[o->pos] = c;
        o->buf[o->pos + 1] = '\0';
    }
    o->pos++;
}

static void out_puts(DisasOut *o, const char *s)
{
    while (*s) {
        out_putc(o, *s++);
    }
}

static void out_printf(DisasOut *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_printf(DisasOut *o, const char *fmt, ...)
{
    char tmp[LINX_DISAS_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    out_puts(o, tmp);
}

/* ---- Printer state ------------------------------------------------------ */

typedef struct DisasCtx {
    DisasOut o;
    const LinxInsn *insn;
    uint64_t pc;
    bool legacy;
    const LinxProfile *profile; /* SrcRType suffixes */
    uint32_t covered; /* field slots the text shows */
    bool have_target;
    uint64_t target;
    bool acccvt; /* inside a CUBE ACCCVT header: B.ARG format = quant mode */
} DisasCtx;

/* Value of field @fid (0 when the form lacks it); marks it printed. */
static int64_t fv(DisasCtx *c, unsigned fid)
{
    int slot;

    if (fid == LINX_SYN_NOFIELD) {
        return 0;
    }
    slot = linx_form_field_slot(c->insn->form, (LinxFieldId)fid);
    if (slot < 0) {
        return 0;
    }
    c->covered |= 1u << slot;
    return c->insn->f[slot];
}

static bool has_field(const DisasCtx *c, unsigned fid)
{
    return fid != LINX_SYN_NOFIELD && linx_form_field_slot(c->insn->form, (LinxFieldId)fid) >= 0;
}

static const LinxFormField *field_info(const DisasCtx *c, unsigned fid)
{
    int slot = linx_form_field_slot(c->insn->form, (LinxFieldId)fid);

    return slot < 0 ? NULL : &linx_form_fields(c->insn->form)[slot];
}

static void note_target(DisasCtx *c, uint64_t target)
{
    if (!c->have_target) {
        c->have_target = true;
        c->target = target;
    }
}

/* ---- Operand kinds ------------------------------------------------------- */

/* By LinxSrcRMod (the profile maps the SrcRType code to it). */
static const char *const srcr_type_neg[4] = { "", ".sw", ".uw", ".neg" };
static const char *const srcr_type_not[4] = { "", ".sw", ".uw", ".not" };
static const char *const br_type_names[8] = { "0", "", "DIRECT", "COND", "CALL", "IND", "ICALL",
                                              "RET" };
static const char width_letters[4] = { 'd', 'w', 'h', 'b' };
static const char fp_width_letters[4] = { 'd', 's', 'h', 'b' };

enum {
    REG5_PUSH_T = 31,
    REG5_PUSH_U = 30,
    REGID10_ST_BIT = 9,
    REGID10_WIDTH_SHIFT = 7,
    REGID10_CLASS_SHIFT = 5,
    REGID10_CLASS_SCALAR = 1,
    REGID10_CLASS_REUSE = 3,
    REGID10_PUSH_T = 31,
    REGID10_PUSH_U = 30,
    REGID10_NUM_VEC_PUSH = 4,
    REGID10_QUEUE_STRIDE = 8,
    TILE_SIZE_CODE_BIAS = 4,       /* bytes = 2^(code + 4) */
    LEGACY_TILE_SIZE_MAX_CODE = 8, /* the v0.3 printer clamps at 4KB */
    DSTTILE_NONE = 7,
};

static void print_dst5(DisasCtx *c, unsigned code)
{
    code &= 31;
    if (code == REG5_PUSH_T) {
        out_puts(&c->o, "t");
    } else if (code == REG5_PUSH_U) {
        out_puts(&c->o, "u");
    } else {
        out_puts(&c->o, linx_reg5_names[code]);
    }
}

static void print_enum(DisasCtx *c, LinxSynEnum e, unsigned v)
{
    const char *n = linx_syn_enum_name(e, v, c->legacy);

    if (e == LINX_SYN_E_BARGFMT && c->acccvt) {
        n = linx_syn_enum_name(LINX_SYN_E_QUANT, v, c->legacy);
    }

    if (n) {
        out_puts(&c->o, n);
    } else {
        out_printf(&c->o, "%s%u", linx_syn_enum_fallback(e), v);
    }
}

static uint64_t pc_target(DisasCtx *c, const LinxSynItem *it)
{
    const LinxFormField *f = field_info(c, it->fld[0]);
    int64_t v = fv(c, it->fld[0]);
    unsigned shift = it->arg & LINX_SYN_PC_SHIFT_MASK;
    uint64_t base = 2u * (it->arg >> LINX_SYN_PC_BASE_SHIFT);

    if ((it->arg & LINX_SYN_PC_SEXT) && f && f->width < 64) {
        uint64_t sign = UINT64_C(1) << (f->width - 1);
        v = (int64_t)(((uint64_t)v ^ sign) - sign);
    }
    return c->pc + base + ((uint64_t)v << shift);
}

static void print_regid10_type(DisasCtx *c, unsigned code, bool fp)
{
    unsigned st = (code >> REGID10_ST_BIT) & 1, w = (code >> REGID10_WIDTH_SHIFT) & 3;

    if (fp && !st) {
        out_printf(&c->o, ".f%c", fp_width_letters[w]);
    } else {
        out_printf(&c->o, ".%c%c", st ? 's' : 'u', width_letters[w]);
    }
}

/* Vector queue registers with the .reuse hint (class 3) print as
 * "vt#1.reuse"; unnamed class-3 codes print as "vr<n>", which already
 * says the class. */
static bool regid10_reuse_suffix(unsigned code)
{
    return ((code >> REGID10_CLASS_SHIFT) & 3) == REGID10_CLASS_REUSE &&
           (code & 31) % REGID10_QUEUE_STRIDE < REGID10_NUM_VEC_PUSH;
}

static void print_regid10(DisasCtx *c, unsigned code, unsigned arg)
{
    char tmp[16];

    out_puts(&c->o, linx_syn_regid10_name(code, tmp, sizeof(tmp)));
    if (regid10_reuse_suffix(code)) {
        out_puts(&c->o, ".reuse");
    }
    if ((arg & LINX_SYN_V_BASE) && (code >> REGID10_WIDTH_SHIFT) == (1u << 2)) {
        return; /* a memory base's default type, .sd, is not printed */
    }
    print_regid10_type(c, code, arg & LINX_SYN_V_FLOAT);
}

static void print_regid10_dst(DisasCtx *c, unsigned code)
{
    static const char *const push[REGID10_NUM_VEC_PUSH] = { "vt", "vu", "vm", "vn" };
    unsigned cls = (code >> REGID10_CLASS_SHIFT) & 3, idx = code & 31;
    unsigned st = (code >> REGID10_ST_BIT) & 1, w = (code >> REGID10_WIDTH_SHIFT) & 3;
    char tmp[16];

    if (cls == 0 && idx < REGID10_NUM_VEC_PUSH) {
        out_puts(&c->o, push[idx]);
    } else if (cls == REGID10_CLASS_SCALAR && idx == REGID10_PUSH_T) {
        out_puts(&c->o, "t");
    } else if (cls == REGID10_CLASS_SCALAR && idx == REGID10_PUSH_U) {
        out_puts(&c->o, "u");
    } else {
        out_puts(&c->o, linx_syn_regid10_name(code, tmp, sizeof(tmp)));
        if (regid10_reuse_suffix(code)) {
            out_puts(&c->o, ".reuse");
        }
    }
    out_printf(&c->o, ".%s%c", st ? "s" : "", width_letters[w]);
}

static void print_tile_size(DisasCtx *c, unsigned code)
{
    uint64_t bytes;

    if (c->legacy && code > LEGACY_TILE_SIZE_MAX_CODE) {
        code = LEGACY_TILE_SIZE_MAX_CODE;
    }
    bytes = UINT64_C(1) << (code + TILE_SIZE_CODE_BIAS);
    if (bytes >= (UINT64_C(1) << 30)) {
        out_printf(&c->o, "%" PRIu64 "GB", bytes >> 30);
    } else if (bytes >= (UINT64_C(1) << 20)) {
        out_printf(&c->o, "%" PRIu64 "MB", bytes >> 20);
    } else if (bytes >= 1024) {
        out_printf(&c->o, "%" PRIu64 "KB", bytes >> 10);
    } else {
        out_printf(&c->o, "%" PRIu64 "B", bytes);
    }
}

static void print_iots(DisasCtx *c)
{
    const uint8_t *f = linx_syn_iots_fields;
    char tmp[8];
    bool absent0 = fv(c, f[0]) != 0, absent1 = fv(c, f[3]) != 0;

    out_putc(&c->o, '[');
    if (!absent0) {
        linx_syn_tile_name((unsigned)fv(c, f[2]), tmp, sizeof(tmp));
        out_puts(&c->o, tmp);
        if (fv(c, f[1])) {
            out_puts(&c->o, ".reuse");
        }
    }
    if (!absent1) {
        out_puts(&c->o, absent0 ? "-, " : ", ");
        linx_syn_tile_name((unsigned)fv(c, f[5]), tmp, sizeof(tmp));
        out_puts(&c->o, tmp);
        if (fv(c, f[4])) {
            out_puts(&c->o, ".reuse");
        }
    }
    out_putc(&c->o, ']');
}

static void print_iotd(DisasCtx *c, const LinxSynItem *it)
{
    unsigned dst = (unsigned)fv(c, it->fld[0]);
    unsigned size = (unsigned)fv(c, it->fld[1]);

    if (dst == DSTTILE_NONE && size == 0) {
        return;
    }
    out_printf(&c->o, "\t->%s<", linx_syn_dsttile_name(dst));
    if (it->arg & LINX_SYN_IOTD_REG) {
        out_puts(&c->o, linx_reg5_names[size & 31]);
    } else {
        print_tile_size(c, size);
    }
    out_putc(&c->o, '>');
}

static void print_ior(DisasCtx *c, const LinxSynItem *it)
{
    int last = -1;
    unsigned r[3];

    for (int i = 0; i < 3; i++) {
        r[i] = (unsigned)fv(c, it->fld[i]) & 31;
        if (r[i]) {
            last = i;
        }
    }
    out_putc(&c->o, '[');
    for (int i = 0; i <= last; i++) {
        if (i) {
            out_putc(&c->o, ',');
        }
        out_puts(&c->o, linx_reg5_names[r[i]]);
    }
    out_putc(&c->o, ']');
}

static void print_attr(DisasCtx *c)
{
    const uint8_t *f = linx_syn_attr_fields;
    bool first = true;
    char tok[64];
    int64_t trap = fv(c, f[0]), atom = fv(c, f[1]), aq = fv(c, f[2]), rl = fv(c, f[3]);
    int64_t far = fv(c, f[4]), layout = fv(c, f[5]), canon = fv(c, f[6]);
    int64_t dt = fv(c, f[7]), pad = fv(c, f[8]), dr = fv(c, f[9]);
    const char *toks[8];
    int n = 0;

    if (trap) {
        toks[n++] = "trap";
    }
    if (atom) {
        toks[n++] = "atomic";
    }
    if (aq || rl) {
        toks[n++] = aq && rl ? "aqrl" : aq ? "aq" : "rl";
    }
    if (far) {
        toks[n++] = "far";
    }
    for (int i = 0; i < n; i++) {
        out_puts(&c->o, first ? "\t" : ", ");
        out_puts(&c->o, toks[i]);
        first = false;
    }
    if (layout || canon) {
        const char *name = linx_syn_enum_name(LINX_SYN_E_BARGFMT, (unsigned)layout, c->legacy);
        if (name) {
            snprintf(tok, sizeof(tok), "%s.%s", name, canon ? "canon" : "normal");
        } else {
            snprintf(tok, sizeof(tok), "%u.%s", (unsigned)layout, canon ? "canon" : "normal");
        }
        out_puts(&c->o, first ? "\t" : ", ");
        out_puts(&c->o, tok);
        first = false;
    }
    if (dt) {
        out_puts(&c->o, first ? "\t" : ", ");
        print_enum(c, LINX_SYN_E_DTYPE, (unsigned)dt);
        first = false;
    }
    if (pad) {
        out_puts(&c->o, first ? "\t" : ", ");
        print_enum(c, LINX_SYN_E_PAD, (unsigned)pad);
        first = false;
    }
    if (dr) {
        out_puts(&c->o, first ? "\t" : ", ");
        out_puts(&c->o, "dr");
    }
}

static void print_hint(DisasCtx *c)
{
    static const char *const temp[4] = { "hot", "warm", "cool", "none" };
    const uint8_t *f = linx_syn_hint_fields;
    int64_t likely = fv(c, f[0]), t = fv(c, f[1]), size = fv(c, f[2]);

    out_printf(&c->o, "BR.%s, TEMP.%s, %" PRId64, likely ? "likely" : "unlikely", temp[t & 3],
               size);
}

static void print_cvt(DisasCtx *c, const LinxSynItem *it)
{
    unsigned s = (unsigned)fv(c, it->fld[0]), d = (unsigned)fv(c, it->fld[1]);
    char b1[16], b2[16];
    const char *sn, *dn;

    switch (it->arg) {
    case LINX_SYN_CVT_FF:
        sn = linx_syn_cvt_type_name(s, true, false, false, b1, sizeof(b1));
        dn = linx_syn_cvt_type_name(d, true, false, true, b2, sizeof(b2));
        break;
    case LINX_SYN_CVT_FI:
        sn = linx_syn_cvt_type_name(s, true, false, false, b1, sizeof(b1));
        dn = linx_syn_cvt_type_name(d, false, false, true, b2, sizeof(b2));
        break;
    case LINX_SYN_CVT_SI:
    case LINX_SYN_CVT_UI:
        sn = linx_syn_cvt_type_name(s, false, it->arg == LINX_SYN_CVT_SI, false, b1, sizeof(b1));
        dn = linx_syn_cvt_type_name(d, true, false, true, b2, sizeof(b2));
        break;
    case LINX_SYN_CVT_VFF:
        sn = linx_syn_cvt_type_name(s, true, false, true, b1, sizeof(b1));
        dn = linx_syn_cvt_type_name(d, true, false, true, b2, sizeof(b2));
        break;
    case LINX_SYN_CVT_VFI:
        sn = linx_syn_cvt_type_name(s, true, false, true, b1, sizeof(b1));
        dn = linx_syn_cvt_type_name(d, false, false, true, b2, sizeof(b2));
        break;
    case LINX_SYN_CVT_VII:
        sn = linx_syn_cvt_type_name(s, false, false, true, b1, sizeof(b1));
        dn = linx_syn_cvt_type_name(d, false, false, true, b2, sizeof(b2));
        break;
    default:
        sn = linx_syn_cvt_type_name(s, false, false, true, b1, sizeof(b1));
        dn = linx_syn_cvt_type_name(d, true, false, true, b2, sizeof(b2));
        break;
    }
    out_printf(&c->o, "%s2%s", sn, dn);
}

/* v0.3-era tile headers: one encoding space (v0.4's BSTART.TEPL) whose
 * TileOpcode named the operation.  The codes are the ones the shared
 * listing shows: 33 TLOAD, 65 TSTORE, 34 TMOV (32 + TMA function), 2
 * MAMULB, 66 MAMULB.ACC, 258 ACCCVT, 0 VCALL; anything else printed as
 * "BSTART.VPAR <op>, <dtype>".  Longer names first: the assembler matches
 * these texts as prefixes. */
const LinxLegacyTileOp linx_legacy_tile_ops[LINX_LEGACY_TILE_OPS] = {
    { 33, "BSTART.TMA\tTLOAD" },        { 65, "BSTART.TMA\tTSTORE" },
    { 34, "BSTART.TMA\tTMOV" },         { 66, "BSTART.CUBE\tMAMULB.ACC" },
    { 2, "BSTART.CUBE\tMAMULB" },       { 258, "BSTART.CUBE\tACCCVT" },
    { 0, "BSTART.VPAR\tVCALL" },
};

static void print_legacy_tile_header(DisasCtx *c, unsigned op, unsigned dt)
{
    for (unsigned i = 0; i < LINX_LEGACY_TILE_OPS; i++) {
        if (linx_legacy_tile_ops[i].op == op) {
            out_puts(&c->o, linx_legacy_tile_ops[i].text);
            if (op == 0 && dt == 0) {
                return; /* "BSTART.VPAR VCALL" */
            }
            out_puts(&c->o, ", ");
            print_enum(c, LINX_SYN_E_DTYPE, dt);
            return;
        }
    }
    out_printf(&c->o, "BSTART.VPAR\t%u, ", op);
    print_enum(c, LINX_SYN_E_DTYPE, dt);
}

static void print_item(DisasCtx *c, const LinxSynItem *it)
{
    DisasOut *o = &c->o;
    int64_t v;

    switch ((LinxSynKind)it->kind) {
    case LINX_SYN_LIT:
        out_puts(o, it->text);
        break;
    case LINX_SYN_R:
        out_puts(o, linx_reg5_names[fv(c, it->fld[0]) & 31]);
        break;
    case LINX_SYN_D:
        print_dst5(c, (unsigned)fv(c, it->fld[0]));
        break;
    case LINX_SYN_RS: {
        const char *const *types = (it->arg & LINX_SYN_RS_NOT) ? srcr_type_not : srcr_type_neg;
        out_puts(o, linx_reg5_names[fv(c, it->fld[0]) & 31]);
        if (has_field(c, it->fld[1])) {
            out_puts(o, types[linx_srcr_mod(c->profile, fv(c, it->fld[1]))]);
        }
        if (has_field(c, it->fld[2])) {
            v = fv(c, it->fld[2]);
            if (v) {
                out_printf(o, "<<%" PRId64, v);
            }
        } else if (it->arg & LINX_SYN_RS_SHIFT_MASK) {
            out_printf(o, "<<%u", it->arg & LINX_SYN_RS_SHIFT_MASK);
        }
        break;
    }
    case LINX_SYN_I: {
        const LinxFormField *f = field_info(c, it->fld[0]);
        v = fv(c, it->fld[0]);
        if ((it->arg & LINX_SYN_I_SEXT) && f && f->width < 64) {
            uint64_t sign = UINT64_C(1) << (f->width - 1);
            v = (int64_t)(((uint64_t)v ^ sign) - sign);
        }
        out_printf(o, "%" PRId64, (int64_t)((uint64_t)v << (it->arg & LINX_SYN_I_SCALE_MASK)));
        break;
    }
    case LINX_SYN_SH: {
        int64_t imm = fv(c, it->fld[0]), sh = fv(c, it->fld[1]);
        int64_t value = (int64_t)((uint64_t)imm << sh);
        const LinxFormField *sf = field_info(c, it->fld[1]);
        unsigned max_sh = sf ? (1u << sf->width) - 1 : 0;
        if (linx_syn_setc_shamt(value, field_info(c, it->fld[0]), max_sh) == sh &&
            value >> sh == imm) {
            out_printf(o, "%" PRId64, value);
        } else {
            out_printf(o, "%" PRId64 "<<%" PRId64, imm, sh);
        }
        break;
    }
    case LINX_SYN_PC: {
        uint64_t t = pc_target(c, it);
        out_printf(o, "0x%" PRIx64, t);
        note_target(c, t);
        break;
    }
    case LINX_SYN_FALL:
        if (fv(c, it->fld[0]) != 0) {
            uint64_t t = pc_target(c, it);
            out_printf(o, "\tFALL, 0x%" PRIx64, t);
            note_target(c, t);
        }
        break;
    case LINX_SYN_BRT:
        out_puts(o, br_type_names[fv(c, it->fld[0]) & 7]);
        break;
    case LINX_SYN_E:
        print_enum(c, (LinxSynEnum)it->arg, (unsigned)fv(c, it->fld[0]));
        break;
    case LINX_SYN_LL:
        out_puts(o, c->legacy ? it->text2 : it->text);
        break;
    case LINX_SYN_RR:
        out_printf(o, "[%s ~ %s]", linx_reg5_names[fv(c, it->fld[0]) & 31],
                   linx_reg5_names[fv(c, it->fld[1]) & 31]);
        break;
    case LINX_SYN_IOR:
        print_ior(c, it);
        break;
    case LINX_SYN_IORD:
        v = fv(c, it->fld[0]) & 31;
        out_printf(o, "[%s]", v ? linx_reg5_names[v] : "");
        break;
    case LINX_SYN_IOTS:
        print_iots(c);
        break;
    case LINX_SYN_IOTD:
        print_iotd(c, it);
        break;
    case LINX_SYN_V:
        print_regid10(c, (unsigned)fv(c, it->fld[0]), it->arg);
        break;
    case LINX_SYN_VD:
        print_regid10_dst(c, (unsigned)fv(c, it->fld[0]));
        break;
    case LINX_SYN_VLANE: {
        if (fv(c, it->fld[0])) {
            out_puts(o, ", lc0");
            if (it->arg) {
                out_printf(o, "<<%u", it->arg);
            }
        }
        break;
    }
    case LINX_SYN_VIDX: {
        unsigned fixed = (it->arg >> LINX_SYN_VIDX_SHIFT_SHIFT) & 3;
        int64_t sh = fv(c, it->fld[2]);
        print_regid10(c, (unsigned)fv(c, it->fld[0]), it->arg & LINX_SYN_VIDX_FLOAT);
        if (has_field(c, it->fld[1])) {
            const char *const *t = (it->arg & LINX_SYN_VIDX_NOT) ? srcr_type_not : srcr_type_neg;
            out_puts(o, t[linx_srcr_mod(c->profile, fv(c, it->fld[1]))]);
        }
        if (it->arg & LINX_SYN_VIDX_PLUS) {
            out_printf(o, "<<%" PRId64, sh + fixed);
        } else if (sh) {
            out_printf(o, "<<%" PRId64, sh);
        }
        break;
    }
    case LINX_SYN_ORD: {
        static const char *const letters[4] = { "aq", "rl", "f", "rd" };
        static const int order[4] = { 0, 1, 3, 2 }; /* aq rl rd f */
        bool any = false;
        for (int k = 0; k < 4; k++) {
            int i = order[k];
            if (fv(c, it->fld[i])) {
                out_puts(o, any ? "" : ".");
                out_puts(o, letters[i]);
                any = true;
            }
        }
        break;
    }
    case LINX_SYN_FLAGS: {
        bool any = false;
        for (int i = 0; i < LINX_SYN_MAX_ITEM_FIELDS; i++) {
            if (it->fld[i] != LINX_SYN_NOFIELD && fv(c, it->fld[i])) {
                out_puts(o, any ? "" : ".");
                out_putc(o, linx_field_names[it->fld[i]][0]);
                any = true;
            }
        }
        break;
    }
    case LINX_SYN_CVT:
        print_cvt(c, it);
        break;
    case LINX_SYN_LOC:
        if (fv(c, it->fld[0])) {
            out_puts(o, ".local");
        }
        break;
    case LINX_SYN_SSR: {
        unsigned id = (unsigned)fv(c, it->fld[0]);
        const char *n = linx_syn_ssr_name(id);
        if (n) {
            out_puts(o, n);
        } else {
            out_printf(o, "0x%x", id);
        }
        break;
    }
    case LINX_SYN_ATTR:
        print_attr(c);
        break;
    case LINX_SYN_HINT:
        print_hint(c);
        break;
    case LINX_SYN_FLAG:
        if (fv(c, it->fld[0])) {
            out_printf(o, ", %s", it->text);
        }
        break;
    case LINX_SYN_LVPAR:
        print_legacy_tile_header(c, (unsigned)fv(c, it->fld[0]), (unsigned)fv(c, it->fld[1]));
        break;
    }
}

/* Fields the template did not show, as " {Field=value, ...}". */
static void print_overrides(DisasCtx *c)
{
    const LinxFormInfo *fi = linx_form(c->insn->form);
    const LinxFormField *f = linx_form_fields(c->insn->form);
    bool any = false;

    for (int i = 0; i < fi->field_count; i++) {
        if ((c->covered >> i) & 1 || c->insn->f[i] == 0) {
            continue;
        }
        out_puts(&c->o, any ? ", " : " {");
        out_printf(&c->o, "%s=%" PRId64, linx_field_names[f[i].id], c->insn->f[i]);
        any = true;
    }
    if (any) {
        out_putc(&c->o, '}');
    }
}

/* The BSTART.TEPL / BSTART.{MPAR,MSEQ,VPAR,VSEQ} VS16 collision
 * (docs/decisions.md D3): the v0.3 toolchain printed those words as TEPL
 * headers ("BSTART.VPAR VCALL"). */
static bool legacy_tepl_view(const LinxInsn *insn, LinxInsn *out)
{
    bool present;
    int64_t mode;

    switch (insn->form) {
    case LINX_F_BSTART_MPAR:
    case LINX_F_BSTART_MSEQ:
    case LINX_F_BSTART_VPAR:
    case LINX_F_BSTART_VSEQ:
        mode = linx_insn_field(insn, LINX_FLD_Mode, &present);
        if (mode != 1) {
            return false;
        }
        linx_insn_fill(out, LINX_F_BSTART_TEPL, insn->raw);
        return true;
    default:
        return false;
    }
}

/* The v0.3 toolchain's 64-bit block stop at the end of vector bodies:
 * prefix 0x0000000f + BSTOP.  v0.4 has no such encoding (a 64-bit prefix
 * has 0x7f in bits 6:0), so it decodes as illegal; -M legacy prints it the
 * way the listing does. */
#define LINX_LEGACY_BSTOP64 UINT64_C(0x000000010000000f)

size_t linx_disas_insn(const LinxInsn *insn, uint64_t pc, const LinxDisasEnv *env, char *buf,
                       size_t len)
{
    DisasCtx c = { .o = { buf, len, 0 }, .insn = insn, .pc = pc };
    LinxInsn alt;
    const LinxSynTemplate *t, *chosen;
    unsigned count;

    if (len) {
        buf[0] = '\0';
    }
    c.legacy = env && (env->flags & LINX_DISAS_F_LEGACY);
    c.profile = env && env->profile ? env->profile : linx_profile_default();
    if (env && env->header) {
        LinxBlockType type;
        unsigned func;
        const char *m = insn->form < LINX_F__COUNT ? linx_form(insn->form)->mnemonic : "";

        c.acccvt = env->header->type == LINX_BLK_CUBE && env->header->func == 8;
        /* Track the header for the next instruction: a header marker
         * starts one, B.* / C.B.* descriptors continue it, anything else
         * ends it. */
        if (insn->form < LINX_F__COUNT && linx_header_form(insn, &type, &func)) {
            env->header->type = type;
            env->header->func = func;
        } else if (strncmp(m, "B.", 2) != 0 && strncmp(m, "C.B.", 4) != 0) {
            env->header->type = 0;
        }
    }
    if (insn->form >= LINX_F__COUNT) {
        if (c.legacy && insn->len == 8 && insn->raw == LINX_LEGACY_BSTOP64) {
            out_puts(&c.o, "C.BSTOP");
        } else {
            out_printf(&c.o, ".insn\t0x%0*" PRIx64, insn->len * 2, insn->raw);
        }
        return c.o.pos;
    }
    if (c.legacy && legacy_tepl_view(insn, &alt)) {
        insn = c.insn = &alt;
    }
    t = linx_syn_form_templates(insn->form, &count);
    chosen = &t[0];
    for (unsigned i = 0; c.legacy && i < count; i++) {
        if (t[i].kind == LINX_SYN_T_LEGACY) {
            chosen = &t[i];
        }
    }
    const LinxSynItem *items = linx_syn_items(chosen);
    for (unsigned i = 0; i < chosen->count; i++) {
        print_item(&c, &items[i]);
    }
    print_overrides(&c);
    if (c.have_target && env && env->lookup) {
        uint64_t off = 0;
        const char *name = env->lookup(env->opaque, c.target, &off);
        if (name) {
            if (off) {
                out_printf(&c.o, " <%s+0x%" PRIx64 ">", name, off);
            } else {
                out_printf(&c.o, " <%s>", name);
            }
        }
    }
    return c.o.pos;
}

LinxDecodeStatus linx_disas_bytes(const uint8_t *bytes, size_t avail, uint64_t pc,
                                  const LinxDisasEnv *env, char *buf, size_t len,
                                  unsigned *insn_len)
{
    LinxInsn insn;
    LinxDecodeStatus st;

    if (env && (env->flags & LINX_DISAS_F_FUSED_CALL) &&
        linx_decode_fused_call(bytes, avail, &insn)) {
        st = LINX_DECODE_OK;
    } else {
        st = linx_decode(bytes, avail, &insn);
    }
    if (st == LINX_DECODE_TRUNCATED) {
        *insn_len = (unsigned)avail;
        snprintf(buf, len, "<truncated>");
        return st;
    }
    *insn_len = insn.len;
    linx_disas_insn(&insn, pc, env, buf, len);
    return st;
}

void linx_disas_squeeze(char *text)
{
    char *o = text;

    for (const char *c = text; *c; c++) {
        char ch = *c == '\t' ? ' ' : *c;

        if (ch != ' ' || (o > text && o[-1] != ' ')) {
            *o++ = ch;
        }
    }
    *o = 0;
}

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

size_t linx_disas_hex(const uint8_t *bytes, unsigned len, char *buf, size_t buflen)
{
    DisasOut o = { buf, buflen, 0 };

    if (buflen) {
        buf[0] = '\0';
    }
    switch (len) {
    case 2:
        out_printf(&o, "%04x", (unsigned)(bytes[0] | bytes[1] << 8));
        break;
    case 4:
        out_printf(&o, "%08x", (unsigned)le32(bytes));
        break;
    case 6:
        out_printf(&o, "%04x %08x", (unsigned)(bytes[0] | bytes[1] << 8),
                   (unsigned)le32(bytes + 2));
        break;
    case 8:
        out_printf(&o, "%08x %08x", (unsigned)le32(bytes), (unsigned)le32(bytes + 4));
        break;
    default:
        for (unsigned i = 0; i < len; i++) {
            out_printf(&o, "%s%02x", i ? " " : "", bytes[i]);
        }
        break;
    }
    return o.pos;
}
