/*
 * The register table of the gdb stub and everything derived from it:
 * g/G/p/P access and the target description XML (see regs.h).
 *
 * To add a register: add one row to gdb_regs[] before the padding rows
 * (register numbers are table indexes and must not change for existing
 * registers), then `ninja -C build regen-gdb-xml` to refresh
 * gdbstub/gdb-xml/.  A plain
 * 64-bit field of CPULinxState needs only its offset; anything computed
 * gets an accessor kind below.
 */
#include <stddef.h>
#include <string.h>

#include "gdbstub/regs.h"
#include "hw/core/guest-memory.h"
#include "target/linx/decode.h"
#include "target/linx/dwarf-regs.h"
#include "target/linx/translate-gen.h" /* linx_form_is_marker */

/* How a register's value is reached. */
typedef enum GdbRegAccess {
    REG_FIELD,    /* the uint64_t at .offset, read-write */
    REG_FIELD_RO, /* the uint64_t at .offset, read-only */
    REG_ZERO,     /* R0: reads 0, writes are ignored */
    REG_PC,       /* env->pc, written through gdb_set_pc() */
    REG_QUEUE_T,  /* ClockHands t#arg */
    REG_QUEUE_U,  /* ClockHands u#arg */
    REG_FCSR,     /* env->fcsr, writes keep the defined bits */
    REG_CSTATE,   /* CSTATE as SSRGET reads it: ring in bits 1:0 */
    REG_ACR,      /* the current ring, read-only */
    REG_PAD,      /* compat padding: unavailable, writes ignored */
} GdbRegAccess;

/* Features of the two descriptions, in the order they are written. */
typedef enum GdbFeatureId {
    FEAT_RISCV_CPU, /* compat only */
    FEAT_CORE,
    FEAT_BLOCK,
    FEAT_CLOCKHANDS,
    FEAT_SSR,
    FEAT_COUNT,
    FEAT_NONE = FEAT_COUNT, /* not in the linx description (padding) */
} GdbFeatureId;

typedef struct GdbFeature {
    const char *name;  /* <feature name="..."> */
    const char *group; /* gdb register group ("info registers block") */
    const char *doc;   /* one-line comment in the XML */
} GdbFeature;

static const GdbFeature features[FEAT_COUNT] = {
    { "org.gnu.gdb.riscv.cpu", "general",
      "RISC-V x0-x15 by ABI name, as gdb's riscv:rv64 validates it: the Linx register of that "
      "name (tp, gp: the TP/GP SSRs); t0-t2 are padding, always unavailable" },
    { "org.linxisa.linx.core", "general",
      "R0-R23 with their ABI names (R0 reads as zero), and pc (TPC)" },
    { "org.linxisa.linx.block", "block",
      "Block state: BPC, branch kind, block type, CARG, TGT, loop bounds and counters" },
    { "org.linxisa.linx.clockhands", "clockhands",
      "ClockHands queues: tq1-tq4 are t#1-t#4, uq1-uq4 are u#1-u#4 (tq1 is the newest)" },
    { "org.linxisa.linx.ssr", "ssr",
      "User SSRs (TP, GP, FCSR, CSTATE, LCFR_EN, CYCLE), the ring, and the last trap" },
};

typedef struct GdbRegDesc {
    const char *name;
    uint8_t feature;        /* GdbFeatureId in the linx description (FEAT_NONE: padding) */
    uint8_t compat_feature; /* GdbFeatureId in the compat description */
    uint8_t access;         /* GdbRegAccess */
    uint8_t arg;            /* queue position for REG_QUEUE_* */
    int8_t dwarf_compat;    /* DWARF number beyond the GPRs, compat (-1: none) */
    int8_t dwarf_linx;      /* ... and LinxISA LLVM numbering (-1: none) */
    const char *type;       /* gdb type of the 64-bit value */
    const char *generic;    /* lldb's generic= role, or NULL */
    size_t offset;          /* REG_FIELD, REG_FIELD_RO */
} GdbRegDesc;

