/*
 * Backend set-up: host feature detection, the prologue/epilogue every TB
 * is entered and left through, and TB chaining (backend_set_jmp).
 *
 * Prologue, entry(env, code) (SysV: env in rdi, code in rsi):
 *     push rbp; push rbx; push r12; push r13; push r14; push r15
 *     sub  rsp, X86_FRAME_SIZE        ; rsp is now 16-byte aligned
 *     mov  rbp, rdi                   ; env stays in rbp for all TBs
 *     mov  r15, [&bs->guest_base]
 *     P = bs->pinned_env_offset; if (P >= 0) mov r14, [rbp + P]
 *     jmp  rsi
 * Epilogue:
 *   exit_addr:  xor eax, eax          ; "return 0"
 *   ret_addr:   P = bs->pinned_env_offset; if (P >= 0) mov [rbp + P], r14
 *               add rsp, X86_FRAME_SIZE
 *               pop r15 .. pop rbp; ret   ; returns rax
 * (P is read at run time, like the window base: backend_init runs before
 * the exec layer chooses it.)
 *
 * Chaining writes the rel32 of a goto_tb jump through the read-write view
 * of the code buffer (W^X: the executable view is never writable) with a
 * single aligned 4-byte store, so a CPU running the old code sees either
 * the old or the new target.
 */
#include <cpuid.h>
#include <stdlib.h>
#include <string.h>

#include "tcg/softmmu.h"
#include "tcg/vec.h"
#include "x86-gen.h"

#define CPUID_LEAF_BASIC 1
#define CPUID_LEAF_EXT7 7
#define CPUID_LEAF_EXT 0x80000001u
#define CPUID_1_ECX_POPCNT (1u << 23)
#define CPUID_7_EBX_BMI1 (1u << 3)
#define CPUID_7_EBX_BMI2 (1u << 8)
#define CPUID_80000001_ECX_LZCNT (1u << 5) /* ABM */

#define PROLOGUE_ALIGN 16

/* Callee-saved registers the prologue pushes, in push order. */
static const uint8_t saved_regs[] = {
    X86_RBP, X86_RBX, X86_R12, X86_R13, X86_R14, X86_R15,
};

_Static_assert((8 /* return address */ + 8 * sizeof(saved_regs) + X86_FRAME_SIZE) % 16 == 0,
               "frame keeps rsp 16-byte aligned");

static uint32_t detect_features(void)
{
    unsigned a, b, c, d;
    uint32_t f = 0;

    if (__get_cpuid(CPUID_LEAF_BASIC, &a, &b, &c, &d) && (c & CPUID_1_ECX_POPCNT)) {
        f |= X86_FEAT_POPCNT;
    }
    if (__get_cpuid_count(CPUID_LEAF_EXT7, 0, &a, &b, &c, &d)) {
        f |= (b & CPUID_7_EBX_BMI1) ? X86_FEAT_BMI1 : 0;
        f |= (b & CPUID_7_EBX_BMI2) ? X86_FEAT_BMI2 : 0;
    }
    if (__get_cpuid(CPUID_LEAF_EXT, &a, &b, &c, &d) && (c & CPUID_80000001_ECX_LZCNT)) {
        f |= X86_FEAT_LZCNT;
    }
    return f;
}

/* Load (prologue) or store (epilogue) the pinned global's register when
 * bs->pinned_env_offset >= 0, using @tmp:
 *     movabs tmp, &bs->pinned_env_offset; movsxd tmp, dword [tmp]
 *     test tmp, tmp; js skip; mov r14, [rbp + tmp]  (or the store)
 *   skip: */
static void emit_pinned_move(X86Emitter *e, BackendState *bs, int tmp, bool store)
{
    size_t skip;

    x86_movi(e, tmp, (uint64_t)(uintptr_t)&bs->pinned_env_offset);
    x86_modrm_mem(e, OPC_MOVSXD_GvEd | X86_P_W, tmp, tmp, X86_NO_REG, 0, 0);
    x86_test_rr(e, tmp, tmp);
    skip = x86_jcc_rel32(e, X86_CC_S);
    x86_modrm_mem(e, (store ? OPC_MOV_EvGv : OPC_MOV_GvEv) | X86_P_W, X86_PINNED_REG,
                  X86_ENV_REG, tmp, 0, 0);
    x86_patch_rel32(e, skip, e->pos);
}

