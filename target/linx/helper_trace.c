/*
 * The commit-trace helper: one record per retired instruction (TB_F_TRACE
 * translations call it after each instruction), written through the
 * exec layer's buffered JSONL writer (tcg/commit-trace.h) in the peer's
 * schema.  The written destination is found by comparing the registers
 * and ClockHands slots with a per-CPU snapshot taken at the previous
 * record (env->trace_shadow).
 */
#include <string.h>

#include "tcg/commit-trace.h"

#include "helper-proto.h"

/* Destination written since the previous record: 1..23 GPR, 31 T push,
 * 30 U push, 0 none; @data gets its value. */
static unsigned trace_find_wb(CPULinxState *env, uint64_t *data)
{
    uint64_t *sh = env->trace_shadow;
    unsigned rd = 0;

    for (unsigned i = 1; i < LINX_NUM_GPRS && !rd; i++) {
        if (env->gpr[i] != sh[i]) {
            rd = i;
            *data = env->gpr[i];
        }
    }
    for (unsigned i = 0; i < LINX_QUEUE_DEPTH && !rd; i++) {
        if (env->tq[i] != sh[LINX_NUM_GPRS + i]) {
            rd = LINX_DST_T;
            *data = env->tq[i];
        } else if (env->uq[i] != sh[LINX_NUM_GPRS + LINX_QUEUE_DEPTH + i]) {
            rd = LINX_DST_U;
            *data = env->uq[i];
        }
    }
    memcpy(sh, env->gpr, sizeof(env->gpr));
    memcpy(sh + LINX_NUM_GPRS, env->tq, sizeof(env->tq));
    memcpy(sh + LINX_NUM_GPRS + LINX_QUEUE_DEPTH, env->uq, sizeof(env->uq));
    return rd;
}

void helper_trace_insn(CPULinxState *env, uint64_t pc, uint64_t raw, uint64_t len)
{
    LinxCommitRecord r;
    uint64_t data = 0;
    unsigned rd;

    if (!env->trace) {
        return;
    }
    rd = trace_find_wb(env, &data);
    memset(&r, 0, sizeof(r));
    r.pc = pc;
    r.insn = raw;
    r.len = (uint32_t)len;
    r.wb_valid = rd != 0;
    r.wb_rd = rd;
    r.wb_data = data;
    r.dst_valid = rd != 0;
    r.dst_reg = rd;
    r.dst_data = data;
    r.block_kind = "scalar";
    r.lane_id = -1;
    r.next_pc = pc + len;
    linx_commit_trace_write(env->trace, &r);
}
