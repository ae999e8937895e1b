/*
 * x86-64 code for memory ops: host loads/stores relative to a pointer
 * temp (the ld and st ops), and guest loads/stores (qemu_ld/qemu_st) through the
 * softmmu TLB.
 *
 * Guest access fast path (tcg/softmmu.h), addr in A, scratch T0/T1:
 *
 *     mov   T0, A                 ; with BMI2 one "rorx T0, A, 7"
 *     shr   T0, GUEST_PAGE_BITS - TLB_ENTRY_SHIFT   ; page number * 32
 *     and   T0, (LINX_TLB_SIZE - 1) << TLB_ENTRY_SHIFT
 *     mov   T1, A                 ; aligned access: the size mask in the
 *     and   T1, PAGE_MASK | (size - 1)  ; compare makes misalignment miss
 *       (unaligned allowed: lea T1, [A + size - 1]; and T1, PAGE_MASK)
 *     cmp   T1, [rbp + T0 + tlb + addr_read/addr_write]
 *     jne   slow_N                ; out of line, at the end of the TB
 *     mov   T0, [rbp + T0 + tlb + addend]   ; not in direct mode
 *     mov   D, [A + T0]           ; or the store; sized, extended
 *                                 ; direct mode: [A + r15] (window base)
 *   done_N:
 *
 * Slow path N (emitted after the TB's last op): write back the globals
 * that are dirty at this point (the access may fault, and the fault
 * handler reads env), save the call-clobbered registers that hold live
 * values, call ld_slow(env, addr, memop, pc) or st_slow(env, addr, value,
 * memop, pc), move the result, restore, jump to done_N.  The main path
 * therefore never writes globals back just because of a memory access.
 *
 * Host ld/st whose base is env and whose offset overlaps a global's field
 * first write the global back (load) or also drop its register copy
 * (store): that is the one way the IR may touch a global's memory.
 */
#include <stddef.h>

#include "hw/core/guest-memory.h"
#include "tcg/softmmu.h"
#include "x86-gen.h"

#define TLB_ENTRY_SHIFT 5
_Static_assert(sizeof(LinxTLBEntry) == (1u << TLB_ENTRY_SHIFT), "TLB entry size");

/* env offset of a field of the engine's part of the CPU (tcg/cpu-engine.h;
 * the target keeps it within disp32 reach: target/linx/cpu.c). */
#define ENGINE_OFFSET(field) ((int32_t)(linx_cpu_engine_offset + offsetof(CPUEngineState, field)))

static unsigned host_access_size(IROpcode op)
{
    switch (op) {
    case IR_ld8u:
    case IR_ld8s:
    case IR_st8:
        return 1;
    case IR_ld16u:
    case IR_ld16s:
    case IR_st16:
        return 2;
    case IR_ld32u:
    case IR_ld32s:
    case IR_st32:
        return 4;
    default:
        return 8;
    }
}

/* Load opcode for @size bytes (1 << log2), sign- or zero-extended to 64. */
static int load_opc(unsigned size_log2, bool sign)
{
    switch (size_log2) {
    case 0:
        return sign ? (OPC_MOVSBQ | X86_P_W) : OPC_MOVZBL;
    case 1:
        return sign ? (OPC_MOVSWQ | X86_P_W) : OPC_MOVZWL;
    case 2:
        return sign ? (OPC_MOVSXD_GvEd | X86_P_W) : OPC_MOV_GvEv;
    default:
        return OPC_MOV_GvEv | X86_P_W;
    }
}

static int store_opc(unsigned size_log2)
{
    switch (size_log2) {
    case 0:
        return OPC_MOV_EbGb | X86_P_BYTE_R;
    case 1:
        return OPC_MOV_EvGv | X86_P_66;
    case 2:
        return OPC_MOV_EvGv;
    default:
        return OPC_MOV_EvGv | X86_P_W;
    }
}

static unsigned log2_size(unsigned size)
{
    return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
}

/* Base register and displacement for host address @base_t + @off. */
static int host_base(X86Gen *g, IRTemp base_t, int64_t off, int32_t *disp)
{
    int rb = ra_load(g, base_t, X86_ANY_REG, 0);

    if (x86_fits_s32(off)) {
        *disp = (int32_t)off;
        return rb;
    }
    int t = ra_scratch(g, X86_ALLOCATABLE);
    x86_movi(&g->e, t, (uint64_t)off);
    x86_alu_rr(&g->e, X86_ALU_ADD, t, rb);
    *disp = 0;
    return t;
}

