/*
 * The commit-trace helper: one record per retired instruction (TB_F_TRACE
 * translations call it after each instruction), written through the
 * exec layer's buffered JSONL writer (tcg/commit-trace.h) in the peer's
 * schema.  The written destination is found by comparing the registers
 * and ClockHands slots with a per-CPU snapshot taken at the previous
 * record (env->trace_shadow); the same snapshot gives the source values
 * before the instruction.  Loads and stores report their access through
 * env->trace_mem (stored by the translated code); MCOPY/MSET report one
 * 8-byte store per step, as the peer.  Atomics and the frame templates
 * report no access.
 */
#include <stdio.h>
#include <string.h>

#include "hw/core/guest-memory.h"
#include "tcg/commit-trace.h"

#include "decode.h"
#include "helper-proto.h"
#include "profile.h"
#include "trace-info.h"

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

/* Source operands as the peer reports them: src0 = SrcL (RegSrc0 for the
 * templates), src1 = SrcR (RegSrc1), GPRs only (ClockHands reads are not
 * reported), with the values before the instruction (the snapshot). */
static void trace_sources(const CPULinxState *env, const LinxInsn *insn, LinxCommitRecord *r)
{
    static const LinxFieldId f0[] = { LINX_FLD_SrcL, LINX_FLD_RegSrc0 };
    static const LinxFieldId f1[] = { LINX_FLD_SrcR, LINX_FLD_RegSrc1 };
    bool present;

    for (unsigned i = 0; i < 2; i++) {
        int64_t reg = linx_insn_field(insn, f0[i], &present);
        if (present && reg >= 0 && reg < LINX_NUM_GPRS) {
            r->src0_valid = true;
            r->src0_reg = (uint32_t)reg;
            r->src0_data = env->trace_shadow[reg];
            break;
        }
    }
    for (unsigned i = 0; i < 2; i++) {
        int64_t reg = linx_insn_field(insn, f1[i], &present);
        if (present && reg >= 0 && reg < LINX_NUM_GPRS) {
            r->src1_valid = true;
            r->src1_reg = (uint32_t)reg;
            r->src1_data = env->trace_shadow[reg];
            break;
        }
    }
}

/* The data access recorded by the translated code (env->trace_mem). */
static void trace_access(CPULinxState *env, LinxCommitRecord *r)
{
    uint64_t size = env->trace_mem[0] & 0xff;
    uint64_t mask = size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1;

    if (!size) {
        return;
    }
    r->mem_valid = true;
    r->mem_is_store = (env->trace_mem[0] & 0x100) != 0;
    r->mem_addr = env->trace_mem[1];
    r->mem_size = (uint32_t)size;
    if (r->mem_is_store) {
        r->mem_wdata = env->trace_mem[2] & mask;
    } else {
        r->mem_rdata = env->trace_mem[2] & mask;
    }
    env->trace_mem[0] = 0;
}

/* Step @k of an MCOPY/MSET of @size bytes at @dst: an 8-byte store (the
 * peer's step), with the data now in memory. */
static void trace_template_step(CPULinxState *env, uint64_t dst, uint64_t size, uint64_t k,
                                LinxCommitRecord *r)
{
    uint64_t n = size - k * LINX_TRACE_TEMPLATE_STEP;
    uint64_t v = 0;

    n = n < LINX_TRACE_TEMPLATE_STEP ? n : LINX_TRACE_TEMPLATE_STEP;
    r->mem_valid = true;
    r->mem_is_store = true;
    r->mem_addr = dst + k * LINX_TRACE_TEMPLATE_STEP;
    r->mem_size = (uint32_t)n;
    if (env->engine.mem) {
        guest_mem_read(env->engine.mem, r->mem_addr, &v, n, GM_PROT_READ, NULL);
    }
    r->mem_wdata = v;
}