#define ENV_OFF(field) offsetof(CPULinxState, field)
/* A GPR (its DWARF numbers come from target/linx/dwarf-regs.h). */
#define GPR_ROW(n, name, type, cfeat, generic)                                                \
    { name, FEAT_CORE, cfeat, REG_FIELD, 0, -1, -1, type, generic, ENV_OFF(gpr[n]) }
#define RV FEAT_RISCV_CPU
#define CORE FEAT_CORE
#define ROW(name, feat, access, arg, type, off)                                              \
    { name, feat, feat, access, arg, -1, -1, type, NULL, off }

static const GdbRegDesc gdb_regs[] = {
    /* ---- core: register numbers 0-24 ---- */
    { "zero", FEAT_CORE, RV, REG_ZERO, 0, -1, -1, "int", NULL, 0 },
    GPR_ROW(1, "sp", "data_ptr", RV, "sp"),
    GPR_ROW(2, "a0", "int", RV, "arg1"),
    GPR_ROW(3, "a1", "int", RV, "arg2"),
    GPR_ROW(4, "a2", "int", RV, "arg3"),
    GPR_ROW(5, "a3", "int", RV, "arg4"),
    GPR_ROW(6, "a4", "int", RV, "arg5"),
    GPR_ROW(7, "a5", "int", RV, "arg6"),
    GPR_ROW(8, "a6", "int", CORE, "arg7"),
    GPR_ROW(9, "a7", "int", CORE, "arg8"),
    GPR_ROW(10, "ra", "code_ptr", RV, "ra"),
    GPR_ROW(11, "s0", "int", RV, NULL),
    GPR_ROW(12, "s1", "int", RV, NULL),
    GPR_ROW(13, "s2", "int", CORE, NULL),
    GPR_ROW(14, "s3", "int", CORE, NULL),
    GPR_ROW(15, "s4", "int", CORE, NULL),
    GPR_ROW(16, "s5", "int", CORE, NULL),
    GPR_ROW(17, "s6", "int", CORE, NULL),
    /* The LinxISA LLVM backend's frame pointer (LinxISAFrameLowering.cpp). */
    GPR_ROW(18, "s7", "int", CORE, "fp"),
    GPR_ROW(19, "s8", "int", CORE, NULL),
    GPR_ROW(20, "x0", "int", CORE, NULL),
    GPR_ROW(21, "x1", "int", CORE, NULL),
    GPR_ROW(22, "x2", "int", CORE, NULL),
    GPR_ROW(23, "x3", "int", CORE, NULL),
    { "pc", FEAT_CORE, RV, REG_PC, 0, -1, -1, "code_ptr", "pc", 0 },

    /* ---- block state ---- */
    ROW("bpc", FEAT_BLOCK, REG_FIELD, 0, "code_ptr", ENV_OFF(bpc)),
    ROW("bkind", FEAT_BLOCK, REG_FIELD_RO, 0, "int", ENV_OFF(br_kind)),
    ROW("btype", FEAT_BLOCK, REG_FIELD_RO, 0, "int", ENV_OFF(blk_type)),
    ROW("btarget", FEAT_BLOCK, REG_FIELD_RO, 0, "code_ptr", ENV_OFF(hdr_target)),
    ROW("carg", FEAT_BLOCK, REG_FIELD, 0, "int", ENV_OFF(carg)),
    ROW("tgt", FEAT_BLOCK, REG_FIELD, 0, "code_ptr", ENV_OFF(tgt)),
    ROW("tgt_set", FEAT_BLOCK, REG_FIELD_RO, 0, "int", ENV_OFF(tgt_set)),
    ROW("lb0", FEAT_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lb[0])),
    ROW("lb1", FEAT_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lb[1])),
    ROW("lb2", FEAT_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lb[2])),
    ROW("lc0", FEAT_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lc[0])),
    ROW("lc1", FEAT_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lc[1])),
    ROW("lc2", FEAT_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lc[2])),

    /* ---- ClockHands queues ---- */
    ROW("tq1", FEAT_CLOCKHANDS, REG_QUEUE_T, 1, "int", 0),
    ROW("tq2", FEAT_CLOCKHANDS, REG_QUEUE_T, 2, "int", 0),
    ROW("tq3", FEAT_CLOCKHANDS, REG_QUEUE_T, 3, "int", 0),
    ROW("tq4", FEAT_CLOCKHANDS, REG_QUEUE_T, 4, "int", 0),
    ROW("uq1", FEAT_CLOCKHANDS, REG_QUEUE_U, 1, "int", 0),
    ROW("uq2", FEAT_CLOCKHANDS, REG_QUEUE_U, 2, "int", 0),
    ROW("uq3", FEAT_CLOCKHANDS, REG_QUEUE_U, 3, "int", 0),
    ROW("uq4", FEAT_CLOCKHANDS, REG_QUEUE_U, 4, "int", 0),

    /* ---- user SSRs, ring, last trap ---- */
    { "tp", FEAT_SSR, RV, REG_FIELD, 0, 4, -1, "data_ptr", NULL, ENV_OFF(ssr_tp) },
    { "gp", FEAT_SSR, RV, REG_FIELD, 0, 3, -1, "data_ptr", NULL, ENV_OFF(ssr_gp) },
    ROW("fcsr", FEAT_SSR, REG_FCSR, 0, "int", 0),
    ROW("cstate", FEAT_SSR, REG_CSTATE, 0, "int", 0),
    ROW("lcfr_en", FEAT_SSR, REG_FIELD, 0, "int", ENV_OFF(ssr_lcfr_en)),
    ROW("cycle", FEAT_SSR, REG_FIELD_RO, 0, "uint64", ENV_OFF(insn_count)),
    ROW("acr", FEAT_SSR, REG_ACR, 0, "int", 0),
    ROW("trapno", FEAT_SSR, REG_FIELD, 0, "int", ENV_OFF(trapno)),
    ROW("traparg0", FEAT_SSR, REG_FIELD, 0, "int", ENV_OFF(traparg0)),
    ROW("trap_pc", FEAT_SSR, REG_FIELD, 0, "code_ptr", ENV_OFF(trap_pc)),

    /* ---- compat padding: RISC-V t0-t2 (x5-x7), which Linx lacks ---- */
    { "t0", FEAT_NONE, RV, REG_PAD, 0, 5, -1, "int", NULL, 0 },
    { "t1", FEAT_NONE, RV, REG_PAD, 0, 6, -1, "int", NULL, 0 },
    { "t2", FEAT_NONE, RV, REG_PAD, 0, 7, -1, "int", NULL, 0 },
};