static void gen_host_ld(X86Gen *g, const IRInsn *insn)
{
    IROpcode op = (IROpcode)insn->op;
    IRTemp d = (IRTemp)insn->args[0], base_t = (IRTemp)insn->args[1];
    int64_t off = (int64_t)insn->args[2];
    unsigned size = host_access_size(op);
    bool sign = op == IR_ld8s || op == IR_ld16s || op == IR_ld32s;
    int32_t disp;

    if (base_t == g->ir->env) {
        ra_env_access(g, off, size, false);
    }
    int rb = host_base(g, base_t, off, &disp);
    int rd = ra_out_reg(g, insn, 0, rb, 0);
    x86_ld(&g->e, load_opc(log2_size(size), sign), rd, rb, disp);
    ra_set_output_reg(g, d, rd);
}

static void gen_host_st(X86Gen *g, const IRInsn *insn)
{
    IROpcode op = (IROpcode)insn->op;
    IRTemp v = (IRTemp)insn->args[0], base_t = (IRTemp)insn->args[1];
    int64_t off = (int64_t)insn->args[2];
    unsigned size = host_access_size(op);
    int64_t cv;
    int32_t disp;
    bool imm = ra_is_const(g, v, &cv) && (size < 8 || x86_fits_s32(cv));
    int rv = imm ? -1 : ra_load(g, v, X86_ANY_REG, 0);
    int rb = host_base(g, base_t, off, &disp);

    if (base_t == g->ir->env) {
        ra_env_access(g, off, size, true);
    }
    if (imm) {
        x86_sti(&g->e, size, rb, disp, (int32_t)cv);
    } else {
        x86_st(&g->e, store_opc(log2_size(size)), rv, rb, disp);
    }
}

/* ------------------------------------------------------------------ */
/* Guest memory                                                        */
/* ------------------------------------------------------------------ */

static X86SlowPath *new_slow_path(X86Gen *g)
{
    if (!x86_grow((void **)&g->slow, &g->slow_cap, g->nslow + 1, sizeof(*g->slow))) {
        g->failed = true;
        return NULL;
    }
    X86SlowPath *s = &g->slow[g->nslow++];
    *s = (X86SlowPath){ 0 };
    return s;
}

/* The TLB compare; returns the position of the jne's rel32.  T0 ends up
 * holding the entry's offset from env's TLB. */
static uint32_t gen_tlb_check(X86Gen *g, int ra, int t0, int t1, unsigned memop, bool is_store)
{
    X86Emitter *e = &g->e;
    unsigned s_bits = memop & IR_MO_SIZE;
    int32_t size_mask = (int32_t)((1u << s_bits) - 1);
    int32_t cmp_disp = ENGINE_OFFSET(tlb) + (int32_t)(is_store ? offsetof(LinxTLBEntry, addr_write)
                                                               : offsetof(LinxTLBEntry, addr_read));

    if (g->bs->host_features & X86_FEAT_BMI2) {
        /* The page number bits land at TLB_ENTRY_SHIFT either way; the
         * bits rotated to the top are masked off (one instruction less). */
        x86_rorx(e, t0, ra, GUEST_PAGE_BITS - TLB_ENTRY_SHIFT);
    } else {
        x86_mov_rr(e, t0, ra);
        x86_shift_ri(e, X86_SHIFT_SHR, t0, GUEST_PAGE_BITS - TLB_ENTRY_SHIFT);
    }
    x86_alu_ri(e, X86_ALU_AND, t0, (int32_t)((LINX_TLB_SIZE - 1) << TLB_ENTRY_SHIFT));
    if ((memop & IR_MO_ALIGN) || size_mask == 0) {
        x86_mov_rr(e, t1, ra);
        x86_alu_ri(e, X86_ALU_AND, t1, (int32_t)(GUEST_PAGE_MASK | (uint64_t)size_mask));
    } else {
        /* Unaligned allowed: the page of the last byte must match too. */
        x86_lea(e, t1, ra, X86_NO_REG, 0, size_mask);
        x86_alu_ri(e, X86_ALU_AND, t1, (int32_t)GUEST_PAGE_MASK);
    }
    /* cmp T1, [rbp + T0 + disp32]: SIB with base rbp needs mod != 00. */
    x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, t1, X86_ENV_REG, t0, 0, cmp_disp);
    uint32_t field = (uint32_t)x86_jcc_rel32(e, X86_CC_NE);
    if (!g->bs->guest_direct) {
        x86_modrm_mem(e, OPC_MOV_GvEv | X86_P_W, t0, X86_ENV_REG, t0, 0,
                      ENGINE_OFFSET(tlb) + (int32_t)offsetof(LinxTLBEntry, addend));
    }
    return field;
}

/* Host faults (BackendState.guest_hostfault): the access needs no TLB
 * check when the address has none of env->host_fault_mask[size]'s bits
 * (inside the window, aligned); the page's host protection decides the
 * rest, a fault there continues at the slow path.  Returns the jne's
 * rel32 position. */
