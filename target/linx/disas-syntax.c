/*
 * LinxISA assembly syntax: the generated per-form templates
 * (insn-syntax.c.inc) and the operand name tables the disassembler and the
 * assembler share.  See disas-syntax.h.
 *
 * Name sources: register names from the catalog (registers.reg5), RegId10
 * names from isa/v0.4-draft/registers/regid10.json, data types and TEPL
 * opcodes from the v0.4 manual (linxisa-digest 4.1), SSR names from
 * isa/v0.4/state/system_registers.json, conversion type spellings from the
 * LinxISA LLVM printer.  Every table is constant.
 */
#include "disas-syntax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "insn-syntax.c.inc"

const LinxSynTemplate *linx_syn_form_templates(unsigned form, unsigned *count)
{
    const LinxSynRange *r = &linx_syn_form_range[form];

    *count = r->count;
    return &linx_syn_template_tab[r->start];
}

const LinxSynItem *linx_syn_items(const LinxSynTemplate *t)
{
    return &linx_syn_item_tab[t->start];
}

const LinxSynTemplate *linx_syn_template(unsigned index)
{
    return &linx_syn_template_tab[index];
}

static int cmp_u16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static unsigned char fold(char ch)
{
    unsigned char c = (unsigned char)ch;

    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

/*
 * Every key that is a prefix of @word (case-folded).  The keys are sorted,
 * so those sharing the prefix word[0..l) form one range; it narrows by one
 * character per step (a binary search on that character), a key of exactly
 * l characters sorts first in its range, and an empty range ends the walk:
 * O(len log keys) character compares.
 */
unsigned linx_syn_candidates(const char *word, size_t len, uint16_t *out, unsigned max)
{
    const size_t nkeys = sizeof(linx_syn_key_tab) / sizeof(linx_syn_key_tab[0]);
    size_t lo = 0, hi = nkeys;
    unsigned n = 0;

    for (size_t l = 1; l <= len && lo < hi; l++) {
        unsigned char c = fold(word[l - 1]);
        size_t a = lo, b = hi;
        /* first key in [lo, hi) whose char l-1 is >= c (shorter keys,
         * with '\0' there, come first) */
        while (a < b) {
            size_t mid = (a + b) / 2;
            if ((unsigned char)linx_syn_key_tab[mid].key[l - 1] < c) {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        lo = a;
        b = hi;
        while (a < b) {
            size_t mid = (a + b) / 2;
            if ((unsigned char)linx_syn_key_tab[mid].key[l - 1] <= c) {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        hi = a;
        for (size_t i = lo; i < hi && linx_syn_key_tab[i].key[l] == '\0'; i++) {
            if (n < max) {
                out[n] = linx_syn_key_tab[i].template;
            }
            n++;
        }
    }
    if (n <= max) {
        qsort(out, n, sizeof(out[0]), cmp_u16);
    }
    return n;
}

const uint8_t linx_syn_iots_fields[LINX_SYN_IOTS_NFIELDS] = {
    LINX_FLD_S0V, LINX_FLD_S0R, LINX_FLD_SrcTile0, LINX_FLD_S1V, LINX_FLD_S1R, LINX_FLD_SrcTile1,
};

const uint8_t linx_syn_attr_fields[LINX_SYN_ATTR_NFIELDS] = {
    LINX_FLD_T,          LINX_FLD_atom, LINX_FLD_aq,       LINX_FLD_rl,       LINX_FLD_far,
    LINX_FLD_DataLayout, LINX_FLD_C,    LINX_FLD_DataType, LINX_FLD_PadValue, LINX_FLD_DR,
};

const uint8_t linx_syn_hint_fields[LINX_SYN_HINT_NFIELDS] = {
    LINX_FLD_L_UL, LINX_FLD_temp, LINX_FLD_prefetch_size,
};

bool linx_syn_token_eq(const char *s, size_t len, const char *name)
{
    return strlen(name) == len && strncasecmp(s, name, len) == 0;
}

int linx_syn_setc_shamt(int64_t value, const LinxFormField *imm, unsigned max_shamt)
{
    int64_t lo = imm->is_signed ? -((int64_t)1 << (imm->width - 1)) : 0;
    int64_t hi = imm->is_signed ? ((int64_t)1 << (imm->width - 1)) - 1
                                : ((int64_t)1 << imm->width) - 1;

    for (unsigned sh = 0; sh <= max_shamt && sh < 63; sh++) {
        int64_t part;
        if (sh && (value & ((INT64_C(1) << sh) - 1))) {
            return -1;
        }
        part = value >> sh;
        if (part >= lo && part <= hi) {
            return (int)sh;
        }
    }
    return -1;
}

/* ---- 5-bit registers ------------------------------------------------ */

const char *const linx_reg5_names[32] = {
    "zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "ra", "s0", "s1", "s2", "s3", "s4",
    "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3",
    "t#1", "t#2", "t#3", "t#4", "u#1", "u#2", "u#3", "u#4",
};

#define LINX_REG_S0 11

/* Parse a decimal number that is the whole token; -1 if it is not. */
static long parse_small_decimal(const char *s, size_t len)
{
    long v = 0;

    if (len == 0 || len > 6) {
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return -1;
        }
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int linx_syn_parse_reg5(const char *s, size_t len)
{
    for (int i = 0; i < 32; i++) {
        if (linx_syn_token_eq(s, len, linx_reg5_names[i])) {
            return i;
        }
    }
    if (linx_syn_token_eq(s, len, "fp")) {
        return LINX_REG_S0;
    }
    if (len >= 2 && (s[0] == 'r' || s[0] == 'R')) {
        long n = parse_small_decimal(s + 1, len - 1);
        if (n >= 0 && n < 32) {
            return (int)n;
        }
    }
    return -1;
}

/* ---- Named values ------------------------------------------------------ */

typedef struct LinxSynName {
    uint16_t value;
    const char *name;
} LinxSynName;

#define NAMES(a) a, sizeof(a) / sizeof(a[0])

/* Tile DataType, v0.4 (manual 04_block_isa, digest 4.1). */
static const LinxSynName dtype_names[] = {
    { 0, "FP64" },   { 1, "FP32" },   { 2, "FP16" },   { 3, "FP8" },    { 6, "BF16" },
    { 7, "FPL8" },   { 11, "FP4" },   { 12, "FPL4" },  { 16, "INT64" }, { 17, "INT32" },
    { 18, "INT16" }, { 19, "INT8" },  { 20, "INT4" },  { 24, "UINT64" }, { 25, "UINT32" },
    { 26, "UINT16" }, { 27, "UINT8" }, { 28, "UINT4" },
};

/* Accepted, never printed: the seed/tile-machine spellings. */
static const LinxSynName dtype_aliases[] = {
    { 3, "E4M3" }, { 16, "S64" }, { 17, "S32" }, { 18, "S16" }, { 19, "S8" },
    { 24, "U64" }, { 25, "U32" }, { 26, "U16" }, { 27, "U8" },
};

/* The v0.3-era toolchain that produced the normalized listing printed
 * FP16 for DataType code 4; v0.4 moved FP16 to 2.  That is the only code
 * with evidence, so it is the only one the legacy table changes. */
#define LINX_DT_FP16_V04 2
#define LINX_DT_FP16_LEGACY 4

static const LinxSynName vs_names[] = {
    { 0, "VS8" }, { 1, "VS16" }, { 2, "VS32" }, { 3, "VS64" },
};

static const LinxSynName tmafn_names[] = {
    { 0, "TLOAD" }, { 1, "TSTORE" }, { 2, "TMOV" },
};

/* Function 1 = TMATMUL.BIAS: the LinxISA 0.58.1 catalog (LinxCore
 * src/common/opcode_catalog.yaml, bstart_tmatmul_bias, match 0x131181);
 * v0.4 names 0, 2 and 8 only. */
static const LinxSynName cubefn_names[] = {
    { 0, "TMATMUL" }, { 1, "TMATMUL.BIAS" }, { 2, "TMATMUL.ACC" }, { 8, "ACCCVT" },
};

static const LinxSynName cubefn_legacy_names[] = {
    { 0, "MAMULB" }, { 1, "MAMULB.BIAS" }, { 2, "MAMULB.ACC" }, { 8, "ACCCVT" },
};

/* TEPL TileOpcode = (Mode << 5) | Function (isa/v0.4/state/engine_ops.json). */
static const LinxSynName teplop_names[] = {
    { 0, "TADD" },       { 1, "TSUB" },       { 2, "TMUL" },       { 3, "TDIV" },
    { 4, "TMAX" },       { 5, "TMIN" },       { 6, "TAND" },       { 7, "TOR" },
    { 8, "TXOR" },       { 9, "TSHL" },       { 10, "TSHR" },      { 11, "TRELU" },
    { 12, "TPRELU" },    { 13, "TCVT" },      { 14, "TEXP" },      { 15, "TLOG" },
    { 16, "TSQRT" },     { 17, "TRSQRT" },    { 18, "TROWMAX" },   { 19, "TROWMIN" },
    { 20, "TROWSUM" },   { 21, "TCOLMAX" },   { 22, "TCOLMIN" },   { 23, "TCOLSUM" },
    { 24, "TRECIP" },    { 25, "TEXPANDS" },  { 26, "TGATHER" },   { 27, "TSCATTER" },
    { 28, "TRESHAPE" },  { 29, "TTRANSPOSE" }, { 30, "TCOLEXPAND" }, { 31, "TROWEXPAND" },
    { 32, "TADDS" },     { 33, "TSUBS" },     { 34, "TMULS" },     { 35, "TDIVS" },
    { 36, "TMAXS" },     { 37, "TMINS" },     { 38, "TANDS" },     { 39, "TORS" },
    { 40, "TXORS" },     { 41, "TSHLS" },     { 42, "TSHRS" },
};

/* B.ARG format / B.DATR layout selectors (digest 4.2: pinned by examples). */
static const LinxSynName bargfmt_names[] = {
    { 0, "NORM" }, { 1, "ND2NZ" }, { 3, "ND2ZN" }, { 8, "DN2ZN" }, { 9, "DN2NZ" }, { 28, "NZ2DN" },
};

/* ACCCVT's B.ARG format is its quant mode (docs/tile.md "Cube"): 0 none
 * (printed NORM, the spelling compiled and hand-written headers use), 1
 * scalar. */
static const LinxSynName quant_names[] = {
    { 0, "NORM" }, { 1, "QSCALAR" },
};

static const LinxSynName pad_names[] = {
    { 0, "Null" }, { 1, "Zero" }, { 2, "Max" }, { 3, "Min" },
};

static const LinxSynName trace_names[] = {
    { 0, "TRACE.end" }, { 1, "TRACE.begin" },
};

/* Scalar FP SrcType (LLVM printer: 0 double, 1 single, 2 half, 3 byte). */
static const LinxSynName ftype_names[] = {
    { 0, "fd" }, { 1, "fs" }, { 2, "fh" }, { 3, "fb" },
};

static const LinxSynName prf_names[] = {
    { 0, ".l1" }, { 1, ".l2" }, { 2, ".l3" },
};

typedef struct LinxSynEnumTable {
    const LinxSynName *names;
    size_t count;
    const LinxSynName *legacy; /* replaces @names with the legacy option */
    size_t legacy_count;
    const char *fallback; /* prefix of unnamed values; "" = plain decimal */
} LinxSynEnumTable;

static const LinxSynEnumTable enum_tables[LINX_SYN_E__COUNT] = {
    [LINX_SYN_E_DTYPE] = { NAMES(dtype_names), NULL, 0, "DT" },
    [LINX_SYN_E_VS] = { NAMES(vs_names), NULL, 0, "" },
    [LINX_SYN_E_TMAFN] = { NAMES(tmafn_names), NULL, 0, "" },
    [LINX_SYN_E_CUBEFN] = { NAMES(cubefn_names), NAMES(cubefn_legacy_names), "" },
    [LINX_SYN_E_TEPLOP] = { NAMES(teplop_names), NULL, 0, "" },
    [LINX_SYN_E_BARGFMT] = { NAMES(bargfmt_names), NULL, 0, "" },
    [LINX_SYN_E_LB] = { NULL, 0, NULL, 0, "lb" },
    [LINX_SYN_E_PAD] = { NAMES(pad_names), NULL, 0, "Pad" },
    [LINX_SYN_E_TRACE] = { NAMES(trace_names), NULL, 0, "" },
    [LINX_SYN_E_FTYPE] = { NAMES(ftype_names), NULL, 0, "" },
    [LINX_SYN_E_PRF] = { NAMES(prf_names), NULL, 0, ".m" },
    [LINX_SYN_E_QUANT] = { NAMES(quant_names), NULL, 0, "" },
};

static const char *lookup_name(const LinxSynName *t, size_t n, unsigned value)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i].value == value) {
            return t[i].name;
        }
    }
    return NULL;
}

static int lookup_value(const LinxSynName *t, size_t n, const char *s, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        if (linx_syn_token_eq(s, len, t[i].name)) {
            return t[i].value;
        }
    }
    return -1;
}

const char *linx_syn_dtype_name(unsigned code, bool legacy)
{
    if (legacy) {
        if (code == LINX_DT_FP16_LEGACY) {
            return "FP16";
        }
        if (code == LINX_DT_FP16_V04) {
            return NULL;
        }
    }
    return lookup_name(NAMES(dtype_names), code);
}

const char *linx_syn_enum_name(LinxSynEnum e, unsigned value, bool legacy)
{
    const LinxSynEnumTable *t = &enum_tables[e];

    if (e == LINX_SYN_E_DTYPE) {
        return linx_syn_dtype_name(value, legacy);
    }
    if (legacy && t->legacy) {
        return lookup_name(t->legacy, t->legacy_count, value);
    }
    return t->names ? lookup_name(t->names, t->count, value) : NULL;
}

const char *linx_syn_enum_fallback(LinxSynEnum e)
{
    return enum_tables[e].fallback;
}

int linx_syn_enum_parse(LinxSynEnum e, const char *s, size_t len, bool legacy)
{
    const LinxSynEnumTable *t = &enum_tables[e];
    size_t plen = strlen(t->fallback);
    int v = -1;

    if (e == LINX_SYN_E_DTYPE) {
        if (legacy && linx_syn_token_eq(s, len, "FP16")) {
            return LINX_DT_FP16_LEGACY;
        }
        v = lookup_value(NAMES(dtype_names), s, len);
        if (v < 0) {
            v = lookup_value(NAMES(dtype_aliases), s, len);
        }
    } else {
        /* Both spellings of renamed values are accepted in either mode
         * (the v0.4 manual lists MAMULB as an alias of TMATMUL). */
        if (t->names) {
            v = lookup_value(t->names, t->count, s, len);
        }
        if (v < 0 && e == LINX_SYN_E_BARGFMT) {
            /* ACCCVT quant modes are B.ARG formats too (QSCALAR = 1). */
            v = lookup_value(NAMES(quant_names), s, len);
        }
        if (v < 0 && t->legacy) {
            v = lookup_value(t->legacy, t->legacy_count, s, len);
        }
    }
    if (v >= 0) {
        return v;
    }
    if (plen && len > plen && strncasecmp(s, t->fallback, plen) == 0) {
        long n = parse_small_decimal(s + plen, len - plen);
        return n >= 0 && n < 1024 ? (int)n : -1;
    }
    if (!plen) {
        long n = parse_small_decimal(s, len);
        return n >= 0 && n < 1024 ? (int)n : -1;
    }
    return -1;
}

/* ---- System registers ------------------------------------------------- */

static const LinxSynName ssr_names[] = {
    { 0x000, "TP" },          { 0x001, "GP" },          { 0x010, "TIME" },
    { 0xc00, "CYCLE" },       { 0x020, "CSTATE" },      { 0x021, "LXLCID" },
    { 0x022, "VENDOR" },      { 0x023, "VERSION" },     { 0x024, "LCFR" },
    { 0x025, "LCFR_EN" },     { 0x050, "LB0" },         { 0x051, "LB1" },
    { 0x052, "LB2" },         { 0x053, "LC0" },         { 0x054, "LC1" },
    { 0x055, "LC2" },
    { 0xf00, "ECSTATE_ACRn" }, { 0xf01, "EVBASE_ACRn" }, { 0xf02, "TRAPNO_ACRn" },
    { 0xf03, "TRAPARG0_ACRn" }, { 0xf05, "ETEMP_ACRn" }, { 0xf06, "ETEMP0_ACRn" },
    { 0xf07, "ECONFIG_ACRn" }, { 0xf08, "IPENDING_ACRn" }, { 0xf09, "TOPEI_ACRn" },
    { 0xf0a, "EOIEI_ACRn" },   { 0xf10, "TTBR0_ACR1" },  { 0xf11, "TTBR1_ACR1" },
    { 0xf12, "TCR_ACR1" },     { 0xf13, "MAIR_ACR1" },   { 0xf14, "IOTTBR_ACR1" },
    { 0xf15, "IOTCR_ACR1" },   { 0xf16, "IOMAIR_ACR1" }, { 0xf20, "TIMER_TIME_ACRn" },
    { 0xf21, "TIMER_TIMECMP_ACRn" },
    { 0xf40, "EBARG0_ACRn" },  { 0xf41, "EBARG_BPC_CUR_ACRn" }, { 0xf42, "EBARG_BPC_TGT_ACRn" },
    { 0xf43, "EBARG_TPC_ACRn" }, { 0xf44, "EBARG_LRA_ACRn" }, { 0xf45, "EBARG_TQ0_ACRn" },
    { 0xf46, "EBARG_TQ1_ACRn" }, { 0xf47, "EBARG_TQ2_ACRn" }, { 0xf48, "EBARG_TQ3_ACRn" },
    { 0xf49, "EBARG_UQ0_ACRn" }, { 0xf4a, "EBARG_UQ1_ACRn" }, { 0xf4b, "EBARG_UQ2_ACRn" },
    { 0xf4c, "EBARG_UQ3_ACRn" }, { 0xf4d, "EBARG_LB_ACRn" }, { 0xf4e, "EBARG_LC_ACRn" },
    { 0xf4f, "EBARG_EXTCTX_PTR_ACRn" }, { 0xf50, "EBARG_EXTCTX_META_ACRn" },
    { 0xf51, "EBARG_TPLFLAGS_ACRn" },
};

const char *linx_syn_ssr_name(unsigned id)
{
    return lookup_name(NAMES(ssr_names), id);
}

int linx_syn_ssr_parse(const char *s, size_t len)
{
    return lookup_value(NAMES(ssr_names), s, len);
}

/* ---- RegId10 ---------------------------------------------------------- */

enum {
    LINX_R10_CLASS_VEC = 0,
    LINX_R10_CLASS_SCALAR = 1,
    LINX_R10_CLASS_MISC = 2,
    LINX_R10_CLASS_REUSE = 3,
    LINX_R10_QUEUE_DEPTH = 4,
    LINX_R10_QUEUE_STRIDE = 8,
    LINX_R10_NUM_RI = 12,
    LINX_R10_SCALAR_HANDS = 24, /* t#1 at index 24 .. u#4 at 31 */
};

static const char *const vec_queue_names[4] = { "vt", "vu", "vm", "vn" };

static const LinxSynName misc_names[] = {
    { 0, "lc0" },  { 1, "lb0" },  { 4, "lc1" },  { 5, "lb1" },  { 8, "lc2" },  { 9, "lb2" },
    { 16, "ta" },  { 17, "tb" },  { 18, "tc" },  { 19, "td" },  { 20, "te" },  { 21, "tf" },
    { 22, "tg" },  { 23, "th" },  { 24, "to" },  { 25, "to1" }, { 26, "to2" }, { 27, "to3" },
    { 28, "p" },   { 31, "zero" },
};

const char *linx_syn_regid10_name(unsigned code, char *buf, size_t len)
{
    unsigned cls = (code >> 5) & 3, idx = code & 31;
    const char *n;

    switch (cls) {
    case LINX_R10_CLASS_VEC:
    case LINX_R10_CLASS_REUSE:
        if (idx % LINX_R10_QUEUE_STRIDE < LINX_R10_QUEUE_DEPTH) {
            snprintf(buf, len, "%s#%u", vec_queue_names[idx / LINX_R10_QUEUE_STRIDE],
                     idx % LINX_R10_QUEUE_STRIDE + 1);
            return buf;
        }
        break;
    case LINX_R10_CLASS_SCALAR:
        if (idx < LINX_R10_NUM_RI) {
            snprintf(buf, len, "ri%u", idx);
            return buf;
        }
        if (idx >= LINX_R10_SCALAR_HANDS) {
            return linx_reg5_names[idx];
        }
        break;
    default:
        n = lookup_name(NAMES(misc_names), idx);
        if (n) {
            return n;
        }
        break;
    }
    snprintf(buf, len, "vr%u", code & 0x7f);
    return buf;
}

int linx_syn_regid10_parse(const char *s, size_t len)
{
    int v;

    if (len == 4 && s[0] == 'v' && s[2] == '#' && s[3] >= '1' && s[3] <= '4') {
        for (unsigned q = 0; q < 4; q++) {
            if (s[1] == vec_queue_names[q][1]) {
                return (int)(q * LINX_R10_QUEUE_STRIDE + (unsigned)(s[3] - '1'));
            }
        }
    }
    if (len >= 3 && strncmp(s, "ri", 2) == 0) {
        long n = parse_small_decimal(s + 2, len - 2);
        if (n >= 0 && n < LINX_R10_NUM_RI) {
            return (LINX_R10_CLASS_SCALAR << 5) | (int)n;
        }
    }
    if (len >= 3 && strncmp(s, "vr", 2) == 0) {
        long n = parse_small_decimal(s + 2, len - 2);
        if (n >= 0 && n < 128) {
            return (int)n;
        }
    }
    v = linx_syn_parse_reg5(s, len);
    if (v >= LINX_R10_SCALAR_HANDS) {
        return (LINX_R10_CLASS_SCALAR << 5) | v;
    }
    v = lookup_value(NAMES(misc_names), s, len);
    if (v >= 0) {
        return (LINX_R10_CLASS_MISC << 5) | v;
    }
    return -1;
}

/* ---- Tiles ------------------------------------------------------------ */

static const char tile_hands[4] = { 't', 'u', 'm', 'n' };

enum {
    LINX_TILE_DEPTH = 8,
};

void linx_syn_tile_name(unsigned id, char *buf, size_t len)
{
    snprintf(buf, len, "%c#%u", tile_hands[(id / LINX_TILE_DEPTH) & 3], id % LINX_TILE_DEPTH + 1);
}

int linx_syn_tile_parse(const char *s, size_t len)
{
    if (len != 3 || s[1] != '#' || s[2] < '1' || s[2] > '8') {
        return -1;
    }
    for (unsigned h = 0; h < 4; h++) {
        if (s[0] == tile_hands[h]) {
            return (int)(h * LINX_TILE_DEPTH + (unsigned)(s[2] - '1'));
        }
    }
    return -1;
}

static const char *const dsttile_names[8] = { "t", "u", "m", "n", "acc", "d5", "d6", "d7" };

const char *linx_syn_dsttile_name(unsigned code)
{
    return dsttile_names[code & 7];
}

int linx_syn_dsttile_parse(const char *s, size_t len)
{
    for (int i = 0; i < 8; i++) {
        if (linx_syn_token_eq(s, len, dsttile_names[i])) {
            return i;
        }
    }
    return -1;
}

/* ---- Conversion types ---------------------------------------------------
 * Scalar SrcType is 2 bits: fp fd fs fh fb, int {s,u}{d,w,h,b}.  DstType
 * and the vector SrcType are 5 bits: fp 0 fd, 1 fs; int 0..3 ud uw uh ub,
 * 8..11 sd sw sh sb (LLVM printer); other codes print as dt<N>. */

static const char *const fp2_names[4] = { "fd", "fs", "fh", "fb" };
static const char *const sint2_names[4] = { "sd", "sw", "sh", "sb" };
static const char *const uint2_names[4] = { "ud", "uw", "uh", "ub" };
static const LinxSynName fp5_names[] = { { 0, "fd" }, { 1, "fs" } };
static const LinxSynName int5_names[] = {
    { 0, "ud" }, { 1, "uw" }, { 2, "uh" }, { 3, "ub" },
    { 8, "sd" }, { 9, "sw" }, { 10, "sh" }, { 11, "sb" },
};

const char *linx_syn_cvt_type_name(unsigned code, bool fp, bool is_signed, bool wide,
                                   char *buf, size_t len)
{
    const char *n;

    if (!wide) {
        return fp ? fp2_names[code & 3] : is_signed ? sint2_names[code & 3] : uint2_names[code & 3];
    }
    n = fp ? lookup_name(NAMES(fp5_names), code) : lookup_name(NAMES(int5_names), code);
    if (n) {
        return n;
    }
    snprintf(buf, len, "dt%u", code);
    return buf;
}

int linx_syn_cvt_type_parse(const char *s, size_t len, bool fp, bool is_signed, bool wide)
{
    if (!wide) {
        const char *const *t = fp ? fp2_names : is_signed ? sint2_names : uint2_names;
        for (int i = 0; i < 4; i++) {
            if (linx_syn_token_eq(s, len, t[i])) {
                return i;
            }
        }
        return -1;
    }
    int v = fp ? lookup_value(NAMES(fp5_names), s, len) : lookup_value(NAMES(int5_names), s, len);
    if (v >= 0) {
        return v;
    }
    if (len > 2 && strncasecmp(s, "dt", 2) == 0) {
        long n = parse_small_decimal(s + 2, len - 2);
        return n >= 0 && n < 32 ? (int)n : -1;
    }
    return -1;
}
