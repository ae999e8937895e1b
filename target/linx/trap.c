/*
 * Trap delivery to EVBASE and ACRE (target/linx/trap.h; the rules and
 * their sources are in docs/virt.md, "Traps").
 *
 * The v0.4 trap entry flow (10_system_and_privilege, "Trap entry flow"):
 * ECSTATE_ACRm = CSTATE (ACR = the source ring) with BI, the EBARG group
 * = the trap source block (BPC, next-block target, resume TPC, T/U
 * queues, LB/LC), CSTATE.I = 0, ACR = m, BARG reset, BPC = EVBASE_ACRm,
 * TRAPNO/TRAPARG0 of ring m.  ACRE reverses it.
 */
#include <inttypes.h>
#include <string.h>

#include "decode.h"
#include "hw/core/guest-memory.h"
#include "tcg/exec.h"
#include "trap.h"

#define EBARG0_TYPE_MASK 0x1fu
#define EBARG0_CARG (UINT64_C(1) << 5)
#define EBARG0_TGT_SET (UINT64_C(1) << 6)
#define EBARG_LX_BITS 16
#define EBARG_LX_MASK UINT64_C(0xffff)

unsigned linx_trap_ring(unsigned acr, uint64_t trapno)
{
    if (linx_trapno_num(trapno) == LINX_TRAP_SCALL) {
        return acr == 2 && linx_trapno_cause(trapno) == LINX_ACRC_SYS ? 1 : 0;
    }
    return acr == 0 ? 0 : 1;
}

/* Length of the instruction at @pc (2 when it cannot be read). */
static unsigned insn_len_at(CPULinxState *env, uint64_t pc)
{
    uint8_t b[2];

    if (!env->engine.mem || guest_mem_debug_rw(env->engine.mem, pc, b, sizeof(b), false) != GM_OK) {
        return 2;
    }
    return linx_insn_length((uint16_t)(b[0] | b[1] << 8));
}

static bool is_header_type(uint64_t type)
{
    return type >= LINX_BLK_MPAR && type <= LINX_BLK_FIXP;
}

static uint64_t pack_lx(const uint64_t v[3])
{
    return (v[0] & EBARG_LX_MASK) | (v[1] & EBARG_LX_MASK) << EBARG_LX_BITS |
           (v[2] & EBARG_LX_MASK) << (2 * EBARG_LX_BITS);
}

static void unpack_lx(uint64_t w, uint64_t v[3])
{
    for (unsigned i = 0; i < 3; i++) {
        v[i] = (w >> (i * EBARG_LX_BITS)) & EBARG_LX_MASK;
    }
}

/* Empty block state: what a block start gives (BARG reset, queues empty). */
static void reset_block_state(CPULinxState *env)
{
    memset(env->tq, 0, sizeof(env->tq));
    memset(env->uq, 0, sizeof(env->uq));
    env->t_head = env->u_head = 0;
    env->carg = env->tgt = env->tgt_set = 0;
    env->br_kind = LINX_BR_FALL;
    env->blk_type = LINX_BLK_STD;
    env->hdr_target = 0;
    memset(env->lb, 0, sizeof(env->lb));
    memset(env->lc, 0, sizeof(env->lc));
}