static bool use_hostfault(const X86Gen *g, unsigned memop)
{
    return g->bs->guest_hostfault && g->bs->guest_direct && (memop & IR_MO_ALIGN);
}

static uint32_t gen_hostfault_check(X86Gen *g, int ra, unsigned memop)
{
    int32_t disp = ENGINE_OFFSET(host_fault_mask) + 8 * (int32_t)(memop & IR_MO_SIZE);

    x86_modrm_mem(&g->e, OPC_TEST_EvGv | X86_P_W, ra, X86_ENV_REG, X86_NO_REG, 0, disp);
    return (uint32_t)x86_jcc_rel32(&g->e, X86_CC_NE);
}

/* Index register of a guest access after gen_tlb_check: every page that
 * hits lives at guest_base + address in direct mode (no load that depends
 * on the address), else at addend (now in T0) + address. */
static int host_index(const X86Gen *g, int t0)
{
    return g->bs->guest_direct ? X86_GUEST_BASE_REG : t0;
}

static void gen_qemu_ld(X86Gen *g, const IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0], addr = (IRTemp)insn->args[1];
    unsigned memop = (unsigned)insn->args[2];
    uint32_t nsync;

    bool hf = use_hostfault(g, memop);
    int ra = ra_load(g, addr, X86_ANY_REG, 0);
    int t0 = hf ? X86_GUEST_BASE_REG : ra_scratch(g, X86_ALLOCATABLE);
    int t1 = hf ? X86_NO_REG : ra_scratch(g, X86_ALLOCATABLE);
    uint32_t sync_start = ra_record_dirty_globals(g, &nsync, false);
    int rd = ra_out_reg(g, insn, 0, ra, hf ? 0 : X86_REG_BIT(t0) | X86_REG_BIT(t1));

    uint32_t field = hf ? gen_hostfault_check(g, ra, memop)
                        : gen_tlb_check(g, ra, t0, t1, memop, false);
    uint32_t access_pos = (uint32_t)g->e.pos;
    x86_modrm_mem(&g->e, load_opc(memop & IR_MO_SIZE, (memop & IR_MO_SIGN) != 0), rd, ra,
                  host_index(g, t0), 0, 0);
    ra_set_output_reg(g, d, rd);

    X86SlowPath *s = new_slow_path(g);
    if (!s) {
        return;
    }
    s->memop = (uint8_t)memop;
    s->hostfault = hf;
    s->access_pos = access_pos;
    s->addr_reg = (uint8_t)ra;
    s->val_reg = (uint8_t)rd;
    s->pc = insn->args[3];
    s->save_mask = ra_live_clobbered(g, insn) & ~X86_REG_BIT(rd);
    s->jcc_field = field;
    s->return_pos = (uint32_t)g->e.pos;
    s->sync_start = sync_start;
    s->sync_count = nsync;
}

static void gen_qemu_st(X86Gen *g, const IRInsn *insn)
{
    IRTemp v = (IRTemp)insn->args[0], addr = (IRTemp)insn->args[1];
    unsigned memop = (unsigned)insn->args[2];
    unsigned s_bits = memop & IR_MO_SIZE;
    uint32_t nsync;
    int64_t cv;
    bool imm = ra_is_const(g, v, &cv) && (s_bits < IR_MO_64 || x86_fits_s32(cv));

    bool hf = use_hostfault(g, memop);
    int rv = imm ? -1 : ra_load(g, v, X86_ANY_REG, 0);
    int ra = ra_load(g, addr, X86_ANY_REG, 0);
    int t0 = hf ? X86_GUEST_BASE_REG : ra_scratch(g, X86_ALLOCATABLE);
    int t1 = hf ? X86_NO_REG : ra_scratch(g, X86_ALLOCATABLE);
    uint32_t sync_start = ra_record_dirty_globals(g, &nsync, false);

    uint32_t field = hf ? gen_hostfault_check(g, ra, memop)
                        : gen_tlb_check(g, ra, t0, t1, memop, true);
    uint32_t access_pos = (uint32_t)g->e.pos;
    if (imm) {
        int opc = s_bits == 0 ? OPC_MOV_EbIb
                : s_bits == 1 ? (OPC_MOV_EvIz | X86_P_66)
                : s_bits == 2 ? OPC_MOV_EvIz : (OPC_MOV_EvIz | X86_P_W);
        x86_modrm_mem(&g->e, opc, 0, ra, host_index(g, t0), 0, 0);
        if (s_bits == 0) {
            x86_byte(&g->e, (uint8_t)cv);
        } else if (s_bits == 1) {
            x86_byte(&g->e, (uint8_t)cv);
            x86_byte(&g->e, (uint8_t)(cv >> 8));
        } else {
            x86_u32(&g->e, (uint32_t)cv);
        }
    } else {
        x86_modrm_mem(&g->e, store_opc(s_bits), rv, ra, host_index(g, t0), 0, 0);
    }

    X86SlowPath *s = new_slow_path(g);
    if (!s) {
        return;
    }
    s->is_store = true;
    s->memop = (uint8_t)memop;
    s->hostfault = hf;
    s->access_pos = access_pos;
    s->addr_reg = (uint8_t)ra;
    s->val_reg = imm ? X86_NO_REG : (uint8_t)rv;
    s->val_const = (uint64_t)cv;
    s->pc = insn->args[3];
    s->save_mask = ra_live_clobbered(g, insn);
    s->jcc_field = field;
    s->return_pos = (uint32_t)g->e.pos;
    s->sync_start = sync_start;
    s->sync_count = nsync;
}

