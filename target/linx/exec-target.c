/*
 * LinxISA's LinxTargetOps (see exec-target.h): where the engine's part of
 * the CPU, the pc and the TB flags are in CPULinxState, and the traps the
 * faults the engine detects become (linx_raise_exception).
 */
#include "target/linx/exec-target.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#include "target/linx/target-config.h"

#include "cpu.h"
#include "disas.h"
#if LINX_HAVE_TRANSLATOR
#include "kernel-simd.h"
#include "translate.h"
#endif

#if LINX_HAVE_DISAS
static unsigned disas_insn(const uint8_t *code, size_t avail, uint64_t pc, char *text,
                           size_t textlen, char *hex, size_t hexlen)
{
    unsigned len = 0;

    linx_disas_bytes(code, avail, pc, NULL, text, textlen, &len);
    if (len != 0) {
        linx_disas_hex(code, len, hex, hexlen);
    }
    return len;
}
#endif

const size_t linx_cpu_engine_offset = offsetof(CPULinxState, engine);
/* The JIT reaches the TLB and the jump cache with a 32-bit displacement. */
_Static_assert(offsetof(CPULinxState, engine) + sizeof(CPUEngineState) < INT32_MAX / 2,
               "the engine's part of the CPU within disp32 reach");

_Noreturn void linx_raise_exception(CPULinxState *env, unsigned trapnum, unsigned cause,
                                    uint64_t traparg0, uint64_t pc)
{
    LinxLog *log = linx_cpu_log(env);

    env->trapno = (trapnum & LINX_TRAPNO_NUM_MASK) |
                  ((uint64_t)(cause & LINX_TRAPNO_CAUSE_MASK) << LINX_TRAPNO_CAUSE_SHIFT) |
                  LINX_TRAPNO_ARGV;
    env->traparg0 = traparg0;
    env->trap_pc = pc;
    env->pc = pc;
    if (log && linx_log_enabled(log, LINX_LOG_INT)) {
        linx_log_printf(
            log, "trap: cpu %u trapnum %u cause 0x%x traparg0 0x%" PRIx64 " at pc 0x%" PRIx64 "\n",
            env->engine.cpu_index, trapnum, cause, traparg0, pc);
    }
    /* A machine that vectors traps (virt: a guest handler at EVBASE) runs
     * on at the handler; a single step ends there. */
    linx_cpu_exit_trap(env, env->trap_hook && env->trap_hook(env, env->trap_opaque));
}

void linx_raise_mem_fault(CPULinxState *env, GuestFault fault, uint64_t addr, bool is_write,
                          uint64_t pc)
{
    unsigned cause;

    switch (fault) {
    case GM_FAULT_PROT:
        cause = LINX_DFSC_PERMISSION;
        break;
    case GM_FAULT_MMIO:
        cause = LINX_DFSC_EXTERNAL;
        break;
    case GM_FAULT_ALIGN:
        linx_raise_exception(env, LINX_TRAP_DATA_ALIGN_FAULT, 0, addr, pc);
    default:
        cause = LINX_DFSC_TRANSLATION;
        break;
    }
    if (is_write) {
        cause |= LINX_DFAULT_WNR;
    }
    linx_raise_exception(env, LINX_TRAP_DATA_PAGE_FAULT, cause, addr, pc);
}

/* TRAPARG0 = the source block: a direct edge names it in the source TB
 * (env->bpc is stale there: the commit discarded BPC); an indirect one
 * stored it to env->bpc before the lookup. */
void linx_raise_bad_target(CPULinxState *env, uint64_t src_block, uint64_t pc)
{
    linx_raise_exception(env, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_CFI, LINX_CFI_BAD_TARGET),
                         src_block ? src_block : env->bpc, pc);
}

const LinxTargetOps linx_target_ops = {
    .name = "LinxISA",
    LINX_TARGET_CPU_STATE_OPS,
#if LINX_HAVE_TRANSLATOR
    .translate_init = linx_translate_init,
    .translate = linx_translate_block,
    .cpu_detach = linx_kernel_release,
#endif
#if LINX_HAVE_DISAS
    .disas_insn = disas_insn,
#endif
#if LINX_HAVE_CPU_DUMP
    .dump_state = linx_cpu_dump_state,
#endif
};

void linx_exec_options_init(LinxExecOptions *opts)
{
    linx_exec_options_defaults(opts);
    opts->target = &linx_target_ops;
}