/* The block fields (trace-info.h) of record @r; @meta holds tile_meta. */
static void trace_block_fields(uint64_t info, LinxCommitRecord *r, char *meta, size_t n)
{
    LinxTraceInfo t;

    linx_trace_info_unpack(info, &t);
    r->block_kind = linx_trace_kind_name(t.kind);
    r->lane_id = t.kind == LINX_TK_VPAR || t.kind == LINX_TK_VSEQ ? 0 : -1;
    if (linx_trace_kind_is_tile(t.kind)) {
        snprintf(meta, n, "func=%u,dtype=%u,iot_valid=%u,iot_count=%u", (unsigned)t.func,
                 (unsigned)t.dtype, t.niot ? 1u : 0u, (unsigned)t.niot);
        r->tile_meta = meta;
        r->tile_ref_src = t.src0;
        r->tile_ref_dst = t.src1;
    }
}

/* @info: the instruction length, with the block fields above it
 * (trace-info.h, packed by the translator). */
void helper_trace_insn(CPULinxState *env, uint64_t pc, uint64_t raw, uint64_t info)
{
    LinxCommitRecord r;
    LinxInsn insn;
    bool decoded, present;
    bool tmpl = false;
    uint64_t data = 0, dst = 0, size = 0;
    uint64_t len = info & 0xff;
    char meta[80];
    unsigned rd;

    if (!env->engine.trace) {
        return;
    }
    memset(&r, 0, sizeof(r));
    r.isa_profile = env->profile ? env->profile->name : NULL;
    decoded = linx_decode_packed(raw, (unsigned)len, &insn) == LINX_DECODE_OK;
    if (decoded) {
        trace_sources(env, &insn, &r);
        if (insn.form == LINX_F_MCOPY || insn.form == LINX_F_MSET) {
            int64_t d = linx_insn_field(&insn, LINX_FLD_RegSrc0, &present);
            int64_t n = linx_insn_field(&insn, LINX_FLD_RegSrc2, &present);
            tmpl = true;
            dst = d > 0 && d < LINX_NUM_GPRS ? env->gpr[d] : 0;
            size = n > 0 && n < LINX_NUM_GPRS ? env->gpr[n] : 0;
        }
    }
    trace_access(env, &r);
    rd = trace_find_wb(env, &data);
    rd = trace_decoded_dst(env, raw, len, rd, &data);
    r.pc = pc;
    r.insn = raw;
    r.len = (uint32_t)len;
    trace_block_fields(info, &r, meta, sizeof(meta));
    r.next_pc = pc;
    uint64_t steps = trace_template_steps(env, raw, len);
    for (uint64_t k = 0; k + 1 < steps; k++) {
        if (tmpl) {
            trace_template_step(env, dst, size, k, &r);
        }
        linx_commit_trace_write(env->engine.trace, &r);
    }
    if (tmpl && size) {
        trace_template_step(env, dst, size, steps - 1, &r);
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
    r.next_pc = pc + len;
    linx_commit_trace_write(env->engine.trace, &r);
}

/* A kernel-body instruction (kernel-body.c, docs/engine.md "Commit trace:
 * kernel bodies"): @info is its length, bit 8 set for a cross-lane
 * instruction, which runs once over the group and writes one row per lane
 * of it (LB0).  The block kind is the header's (env->kern.trace_kind);
 * lane_id is 0 as the peer's; the register and memory fields stay 0 (the
 * operands are lane registers, not GPRs) and the GPR snapshot of the
 * scalar rows is left alone. */
void helper_trace_kbody(CPULinxState *env, uint64_t pc, uint64_t raw, uint64_t info)
{
    LinxCommitRecord r;
    uint64_t len = info & 0xff;
    uint64_t n = (info & 0x100) ? env->lb[0] : 1;

    if (!env->engine.trace) {
        return;
    }
    memset(&r, 0, sizeof(r));
    r.isa_profile = env->profile ? env->profile->name : NULL;
    r.pc = pc;
    r.insn = raw;
    r.len = (uint32_t)len;
    r.block_kind = linx_trace_kind_name((unsigned)env->kern.trace_kind);
    r.lane_id = 0;
    r.next_pc = pc + len;
    for (uint64_t i = 0; i < n; i++) {
        linx_commit_trace_write(env->engine.trace, &r);
    }
}