void x86_emit_sync(X86Gen *g, uint32_t start, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        const X86SyncEntry *se = &g->sync[start + i];
        if (se->reg != X86_NO_REG) {
            x86_st(&g->e, OPC_MOV_EvGv | X86_P_W, se->reg, X86_ENV_REG, se->env_offset);
        } else {
            x86_sti64(&g->e, X86_ENV_REG, se->env_offset, se->value);
        }
    }
}

static void gen_slow_path(X86Gen *g, X86SlowPath *s)
{
    X86Emitter *e = &g->e;
    uint8_t dst[2], src[2];
    unsigned n = 0;

    s->entry_pos = (uint32_t)e->pos;
    x86_patch_rel32(e, s->jcc_field, e->pos);
    x86_emit_sync(g, s->sync_start, s->sync_count);
    for (int r = 0; r < X86_NB_REGS; r++) {
        if (s->save_mask & X86_REG_BIT(r)) {
            x86_st(e, OPC_MOV_EvGv | X86_P_W, r, X86_RSP, X86_FRAME_SAVE_OFF + 8 * r);
        }
    }
    /* Arguments: (env, addr, memop, pc) or (env, addr, value, memop, pc). */
    dst[n] = x86_arg_regs[1];
    src[n++] = s->addr_reg;
    if (s->is_store && s->val_reg != X86_NO_REG) {
        dst[n] = x86_arg_regs[2];
        src[n++] = s->val_reg;
    }
    x86_parallel_move(e, dst, src, n);
    x86_mov_rr(e, x86_arg_regs[0], X86_ENV_REG);
    if (s->is_store) {
        if (s->val_reg == X86_NO_REG) {
            x86_movi(e, x86_arg_regs[2], s->val_const);
        }
        x86_movi(e, x86_arg_regs[3], s->memop);
        x86_movi(e, x86_arg_regs[4], s->pc);
        x86_call_to(e, (uintptr_t)g->bs->st_slow, X86_RAX);
    } else {
        x86_movi(e, x86_arg_regs[2], s->memop);
        x86_movi(e, x86_arg_regs[3], s->pc);
        x86_call_to(e, (uintptr_t)g->bs->ld_slow, X86_RAX);
        x86_mov_rr(e, s->val_reg, X86_RET_REG);
    }
    for (int r = 0; r < X86_NB_REGS; r++) {
        if (s->save_mask & X86_REG_BIT(r)) {
            x86_ld(e, OPC_MOV_GvEv | X86_P_W, r, X86_RSP, X86_FRAME_SAVE_OFF + 8 * r);
        }
    }
    size_t field = x86_jmp_rel32(e);
    x86_patch_rel32(e, field, s->return_pos);
}

void x86_report_fault_sites(X86Gen *g, const uint8_t *rx)
{
    if (!g->bs->fault_site) {
        return;
    }
    for (unsigned i = 0; i < g->nslow; i++) {
        if (g->slow[i].hostfault) {
            g->bs->fault_site(g->bs->fault_site_opaque, rx + g->slow[i].access_pos,
                              rx + g->slow[i].entry_pos);
        }
    }
}

void x86_gen_slow_paths(X86Gen *g)
{
    for (unsigned i = 0; i < g->nslow; i++) {
        gen_slow_path(g, &g->slow[i]);
    }
}

bool x86_gen_mem(X86Gen *g, const IRInsn *insn)
{
    switch (insn->op) {
    case IR_ld8u:
    case IR_ld8s:
    case IR_ld16u:
    case IR_ld16s:
    case IR_ld32u:
    case IR_ld32s:
    case IR_ld64:
        gen_host_ld(g, insn);
        return true;
    case IR_st8:
    case IR_st16:
    case IR_st32:
    case IR_st64:
        gen_host_st(g, insn);
        return true;
    case IR_qemu_ld:
        gen_qemu_ld(g, insn);
        return true;
    case IR_qemu_st:
        gen_qemu_st(g, insn);
        return true;
    default:
        return false;
    }
}
