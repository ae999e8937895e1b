/*
 * Seed template blocks: the parsed form shared by template.c (parsing)
 * and template-emit.c (expansion into header instructions).
 *
 *   TSTORE.<Layout> <LB0:ValidCol, LB1:ValidRow, LB2:Col, DataType>,
 *          SrcTile0<.reuse>, ..., SrcTile7, [RegSrc0, RegSrc1],
 *          DepSrc0, DepSrc1, DepSrc2, ->DepDst                  (seed 000)
 *   TLOAD.<Layout>  <LB0:.., LB1:.., LB2:.., DataType[, Pad]>,
 *          [RegSrc0, RegSrc1], DepSrc..., ->DstTile<Size>, ->DepDst
 *   MPAR|MSEQ .body, <LB0:.., LB1:.., LB2:.., VSize, DR>, SrcTile...,
 *          [BGetList], DepSrc..., ->DstTile0<Size0>, ..., [BSetList], DepDst
 *                                                              (seed 004)
 * Expressions are kept as pointers into the source line (they end at the
 * next ',' or '>') and evaluated again in pass 2.
 */
#ifndef LINX_TOOLS_AS_TEMPLATE_H
#define LINX_TOOLS_AS_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TMPL_MAX_SRC 8
#define TMPL_MAX_DST 4
#define TMPL_MAX_GET 12
#define TMPL_MAX_SET 8
#define TMPL_MAX_DEPS 3
#define TMPL_MAX_INSNS 40
#define TMPL_TEXT_LEN 80

typedef enum TmplKind {
    TMPL_TSTORE,
    TMPL_TLOAD,
    TMPL_MPAR,
    TMPL_MSEQ,
} TmplKind;

/* A loop bound: register, immediate, or register + immediate. */
typedef struct TmplLb {
    bool present;
    int reg;          /* GPR code, -1 when none */
    const char *expr; /* immediate expression, NULL when none */
    unsigned col;
    bool compressed;  /* pass 1 chose C.B.DIMI */
} TmplLb;

typedef struct TmplTile {
    uint8_t id;       /* hand * 8 + (k - 1) */
    bool reuse;
} TmplTile;

typedef struct TmplDst {
    uint8_t kind;     /* 0 t, 1 u, 2 m, 3 n, 4 acc */
    int reg;          /* size from a GPR (B.IOT), -1 for an immediate size */
    uint8_t size_code;/* B.IOTI: size = 2^(code + 4) */
} TmplDst;

typedef struct TmplExpr {
    const char *expr;
    unsigned col;
} TmplExpr;

/* What an expanded instruction does (which operands fill it). */
typedef enum TmplRole {
    TMPL_R_HEADER, /* BSTART.* / C.BSTART.* */
    TMPL_R_ATTR,   /* B.ATTR (B.CATR) with DR */
    TMPL_R_TEXT,   /* B.TEXT body */
    TMPL_R_DATR,   /* B.DATR layout */
    TMPL_R_LB,     /* B.DIM / C.B.DIMI, arg = loop nest */
    TMPL_R_IOT,    /* B.IOT / B.IOTI, arg = descriptor number */
    TMPL_R_IOR,    /* B.IOR, arg = descriptor number */
    TMPL_R_IOD,    /* B.IOD */
} TmplRole;

/* One expanded instruction: form chosen in pass 1, bits in pass 2. */
typedef struct TmplInsn {
    uint16_t form;
    uint8_t role;  /* TmplRole */
    uint8_t arg;
    uint8_t len;
    uint64_t packed;
    char text[TMPL_TEXT_LEN];
} TmplInsn;

typedef struct AsTemplate {
    TmplKind kind;
    bool compressed_header; /* MPAR/MSEQ: C.BSTART.MPAR/MSEQ (VS16) */
    int layout;             /* B.DATR layout code */
    int dtype;              /* tile DataType code, -1 none */
    int pad;                /* TLOAD pad policy */
    int vsize;              /* MPAR/MSEQ Mode, -1 when not given */
    bool dr;
    TmplLb lb[3];
    TmplExpr body;          /* MPAR/MSEQ body label */
    TmplTile src[TMPL_MAX_SRC];
    int nsrc;
    TmplDst dst[TMPL_MAX_DST];
    int ndst;
    int get[TMPL_MAX_GET];  /* B.IOR sources (TSTORE/TLOAD: base, stride) */
    int nget;
    int set[TMPL_MAX_SET];  /* B.IOR destinations */
    int nset;
    TmplExpr dep[TMPL_MAX_DEPS];
    int ndep;
    TmplExpr depdst;        /* expr NULL when absent */
    TmplInsn insn[TMPL_MAX_INSNS];
    int ninsn;
} AsTemplate;

#define TMPL_BAD_LAYOUT 0xffu

/* B.DATR Layout code of a layout name (either direction's spelling) for a
 * TSTORE (@store) or a TLOAD; TMPL_BAD_LAYOUT for an unknown name. */
unsigned tmpl_datr_code(bool store, const char *name, size_t len);

/* Tile DataType codes (v0.4, digest section 4.1), and back. */
int tmpl_dtype_code(const char *name, size_t len);
const char *tmpl_dtype_name(int code);
/* Name of a B.DATR layout code in TSTORE's or TLOAD's spelling. */
const char *tmpl_layout_name(bool store, unsigned code);
/* GPR code of the register named at @p (whole identifier), or -1. */
int tmpl_gpr(const char *p, size_t len);
const char *tmpl_gpr_name(int code);

/* Plan the expansion (forms and sizes) after parsing; false on error. */
bool tmpl_plan(LinxAs *as, AsStmt *st, AsTemplate *t);

#endif /* LINX_TOOLS_AS_TEMPLATE_H */
