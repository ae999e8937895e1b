/*
 * The register table of the gdb stub and everything derived from it:
 * g/G/p/P access and the target description XML (see regs.h).
 *
 * To add a register: add one row to gdb_regs[] (in the feature's place:
 * rows of a feature are contiguous, features in GdbFeatureId order), then
 * `ninja -C build regen-gdb-xml` to refresh gdbstub/gdb-xml/.  A plain
 * 64-bit field of CPULinxState needs only its offset; anything computed
 * gets an accessor kind below.
 */
#include <stddef.h>
#include <string.h>

#include "gdbstub/regs.h"
#include "hw/core/guest-memory.h"
#include "target/linx/decode.h"
#include "target/linx/translate-internal.h" /* linx_form_is_marker */

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
} GdbRegAccess;

typedef struct GdbRegDesc {
    const char *name;
    uint8_t feature;   /* GdbFeatureId */
    uint8_t access;    /* GdbRegAccess */
    uint8_t arg;       /* queue position for REG_QUEUE_* */
    const char *type;  /* gdb type of the 64-bit value */
    size_t offset;     /* REG_FIELD, REG_FIELD_RO */
} GdbRegDesc;

/* gdb's register groups, one per feature ("info registers block"). */
static const char *const feature_group[GDB_FEATURE_COUNT] = {
    "general", "block", "clockhands", "ssr",
};

const GdbFeature gdb_features[GDB_FEATURE_COUNT] = {
    { "org.linxisa.linx.core", "linx-core.xml",
      "R0-R23 with their ABI names (R0 reads as zero), and pc (TPC)" },
    { "org.linxisa.linx.block", "linx-block.xml",
      "Block state: BPC, branch kind, block type, CARG, TGT, loop bounds and counters" },
    { "org.linxisa.linx.clockhands", "linx-clockhands.xml",
      "ClockHands queues: t1-t4 are t#1-t#4, u1-u4 are u#1-u#4 (t1 is the newest)" },
    { "org.linxisa.linx.ssr", "linx-ssr.xml",
      "User SSRs (TP, GP, FCSR, CSTATE, LCFR_EN, CYCLE), the ring, and the last trap" },
};

#define ENV_OFF(field) offsetof(CPULinxState, field)
#define GPR_ROW(n, name, type) { name, GDB_FEATURE_CORE, REG_FIELD, 0, type, ENV_OFF(gpr[n]) }

static const GdbRegDesc gdb_regs[] = {
    /* ---- core: register numbers 0-24 ---- */
    { "zero", GDB_FEATURE_CORE, REG_ZERO, 0, "int", 0 },
    GPR_ROW(1, "sp", "data_ptr"),
    GPR_ROW(2, "a0", "int"),
    GPR_ROW(3, "a1", "int"),
    GPR_ROW(4, "a2", "int"),
    GPR_ROW(5, "a3", "int"),
    GPR_ROW(6, "a4", "int"),
    GPR_ROW(7, "a5", "int"),
    GPR_ROW(8, "a6", "int"),
    GPR_ROW(9, "a7", "int"),
    GPR_ROW(10, "ra", "code_ptr"),
    GPR_ROW(11, "s0", "int"),
    GPR_ROW(12, "s1", "int"),
    GPR_ROW(13, "s2", "int"),
    GPR_ROW(14, "s3", "int"),
    GPR_ROW(15, "s4", "int"),
    GPR_ROW(16, "s5", "int"),
    GPR_ROW(17, "s6", "int"),
    GPR_ROW(18, "s7", "int"),
    GPR_ROW(19, "s8", "int"),
    GPR_ROW(20, "x0", "int"),
    GPR_ROW(21, "x1", "int"),
    GPR_ROW(22, "x2", "int"),
    GPR_ROW(23, "x3", "int"),
    { "pc", GDB_FEATURE_CORE, REG_PC, 0, "code_ptr", 0 },

    /* ---- block state ---- */
    { "bpc", GDB_FEATURE_BLOCK, REG_FIELD, 0, "code_ptr", ENV_OFF(bpc) },
    { "bkind", GDB_FEATURE_BLOCK, REG_FIELD_RO, 0, "int", ENV_OFF(br_kind) },
    { "btype", GDB_FEATURE_BLOCK, REG_FIELD_RO, 0, "int", ENV_OFF(blk_type) },
    { "btarget", GDB_FEATURE_BLOCK, REG_FIELD_RO, 0, "code_ptr", ENV_OFF(hdr_target) },
    { "carg", GDB_FEATURE_BLOCK, REG_FIELD, 0, "int", ENV_OFF(carg) },
    { "tgt", GDB_FEATURE_BLOCK, REG_FIELD, 0, "code_ptr", ENV_OFF(tgt) },
    { "tgt_set", GDB_FEATURE_BLOCK, REG_FIELD_RO, 0, "int", ENV_OFF(tgt_set) },
    { "lb0", GDB_FEATURE_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lb[0]) },
    { "lb1", GDB_FEATURE_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lb[1]) },
    { "lb2", GDB_FEATURE_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lb[2]) },
    { "lc0", GDB_FEATURE_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lc[0]) },
    { "lc1", GDB_FEATURE_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lc[1]) },
    { "lc2", GDB_FEATURE_BLOCK, REG_FIELD, 0, "int", ENV_OFF(lc[2]) },

    /* ---- ClockHands queues ---- */
    { "t1", GDB_FEATURE_CLOCKHANDS, REG_QUEUE_T, 1, "int", 0 },
    { "t2", GDB_FEATURE_CLOCKHANDS, REG_QUEUE_T, 2, "int", 0 },
    { "t3", GDB_FEATURE_CLOCKHANDS, REG_QUEUE_T, 3, "int", 0 },
    { "t4", GDB_FEATURE_CLOCKHANDS, REG_QUEUE_T, 4, "int", 0 },
    { "u1", GDB_FEATURE_CLOCKHANDS, REG_QUEUE_U, 1, "int", 0 },
    { "u2", GDB_FEATURE_CLOCKHANDS, REG_QUEUE_U, 2, "int", 0 },
    { "u3", GDB_FEATURE_CLOCKHANDS, REG_QUEUE_U, 3, "int", 0 },
    { "u4", GDB_FEATURE_CLOCKHANDS, REG_QUEUE_U, 4, "int", 0 },

    /* ---- user SSRs, ring, last trap ---- */
    { "tp", GDB_FEATURE_SSR, REG_FIELD, 0, "data_ptr", ENV_OFF(ssr_tp) },
    { "gp", GDB_FEATURE_SSR, REG_FIELD, 0, "data_ptr", ENV_OFF(ssr_gp) },
    { "fcsr", GDB_FEATURE_SSR, REG_FCSR, 0, "int", 0 },
    { "cstate", GDB_FEATURE_SSR, REG_CSTATE, 0, "int", 0 },
    { "lcfr_en", GDB_FEATURE_SSR, REG_FIELD, 0, "int", ENV_OFF(ssr_lcfr_en) },
    { "cycle", GDB_FEATURE_SSR, REG_FIELD_RO, 0, "uint64", ENV_OFF(insn_count) },
    { "acr", GDB_FEATURE_SSR, REG_ACR, 0, "int", 0 },
    { "trapno", GDB_FEATURE_SSR, REG_FIELD, 0, "int", ENV_OFF(trapno) },
    { "traparg0", GDB_FEATURE_SSR, REG_FIELD, 0, "int", ENV_OFF(traparg0) },
    { "trap_pc", GDB_FEATURE_SSR, REG_FIELD, 0, "code_ptr", ENV_OFF(trap_pc) },
};

