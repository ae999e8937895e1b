/*
 * System helpers: traps, the CFI fault of a TB that is not a block start,
 * service requests (ACRC; ACRE is in trap.c), ASSERT, FENCE.I, SSR/LSR access and the
 * tile/kernel block engine hook.
 *
 * SSRs (isa/v0.4/state/system_registers.json): the user SSRs are readable
 * in every ring; TIME/CYCLE/LXLCID/VENDOR/VERSION/LCFR are read-only; the
 * manager family 0xnFxx is accessible from ACR n or a more privileged
 * ring (lower number) and is kept in env->mgr_ssr.  FCSR is SSR 0x0002 (a
 * linxemu extension: v0.4 defines FCSR but no way to reach it).  Unknown
 * ids raise ILLEGAL_INST, privilege violations E_INST(EC_PERM).
 */
#include <stdio.h>

#include "tcg/exec.h"

#include "helper-proto.h"
#include "trap.h"

enum {
    LINX_SSR_FCSR = 0x0002,  /* linxemu extension */
    LINX_VERSION_VALUE = 0x0004, /* v0.4 */
    LINX_LCFR_LANES = 64,    /* LaneNum of the kernel engine (Sail model) */
    LINX_MSSR_ECONFIG = 0x07,
    LINX_ECONFIG_ASSERT = 1 << 3,
    LINX_FCSR_MASK = 0x71f,  /* RM[10:8], flags[4:0] */
};

void helper_raise(CPULinxState *env, uint64_t trapnum, uint64_t cause, uint64_t arg, uint64_t pc)
{
    linx_raise_exception(env, (unsigned)trapnum, (unsigned)cause, arg, pc);
}

/* A branch reached @pc, which is not a block-start marker.  TRAPARG0 is
 * the start of the block whose commit branched (env->bpc). */
void helper_cfi_bad_target(CPULinxState *env, uint64_t pc)
{
    linx_raise_exception(env, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_CFI, LINX_CFI_BAD_TARGET),
                         env->bpc, pc);
}

/* A resume TB was entered with another env->bpc than it was built for
 * (self-modifying code moved the block): drop the translations and
 * translate again. */
void helper_resume_mismatch(CPULinxState *env)
{
    linx_tb_flush(env);
    env->resume = 1;
    cpu_loop_exit(env);
}

/* ACRC: a system-call hook (linux-user) may take the request; else the
 * v0.4 rules: valid request types are SCT_MAC/SCT_SYS/SCT_SEC in ACR2 and
 * SCT_MAC/SCT_SEC in ACR1, nothing in ACR0 (E_INST(EC_ILLEGAL) otherwise);
 * a valid one raises SCALL with CAUSE = TRAPARG0 = the request type (the
 * peer's 11_system.c) and the trap pc after the ACRC (the mandatory
 * BSTOP), where ACRE resumes (EBARG_TPC). */
void helper_acrc(CPULinxState *env, uint64_t type, uint64_t pc)
{
    uint64_t next = pc + 4;
    bool valid;

    if (type > LINX_ACRC_SEC) {
        linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), pc, pc);
    }
    env->pc = pc;
    if (env->acrc_hook && env->acrc_hook(env, (unsigned)type, env->acrc_opaque)) {
        return;
    }
    valid = env->acr == 2 || (env->acr == 1 && type != LINX_ACRC_SYS);
    if (!valid) {
        linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), pc, pc);
    }
    env->resume = 1;
    linx_raise_exception(env, LINX_TRAP_SCALL, (unsigned)type, type, next);
}

/* ACRE: ACR_ENTER (target/linx/trap.h). */
void helper_acre(CPULinxState *env, uint64_t type, uint64_t pc)
{
    linx_acr_enter(env, type, pc);
}

void helper_assert(CPULinxState *env, uint64_t value, uint64_t pc)
{
    unsigned acr = (unsigned)env->acr < LINX_NUM_ACRS ? (unsigned)env->acr : 0;

    if (value == 0 && (env->mgr_ssr[acr][LINX_MSSR_ECONFIG] & LINX_ECONFIG_ASSERT)) {
        linx_raise_exception(env, LINX_TRAP_ASSERT_FAIL, 0, pc, pc);
    }
}

void helper_fence_i(CPULinxState *env, uint64_t next)
{
    linx_tb_flush(env);
    env->pc = next;
    env->resume = 1;
    cpu_loop_exit(env);
}