#define NUM_REGS (sizeof(gdb_regs) / sizeof(gdb_regs[0]))
#define NUM_PADDING 3u
#define REG_PC_NUM LINX_NUM_GPRS /* right after R0-R23 */

_Static_assert(REG_PC_NUM < NUM_REGS, "pc must be in the table");

/* FCSR bits SSRSET may change: the flags and the rounding mode. */
#define FCSR_FLAGS_MASK 0x1fu
#define FCSR_RM_BITS 3
#define FCSR_WRITABLE (FCSR_FLAGS_MASK | (((1u << FCSR_RM_BITS) - 1) << LINX_FCSR_RM_SHIFT))
/* CSTATE bits 1:0 read as the current ring. */
#define CSTATE_RING_MASK UINT64_C(3)
/* Longest instruction, for the marker check of gdb_set_pc(). */
#define MAX_INSN_BYTES 8
#define HALFWORD 2

unsigned gdb_reg_count(GdbTdesc d)
{
    /* Padding rows come last: the linx description is a prefix. */
    return d == GDB_TDESC_LINX ? (unsigned)(NUM_REGS - NUM_PADDING) : (unsigned)NUM_REGS;
}

bool gdb_reg_is_padding(unsigned n)
{
    return n < NUM_REGS && gdb_regs[n].access == REG_PAD;
}