#define NUM_REGS (sizeof(gdb_regs) / sizeof(gdb_regs[0]))
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

unsigned gdb_reg_count(void)
{
    return NUM_REGS;
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

    if (!env->mem) {
        return false;
    }
    while (n < sizeof(buf) &&
           guest_mem_debug_rw(env->mem, pc + n, buf + n, HALFWORD, false) == GM_OK) {
        n += HALFWORD;
    }
    return linx_decode(buf, n, &insn) == LINX_DECODE_OK && linx_form_is_marker(insn.form);
}

void gdb_set_pc(CPULinxState *env, uint64_t pc)
{
    env->pc = pc;
    env->resume = !pc_is_marker(env, pc);
}

/* ---- Target description ---- */

static const char xml_header[] = "<?xml version=\"1.0\"?>\n";

static void xml_comment(GString *x, const char *file, const char *doc)
{
    g_string_append_printf(x,
                           "<!-- %s: generated from gdbstub/regs.c (ninja regen-gdb-xml); "
                           "do not edit.\n     %s. -->\n",
                           file, doc);
}

char *gdb_xml_feature(GdbFeatureId f)
{
    GString *x = g_string_new(xml_header);

    if (f >= GDB_FEATURE_COUNT) {
        xml_comment(x, GDB_TARGET_XML, "LinxISA v0.4 target description (linxemu gdb stub)");
        g_string_append(x, "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
                           "<target version=\"1.0\" "
                           "xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
                           "  <architecture>" GDB_ARCH_NAME "</architecture>\n");
        for (unsigned i = 0; i < GDB_FEATURE_COUNT; i++) {
            g_string_append_printf(x, "  <xi:include href=\"%s\"/>\n", gdb_features[i].file);
        }
        g_string_append(x, "</target>\n");
        return g_string_free(x, FALSE);
    }
    xml_comment(x, gdb_features[f].file, gdb_features[f].doc);
    g_string_append_printf(x, "<!DOCTYPE feature SYSTEM \"gdb-target.dtd\">\n"
                              "<feature name=\"%s\">\n",
                           gdb_features[f].name);
    for (unsigned i = 0; i < NUM_REGS; i++) {
        const GdbRegDesc *r = &gdb_regs[i];
        if (r->feature != f) {
            continue;
        }
        g_string_append_printf(x,
                               "  <reg name=\"%s\" bitsize=\"%u\" type=\"%s\" regnum=\"%u\" "
                               "group=\"%s\"/>\n",
                               r->name, GDB_REG_BYTES * 8, r->type, i, feature_group[f]);
    }
    g_string_append(x, "</feature>\n");
    return g_string_free(x, FALSE);
}

char *gdb_xml_annex(const char *annex)
{
    if (!strcmp(annex, GDB_TARGET_XML)) {
        return gdb_xml_feature(GDB_FEATURE_COUNT);
    }
    for (unsigned i = 0; i < GDB_FEATURE_COUNT; i++) {
        if (!strcmp(annex, gdb_features[i].file)) {
            return gdb_xml_feature((GdbFeatureId)i);
        }
    }
    return NULL;
}