/* Manager SSR 0xnFxx: slot, or NULL when @acr may not access it. */
static uint64_t *mgr_ssr(CPULinxState *env, uint64_t id)
{
    unsigned n = (unsigned)(id >> LINX_SSR_ACR_SHIFT) & 0xf;

    if ((id & LINX_SSR_MGR_MASK) != LINX_SSR_MGR_BASE || n >= LINX_NUM_ACRS || env->acr > n) {
        return NULL;
    }
    return &env->mgr_ssr[n][id & (LINX_MSSR_COUNT - 1)];
}

static _Noreturn void ssr_fault(CPULinxState *env, uint64_t id, uint64_t pc)
{
    bool mgr = (id & LINX_SSR_MGR_MASK) == LINX_SSR_MGR_BASE;

    linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST,
                         LINX_CAUSE(mgr ? LINX_EC_PERM : LINX_EC_ILLEGAL, 0), pc, pc);
}

uint64_t helper_ssr_get(CPULinxState *env, uint64_t id, uint64_t pc)
{
    uint64_t *slot;

    switch (id) {
    case LINX_SSR_TP:
        return env->ssr_tp;
    case LINX_SSR_GP:
        return env->ssr_gp;
    case LINX_SSR_FCSR:
        return env->fcsr;
    case LINX_SSR_TIME:
    case LINX_SSR_CYCLE:
        /* Bring-up models both as the retired-instruction count. */
        return env->insn_count;
    case LINX_SSR_CSTATE:
        return (env->ssr_cstate & ~LINX_CSTATE_ACR_MASK) | env->acr;
    case LINX_SSR_LXLCID:
        return env->engine.cpu_index;
    case LINX_SSR_VENDOR:
        return 0;
    case LINX_SSR_VERSION:
        return LINX_VERSION_VALUE;
    case LINX_SSR_LCFR:
        return LINX_LCFR_LANES;
    case LINX_SSR_LCFR_EN:
        return env->ssr_lcfr_en;
    case LINX_SSR_LB0:
    case LINX_SSR_LB0 + 1:
    case LINX_SSR_LB0 + 2:
        return env->lb[id - LINX_SSR_LB0];
    case LINX_SSR_LC0:
    case LINX_SSR_LC0 + 1:
    case LINX_SSR_LC2:
        return env->lc[id - LINX_SSR_LC0];
    default:
        slot = mgr_ssr(env, id);
        if (!slot) {
            ssr_fault(env, id, pc);
        }
        return *slot;
    }
}

void helper_ssr_set(CPULinxState *env, uint64_t id, uint64_t value, uint64_t pc)
{
    uint64_t *slot;

    switch (id) {
    case LINX_SSR_TP:
        env->ssr_tp = value;
        return;
    case LINX_SSR_GP:
        env->ssr_gp = value;
        return;
    case LINX_SSR_FCSR:
        env->fcsr = value & LINX_FCSR_MASK;
        return;
    case LINX_SSR_CSTATE:
        env->ssr_cstate = value & ~LINX_CSTATE_ACR_MASK; /* the ring changes by traps/ACRE only */
        return;
    case LINX_SSR_LCFR_EN:
        env->ssr_lcfr_en = value;
        return;
    case LINX_SSR_LB0:
    case LINX_SSR_LB0 + 1:
    case LINX_SSR_LB0 + 2:
        env->lb[id - LINX_SSR_LB0] = value;
        return;
    case LINX_SSR_LC0:
    case LINX_SSR_LC0 + 1:
    case LINX_SSR_LC2:
        env->lc[id - LINX_SSR_LC0] = value;
        return;
    case LINX_SSR_TIME:
    case LINX_SSR_CYCLE:
    case LINX_SSR_LXLCID:
    case LINX_SSR_VENDOR:
    case LINX_SSR_VERSION:
    case LINX_SSR_LCFR:
        ssr_fault(env, id, pc);
    default:
        slot = mgr_ssr(env, id);
        if (!slot) {
            ssr_fault(env, id, pc);
        }
        *slot = value;
        return;
    }
}

/* LSRGET: local status registers; none are defined in v0.4 beyond the
 * lane counters, which read as LC0-2 (ids 0-2). */
uint64_t helper_lsr_get(CPULinxState *env, uint64_t id, uint64_t pc)
{
    if (id < 3) {
        return env->lc[id];
    }
    linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), pc, pc);
}

/* Commit of a tile/kernel header block at @bpc (env->hdr gathered). */
void helper_block_engine(CPULinxState *env, uint64_t bpc)
{
    if (!env->block_engine) {
        linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), bpc,
                             bpc);
    }
    env->pc = bpc;
    env->block_engine(env, env->block_engine_opaque);
}