int gdb_reg_dwarf(GdbTdesc d, unsigned n)
{
    if (n >= gdb_reg_count(d)) {
        return -1;
    }
    if (n < LINX_NUM_GPRS) {
        /* The one numbering table (target/linx/dwarf-regs.h), which
         * linx-as -g uses too. */
        return linx_dwarf_regnum(d == GDB_TDESC_LINX ? LINX_DWARF_LLVM : LINX_DWARF_DEBUGGER, n);
    }
    return d == GDB_TDESC_LINX ? gdb_regs[n].dwarf_linx : gdb_regs[n].dwarf_compat;
}

unsigned gdb_reg_pc(void)
{
    return REG_PC_NUM;
}

unsigned gdb_reg_sp(void)
{
    return LINX_REG_SP;
}

const char *gdb_reg_name(unsigned n)
{
    return n < NUM_REGS ? gdb_regs[n].name : NULL;
}

int gdb_reg_lookup(const char *name)
{
    for (unsigned i = 0; i < NUM_REGS; i++) {
        if (!strcmp(gdb_regs[i].name, name)) {
            return (int)i;
        }
    }
    return -1;
}

static uint64_t *field(CPULinxState *env, const GdbRegDesc *r)
{
    return (uint64_t *)((char *)env + r->offset);
}

static uint64_t *queue_slot(CPULinxState *env, bool u, unsigned k)
{
    uint64_t head = u ? env->u_head : env->t_head;
    uint64_t *q = u ? env->uq : env->tq;

    return &q[(head - (k - 1)) & (LINX_QUEUE_DEPTH - 1)];
}

uint64_t gdb_reg_read(CPULinxState *env, unsigned n)
{
    const GdbRegDesc *r;

    if (n >= NUM_REGS) {
        return 0;
    }
    r = &gdb_regs[n];
    switch ((GdbRegAccess)r->access) {
    case REG_FIELD:
    case REG_FIELD_RO:
        return *field(env, r);
    case REG_ZERO:
        return 0;
    case REG_PC:
        return env->pc;
    case REG_QUEUE_T:
    case REG_QUEUE_U:
        return linx_cpu_queue_read(env, r->access == REG_QUEUE_U, r->arg);
    case REG_FCSR:
        return env->fcsr;
    case REG_CSTATE:
        return (env->ssr_cstate & ~CSTATE_RING_MASK) | env->acr;
    case REG_ACR:
        return env->acr;
    case REG_PAD:
        return 0;
    }
    return 0;
}

bool gdb_reg_write(CPULinxState *env, unsigned n, uint64_t v)
{
    const GdbRegDesc *r;

    if (n >= NUM_REGS) {
        return false;
    }
    r = &gdb_regs[n];
    switch ((GdbRegAccess)r->access) {
    case REG_FIELD:
        *field(env, r) = v;
        return true;
    case REG_ZERO:
        return true; /* hard zero: any write is dropped */
    case REG_PC:
        if (v != env->pc) {
            gdb_set_pc(env, v);
        }
        return true;
    case REG_QUEUE_T:
    case REG_QUEUE_U:
        *queue_slot(env, r->access == REG_QUEUE_U, r->arg) = v;
        return true;
    case REG_FCSR:
        env->fcsr = v & FCSR_WRITABLE;
        return true;
    case REG_CSTATE:
        /* The ring changes only by ACRC/ACRE, as for SSRSET. */
        env->ssr_cstate = v & ~CSTATE_RING_MASK;
        return true;
    case REG_FIELD_RO:
    case REG_ACR:
        return v == gdb_reg_read(env, n);
    case REG_PAD:
        return true; /* no such register in Linx: dropped */
    }
    return false;
}

/* Does @pc hold a block-start marker?  Unreadable memory counts as no
 * (the fetch then faults either way). */
