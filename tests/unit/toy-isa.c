/*
 * The toy ISA translator used by the exec-loop tests (toy-isa.h).
 */
#include "toy-isa.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Globals are registered first, in this order, so their temps are fixed. */
enum {
    TOY_G_GPR0 = 1, /* gpr[i] is temp TOY_G_GPR0 + i */
    TOY_G_PC = TOY_G_GPR0 + LINX_NUM_GPRS,
    TOY_G_RESUME,
    TOY_G_BPC,
};

static void toy_halt(CPULinxState *env)
{
    env->exit_code = (int)env->gpr[1];
    linx_cpu_exit_with(env, EXCP_EXIT);
}

static void toy_trap(CPULinxState *env, uint64_t trapnum, uint64_t pc)
{
    linx_raise_exception(env, (unsigned)trapnum, 0, pc, pc);
}

static void toy_fetch_fault(CPULinxState *env, uint64_t addr, uint64_t pc)
{
    linx_raise_exception(env, LINX_TRAP_INST_PAGE_FAULT, 0, addr, pc);
}

static void toy_fence_i(CPULinxState *env)
{
    linx_tb_flush(env);
    cpu_loop_exit(env);
}

static const IRHelperInfo toy_halt_info = { "toy_halt", (void *)toy_halt, 1, 0,
                                            IR_CALL_NORETURN, NULL };
static const IRHelperInfo toy_trap_info = { "toy_trap", (void *)toy_trap, 3, 0,
                                            IR_CALL_NORETURN, NULL };
static const IRHelperInfo toy_fetch_fault_info = { "toy_fetch_fault", (void *)toy_fetch_fault,
                                                   3, 0, IR_CALL_NORETURN, NULL };
static const IRHelperInfo toy_fence_i_info = { "toy_fence_i", (void *)toy_fence_i, 1, 0,
                                               IR_CALL_NORETURN, NULL };

void toy_translate_init(IRContext *ir)
{
    for (unsigned i = 0; i < LINX_NUM_GPRS; i++) {
        char name[8];
        snprintf(name, sizeof(name), "r%u", i);
        ir_global(ir, (int)offsetof(CPULinxState, gpr[i]), name);
    }
    ir_global(ir, (int)offsetof(CPULinxState, pc), "pc");
    ir_global(ir, (int)offsetof(CPULinxState, resume), "resume");
    ir_global(ir, (int)offsetof(CPULinxState, bpc), "bpc");
}

static IRTemp reg(unsigned r)
{
    return TOY_G_GPR0 + (r % LINX_NUM_GPRS);
}

static void gen_goto(IRContext *ir, TranslationBlock *tb, unsigned slot, uint64_t dest)
{
    ir_gen_goto_tb(ir, slot);
    ir_gen_movi(ir, TOY_G_PC, (int64_t)dest);
    ir_gen_exit_tb(ir, (uint64_t)(uintptr_t)tb | slot);
}

static void gen_call(IRContext *ir, const IRHelperInfo *h, unsigned n, const IRTemp *args)
{
    ir_gen_call(ir, h, IR_NO_TEMP, n, args);
}

static bool fetch(CPULinxState *env, uint64_t pc, uint32_t *insn, uint64_t *fault)
{
    return guest_mem_read(env->engine.mem, pc, insn, 4, GM_PROT_EXEC, fault) == GM_OK;
}