LinxTrapDelivery linx_trap_deliver(CPULinxState *env, unsigned *ring)
{
    unsigned src = (unsigned)env->acr;
    unsigned trapnum = linx_trapno_num(env->trapno);
    unsigned cause = linx_trapno_cause(env->trapno);
    unsigned m = linx_trap_ring(src, env->trapno);
    uint64_t *ssr;
    bool bad_target, synced, bi;
    uint64_t bpc, tgt, tpc;

    *ring = m;
    if (src >= LINX_NUM_ACRS) {
        return LINX_TRAP_NO_HANDLER;
    }
    ssr = env->mgr_ssr[m];
    if (ssr[LINX_MSSR_EVBASE] == 0) {
        return LINX_TRAP_NO_HANDLER;
    }
    if (src == m && (env->trap_active >> m) & 1) {
        return LINX_TRAP_DOUBLE_FAULT;
    }

    /* A branch to a non-marker traps at the target, after the source
     * block committed: TRAPARG0 names the source block, and there is no
     * block state left to save.  Everything else traps inside its block
     * (env->bpc), whose translation-time state the replay recovers. */
    bad_target = trapnum == LINX_TRAP_BLOCK &&
                 cause == LINX_CAUSE(LINX_EC_CFI, LINX_CFI_BAD_TARGET);
    synced = !bad_target && linx_cpu_sync_block_state(env);
    if (bad_target) {
        reset_block_state(env);
    }
    switch (trapnum) {
    case LINX_TRAP_SCALL:
    case LINX_TRAP_SW_BREAKPOINT:
    case LINX_TRAP_HW_BREAKPOINT:
    case LINX_TRAP_HW_WATCHPOINT:
        bi = true;
        break;
    case LINX_TRAP_BLOCK:
        bi = (cause >> 8) == LINX_EC_BFETCH;
        break;
    default:
        bi = !(synced && (env->trap_pc == env->bpc || is_header_type(env->blk_type)));
        break;
    }
    /* Resume pc: the faulting instruction, or the next one for the traps
     * that complete (breakpoints; an SCALL's trap pc already is the
     * instruction after the ACRC). */
    tpc = env->trap_pc;
    if (trapnum == LINX_TRAP_SW_BREAKPOINT || trapnum == LINX_TRAP_HW_BREAKPOINT ||
        trapnum == LINX_TRAP_HW_WATCHPOINT) {
        tpc += insn_len_at(env, env->trap_pc);
    }
    bpc = bad_target ? env->traparg0 : env->bpc;
    tgt = bad_target ? env->trap_pc : env->tgt_set ? env->tgt : env->hdr_target;

    ssr[LINX_MSSR_ECSTATE] = (env->ssr_cstate & ~(LINX_CSTATE_ACR_MASK | LINX_ECSTATE_BI)) | src |
                             (bi ? LINX_ECSTATE_BI : 0);
    ssr[LINX_MSSR_EBARG0] = (env->blk_type & EBARG0_TYPE_MASK) |
                            (env->carg ? EBARG0_CARG : 0) | (env->tgt_set ? EBARG0_TGT_SET : 0);
    ssr[LINX_MSSR_EBARG_BPC_CUR] = bpc;
    ssr[LINX_MSSR_EBARG_BPC_TGT] = tgt;
    ssr[LINX_MSSR_EBARG_TPC] = tpc;
    ssr[LINX_MSSR_EBARG_LRA] = 0;
    for (unsigned k = 1; k <= LINX_QUEUE_DEPTH; k++) {
        ssr[LINX_MSSR_EBARG_TQ0 + k - 1] = linx_cpu_queue_read(env, false, k);
        ssr[LINX_MSSR_EBARG_UQ0 + k - 1] = linx_cpu_queue_read(env, true, k);
    }
    ssr[LINX_MSSR_EBARG_LB] = pack_lx(env->lb);
    ssr[LINX_MSSR_EBARG_LC] = pack_lx(env->lc);
    ssr[LINX_MSSR_EBARG_EXTCTX_PTR] = 0;
    ssr[LINX_MSSR_EBARG_EXTCTX_META] = 0;
    ssr[LINX_MSSR_EBARG_TPLFLAGS] = 0;
    ssr[LINX_MSSR_TRAPNO] = env->trapno;
    ssr[LINX_MSSR_TRAPARG0] = env->traparg0;

    /* Enter the handler: a block start at EVBASE in ring m. */
    env->ssr_cstate &= ~(LINX_CSTATE_I | LINX_CSTATE_ACR_MASK);
    env->acr = m;
    env->trap_active |= UINT64_C(1) << m;
    reset_block_state(env);
    env->resv_valid = 0;
    env->pc = env->bpc = ssr[LINX_MSSR_EVBASE];
    env->resume = 0;
    if (env->engine.exec && linx_log_enabled(linx_exec_log(env->engine.exec), LINX_LOG_INT)) {
        linx_log_printf(linx_exec_log(env->engine.exec),
                        "trap: delivered to ACR%u at EVBASE 0x%" PRIx64 " (from ACR%u, BI %d, "
                        "resume 0x%" PRIx64 ")\n",
                        m, env->pc, src, bi, tpc);
    }
    return LINX_TRAP_DELIVERED;
}

_Noreturn void linx_acr_enter(CPULinxState *env, uint64_t rra, uint64_t pc)
{
    unsigned n = (unsigned)env->acr;
    const uint64_t *ssr;
    uint64_t ecstate, target;

    if (n >= LINX_NUM_ACRS - 1) {
        /* The least privileged ring manages none (linux-user's SIGILL). */
        linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_PERM, 0), pc, pc);
    }
    if (rra > LINX_RRAT_RESTORE) {
        linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), pc,
                             pc);
    }
    ssr = env->mgr_ssr[n];
    ecstate = ssr[LINX_MSSR_ECSTATE];
    target = ecstate & LINX_CSTATE_ACR_MASK;
    if (target < n || target >= LINX_NUM_ACRS) {
        linx_raise_exception(env, LINX_TRAP_EXEC_STATE, 0, target, pc);
    }
    env->ssr_cstate = ecstate & ~(LINX_CSTATE_ACR_MASK | LINX_ECSTATE_BI);
    env->acr = target;
    env->trap_active &= ~(UINT64_C(1) << n);
    reset_block_state(env);
    env->bpc = ssr[LINX_MSSR_EBARG_BPC_CUR];
    env->pc = (ecstate & LINX_ECSTATE_BI) ? ssr[LINX_MSSR_EBARG_TPC] : env->bpc;
    env->resume = env->pc != env->bpc;
    if (env->resume && rra == LINX_RRAT_RESTORE) {
        /* The resume TB reads the queues where the replay of the block up
         * to pc puts their heads; CARG, TGT and LB/LC it reads from env. */
        if (linx_cpu_sync_block_state(env)) {
            for (unsigned k = 1; k <= LINX_QUEUE_DEPTH; k++) {
                env->tq[(env->t_head - (k - 1)) & (LINX_QUEUE_DEPTH - 1)] =
                    ssr[LINX_MSSR_EBARG_TQ0 + k - 1];
                env->uq[(env->u_head - (k - 1)) & (LINX_QUEUE_DEPTH - 1)] =
                    ssr[LINX_MSSR_EBARG_UQ0 + k - 1];
            }
        }
        env->carg = (ssr[LINX_MSSR_EBARG0] & EBARG0_CARG) != 0;
        env->tgt = ssr[LINX_MSSR_EBARG_BPC_TGT];
        unpack_lx(ssr[LINX_MSSR_EBARG_LB], env->lb);
        unpack_lx(ssr[LINX_MSSR_EBARG_LC], env->lc);
    }
    cpu_loop_exit(env);
}
