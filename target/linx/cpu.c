/*
 * LinxISA CPU: architectural reset and the register dump (-d cpu, fatal
 * traps).  The block-state sync (linx_cpu_sync_block_state) lives with
 * the translator, whose replay it uses (translate.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "profile.h"

static const char *const reg_names[LINX_NUM_GPRS] = {
    "zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra", "s0",
    "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3",
};

static const char *const kind_names[8] = {
    "NONE", "FALL", "DIRECT", "COND", "CALL", "IND", "ICALL", "RET",
};

void linx_cpu_reset(CPULinxState *env, uint64_t pc, unsigned acr)
{
    /* Clear the architectural part and the per-CPU caches the engine
     * owns stay as they are; everything before mgr_ssr plus the SSR
     * families and the header. */
    memset(env->gpr, 0, sizeof(env->gpr));
    memset(env->tq, 0, sizeof(env->tq));
    memset(env->uq, 0, sizeof(env->uq));
    env->t_head = env->u_head = 0;
    env->pc = pc;
    env->bpc = pc;
    env->carg = env->tgt = env->tgt_set = 0;
    env->br_kind = LINX_BR_FALL;
    env->blk_type = LINX_BLK_STD;
    env->hdr_target = 0;
    env->resume = 0;
    memset(env->lb, 0, sizeof(env->lb));
    memset(env->lc, 0, sizeof(env->lc));
    env->fcsr = 0;
    env->ssr_tp = env->ssr_gp = env->ssr_cstate = env->ssr_lcfr_en = 0;
    env->acr = acr;
    env->insn_count = 0;
    memset(env->mgr_ssr, 0, sizeof(env->mgr_ssr));
    memset(&env->hdr, 0, sizeof(env->hdr));
    env->resv_addr = env->resv_valid = env->resv_size = 0;
    env->trapno = env->traparg0 = env->trap_pc = 0;
    env->trap_active = 0;
    env->engine.exit_request = 0;
    env->exit_code = 0;
    if (!env->profile) {
        env->profile = linx_profile_default();
    }
}

void linx_cpu_dump_state(CPULinxState *env, FILE *f)
{
    bool synced = linx_cpu_sync_block_state(env);

    fprintf(f, "pc  %016" PRIx64 "  bpc %016" PRIx64 "  block %s%s  acr %" PRIu64
               "  insns %" PRIu64 "\n",
            env->pc, env->bpc, kind_names[env->br_kind & 7], synced ? "" : " (state unknown)",
            env->acr, env->insn_count);
    for (unsigned i = 0; i < LINX_NUM_GPRS; i++) {
        fprintf(f, "%-4s %016" PRIx64 "%s", reg_names[i], env->gpr[i], (i % 4 == 3) ? "\n" : "  ");
    }
    for (unsigned k = 1; k <= LINX_QUEUE_DEPTH; k++) {
        fprintf(f, "t#%u  %016" PRIx64 "  ", k, linx_cpu_queue_read(env, false, k));
    }
    fprintf(f, "\n");
    for (unsigned k = 1; k <= LINX_QUEUE_DEPTH; k++) {
        fprintf(f, "u#%u  %016" PRIx64 "  ", k, linx_cpu_queue_read(env, true, k));
    }
    fprintf(f, "\n");
    fprintf(f, "carg %" PRIu64 "  tgt %016" PRIx64 "%s  lb %" PRIx64 " %" PRIx64 " %" PRIx64
               "  fcsr %03" PRIx64 "  tp %016" PRIx64 "\n",
            env->carg, env->tgt, env->tgt_set ? " (set)" : "", env->lb[0], env->lb[1], env->lb[2],
            env->fcsr, env->ssr_tp);
    if (env->trapno) {
        fprintf(f, "trapno %016" PRIx64 "  traparg0 %016" PRIx64 "  trap_pc %016" PRIx64 "\n",
                env->trapno, env->traparg0, env->trap_pc);
    }
}