void toy_translate_block(CPULinxState *env, IRContext *ir, TranslationBlock *tb)
{
    uint64_t pc = tb->pc, fault = 0;
    bool resume = tb->flags & TB_F_RESUME;
    unsigned max = (tb->flags & TB_F_ONE_INSN) ? 1 : TOY_TB_MAX_INSNS;
    uint32_t insn;

    ir_reset(ir);
    tb->size = 4;
    if (!fetch(env, pc, &insn, &fault)) {
        IRTemp a[3] = { ir->env, ir_const(ir, (int64_t)fault), ir_const(ir, (int64_t)pc) };
        gen_call(ir, &toy_fetch_fault_info, 3, a);
        ir_gen_exit_tb(ir, 0);
        return;
    }
    if (!resume && (insn & 0xff) != TOY_MARK) {
        tb->cflags |= TB_C_CFI_BAD;
        ir_gen_exit_tb(ir, 0);
        return;
    }
    if (resume) {
        ir_gen_movi(ir, TOY_G_RESUME, 0);
    }
    for (unsigned n = 0;; n++) {
        unsigned op, a, b;
        int64_t imm;

        if (n > 0 && !fetch(env, pc, &insn, &fault)) {
            /* Let the fault happen in its own TB. */
            ir_gen_movi(ir, TOY_G_RESUME, 1);
            ir_gen_movi(ir, TOY_G_PC, (int64_t)pc);
            ir_gen_exit_tb(ir, 0);
            break;
        }
        op = insn & 0xff;
        a = (insn >> 8) & 0xff;
        b = (insn >> 16) & 0xff;
        imm = (int8_t)(insn >> 24);
        if (n > 0 && op == TOY_MARK) {
            gen_goto(ir, tb, 0, pc);
            break;
        }
        if (n == max) {
            /* Cut: the block continues in a resume TB. */
            ir_gen_movi(ir, TOY_G_RESUME, 1);
            gen_goto(ir, tb, 0, pc);
            break;
        }
        if (linx_exec_breakpoint_at(env->engine.exec, pc)) {
            /* Breakpoints are decided here, at translation time. */
            IRTemp args[3] = { ir->env, ir_const(ir, (int64_t)pc),
                               ir_const(ir, n > 0 || resume) };
            ir_gen_call(ir, &linx_helper_debug_stop_info, IR_NO_TEMP, 3, args);
            ir_gen_exit_tb(ir, 0);
            break;
        }
        tb->icount = n + 1;
        tb->size = (uint32_t)(pc + 4 - tb->pc);
        ir_gen_insn_start(ir, pc, n);
        switch (op) {
        case TOY_MARK:
            ir_gen_movi(ir, TOY_G_BPC, (int64_t)pc);
            break;
        case TOY_MOVI:
            ir_gen_movi(ir, reg(a), imm);
            break;
        case TOY_ADDI:
            ir_gen_addi(ir, reg(a), reg(a), imm);
            break;
        case TOY_ADD:
            ir_gen_add(ir, reg(a), reg(a), reg(b));
            break;
        case TOY_BNZ: {
            IRLabel taken = ir_label(ir);
            ir_gen_brcond(ir, IR_COND_NE, reg(a), ir_const(ir, 0), taken);
            gen_goto(ir, tb, 1, pc + 4);
            ir_gen_set_label(ir, taken);
            gen_goto(ir, tb, 0, pc + 4 * (uint64_t)imm);
            return;
        }
        case TOY_J:
            gen_goto(ir, tb, 0, pc + 4 * (uint64_t)imm);
            return;
        case TOY_JR:
            ir_gen_mov(ir, TOY_G_PC, reg(a));
            ir_gen_lookup_and_goto_ptr(ir);
            return;
        case TOY_LD:
            ir_gen_qemu_ld(ir, reg(a), reg(b), IR_MO_64 | IR_MO_ALIGN, pc);
            break;
        case TOY_LDU:
            ir_gen_qemu_ld(ir, reg(a), reg(b), IR_MO_64, pc);
            break;
        case TOY_ST:
            ir_gen_qemu_st(ir, reg(a), reg(b), IR_MO_64 | IR_MO_ALIGN, pc);
            break;
        case TOY_STB:
            ir_gen_qemu_st(ir, reg(a), reg(b), IR_MO_8, pc);
            break;
        case TOY_HALT: {
            IRTemp args[1] = { ir->env };
            ir_gen_movi(ir, TOY_G_PC, (int64_t)pc);
            gen_call(ir, &toy_halt_info, 1, args);
            ir_gen_exit_tb(ir, 0);
            return;
        }
        case TOY_FENCEI: {
            IRTemp args[1] = { ir->env };
            ir_gen_movi(ir, TOY_G_PC, (int64_t)(pc + 4));
            ir_gen_movi(ir, TOY_G_RESUME, 1);
            gen_call(ir, &toy_fence_i_info, 1, args);
            ir_gen_exit_tb(ir, 0);
            return;
        }
        case TOY_TRAP:
        default: {
            IRTemp args[3] = { ir->env, ir_const(ir, op == TOY_TRAP ? a : LINX_TRAP_ILLEGAL_INST),
                               ir_const(ir, (int64_t)pc) };
            gen_call(ir, &toy_trap_info, 3, args);
            ir_gen_exit_tb(ir, 0);
            return;
        }
        }
        pc += 4;
    }
}

/* -d in_asm: "MOVI a=1 b=0 c=5" (the opcode's name, the three fields). */
static unsigned toy_disas_insn(const uint8_t *code, size_t avail, uint64_t pc, char *text,
                               size_t textlen, char *hex, size_t hexlen)
{
    static const char *const names[] = {
        [TOY_MARK] = "MARK", [TOY_MOVI] = "MOVI", [TOY_ADDI] = "ADDI", [TOY_ADD] = "ADD",
        [TOY_BNZ] = "BNZ",   [TOY_J] = "J",       [TOY_JR] = "JR",     [TOY_LD] = "LD",
        [TOY_ST] = "ST",     [TOY_STB] = "STB",   [TOY_LDU] = "LDU",   [TOY_HALT] = "HALT",
        [TOY_TRAP] = "TRAP", [TOY_FENCEI] = "FENCEI",
    };
    (void)pc;
    if (avail < 4) {
        return 0;
    }
    snprintf(text, textlen, "%s a=%u b=%u c=%d",
             code[0] < sizeof(names) / sizeof(names[0]) && names[code[0]] ? names[code[0]] : "?",
             code[1], code[2], (int8_t)code[3]);
    snprintf(hex, hexlen, "%02x%02x%02x%02x", code[3], code[2], code[1], code[0]);
    return 4;
}

/* -d cpu: the toy's state, pc and r1-r3. */
static void toy_dump_state(CPULinxState *env, FILE *f)
{
    fprintf(f, "toy pc=0x%" PRIx64 " r1=%" PRIu64 " r2=%" PRIu64 " r3=%" PRIu64 "\n", env->pc,
            env->gpr[1], env->gpr[2], env->gpr[3]);
}

const LinxTargetOps toy_target_ops = {
    .name = "toy",
    .translate_init = toy_translate_init,
    .translate = toy_translate_block,
    .disas_insn = toy_disas_insn,
    .dump_state = toy_dump_state,
    /* The toy runs on LinxISA's CPU state and traps. */
    LINX_TARGET_CPU_STATE_OPS,
};

void toy_exec_options(LinxExecOptions *opts)
{
    linx_exec_options_defaults(opts);
    opts->accel = LINX_ACCEL_INTERP;
    opts->trace_commit_path = NULL;
    opts->target = &toy_target_ops;
}

void toy_load(GuestMemory *gm, uint64_t addr, const uint32_t *insns, size_t n)
{
    guest_mem_debug_rw(gm, addr, (void *)insns, n * 4, true);
}