bool backend_init(BackendState *bs, CodeBuffer *cb)
{
    size_t start = cb->used;
    X86Emitter e = { .buf = cb->rw + start, .rx_base = (uintptr_t)cb->rx + start,
                     .cap = cb->size > start ? cb->size - start : 0 };

    bs->host_features = detect_features();
    bs->ld_slow = linx_ld_slow;
    bs->st_slow = linx_st_slow;
    bs->guest_direct = false;
    bs->guest_base = 0;
    bs->lookup_info = NULL;
    bs->lookup_slow = NULL;
    bs->pinned_env_offset = -1;
    bs->fallbacks = 0;
    bs->tile_moves = 0;
    {
        VecIsa isa = vec_host_isa();
        const char *v = getenv("LINX_TILE_INLINE");

        bs->tile_move_isa = (v && strcmp(v, "0") == 0) ? 0
                            : isa == VEC_ISA_AVX512    ? 2
                            : isa == VEC_ISA_AVX2      ? 1
                                                       : 0;
    }

    bs->entry = (LinxJitEntry)(uintptr_t)x86_rx_here(&e);
    for (unsigned i = 0; i < sizeof(saved_regs); i++) {
        x86_push(&e, saved_regs[i]);
    }
    x86_alu_ri(&e, X86_ALU_SUB, X86_RSP, X86_FRAME_SIZE);
    x86_mov_rr(&e, X86_ENV_REG, x86_arg_regs[0]);
    /* The direct-window base as the exec layer set it last (read at each
     * entry: bs outlives the code buffer's users). */
    x86_movi(&e, X86_RAX, (uint64_t)(uintptr_t)&bs->guest_base);
    x86_ld(&e, OPC_MOV_GvEv | X86_P_W, X86_GUEST_BASE_REG, X86_RAX, 0);
    emit_pinned_move(&e, bs, X86_RAX, false);
    x86_jmp_reg(&e, x86_arg_regs[1]);

    x86_align(&e, PROLOGUE_ALIGN, 0);
    bs->exit_addr = (const void *)x86_rx_here(&e);
    x86_alu_rr(&e, X86_ALU_XOR, X86_RAX, X86_RAX);
    bs->ret_addr = (const void *)x86_rx_here(&e);
    emit_pinned_move(&e, bs, X86_RCX, true); /* rax holds the result */
    x86_alu_ri(&e, X86_ALU_ADD, X86_RSP, X86_FRAME_SIZE);
    for (unsigned i = sizeof(saved_regs); i-- > 0;) {
        x86_pop(&e, saved_regs[i]);
    }
    x86_ret(&e);
    x86_align(&e, PROLOGUE_ALIGN, 0);
    if (e.overflow) {
        return false;
    }
    cb->used = start + e.pos;
    cb->reserved = cb->used;
    return true;
}

void backend_set_jmp(BackendState *bs, CodeBuffer *cb, TranslationBlock *tb, unsigned n,
                     const TranslationBlock *dest)
{
    (void)bs;
    if (n > 1 || tb->jmp_insn_offset[n] == UINT32_MAX || !tb->host_code) {
        return;
    }
    const uint8_t *jmp_rx = (const uint8_t *)tb->host_code + tb->jmp_insn_offset[n];
    const uint8_t *target = dest && dest->host_code
                                ? (const uint8_t *)dest->host_code
                                : (const uint8_t *)tb->host_code + tb->jmp_reset_offset[n];
    int32_t disp = (int32_t)(target - (jmp_rx + X86_JMP_REL32_SIZE));
    uint32_t *field = (uint32_t *)(void *)code_buffer_rw(cb, jmp_rx + 1);

    __atomic_store_n(field, (uint32_t)disp, __ATOMIC_RELEASE);
}
