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

#include "decode.h"
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

/* Peer compatibility (shared/docs/peer-qemu.md 2.1): the LinxISA QEMU
 * port retires the restartable templates MCOPY and MSET one 8-byte step
 * at a time and logs each step but the last with next_pc == pc.  Number
 * of steps of the instruction @raw (1 for everything else); the size is
 * RegSrc2, which the template leaves unchanged.  (Added by the user-mode
 * developer for the virt trace comparison, tests/functional.) */
enum {
    LINX_TRACE_TEMPLATE_STEP = 8,
};

static uint64_t trace_template_steps(const CPULinxState *env, uint64_t raw, uint64_t len)
{
    LinxInsn insn;
    bool present;

    if (len != 4 || linx_decode_packed(raw, 4, &insn) != LINX_DECODE_OK ||
        (insn.form != LINX_F_MCOPY && insn.form != LINX_F_MSET)) {
        return 1;
    }
    int64_t reg = linx_insn_field(&insn, LINX_FLD_RegSrc2, &present);
    if (!present || reg <= 0 || reg >= LINX_NUM_GPRS) {
        return 1;
    }
    uint64_t size = env->gpr[reg];
    return size > LINX_TRACE_TEMPLATE_STEP ? (size + LINX_TRACE_TEMPLATE_STEP - 1) /
                                                 LINX_TRACE_TEMPLATE_STEP
                                           : 1;
}

/* Peer compatibility: the peer reports the instruction's destination
 * register even when the value written equals the old one (addi zero, 0,
 * ->a0 with a0 already 0).  When the form has a RegDst field, it is the
 * destination; otherwise the value comparison above decides. */
static unsigned trace_decoded_dst(const CPULinxState *env, uint64_t raw, uint64_t len,
                                  unsigned rd, uint64_t *data)
{
    LinxInsn insn;
    bool present;

    if (linx_decode_packed(raw, (unsigned)len, &insn) != LINX_DECODE_OK) {
        return rd;
    }
    int64_t dst = linx_insn_field(&insn, LINX_FLD_RegDst, &present);
    if (!present) {
        return rd;
    }
    if (dst > 0 && dst < LINX_NUM_GPRS) {
        *data = env->gpr[dst];
        return (unsigned)dst;
    }
    if (dst == LINX_DST_T || dst == LINX_DST_U) {
        return (unsigned)dst;
    }
    return 0; /* zero or a code that writes nothing */
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
    rd = trace_decoded_dst(env, raw, len, rd, &data);
    memset(&r, 0, sizeof(r));
    r.pc = pc;
    r.insn = raw;
    r.len = (uint32_t)len;
    r.block_kind = "scalar";
    r.lane_id = -1;
    r.next_pc = pc;
    for (uint64_t steps = trace_template_steps(env, raw, len); steps > 1; steps--) {
        linx_commit_trace_write(env->trace, &r);
    }
    if (rd == LINX_DST_T || rd == LINX_DST_U) {
        /* As the peer: a ClockHands push is no write-back; dst_reg names
         * the queue with dst_valid 0. */
        r.dst_reg = rd;
    } else {
        r.wb_valid = rd != 0;
        r.wb_rd = rd;
        r.wb_data = data;
        r.dst_valid = rd != 0;
        r.dst_reg = rd;
        r.dst_data = data;
    }
    r.block_kind = "scalar";
    r.lane_id = -1;
    r.next_pc = pc + len;
    linx_commit_trace_write(env->trace, &r);
}