static bool pc_is_marker(CPULinxState *env, uint64_t pc)
{
    uint8_t buf[MAX_INSN_BYTES];
    size_t n = 0;
    LinxInsn insn;

    if (!env->engine.mem) {
        return false;
    }
    while (n < sizeof(buf) &&
           guest_mem_debug_rw(env->engine.mem, pc + n, buf + n, HALFWORD, false) == GM_OK) {
        n += HALFWORD;
    }
    return linx_decode(buf, n, &insn) == LINX_DECODE_OK && linx_form_is_marker(insn.form);
}

void gdb_set_pc(CPULinxState *env, uint64_t pc)
{
    env->pc = pc;
    env->resume = !pc_is_marker(env, pc);
}

/* ---- Target descriptions ---- */

static GdbFeatureId reg_feature(const GdbRegDesc *r, GdbTdesc d)
{
    return (GdbFeatureId)(d == GDB_TDESC_LINX ? r->feature : r->compat_feature);
}

static void xml_reg(GString *x, GdbTdesc d, unsigned i)
{
    const GdbRegDesc *r = &gdb_regs[i];
    int dw = gdb_reg_dwarf(d, i);

    g_string_append_printf(x, "    <reg name=\"%s\" bitsize=\"%u\" type=\"%s\" regnum=\"%u\" group=\"%s\"",
                           r->name, GDB_REG_BYTES * 8, r->type, i,
                           features[reg_feature(r, d)].group);
    if (r->generic) {
        g_string_append_printf(x, " generic=\"%s\"", r->generic);
    }
    if (dw >= 0) {
        /* lldb reads CFI and DWARF locations through these; gdb ignores
         * them (decisions.md D10). */
        g_string_append_printf(x, " dwarf_regnum=\"%d\" ehframe_regnum=\"%d\"", dw, dw);
    }
    g_string_append(x, "/>\n");
}

char *gdb_xml_target(GdbTdesc d)
{
    GString *x = g_string_new("<?xml version=\"1.0\"?>\n");
    bool compat = d == GDB_TDESC_COMPAT;

    g_string_append_printf(
        x,
        "<!-- %s: generated from gdbstub/regs.c (ninja regen-gdb-xml); do not edit.\n"
        "     %s -->\n"
        "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
        "<target version=\"1.0\">\n",
        compat ? GDB_XML_FILE_COMPAT : GDB_XML_FILE_LINX,
        compat ? "LinxISA registers in the shape stock gdb-multiarch and lldb accept\n"
                 "     (riscv:rv64, docs/gdbstub.md); the stub serves it as target.xml by default."
               : "LinxISA v0.4 target description (linxemu gdb stub); served as target.xml\n"
                 "     with -g PORT,tdesc=linx (linx-system: -gdb tcp::PORT,tdesc=linx).");
    if (compat) {
        /* osabi none: gdb's GNU/Linux RISC-V code would single-step in
         * software, decoding Linx bytes as RISC-V. */
        g_string_append(x, "  <architecture>" GDB_COMPAT_ARCH "</architecture>\n"
                           "  <osabi>none</osabi>\n");
    }
    for (unsigned f = compat ? FEAT_RISCV_CPU : FEAT_CORE; f < FEAT_COUNT; f++) {
        g_string_append_printf(x, "  <!-- %s. -->\n  <feature name=\"%s\">\n", features[f].doc,
                               features[f].name);
        for (unsigned i = 0; i < gdb_reg_count(d); i++) {
            if (reg_feature(&gdb_regs[i], d) == f) {
                xml_reg(x, d, i);
            }
        }
        g_string_append(x, "  </feature>\n");
    }
    g_string_append(x, "</target>\n");
    return g_string_free(x, FALSE);
}

char *gdb_xml_annex(GdbTdesc d, const char *annex)
{
    return strcmp(annex, GDB_TARGET_XML) == 0 ? gdb_xml_target(d) : NULL;
}
