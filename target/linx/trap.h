/*
 * Trap delivery to a guest handler (EVBASE) and the return by ACRE: the
 * v0.4 SERVICE_REQUEST / ACR_ENTER flows (docs/virt.md, "Traps").
 *
 * linx_trap_deliver() is what a machine's trap hook (env->trap_hook) calls
 * for a trap raised by linx_raise_exception(): it picks the handling ring,
 * saves the trap source into that ring's SSRs (ECSTATE, TRAPNO, TRAPARG0
 * and the EBARG group) and continues at its EVBASE in that ring.  It
 * refuses (and changes nothing) when the ring has no handler (EVBASE 0)
 * or when the trap comes from that ring's own handler before the handler
 * left through ACRE (a second trap would overwrite the saved state and
 * usually repeat for ever).  linx_acr_enter() is ACRE.
 *
 *   static bool hook(CPULinxState *env, void *opaque)
 *   {
 *       unsigned ring;
 *       return linx_trap_deliver(env, &ring) == LINX_TRAP_DELIVERED;
 *   }
 *   env->trap_hook = hook;
 */
#ifndef LINX_TARGET_TRAP_H
#define LINX_TARGET_TRAP_H

#include <stdint.h>

#include "cpu.h"

typedef enum LinxTrapDelivery {
    LINX_TRAP_DELIVERED = 0,
    LINX_TRAP_NO_HANDLER,   /* EVBASE of the handling ring is 0 */
    LINX_TRAP_DOUBLE_FAULT, /* the handling ring's handler trapped before ACRE */
} LinxTrapDelivery;

/* ACRE RRA_Type values. */
enum {
    LINX_RRAT_DEFAULT = 0,
    LINX_RRAT_RESTORE = 1,
};

/* The ring that handles trap @trapno (TRAPNUM | CAUSE << 24) raised in
 * ring @acr: E_* traps go to ACR0 from ACR0, else to ACR1; SCALL from
 * ACR2 with SCT_SYS goes to ACR1, every other service request to ACR0. */
unsigned linx_trap_ring(unsigned acr, uint64_t trapno);

/* Deliver the trap in env->trapno/traparg0/trap_pc (see above).  *ring is
 * the handling ring in every case.  Call with env->pc = env->trap_pc and
 * the guest registers in env (linx_raise_exception's state). */
LinxTrapDelivery linx_trap_deliver(CPULinxState *env, unsigned *ring);

/* ACRE @rra at @pc in the current ring n: ACR_ENTER to ECSTATE_ACRn.ACR
 * (EXEC_STATE_CHECK when that is more privileged than n), CSTATE from
 * ECSTATE_ACRn, BPC = EBARG_BPC_CUR_ACRn, pc = EBARG_TPC_ACRn when
 * ECSTATE_ACRn.BI, else BPC; RRAT_RESTORE reloads the block state (T/U
 * queues, CARG, TGT, LB/LC) from the EBARG group.  Leaves through
 * cpu_loop_exit(). */
_Noreturn void linx_acr_enter(CPULinxState *env, uint64_t rra, uint64_t pc);

#endif /* LINX_TARGET_TRAP_H */
