/*
 * Reports of unhandled traps (trap-report.h).
 */
#include "trap-report.h"

#include <inttypes.h>
#include <string.h>

#include "disas.h"
#include "hw/core/guest-memory.h"

#define REPORT_INSN_BYTES 8

const char *linx_trap_name(unsigned trapnum)
{
    switch (trapnum) {
    case LINX_TRAP_EXEC_STATE:
        return "execution state error";
    case LINX_TRAP_ILLEGAL_INST:
        return "illegal instruction";
    case LINX_TRAP_BLOCK:
        return "block error";
    case LINX_TRAP_SCALL:
        return "service request";
    case LINX_TRAP_INST_PC_FAULT:
        return "bad instruction address";
    case LINX_TRAP_INST_PAGE_FAULT:
        return "instruction fetch fault";
    case LINX_TRAP_DATA_ALIGN_FAULT:
        return "misaligned data access";
    case LINX_TRAP_DATA_PAGE_FAULT:
        return "data access fault";
    case LINX_TRAP_INTERRUPT:
        return "interrupt";
    case LINX_TRAP_HW_BREAKPOINT:
        return "hardware breakpoint";
    case LINX_TRAP_SW_BREAKPOINT:
        return "breakpoint";
    case LINX_TRAP_HW_WATCHPOINT:
        return "watchpoint";
    case LINX_TRAP_ASSERT_FAIL:
        return "assertion failed";
    default:
        return "trap";
    }
}

static const char *desc_family(unsigned family)
{
    static const char *const names[] = { "header", "B.DIM", "B.TEXT", "B.ARG", "B.IOR", "B.IOT" };
    return family < sizeof(names) / sizeof(names[0]) ? names[family] : "descriptor";
}

void linx_trap_cause_text(unsigned trapnum, unsigned cause, uint64_t traparg0, char *buf,
                          size_t len)
{
    unsigned ec = (cause >> 8) & 0xff, detail = cause & 0xff;

    switch (trapnum) {
    case LINX_TRAP_ILLEGAL_INST:
        snprintf(buf, len, "%s",
                 ec == LINX_EC_ILLEGAL ? "E_INST(EC_ILLEGAL): no instruction, or one not "
                                         "allowed here (a reserved encoding, a kernel-body "
                                         "branch in a scalar block, a non-B.* in a header)"
                 : ec == LINX_EC_PARAM ? "E_INST(EC_PARAM): an illegal parameter"
                 : ec == LINX_EC_PERM  ? "E_INST(EC_PERM): not permitted in this ring"
                                       : "E_INST");
        return;
    case LINX_TRAP_BLOCK:
        if (ec == LINX_EC_CFI && detail == LINX_CFI_BAD_TARGET) {
            snprintf(buf, len, "E_BLOCK(EC_CFI): the block at 0x%" PRIx64
                               " branched to an instruction that is not a block start "
                               "marker", traparg0);
        } else if (ec == LINX_EC_CFI && detail == LINX_CFI_MISSING_NEXT_MARKER) {
            snprintf(buf, len, "E_BLOCK(EC_CFI): the block ends and the instruction after "
                               "it is not a block start marker");
        } else if (ec == LINX_EC_BLOCKFMT) {
            unsigned fam = (unsigned)(traparg0 & 0xff), d = (unsigned)((traparg0 >> 8) & 0xff);
            snprintf(buf, len, "E_BLOCK(EC_BLOCKFMT): %s %s", desc_family(fam),
                     d == LINX_BLOCKFMT_MISSING   ? "missing"
                     : d == LINX_BLOCKFMT_BAD_VALUE ? "with a bad value"
                     : d == LINX_BLOCKFMT_COMBO   ? "in an illegal combination"
                                                  : "malformed");
        } else if (ec == LINX_EC_BFETCH) {
            snprintf(buf, len, "E_BLOCK(EC_BFETCH): a body fetch left its body or the body "
                               "address is not halfword aligned");
        } else {
            snprintf(buf, len, "E_BLOCK");
        }
        return;
    case LINX_TRAP_SCALL:
        snprintf(buf, len, "acrc request type %u", detail);
        return;
    case LINX_TRAP_DATA_PAGE_FAULT:
    case LINX_TRAP_INST_PAGE_FAULT:
        snprintf(buf, len, "no %s mapping at 0x%" PRIx64,
                 trapnum == LINX_TRAP_INST_PAGE_FAULT ? "executable" : "readable/writable",
                 traparg0);
        return;
    case LINX_TRAP_DATA_ALIGN_FAULT:
        snprintf(buf, len, "address 0x%" PRIx64 " is not aligned to the access size",
                 traparg0);
        return;
    case LINX_TRAP_INST_PC_FAULT:
        snprintf(buf, len, "pc 0x%" PRIx64 " is not halfword aligned", traparg0);
        return;
    default:
        snprintf(buf, len, "TRAPARG0 0x%" PRIx64, traparg0);
        return;
    }
}

void linx_trap_insn_text(CPULinxState *env, uint64_t pc, char *buf, size_t len)
{
    uint8_t bytes[REPORT_INSN_BYTES];
    size_t n = 0;
    char text[LINX_DISAS_MAX], hex[64];
    unsigned used = 0;
    LinxDisasEnv denv = { 0, NULL, NULL, env->profile };

    while (env->engine.mem && n < sizeof(bytes) &&
           guest_mem_debug_rw(env->engine.mem, pc + n, bytes + n, 2, false) == GM_OK) {
        n += 2;
    }
    if (n == 0) {
        snprintf(buf, len, "(not readable)");
        return;
    }
    linx_disas_bytes(bytes, n, pc, &denv, text, sizeof(text), &used);
    linx_disas_squeeze(text);
    linx_disas_hex(bytes, used <= n ? used : (unsigned)n, hex, sizeof(hex));
    snprintf(buf, len, "%s  [%s]", text, hex);
}

void linx_trap_report(FILE *f, CPULinxState *env)
{
    unsigned trapnum = linx_trapno_num(env->trapno);
    unsigned cause = linx_trapno_cause(env->trapno);
    char why[320], block[LINX_DISAS_MAX + 80];

    linx_trap_cause_text(trapnum, cause, env->traparg0, why, sizeof(why));
    fprintf(f, "  trap %u (%s), cause 0x%x: %s\n", trapnum, linx_trap_name(trapnum), cause, why);
    if (env->bpc != env->trap_pc) {
        linx_trap_insn_text(env, env->bpc, block, sizeof(block));
        fprintf(f, "  in the block at 0x%" PRIx64 ": %s\n", env->bpc, block);
    }
    linx_cpu_dump_state(env, f);
}
